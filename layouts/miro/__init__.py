"""Miro (Sid Sackson): one continuous line that crosses itself, cut into segments and spaces.

How the line is made, so the book's counts hold exactly for every seed:

1. A patch of a jittered, gently warped triangular lattice G is cut to a rounded blob that fills
   the field. The *medial* curve of G runs through the midpoints of G's edges: through every
   inner edge's midpoint two strands cross (at about 60 degrees), at a border edge's midpoint the
   line bounces back inside. Its spaces are one small triangle per lattice triangle and one
   larger polygon per inner lattice vertex.
2. Triple points: ``triples`` lattice triangles far apart are reserved. Their three corner
   crossings are never removed; at the end each reserved triangle is shrunk to its centre, so
   its three strands meet in one point at about 60 degrees (three double crossings, three
   segments and one space become one triple crossing).
3. Crossings are removed one at a time by *smoothing* (the two strands turn away instead of
   crossing) until exactly ``crossings + 3 * triples`` crossings are left. While the curve has
   several closed parts a crossing between two parts is smoothed, which joins them; once it is
   one closed line, only the smoothing that keeps it one line is used. Every smoothing merges
   two spaces; a union-find over the lattice's vertices and triangles keeps every space from
   touching a crossing twice (no pinched or self-touching spaces, the field stays one piece).
4. The line is drawn as a centripetal Catmull-Rom spline through the crossing points and the
   offset turning points: smooth (tangent-continuous), through every crossing exactly once per
   strand. The drawing is then checked: segments meet only at their ends, the faces are exactly
   ``spaces``, crossing angles, segment lengths, space areas and clearances. A failed check
   draws another patch (at most :data:`ATTEMPTS` times) and then raises an error naming the
   parameters; the defaults never get there.

Counts (V crossings, E segments, F spaces): V = crossings + triples,
E = 2 * crossings + 3 * triples, F = E - V + 1 = crossings + 2 * triples + 1. The book's 109
spaces and 209 segments are crossings=94, triples=7.

The sheet: the field in the middle, two score areas at each short end of the page (side by side
above and below the field on an upright page, stacked left and right of it on a turned one).
Each area has ``ceil(segments / 2)`` tally boxes (105 by default): a captured space scores one
point per segment of the capturer's colour around it, so a segment scores at most once for each
of its two sides and the whole field gives at most 2 * segments points; the four areas hold
them all (with two players, each uses two areas).

Ids and order:

* ``segment-<n>``: the pieces of the line between consecutive crossing points, numbered along
  the line from ``crossing-1`` (the crossing nearest the field's top-left corner). Data:
  ``spaces`` (the one or two spaces it borders), ``from`` and ``to`` (crossing ids, in the
  direction of travel).
* ``space-<n>``: the spaces in reading order (rows of about 15 mm, left to right). Data:
  ``segments`` (the segments around it).
* Page data: ``path`` (segment ids in order along the closed line), ``crossings`` (for each
  crossing point: ``id`` ``crossing-<k>`` numbered by first visit along the line, ``x``, ``y``,
  ``degree`` 4 or 6 and ``segments`` meeting there), and ``counts``.
* Score areas: the standard ids of :func:`papergames.sheets.score.score_area`, players 1 and 2
  at the top (or left) end, 3 and 4 at the bottom (or right) end.

Parameters: ``crossings`` (double crossings, default 94, 3..120) and ``triples`` (triple
crossings, default 7, 0..10), with ``triples <= crossings / 2`` and
``crossings + 3 * triples <= 120``. Small values give a mini-field like the book's
illustrations (``crossings=8 triples=1``: 11 spaces, 19 segments).

Guarantees checked on every sheet: spaces of at least 40 mm^2, segments of at least 3 mm,
strands crossing at 30 degrees or more, 2 mm between strands that do not cross, and no space
with a neck narrower than 2 mm.
"""
