"""The command line: ``papergames`` and its commands, thin adapters over the library.

Holds the typer app (:mod:`~papergames.cli.commands`), what a terminal is shown
(:mod:`~papergames.cli.terminal`) and the demo's sheet of every game
(:mod:`~papergames.cli.demo`). It may use every other package; none may use it. Each command
imports what it needs when it runs, so ``papergames --help`` starts without shapely, the photo
stack or the web server.
"""

from papergames.cli.commands import app, main

__all__ = ["app", "main"]
