"""Co-Compositeness (Leroy Quet): an n-by-n grid of squares that each take two numbers.

The sheet is one square grid (:mod:`papergames.sheets.grid` gives the conventions) with light lines
and a medium outline. Play happens in the squares, so the coordinates printed are the squares' own,
chess style, on all four sides (the default grid is 16 by 16, and a label on the near side saves
reaching across it): columns ``a, b, c, ...`` from the left (no ``i``, as on a go board), rows
``1, 2, 3, ...`` from the bottom. A square must take two handwritten numbers of up to four
digits, so it is never drawn smaller than 9 mm; larger sizes are refused on paper too small for
that (the largest size is 19 on A4 and 20 on Letter with two players, 24 needs A3; ``papergames
list`` shows the figures).

Ids: ``space-<k>`` the squares (k = (row - 1) * size + column), ``line-1`` the outline,
``line-2`` .. the inner lines. Score rows: ``box-initials-<p>``, ``box-legend-<p>``,
``box-total-<p>``, one per player, without tally boxes (up to size^2 points are possible).

Parameters: ``size`` (default 16, 4..24) squares per side; ``players`` (default 2, 2..6) score
rows.
"""
