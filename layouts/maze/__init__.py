"""The "Maze" of Polygonal Sections (Leroy Quet): an n-by-n grid with a bold outline.

The sheet is one square grid (:mod:`papergames.sheets.grid` gives the conventions) drawn with
hairline inner lines, because the players' segments may run along them, and a heavy perimeter: the
seed has the outline darkened before play, so every vertex on it counts as reached from the start.
The game is played on vertices, so the coordinates printed are the vertices' own, go style: the
letter of each vertical grid line at both its ends (``A`` on the left edge; no ``I``) and the number
of each horizontal grid line at both its ends (``1`` on the bottom edge). Vertex ``C4`` is where
line C meets line 4, the lower-left corner of square ``c4``.

Ids: ``space-<k>`` the squares (k = (row - 1) * size + column; the sections of the second phase
are cut from them by the players), ``line-1`` the perimeter, ``line-2`` .. the inner lines,
``point-<name>`` every vertex, (size + 1)^2 of them in rows from the bottom, left to right,
invisible (the grid's crossings show them), with ``edges`` in their data. Score rows:
``box-initials-<p>``, ``box-legend-<p>``, ``box-total-<p>``, one per player, without tally boxes
(the number of points depends on how the maze is drawn and has no useful bound).

Parameters: ``size`` (default 8, 3..24) squares per side; ``players`` (default 2, 2..6) score
rows. Squares must be at least 5 mm wide.
"""
