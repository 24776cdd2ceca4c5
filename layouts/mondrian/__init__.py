"""Mondrian (Sid Sackson): a field of rectilinear spaces between heavy black lines.

The field is a partition of an integer lattice of ``cols`` x ``rows`` near-square cells into
axis-aligned spaces: mostly rectangles, some L-shapes. It is grown, not cut. Rectangles are laid
greedily like a skyline (always at the top-most, left-most empty cell, with a random size that
fits, drawn towards squares and towards lines already on the lattice, so many unions of spaces
are rectangles, which is what the game scores); a few of the blocks are laid as pinwheels (four
rectangles turning round a fifth, a figure no guillotine cut can make). Then every straight
line that would still run across the whole field is broken by joining a pair of spaces across
it, pairs of rectangles meeting along a corner-aligned side are joined into L-shapes, and a
bounded repair splits one of the largest rectangles (never along a line that would then cross
the field) or joins the smallest pair that makes a rectangle, one space at a time, until the
count is exact. A fill that misses anything (the count, the Ls, the pinwheels, no full cut) is
thrown away and grown again from the next random stream, at most :data:`ATTEMPTS` times; then
the build fails loudly rather than print a wrong sheet. One or two fills are usual.

Every space is at least :data:`MIN_SIDE` cells and :data:`MIN_SPACE_MM` mm wide in each part,
and no rectangle is longer than :data:`MAX_RATIO` times its width.

Parameters: ``field`` (``book``, the random field, or ``mini``, the book's 13-space
illustration), ``spaces`` (99; 30..160), ``points`` (80 tally boxes per score area; 10..160),
``tints`` (off; on tints about one space in twelve grey, for show only).

Ids and conventions (y grows down the page):

* ``space-<n>``: the spaces, numbered by their top-left lattice cell, row by row from the top,
  left to right. Data: ``rects`` (the space as one or two lattice rectangles
  ``[x0, y0, x1, y1]``, cells ``x0 <= x < x1``, ``y0 <= y < y1``), ``shape`` (``"rectangle"``
  or ``"L"``) and ``cells`` (its area in lattice cells). With ``field=mini`` the label is the
  space's letter, A to M, as in the book's illustration.
* ``line-<n>``: the heavy lines, every maximal straight run of border between spaces or round
  the field, horizontal ones first (top to bottom, left to right), then vertical ones (left to
  right, top to bottom). Each runs half a stroke past its ends so corners close cleanly.
* ``tint-<n>``: with ``tints=on``, the tint over ``space-<n>``, for show only.
* Score areas ``box-...-<p>`` for players 1 to 4: two above the field, two below it.
* Page data: ``field`` (``book`` or ``mini``), ``lattice`` ``[cols, rows]``, ``cell``
  ``[width, height]`` in mm, ``origin`` (the field's top-left corner in mm), ``shapes``
  (counts by shape), ``pinwheels`` (the ids of the hubs of pinwheels: rectangles with one
  rectangle along each whole side, turning the same way), ``points`` (tally boxes per area);
  for the mini field ``walkthrough``: the book's example fills in order as
  ``[space id, colour, expected score]``.
"""
