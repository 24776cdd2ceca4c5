"""Crossing the Rings (Leroy Quet): concentric circles whose rings are cut into random sections.

The sheet is a target of ``circles`` equally spaced circles. Ring m lies between circle m and
circle m + 1 (counted from the centre) and is cut by k_m radial segments into k_m sections, k_m
drawn from the bounds ``min`` and ``max``. Each round is a page with its own division.

Conventions the rules engine and the photo reader rely on:

* Clock angles: 0 at 12 o'clock, growing clockwise as seen on the page.
* ``line-<c>``: circle c (1 = innermost), a closed polyline through a fine angular grid plus every
  cut end on it, so spaces share exact vertices with it and with each other.
* ``segment-<n>``: the cuts, ring by ring from the centre, clockwise from 12 o'clock within a ring.
* ``space-<n>``: the sections in the same order; section i of a ring runs clockwise from its cut i
  to its cut i + 1 (the last one wraps past 12 o'clock). ``space-0`` is the centre disk when
  ``centre=on``.
* ``point-<label>``: the cut ends. The label is the circle's letter (A = circle 1, the letter I is
  skipped so it is not read as a 1) and the point's number on that circle, clockwise from 12
  o'clock, counting the ends of the cuts on both sides of the circle together. Point data:
  circle, ring (of its cut) and clock angle; segment data: ring, index and its two end labels.
* Page data: round, sections (k per ring), tiled (the region the spaces tile), centre, radii,
  crowded_labels (labels that found no clear spot; 0 on the default sheet).

Every section is at least 4 mm wide along its inner circle and cut ends of neighbouring rings
stay 2.5 mm apart, which caps the counts of crowded rings. The room for the outer labels is kept
even with ``labels=off``, so both print the same division for a seed.
"""
