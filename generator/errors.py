"""Errors that reach the user as one clear line.

Every error a user can cause (a bad parameter, a sheet that does not fit, a file that cannot be
written) is a :class:`PapergamesError`. The CLI prints its message and exits non-zero; anything
else is a bug and may show a traceback.
"""


class PapergamesError(Exception):
    """Base class for errors caused by the input, reported to the user as one line."""


class SpecError(PapergamesError, ValueError):
    """A sheet spec or a parameter value is malformed or out of range."""


class FitError(PapergamesError):
    """The sheet cannot be laid out on the chosen paper at a legible size."""


class OutputError(PapergamesError):
    """An output file cannot be written."""
