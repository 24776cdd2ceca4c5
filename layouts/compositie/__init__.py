"""Fred Horn's COM:POSITIE board and pieces, and the three games he made for them.

The material is a 6 by 6 board and 36 pieces, 9 in each of four colours. Every sheet prints it
on two pages: the board (page 1) and the pieces to colour and cut out (page 2, left out with
``pieces=off``). The plain ``compositie`` sheet lists the games in the free space under the
board; each game's sheet is a small subclass that prints the same board with its own title and
a short summary of its rules, plus what the game needs on the board itself:

* ``plan-a-head``: nothing more (the board starts empty).
* ``pick-two-one``: the start position, a symbol in every square, drawn from the seed.
* ``cannon-ball``: the two home rows of each side shaded and labelled.

Board conventions (:mod:`papergames.sheets.grid`): columns ``a`` .. ``f`` from the left, rows ``1``
.. ``6`` from the bottom, chess style, printed on all four sides since players sit on opposite
sides. Squares are as large as the paper allows up to 32 mm and never under 25 mm, so a cut-out
piece, 2 mm narrower than a square, is still easy to handle; only portrait a4, letter and a3 give
that (landscape and a5 are refused with a :class:`~papergames.errors.FitError`).

Colours stay apart in a grayscale copy because each has its own symbol and fill:

======  ==========================  =======
colour  symbol                      letter
======  ==========================  =======
red     solid black disk            R
blue    square, hatched one way     B
green   triangle, cross-hatched     G
yellow  five-pointed star, outline  Y
======  ==========================  =======

Ids on the board page: ``space-<k>`` the squares (k = (row - 1) * 6 + column, data ``col``,
``row``, ``name``), ``line-1`` the heavy outline, ``line-2`` .. ``line-11`` the inner lines,
``coord-<side>-<k>`` the coordinates, ``mark-key-<colour>`` and ``key-<colour>`` the colour key,
``summary-heading`` and ``summary-<k>`` the lines of the rules summary (3 mm text, down to 2.5 mm
where the paper is short, so the squares keep their 25 mm). Pick Tw=O=ne adds ``mark-setup-<k>`` and
``letter-setup-<k>`` in square k (data ``square``, ``colour``; the whole position is also in
``page.data["setup"]``). Cannon-Ball adds ``mark-home-1`` (rows 1-2) and ``mark-home-2`` (rows
5-6) as tints under the grid, labelled by ``home-label-1`` under the board and ``home-label-2``
over it, upside down for the player who sits there.

Ids on the pieces page: ``box-piece-<n>`` the pieces (dashed cut outline, data ``colour`` and
``index`` within the colour), ``mark-piece-<n>`` their symbols and ``letter-piece-<n>`` their
letters. Pieces 1-9 are red, 10-18 blue, 19-27 green, 28-36 yellow; each colour is a 3 by 3 block
(red top left, blue top right, green bottom left, yellow bottom right), numbered row by row from
the top, left to right.

Parameters: every sheet has ``pieces`` (default on; off prints the board page alone).
``plan-a-head`` adds ``players`` (2..3, default 2), ``pick-two-one`` adds ``lines``
(``any`` | ``straight``, default ``any``) and ``cannon-ball`` adds ``capture`` (``any`` |
``mover``, default ``any``); these three only change the printed summary (the rules engine reads
them from the spec). The seed decides the start position of ``pick-two-one`` and nothing else.
"""
