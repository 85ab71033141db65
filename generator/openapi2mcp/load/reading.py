"""Reading the spec: bytes from a file or stdin → a JSON-like mapping, with the fatal checks.

This module owns turning the user's input into a :class:`LoadedDocument` and refusing, with a
:class:`~openapi2mcp.diagnostics.GenerationError`, anything that cannot be an OpenAPI 3.0/3.1 or Swagger
2.0 document: unreadable files, invalid YAML or JSON, documents without an ``openapi`` (or ``swagger:
"2.0"``) field and other versions. A Swagger 2.0 document is returned as written; ``parse.py`` converts
it (``swagger2.py``). YAML is read with a safe loader using YAML 1.2 scalars that keeps mapping keys
exactly as written (``200``, ``on`` or ``yes`` keys stay strings) and timestamps as strings, so the
result is plain JSON data. ``refs.py`` reuses :func:`parse_bytes` for files reached through ``$ref``, and
:class:`RemoteFetcher` for ``http(s)`` references when the user allows them (``--allow-remote-refs``).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urljoin, urlsplit

import yaml

from ..diagnostics import Diagnostic, GenerationError

try:
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # PyYAML built without libyaml
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

if TYPE_CHECKING:
    import httpx

SUPPORTED_VERSION = re.compile(r"3\.[01](\.\d+)?(-[0-9A-Za-z.-]+)?")
SWAGGER_VERSION: Final = "2.0"


_BOOL, _INT, _FLOAT = (f"tag:yaml.org,2002:{t}" for t in ("bool", "int", "float"))


class _Yaml12Loader(_BaseLoader):
    """Safe loader with YAML 1.2 core-schema scalars and mapping keys kept as written.

    PyYAML follows YAML 1.1, where ``yes``/``no``/``on``/``off`` are booleans (so ``enum: [SE, NO]``
    would hold ``False``), ``0755`` is octal and ``1:30`` is 90. OpenAPI tooling reads YAML 1.2, so
    only ``true``/``false`` are booleans here, integers are decimal (or ``0o``/``0x``) and timestamps
    stay strings. Keys are always the scalar text as written: ``200:`` is the status code "200".
    """

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:  # type: ignore[override]
        self.flatten_mapping(node)  # resolves `<<` merge keys like the stock loader
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key = str(key_node.value)
            else:
                key = json.dumps(self.construct_object(key_node, deep=True), default=str)
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _scalar_text(loader: _Yaml12Loader, node: yaml.Node) -> str:
    assert isinstance(node, yaml.ScalarNode)
    return str(loader.construct_scalar(node))


def _yaml12_int(loader: _Yaml12Loader, node: yaml.Node) -> int:
    text = _scalar_text(loader, node)
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text)


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in (_BOOL, _INT, _FLOAT)]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
# int before float: "12" matches both
_Yaml12Loader.add_implicit_resolver(
    _INT, re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789")
)
_Yaml12Loader.add_implicit_resolver(
    _FLOAT,
    re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)
_Yaml12Loader.add_constructor(_INT, _yaml12_int)
_Yaml12Loader.add_constructor("tag:yaml.org,2002:timestamp", _scalar_text)


class RemoteError(Exception):
    """A remote document could not be fetched; the message says why (no secrets, one line)."""


class RemoteFetcher:
    """Fetches the documents that ``http(s)`` ``$ref``s name, each URL at most once.

    Only ``http`` and ``https`` URLs are read, redirects are followed by hand (at most
    ``max_redirects``, never to another scheme), every request has a ``timeout`` and a body larger
    than ``max_bytes`` is refused. Failures are cached too, so a broken URL is tried once.
    """

    def __init__(
        self,
        *,
        timeout: float = 10.0,
        max_bytes: int = 20 * 1024 * 1024,
        max_redirects: int = 5,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._timeout = timeout
        self._max_bytes = max_bytes
        self._max_redirects = max_redirects
        self._transport = transport
        self._cache: dict[str, bytes | RemoteError] = {}

    def fetch(self, url: str) -> bytes:
        """The body of ``url`` (a 2xx answer), or :class:`RemoteError`."""
        if url not in self._cache:
            try:
                self._cache[url] = self._get(url)
            except RemoteError as exc:
                self._cache[url] = exc
        found = self._cache[url]
        if isinstance(found, RemoteError):
            raise found
        return found

    def _get(self, url: str) -> bytes:
        try:
            import httpx  # noqa: PLC0415 - only needed when remote references are allowed
        except ImportError as exc:  # pragma: no cover - httpx is installed with the generator
            raise RemoteError("httpx is not installed") from exc
        headers = {"Accept": "application/json, application/yaml, text/yaml, */*;q=0.5"}
        with httpx.Client(
            timeout=self._timeout, follow_redirects=False, transport=self._transport
        ) as client:
            secure = urlsplit(url).scheme == "https"
            for _ in range(self._max_redirects + 1):
                scheme = urlsplit(url).scheme
                if scheme not in ("http", "https") or (secure and scheme != "https"):
                    raise RemoteError(f"{url} is not an {'https' if secure else 'http(s)'} URL")
                try:
                    with client.stream("GET", url, headers=headers) as response:
                        if response.is_redirect and "location" in response.headers:
                            url = urljoin(url, response.headers["location"])
                            continue
                        if not response.is_success:
                            raise RemoteError(f"{url} answered HTTP {response.status_code}")
                        return self._body(response, url)
                except httpx.HTTPError as exc:
                    raise RemoteError(f"cannot fetch {url}: {type(exc).__name__}") from exc
        raise RemoteError(f"{url}: more than {self._max_redirects} redirects")

    def _body(self, response: httpx.Response, url: str) -> bytes:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self._max_bytes:
            raise RemoteError(f"{url} is larger than {self._max_bytes:,} bytes")
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > self._max_bytes:
                raise RemoteError(f"{url} is larger than {self._max_bytes:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks)


# a document whose content was copied elsewhere by inlining a `$ref` (``refs.inline_references``):
# (source document, pointer tokens there, destination document, pointer tokens there); a reference
# into the source is read at the destination, so one schema never becomes two definitions
Mount = tuple[str, tuple[str, ...], str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class LoadedDocument:
    """The parsed root document and where it came from (``base_dir`` is None for stdin).

    ``remote`` is set when ``http(s)`` ``$ref``s may be fetched (the user opted in). ``documents``
    are the other files (or URLs) already read, by document key, as ``$ref`` inlining left them;
    ``mounts`` say where inlined content now lives.
    """

    data: dict[str, Any]
    raw: bytes
    base_dir: Path | None
    name: str
    sha256: str
    remote: RemoteFetcher | None = field(default=None, compare=False)
    documents: Mapping[str, Any] = field(default_factory=dict, compare=False)
    mounts: tuple[Mount, ...] = field(default=(), compare=False)


def _fail(code: str, message: str, pointer: str = "") -> GenerationError:
    return GenerationError(Diagnostic(code, "error", pointer, " ".join(message.split())))


def _yaml_error(exc: yaml.YAMLError, name: str) -> GenerationError:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is not None:
        where = f"line {mark.line + 1}, column {mark.column + 1}"
        return _fail("yaml-invalid", f"{name} is not valid YAML: {problem} at {where}")
    return _fail("yaml-invalid", f"{name} is not valid YAML: {problem}")


def parse_bytes(raw: bytes, name: str) -> Any:
    """Decode and parse YAML or JSON text; errors name the file and the line and column."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _fail("encoding-invalid", f"{name} is not UTF-8 text (byte {exc.start})") from exc
    try:
        return _parse_text(text, name)
    except RecursionError as exc:
        raise _fail("too-deep", f"{name} is nested too deeply to read") from exc


def _parse_text(text: str, name: str) -> Any:
    stripped = text.lstrip()
    if name.lower().endswith(".json") or stripped.startswith(("{", "[")):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            if name.lower().endswith(".json"):
                where = f"line {exc.lineno}, column {exc.colno}"
                raise _fail(
                    "json-invalid", f"{name} is not valid JSON: {exc.msg} at {where}"
                ) from exc
            # a YAML flow mapping also starts with "{": let the YAML parser judge it
    try:
        return yaml.load(text, Loader=_Yaml12Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, name) from exc


def is_swagger2(data: dict[str, Any]) -> bool:
    """Whether the root mapping is a Swagger 2.0 document (``swagger: 2.0`` unquoted counts too)."""
    return "openapi" not in data and str(data.get("swagger")) == SWAGGER_VERSION


def check_openapi(data: Any, name: str) -> dict[str, Any]:
    """Refuse documents that are not OpenAPI 3.0.x, 3.1.x or Swagger 2.0; return the root mapping."""
    if not isinstance(data, dict):
        raise _fail("not-openapi", f"{name} is not an OpenAPI document (no 'openapi' field)")
    if "openapi" not in data:
        if is_swagger2(data):
            return data
        if "swagger" in data:
            raise _fail(
                "swagger-unsupported",
                f"{name} is a Swagger {data['swagger']} document; only Swagger 2.0 and OpenAPI"
                " 3.0.x and 3.1.x are supported",
                "#/swagger",
            )
        raise _fail("not-openapi", f"{name} is not an OpenAPI document (no 'openapi' field)")
    version = str(data["openapi"])
    if not SUPPORTED_VERSION.fullmatch(version):
        raise _fail(
            "version-unsupported",
            f"{name} uses OpenAPI {version}; only OpenAPI 3.0.x and 3.1.x are supported",
            "#/openapi",
        )
    return data


def load_source(
    source: str, *, stdin: bytes | None = None, allow_remote_refs: bool = False
) -> LoadedDocument:
    """Read ``source`` (a file path, or "-" for stdin) and return the checked document.

    With ``allow_remote_refs``, ``$ref``s to ``http(s)`` URLs are fetched later (the source itself
    is always a local file or stdin).
    """
    if source == "-":
        raw = stdin if stdin is not None else sys.stdin.buffer.read()
        name, base_dir = "<stdin>", None
    elif re.match(r"[A-Za-z][A-Za-z0-9+.-]+://", source):
        raise _fail(
            "source-remote",
            f"{source} is a URL; download the spec first (the generator never downloads it)",
        )
    else:
        path = Path(source)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise _fail("read-failed", f"cannot read {source}: {reason}") from exc
        name, base_dir = path.name, path.resolve().parent
    data = check_openapi(parse_bytes(raw, name), name)
    return LoadedDocument(
        data=data,
        raw=raw,
        base_dir=base_dir,
        name=name,
        sha256=hashlib.sha256(raw).hexdigest(),
        remote=RemoteFetcher() if allow_remote_refs else None,
    )
