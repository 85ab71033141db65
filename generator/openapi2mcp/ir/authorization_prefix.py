"""The word an ``apiKey`` scheme in the Authorization header wants before the key.

This module owns :func:`authorization_prefix`, which ``parse.py`` asks about each such scheme. A
scheme says the word in Fern's ``x-fern-header.prefix`` or in its description, which is read
conservatively (a quoted word, or a word named as one, in a sentence that says it goes first):
drf-spectacular's 'required prefix "Token"', an example header (``Authorization: Token
[your-token]``), a word said to go before a space (Phoenix's "Enter `Bearer` followed by a
space"), or a quoted word with its space inside the quotes that is to be prepended (PostgREST's
'Add the token prepending "Bearer " (without quotes) to it').
"""

from __future__ import annotations

import re
from typing import Any, Final

# how a scheme's description says the word before the key: drf-spectacular's 'required prefix
# "Token"', or an example header, "Authorization: Token [your-token]", "Authorization: SSWS ${key}"
_REQUIRED_PREFIX: Final = re.compile(r'required prefix\s+["\'`]?([A-Za-z][A-Za-z-]{0,19})\b')
# the word said to go before the key and a space: Phoenix's "Enter `Bearer` followed by a space and
# then the token", Swashbuckle's "Enter 'Bearer' [space] and then your token", "the word Bearer
# followed by a space" (quoted, or after "the word": "the authorization method and a space" is none)
_SPACED_PREFIX: Final = re.compile(
    r"(?:([\"'`])([A-Za-z][A-Za-z-]{0,19})\1|\bword\s+([A-Za-z][A-Za-z-]{0,19}))"
    r",?\s+(?:(?:followed|following)\s+by\s+(?:a\s+)?space\b|\[space\]|<space>)",
    re.IGNORECASE,
)
# a quoted word whose space is inside the quotes, said to be prepended in the same sentence:
# PostgREST's 'prepending "Bearer " (without quotes)', "prefixed with `Bearer `", 'preceded by
# "JWT "'; the space is what says the word and the key are two (a quoted "Bearer" alone is not)
_PREPENDED_PREFIX: Final = re.compile(
    r"\b(?:prepend(?:s|ed|ing)?|prefix(?:ed|ing)?|preced(?:e|es|ed|ing))\b"
    r"[^\"'`.;:!?\n]{0,40}?([\"'`])([A-Za-z][A-Za-z-]{0,19}) \1",
    re.IGNORECASE,
)
_EXAMPLE_HEADER: Final = re.compile(
    r"Authorization:\s*([A-Za-z][A-Za-z-]{0,19})\s+(?:[\[<{$\"'`]|[A-Za-z0-9._~+/-]{16,})"
)


def authorization_prefix(scheme: dict[str, Any]) -> str:
    """The word an ``apiKey`` scheme in the Authorization header wants before the key, when the
    scheme says one: Fern's ``x-fern-header.prefix`` or its description (a required prefix, an
    example header, a word said to go before a space or to be prepended); ``""`` otherwise."""
    fern = scheme.get("x-fern-header")
    if isinstance(fern, dict) and isinstance(fern.get("prefix"), str) and fern["prefix"].strip():
        return str(fern["prefix"]).strip()
    raw = scheme.get("description")
    description = raw if isinstance(raw, str) else ""
    found = _REQUIRED_PREFIX.search(description) or _EXAMPLE_HEADER.search(description)
    if found:
        return found[1]
    spaced = _SPACED_PREFIX.search(description)
    if spaced:
        return spaced[2] or spaced[3]
    prepended = _PREPENDED_PREFIX.search(description)
    return prepended[2] if prepended else ""
