"""Springer (Sid Sackson): a rectangle of spaces meeting four at a corner, numbered triangles.

The field is a rectangle cut into ``columns`` x ``rows`` spaces (12 x 9 = 108 in the book). It
starts as a quadrilateral mesh: column widths and row heights vary, and every inner vertex is
moved at random within bounds that keep each quadrilateral convex with no angle under
:data:`QUAD_ANGLE`. For variety of shape and size, ``variety`` pairs of neighbouring spaces are
merged into one and as many other spaces are cut in two (by a diagonal into two triangles, or by
a line across into two quadrilaterals), so the count stays ``columns x rows`` by construction:
each merge is paired with one cut, and merges that find no partner cut are undone. Last, about
a quarter of the inner borders are bent by pushing a point near their middle aside (kept only
where both spaces stay fillable), so the field reads as drawn rather than ruled. Most inner
vertices still have four spaces meeting at them, which is what the game needs: chains run from
space to space through shared corners. Every space has an area of at least :data:`MIN_AREA`,
no angle under :data:`MIN_ANGLE` and room for a disk of radius :data:`MIN_INRADIUS`.

Conventions the rules engine and the photo reader rely on:

* ``space-<n>``: the spaces row by row, left to right (ordered by the grid cell they come from;
  the two halves of a cut cell upper one first, then left one first). Data: ``row`` and ``col``
  (1-based, the first grid cell of the space), ``cells`` (the grid cells it covers, two for a
  merged space) and ``shape`` (``cell``, ``merged`` or ``half``).
* ``line-1``: the heavy outline of the field; ``line-2`` ..: the inner lines, each a chain of
  mesh edges that runs on straight through four-way corners.
* ``triangle-<n>``: the numbered triangles outside the field, numbered clockwise from the top
  left corner (top edge left to right, right edge top down, bottom edge right to left, left edge
  bottom up). Each one's base lies on the field's edge; its data: ``value`` (1..5), ``edge``
  (``top``, ``right``, ``bottom``, ``left``), ``index`` (1.. along its edge, clockwise) and
  ``touches``: the spaces whose border shares a stretch of the base. A base never ends within
  :data:`END_CLEAR` mm of a corner of a space, so whether a space touches a triangle is never a
  matter of a point.
* Score rows (:func:`papergames.sheets.score.score_area`): ``box-initials-<p>``, ``box-legend-<p>``,
  ``box-total-<p>`` and four boxes ``box-tally<p>-<k>``, one per edge in the order top, right,
  bottom, left, for the value of the triangle the player took there.
* Page data: ``columns``, ``rows``, ``spaces``, ``triangles_per_edge``, ``triangles`` (id, edge,
  value, touches of each), ``four_corners`` (every point inside the field where four or more
  spaces meet: ``x``, ``y`` and the ``spaces``), ``four_corner_count``, ``inner_vertices`` (points
  inside the field where three or more spaces meet), ``merged``, ``split``, ``bent``,
  ``players``, ``target``.

Triangle values: with ``triangles=5`` (the default) each edge carries 1, 2, 3, 4 and 5 once, in
a random order, so every edge offers a 4 or a 5 and a total of 13 is always within reach. With
fewer triangles an edge carries distinct random values; with more, every value appears as evenly
as possible.
"""
