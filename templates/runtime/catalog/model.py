"""The catalog: everything a generated server knows about its API, as plain JSON data.

The generator writes ``catalog.json`` next to ``server.py``; the runtime never looks at the OpenAPI
document. The wire objects (``tools``, ``resources``, ``resourceTemplates``, ``prompts``) are stored
exactly as the 2026-07-28 list methods return them, in their final order; the runtime only reshapes
them for legacy revisions. Everything the runtime needs to turn a call into an HTTP request lives
under ``operations``, keyed by a stable operation key, and the ``*Bindings`` maps tie MCP names to
those keys. ``toolMode``, ``toolsets``, ``dynamicTools``, ``dynamicInstructions``, ``codeTools`` and
``codeInstructions`` carry what the tool modes need (one tool per operation, a selection of tags,
three meta tools, or two meta tools and ``run_code``).

Start-up must not grow with the API, so the generator also writes two companions:
``catalog.index.json`` (the small part: server, upstream, tool modes, counts, tool names and the byte
offset of every tool) and ``catalog.tools.jsonl`` (one tool per line, in catalog order). A big
``catalog.json`` is written
gzip-compressed instead, as ``catalog.json.gz``; it reads the same.
``load_catalog`` then returns a ``LazyCatalog``: the index is in memory and the rest of
``catalog.json`` is read on first use of any other key; ``pagination.tool_source`` serves pages of
tools straight from the lines file, which is the only place the tools are written (``catalog.json``
has no ``tools`` when the lines file is there; reading the catalog whole reads them from it).
Without the companions (hand-written catalogs, older packages) ``load_catalog`` reads
``catalog.json`` whole, as before. Big APIs repeat the same component schemas
in hundreds of tools, so the generator writes them once, in a third companion,
``catalog.defs.json`` (``schemaDefs``: one pool per direction), and ``complete_tool`` gives each tool
schema back the ``$defs`` it reaches; that file is read only when a tool needs it. Any value repeated
across these files is written once, in ``catalog.pool.jsonl`` (``catalog_pool.py``), and every file
but the index is read through that pool.

This module owns the format (``CATALOG_FORMAT``) and its typed view. It is copied verbatim into every
generated package, so it must stay stdlib-only.
"""

from __future__ import annotations

import copy
import gzip
import json
import zlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict
from urllib.parse import unquote

from ..errors import CatalogError as CatalogError  # noqa: PLC0414 - re-exported
from .pool import POOL_SUFFIX, Pool, read_pool

# the security schemes are defined in .security; every type of the catalog is read from here
from .security import ApiKeyScheme as ApiKeyScheme  # noqa: PLC0414
from .security import AuthorizationCodeSpec as AuthorizationCodeSpec  # noqa: PLC0414
from .security import BasicScheme as BasicScheme  # noqa: PLC0414
from .security import BearerScheme as BearerScheme  # noqa: PLC0414
from .security import OAuth2ClientCredentialsScheme as OAuth2ClientCredentialsScheme  # noqa: PLC0414
from .security import OAuth2PasswordScheme as OAuth2PasswordScheme  # noqa: PLC0414
from .security import SecurityScheme as SecurityScheme  # noqa: PLC0414

CATALOG_FORMAT = 1
# the companions of catalog.json (see the module docstring), named after it
INDEX_SUFFIX = ".index.json"
TOOLS_SUFFIX = ".tools.jsonl"
DEFS_SUFFIX = ".defs.json"

JsonObject = dict[str, Any]
ParameterLocation = Literal["path", "query", "header", "cookie"]


class ServerInfo(TypedDict):
    """``Implementation`` of the generated server (name, version, optional title/description)."""

    name: str
    version: str
    title: NotRequired[str]
    description: NotRequired[str]


class ServerVariableSpec(TypedDict):
    """A ``{name}`` of a server URL: set by the variable ``env``, else ``default``.

    Without a default the variable must be set; with ``enum`` its value must be one of them.
    """

    env: str
    default: NotRequired[str]
    enum: NotRequired[list[str]]


class ServerSpec(TypedDict):
    """A server as the spec declares it: ``url`` with its ``{variable}`` placeholders."""

    url: str
    variables: NotRequired[dict[str, ServerVariableSpec]]


class UpstreamInfo(TypedDict):
    """Where the API lives and how to authenticate to it.

    ``baseUrl`` is the first server with its variables at their defaults; ``server`` (only when its
    URL has variables) lets the variables be set from the environment.
    """

    baseUrl: str
    baseUrlEnv: str
    timeoutEnv: str
    timeoutSeconds: float
    securitySchemes: dict[str, SecurityScheme]
    server: NotRequired[ServerSpec]
    # headers sent with every call, from the config file's [upstream.headers] (not secrets;
    # <PREFIX>_HEADERS adds and replaces headers at run time)
    headers: NotRequired[dict[str, str]]
    # how arrays inside deepObject values are written: "indexed" (a[0]=x, the default),
    # "brackets" (a[]=x) or "repeat" (a=x&a=y)
    deepObjectArrays: NotRequired[str]
    # whose credentials calls carry: "environment" (the server's, the default) or "per-user"
    # (each caller's own, see peruser/); <PREFIX>_CREDENTIALS overrides it
    credentials: NotRequired[str]


class ParameterSpec(TypedDict):
    """One OpenAPI parameter and the tool argument that carries it."""

    name: str
    location: ParameterLocation
    argument: str
    required: bool
    style: str
    explode: bool
    allowReserved: NotRequired[bool]
    # a path parameter whose schema lists "" as a value: an empty segment is that value, not a
    # missing argument
    allowEmpty: NotRequired[bool]
    # a parameter described by ``content`` (e.g. application/json): its value is serialised in that
    # media type and sent under its name, not by style
    contentType: NotRequired[str]
    # a path parameter that starts its path (Pulp's ``{task_href}``): its value is a path of the
    # API, such as an href a response gave, sent with its slashes
    wholePath: NotRequired[bool]
    # a string parameter that holds JSON text (TiTiler's colormap): an object or array given for
    # it is sent as that text (protocol.arguments_text.json_texts)
    jsonText: NotRequired[bool]
    # a required parameter outside the path with a documented default: the tool leaves it
    # optional, and a call without it sends this (Netdata's /data and its four defaults)
    default: NotRequired[Any]
    # a boolean query parameter that acts by being there (Netdata's ``?all``): true sends its bare
    # name, false leaves it out
    flag: NotRequired[bool]


class BodyPart(TypedDict):
    """One property of a form or multipart body that is more than a plain field.

    ``file``: sent as a file part (with a filename; a list value is one part per item); ``base64``:
    the argument holds base64 (or a ``data:`` URL) to decode, else text sent as UTF-8;
    ``contentType``: the part's (multipart), or the media type a form field's value is written in
    (``application/json``). ``style``/``explode``/``allowReserved``: a form field's Encoding Object
    (absent: form style, exploded); ``headers``: fixed headers of a multipart part.
    """

    contentType: str
    file: bool
    base64: bool
    style: NotRequired[str]
    explode: NotRequired[bool]
    allowReserved: NotRequired[bool]
    headers: NotRequired[dict[str, str]]


class BodySpec(TypedDict):
    """The request body.

    ``argument`` names the single argument holding the whole body; when it is absent the body is an
    object whose properties are flattened into the tool's arguments, and ``properties`` maps each such
    argument name to the body property name.
    """

    # what is sent, always a concrete type; ``declaredType`` is the media range the spec declared
    # (``*/*``, ``image/*``) when there was one: a binary body's type is then sniffed from its bytes
    contentType: str
    required: bool
    argument: NotRequired[str]
    properties: NotRequired[dict[str, str]]
    # form and multipart: body properties with their own encoding, by property name
    parts: NotRequired[dict[str, BodyPart]]
    declaredType: NotRequired[str]
    # an optional flattened body: the properties it must have once any field is given
    requiredProperties: NotRequired[list[str]]
    # a string body of a media type that is neither JSON, a form nor text, sent as given: the
    # schema does not describe it as base64 to decode (Spotify's cover image is base64 on the
    # wire, ``format: byte``; a plain string under application/octet-stream is text)
    asText: NotRequired[bool]
    # a required JSON body whose schema takes {} (etcd's empty request messages): its argument may
    # be left out, and {} goes then
    emptyByDefault: NotRequired[bool]
    # a multipart body chosen for its files: a call that gives none is sent as this JSON type,
    # which carries objects (a multipart part of JSON reaches Django REST servers as a string)
    withoutFiles: NotRequired[str]


class OperationSpec(TypedDict):
    """How to call one operation upstream."""

    method: str
    path: str
    parameters: list[ParameterSpec]
    body: NotRequired[BodySpec]
    # alternatives, each a list of scheme names that must all be satisfied; [] = anonymous allowed
    security: list[list[str]]
    # media type of the success response we expect ("" when the operation returns no body)
    responseMediaType: str
    # the Accept header: the media types the operation documents, preferred first
    accept: NotRequired[str]
    # the Content-Type of a request that goes without a body, where the operation declares one (a
    # required Content-Type header parameter: some servers refuse a request that lacks it)
    bareContentType: NotRequired[str]
    # arrays inside deepObject values, when the operation's x-mcp sets it (see UpstreamInfo)
    deepObjectArrays: NotRequired[str]
    # JSON pointer of the operation in the spec, for people tracing it back; left out when it is
    # "#/paths/<path, pointer-escaped>/<method in lower case>"
    pointer: NotRequired[str]
    # OAuth2 scopes to ask for, per client-credentials scheme (none: the token URL's default)
    scopes: NotRequired[dict[str, list[str]]]
    # the operation's own server (OpenAPI path-item or operation ``servers``); a relative URL is
    # resolved against the effective base URL
    server: NotRequired[ServerSpec]
    # the redirects the operation documents as its answers ("302", "3XX"): one of them that is not
    # followed is the operation's result, not a failure
    redirects: NotRequired[list[str]]
    # written (true) when the operation documents no 2xx answer (``default`` is none): a redirect
    # ``documented_redirect`` accepts is then its answer and is not followed (Strapi's email
    # confirmation, a 301 to the site; an OAuth connect route, a 302 to the provider)
    redirectAnswers: NotRequired[bool]
    # the response headers (lower case) the operation documents that a result shows beside the
    # body (GitHub's Link: how to page on; n8n's export counts)
    responseHeaders: NotRequired[list[str]]


class AskSpec(TypedDict):
    """A question the API owner declared (``x-mcp: {elicit: [...]}``), asked before the call.

    ``method`` is ``elicitation/create`` (the default: a form of ``fields``), ``sampling/createMessage``
    (``prompt`` for the client's model) or ``roots/list``. The answer becomes arguments: the form's
    fields by name, or ``mapsTo`` (one field's value, the fields as an object, the sampled text, the
    roots). ``round`` orders questions: all of round 1 are asked together, then round 2, and so on.
    """

    key: str
    method: NotRequired[str]
    message: NotRequired[str]
    fields: NotRequired[dict[str, JsonObject]]
    required: NotRequired[list[str]]
    mapsTo: NotRequired[str]
    round: NotRequired[int]
    prompt: NotRequired[str]
    maxTokens: NotRequired[int]
    # the call cannot go on unanswered: a client without the capability gets -32021
    needed: NotRequired[bool]


class ToolInteraction(TypedDict):
    """A tool's declared questions and its confirmation override (``required``/``off``/``when-supported``)."""

    ask: NotRequired[list[AskSpec]]
    confirm: NotRequired[str]


class Interaction(TypedDict):
    """Server-wide defaults: the confirmation policy and whether missing arguments are asked for."""

    confirm: str  # off | destructive | all | when-supported
    elicitMissing: bool


class ToolBinding(TypedDict):
    operation: str
    interaction: NotRequired[ToolInteraction]
    # the output schema in the form the tool does not advertise ("strict": as documented,
    # "lenient": as real responses satisfy it), for <PREFIX>_OUTPUT_SCHEMAS; absent when equal
    outputSchemas: NotRequired[dict[str, Any]]
    # the input schema's root allOf / anyOf / oneOf, which the tool does not advertise (Anthropic's
    # API refuses them at the root) and the runtime puts back before it validates arguments
    inputChecks: NotRequired[dict[str, Any]]
    # a removal whose arguments are all optional: the boolean argument a call without any that
    # narrows it must set to act on everything (protocol.everything)
    everything: NotRequired[str]


class ResourceBinding(TypedDict):
    operation: str


class TemplateBinding(TypedDict):
    """Maps each RFC 6570 variable of a template to the tool argument it fills."""

    operation: str
    variables: dict[str, str]


class PromptPart(TypedDict):
    """A piece of a prompt message: literal ``text`` or the value of ``argument``.

    A part may also say when it applies, so that one prompt reads right in every tool mode (the mode
    in force is decided at run time): it is rendered only if each condition it carries holds.
    ``modes``: the tool mode in force is one of these. ``unlessTool``: that tool cannot be called in
    it (every tool can in full mode, every operation through ``call_operation`` in dynamic mode; in
    toolsets mode only the tools ``tools/list`` shows). ``toolset``: the mode is not toolsets, or
    that toolset is selected; ``unlessToolset``: the mode is toolsets and that toolset is not
    selected. Parts without conditions (all of a user's own prompts) are always rendered.
    """

    text: NotRequired[str]
    argument: NotRequired[str]
    modes: NotRequired[list[ToolModeName]]
    unlessTool: NotRequired[str]
    toolset: NotRequired[str]
    unlessToolset: NotRequired[str]


class PromptImage(TypedDict):
    """Image content of a prompt message, embedded when the server was generated."""

    data: str  # base64
    mimeType: str


class PromptResource(TypedDict):
    """An embedded text resource; ``uri`` and ``text`` are built from parts like text content."""

    uri: list[PromptPart]
    mimeType: str
    text: list[PromptPart]


class PromptMessage(TypedDict):
    """One message of a prompt: text from ``parts``, or an ``image``, or a ``resource``."""

    role: Literal["user", "assistant"]
    parts: NotRequired[list[PromptPart]]
    image: NotRequired[PromptImage]
    resource: NotRequired[PromptResource]


class Completions(TypedDict):
    """Values offered by ``completion/complete``, per prompt argument and per template variable."""

    prompts: dict[str, dict[str, list[str]]]
    resourceTemplates: dict[str, dict[str, list[str]]]


ToolModeName = Literal["full", "dynamic", "toolsets", "code"]


class ToolMode(TypedDict):
    """The tool mode chosen at generation time; ``<PREFIX>_TOOL_MODE`` overrides it at run time.

    ``mode`` is already resolved (``auto`` became ``full`` or ``dynamic``); ``autoThreshold`` is what
    ``auto`` compares the number of tools with when it is asked for at run time; ``toolsets`` are the
    toolsets exposed in ``toolsets`` mode when the environment names none.
    """

    mode: ToolModeName
    toolsets: list[str]
    autoThreshold: int


class Toolset(TypedDict):
    """The tools of one OpenAPI tag, by name (a tool with several tags is in several toolsets)."""

    tag: str
    description: NotRequired[str]
    tools: list[str]


class Catalog(TypedDict):
    format: int
    server: ServerInfo
    instructions: NotRequired[str]
    upstream: UpstreamInfo
    tools: list[JsonObject]
    resources: list[JsonObject]
    resourceTemplates: list[JsonObject]
    prompts: list[JsonObject]
    operations: dict[str, OperationSpec]
    toolBindings: dict[str, ToolBinding]
    resourceBindings: dict[str, ResourceBinding]
    templateBindings: dict[str, TemplateBinding]
    promptMessages: dict[str, list[PromptMessage]]
    completions: Completions
    toolMode: NotRequired[ToolMode]
    # toolset name (the tag, made name-safe) -> its tools; every generated tool is in one at least
    toolsets: NotRequired[dict[str, Toolset]]
    interaction: NotRequired[Interaction]
    # search, describe and call: the whole tools/list of dynamic mode
    dynamicTools: NotRequired[list[JsonObject]]
    dynamicInstructions: NotRequired[str]
    # search, describe and run_code: the whole tools/list of code mode, and its instructions
    codeTools: NotRequired[list[JsonObject]]
    codeInstructions: NotRequired[str]
    # the components tool schemas refer to, by direction ("input", "output"): see complete_tool
    schemaDefs: NotRequired[dict[str, dict[str, Any]]]
    # the optional argument of read tools that carries a JMESPath selection ("_select"); a tool
    # takes it when its inputSchema lists it (protocol/projection.py). Absent: no tool does
    selectArgument: NotRequired[str]
    # the search's documents, built at generation time (protocol/search_catalog.py); absent: the
    # server builds them on its first search
    searchIndex: NotRequired[SearchIndexData]


class SearchIndexData(TypedDict):
    """``searchIndex``: its format, each tool's search document (``document_data``), and the
    users' phrasings the search learns from (``--search-examples``), if any."""

    format: int
    documents: dict[str, dict[str, Any]]
    examples: NotRequired[list[SearchExample]]


class SearchExample(TypedDict):
    """A user's task phrasing and the tools that serve it."""

    query: str
    tools: list[str]


class CatalogCounts(TypedDict):
    tools: int
    resources: int
    resourceTemplates: int
    prompts: int
    completions: bool


class CatalogIndex(TypedDict):
    """``catalog.index.json``: what start-up reads, besides the first page of tools."""

    format: int
    server: ServerInfo
    instructions: NotRequired[str]
    upstream: UpstreamInfo
    toolMode: NotRequired[ToolMode]
    toolsets: NotRequired[dict[str, Toolset]]
    dynamicTools: NotRequired[list[JsonObject]]
    dynamicInstructions: NotRequired[str]
    codeTools: NotRequired[list[JsonObject]]
    codeInstructions: NotRequired[str]
    interaction: NotRequired[Interaction]
    selectArgument: NotRequired[str]
    counts: CatalogCounts
    toolNames: list[str]
    # toolOffsets[i] is where tool i starts in catalog.tools.jsonl; the last entry is the file size
    toolOffsets: list[int]


# catalog keys the index always carries when the catalog has them: never a reason to load the rest
INDEX_KEYS = (
    "format",
    "server",
    "instructions",
    "upstream",
    "toolMode",
    "toolsets",
    "dynamicTools",
    "dynamicInstructions",
    "codeTools",
    "codeInstructions",
    "interaction",
    "selectArgument",
)


def _read_defs(path: Path, pool: Pool) -> dict[str, Any]:
    """``catalog.defs.json``: the pools by direction (and the format, which is not a pool)."""
    return {key: value for key, value in _read_json(path, pool).items() if key != "format"}


def _add_tool_lines(whole: dict[str, Any], path: Path, pool: Pool) -> None:
    """``tools`` from ``catalog.tools.jsonl`` when ``catalog.json`` leaves them to it."""
    lines = companion(path, TOOLS_SUFFIX)
    if "tools" not in whole and lines.is_file():
        try:
            with lines.open("rb") as source:
                whole["tools"] = [pool.loads(line) for line in source if line.strip()]
        except (OSError, ValueError) as exc:
            raise CatalogError(f"cannot read {lines.name}: {exc}") from exc


def _read_bytes(path: Path) -> bytes:
    """The file at ``path``, or the gzip-compressed ``<path>.gz`` the generator writes instead of
    a big ``catalog.json``."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        packed = path.with_name(path.name + ".gz")
        if not packed.is_file():
            raise
        return gzip.decompress(packed.read_bytes())


def _read_json(path: Path, pool: Pool | None = None) -> dict[str, Any]:
    try:
        raw = _read_bytes(path)
        data = json.loads(raw) if pool is None else pool.loads(raw)
    except (OSError, ValueError, EOFError, zlib.error) as exc:
        raise CatalogError(f"cannot read catalog {path.name}: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != CATALOG_FORMAT:
        raise CatalogError(f"{path.name} is not a catalog of format {CATALOG_FORMAT}")
    return data


def catalog_pool(path: Path) -> Pool:
    """The pool of the catalog at ``path`` (``catalog.pool.jsonl``; empty without one)."""
    try:
        return read_pool(path)
    except (OSError, ValueError) as exc:
        raise CatalogError(f"cannot read {path.stem}{POOL_SUFFIX}: {exc}") from exc


def companion(path: Path, suffix: str) -> Path:
    """``catalog.index.json`` / ``catalog.tools.jsonl`` next to ``catalog.json``."""
    return path.with_name(path.stem + suffix)


def load_catalog(path: Path) -> Catalog:
    """The catalog at ``path``: lazily when its index is there, else read whole and sanity-checked."""
    index_path = companion(path, INDEX_SUFFIX)
    if index_path.is_file() and companion(path, TOOLS_SUFFIX).is_file():
        index: CatalogIndex = _read_json(index_path)  # type: ignore[assignment]
        lazy: object = LazyCatalog(index, path)
        return lazy  # type: ignore[return-value]
    pool = catalog_pool(path)
    whole = _read_json(path, pool)
    _add_tool_lines(whole, path, pool)
    defs = companion(path, DEFS_SUFFIX)
    if defs.is_file() and SCHEMA_DEFS not in whole:
        whole[SCHEMA_DEFS] = _read_defs(defs, pool)
    return whole  # type: ignore[return-value]


class LazyCatalog(dict[str, Any]):
    """A catalog whose index is in memory and whose other keys load from ``catalog.json`` on use.

    Reading any key outside ``INDEX_KEYS`` (or iterating, copying, comparing) reads the whole file
    once; keys already set are kept. Copies (``copy``, ``copy.deepcopy``) are plain dicts. Treat it
    as read-only, like every catalog.
    """

    __slots__ = ("_loaded", "_pool", "index", "path")

    def __init__(self, index: CatalogIndex, path: Path) -> None:
        super().__init__((key, value) for key, value in index.items() if key in INDEX_KEYS)
        self.index = index
        self.path = path
        self._loaded = False
        self._pool: Pool | None = None

    @property
    def pool(self) -> Pool:
        """The catalog's pool, read on first use (every file but the index goes through it)."""
        if self._pool is None:
            self._pool = catalog_pool(self.path)
        return self._pool

    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self) -> None:
        if self._loaded:
            return
        whole = _read_json(self.path, self.pool)
        _add_tool_lines(whole, self.path, self.pool)
        for key, value in whole.items():
            if not dict.__contains__(self, key):
                dict.__setitem__(self, key, value)
        defs = companion(self.path, DEFS_SUFFIX)
        if not dict.__contains__(self, SCHEMA_DEFS) and defs.is_file():
            dict.__setitem__(self, SCHEMA_DEFS, _read_defs(defs, self.pool))
        self._loaded = True

    def __missing__(self, key: str) -> Any:
        if key == SCHEMA_DEFS:
            # its own file: a tools/list page that needs it need not wait for the whole catalog
            defs = companion(self.path, DEFS_SUFFIX)
            if not defs.is_file():
                raise KeyError(key)
            value = _read_defs(defs, self.pool)
            dict.__setitem__(self, key, value)
            return value
        if self._loaded or key in INDEX_KEYS:
            raise KeyError(key)
        self.load()
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        if dict.__contains__(self, key) or key in INDEX_KEYS:
            return dict.__contains__(self, key)
        self.load()
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        self.load()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.load()
        return dict.__len__(self)

    def keys(self) -> Any:
        self.load()
        return dict.keys(self)

    def values(self) -> Any:
        self.load()
        return dict.values(self)

    def items(self) -> Any:
        self.load()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        self.load()
        return dict(dict.items(self))

    def __copy__(self) -> dict[str, Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(self.copy(), memo)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self.copy(),))

    def __eq__(self, other: object) -> bool:
        self.load()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    # a dict: mutable, so never hashable
    __hash__ = None

    def __repr__(self) -> str:
        state = "loaded" if self._loaded else "index only"
        return f"<LazyCatalog {self.path.name} ({state})>"


def as_lazy(catalog: Catalog) -> LazyCatalog | None:
    """The catalog as a ``LazyCatalog`` whose index still describes it, else ``None``."""
    value: object = catalog
    return value if isinstance(value, LazyCatalog) else None


class _LazyPart(Mapping[str, Any]):
    """One mapping of a ``LazyCatalog``, read from the catalog on first use."""

    def __init__(self, catalog: LazyCatalog, key: str) -> None:
        self._catalog = catalog
        self._key = key

    def _part(self) -> Mapping[str, Any]:
        part: Mapping[str, Any] = self._catalog[self._key]
        return part

    def __getitem__(self, key: str) -> Any:
        return self._part()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._part())

    def __len__(self) -> int:
        return len(self._part())


def catalog_part(catalog: Catalog, key: str) -> Mapping[str, Any]:
    """``catalog[key]`` (a mapping such as ``operations``), read only when first used."""
    lazy = as_lazy(catalog)
    if lazy is not None and not lazy.loaded:
        return _LazyPart(lazy, key)
    part: Mapping[str, Any] = catalog[key]  # type: ignore[literal-required]
    return part


def catalog_counts(catalog: Catalog) -> CatalogCounts:
    """How many items each list has, and whether anything can be completed, without loading."""
    lazy = as_lazy(catalog)
    if lazy is not None and not lazy.loaded:
        return lazy.index["counts"]
    completions = catalog["completions"]
    return {
        "tools": len(catalog["tools"]),
        "resources": len(catalog["resources"]),
        "resourceTemplates": len(catalog["resourceTemplates"]),
        "prompts": len(catalog["prompts"]),
        "completions": any(completions["prompts"].values())
        or any(completions["resourceTemplates"].values()),
    }


# <PREFIX>_OUTPUT_SCHEMAS: lenient or strict output schemas for every tool, or none
OUTPUT_SCHEMA_MODES = ("lenient", "strict", "off")


def advertised_output_schema(
    tool: Mapping[str, Any], binding: ToolBinding | None, mode: str | None
) -> Any:
    """The ``outputSchema`` ``tools/list`` shows for ``tool`` (``None``: none) in ``mode``, one of
    ``OUTPUT_SCHEMA_MODES`` or ``None`` for each tool's own, as generated."""
    if mode == "off":
        return None
    own = tool.get("outputSchema")
    if mode is None or binding is None:
        return own
    return binding.get("outputSchemas", {}).get(mode, own)


# the component schemas of tool schemas, written once by the generator (see ``complete_tool``)
SCHEMA_DEFS = "schemaDefs"
_DEFS_PREFIX = "#/$defs/"
_POOLED = (("inputSchema", "input"), ("outputSchema", "output"))


def complete_tool(tool: Mapping[str, Any], pools: Mapping[str, Any] | None) -> JsonObject:
    """``tool`` with each schema's ``$defs`` back: the pooled components it reaches, by name.

    The generator moves the ``$defs`` of every tool schema into one pool per direction
    (``catalog["schemaDefs"]``), because big APIs repeat the same components in hundreds of tools;
    this restores exactly what ``tools/list`` advertises, ``$defs`` last.
    """
    if not pools:
        return dict(tool)
    completed = dict(tool)
    for key, role in _POOLED:
        schema = tool.get(key)
        pool = pools.get(role)
        if isinstance(schema, dict) and "$defs" not in schema and isinstance(pool, Mapping):
            reached = _closure(schema, pool)
            if reached:
                completed[key] = {**schema, "$defs": reached}
    return completed


def needs_defs(tool: Mapping[str, Any]) -> bool:
    """Whether a schema of ``tool`` refers to pooled components it does not carry."""
    for key, _ in _POOLED:
        schema = tool.get(key)
        if isinstance(schema, dict) and "$defs" not in schema and _refs(schema):
            return True
    return False


def _closure(schema: Any, pool: Mapping[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    pending = _refs(schema)
    while pending:
        name = pending.pop()
        if name in found or name not in pool:
            continue
        found[name] = pool[name]
        pending.extend(_refs(pool[name]))
    return dict(sorted(found.items()))


def _refs(node: Any) -> list[str]:
    """The ``#/$defs/<name>`` names a schema refers to (pointer-escaped names unescaped)."""
    names: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            ref = current.get("$ref")
            if isinstance(ref, str) and ref.startswith(_DEFS_PREFIX):
                token = ref[len(_DEFS_PREFIX) :]
                if "/" not in token:
                    names.append(unquote(token).replace("~1", "/").replace("~0", "~"))
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return names


def documented_redirect(status: int, redirects: Sequence[str]) -> bool:
    """Whether a redirect that was not followed is the operation's answer: one it documents
    (``redirects``: its documented 3xx codes), other than 304 and 307/308, which ask for the same
    request elsewhere (it was not carried out)."""
    if status not in range(300, 400) or status in (304, 307, 308):
        return False
    return bool({str(status), "3XX"} & {code.upper() for code in redirects})
