"""Text on its way to a terminal: what a user typed or a file held is shown, never obeyed.

A transcript, a spec, a game name or a QR code can hold escape sequences that would move the
cursor, retitle the window or hide text if they reached a terminal raw, and lone surrogates that
cannot be encoded at all. Everything the command line prints goes through :func:`printable` (or
:func:`json_text` for JSON), which shows such characters as visible escapes instead.

Example:
    >>> printable("Ann\\x1b[2J wins\\u009b")
    'Ann\\\\x1b[2J wins\\\\x9b'
    >>> printable("Zoë plays\\tfirst")
    'Zoë plays\\tfirst'
    >>> json_text({"player": "\\ud800\\u009b"})
    '{"player": "\\\\ud800\\\\u009b"}'
"""

from __future__ import annotations

import json
import re
from typing import Any

_UNSAFE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""Control characters (tab and newline aside), surrogates, and bidirectional overrides."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on shown as a visible escape."""
    return _UNSAFE.sub(_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON that is safe to print: readable non-ASCII, escaped controls.

    ``json.dumps`` already escapes C0 controls; C1 controls, surrogates and bidirectional
    overrides can only stand inside strings, where a ``\\uXXXX`` escape means the same.
    """
    return _UNSAFE.sub(_json_escape, json.dumps(value, indent=indent, ensure_ascii=False))
