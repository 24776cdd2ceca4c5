"""Uncooked Spaghetti and Square Meatballs (Leroy Quet): an n-by-n grid for two players.

The sheet is one square grid (:mod:`papergames.sheets.grid` gives the conventions): squares ``a1``
.. named chess style with row 1 at the bottom (columns skip the letter i), vertices named by their
grid lines in capitals (``C4`` is the lower-left corner of square ``c4``). Every vertex on the
perimeter carries its full name beside it and a dot, because the lines of the second phase run
between those vertices and a transcript names them; square coordinates sit in a band further out
on the left and at the bottom, for the squares filled in the first phase. The inner grid lines
are hairlines, as light as print allows, because the game asks for a lightly drawn grid: the
players' lines may run along grid lines and must stay visible there. The perimeter is medium.

Ids: ``space-<k>`` the squares (k = (row - 1) * size + column), ``line-1`` the perimeter,
``line-2`` .. the inner lines, ``point-<name>`` the 4 * size perimeter vertices in rows from the
bottom, left to right, with ``edges`` in their data (a corner lies on both of its edges).
Score rows: ``box-initials-<p>``, ``box-legend-<p>``, ``box-total-<p>`` for players 1 and 2; no
tally boxes, since a game can give up to size * (2 * size - 1) points.

Parameters: ``size`` (default 8, 3..20) squares per side. Squares must be at least 5 mm wide;
larger sizes on small paper are refused.
"""
