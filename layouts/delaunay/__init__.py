"""Delaunay (Sid Sackson): nine Orphist sections, each split by dotted lines into 19-24 spaces.

The field is a rectangle composed like a Robert or Sonia Delaunay canvas: a large disc with a
concentric inner circle and lines through its centre, often a second disc and a sweeping arc.
The faces of that drawing, merged or split until there are exactly ``sections`` of them, are
the sections; their borders are drawn heavy. Every section is then cut by dotted lines into a
number of spaces drawn from ``min_spaces``..``max_spaces``: concentric arcs and radial cuts
about the centre of the disc the section belongs to, or parallel bands crossed by parallel cuts
for sections outside every disc. A few compositions are tried and the one with the most even
section areas and no needle-sharp corners is kept. The loss rows (``rows``, each an X box, a
colour box, ``losses`` boxes and a total box) run across the foot of the field, or stand in a
column at its right end when that gives the larger field (a turned page).

How the counts are exact: a section is first cut into bands and each band into cells, then a
bounded repair merges every cell that is too small or too thin into a neighbour, merges the
smallest cell while there are too many and splits the largest cell in two while there are too
few. Every step changes the count by exactly one, so the loop ends on the drawn count or raises
(it never emits a wrong count). The sections are made the same way from the faces of the
drawing.

"Next to" must be visible: sections are divided independently, so a cut on one side of a
border can end a hair's breadth from a cut on the other side, leaving two spaces that share
a border nobody can see. Such borders (shorter than ``SHORTEST`` mm) are shrunk to a corner
after the division, and a section whose spaces would still meet a neighbour at an unseen
border (including corners where two borders meet at so small an angle that
:class:`papergames.sheets.topology.Topology` counts them as a shared border) is divided again, a
bounded number of times, then the composition is replaced.

Conventions the rules engine and the photo reader rely on:

* ``section-<m>``: sections numbered 1.. by the position of a point inside each (top to bottom,
  then left to right). Each is an SVG group holding its spaces and its dotted lines.
* ``space-<n>``: spaces numbered 1.. section by section, and inside a section top to bottom,
  then left to right (by a point inside each space). Data: ``{"section": m}``.
* ``line-1``: the outline of the field; ``line-<n>`` (n >= 2): the heavy borders between
  sections, joined straight through crossings, data ``{"sections": [..]}`` (the sections it
  runs along).
* ``segment-<n>``: the dotted lines between spaces of one section, section by section; data
  ``{"section": m}``.
* ``box-initials-<p>`` (the X box), ``box-legend-<p>`` (colour), ``box-loss<p>-<k>`` (the k-th
  loss box of row p), ``box-total-<p>`` (points lost, written at the end).
* Page data: ``sections`` (the space ids of each section, in order), ``spaces_per_section``,
  ``section_neighbours`` (pairs [a, b], a < b, of sections that share a border: a space filled
  next to a completed section must not touch a space of its own colour there), ``min_area``.

Every space is at least ``MIN_AREA`` mm^2 and at least ``MIN_THICK`` mm thick (twice its area
over its perimeter), so it can be coloured with a pencil.
"""
