"""Jinja filters: the only way spec text reaches a generated file.

Every string that comes from the OpenAPI document goes through one of these before it lands in code,
TOML or Markdown, so quotes, triple quotes, backslashes, newlines, control characters and template
syntax in a spec can never change the meaning of the generated file.
"""

from __future__ import annotations

import json
import re
from typing import Any

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")


def pyrepr(value: Any) -> str:
    """A Python literal for a str/int/float/bool/None (or nested lists/dicts/tuples of them)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return repr(value)
    if isinstance(value, list | tuple | dict):
        return repr(value)
    raise TypeError(f"pyrepr cannot render {type(value).__name__}")


def docstring(value: str, *, limit: int = 4000) -> str:
    """Text safe inside a ``\"\"\"`` docstring (no closing quotes, no escapes, no control chars)."""
    text = value[:limit]
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    text = _CONTROL.sub(" ", text).replace("\r\n", "\n").replace("\r", "\n")
    text = text.strip()
    if text.endswith('"'):
        text += " "
    return text


def comment(value: str, *, limit: int = 200) -> str:
    """One line safe inside a ``#`` comment."""
    return " ".join(_CONTROL.sub(" ", value[:limit]).split())


def to_json(value: Any, *, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=False)


def toml_str(value: str) -> str:
    """A TOML basic string in ASCII.

    JSON escaping covers quotes, backslashes and C0 controls, but its ASCII form writes characters
    beyond the BMP as surrogate pairs (``\\ud83d\\ude42``), which TOML rejects: those become
    ``\\U`` plus eight hex digits; DEL (which TOML forbids raw) and other non-ASCII characters
    become ``\\u`` plus four hex digits,
    and lone surrogates (not Unicode scalar values, so not representable) U+FFFD.
    """
    return "".join(_toml_char(c) for c in json.dumps(value, ensure_ascii=False))


def _toml_char(char: str) -> str:
    code = ord(char)
    if code < 0x7F:
        return char
    if 0xD800 <= code <= 0xDFFF:
        return "\\ufffd"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def md(value: str, *, limit: int = 300) -> str:
    """One line of Markdown-inert text, safe in a table cell."""
    text = " ".join(_CONTROL.sub(" ", value[:limit]).split())
    for char in "\\`*_{}[]<>|#":
        text = text.replace(char, "\\" + char)
    return text


def code(value: str, *, limit: int = 300) -> str:
    """Text safe inside a Markdown code span in a table cell."""
    text = " ".join(_CONTROL.sub(" ", value[:limit]).split())
    return text.replace("`", "'").replace("|", "\\|")


FILTERS = {
    "code": code,
    "pyrepr": pyrepr,
    "docstring": docstring,
    "comment": comment,
    "json": to_json,
    "toml": toml_str,
    "md": md,
}
