"""Vasarely (Sid Sackson): isometric cubes cut into spaces that carry one to five dots.

The field is a honeycomb of ``cubes`` isometric cubes (the book: ten), drawn the way Vasarely
drew his tumbling blocks: each cube is a hexagon standing on a point, made of three rhombic faces
(top, left, right). The seed says the field "is divided by heavy lines into ten cubes", so the
cubes touch: neighbouring cubes share a heavy edge and together they tile one compact cluster
of centred rows (3-4-3 on portrait paper, 5-5 on landscape). The rows that give the largest
cubes win, except that a cluster that is the same in a mirror is kept over a lopsided one that
is less than 8 % larger. The same seed gives the same division on every paper; only the size
and place of the cubes change.

How a cube is divided. Every face is a 6 x 6 grid of small rhombi (lines parallel to the
face's sides) and is cut along grid lines by straight guillotine cuts into parallelograms of at
least 2 cells on each side and 6 cells in all, so every space is large enough for five dots at a
pencil-friendly size. A cube gets a space count n drawn from ``min_spaces..max_spaces``, shared
among its three faces (each face at least one space), and each face is cut into its share by
random guillotine cuts whose counts are bounded by each part's capacity, so the count is exact
by construction.

Dots. Each space shows 1..``max_dots`` dots (the book: 1..5). **Rule chosen**: every cube holds
every count 1..``max_dots`` at least once (which is why ``min_spaces`` may not be below
``max_dots``); the cube's other spaces take counts drawn uniformly. So whichever cube a player
opens, the fill sequence 1, 2, 3, 4, 5 can start and run in it. The dots are drawn like the pips
of a die seen in the same isometric view as their face where that fits, otherwise as two
staggered rows or one row along the space's longer side; every dot keeps :data:`CLEAR` mm from
its space's border and :data:`SPACING` mm from the next dot.

Ids and numbering (the rules engine and the photo reader rely on them):

* Cubes are numbered 1.. row by row from the top, left to right in a row. Everything belonging
  to cube m carries ``group="cube-m"`` (one ``<g id="cube-m">`` in the SVG).
* ``space-<n>``: numbered cube by cube, within a cube face by face (top, left, right), within a
  face by the centre of the space, top to bottom, then left to right. Data: ``cube``, ``dots``,
  ``face``.
* ``dot-<n>-<k>``: the k-th dot of space n (``Kind.DOT``, a small filled disc).
* ``segment-<n>``: the light cuts inside faces, cube by cube, face by face (top, left,
  right), within a face in the order they were made (a cut before the cuts inside its two
  parts); data ``cube`` and ``face``.
* ``line-<m>``: the heavy hexagon outlining cube m; ``line-<cubes + m>``: the three medium
  edges where cube m's faces meet.
* Page data: ``cubes`` (the space ids of each cube), ``spaces`` (count per cube), ``rows``
  (cubes per row), ``edge`` (the cube's edge in mm), ``tally`` (boxes per score area), ``tiled``
  (the union of the hexagons, which the spaces tile).

"Next to" does not occur in the rules of Vasarely; ``page.topology`` still gives it (spaces of
two touching cubes that share a stretch of heavy edge are neighbours there).

Score areas sit in the four corners (player 1 top left, 2 top right, 3 bottom left, 4 bottom
right). Each has ``sum(n_m - 1)`` tally boxes over the cubes m: completing a cube scores at most
one point for every one of its spaces but the last one filled (the completer's own), and one
player could in principle complete every cube, so no score can exceed that sum. Tally boxes
are 4.5 mm, or 4 mm when the larger ones would leave the cubes too small for their dots.
"""
