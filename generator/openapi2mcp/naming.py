"""Names: every identifier the generator derives from spec text is made here.

Tool names (``[A-Za-z0-9_.-]``, bounded length, shortened with a readable prefix plus a short hash),
Python identifiers (never a keyword or a soft keyword), distribution and package names, environment
variable names and URI schemes. Everything is deterministic: the same input gives the same name on any
machine, and collisions are resolved in the order the caller offers the names.
"""

from __future__ import annotations

import hashlib
import keyword
import re
import unicodedata
from collections.abc import Iterable

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
_BUILTIN_SHADOWS = frozenset(
    {"type", "id", "list", "dict", "format", "filter", "input", "object", "hash"}
)


def ascii_fold(text: str) -> str:
    """Strip accents and drop characters with no ASCII form (``Café`` → ``Cafe``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def words(text: str) -> list[str]:
    """Split identifiers in any convention into lower-case words."""
    spaced = _CAMEL_BOUNDARY.sub(" ", ascii_fold(text))
    return [w.lower() for w in _NON_WORD.split(spaced) if w]


def snake(text: str) -> str:
    return "_".join(words(text))


def short_hash(text: str, length: int = 6) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def bounded(name: str, max_length: int, *, seed: str) -> str:
    """Shorten ``name`` to ``max_length`` keeping a readable prefix and a hash of ``seed``."""
    if len(name) <= max_length:
        return name
    suffix = "_" + short_hash(seed)
    prefix = name[: max_length - len(suffix)].rstrip("_.-")
    return prefix + suffix


def tool_name(text: str, *, max_length: int = 64) -> str:
    """A valid MCP tool name from an operationId (or any text)."""
    base = snake(text) or "operation"
    return bounded(base, max_length, seed=text)


def python_identifier(text: str, *, fallback: str = "value") -> str:
    """A snake_case Python identifier; keywords and risky builtins get a trailing underscore."""
    name = snake(text) or fallback
    if name[0].isdigit():
        name = f"{fallback}_{name}"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in _BUILTIN_SHADOWS:
        name += "_"
    return name


def env_prefix(text: str) -> str:
    """``petstore-mcp`` → ``PETSTORE``: the prefix of the server's environment variables."""
    return "_".join(w.upper() for w in words(text)) or "API"


def env_name(*parts: str) -> str:
    return "_".join(p for p in ("_".join(w.upper() for w in words(part)) for part in parts) if p)


def distribution_name(title: str) -> str:
    """``Swagger Petstore`` → ``swagger-petstore-mcp`` (PEP 503 normal form)."""
    base = "-".join(words(title)) or "api"
    if not base.endswith("-mcp"):
        base += "-mcp"
    return base


def package_name(distribution: str) -> str:
    return python_identifier(distribution.replace("-", "_"), fallback="api")


def uri_scheme(text: str) -> str:
    """An RFC 3986 scheme from the API name (letters first, then letters, digits, ``+-.``)."""
    candidate = "".join(words(text)) or "api"
    if not candidate[0].isalpha():
        candidate = "api" + candidate
    return candidate[:32]


class Namer:
    """Hands out unique names in call order; a taken name gets ``_2``, ``_3``… (bounded again)."""

    def __init__(self, *, max_length: int = 64, reserved: Iterable[str] = ()) -> None:
        self.max_length = max_length
        self._taken: set[str] = set(reserved)

    def claim(self, wanted: str, *, seed: str) -> str:
        name = bounded(wanted, self.max_length, seed=seed)
        counter = 2
        while name in self._taken:
            name = bounded(f"{wanted}_{counter}", self.max_length, seed=f"{seed}#{counter}")
            counter += 1
        self._taken.add(name)
        return name

    def __contains__(self, name: str) -> bool:
        return name in self._taken
