"""Request headers of the HTTP transport and the 2026-07-28 header/body checks (mcp-wire §8.2).

``RequestHeaders`` is the ASGI header list as a case-insensitive multimap with optional whitespace
trimmed. ``check_modern_headers`` enforces that ``MCP-Protocol-Version``, ``Mcp-Method``,
``Mcp-Name`` and every ``Mcp-Param-{X}`` a tool declares through ``x-mcp-header`` agree with the body:
values may be wrapped as ``=?base64?...?=`` (decoded strictly before comparing), integers compare
numerically, a null or absent argument expects no header, and a header whose argument has no value,
a duplicated header or one with characters outside visible ASCII is a mismatch. Every failure is a
``JsonRpcError`` with ``-32020`` (HTTP 400). ``ToolHeaders`` finds the declarations in the catalog's
input schemas (only through chains of ``properties``, as the spec allows) on first use of a tool.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from ..protocol.jsonrpc import HEADER_MISMATCH, JsonObject, JsonRpcError

PROTOCOL_VERSION_HEADER = "mcp-protocol-version"
METHOD_HEADER = "mcp-method"
NAME_HEADER = "mcp-name"
PARAM_HEADER_PREFIX = "mcp-param-"
# the body field each name-bearing method mirrors into Mcp-Name
NAME_SOURCES = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}

_SENTINEL_PREFIX = "=?base64?"
_SENTINEL_SUFFIX = "?="
# RFC 9110 field values: visible ASCII, space and horizontal tab
_FIELD_VALUE = re.compile(r"[\x20-\x7e\t]*")
_DECIMAL = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]{1,6})?")
_OPTIONAL_WHITESPACE = " \t"


class RequestHeaders:
    """Header values by lower-case name, in arrival order, each stripped of surrounding OWS."""

    def __init__(self, raw: Iterable[tuple[bytes, bytes]]) -> None:
        values: dict[str, list[str]] = {}
        for name, value in raw:
            # latin-1 maps every byte to one character, so invalid bytes stay visible to checks
            key = name.decode("latin-1").lower()
            values.setdefault(key, []).append(value.decode("latin-1").strip(_OPTIONAL_WHITESPACE))
        self._values = values

    def get(self, name: str) -> str | None:
        """All values of ``name`` joined with ``", "`` (RFC 9110 list semantics), or ``None``."""
        found = self._values.get(name)
        return ", ".join(found) if found else None

    def single(self, name: str, display: str | None = None) -> str | None:
        """The one value of a header that must not repeat; a repeat is a header mismatch."""
        found = self._values.get(name)
        if not found:
            return None
        if len(found) > 1:
            shown = display or display_name(name)
            raise mismatch(f"Header mismatch: {shown} header is repeated")
        return found[0]

    def names(self) -> Iterable[str]:
        return self._values.keys()


def mismatch(message: str) -> JsonRpcError:
    return JsonRpcError(HEADER_MISMATCH, message)


def display_name(name: str) -> str:
    """``mcp-param-region`` → ``Mcp-Param-Region`` for messages (names are case-insensitive)."""
    if name == PROTOCOL_VERSION_HEADER:
        return "MCP-Protocol-Version"
    return "-".join(part[:1].upper() + part[1:] for part in name.split("-"))


def _checked_value(name: str, value: str) -> str:
    if not _FIELD_VALUE.fullmatch(value):
        raise mismatch(f"Header mismatch: {display_name(name)} header has invalid characters")
    return value


def decode_value(name: str, value: str) -> str:
    """A header value with the ``=?base64?...?=`` sentinel decoded (strict, canonical, UTF-8)."""
    value = _checked_value(name, value)
    if not (
        value.startswith(_SENTINEL_PREFIX)
        and value.endswith(_SENTINEL_SUFFIX)
        and len(value) >= len(_SENTINEL_PREFIX) + len(_SENTINEL_SUFFIX)
    ):
        return value
    payload = value[len(_SENTINEL_PREFIX) : -len(_SENTINEL_SUFFIX)]
    try:
        decoded = base64.b64decode(payload, validate=True)
        # validate=True still accepts non-zero padding bits; only the canonical form is one value
        if base64.b64encode(decoded).decode("ascii") != payload:
            raise ValueError("non-canonical base64")
        return decoded.decode("utf-8")
    except (binascii.Error, ValueError):
        raise mismatch(
            f"Header mismatch: {display_name(name)} header is not valid =?base64?...?= text"
        ) from None


@dataclass(frozen=True, slots=True)
class ParamHeader:
    """One ``x-mcp-header`` declaration: where the argument sits and which header mirrors it."""

    path: tuple[str, ...]
    header: str  # lower-case, "mcp-param-..."
    display: str  # as declared, "Mcp-Param-Region"


def _declarations(schema: Any, path: tuple[str, ...]) -> Iterable[ParamHeader]:
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return
    for key, sub in properties.items():
        if not isinstance(sub, dict):
            continue
        token = sub.get("x-mcp-header")
        if isinstance(token, str) and token:
            display = f"Mcp-Param-{token}"
            yield ParamHeader((*path, key), display.lower(), display)
        yield from _declarations(sub, (*path, key))


class ToolHeaders:
    """The ``Mcp-Param-*`` declarations of each tool, computed on the tool's first call."""

    def __init__(self, tools: Iterable[JsonObject]) -> None:
        self._schemas = {tool["name"]: tool.get("inputSchema") for tool in tools}
        self._cache: dict[str, tuple[ParamHeader, ...]] = {}

    def declared(self, tool: str) -> tuple[ParamHeader, ...]:
        cached = self._cache.get(tool)
        if cached is None:
            if tool not in self._schemas:
                return ()  # unknown names are not cached: callers choose them
            cached = self._cache[tool] = tuple(_declarations(self._schemas[tool], ()))
        return cached


def _argument(arguments: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = arguments
    for key in path:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def _as_decimal(text: str) -> Decimal | None:
    if not _DECIMAL.fullmatch(text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _param_matches(value: Any, header: str) -> bool:
    """Whether the decoded header carries the argument ``value`` (not ``None``)."""
    if isinstance(value, bool):
        return header == ("true" if value else "false")
    if isinstance(value, int | float):
        number = _as_decimal(header)
        # numeric comparison: "42.0" carries 42; repr() is the shortest exact text of a float
        return number is not None and number == Decimal(repr(value))
    if isinstance(value, str):
        return header == value
    return False  # objects and arrays have no header form


def _check_params(
    headers: RequestHeaders, declared: tuple[ParamHeader, ...], arguments: Mapping[str, Any]
) -> None:
    for param in declared:
        name = param.display
        raw = headers.single(param.header, param.display)
        value = _argument(arguments, param.path)
        if value is None or isinstance(value, dict | list):
            if raw is not None:
                raise mismatch(f"Header mismatch: {name} header is present but the argument is not")
            continue
        if raw is None:
            raise mismatch(f"Header mismatch: {name} header is missing")
        if not _param_matches(value, decode_value(param.display, raw)):
            raise mismatch(f"Header mismatch: {name} header does not match the argument")


def check_modern_headers(
    headers: RequestHeaders, message: JsonObject, body_version: Any, tools: ToolHeaders
) -> None:
    """Raise ``-32020`` unless the headers mirror this 2026-07-28 request exactly."""
    version = headers.single(PROTOCOL_VERSION_HEADER)
    if version is None:
        raise mismatch("Header mismatch: MCP-Protocol-Version header is missing")
    if _checked_value(PROTOCOL_VERSION_HEADER, version) != body_version:
        raise mismatch(
            "Header mismatch: MCP-Protocol-Version header does not match "
            "_meta io.modelcontextprotocol/protocolVersion"
        )
    method = message["method"]
    header_method = headers.single(METHOD_HEADER)
    if header_method is None:
        raise mismatch("Header mismatch: Mcp-Method header is missing")
    if _checked_value(METHOD_HEADER, header_method) != method:
        raise mismatch(f"Header mismatch: Mcp-Method header does not match method {method!r}")
    params = message.get("params")
    assert isinstance(params, dict)
    source = NAME_SOURCES.get(method)
    body_name = params.get(source) if source is not None else None
    if isinstance(body_name, str):
        header_name = headers.single(NAME_HEADER)
        if header_name is None:
            raise mismatch("Header mismatch: Mcp-Name header is missing")
        if decode_value(NAME_HEADER, header_name) != body_name:
            raise mismatch(f"Header mismatch: Mcp-Name header does not match params.{source}")
    arguments = params.get("arguments")
    if method == "tools/call" and isinstance(body_name, str):
        declared = tools.declared(body_name)
        if declared:
            _check_params(headers, declared, arguments if isinstance(arguments, dict) else {})
