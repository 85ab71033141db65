"""Names: every identifier the generator derives from spec text is made here.

Tool names (``[A-Za-z0-9_.-]``, bounded length, shortened at a word boundary plus a short hash),
Python identifiers (never a keyword or a soft keyword), distribution and package names, environment
variable names and URI schemes. Everything is deterministic: the same input gives the same name on any
machine, and collisions are resolved in the order the caller offers the names. Words are found in any
convention (camelCase, kebab, slash or ``#`` separated), keeping acronym plurals (``IDs``), a few brand
compounds (``OAuth``, ``GitHub``) and opaque ids (Box's ``6VMVochwUWo``) whole; Java-qualified
operationIds (``com.atlassian.jira...IssueResource.getIssue_get``) keep only their method name.
"""

from __future__ import annotations

import hashlib
import keyword
import re
import unicodedata
from collections.abc import Iterable

# lower→Upper, and the last capital of an acronym before a word ("HTTPServer"), except an acronym's
# plural "s" ("URLsFor" is "URLs For", not "UR Ls For")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z](?!s(?![a-z]))[a-z])")
# brand names written in camel case that are one word ("getOAuthToken" is get / oauth / token)
_COMPOUND = re.compile(
    r"(?:[Oo]Auth|[Gg]itHub|[Gg]itLab|[Gg]raphQL|[Yy]ouTube|[Ll]inkedIn|[Pp]ayPal|[Ww]ordPress"
    r"|[Jj]avaScript|[Tt]ypeScript|iOS|macOS)(?![a-z])"
)
# `com.atlassian.jira.rest.v2.issue.IssueResource.getIssue_get`: package, class, method, verb suffix
_JAVA_QUALIFIED = re.compile(
    r"(?:com|org|net|io|edu|gov|de|uk|fr|nl|ch)\.(?:[a-z][a-z0-9_]*\.)+[A-Z][A-Za-z0-9_$]*\."
    r"([A-Za-z][A-Za-z0-9_]*?)(?:_(?:get|put|post|delete|patch|head|options|trace))?"
)
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
    folded = _COMPOUND.sub(lambda m: m[0][0] + m[0][1:].lower(), ascii_fold(text))
    found: list[str] = []
    for chunk in _NON_WORD.split(folded):
        pieces = _CAMEL_BOUNDARY.sub(" ", chunk).split()
        if _opaque(chunk, pieces):
            pieces = [chunk]
        found += [piece.lower() for piece in pieces]
    return found


def _opaque(chunk: str, pieces: list[str]) -> bool:
    """A generated id ("6VMVochwUWo"): digits and mixed case that camel case would cut into letters."""
    return (
        any(c.isdigit() for c in chunk)
        and any(c.islower() for c in chunk)
        and any(len(piece) == 1 and piece.isalpha() for piece in pieces)
    )


def snake(text: str) -> str:
    return "_".join(words(text))


def short_hash(text: str, length: int = 6) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def bounded(name: str, max_length: int, *, seed: str) -> str:
    """Shorten ``name`` to ``max_length``: its leading whole words (a word is cut only when whole
    words would keep less than half the room) and a hash of ``seed``, so long names stay distinct."""
    if len(name) <= max_length:
        return name
    suffix = "_" + short_hash(seed)
    room = max_length - len(suffix)
    prefix = name[:room]
    boundary = max(prefix.rfind(sep) for sep in "_.-")
    if name[room] not in "_.-" and boundary >= room // 2:
        prefix = prefix[:boundary]
    return prefix.rstrip("_.-") + suffix


def tool_name(text: str, *, max_length: int = 64) -> str:
    """A valid MCP tool name from an operationId (or any text)."""
    qualified = _JAVA_QUALIFIED.fullmatch(text.strip())
    base = snake(qualified[1] if qualified else text) or "operation"
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
