"""Reading the spec: bytes from a file or stdin → a JSON-like mapping, with the fatal checks.

This module owns turning the user's input into a :class:`LoadedDocument` and refusing, with a
:class:`~openapi2mcp.diagnostics.GenerationError`, anything that cannot be an OpenAPI 3.0/3.1 document:
unreadable files, invalid YAML or JSON, documents without an ``openapi`` field, Swagger 2.0 and other
OpenAPI versions. YAML is read with a safe loader using YAML 1.2 scalars that keeps mapping keys exactly
as written (``200``, ``on`` or ``yes`` keys stay strings) and timestamps as strings, so the result is
plain JSON data. ``refs.py`` reuses :func:`parse_bytes` for files reached through ``$ref``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostic, GenerationError

try:
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # PyYAML built without libyaml
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

SUPPORTED_VERSION = re.compile(r"3\.[01](\.\d+)?(-[0-9A-Za-z.-]+)?")


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


@dataclass(frozen=True, slots=True)
class LoadedDocument:
    """The parsed root document and where it came from (``base_dir`` is None for stdin)."""

    data: dict[str, Any]
    raw: bytes
    base_dir: Path | None
    name: str
    sha256: str


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


def check_openapi(data: Any, name: str) -> dict[str, Any]:
    """Refuse documents that are not OpenAPI 3.0.x or 3.1.x; return the root mapping."""
    if not isinstance(data, dict):
        raise _fail("not-openapi", f"{name} is not an OpenAPI document (no 'openapi' field)")
    if "openapi" not in data:
        if "swagger" in data:
            raise _fail(
                "swagger-unsupported",
                f"{name} is a Swagger {data['swagger']} document; Swagger 2.0 is not supported yet:"
                " convert it to OpenAPI 3 with another tool, or wait for the built-in converter",
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


def load_source(source: str, *, stdin: bytes | None = None) -> LoadedDocument:
    """Read ``source`` (a file path, or "-" for stdin) and return the checked document."""
    if source == "-":
        raw = stdin if stdin is not None else sys.stdin.buffer.read()
        name, base_dir = "<stdin>", None
    elif re.match(r"[A-Za-z][A-Za-z0-9+.-]+://", source):
        raise _fail(
            "source-remote",
            f"{source} is a URL; download the spec first (the generator never uses the network)",
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
    )
