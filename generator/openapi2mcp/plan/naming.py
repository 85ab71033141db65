"""Names: every identifier the generator derives from spec text is made here.

Tool names (``[A-Za-z0-9_.-]``, bounded length, shortened at a word boundary plus a short hash),
Python identifiers (never a keyword, a soft keyword or an ambiguous ``l``), distribution and package
names, environment variable names and URI schemes, and the API's own name as a person would say it
(:func:`api_words`: ``GitHub's official OpenAPI spec + Octokit extension`` is ``GitHub``;
:func:`host_name` reads one from a server URL when the title names nothing). Everything is
deterministic: the same input gives the same name on any machine, and collisions are resolved in the
order the caller offers the names. Words are found in any convention (camelCase, kebab, slash or
``#`` separated), keeping acronym plurals (``IDs``), a few brand compounds (``OAuth``, ``GitHub``)
and opaque ids (Box's ``6VMVochwUWo``) whole; Java-qualified operationIds
(``com.atlassian.jira...IssueResource.getIssue_get``) keep only their method name, and FastAPI's
generated ones (``create_variable_variables__post``) their function's name (:func:`function_name`).
"""

from __future__ import annotations

import hashlib
import ipaddress
import keyword
import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import urlsplit

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
# LoopBack's `TodoController.findById` and NestJS's `TodoController_findAll`: class, then method;
# "controller" says nothing about the operation
_CONTROLLER = re.compile(r"^([A-Za-z][A-Za-z0-9]*?)Controller[._](?=[A-Za-z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
# FastAPI's generate_unique_id: the route's function name, its path with every non-word character
# an underscore, and a method ("read_variable" + "/variables/{id}" + "get")
_FRAMEWORK_NON_WORD = re.compile(r"\W")
_FRAMEWORK_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
_BUILTIN_SHADOWS = frozenset(
    {"type", "id", "list", "dict", "format", "filter", "input", "object", "hash"}
)
# names pycodestyle calls ambiguous (E741-E743: l, O and I look like 1 and 0); the generated code
# must pass its own lint, so they get a trailing underscore like keywords
AMBIGUOUS_NAMES = frozenset({"l", "O", "I"})


# words of a title that say nothing about which API it is ("GitHub's official OpenAPI spec" → GitHub)
_TITLE_NOISE = frozenset(
    {
        *("a", "an", "and", "api", "apis", "definition", "definitions", "description", "document"),
        *("documentation", "extension", "extensions", "for", "http", "https", "json", "of"),
        *("official", "oas", "openapi", "public", "rest", "restful", "sample", "schema", "service"),
        *("spec", "specs", "specification", "swagger", "the", "version", "web", "with", "yaml"),
        *("odata", "namespace"),
    }
)
# a title with one of these describes a document rather than naming an API: prose uses its name
_TITLE_FILLER = frozenset(
    {
        *("definition", "definitions", "description", "document", "documentation", "extension"),
        *("extensions", "oas", "official", "openapi", "schema", "spec", "specs", "specification"),
        *("version", "namespace"),
    }
)
# add-ons: dropped together with the words that only qualify them ("Octokit extension")
_ADD_ON_NOUNS = frozenset({"extension", "extensions", "plugin", "plugins", "addon", "addons"})
_TITLE_WORDS = 3
_POSSESSIVE = re.compile(r"(?<=[^\W_])['’]s\b")
# what follows a plus is an addition to the API the title names ("spec + Octokit extension")
_ADDITION = re.compile(r"\s+\+\s.*$", re.DOTALL)
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
# version markers: v1, v2.0 (split into v2 and 0), APIv2, dates (2024-01-01), bare numbers
_VERSION_WORD = re.compile(r"(?:[Aa][Pp][Ii])?[vV]\d+[a-z]?|\d+")
# host labels that name a role, not the API (api.github.com, www.example.org, sandbox.…)
_HOST_ROLES = frozenset(
    {
        *("api", "apis", "www", "rest", "app", "apps", "gateway", "developer", "developers"),
        *("dev", "sandbox", "test", "staging", "prod", "public", "m", "ws", "v1", "v2", "v3"),
    }
)
# second-level labels of two-label public suffixes (example.co.uk, example.com.au)
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "gov", "ac", "edu", "ne", "or", "go"})


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


# the property names every provider's function calling takes: Anthropic's and Bedrock's tool input
# schemas refuse a whole tool list over one other (Phoenix's multipart `input_keys[]`, OData's `$top`)
_PORTABLE_ARGUMENT = re.compile(r"[A-Za-z0-9_.-]{1,64}\Z")
_NOT_PORTABLE = re.compile(r"[^A-Za-z0-9_.-]+")


def argument_name(wire: str) -> str:
    """A tool argument's name for the parameter or body property named ``wire``: ``wire`` itself
    where every function-calling dialect takes it, else its runs of other characters made one
    ``_`` (``ids[]`` is ``ids``, ``$top`` is ``top``, ``filter[status]`` is ``filter_status``),
    within 64 characters."""
    if _PORTABLE_ARGUMENT.match(wire):
        return wire
    portable = _NOT_PORTABLE.sub("_", ascii_fold(wire)).strip("_.-")
    if wire.startswith("_"):
        portable = "_" + portable
    return bounded(portable or "argument", 64, seed=wire)


def tool_name(text: str, *, max_length: int = 64) -> str:
    """A valid MCP tool name from an operationId (or any text)."""
    qualified = _JAVA_QUALIFIED.fullmatch(text.strip())
    source = qualified[1] if qualified else _without_controller(text.strip())
    base = snake(source) or "operation"
    return bounded(base, max_length, seed=text)


def _without_controller(text: str) -> str:
    """``TodoController.findById`` as ``Todo_findById``; ``FileUploadController.fileUpload`` as
    ``fileUpload``, a method that already says its class's words."""
    controller = _CONTROLLER.match(text)
    if controller is None:
        return text
    method = text[controller.end() :]
    return (
        method if set(words(controller[1])) <= set(words(method)) else f"{controller[1]}_{method}"
    )


def function_name(operation_id: str, path: str) -> str:
    """The route function's name in an operationId FastAPI made (``read_variable`` of
    ``read_variable_variables__id__get`` at ``/variables/{id}``); ``""`` for any other operationId.

    FastAPI names an operation by its function, its path and its route's first method (which for a
    route of several methods may be another operation's), so every method is accepted.
    """
    for method in _FRAMEWORK_METHODS:
        tail = _FRAMEWORK_NON_WORD.sub("_", path) + "_" + method
        if operation_id.endswith(tail) and len(operation_id) > len(tail):
            stem = operation_id[: -len(tail)]
            return stem if stem.isidentifier() else ""
    return ""


def python_identifier(text: str, *, fallback: str = "value") -> str:
    """A snake_case Python identifier; keywords, risky builtins and ``l`` get a trailing underscore."""
    name = snake(text) or fallback
    if name[0].isdigit():
        name = f"{fallback}_{name}"
    if (
        keyword.iskeyword(name)
        or keyword.issoftkeyword(name)
        or name in _BUILTIN_SHADOWS
        or name in AMBIGUOUS_NAMES
    ):
        name += "_"
    return name


def env_prefix(text: str) -> str:
    """``petstore-mcp`` → ``PETSTORE``: the prefix of the server's environment variables."""
    return "_".join(w.upper() for w in words(text)) or "API"


def env_name(prefix: str, *parts: str) -> str:
    """``N8N`` and ``ApiKeyAuth`` → ``N8N_API_KEY_AUTH``: the prefix (``env_prefix``'s) as it is,
    the parts in words (split again, the prefix was ``N8_N``, as a camelCase boundary)."""
    words_of = ("_".join(w.upper() for w in words(part)) for part in parts)
    return "_".join(p for p in (prefix, *words_of) if p)


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


def _title_words(title: str) -> tuple[list[str], str, bool]:
    """What of ``title`` names the API: its words (original case, split like identifiers), the
    same stretch of the title as written (``Fulfillment.com``), and whether it had filler."""
    filler = bool(_POSSESSIVE.search(title) or _ADDITION.search(title) or _ASIDE.search(title))
    text = _ASIDE.sub(" ", _ADDITION.sub("", _POSSESSIVE.sub("", title)))
    kept: list[tuple[str, list[str]]] = []  # (as written, its words that name something)
    for chunk in text.split():
        words = [w for w in _NON_WORD.split(ascii_fold(chunk)) if w]
        filler = filler or any(
            w.lower() in _TITLE_FILLER or _VERSION_WORD.fullmatch(w) for w in words
        )
        if any(w.lower() in _ADD_ON_NOUNS for w in words):
            # "Octokit extension": the words right before an add-on only qualify it
            while kept and kept[-1][1]:
                kept.pop()
            continue
        named = [
            w for w in words if w.lower() not in _TITLE_NOISE and not _VERSION_WORD.fullmatch(w)
        ]
        kept.append((chunk, named))
    words = [word for _, named in kept for word in named]
    named_at = [index for index, (_, named) in enumerate(kept) if named]
    written = ""
    if named_at:  # from the first chunk that names something to the last, as written
        written = " ".join(chunk for chunk, _ in kept[named_at[0] : named_at[-1] + 1])
    return words[:_TITLE_WORDS], written.strip(",;:-– "), filler


def api_words(title: str) -> list[str]:
    """The words a person would name the API by, from its title (at most three, original case).

    Possessives, what follows a ``+`` and parenthesised asides go first, then add-ons with the
    words that qualify them (``Octokit extension``), then words that describe the document rather
    than the API (official, OpenAPI, Swagger, spec, API, REST, ...) and version markers (v1,
    v2.0, APIv2, 2024-01-01). ``[]`` when nothing is left.
    """
    return _title_words(title)[0]


# the titles web frameworks give a document whose application sets none (FastAPI's "FastAPI",
# Litestar's "Litestar API", Django Ninja's "NinjaAPI", APIFlask's): they name the framework, and
# as package names take the framework's own MCP packages' names on PyPI (fastapi-mcp, litestar-mcp)
_FRAMEWORK_TITLES = frozenset({"fastapi", "litestar api", "ninjaapi", "apiflask"})


def framework_title(title: str) -> bool:
    """Whether ``title`` is the one a web framework gives a document (it names no API)."""
    return " ".join(title.split()).lower() in _FRAMEWORK_TITLES


def display_name(title: str) -> str:
    """The API's name for prose ("the GitHub API"): the title as written when it reads as a name
    (``Swagger Petstore``, ``Bookshop API``), else what of it names the API, as written
    (``Fulfillment.com APIv2`` → ``Fulfillment.com``); a leading "The" is dropped either way; ""
    for a framework's title (``FastAPI``)."""
    text = " ".join(title.split())
    if framework_title(text):
        return ""
    if text.lower().startswith("the "):
        text = text[4:]
    _, written, filler = _title_words(text)
    return written if filler and written else text


def host_name(url: str) -> str:
    """The name a server URL's host gives the API (``https://api.stripe.com/v1`` → ``stripe``),
    or "" for a host that names nothing (localhost, an IP address, a single label)."""
    host = (urlsplit(url if "//" in url else f"//{url}").hostname or "").lower()
    labels = [label for label in host.split(".") if label]
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return ""
    if len(labels) < 2:
        return ""
    suffix = 2 if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2 else 1
    named = [label for label in labels[:-suffix] if label not in _HOST_ROLES and "{" not in label]
    return snake(named[-1]).replace("_", "-") if named else ""


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
