"""The version of papergames, apart from the package so that a renderer can print it without
importing the rest."""

__version__ = "0.1.0"
