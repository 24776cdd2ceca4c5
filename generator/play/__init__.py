"""Play: the rules engines' base, transcripts, the checker and finished positions.

Holds the engine base (``rules``, ``clicks``, ``teams``), transcripts (``transcript``,
``jsonshape``), a game set up from its transcript (``game``), the referee (``checker``), a
finished sheet judged (``final``), the verdicts told in words (``report``) and worked examples
for the rules pages (``example``). It may use :mod:`papergames.sheets` and what lies below it;
never the handouts, the photo reader, the web page or the command line.
"""
