"""The local web page (``papergames serve``): the gallery, the sheet maker, rules and the checker.

Like the command line, this package only adapts the library to another way of asking: every
sheet, rules page and verdict is made by the same functions ``papergames sheet``, ``rules`` and
``check`` call, so a download is the same bytes as the command's file. It holds no rules and no
geometry. ``app`` has the routes, ``fields`` turns a game's declared parameters into form fields,
``making`` makes and caches sheets for the routes, ``uploads`` reads an uploaded file safely,
``record`` judges a game recorded on screen move by move, ``view`` says what the checked sheet
shows, ``packs`` makes class packs in the background, and ``serve`` runs the server.
"""
