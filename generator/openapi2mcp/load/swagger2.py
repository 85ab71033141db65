"""Swagger 2.0 → OpenAPI 3.0.3, in memory, so that the rest of the pipeline only ever reads OpenAPI 3.

This module owns :func:`convert_document` (a whole Swagger document; ``parse.py`` calls it before
anything else reads the spec), :func:`convert_fragment` (a file or URL reached through ``$ref`` from
a converted document) and :func:`says_nullable` (whether the document says which values may be null,
which 2.0 can only with ``x-nullable``). Whatever is lossy or guessed becomes a diagnostic whose
pointer is into the original Swagger document (``#/paths/~1pets/get/parameters/0``), or into the
referenced file. The diagnostics of the later stages point into the converted document instead: it
keeps the Swagger ``paths`` layout (operation pointers are the same), but ``definitions`` move to
``components/schemas``, ``parameters`` to ``components/parameters`` (body ones to
``components/requestBodies``; formData ones are merged into each operation's form body) and
``responses`` to ``components/responses``. Path items, parameters and responses that live in other
files are converted in their operation's context and inlined (their own ``$ref``s rebased onto the
root); schema references stay references, with ``#/definitions/X`` rewritten to
``#/components/schemas/X`` in every file.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, replace
from typing import Any, Final
from urllib.parse import quote, unquote, urljoin

from ..diagnostics import Report
from .reading import LoadedDocument
from .refs import ROOT, ROOT_DOC, Location, Resolver, fragment_ref, is_url
from .swagger2_auth import authorization_parameters

OPENAPI_VERSION: Final = "3.0.3"
JsonObject = dict[str, Any]

_METHODS: Final = ("get", "put", "post", "delete", "options", "head", "patch")
_SECTIONS: Final = {
    "/definitions/": "/components/schemas/",
    "/parameters/": "/components/parameters/",
    "/responses/": "/components/responses/",
}
# the keywords of a non-body parameter, a header or an items object that describe its value
VALUE_SCHEMA: Final = frozenset(
    [
        "$ref",
        "type",
        "format",
        "items",
        "default",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "enum",
        "multipleOf",
        "x-nullable",
    ]
)
_FORM_TYPES: Final = ("application/x-www-form-urlencoded", "multipart/form-data")
_JSON: Final = "application/json"
_QUERY_STYLES: Final = {
    "csv": ("form", False),
    "ssv": ("spaceDelimited", False),
    "pipes": ("pipeDelimited", False),
    "multi": ("form", True),
}
_OAUTH_FLOWS: Final = {
    "implicit": ("implicit", ("authorizationUrl",)),
    "password": ("password", ("tokenUrl",)),
    "application": ("clientCredentials", ("tokenUrl",)),
    "accessCode": ("authorizationCode", ("authorizationUrl", "tokenUrl")),
}
# fields each object may have besides `x-*`; anything else is reported and dropped
_ROOT_FIELDS: Final = frozenset(
    [
        "swagger",
        "info",
        "host",
        "basePath",
        "schemes",
        "consumes",
        "produces",
        "paths",
        "definitions",
        "parameters",
        "responses",
        "securityDefinitions",
        "security",
        "tags",
        "externalDocs",
    ]
)
_OPERATION_FIELDS: Final = frozenset(
    [
        "tags",
        "summary",
        "description",
        "externalDocs",
        "operationId",
        "consumes",
        "produces",
        "parameters",
        "responses",
        "schemes",
        "deprecated",
        "security",
    ]
)
_COPIED_OPERATION_FIELDS: Final = (
    "tags",
    "summary",
    "description",
    "externalDocs",
    "operationId",
    "deprecated",
)
# in a file reached through $ref the role of each object is unknown: these hold data, not schemas
_DATA_KEYWORDS: Final = frozenset({"example", "examples", "default", "enum", "const"})
_NAME_MAPS: Final = frozenset(
    {"properties", "patternProperties", "definitions", "parameters", "responses", "headers"}
)


def convert_document(doc: LoadedDocument, report: Report) -> LoadedDocument:
    """``doc`` (a Swagger 2.0 document) as an OpenAPI 3.0.3 document; lossy steps go to ``report``."""
    # this resolver reads the original files for non-schema objects to inline; its failures are not
    # reported, because the $ref is then kept and reported (once) when the converted document is read
    resolver = Resolver(doc, Report())
    converted = Converter(doc.data, report, resolver).document()
    mounts = tuple(
        (source, _moved(tokens), dest, _moved(dest_tokens))
        for source, tokens, dest, dest_tokens in doc.mounts
    )
    return replace(doc, data=converted, mounts=mounts)


def says_nullable(doc: LoadedDocument) -> bool:
    """Whether a Swagger document says anywhere which values may be null (``x-nullable``, in it or
    in a file it refers to): one that does is taken at its word everywhere else."""
    resolver = Resolver(doc, Report())  # unreadable files are reported when the document is read
    pending: list[tuple[str, Any]] = [(ROOT_DOC, doc.data)]
    scanned = {ROOT_DOC}
    while pending:
        where, node = pending.pop()
        if isinstance(node, list):
            pending.extend((where, item) for item in node)
        elif isinstance(node, dict):
            if "x-nullable" in node:
                return True
            pending.extend((where, item) for item in node.values())
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                target = resolver.target(ref, Location(where))
                if target is not None and target.doc not in scanned:
                    scanned.add(target.doc)
                    pending.append((target.doc, resolver.lookup(Location(target.doc))[1]))
    return False


def _moved(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Pointer tokens into a Swagger document (or a fragment) as they are after conversion."""
    for old, new in _SECTIONS.items():
        section = old.strip("/")
        if tokens[:1] == (section,):
            return (*new.strip("/").split("/"), *tokens[1:])
    return tokens


def rewrite_ref(ref: str) -> str:
    """``#/definitions/X`` → ``#/components/schemas/X`` (also after a file part); others unchanged."""
    file_part, _, fragment = ref.partition("#")
    for old, new in _SECTIONS.items():
        if fragment.startswith(old):
            return f"{file_part}#{new}{fragment[len(old) :]}"
    return ref


def convert_fragment(data: Any) -> Any:
    """A document reached through ``$ref`` from a converted root, in OpenAPI 3 terms.

    Its ``definitions`` (``parameters``, ``responses``) move where the rewritten references look for
    them, and every schema-level Swagger idiom found (``x-nullable``, ``type: file``, a string
    ``discriminator``) is converted; the role of each object is not known here, so values that are
    data (examples, defaults, enums, extensions) are left alone.
    """
    converted = _walk(data)
    if isinstance(converted, dict):
        components: JsonObject = {}
        for section, target in (
            ("definitions", "schemas"),
            ("parameters", "parameters"),
            ("responses", "responses"),
        ):
            if isinstance(converted.get(section), dict):
                components[target] = converted.pop(section)
        if components:
            existing = converted.get("components")
            converted["components"] = {
                **(existing if isinstance(existing, dict) else {}),
                **components,
            }
    return converted


def _walk(node: Any) -> Any:
    if isinstance(node, list):
        return [_walk(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: JsonObject = {}
    for key, item in node.items():
        if key == "$ref" and isinstance(item, str):
            out[key] = rewrite_ref(item)
        elif key in _NAME_MAPS and isinstance(item, dict):
            out[key] = {name: _walk(value) for name, value in item.items()}
        elif key in _DATA_KEYWORDS or str(key).startswith("x-"):
            out[key] = item
        else:
            out[key] = _walk(item)
    _schema_idioms(out, node)
    return out


def _schema_idioms(out: JsonObject, original: JsonObject) -> None:
    """Swagger-only schema keywords, in place: ``type: file``, ``x-nullable``, string discriminator.

    ``format: file`` (with type ``object`` or ``string``) is how Azure's AutoRest specs say "a stream
    of bytes" for a body or a response; it becomes a binary string like ``type: file``.
    """
    if original.get("type") == "file" or (
        original.get("format") == "file" and original.get("type", "object") in ("object", "string")
    ):
        out["type"] = "string"
        out["format"] = "binary" if out.get("format", "file") == "file" else out["format"]
    if original.get("x-nullable") is True:
        out["nullable"] = True
    if isinstance(original.get("discriminator"), str):
        out["discriminator"] = {"propertyName": original["discriminator"]}


def _rebase(ref: str, doc: str) -> str:
    """``ref``, written in the document ``doc``, as a reference from the root document."""
    if doc == ROOT_DOC:
        return ref
    file_part, _, fragment = ref.partition("#")
    if is_url(doc):
        target = urljoin(doc, file_part)
    elif ":" in file_part.split("/", 1)[0]:
        return ref  # a URL (or another scheme) means the same everywhere
    elif file_part:
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(doc), unquote(file_part)))
        target = quote(joined, safe="/:@!$&'()*+,;=-._~")
    else:
        target = quote(doc, safe="/:@!$&'()*+,;=-._~")
    return f"{target}#{fragment}"


def media_types(value: Any) -> list[str] | None:
    if isinstance(value, list):
        found = [item for item in value if isinstance(item, str)]
        return found or None
    return None


def _http_schemes(value: Any) -> list[str]:
    """The HTTP schemes of a ``schemes`` list, https first; ``["https"]`` when there are none."""
    schemes = [s.lower() for s in value if isinstance(s, str)] if isinstance(value, list) else []
    return [scheme for scheme in ("https", "http") if scheme in schemes] or ["https"]


def _extensions(value: JsonObject) -> JsonObject:
    return {key: item for key, item in value.items() if str(key).startswith("x-")}


@dataclass(frozen=True, slots=True)
class BodyPart:
    """A ``body`` or ``formData`` parameter, waiting for its operation's media types."""

    kind: str
    value: JsonObject
    at: Location
    component: str | None  # name under #/parameters when referenced as a whole


class Converter:
    """Converts one Swagger document; ``_source`` is never modified."""

    def __init__(self, source: JsonObject, report: Report, resolver: Resolver) -> None:
        self._source = source
        self._report = report
        self._resolver = resolver
        self._consumes = media_types(source.get("consumes"))
        self._produces = media_types(source.get("produces"))

    def _warn(self, code: str, at: Location, message: str) -> None:
        self._report.warn(code, at.pointer, message)

    def _info(self, code: str, at: Location, message: str) -> None:
        self._report.info(code, at.pointer, message)

    def _dropped(self, value: JsonObject, known: frozenset[str], at: Location, what: str) -> None:
        unknown = [k for k in value if k not in known and not str(k).startswith("x-")]
        if unknown:
            self._info(
                "swagger-field-dropped",
                at,
                f"{what} field(s) not in Swagger 2.0 dropped: {', '.join(map(str, unknown))}",
            )

    def _ref(self, ref: str, at: Location) -> str:
        return _rebase(rewrite_ref(ref), at.doc)

    # -- document ------------------------------------------------------------------------------

    def document(self) -> JsonObject:
        source = self._source
        out: JsonObject = {"openapi": OPENAPI_VERSION}
        if "info" in source:
            out["info"] = source["info"]
        out["servers"] = self._servers()
        for key in ("tags", "security", "externalDocs"):
            if key in source:
                out[key] = source[key]
        paths = source.get("paths")
        out["paths"] = self._paths(paths) if isinstance(paths, dict) else paths
        components = self._components()
        if components:
            out["components"] = components
        authorization_parameters(out, self._report)
        out.update(_extensions(source))
        self._dropped(source, _ROOT_FIELDS, ROOT, "top-level")
        return out

    def _servers(self) -> list[JsonObject]:
        host, base = self._source.get("host"), self._source.get("basePath")
        base_path = base.rstrip("/") if isinstance(base, str) else ""
        if base_path and not base_path.startswith("/"):
            base_path = "/" + base_path
        raw = self._source.get("schemes")
        schemes = [s.lower() for s in raw if isinstance(s, str)] if isinstance(raw, list) else []
        usable = _http_schemes(raw)
        others = [scheme for scheme in schemes if scheme not in ("https", "http")]
        if others:
            self._info(
                "swagger-scheme-dropped",
                ROOT.child("schemes"),
                f"scheme(s) {', '.join(others)} dropped: only HTTP APIs are generated",
            )
        if not isinstance(host, str) or not host:
            url = base_path or "/"
            self._warn(
                "swagger-host-missing",
                ROOT,
                f"no 'host': the server URL is the relative '{url}'; set the base URL when running"
                " the server",
            )
            return [{"url": url}]
        return [{"url": f"{scheme}://{host}{base_path}"} for scheme in usable]

    def _components(self) -> JsonObject:
        source = self._source
        components: JsonObject = {}
        definitions = source.get("definitions")
        if isinstance(definitions, dict):
            components["schemas"] = {
                name: self._schema(value, ROOT.child("definitions", name))
                for name, value in definitions.items()
            }
        parameters: JsonObject = {}
        bodies: JsonObject = {}
        shared = source.get("parameters")
        for name, entry in (shared if isinstance(shared, dict) else {}).items():
            found = self._parameter_target(entry, ROOT.child("parameters", name))
            if found is None:
                parameters[name] = entry  # parse.py reports it if an operation uses it
                continue
            value, at, _ = found
            kind = value.get("in")
            if kind == "body":
                bodies[name] = self._body(value, at, self._consumes)
            elif kind != "formData":  # form fields are merged into each operation's body
                parameters[name] = self.parameter(value, at)
        if parameters:
            components["parameters"] = parameters
        if bodies:
            components["requestBodies"] = bodies
        responses = source.get("responses")
        if isinstance(responses, dict):
            components["responses"] = {
                name: self._response_entry(value, ROOT.child("responses", name), self._produces)
                for name, value in responses.items()
            }
        schemes = source.get("securityDefinitions")
        if isinstance(schemes, dict):
            components["securitySchemes"] = {
                name: self._security_scheme(value, ROOT.child("securityDefinitions", name))
                for name, value in schemes.items()
            }
        return components

    def _security_scheme(self, value: Any, at: Location) -> Any:
        if not isinstance(value, dict):
            return value
        kind = value.get("type")
        out: JsonObject
        if kind == "basic":
            out = {"type": "http", "scheme": "basic"}
        elif kind == "apiKey":
            out = {key: value[key] for key in ("type", "name", "in") if key in value}
        elif kind == "oauth2" and value.get("flow") in _OAUTH_FLOWS:
            flow, urls = _OAUTH_FLOWS[value["flow"]]
            scopes = value.get("scopes")
            settings = {url: value.get(url, "") for url in urls}
            settings["scopes"] = scopes if isinstance(scopes, dict) else {}
            out = {"type": "oauth2", "flows": {flow: settings}}
        else:
            return value  # parse.py reports the unsupported scheme
        if "description" in value:
            out["description"] = value["description"]
        return out | _extensions(value)

    # -- paths ---------------------------------------------------------------------------------

    def _paths(self, paths: JsonObject) -> JsonObject:
        out: JsonObject = {}
        for path, item in paths.items():
            if str(path).startswith("x-"):
                out[path] = item
            else:
                out[path] = self._path_item(item, ROOT.child("paths", path))
        return out

    def _path_item(self, item: Any, at: Location) -> Any:
        if isinstance(item, dict) and "$ref" in item:
            resolved = self._resolver.deref(item, at, merge_siblings=True)
            if resolved is None or not isinstance(resolved[0], dict):
                ref = item["$ref"]
                return {"$ref": self._ref(ref, at)} if isinstance(ref, str) else item
            item, at = resolved
        if not isinstance(item, dict):
            return item
        out: JsonObject = {}
        shared: dict[tuple[str, str], BodyPart] = {}
        if "parameters" in item:
            out["parameters"], shared = self._parameter_list(
                item["parameters"], at.child("parameters")
            )
        for method in _METHODS:
            if method in item:
                out[method] = self._operation(item[method], at.child(method), shared)
        out.update(_extensions(item))
        self._dropped(item, frozenset({"$ref", "parameters", *_METHODS}), at, "path item")
        return out

    def _operation(
        self, operation: Any, at: Location, shared: dict[tuple[str, str], BodyPart]
    ) -> Any:
        if not isinstance(operation, dict):
            return operation
        consumes = media_types(operation.get("consumes")) or self._consumes
        produces = media_types(operation.get("produces")) or self._produces
        out: JsonObject = {k: operation[k] for k in _COPIED_OPERATION_FIELDS if k in operation}
        parts = dict(shared)
        if "parameters" in operation:
            out["parameters"], own = self._parameter_list(
                operation["parameters"], at.child("parameters")
            )
            parts.update(own)
        body = self.request_body(list(parts.values()), at, consumes)
        if body is not None:
            out["requestBody"] = body
        responses = operation.get("responses")
        out["responses"] = (
            self._responses(responses, at.child("responses"), produces)
            if isinstance(responses, dict)
            else responses
        )
        if "security" in operation:
            out["security"] = operation["security"]
        own_schemes = operation.get("schemes")
        if isinstance(own_schemes, list) and _http_schemes(own_schemes) != _http_schemes(
            self._source.get("schemes")
        ):
            self._info(
                "swagger-schemes-ignored",
                at.child("schemes"),
                "per-operation schemes are not supported; the API's server URL is used",
            )
        out.update(_extensions(operation))
        self._dropped(operation, _OPERATION_FIELDS, at, "operation")
        return out

    # -- parameters ----------------------------------------------------------------------------

    def _parameter_list(
        self, raw: Any, at: Location
    ) -> tuple[Any, dict[tuple[str, str], BodyPart]]:
        """Non-body parameters in 3.0 form, and the body/formData ones by (in, name)."""
        if not isinstance(raw, list):
            return raw, {}
        params: list[Any] = []
        parts: dict[tuple[str, str], BodyPart] = {}
        for index, entry in enumerate(raw):
            found = self._parameter_target(entry, at.child(index))
            if found is None:  # kept as written: parse.py reports what is wrong with it
                ref = entry.get("$ref") if isinstance(entry, dict) else None
                params.append({"$ref": self._ref(ref, at)} if isinstance(ref, str) else entry)
                continue
            value, value_at, component = found
            kind = value.get("in")
            if kind in ("body", "formData"):
                key = (str(kind), str(value.get("name")))
                parts[key] = BodyPart(str(kind), value, value_at, component)
            elif component is not None:
                params.append({"$ref": fragment_ref("components", "parameters", component)})
            else:
                params.append(self.parameter(value, value_at))
        return params, parts

    def _parameter_target(
        self, entry: Any, at: Location
    ) -> tuple[JsonObject, Location, str | None] | None:
        """The parameter object ``entry`` is or refers to, where it is, and its component name."""
        if not isinstance(entry, dict):
            return None
        if "$ref" not in entry:
            return entry, at, None
        resolved = self._resolver.deref(entry, at)
        if resolved is None or not isinstance(resolved[0], dict):
            return None
        value, target = resolved
        tokens = target.tokens
        whole = set(entry) == {"$ref"}
        if whole and target.doc == ROOT_DOC and len(tokens) == 2 and tokens[0] == "parameters":
            return value, target, tokens[1]
        return value, target, None

    def parameter(self, value: JsonObject, at: Location) -> JsonObject:
        """A query, path or header parameter in 3.0 form (its value keywords move into ``schema``)."""
        out: JsonObject = {}
        for key in ("name", "in", "description", "required", "deprecated", "allowEmptyValue"):
            if key in value:
                out[key] = value[key]
        if "schema" in value:  # an OpenAPI 3 habit in a Swagger document: honour it
            out["schema"] = self._schema(value["schema"], at.child("schema"))
        else:
            out["schema"] = self._value_schema(value, at)
        if value.get("type") == "array":
            out.update(self._style(value, at))
        out.update(_extensions(value))
        return out

    def _value_schema(self, value: JsonObject, at: Location) -> JsonObject:
        schema = self._schema(self._value_keywords(value, at), at)
        assert isinstance(schema, dict)
        return schema

    def _value_keywords(self, value: JsonObject, at: Location) -> JsonObject:
        """The schema keywords of a parameter, header or items object (recursively for items)."""
        keywords = {key: item for key, item in value.items() if key in VALUE_SCHEMA}
        items = value.get("items")
        if isinstance(items, dict):
            nested = items.get("collectionFormat", "csv")
            if nested != "csv":
                self._warn(
                    "swagger-collection-format",
                    at.child("items", "collectionFormat"),
                    f"collectionFormat '{nested}' of nested arrays cannot be described in"
                    " OpenAPI 3; the inner values are sent comma-separated",
                )
            keywords["items"] = self._value_keywords(items, at.child("items"))
        return keywords

    def _collection_format(self, value: JsonObject, at: Location, allowed: tuple[str, ...]) -> str:
        fmt = value.get("collectionFormat", "csv")
        if fmt in allowed:
            return str(fmt)
        where = value.get("in", "header")
        reason = (
            "tab-separated values cannot be described in OpenAPI 3"
            if fmt == "tsv"
            else f"it is not possible for {where} parameters in OpenAPI 3"
            if fmt in _QUERY_STYLES
            else "it is not a Swagger collection format"
        )
        self._warn(
            "swagger-collection-format",
            at.child("collectionFormat"),
            f"collectionFormat {fmt!r}: {reason}; values are sent comma-separated (csv)",
        )
        return "csv"

    def _style(self, value: JsonObject, at: Location) -> JsonObject:
        """``style``/``explode`` of an array parameter, from its ``collectionFormat`` (default csv)."""
        if value.get("in") == "query":
            style, explode = _QUERY_STYLES[self._collection_format(value, at, tuple(_QUERY_STYLES))]
            return {"style": style, "explode": explode}
        self._collection_format(value, at, ("csv",))
        return {"style": "simple", "explode": False}

    # -- request bodies ------------------------------------------------------------------------

    def request_body(
        self, parts: list[BodyPart], at: Location, consumes: list[str] | None
    ) -> JsonObject | None:
        bodies = [part for part in parts if part.kind == "body"]
        forms = [part for part in parts if part.kind == "formData"]
        if not bodies:
            return self._form(forms, consumes) if forms else None
        if len(bodies) > 1:
            self._warn(
                "swagger-body-duplicate",
                at.child("parameters"),
                "more than one body parameter; the first is used",
            )
        if forms:
            self._warn(
                "swagger-body-and-form",
                at.child("parameters"),
                "body and formData parameters cannot be combined; the formData ones are dropped",
            )
        body = bodies[0]
        if body.component is not None and consumes == self._consumes:
            return {"$ref": fragment_ref("components", "requestBodies", body.component)}
        return self._body(body.value, body.at, consumes)

    def _body(self, value: JsonObject, at: Location, consumes: list[str] | None) -> JsonObject:
        schema = self._schema(value["schema"], at.child("schema")) if "schema" in value else {}
        out: JsonObject = {}
        if "description" in value:
            out["description"] = value["description"]
        out["content"] = {media_type: {"schema": schema} for media_type in consumes or [_JSON]}
        if value.get("required") is True:
            out["required"] = True
        return out | _extensions(value)

    def _form(self, parts: list[BodyPart], consumes: list[str] | None) -> JsonObject:
        properties: JsonObject = {}
        required: list[str] = []
        encoding: JsonObject = {}
        has_file = False
        for part in parts:
            name, value = str(part.value.get("name")), part.value
            schema = self._value_schema(value, part.at)
            if "description" in value:
                schema = {**schema, "description": value["description"]}
            properties[name] = schema
            has_file = has_file or value.get("type") == "file"
            if value.get("required") is True:
                required.append(name)
            if value.get("type") == "array":
                fmt = self._collection_format(value, part.at, tuple(_QUERY_STYLES))
                style, explode = _QUERY_STYLES[fmt]
                encoding[name] = {"style": style, "explode": explode}
        schema = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        media_types = [m for m in consumes or [] if m.split(";")[0].strip() in _FORM_TYPES]
        if not media_types:
            media_types = [_FORM_TYPES[1] if has_file else _FORM_TYPES[0]]
        content: JsonObject = {}
        for media_type in media_types:
            content[media_type] = {"schema": schema}
            if encoding and media_type.startswith(_FORM_TYPES[0]):
                content[media_type]["encoding"] = encoding
        return {"content": content, "required": True} if required else {"content": content}

    # -- responses -----------------------------------------------------------------------------

    def _responses(
        self, responses: JsonObject, at: Location, produces: list[str] | None
    ) -> JsonObject:
        out: JsonObject = {}
        for code, value in responses.items():
            key = str(code)
            out[key] = (
                value
                if key.startswith("x-")
                else self._response_entry(value, at.child(key), produces)
            )
        return out

    def _response_entry(self, value: Any, at: Location, produces: list[str] | None) -> Any:
        if not (isinstance(value, dict) and "$ref" in value):
            return self._response(value, at, produces)
        resolved = self._resolver.deref(value, at)
        if resolved is None or not isinstance(resolved[0], dict):
            ref = value["$ref"]
            return {"$ref": self._ref(ref, at)} if isinstance(ref, str) else value
        target_value, target = resolved
        tokens = target.tokens
        if (
            set(value) == {"$ref"}
            and target.doc == ROOT_DOC
            and len(tokens) == 2
            and tokens[0] == "responses"
            and produces == self._produces
        ):
            return {"$ref": fragment_ref("components", "responses", tokens[1])}
        return self._response(target_value, target, produces)

    def _response(self, value: Any, at: Location, produces: list[str] | None) -> Any:
        if not isinstance(value, dict):
            return value
        out: JsonObject = {"description": value.get("description", "")}
        headers = value.get("headers")
        if isinstance(headers, dict):
            out["headers"] = {
                name: self._header(header, at.child("headers", name))
                for name, header in headers.items()
            }
        examples = value.get("examples")
        examples = examples if isinstance(examples, dict) else {}
        if "schema" in value:
            schema = self._schema(value["schema"], at.child("schema"))
            content: JsonObject = {m: {"schema": schema} for m in produces or [_JSON]}
            for media_type, example in examples.items():
                if media_type in content:
                    content[media_type] = {**content[media_type], "example": example}
            out["content"] = content
        elif produces and _succeeds(at) and any(_base_media(m) != _JSON for m in produces):
            # a success with no schema, but what it produces is said (httpbin's /image: image/webp,
            # image/png ...): the media types stay, so that the request can ask for one of them (a
            # server that chooses by Accept refuses */* with 406)
            out["content"] = {m: {} for m in produces}
        dropped = [m for m in examples if m not in out.get("content", {})]
        if dropped:
            self._info(
                "swagger-example-dropped",
                at.child("examples"),
                "examples for media types the response does not produce are dropped: "
                + ", ".join(map(str, dropped)),
            )
        return out | _extensions(value)

    def _header(self, header: Any, at: Location) -> Any:
        if not isinstance(header, dict):
            return header
        out: JsonObject = {}
        if "description" in header:
            out["description"] = header["description"]
        out["schema"] = self._value_schema(header, at)
        if header.get("type") == "array":
            self._collection_format(header, at, ("csv",))
        return out | _extensions(header)

    # -- schemas -------------------------------------------------------------------------------

    def _schema(self, value: Any, at: Location) -> Any:
        """A Swagger Schema Object in 3.0 form: references rewritten, Swagger idioms converted."""
        if not isinstance(value, dict):
            return value
        out: JsonObject = {}
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                out[key] = self._ref(item, at)
            elif key in ("properties", "patternProperties") and isinstance(item, dict):
                out[key] = {n: self._schema(s, at.child(key, n)) for n, s in item.items()}
            elif key in ("allOf", "anyOf", "oneOf", "items") and isinstance(item, list):
                out[key] = [self._schema(s, at.child(key, i)) for i, s in enumerate(item)]
            elif key in ("items", "additionalProperties", "not") and isinstance(item, dict):
                out[key] = self._schema(item, at.child(key))
            else:
                out[key] = item
        _schema_idioms(out, value)
        return out


def _succeeds(at: Location) -> bool:
    """Whether ``at`` is an operation's 2xx response (its status code is the last token)."""
    return bool(at.tokens) and str(at.tokens[-1]).upper().startswith("2")


def _base_media(media_type: str) -> str:
    return media_type.split(";", 1)[0].strip().lower()
