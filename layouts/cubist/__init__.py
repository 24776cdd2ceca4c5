"""Cubist (Poelzing and Seegert, 2013): play aids for owners of the published dice game.

Cubist is a commercial game played with dice, boards and cards; papergames prints only aids in
its own words and its own plain drawing (no artwork, card text or card art of the game):

* ``cubist-studio``: a studio board per player, one per page, at true scale for 14 mm dice.
* ``cubist-score``: a final-scoring pad for 2-4 players, 1-4 pads per page.
* :class:`CubistScoreRules` (``RULES``): checks a final-scoring transcript.
* :func:`check_installation`: says whether a described installation (a sculpture of dice) is
  legal, and whether it matches a plan.

**Studio board.** From the top: the player's name (or colour), two workrooms side by side (or
one above the other when they are too wide for the paper), each a grid of ``rows`` by ``cols``
cells of ``cell`` mm; then the storeroom (a dashed open area for rolled dice) and the storage
space (two cells, each with a dotted 14 mm square showing where a die sits); then the turn
summary and the placement rules. Cells are never under 15 mm, so a 14 mm die always fits inside
one; the sheet must be printed at actual size (the 5 cm scale bar in the footer checks it).
``players`` boards are printed, one per page, titled with ``names`` or else with the colours
red, blue, green and yellow in turn.

Studio ids, numbered in this order: ``space-<n>``: workroom 1's cells row by row from the top
left (data ``area="workroom"``, ``workroom``, ``row``, ``col``), then workroom 2's, then the two
storage cells (``area="storage"``, ``slot``), then the storeroom (``area="storeroom"``).
``line-<n>``: for each workroom its heavy outline, its inner vertical lines left to right and
its inner horizontal lines top to bottom (data ``area``, ``workroom``, ``axis``); then the storage
outline and its divider, the storeroom's dashed outline and the board's outline.
``mark-die-<k>``: the dotted 14 mm die squares in the storage cells. Page data: ``player``,
``board``, ``boards``, ``rows``, ``cols``, ``cell``, ``die`` and ``tiled`` (the region the spaces
tile: both workrooms, the storage space and the storeroom).

**Score pad.** Each pad is a table with a row per player: initials (X) and colour boxes as on
every papergames score area, ``installations`` boxes for the values of completed installation
cards, the museum dice count (which is also the tiebreak), the total (T) and a box to tick the
winner. Pads are stacked down the page with dashed cut lines between them. Rows are numbered
down the page: row n = (pad - 1) * players + player. Ids: ``box-initials-<n>``,
``box-legend-<n>``, ``box-installation<n>-<k>`` (k = 1 .. installations), ``box-museum-<n>``,
``box-total-<n>``, ``box-winner-<n>`` (data ``pad``, ``player``, ``area``) and ``mark-cut-<k>``.

**Installation text** (:func:`check_installation`)::

    installation: my tower        # the keyword line; a name after it is optional
    . 4  .                        # one row of stacks per line, cells apart by spaces
    3 55 6                        # a cell: '.' empty, or its dice bottom to top ('55')
    . 4  .
    plan:                         # optional: the plan to compare with, same grid form,
    . *  .                        # '*' a die of any value ('**' two of them, the same value),
    * 55 *                        # a digit a die of that value
    . *  .

A stack's dice must all show one value; two stacks that share an edge touch at every height
both have, and there the dice must differ by exactly one; since a stack holds one value, that
is: neighbouring stacks' values differ by one, whatever their heights. The stacks must form one
edge-connected structure. A plan matches when, turned by 0, 90, 180 or 270 degrees (never
mirrored) and moved, it has exactly the installation's footprint, every cell's height, and the
value wherever the plan names one.

**Score transcript** (``papergames check``): ``sheet: cubist-score ...``, the players, then one
line per player in order, ``Ann: installations 7 5 9 museum 3`` (``installations none`` for
none). Scores are the installation values plus 2 per museum die; the winner has the highest
score, then the most museum dice; still equal, they share the win. Claims: ``score``,
``installations`` (the sum of values), ``cards`` (how many), ``museum`` (dice).
"""
