"""The parts of one operation: parameters, request body and success response, as IR values.

This module owns how ``parse.py`` reads what an operation sends and receives: merging path-level and
operation-level parameters, checking them against the path template, applying OpenAPI's style/explode
defaults, and the success response (request bodies are ``bodies.py``'s). What cannot be understood
raises :class:`SkipOperation` (the caller reports the operation as skipped); everything dropped or
guessed is a diagnostic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..load.refs import Location, Resolver
from .model import JsonSchema, Parameter, Response
from .schema_utils import admits_null
from .schemas import Direction, SchemaNormaliser

LOCATIONS: Final = ("path", "query", "header", "cookie")
# OpenAPI: "If in is "header" and the name field is "Accept", "Content-Type" or "Authorization",
# the parameter definition SHALL be ignored."
_IGNORED_HEADERS: Final = frozenset({"accept", "content-type", "authorization"})
# headers the HTTP client writes from the message it sends (its length, framing, connection,
# the codings it can decode and the one its body has): an argument could only contradict it
# (InfluxDB's `Content-Length` header parameter made the request unsendable)
_TRANSPORT_HEADERS: Final = frozenset(
    {
        "content-length",
        "transfer-encoding",
        "content-encoding",
        "accept-encoding",
        "host",
        "connection",
        "keep-alive",
        "te",
        "trailer",
        "upgrade",
        "expect",
    }
)
# keywords that say what kind of value a schema takes
_SHAPING: Final = frozenset(
    {"type", "$ref", "allOf", "anyOf", "oneOf", "not", "enum", "const", "items", "properties"}
)
_TEMPLATE_VARIABLE: Final = re.compile(r"\{([^{}/]+)\}")
BODY_PREFERENCE: Final = (
    "application/json",
    "+json",
    "application/x-www-form-urlencoded",
    "multipart/form-data",
    "text/plain",
    "application/octet-stream",
)
JSON_TYPE: Final = "application/json"
_RESPONSE_PREFERENCE: Final = (JSON_TYPE, "+json")
# the media ranges a JSON answer falls under
_JSON_RANGES: Final = frozenset({"*/*", "application/*"})
_MAX_HOPS: Final = 16
# keywords of a schema of JSON values (an object, a list, a composition)
_COMPOSITION: Final = ("properties", "items", "allOf", "anyOf", "oneOf", "additionalProperties")
_SUCCESS_CODE: Final = re.compile(r"2\d\d")


class SkipOperation(Exception):
    """The operation cannot be understood; ``reason`` says why (for the ``op-skipped`` warning)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Context:
    resolver: Resolver
    schemas: SchemaNormaliser
    # whether an object in a multipart body goes as a part typed application/json (OpenAPI's
    # default) or as a plain field of JSON text: Strapi's parser (formidable 2) takes any part
    # with a Content-Type for a file and drops it from the fields (its upload's ``fileInfo``)
    typed_json_parts: bool = True


def text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def base_media_type(media_type: str) -> str:
    return media_type.split(";", 1)[0].strip().lower()


def choose_media_type(media_types: list[str], preference: tuple[str, ...]) -> str | None:
    """The first media type by ``preference`` ("+json" matches any structured JSON suffix)."""
    for wanted in preference:
        for media_type in media_types:
            base = base_media_type(media_type)
            if base == wanted or (wanted.startswith("+") and base.endswith(wanted)):
                return media_type
    return None


def path_variables(path: str) -> list[str]:
    return _TEMPLATE_VARIABLE.findall(path)


def _schema_of(
    ctx: Context, owner: dict[str, Any], at: Location, direction: Direction
) -> JsonSchema:
    return ctx.schemas.normalise(owner["schema"], at.child("schema"), direction)


def _examples(ctx: Context, value: dict[str, Any], at: Location) -> tuple[Any, ...]:
    if "example" in value:
        return (value["example"],)
    examples = value.get("examples")
    if not isinstance(examples, dict):
        return ()
    found = []
    for name, example in examples.items():
        resolved = ctx.resolver.deref(example, at.child("examples", name))
        if resolved is not None and isinstance(resolved[0], dict) and "value" in resolved[0]:
            found.append(resolved[0]["value"])
    return tuple(found)


def parameter(ctx: Context, raw: Any, at: Location) -> Parameter | None:
    """One parameter (None when OpenAPI says to ignore it, or it cannot be read)."""
    resolved = ctx.resolver.deref(raw, at)
    if resolved is None:
        # pygeoapi's live document points at OGC's schemas online for its items' parameters: the
        # operation stays, without the parameter (a path variable it named becomes a string)
        ctx.resolver.warn(
            "param-unresolved",
            at,
            f"parameter {at.pointer} cannot be resolved; the operation is kept without it",
        )
        return None
    value, loc = resolved
    if not isinstance(value, dict):
        raise SkipOperation(f"parameter {at.pointer} is not an object")
    name, location = value.get("name"), value.get("in")
    if not isinstance(name, str) or not name:
        raise SkipOperation(f"parameter {at.pointer} has no name")
    if location not in LOCATIONS:
        raise SkipOperation(f"parameter '{name}' has an unsupported location ('in')")
    if location == "header" and name.lower() in _IGNORED_HEADERS:
        ctx.resolver.info(
            "param-ignored",
            at,
            f"header parameter '{name}' is ignored (OpenAPI: Accept, Content-Type and"
            " Authorization are set by the client, not described as parameters)",
        )
        return None
    if location == "header" and name.lower() in _TRANSPORT_HEADERS:
        ctx.resolver.info(
            "param-ignored",
            at,
            f"header parameter '{name}' is ignored: the HTTP client sets it from the request it"
            " sends",
        )
        return None
    required = value.get("required") is True
    if location == "path" and not required:
        ctx.resolver.warn(
            "path-param-required", at, f"path parameter '{name}' is treated as required"
        )
        required = True
    schema, content_type = _parameter_schema(ctx, value, loc, name)
    if content_type and schema.get("type") == "string" and is_json_type(content_type):
        # a string as JSON is a quoted string (`/channels/%22messaging%22/...`), which no server
        # that documents a plain string this way (Stream's path ids) means
        ctx.resolver.info(
            "param-content-plain",
            loc.child("content"),
            f"parameter '{name}' is described as {content_type} content but is a string: it is"
            " sent as the string itself, not as a quoted JSON string",
        )
        content_type = ""
    if location == "path" and not content_type and not _SHAPING.intersection(schema):
        # nothing says what it takes (httpbin's `/status/{codes}`): a path segment is text, and
        # a value of no type could be null, which leaves no path to call
        schema = {"type": "string", **schema}
    if required and location != "path" and admits_null(schema):
        # Litestar's Optional[str] without a default (Evidently's metric filters): null, which
        # leaves a parameter out, is what the API takes for "no filter", and "required" could
        # only be met by inventing one
        ctx.resolver.info(
            "param-required-null",
            at,
            f"parameter '{name}' is required but may be null, which leaves it out: it is optional",
        )
        required = False
    style = value.get("style")
    if not isinstance(style, str):
        style = "form" if location in ("query", "cookie") else "simple"
    explode = value.get("explode")
    return Parameter(
        name=name,
        location=location,
        required=required,
        schema=schema,
        description=text(value.get("description")),
        style=style,
        explode=explode if isinstance(explode, bool) else style == "form",
        allow_reserved=value.get("allowReserved") is True,
        deprecated=value.get("deprecated") is True,
        examples=_examples(ctx, value, loc),
        content_type=content_type,
        allow_empty_value=location == "query" and value.get("allowEmptyValue") is True,
    )


def is_json_type(media_type: str) -> bool:
    """Whether ``media_type`` is JSON (``application/json`` or a ``+json`` type)."""
    base = base_media_type(media_type)
    return base == JSON_TYPE or base.endswith("+json")


def _parameter_schema(
    ctx: Context, value: dict[str, Any], loc: Location, name: str
) -> tuple[JsonSchema, str]:
    content = value.get("content")
    if isinstance(content, dict) and content:
        media_type = next(iter(content))
        if len(content) > 1:
            ctx.resolver.info(
                "media-dropped",
                loc.child("content"),
                f"parameter '{name}' uses {media_type}; other media types dropped: "
                + ", ".join(list(content)[1:]),
            )
        media = content[media_type]
        if isinstance(media, dict) and "schema" in media:
            return _schema_of(ctx, media, loc.child("content", media_type), "input"), media_type
        return {}, media_type
    if "schema" in value:
        return _schema_of(ctx, value, loc, "input"), ""
    taken = "it is taken as text" if value.get("in") == "path" else "any value is accepted"
    ctx.resolver.warn("param-schema-missing", loc, f"parameter '{name}' has no schema; {taken}")
    return {}, ""


def _media_values(ctx: Context, raw: Any, at: Location) -> tuple[str, tuple[str, ...]] | None:
    """An ignored ``Accept`` or ``Content-Type`` header parameter's name (lower case) and the
    media types it enumerates, or None: a server that declares them compares the header with each
    (InfluxDB answers TOML to any ``Accept`` but exactly ``application/json``; Docker's build
    wants ``application/x-tar``), so one of them is sent alone. A required ``Content-Type`` that
    enumerates nothing names its type by its default or example (Google Home's local API and
    VTEX's require ``Content-Type: application/json`` on requests without a body)."""
    resolved = ctx.resolver.deref(raw, at)  # resolved once already, by ``parameter``
    value = resolved[0] if resolved is not None else None
    name = str(value.get("name", "")).lower() if isinstance(value, dict) else ""
    if not isinstance(value, dict) or name not in ("accept", "content-type"):
        return None
    schema = value.get("schema")
    if isinstance(schema, dict) and "$ref" in schema:
        target = ctx.resolver.target(schema["$ref"], at.child("schema"))
        schema = ctx.resolver.lookup(target)[1] if target is not None else None
    schema = schema if isinstance(schema, dict) else {}
    enum = schema.get("enum")
    found = (
        tuple(v for v in enum if isinstance(v, str) and "/" in v) if isinstance(enum, list) else ()
    )
    if not found and name == "content-type" and value.get("required") is True:
        named = (schema.get("default"), schema.get("example"), value.get("example"))
        found = next(((v,) for v in named if isinstance(v, str) and "/" in v), ())
    return (name, found) if found else None


def _parameter_list(
    ctx: Context, raw: Any, at: Location
) -> tuple[dict[tuple[str, str], Parameter], dict[str, tuple[str, ...]]]:
    """The parameters of one level, and what its ``Accept`` and ``Content-Type`` enumerate."""
    if raw is None:
        return {}, {}
    if not isinstance(raw, list):
        raise SkipOperation(f"{at.pointer} is not a list")
    found: dict[tuple[str, str], Parameter] = {}
    media: dict[str, tuple[str, ...]] = {}
    for index, item in enumerate(raw):
        param = parameter(ctx, item, at.child(index))
        if param is None:
            declared = _media_values(ctx, item, at.child(index))
            if declared is not None:
                media[declared[0]] = declared[1]
            continue
        key = (param.name, param.location)
        if key in found:
            ctx.resolver.warn(
                "param-duplicate",
                at.child(index),
                f"{param.location} parameter '{param.name}' is declared twice; the first is used",
            )
            continue
        found[key] = param
    return found, media


def parameters(
    ctx: Context,
    path_level: tuple[Any, Location],
    operation_level: tuple[Any, Location],
    path: str,
    op_at: Location,
) -> tuple[tuple[Parameter, ...], dict[str, tuple[str, ...]]]:
    """Path-item parameters overridden (in place) by the operation's, then the operation's own;
    and the media types its ``Accept`` and ``Content-Type`` header parameters enumerate, by
    lower-case name (``_media_values``)."""
    merged, media = _parameter_list(ctx, *path_level)
    own, own_media = _parameter_list(ctx, *operation_level)
    media.update(own_media)
    merged.update(own)
    variables = path_variables(path)
    for (name, location), param in list(merged.items()):
        if location == "path" and name not in variables:
            ctx.resolver.warn(
                "path-param-unused",
                op_at,
                f"path parameter '{param.name}' does not appear in the path {path}; dropped",
            )
            del merged[(name, location)]
    for variable in variables:
        if (variable, "path") not in merged:
            ctx.resolver.warn(
                "path-param-missing",
                op_at,
                f"path variable '{variable}' has no parameter; a required string is assumed",
            )
            merged[(variable, "path")] = Parameter(
                name=variable, location="path", required=True, schema={"type": "string"}
            )
    return tuple(merged.values()), media


def report_dropped(
    ctx: Context, at: Location, chosen: str, media_types: list[str], what: str
) -> None:
    others = [media_type for media_type in media_types if media_type != chosen]
    if others:
        ctx.resolver.info(
            "media-dropped",
            at,
            f"{what} uses {chosen}; other media types dropped: {', '.join(others)}",
        )


def success_status(responses: dict[str, Any]) -> str | None:
    """The lowest 2xx code, else "2XX", else "default"."""
    codes = sorted(code for code in responses if _SUCCESS_CODE.fullmatch(code))
    if codes:
        return codes[0]
    for code in responses:
        if code.upper() == "2XX":
            return code
    return "default" if "default" in responses else None


def switches_protocols(responses: Any) -> bool:
    """Whether the documented answers switch protocols (101) and none succeeds (2xx): LiteLLM's
    WebSocket routes, whose only response is "101 WebSocket Protocol Switched"."""
    if not isinstance(responses, dict):
        return False
    codes = [str(code).upper() for code in responses]
    return "101" in codes and not any(code.startswith("2") for code in codes)


def documented_redirects(responses: Any) -> tuple[str, ...]:
    """The redirects among the documented responses (``302``, ``3XX``), 304 aside (it is no
    redirect: the cached copy is current)."""
    if not isinstance(responses, dict):
        return ()
    return tuple(
        code
        for code in map(str, responses)
        if (code.upper() == "3XX" or (len(code) == 3 and code.startswith("3") and code.isdigit()))
        and code != "304"
    )


def response(ctx: Context, responses: Any, at: Location) -> Response | None:
    """The success response, its media type (JSON preferred) and output schema."""
    if not isinstance(responses, dict):
        return None
    status = success_status(responses)
    if status is None:
        return None
    resolved = ctx.resolver.deref(responses[status], at.child(status))
    if resolved is None or not isinstance(resolved[0], dict):
        return None
    value, loc = resolved
    description = text(value.get("description"))
    content = value.get("content")
    others = _success_media_types(ctx, responses, at)
    written = value.get("headers")
    headers = tuple(str(name) for name in written) if isinstance(written, dict) else ()
    if not isinstance(content, dict) or not content:
        return Response(
            status=status,
            content_type="",
            schema=None,
            description=description,
            media_types=tuple(others),
            headers=headers,
        )
    media_types = list(content)
    json_type = choose_media_type(media_types, _RESPONSE_PREFERENCE)
    chosen = json_type or media_types[0]
    if json_type is not None and _placeholder(content, json_type):
        # FastAPI writes `application/json: {schema: {}}` for a route that answers a Response of
        # its own, beside the type it documents (Phoenix's experiment as text/csv)
        described = next((m for m in media_types if not _placeholder(content, m)), None)
        # but JSON without a schema is still better read than XML or YAML with one
        if described is not None and not re.search(r"\*|xml|yaml", described, re.IGNORECASE):
            chosen = described
            json_type = described if is_json_type(described) else None
    report_dropped(ctx, loc.child("content"), chosen, media_types, f"response {status}")
    media = content[chosen]
    # what the answer is read as: a range over structured data is JSON, asked for first
    read_as = chosen
    if json_type is None and _structured_range(ctx, chosen, media, loc.child("content", chosen)):
        json_type = read_as = JSON_TYPE
    schema: JsonSchema | None = None
    if json_type is not None and isinstance(media, dict) and "schema" in media:
        schema = _schema_of(ctx, media, loc.child("content", chosen), "output")
    # another encoding of the same data (YAML or XML beside JSON, under one schema) is not asked
    # for: a server that picks among the types it offers may pick it, and slurmrestd picks at
    # random among those an Accept lists, whatever their weights
    encodings = _other_encodings(content, chosen)
    return Response(
        status=status,
        content_type=read_as,
        schema=schema,
        description=description,
        media_types=tuple(
            dict.fromkeys([read_as, chosen, *(other for other in others if other not in encodings)])
        ),
        headers=headers,
    )


def _placeholder(content: dict[str, Any], media_type: str) -> bool:
    """Whether ``content`` says nothing of what ``media_type`` carries (no schema, or ``{}``)."""
    media = content.get(media_type)
    return not isinstance(media, dict) or media.get("schema") in (None, {})


def _other_encodings(content: dict[str, Any], chosen: str) -> set[str]:
    """The media types of ``content`` other than ``chosen`` that carry the very schema it does
    (``application/x-yaml`` and ``application/xml`` beside ``application/json``, one ``$ref``):
    the same data in another encoding. A media range, or a type with a schema of its own (a CSV
    export, a file), is no other encoding: the server may answer with it for a reason."""
    media = content.get(chosen)
    schema = media.get("schema") if isinstance(media, dict) else None
    if schema is None:
        return set()
    return {
        other
        for other, described in content.items()
        if other != chosen
        and "*" not in other
        and isinstance(described, dict)
        and described.get("schema") == schema
    }


def _structured_range(ctx: Context, media_type: str, media: Any, at: Location) -> bool:
    """Whether a response documented under a media range that covers JSON (``*/*``,
    ``application/*``) describes JSON values (``shape``): springdoc writes ``*/*`` for every Spring
    controller that does not name what it produces, over a schema of objects. Such a response is
    read as JSON (its output schema kept) and ``application/json`` is asked for first: with
    ``Accept: */*`` Spring answers XML where an XML converter is present. A string schema (text,
    a file) or none stays what the range says."""
    if (
        base_media_type(media_type) not in _JSON_RANGES
        or shape(raw_schema(ctx, media, at)) != "json"
    ):
        return False
    ctx.resolver.info(
        "response-range-json",
        at,
        f"the response documented as {media_type} describes structured data: read as JSON, "
        f"asked for as {JSON_TYPE} first",
    )
    return True


def raw_schema(ctx: Context, media: Any, at: Location) -> dict[str, Any]:
    """The media type's schema as written, ``$ref`` followed (for its shape only)."""
    if not isinstance(media, dict) or "schema" not in media:
        return {}
    schema, where = media["schema"], at.child("schema")
    # quietly: the schema normaliser reports broken and cyclic references itself
    for _ in range(_MAX_HOPS):
        if not isinstance(schema, dict) or "$ref" not in schema:
            break
        target = ctx.resolver.target(schema["$ref"], where)
        found, schema = ctx.resolver.lookup(target) if target is not None else (False, None)
        if not found or target is None:
            return {}
        where = target
    return schema if isinstance(schema, dict) and "$ref" not in schema else {}


def shape(schema: Mapping[str, Any]) -> str:
    """``json`` (objects, arrays, composition), ``binary``, ``text`` (a string) or ``any``."""
    if binary_media(schema) is not None:
        return "binary"
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    if any(k in ("object", "array") for k in kinds) or any(k in schema for k in _COMPOSITION):
        return "json"
    if kinds and all(k == "string" for k in kinds if k != "null"):
        return "text"
    return "json" if kinds else "any"


def binary_media(schema: Any) -> str | None:
    """For a binary string schema its ``contentMediaType`` (``""`` when none), else ``None``."""
    if not isinstance(schema, dict) or "$ref" in schema:
        return None
    if schema.get("format") == "file":
        return ""  # Swagger 2.0's `type: file`, as converters leave it (Azure: `type: object`)
    kind = schema.get("type", "string")
    if kind != "string" and not (isinstance(kind, list) and "string" in kind):
        return None
    media = schema.get("contentMediaType")
    if schema.get("format") == "binary" or (
        isinstance(media, str) and "contentEncoding" not in schema
    ):
        return media if isinstance(media, str) else ""
    return None


def _success_media_types(ctx: Context, responses: dict[str, Any], at: Location) -> list[str]:
    """The media types of every 2xx response, in document order (for the ``Accept`` header)."""
    found: list[str] = []
    for code, raw in responses.items():
        if not (_SUCCESS_CODE.fullmatch(str(code)) or str(code).upper() == "2XX"):
            continue
        resolved = ctx.resolver.deref(raw, at.child(str(code)))
        content = resolved[0].get("content") if resolved and isinstance(resolved[0], dict) else None
        if isinstance(content, dict):
            found += [media for media in content if isinstance(media, str) and media.strip()]
    return list(dict.fromkeys(found))
