"""A captured request checked against the original document with openapi-core, independently of us.

``validator`` builds an ``openapi_core.OpenAPI`` for a document whose servers point at the recorder
(the document itself is not otherwise touched; the spec validator is off, since real specs have
small faults that are not the request's). Formats are left as the strings that were sent (no
``datetime``/``UUID``/base64 decoding, and no refusal of formats openapi-core does not know, such
as Twilio's ``phone-number``) so that unmarshalled values compare with the arguments, and
OAuth 2 / OpenID Connect schemes are checked as bearer tokens (openapi-core only warns about them).
``CapturedRequest`` adapts a recorded request: the raw path with each segment percent-decoded (a
``%2F`` stays encoded, so routing is unchanged), the query as ``parse_qsl`` reads it, headers and
cookies as sent. ``check`` returns openapi-core's errors as readable lines and what it unmarshalled.

One reading is taught to openapi-core: its ``deepObject`` deserializer reads one level of string
values and refuses arrays, so a nested value (``discounts[0][coupon]=x``, ``expand[0]=a``) could not
be checked at all. OpenAPI leaves that wire format open; ``bracket_loads`` reads the bracket
convention the big form-encoded APIs document (indexed arrays, nested objects), and openapi-core
then casts and validates the value against its schema as usual; a primitive declared deepObject
(Stripe's ``cancel_at``) has no brackets to write and is read as ``name=value``. And for OpenAPI 3.0
documents, ``style``/``explode``/``allowReserved`` of a multipart Encoding Object are dropped
before openapi-core reads them, since OpenAPI 3.0 says they SHALL be ignored for any media type but
``application/x-www-form-urlencoded`` (openapi-core applies them anyway); multipart parts, which
arrive as text, are cast by the body schema as form fields are (openapi-core does not).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from jsonschema_path import SchemaPath
from openapi_core import Config, OpenAPI
from openapi_core.casting.schemas import (
    oas30_write_schema_casters_factory,
    oas31_schema_casters_factory,
)
from openapi_core.casting.schemas.exceptions import CastError
from openapi_core.datatypes import Parameters, RequestParameters
from openapi_core.deserializing.media_types import media_type_deserializers
from openapi_core.deserializing.media_types.deserializers import MediaTypeDeserializer
from openapi_core.deserializing.media_types.factories import MediaTypeDeserializersFactory
from openapi_core.deserializing.styles import StyleDeserializersFactory, style_deserializers
from openapi_core.security.exceptions import SecurityProviderError
from openapi_core.security.factories import SecurityProviderFactory
from openapi_core.security.providers import ApiKeyProvider, BaseProvider, HttpProvider
from werkzeug.datastructures import Headers, ImmutableMultiDict, MultiDict

from tests.kit.upstream import Request


class _TokenProvider(BaseProvider):
    """OAuth 2 and OpenID Connect: a bearer token in ``Authorization``."""

    def __call__(self, parameters: RequestParameters) -> Any:
        header = str(parameters.header.get("Authorization", ""))
        kind, _, token = header.partition(" ")
        if kind.lower() != "bearer" or not token:
            raise SecurityProviderError("Missing bearer token.")
        return token


class _Providers(SecurityProviderFactory):
    PROVIDERS = {  # noqa: RUF012 (the base class declares it so)
        "apiKey": ApiKeyProvider,
        "http": HttpProvider,
        "oauth2": _TokenProvider,
        "openIdConnect": _TokenProvider,
    }


def _as_sent(value: Any) -> Any:
    return value


_BRACKETS = re.compile(r"\[([^\[\]]*)\]")


def _lists(node: Any) -> Any:
    """Objects keyed ``0``..``n-1`` become arrays, depth first."""
    if not isinstance(node, dict):
        return node
    node = {k: _lists(v) for k, v in node.items()}
    if node and sorted(node) == sorted(str(i) for i in range(len(node))):
        return [node[str(i)] for i in range(len(node))]
    return node


def bracket_loads(explode: bool, name: str, schema_type: str, location: Mapping[str, Any]) -> Any:
    """``name[a][0]=x`` → ``{"a": ["x"]}``; ``name[0]=x`` → ``["x"]``; raises ``KeyError`` if absent."""
    pairs = (
        location.items(multi=True)  # a werkzeug MultiDict: every value of a repeated key
        if isinstance(location, MultiDict)
        else location.items()
    )
    root: dict[str, Any] = {}
    found = False
    for key, value in pairs:
        rest = key[len(name) :] if key.startswith(name + "[") else ""
        path = _BRACKETS.findall(rest)
        if not path or "".join(f"[{p}]" for p in path) != rest:
            continue
        found = True
        node = root
        for part in path[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ValueError(f"{key} mixes a value and nested keys")
            node = child
        node[path[-1]] = value
    if not found:
        if name in location:
            return location[name]
        raise KeyError(name)
    return _lists(root)


def _without_multipart_styles(document: dict[str, Any]) -> dict[str, Any]:
    if not str(document.get("openapi", "")).startswith("3.0"):
        return document
    document = copy.deepcopy(document)
    for item in (document.get("paths") or {}).values():
        for operation in item.values() if isinstance(item, dict) else ():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            for media, content in ((body or {}).get("content") or {}).items():
                if not media.lower().startswith("multipart/"):
                    continue
                for encoding in (content.get("encoding") or {}).values():
                    for key in ("style", "explode", "allowReserved"):
                        encoding.pop(key, None)
    return document


class _CastingMultipart(MediaTypeDeserializer):
    """Multipart parts arrive as text; their values are cast by the body schema like form fields
    (openapi-core leaves ``temperature=2.5`` a string and then rejects it as not a number)."""

    def deserialize(self, value: bytes) -> Any:
        decoded = super().deserialize(value)
        if (
            self.mimetype.startswith("multipart/")
            and self.schema_caster is not None
            and isinstance(decoded, Mapping)
        ):
            try:
                return self.schema_caster.cast(dict(decoded))
            except (ValueError, TypeError, CastError):
                return decoded
        return decoded


class _MediaTypes(MediaTypeDeserializersFactory):
    def create(self, *args: Any, **kwargs: Any) -> MediaTypeDeserializer:
        made = super().create(*args, **kwargs)
        made.__class__ = _CastingMultipart
        return made


def _formats(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["format"]} if isinstance(node.get("format"), str) else set()
        return found.union(*map(_formats, node.values()))
    if isinstance(node, list):
        return set().union(*map(_formats, node))
    return set()


def validator(document: dict[str, Any]) -> OpenAPI:
    casters = (
        oas31_schema_casters_factory
        if str(document.get("openapi", "")).startswith("3.1")
        else oas30_write_schema_casters_factory
    )
    styles = StyleDeserializersFactory(
        casters, style_deserializers={**style_deserializers, "deepObject": bracket_loads}
    )
    config = Config(
        style_deserializers_factory=styles,
        media_type_deserializers_factory=_MediaTypes(
            styles, media_type_deserializers=media_type_deserializers
        ),
        spec_validator_cls=None,
        # every format stays the string that was sent; an unknown one ("phone-number") is an
        # annotation, though openapi-core refuses to unmarshal it
        extra_format_unmarshallers=dict.fromkeys(_formats(document), _as_sent),
        security_provider_factory=_Providers(),
    )
    return OpenAPI(SchemaPath.from_dict(_without_multipart_styles(document)), config=config)


def _decoded_path(raw: str) -> str:
    return "/".join(
        unquote(s.replace("%2F", "%252F").replace("%2f", "%252f")) for s in raw.split("/")
    )


def _cookies(header: str | None) -> list[tuple[str, str]]:
    pairs = []
    for piece in (header or "").split(";"):
        name, sep, value = piece.strip().partition("=")
        if sep:
            pairs.append((name, unquote(value)))
    return pairs


@dataclass
class CapturedRequest:
    """openapi-core's ``Request`` protocol over a recorded request."""

    captured: Request
    host_url: str
    parameters: RequestParameters = field(init=False)

    def __post_init__(self) -> None:
        split = urlsplit(self.captured.target)
        self._path = _decoded_path(split.path)
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qsl(split.query, keep_blank_values=True)),
            header=Headers(list(self.captured.headers)),
            cookie=ImmutableMultiDict(_cookies(self.captured.header("Cookie"))),
        )

    @property
    def path(self) -> str:
        return self._path

    @property
    def method(self) -> str:
        return self.captured.method.lower()

    @property
    def body(self) -> bytes | None:
        return self.captured.body or None

    @property
    def content_type(self) -> str:
        return self.captured.header("Content-Type") or ""


@dataclass(frozen=True, slots=True)
class Verdict:
    errors: list[str]
    parameters: Parameters
    body: Any
    # which parts openapi-core could not read: "body", or "<location>:<name>"
    unreadable: frozenset[str]


def _message(error: BaseException) -> str:
    parts = [str(error)]
    cause: BaseException | None = error.__cause__ or error.__context__
    seen = 0
    while cause is not None and seen < 4:
        schema_errors = getattr(cause, "schema_errors", None)
        if schema_errors:
            parts.extend(
                f"{'/'.join(map(str, getattr(e, 'absolute_path', []))) or '<root>'}: "
                f"{getattr(e, 'message', e)}"[:300]
                for e in list(schema_errors)[:3]
            )
            break
        parts.append(str(cause)[:300])
        cause, seen = cause.__cause__ or cause.__context__, seen + 1
    return " | ".join(dict.fromkeys(p for p in parts if p))


def check(openapi: OpenAPI, captured: Request, host_url: str) -> Verdict:
    request = CapturedRequest(captured, host_url)
    result = openapi.unmarshal_request(request)
    unreadable: set[str] = set()
    for error in result.errors:
        name, location = getattr(error, "name", None), getattr(error, "location", None)
        if name is not None and location is not None:
            unreadable.add(f"{location}:{name}")
        elif "body" in type(error).__name__.lower() or "media" in type(error).__name__.lower():
            unreadable.add("body")
        else:  # path, operation, server or security: nothing unmarshalled can be trusted
            unreadable.add("*")
    return Verdict(
        [_message(e) for e in result.errors], result.parameters, result.body, frozenset(unreadable)
    )


def json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None
