"""Palindromic Card Game (Leroy Quet): a record sheet for one game of two players.

The game itself is played with cards; the sheet records it. From the top down:

* The rows of cards (the playing field): for each player, ``cards`` numbered boxes in order, to
  write R (red) or B (black) in; a row longer than fits on one line wraps onto further lines of
  equal length, every box keeping its position number above it (every fifth number in bold,
  for counting). Both players' rows sit together, like the two rows on the table.
* Two columns, one per row of cards: "palindromes found in player p's row", with ``found``
  numbered boxes. Each found palindrome is written as the positions of its first and last card
  in one place where it occurs (like ``4 - 9``): a palindrome is a run of consecutive cards,
  so two numbers name it, fit a small box, and let the opponent check it on the row.
* Under each column, the row owner's score line: initials and colour boxes (the standard score
  row of :func:`papergames.sheets.score.score_area`), then red cards - palindromes = score.

How many boxes for found palindromes: a row never holds more distinct palindromes (starting
and ending with red) than red cards, and a random row of 26 cards with 13 reds holds about 11;
rows arranged to avoid them hold far fewer. ``found=0`` (the default) gives two thirds of the
cards, rounded up: 18 for 26 cards.

Ids: ``box-cards<p>-<k>`` card k of player p's row (k = 1 .. cards, in row order);
``box-found<p>-<k>`` the k-th palindrome found in player p's row (by the opponent);
``box-reds-<p>`` and ``box-palindromes-<p>`` the counts on player p's score line; and from the
standard score row ``box-initials-<p>``, ``box-legend-<p>``, ``box-total-<p>`` (the score).

Sizes: card boxes are 6 to 9 mm where the paper allows, never under 5 mm; they shrink towards
6 mm when the page is short of height, and a page that still cannot hold everything is refused
naming the parameters.

Parameters: ``cards`` (default 26, 4..52) cards per player; ``found`` (default 0 = auto,
0..52) boxes per row for found palindromes, at most ``cards``.
"""
