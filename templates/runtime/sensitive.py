"""Which names carry secrets: the one list the runtime and the generator both judge names by.

Three questions, one vocabulary. A header or setting *name* is secret-looking when it contains any
of :data:`SECRET_FRAGMENTS` anywhere (``X-Api-Key``, ``Proxy-Authorization``, ``X-Session-Id``):
such headers are never mirrored into ``Mcp-Param-*``, never shown, and their values are masked. An
argument name is secret-looking when one of :data:`SECRET_WORDS` stands in it as a word
(``password``, ``client_secret``, ``api-key``, not ``tokens_count``): such arguments are never asked
for in a form. :func:`scrub_fields` finds those same words as fields inside text (``"token":
"…"``, ``password=…``) for the redaction of upstream error excerpts.

It imports nothing of the runtime, so the generator loads this very file (``plan/classify.py``,
``plan/interaction.py``) and both sides judge names alike. Stdlib only.
"""

from __future__ import annotations

import re
from typing import Final

# substrings of header and setting names that carry credentials or personal data
SECRET_FRAGMENTS: Final = (
    "auth",
    "cookie",
    "credential",
    "key",
    "passw",
    "secret",
    "session",
    "signature",
    "token",
)
# words (regular expressions) that make an argument or field name a secret
SECRET_WORDS: Final = (
    r"pass(?:word|wd|phrase)?",
    r"secret",
    r"client[-_ ]?secret",
    r"(?:access[-_ ]?|refresh[-_ ]?)?token",
    r"api[-_ ]?key",
    r"x-api-key",
    r"credentials?",
    r"private[-_ ]?key",
    r"(?:proxy-)?authorization",
    r"(?:set-)?cookie",
    r"session[-_ ]?id",
)
# header names that are secret whatever the words say
SECRET_HEADERS: Final = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
# the last word of a key's name that says it names someone rather than proves who they are
# (slurmrestd's X-SLURM-USER-NAME beside its X-SLURM-USER-TOKEN, X-Tenant-ID, X-Client-Id)
IDENTITY_WORDS: Final = frozenset({"name", "user", "username", "login", "email", "id", "account"})

_WORDS = "|".join(SECRET_WORDS)
_NAME: Final = re.compile(rf"(^|[^a-z])({_WORDS})([^a-z]|$)", re.IGNORECASE)
_FIELD: Final = re.compile(
    rf"""(?ix)
    (\b(?:{_WORDS}))
    (["']?\s*[:=]\s*(["'])?)
    ((?:bearer|basic|token|digest)\s+)?
    (?(3)[^"'\n]+|[^\s"',;&}}<]+)
    """
)

# an ordinary word, and what follows it in a sentence
_WORD: Final = re.compile(r"[A-Z]?[a-z]{1,14}")
_GOES_ON: Final = re.compile(r"[ \t]+[A-Za-z]")


def secret_header(name: str) -> bool:
    """Whether a header (or setting) named ``name`` carries a credential or personal data."""
    lowered = name.lower()
    return lowered in SECRET_HEADERS or any(fragment in lowered for fragment in SECRET_FRAGMENTS)


def names_someone(name: str) -> bool:
    """Whether an API key sent as ``name`` is a name or an id (``X-SLURM-USER-NAME``), not a
    secret: nothing secret-looking in it, and a last word that names someone or something."""
    if secret_header(name):
        return False
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    words = re.split(r"[^a-z0-9]+", spaced.lower())
    return next((word for word in reversed(words) if word), "") in IDENTITY_WORDS


def secret_argument(name: str) -> bool:
    """Whether an argument or form field named ``name`` holds a secret (a secret word in it)."""
    return _NAME.search(name) is not None


def scrub_fields(text: str, mask: str) -> str:
    """``text`` with the value of every secret-looking field (``token: …``) replaced by ``mask``;
    not a sentence that goes on after a colon (ZenML's "error decoding access token: Invalid JWT
    token: Not enough segments"): an unquoted word followed by more words is prose, not a value."""

    def masked(m: re.Match[str]) -> str:
        name, separator, quoted, scheme = m.group(1, 2, 3, 4)
        value = m.group(0)[m.end(4 if scheme else 2) - m.start() :]
        prose = not (quoted or scheme) and separator.strip() == ":"
        if prose and _WORD.fullmatch(value) and _GOES_ON.match(text, m.end()):
            return m.group(0)
        return f"{name}{separator}{scheme or ''}{mask}"

    return _FIELD.sub(masked, text)
