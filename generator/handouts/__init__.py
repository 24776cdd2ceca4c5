"""Handouts: what a teacher prints for a class.

Holds packs of sheets (``pack``, ``packspecs``), a class's groups (``classlist``), the rules
pages (``rulespage``) and the book (``book``). It may use :mod:`papergames.play`,
:mod:`papergames.sheets` and what lies below them; never the photo reader, the web page or the
command line.
"""
