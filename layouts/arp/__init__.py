"""Arp (Sid Sackson): straight lines that cross each other and cut a field into spaces.

The book's field has 25 straight lines forming 55 spaces, with two score areas at each end of the
sheet. Players colour lines (or the part of a line from where it touches the last coloured line to
its end) and capture a space when their line completes its outline, so what matters in play is
which lines touch, where, and which stretches of line surround each space.

How the field is made, and why the counts are exact:

* The first few lines (``frame`` lines: 3, 4 or 5 of them, by the line count) form an irregular
  convex polygon that fills the field's box: one space.
* Every further line (a chord) is straight, starts on one existing line and ends on another, and
  crosses k existing lines in between. Adding it to the connected arrangement adds exactly k + 1
  spaces (it splits each of the k + 1 spaces it runs through in two), so after all lines the count
  is 1 + sum(k + 1). Each chord's k is picked so the sum lands exactly on ``spaces``: chords aim a
  little above the even share of the crossings still needed (long chords are easy while the
  field is open), so the last ones can be short; the last chord must have exactly the k left.
  A run that cannot finish is started again (a bounded number of times); then the build fails
  with an error naming the parameters, never with a wrong count.
* No line ends in the middle of nowhere: every line's two ends lie on other lines (T-junctions),
  and the frame lines meet end to end at the frame's corners. There are no dangling stubs, so
  every stretch of line borders a space on each side (or the outside), every space is convex, and
  Euler's formula holds as V - E + F = 2 with V = all points where lines meet (crossings,
  T-junctions, corners), E = the pieces of line between consecutive points, F = spaces + 1.
* Each chord is checked before it is kept: every crossing and junction angle is at least
  :data:`MIN_ANGLE`, no two points on one line are closer than :data:`MIN_GAP` and no two points
  at all closer than :data:`MIN_CLEAR` (so no three lines pass through one point and no crossing
  sits on top of another or on a line's end), and each space it makes has at least
  :data:`MIN_AREA` of area and :data:`MIN_WIDTH` of width (no slivers). Among the chords that
  pass, the one with the best score wins: its smallest new space, times a random factor of
  0.7..1.3, marked down when it meets a line at under 45 degrees. That keeps the spaces even and
  the lines from bunching into hatching.

Ids and numbering (the rules engine and the photo reader rely on these):

* ``line-<n>``: the whole straight line, drawn once in a medium weight. Lines 1..m are the frame,
  clockwise on the page from its top-left corner; the chords follow, ordered by the height of their
  midpoints (top first). Data: ``crossings`` (every point on the line, in order from the line's
  left end; top end for a vertical line), ``frame`` (bool).
* ``point-<i>-<j>``: where line i meets line j (i < j); label ``"<i>-<j>"``. Not drawn. Data:
  ``lines`` (the two line ids) and ``ends`` (the ids of lines that end at this point: none for a
  crossing, one for a T-junction, two for a frame corner).
* ``segment-<n>``: the piece of a line between two consecutive points, line by line and along each
  line in its order. Not drawn (the line is). Data: ``line``, ``points`` (its two ends) and
  ``spaces`` (the one or two spaces it borders).
* ``space-<n>``: the spaces, ordered by the height of their centroids (top first, then left).
  Not drawn. Data: ``segments`` (around its outline) and ``lines`` (the lines those lie on).
* Score areas ``box-*-<p>``: players 1 and 2 at the top, 3 and 4 at the bottom, each pair left
  to right: numbered in reading order, as every sheet numbers its players. Partners (who sit
  diagonally opposite at the table) are 1 and 3, 2 and 4. Each has one tally box per space: the
  highest possible score.
* Page data: ``lines``, ``spaces``, ``frame`` (ids of the frame lines), ``crossings`` (k of each
  chord in the order drawn).
"""
