"""Klee (Sid Sackson): a field of 12 x 12 spaces in the manner of Paul Klee's square paintings,
a two-lane scoring track around it, and each player's sequence areas at their end of the sheet.

The field keeps the topology of a regular grid while its squares vary in size: the column
widths and row heights are drawn at random (each at least 65 % of the mean), and every inner
grid line then wobbles gently, its crossing points shifted by a small, bounded amount. The
outline stays a square. Because every space is the quadrilateral between four crossing points,
each space shares an edge with the spaces before and after it in its row and column and only a
corner with its diagonal neighbours, whatever the seed; a space is at least
:data:`MIN_SIDE` mm across in both directions (so never under :data:`MIN_AREA` mm²).

The track runs clockwise round the field from a start cell at the top left. Its sides are cut
square across into ``track`` steps, the corners along their mitres, so no step bends round a
corner; the steps are spread over the four sides so that their lengths along the track's middle
line differ as little as possible (within 14 % for the default 30 steps), all steps of one side
being equal. Each step has an outer lane (player 1) and an inner lane (player 2): each player
marks their own points, one box per point. The start cell holds the two players' initials, one
either side of the start arrow, which points into step 1; the last step ends at the start cell.

Conventions the rules engine and the photo reader rely on:

* ``space-<n>``: the spaces row by row from the top, left to right within a row, so
  ``n = (row - 1) * size + col``; data ``{"row": r, "col": c}`` (1-based, row 1 at the top).
* ``line-1``: the field's outline (closed, through every crossing point on it);
  ``line-2`` .. ``line-<size>``: the inner vertical lines from the left; ``line-<size+1>`` ..
  ``line-<2 size - 1>``: the inner horizontal lines from the top. Data: ``axis`` and ``index``
  (the line's number counted from the left or top edge, 0 being the edge).
* ``box-track<p>-<k>``: step k (1 = next to the start arrow) of player p's lane (1 outer, 2
  inner); data ``{"player", "area": "track", "step"}``.
* ``box-initials-<p>``: player p's initials, in their lane of the start cell.
* ``box-seq<p>-<a>-<k>``: space k (1..3, left to right as player p sees it) of player p's
  sequence area a (1 = their leftmost); data ``{"player", "area": "seq", "sequence", "position",
  "standard"}``; ``standard`` is true for the middle four areas, the ones marked with an
  asterisk (texts ``asterisk-<p>-<a>``).
* ``box-lane-<p>``: player p colours it with the pencil they mark their lane of the track with
  (one of the four shared pencils, so the photo reader learns nothing from it).
* Page data: ``size``; ``rows``, ``columns`` (lists of space ids, left to right and top to
  bottom); ``diagonals``: every diagonal of the grid, first those running down to the right
  (from the lower-left one to the upper-right one) and then those running down to the left (from
  the top-left corner on), each listed from its top space, so every space lies on exactly one
  diagonal of each direction; ``track`` (player -> their lane's box ids in order),
  ``track_length``, ``start`` (the initials boxes), ``sequences`` (player -> areas -> box ids)
  and ``standard`` (the numbers of the areas marked with an asterisk).

Player 1's areas are at the top of the page; player 2's are at the bottom, turned round to
face a player sitting at that end.
"""
