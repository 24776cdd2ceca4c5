"""The sheet and its geometry: a spec, the pages it makes, and how their features relate.

Holds the spec and its parameters (``spec``, ``params``, ``names``, ``units``, ``rng``), the
model of pages with stable ids (``model``), relations on the field (``topology``, ``board``),
and the building blocks every game's layout uses (``layout``, ``sheet``, ``compose``, ``grid``,
``score``, ``labels``, ``geometry``, ``bounds``, ``aruco``). It may use :mod:`papergames.errors`,
:mod:`papergames.files`, :mod:`papergames.fonts` and the registry (:mod:`papergames.games`);
it knows no game, no rules engine and no output format.
"""
