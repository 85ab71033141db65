"""Request bodies: which media type is sent, as what, and how each form or multipart field goes.

``request_body`` chooses the media type (``operations.BODY_PREFERENCE``) and makes it sendable: a
media range is not a content type, so ``*/*`` or ``application/*`` with a JSON-shaped schema is sent
as ``application/json``, a binary one (or one with no schema) as ``application/octet-stream``,
``text/*`` as ``text/plain``
(the range is kept as ``declared_type``; the runtime sniffs a binary body's type for ``image/*`` and
the like). A whole body that is binary (``format: binary``, ``contentMediaType``, or no schema under
a binary media type) is described to the client as a base64 string (``contentEncoding``), exactly as
multipart file parts are, and the runtime decodes it. Form bodies keep their Encoding Object (style,
explode, allowReserved, contentType per field; OpenAPI's defaults otherwise: form style, exploded);
multipart bodies their part content types (``application/json`` by default for objects and arrays of
objects), file parts and the part headers whose value the spec fixes.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, Final

from ..load.refs import Location
from .model import BodyPart, JsonSchema, RequestBody
from .operation_parts import (
    BODY_PREFERENCE,
    JSON_TYPE,
    Context,
    SkipOperation,
    base_media_type,
    choose_media_type,
    is_json_type,
    report_dropped,
    text,
)
from .operation_parts import (
    binary_media as _binary,
)
from .operation_parts import (
    raw_schema as _raw_schema,
)
from .operation_parts import (
    shape as _shape,
)
from .schema_utils import non_null

__all__ = ["request_body", "sent_as_text"]

_MULTIPART: Final = "multipart/form-data"
_FORM: Final = "application/x-www-form-urlencoded"
_OCTETS: Final = "application/octet-stream"
_JSON_PATCH: Final = "application/json-patch+json"
# file parts of these media types are taken as text; any other file part as base64
_TEXT_PART: Final = re.compile(
    r"text/.*|application/(json|xml|yaml|x-yaml|javascript|graphql|sql)|.*\+(json|xml)",
    re.IGNORECASE,
)
# media types whose bodies are text (a string argument sent as UTF-8)
_TEXT_BODY: Final = re.compile(
    r"text/.*|application/(xml|yaml|x-yaml|javascript|graphql|sql)|.*\+xml", re.IGNORECASE
)
_STYLES: Final = frozenset({"form", "spaceDelimited", "pipeDelimited", "deepObject"})
# a media type written as a string property's format (apispec writes a marshmallow file field so:
# Superset's CSV upload, `file: {type: string, format: text/csv}`)
_MEDIA_FORMAT: Final = re.compile(
    r"(application|audio|font|image|model|text|video)/[a-z0-9][a-z0-9!#$&^_.+-]*", re.IGNORECASE
)


def request_body(ctx: Context, raw: Any, at: Location, path: str = "") -> RequestBody | None:
    resolved = ctx.resolver.deref(raw, at)
    if resolved is None:
        raise SkipOperation(f"request body {at.pointer} cannot be resolved")
    value, loc = resolved
    if not isinstance(value, dict):
        raise SkipOperation(f"request body {at.pointer} is not an object")
    content = value.get("content")
    if not isinstance(content, dict) or not content:
        ctx.resolver.warn("body-empty", loc, "request body has no content; no body is sent")
        return None
    media_types = list(content)
    preferred = _preferred(ctx, content, media_types, loc.child("content"))
    chosen = _for_files(ctx, content, preferred, loc.child("content"))
    without_files = preferred if chosen != preferred and is_json_type(preferred) else ""
    report_dropped(ctx, loc.child("content"), chosen, media_types, "request body")
    _report_dropped_files(ctx, content, chosen, loc.child("content"))
    media = content[chosen]
    at_media = loc.child("content", chosen)
    raw_schema = _raw_schema(ctx, media, at_media)
    schema: JsonSchema = {}
    if isinstance(media, dict) and "schema" in media:
        schema = ctx.schemas.normalise(media["schema"], at_media.child("schema"), "input")
    sent = _concrete_type(chosen, raw_schema)
    if sent != chosen:
        what = "is a range" if "*" in chosen else "has a schema of JSON values (an object or list)"
        ctx.resolver.info(
            "body-media-range",
            at_media,
            f"the request body's media type {chosen} {what}; it is sent as {sent}",
        )
    parts: tuple[BodyPart, ...] = ()
    base = base_media_type(sent)
    if base in (_MULTIPART, _FORM) and _unnamed(raw_schema, base) and isinstance(media, dict):
        schema = _named_field(ctx, schema, raw_schema, base, path, at_media)
        raw_schema = dict(schema)
        media = {k: v for k, v in media.items() if k != "schema"} | {"schema": schema}
    if base == _MULTIPART and isinstance(media, dict):
        schema, parts = _multipart(ctx, media, at_media, schema)
    elif base == _FORM and isinstance(media, dict):
        parts = _form(ctx, media, at_media)
    elif _is_binary_body(base, raw_schema):
        media_hint = chosen if "*" in chosen else sent
        # a text body (a script, a CSV file) is written as the text it is; the runtime sends a
        # text media type's string as given, so base64 would reach the API undecoded
        textual = _TEXT_BODY.fullmatch(base) is not None
        schema = _file_schema(schema, base_media_type(media_hint), not textual, whole=True)
    return RequestBody(
        content_type=sent,
        required=value.get("required") is True,
        schema=schema,
        description=text(value.get("description")),
        parts=parts,
        declared_type=chosen if sent != chosen else "",
        without_files=without_files,
    )


def _preferred(ctx: Context, content: dict[str, Any], media_types: list[str], at: Location) -> str:
    """The media type the body goes as (``BODY_PREFERENCE``), JSON Patch by what its value is.

    A JSON Patch document (RFC 6902, ``application/json-patch+json``) is an array of operations.
    Where the body's schema is such an array (of objects with ``op`` and ``path``), that type is
    the one to send: ASP.NET reads a ``JsonPatchDocument`` under no other, though Swashbuckle
    lists ``application/json`` beside it. Where the schema is an object (Kubernetes' ``Patch``,
    offered as a JSON Patch, a merge patch and a strategic merge patch), an object sent as a
    JSON Patch is refused: it goes as the other JSON type offered, a merge patch (RFC 7396)."""
    usual = choose_media_type(media_types, BODY_PREFERENCE) or media_types[0]
    patches = [t for t in media_types if base_media_type(t) == _JSON_PATCH]
    others = [t for t in media_types if t not in patches]
    if not patches or not others:
        return usual
    schema = _raw_schema(ctx, content[patches[0]], at.child(patches[0]))
    if schema.get("type") == "array":
        operation = _raw_schema(ctx, {"schema": schema.get("items")}, at.child(patches[0]))
        properties = operation.get("properties")
        # an array of something else (Swashbuckle lists the type beside every body's)
        if isinstance(properties, dict) and {"op", "path"} <= properties.keys():
            return patches[0]
        return usual
    chosen = choose_media_type(others, BODY_PREFERENCE)
    if usual in patches and chosen is not None and is_json_type(chosen):
        ctx.resolver.info(
            "body-json-patch",
            at,
            f"the request body's schema is not the array of operations a JSON Patch"
            f" ({usual}) is; it is sent as {chosen}",
        )
        return chosen
    return usual


def declared_content_type(
    ctx: Context, body: RequestBody, values: tuple[str, ...], at: Location
) -> RequestBody:
    """``body`` sent with the type a ``Content-Type`` header parameter enumerates, where the body
    is bytes of no particular type (``application/octet-stream``) and the parameter names others:
    Docker's build takes its context as ``application/x-tar``. (OpenAPI ignores the parameter as
    a parameter; what it says of the body is kept.)"""
    if base_media_type(body.content_type) != _OCTETS or any(
        base_media_type(value) == _OCTETS for value in values
    ):
        return body
    chosen = values[0]
    ctx.resolver.info(
        "body-media-range",
        at.child("requestBody"),
        f"the request body is sent as {chosen}, the type its Content-Type header parameter names,"
        f" not {body.content_type}",
    )
    schema = dict(body.schema)
    if schema.get("contentMediaType") == body.content_type:
        schema["contentMediaType"] = chosen
    return dataclasses.replace(body, content_type=chosen, schema=schema)


def sent_as_text(body: RequestBody) -> bool:
    """A string body of a media type that is neither JSON, a form nor text, and not binary (no
    base64 to decode, which ``request_body`` would have said with ``contentEncoding``): it goes as
    given (Spotify's cover, ``image/jpeg`` with ``format: byte``: base64 is what it takes)."""
    base = base_media_type(body.content_type)
    return (
        body.schema.get("type") == "string"
        and ("contentEncoding" not in body.schema or body.schema.get("format") == "byte")
        and base not in (JSON_TYPE, _FORM, _MULTIPART)
        and not base.endswith("+json")
        and not _TEXT_BODY.fullmatch(base)
    )


def is_encoded_form(body: RequestBody) -> bool:
    """A form body whose schema is a string: the form itself, already encoded (sent as given)."""
    return base_media_type(body.content_type) == _FORM and body.schema.get("type") == "string"


_A: Final = {"array": "a list", "string": "a string", "integer": "a number", "number": "a number"}


def _unnamed(schema: dict[str, Any], base: str) -> bool:
    """A multipart body that is no object (a file, a list, a string), or a form body that is a
    file or a list: the document gives its field no name. (A form body that is a string is the
    form itself, already encoded.)"""
    kind = schema.get("type")
    scalars = ("string", "integer", "number") if base == _MULTIPART else ()
    return _binary(schema) is not None or kind == "array" or kind in scalars


def _named_field(
    ctx: Context, schema: JsonSchema, raw: dict[str, Any], base: str, path: str, at: Location
) -> JsonSchema:
    """An unnamed form or multipart body as the object of one field: ``file`` for a file (Jira's
    attachments), else the path's last word (Jira's ``PUT /filter/{id}/columns`` takes its list as
    ``columns=a&columns=b``, as its description says)."""
    words = [s for s in path.split("/") if s and not s.startswith("{")]
    name = "file" if _binary(raw) is not None else (words[-1] if words else "body")
    what = "a file" if name == "file" else _A.get(str(raw.get("type")), "a value")
    ctx.resolver.warn(
        "body-field-unnamed",
        at.child("schema"),
        f"the {base} body is {what}, for which the document names no field: it is sent as the "
        f"field {name!r}",
    )
    described = {k: schema[k] for k in ("description",) if k in schema}
    return {"type": "object", "properties": {name: schema}, "required": [name], **described}


def _concrete_type(chosen: str, schema: dict[str, Any]) -> str:
    """A content type to send for the declared media type ``chosen`` (see the module)."""
    base = base_media_type(chosen)
    if base == _OCTETS and _shape(schema) == "json":
        # bytes described as an object or a list are a JSON document (Docker's network connect,
        # whose converted document says octet-stream): they could only be sent as JSON
        return JSON_TYPE
    if "*" not in base:
        return chosen
    shape = _shape(schema)
    kind = base.split("/", 1)[0]
    if kind == "text":
        return "text/plain"
    # no schema at all under a range is most often an upload (Jira's avatars under */*)
    if shape in ("binary", "any") or kind in ("image", "audio", "video", "font", "model"):
        return _OCTETS
    if shape == "text":
        return "text/plain"
    return JSON_TYPE


def _is_binary_body(base: str, schema: dict[str, Any]) -> bool:
    """A body sent as bytes: a binary schema, or no schema under a binary media type."""
    if base in (JSON_TYPE, _FORM, _MULTIPART) or base.endswith("+json"):
        return False
    if _binary(schema) is not None:
        return True
    return not _TEXT_BODY.fullmatch(base) and _shape(schema) == "any"


def _for_files(ctx: Context, content: dict[str, Any], chosen: str, at: Location) -> str:
    """multipart/form-data in place of the JSON or form body preferred, when both are offered and
    the body has a file (drf-spectacular offers the three for an upload: Pulp's content, whose
    file a form would send as its base64 text and a JSON body as a string)."""
    if base_media_type(chosen) not in (JSON_TYPE, _FORM):
        return chosen
    multipart = next((m for m in content if base_media_type(m) == _MULTIPART), None)
    media = content[chosen]
    if multipart is None or not isinstance(media, dict):
        return chosen
    properties = _form_properties(ctx, _raw_schema(ctx, media, at.child(chosen)), at)
    for name, prop in properties.items():
        if isinstance(prop, dict) and _part_binary(_one_part(prop)) is not None:
            ctx.resolver.info(
                "body-multipart-for-file",
                at.child(multipart),
                f"the request body's property {name!r} is a file: it is sent as {multipart}, "
                f"not as {chosen}" + (", when a call gives a file" if is_json_type(chosen) else ""),
            )
            return multipart
    return chosen


def _report_dropped_files(ctx: Context, content: dict[str, Any], chosen: str, at: Location) -> None:
    """A warning when the body chosen leaves out a multipart form that carries a file (Phoenix's
    dataset upload: JSON, or a CSV file as multipart): the tool cannot upload it."""
    if base_media_type(chosen) == _MULTIPART:
        return
    for media_type, media in content.items():
        if base_media_type(media_type) != _MULTIPART or not isinstance(media, dict):
            continue
        properties = _raw_schema(ctx, media, at.child(media_type)).get("properties")
        files = [
            name
            for name, prop in (properties.items() if isinstance(properties, dict) else ())
            if isinstance(prop, dict) and _part_binary(_one_part(prop)) is not None
        ]
        if files:
            ctx.resolver.warn(
                "body-files-dropped",
                at.child(media_type),
                f"the request body is sent as {chosen}; {media_type}, which carries the file "
                f"{', '.join(repr(f) for f in files)}, is left out: the tool cannot upload it "
                "(an overlay that removes the other media types keeps it)",
            )
        return


def _form_properties(ctx: Context, raw: Mapping[str, Any], at: Location) -> dict[str, Any]:
    """The properties of a form body's schema as written, or of the object among its
    ``oneOf``/``anyOf`` branches (drf-spectacular's "one object, or a list of them" for a bulk
    create: NetBox's image attachment, whose ``image`` is a file)."""
    properties = raw.get("properties")
    if isinstance(properties, dict):
        return properties
    for keyword in ("oneOf", "anyOf"):
        for branch in raw.get(keyword) or ():
            found = _raw_schema(ctx, {"schema": branch}, at).get("properties")
            if isinstance(found, dict):
                return found
    return {}


def _one_part(prop: JsonSchema) -> JsonSchema:
    """A form property's schema, or its items' when it is a list of them (several files); an
    optional one's that is not null (FastAPI's ``UploadFile | None``: ``anyOf: [{type: string,
    contentMediaType: …}, {type: null}]``)."""
    one = non_null(prop)
    items = one.get("items")
    return items if one.get("type") == "array" and isinstance(items, dict) else one


def _multipart(
    ctx: Context, media: dict[str, Any], at: Location, schema: JsonSchema
) -> tuple[JsonSchema, tuple[BodyPart, ...]]:
    """The parts of a multipart body sent as files or with their own ``Content-Type``.

    A binary property (``format: binary``, or ``contentMediaType`` without ``contentEncoding``;
    arrays of them too) becomes a file part; its argument is described as base64 (or as text for
    textual media types), so the body schema is inlined with those properties rewritten. Objects
    and arrays of objects are JSON parts unless the encoding says otherwise (or the document is
    Strapi's: see ``Context.typed_json_parts``); an optional file (``anyOf`` with null) is a file.
    """
    if "$ref" in schema:
        # inlined, normalised where it is written: its properties' own $refs become #/$defs ones
        resolved = ctx.resolver.deref(media["schema"], at.child("schema"))
        if resolved is not None:
            schema = ctx.schemas.normalise(resolved[0], resolved[1], "input")
    properties = schema.get("properties")
    declared = media.get("encoding")
    encoding: dict[str, Any] = declared if isinstance(declared, dict) else {}
    if not isinstance(properties, dict):
        return schema, _union_files(ctx, media, at, encoding)
    parts: list[BodyPart] = []
    rewritten = dict(properties)
    raw = _raw_schema(ctx, media, at).get("properties")
    written: dict[str, Any] = raw if isinstance(raw, dict) else {}
    for name, prop in properties.items():
        if not isinstance(prop, dict):
            continue
        found = encoding.get(name)
        entry: dict[str, Any] = found if isinstance(found, dict) else {}
        headers = _part_headers(ctx, entry, at.child("encoding", name))
        one = non_null(prop)
        items = one.get("items") if one.get("type") == "array" else None
        binary = _part_binary(items if isinstance(items, dict) else one)
        content_type = _first_concrete(entry.get("contentType")) or _first_concrete(binary)
        if binary is None:
            shape = _part_shape(ctx, prop, written.get(name), at)
            if not content_type and shape == "json" and ctx.typed_json_parts:
                content_type = JSON_TYPE
            if content_type or headers:
                parts.append(BodyPart(name, content_type, headers=headers))
            continue
        content_type = content_type or _OCTETS
        base64 = not _TEXT_PART.fullmatch(content_type)
        parts.append(BodyPart(name, content_type, file=True, base64=base64, headers=headers))
        file: JsonSchema = (
            {**one, "items": _file_schema(items, content_type, base64)}
            if isinstance(items, dict)
            else _file_schema(one, content_type, base64)
        )
        rewritten[name] = file if one is prop else _nullable_file(prop, one, file)
    if any(part.file for part in parts):
        schema = {**schema, "properties": rewritten}
    return schema, tuple(parts)


def _union_files(
    ctx: Context, media: dict[str, Any], at: Location, encoding: Mapping[str, Any]
) -> tuple[BodyPart, ...]:
    """The file parts of a body that is one object or a list of them (NetBox's bulk creates): a
    call that gives the object its file goes as multipart (a list, as the JSON beside it)."""
    parts: list[BodyPart] = []
    for name, prop in _form_properties(ctx, _raw_schema(ctx, media, at), at).items():
        one = non_null(prop) if isinstance(prop, dict) else {}
        items = one.get("items") if one.get("type") == "array" else None
        binary = _part_binary(items if isinstance(items, dict) else one)
        if binary is None:
            continue
        entry = encoding.get(name)
        said = entry.get("contentType") if isinstance(entry, dict) else None
        content_type = _first_concrete(said) or _first_concrete(binary) or _OCTETS
        base64 = not _TEXT_PART.fullmatch(content_type)
        parts.append(BodyPart(name, content_type, file=True, base64=base64))
    return tuple(parts)


def _nullable_file(prop: JsonSchema, branch: JsonSchema, file: JsonSchema) -> JsonSchema:
    """An optional file's schema with its branch that is not null rewritten as ``file``."""
    keyword = "anyOf" if "anyOf" in prop else "oneOf"
    branches = [file if b is branch else b for b in prop[keyword]]
    return {**prop, keyword: branches}


def _part_binary(schema: JsonSchema) -> str | None:
    """A part's file media type (``""``: any), or ``None`` when the part is no file: a binary
    string, or a string whose format is a media type."""
    found = _binary(schema)
    written = schema.get("format")
    if found is None and schema.get("type") == "string" and isinstance(written, str):
        return written if _MEDIA_FORMAT.fullmatch(written) else None
    return found


def _part_shape(ctx: Context, prop: JsonSchema, written: Any, at: Location) -> str:
    """The shape of a multipart property (see ``_shape``), an array by its items, looking through
    the references of the schema as written (Zeno's ``podcast: {$ref: Podcast}``, an object, is a
    JSON part: a server such as Spring's ``@RequestPart`` reads it only with that type)."""
    items = prop.get("items") if prop.get("type") == "array" else None
    target = items if isinstance(items, dict) else prop
    if isinstance(items, dict) and isinstance(written, dict):
        written = written.get("items")
    if _shape(target) == "any" and isinstance(written, dict) and "$ref" in written:
        target = _raw_schema(ctx, {"schema": written}, at.child("schema", "properties"))
    shape = _shape(target)
    # a number or a boolean is a primitive: OpenAPI's default for it is text/plain, a form field
    return "text" if shape == "json" and not _structured(target) else shape


def _structured(schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` may be an object or an array (a reference is taken to be one)."""
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    if any(k in ("object", "array") for k in kinds) or "$ref" in schema:
        return True
    branches = [
        branch
        for key in ("anyOf", "oneOf", "allOf")
        for branch in schema.get(key) or ()
        if isinstance(branch, dict)
    ]
    return any(_structured(branch) for branch in branches) if branches else not kinds


def _form(ctx: Context, media: dict[str, Any], at: Location) -> tuple[BodyPart, ...]:
    """The fields of a form body whose Encoding Object says more than OpenAPI's defaults."""
    properties, encoding = _fields(ctx, media, at, {})
    parts: list[BodyPart] = []
    for name, entry in encoding.items():
        where = at.child("encoding", name)
        if not isinstance(entry, dict):
            ctx.resolver.warn("encoding-invalid", where, "an Encoding Object must be an object")
            continue
        if properties is not None and name not in properties:
            ctx.resolver.warn(
                "encoding-unknown", where, f"'{name}' is not a property of the body; ignored"
            )
            continue
        style = entry.get("style")
        if style is not None and style not in _STYLES:
            ctx.resolver.warn(
                "encoding-style", where.child("style"), f"style {style!r} ignored (form is used)"
            )
            style = None
        explode = entry.get("explode")
        part = BodyPart(
            str(name),
            # only when no style is given: style, explode and allowReserved win over it
            _first_concrete(entry.get("contentType")) if style is None else "",
            style=style or "",
            explode=explode if isinstance(explode, bool) else None,
            allow_reserved=entry.get("allowReserved") is True,
        )
        if part != BodyPart(str(name), ""):
            parts.append(part)
    return tuple(parts)


def _fields(
    ctx: Context, media: dict[str, Any], at: Location, schema: JsonSchema
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The body's properties (``None`` when it has none) and its Encoding Objects by name."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        raw = _raw_schema(ctx, media, at)
        properties = raw.get("properties") if isinstance(raw.get("properties"), dict) else None
    encoding = media.get("encoding")
    return properties, encoding if isinstance(encoding, dict) else {}


def _part_headers(ctx: Context, entry: dict[str, Any], at: Location) -> tuple[tuple[str, str], ...]:
    """Headers of a multipart part whose value the spec fixes (``const``, one enum, ``default``)."""
    declared = entry.get("headers")
    if not isinstance(declared, dict):
        return ()
    found: list[tuple[str, str]] = []
    for name, header in declared.items():
        resolved = ctx.resolver.deref(header, at.child("headers", name))
        schema = resolved[0].get("schema") if resolved and isinstance(resolved[0], dict) else None
        value = _fixed_value(schema if isinstance(schema, dict) else {})
        if str(name).lower() == "content-type":
            continue  # OpenAPI: the part's contentType says it
        if value is None:
            ctx.resolver.info(
                "part-header-open",
                at.child("headers", name),
                f"part header {name!r} has no fixed value (const, one enum value or default); "
                "it is not sent",
            )
            continue
        found.append((str(name), value))
    return tuple(found)


def _fixed_value(schema: dict[str, Any]) -> str | None:
    for candidate in (
        schema.get("const"),
        (schema.get("enum") or [None])[0] if len(schema.get("enum") or []) == 1 else None,
        schema.get("default"),
    ):
        if isinstance(candidate, str | int | float) and not isinstance(candidate, bool):
            value = str(candidate)
            return value if value.isprintable() and "\r" not in value else None
    return None


def _first_concrete(content_type: Any) -> str:
    """The first media type of an ``encoding.contentType`` list, unless it is a wildcard."""
    first = content_type.split(",", 1)[0].strip() if isinstance(content_type, str) else ""
    return "" if "*" in first else first


def _file_schema(
    schema: JsonSchema, content_type: str, base64: bool, *, whole: bool = False
) -> JsonSchema:
    """A binary schema as the client sees it: a string, base64 when the content is binary."""
    out = {k: v for k, v in schema.items() if k not in ("format", "contentEncoding")}
    if whole:  # a whole body may have no schema at all
        out = {"type": "string", **{k: v for k, v in out.items() if k != "type"}}
    if content_type and "*" not in content_type:
        out["contentMediaType"] = content_type
    if base64:
        out["contentEncoding"] = "base64"
    what = "The request body" if whole else "File content"
    note = f"{what}, base64-encoded." if base64 else f"{what}, as text."
    if base64 and not whole:
        note = (
            "File content, base64-encoded or as a data URL (data:<type>;name=<file name>;base64,…)."
        )
    description = text(schema.get("description")).strip()
    if description and description[-1] not in ".!?":
        description += "."
    out["description"] = f"{description} {note}" if description else note
    return out
