"""``$ref`` resolution: where a reference points, loading the files it names, and following chains.

This module owns :class:`Location` (a document plus JSON pointer tokens, printable as a diagnostic
pointer) and :class:`Resolver`, which turns a ``$ref`` string into a target location and follows
reference chains of non-schema objects (parameters, request bodies, responses, path items, security
schemes, examples, headers). Local pointers (``#/components/...``, with ``~0``/``~1`` and percent
escapes) and relative files (``other.yaml#/X``, ``./pet.json``) are supported; files are read once and
must stay inside the root spec's directory. ``http(s)`` URLs are refused unless the user allowed them
(``LoadedDocument.remote``); then each is fetched once, its document is keyed by its URL, and relative
references inside it resolve against that URL (never to local files). A ``transform`` given to the
resolver is applied to every document it reads (``swagger2.convert_fragment`` for a converted Swagger
root). Every failure is a warning diagnostic and a ``None`` result, never an exception. Schema
references are not inlined here: ``schemas.py`` maps them to ``#/$defs/<Name>`` with :func:`defs_ref`.

A ``$ref`` may also stand where OpenAPI allows no Reference Object (``info: {$ref: info.yaml}``,
``paths: {$ref: paths.yaml}``, a whole ``definitions`` or ``components/schemas`` map, an operation):
bundlers (redocly, swagger-cli) inline those, and so does :func:`inline_references` before anything
else reads the document. It walks the document's structure (OpenAPI 3 or Swagger 2.0, down into
schemas), inlines each such reference with the references inside the copy rebased onto their new
document, and leaves alone the references the rest of the pipeline follows itself (path items,
parameters, responses, schemas, ...) — except that it looks inside their targets in other files, so
that a ``$ref`` in any position of any file is resolved. Where content moved is recorded as a mount:
the resolver reads a reference into the original place at the new one.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote, unquote, urldefrag, urljoin

from ..diagnostics import GenerationError, Level, Report, pointer
from .reading import LoadedDocument, Mount, RemoteError, is_swagger2, parse_bytes

ROOT_DOC: Final = ""
_URI_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")
# RFC 3986 fragment characters that need no percent-encoding (besides alphanumerics)
_FRAGMENT_SAFE = "/?:@!$&'()*+,;=-._~"
# overlays a Reference Object may carry (OpenAPI 3.1); path items merge every sibling
_REF_OVERLAYS = ("summary", "description")


@dataclass(frozen=True, slots=True)
class Location:
    """A place in the spec: ``doc`` is "" for the root file, else its path relative to the root's folder."""

    doc: str
    tokens: tuple[str, ...] = ()

    def child(self, *tokens: str | int) -> Location:
        return Location(self.doc, self.tokens + tuple(str(t) for t in tokens))

    @property
    def pointer(self) -> str:
        return self.doc + pointer(*self.tokens)


ROOT = Location(ROOT_DOC)


def fragment_ref(*tokens: str) -> str:
    """The local ``$ref`` string for raw pointer ``tokens`` (RFC 6901 escaping, then URI encoding)."""
    return "#" + quote(pointer(*tokens)[1:], safe=_FRAGMENT_SAFE)


def defs_ref(name: str) -> str:
    """The ``$ref`` string for ``$defs/<name>`` (RFC 6901 escaping, then URI-fragment encoding)."""
    return fragment_ref("$defs", name)


def is_url(doc: str) -> bool:
    """Whether a document key (or a ``$ref``'s file part) is an ``http(s)`` URL."""
    return doc.startswith(("http://", "https://"))


def decode_fragment(fragment: str) -> tuple[str, ...] | None:
    """JSON pointer tokens of a URI fragment (percent-decoded first), or None if not a pointer."""
    text = unquote(fragment)
    if text == "":
        return ()
    if not text.startswith("/"):
        return None
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in text[1:].split("/"))


_MISSING: Final = object()


def walk(data: Any, tokens: tuple[str, ...]) -> Any:
    """The value at ``tokens`` inside ``data``, or ``_MISSING``."""
    node = data
    for token in tokens:
        if isinstance(node, dict):
            if token not in node:
                return _MISSING
            node = node[token]
        elif (
            isinstance(node, list)
            and token.isascii()
            and token.isdigit()
            and int(token) < len(node)
        ):
            node = node[int(token)]
        else:
            return _MISSING
    return node


class Resolver:
    """Resolves ``$ref`` strings against the root document and the files it refers to."""

    def __init__(
        self,
        root: LoadedDocument,
        report: Report,
        *,
        transform: Callable[[Any], Any] | None = None,
    ) -> None:
        self._report = report
        self._remote = root.remote
        self._transform = transform
        self._root_dir = root.base_dir.resolve() if root.base_dir is not None else None
        self._root_file = (
            (self._root_dir / root.name).resolve() if self._root_dir is not None else None
        )
        self._docs: dict[str, Any] = {ROOT_DOC: root.data}
        for key, data in root.documents.items():
            self._docs[key] = self._loaded(data)
        self._mounts = root.mounts
        self._failed: set[str] = set()
        self._seen: set[tuple[str, str, str]] = set()

    def warn(self, code: str, at: Location, message: str) -> None:
        """Report a warning once per (code, place, message), however often it is reached."""
        self._say("warning", code, at, message)

    def info(self, code: str, at: Location, message: str) -> None:
        """Report an info diagnostic once per (code, place, message)."""
        self._say("info", code, at, message)

    def _say(self, level: Level, code: str, at: Location, message: str) -> None:
        key = (code, at.pointer, message)
        if key not in self._seen:
            self._seen.add(key)
            self._report.add(code, level, at.pointer, message)

    def lookup(self, loc: Location) -> tuple[bool, Any]:
        """Whether ``loc`` exists, and its value."""
        value = walk(self._docs.get(loc.doc), loc.tokens)
        return (value is not _MISSING, None if value is _MISSING else value)

    def target(self, ref: Any, at: Location) -> Location | None:
        """Where the ``$ref`` value ``ref`` (found in the object at ``at``) points, or None."""
        if not isinstance(ref, str):
            self.warn("ref-invalid", at, "$ref must be a string")
            return None
        file_part, _, fragment = ref.partition("#")
        tokens = decode_fragment(fragment)
        if tokens is None:
            self.warn("ref-invalid", at, f"$ref '{ref}' has a fragment that is not a JSON pointer")
            return None
        if not file_part:
            return self.mounted(Location(at.doc, tokens))
        if is_url(at.doc) or _URI_SCHEME.match(file_part):
            # inside a fetched document every reference is relative to its URL
            doc = self._remote_document(urljoin(at.doc, file_part), ref, at)
        else:
            doc = self._document(unquote(file_part), ref, at)
        return None if doc is None else self.mounted(Location(doc, tokens))

    def mounted(self, loc: Location) -> Location:
        """Where the content at ``loc`` lives now (it moves when a ``$ref`` to it was inlined)."""
        for _ in range(len(self._mounts)):
            for source, tokens, dest, dest_tokens in self._mounts:
                if loc.doc == source and loc.tokens[: len(tokens)] == tokens:
                    loc = Location(dest, dest_tokens + loc.tokens[len(tokens) :])
                    break
            else:
                break
        return loc

    def documents(self) -> dict[str, Any]:
        """The other documents read so far, by key (as loaded, or as :meth:`store` left them)."""
        return {key: data for key, data in self._docs.items() if key != ROOT_DOC}

    def store(self, doc: str, data: Any) -> None:
        """Replace the loaded content of the document ``doc``."""
        self._docs[doc] = data

    @property
    def root_name(self) -> str:
        """The root file's name (``openapi.yaml``), "" for stdin."""
        return self._root_file.name if self._root_file is not None else ""

    def _remote_document(self, url: str, ref: str, at: Location) -> str | None:
        """Fetch (once) and parse the document at ``url``; its doc key (the URL without fragment)."""
        if not is_url(url):
            self.warn(
                "ref-remote", at, f"$ref '{ref}' is a URL; only http and https can be fetched"
            )
            return None
        if self._remote is None:
            self.warn(
                "ref-remote",
                at,
                f"$ref '{ref}' is a URL; remote references are fetched only with"
                " --allow-remote-refs",
            )
            return None
        key = urldefrag(url).url
        if key in self._docs:
            return key
        if key in self._failed:
            return None
        try:
            raw = self._remote.fetch(key)
            data = parse_bytes(raw, key)
        except RemoteError as exc:
            self._failed.add(key)
            self.warn("ref-fetch-failed", at, f"$ref '{ref}': {exc}")
            return None
        except GenerationError as exc:
            self._failed.add(key)
            self.warn("ref-file-invalid", at, f"$ref '{ref}': {exc.diagnostic.message}")
            return None
        self._docs[key] = self._loaded(data)
        return key

    def _loaded(self, data: Any) -> Any:
        return data if self._transform is None else self._transform(data)

    def _document(self, relative: str, ref: str, at: Location) -> str | None:
        """Load (once) the file ``relative`` names from the document of ``at``; its doc key."""
        if self._root_dir is None or self._root_file is None:
            self.warn(
                "ref-unresolved",
                at,
                f"$ref '{ref}' names a file, but the spec was read from stdin",
            )
            return None
        referrer_dir = self._root_dir / Path(at.doc).parent if at.doc else self._root_dir
        try:
            path = (referrer_dir / relative).resolve()
        except (OSError, ValueError):  # e.g. a NUL byte, a symlink loop
            self.warn("ref-invalid", at, f"$ref '{ref}' does not name a usable file")
            return None
        if path == self._root_file:
            return ROOT_DOC
        if not path.is_relative_to(self._root_dir):
            self.warn(
                "ref-escape",
                at,
                f"$ref '{ref}' leaves the spec's folder; only files inside it are read",
            )
            return None
        key = path.relative_to(self._root_dir).as_posix()
        if key in self._docs:
            return key
        if key in self._failed:
            return None
        try:
            raw = path.read_bytes()
        except OSError as exc:
            self._failed.add(key)
            reason = exc.strerror or type(exc).__name__
            self.warn("ref-file-invalid", at, f"$ref '{ref}': cannot read {key}: {reason}")
            return None
        try:
            self._docs[key] = self._loaded(parse_bytes(raw, key))
        except GenerationError as exc:
            self._failed.add(key)
            self.warn("ref-file-invalid", at, f"$ref '{ref}': {exc.diagnostic.message}")
            return None
        return key

    def deref(
        self, value: Any, at: Location, *, merge_siblings: bool = False
    ) -> tuple[Any, Location] | None:
        """Follow a chain of ``$ref`` for a non-schema object; the final value and its location.

        Siblings of ``$ref`` that a Reference Object may override (``summary``, ``description``) are
        laid over the target; with ``merge_siblings`` (path items) every sibling is.
        """
        overlays: dict[str, Any] = {}
        visited: set[Location] = {at}
        while isinstance(value, dict) and "$ref" in value:
            ref = value["$ref"]
            for key, item in value.items():
                if key != "$ref" and (merge_siblings or key in _REF_OVERLAYS):
                    overlays.setdefault(key, item)
            target = self.target(ref, at)
            if target is None:
                return None
            if target in visited:
                self.warn("ref-cycle", at, f"$ref '{ref}' closes a cycle of references")
                return None
            visited.add(target)
            found, value = self.lookup(target)
            if not found:
                self.warn("ref-missing", at, f"$ref '{ref}' points to nothing")
                return None
            at = target
        if overlays and isinstance(value, dict):
            value = {**value, **overlays}
        return value, at


# -- $ref in any position (see the module docstring) ---------------------------------------------

# what each kind of object holds: field -> the kind of its value. "map:K" is a map of K by name,
# "list:K" a list of K; "object" is inlined when it is a reference but not looked into; fields not
# named here (examples, extensions, values) are data and never touched
_METHODS3: Final = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_SCHEMA_KINDS: Final = {
    **dict.fromkeys(("properties", "patternProperties", "$defs", "definitions"), "map:schema"),
    "dependentSchemas": "map:schema",
    **dict.fromkeys(("allOf", "anyOf", "oneOf", "prefixItems"), "list:schema"),
    **dict.fromkeys(
        (
            "items",
            "additionalItems",
            "additionalProperties",
            "unevaluatedItems",
            "unevaluatedProperties",
            "contains",
            "propertyNames",
            "not",
            "if",
            "then",
            "else",
            "contentSchema",
        ),
        "schema",
    ),
}
_OPENAPI3: Final[Mapping[str, Mapping[str, str]]] = {
    "root": {
        "info": "info",
        "servers": "list:server",
        "paths": "paths",
        "webhooks": "map:pathItem",
        "components": "components",
        "security": "list:object",
        "tags": "list:tag",
        "externalDocs": "object",
    },
    "info": {"contact": "object", "license": "object"},
    "server": {"variables": "map:object"},
    "tag": {"externalDocs": "object"},
    "pathItem": {
        **dict.fromkeys(_METHODS3, "operation"),
        "parameters": "list:parameter",
        "servers": "list:server",
    },
    "operation": {
        "parameters": "list:parameter",
        "requestBody": "requestBody",
        "responses": "responses",
        "callbacks": "map:callback",
        "security": "list:object",
        "servers": "list:server",
        "externalDocs": "object",
    },
    "response": {"headers": "map:header", "content": "map:mediaType", "links": "map:link"},
    "mediaType": {"schema": "schema", "examples": "map:example", "encoding": "map:encoding"},
    "encoding": {"headers": "map:header"},
    "header": {"schema": "schema", "content": "map:mediaType", "examples": "map:example"},
    "parameter": {"schema": "schema", "content": "map:mediaType", "examples": "map:example"},
    "requestBody": {"content": "map:mediaType"},
    "components": {
        "schemas": "map:schema",
        "responses": "map:response",
        "parameters": "map:parameter",
        "examples": "map:example",
        "requestBodies": "map:requestBody",
        "headers": "map:header",
        "securitySchemes": "map:securityScheme",
        "links": "map:link",
        "callbacks": "map:callback",
        "pathItems": "map:pathItem",
    },
    "securityScheme": {"flows": "object"},
    "example": {},
    "link": {},
    "schema": _SCHEMA_KINDS,
}
_SWAGGER2: Final[Mapping[str, Mapping[str, str]]] = {
    "root": {
        "info": "info",
        "paths": "paths",
        "definitions": "map:schema",
        "parameters": "map:parameter",
        "responses": "map:response",
        "securityDefinitions": "map:object",
        "security": "list:object",
        "tags": "list:tag",
        "externalDocs": "object",
    },
    "info": {"contact": "object", "license": "object"},
    "tag": {"externalDocs": "object"},
    "pathItem": {
        **dict.fromkeys(_METHODS3[:-1], "operation"),
        "parameters": "list:parameter",
    },
    "operation": {
        "parameters": "list:parameter",
        "responses": "responses",
        "security": "list:object",
        "externalDocs": "object",
    },
    "response": {"schema": "schema", "headers": "map:object"},
    "parameter": {"schema": "schema", "items": "schema"},
    "schema": _SCHEMA_KINDS,
}
# maps by name whose `x-` keys are extensions, not names; they hold the named kind
_KIND_MAPS: Final = {"paths": "pathItem", "responses": "response", "callback": "pathItem"}
# where the rest of the pipeline follows a $ref itself (parse.py, operations.py, swagger2.py)
_FOLLOWED: Final = {
    "openapi": frozenset(
        {
            "pathItem",
            "parameter",
            "requestBody",
            "response",
            "header",
            "example",
            "link",
            "callback",
            "securityScheme",
            "schema",
        }
    ),
    "swagger": frozenset({"pathItem", "parameter", "response", "schema"}),
}
# values that are data, not objects of the document: never rebased
_DATA: Final = frozenset({"example", "default", "enum", "const"})
# maps whose keys are names (a property may be called "default"): every member is rebased
_NAME_MAPS: Final = frozenset(
    {
        *("properties", "patternProperties", "$defs", "definitions", "dependentSchemas"),
        *("schemas", "parameters", "responses", "headers", "requestBodies", "securitySchemes"),
        *("examples", "links", "callbacks", "pathItems", "content", "encoding", "paths"),
        *("webhooks", "variables"),
    }
)


def inline_references(doc: LoadedDocument, report: Report) -> LoadedDocument:
    """``doc`` with every ``$ref`` that stands where the pipeline does not follow one inlined."""
    dialect = "swagger" if is_swagger2(doc.data) else "openapi"
    bundler = _Bundler(doc, report, _SWAGGER2 if dialect == "swagger" else _OPENAPI3, dialect)
    data = bundler.walk(doc.data, ROOT, "root", ())
    if data is doc.data and not bundler.touched:
        return doc
    return replace(
        doc,
        data=data,
        documents={**doc.documents, **bundler.resolver.documents()},
        mounts=(*doc.mounts, *bundler.mounts),
    )


class _Bundler:
    def __init__(
        self,
        doc: LoadedDocument,
        report: Report,
        grammar: Mapping[str, Mapping[str, str]],
        dialect: str,
    ) -> None:
        self._report = report
        # failures are reported only for references inlined here; the ones the pipeline follows
        # are reported (once) when it does
        self._quiet = Report()
        self.resolver = Resolver(doc, self._quiet)
        self._grammar = grammar
        self._followed = _FOLLOWED[dialect]
        self._visited: set[tuple[Location, str]] = set()
        self.mounts: list[Mount] = []
        self.touched = False  # whether another document was changed

    def walk(self, node: Any, at: Location, kind: str, chain: tuple[Location, ...]) -> Any:
        """``node`` (at ``at``, an object of ``kind``) with its structural references inlined."""
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            if kind in self._followed:
                self._follow(node["$ref"], at, kind)
                return node
            inlined = self._inline(node, at, chain)
            if inlined is None:
                return node
            node, source = inlined
            chain = (*chain, at, source)
        if kind == "object":
            return node
        if kind.startswith(("list:", "map:")):
            return self._members(node, at, kind.split(":", 1)[1], chain)
        if kind in _KIND_MAPS:
            return self._named(node, at, _KIND_MAPS[kind], chain)
        fields = self._grammar.get(kind, {})
        if not isinstance(node, dict) or not fields:
            return node
        out: dict[str, Any] | None = None
        for key, value in node.items():
            child = fields.get(key)
            if child is None or not isinstance(value, dict | list):
                continue
            new = self.walk(value, at.child(key), child, chain)
            if new is not value:
                out = dict(node) if out is None else out
                out[key] = new
        return node if out is None else out

    def _members(self, node: Any, at: Location, kind: str, chain: tuple[Location, ...]) -> Any:
        """Every item of a list, or every member of a map by name, as an object of ``kind``."""
        if isinstance(node, list):
            items = [self.walk(v, at.child(i), kind, chain) for i, v in enumerate(node)]
            return items if any(a is not b for a, b in zip(items, node, strict=True)) else node
        return self._named(node, at, kind, chain, extensions=False)

    def _named(
        self,
        node: Any,
        at: Location,
        kind: str,
        chain: tuple[Location, ...],
        *,
        extensions: bool = True,
    ) -> Any:
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] | None = None
        for key, value in node.items():
            if extensions and str(key).startswith("x-"):
                continue
            new = self.walk(value, at.child(key), kind, chain)
            if new is not value:
                out = dict(node) if out is None else out
                out[key] = new
        return node if out is None else out

    def _inline(
        self, node: dict[str, Any], at: Location, chain: tuple[Location, ...]
    ) -> tuple[Any, Location] | None:
        """The content ``node`` refers to, rebased to ``at``'s document, and where it was; None
        when it cannot be used."""
        before = len(self._quiet.diagnostics)
        resolved = self.resolver.deref(node, at, merge_siblings=True)
        if resolved is None:
            self._report.diagnostics.extend(self._quiet.diagnostics[before:])
            return None
        value, source = resolved
        if source in chain or source == at:
            self.resolver.warn(
                "ref-cycle", at, f"$ref '{node['$ref']}' closes a cycle of references"
            )
            self._report.diagnostics.extend(self._quiet.diagnostics[before:])
            return None
        if source.doc != at.doc:
            value = _Rebase(source.doc, at.doc, self.resolver.root_name).value(value)
        if isinstance(value, dict | list):
            self.mounts.append((source.doc, source.tokens, at.doc, at.tokens))
        return value, source

    def _follow(self, ref: str, at: Location, kind: str) -> None:
        """Inline the structural references inside the target of a reference the pipeline follows,
        when that target is in another document (its own document is walked already)."""
        target = self.resolver.target(ref, at)
        if target is None or target.doc == at.doc or (target, kind) in self._visited:
            return
        self._visited.add((target, kind))
        found, value = self.resolver.lookup(target)
        if not found or not isinstance(value, dict | list):
            return
        new = self.walk(value, target, kind, ())
        if new is not value:
            _, whole = self.resolver.lookup(Location(target.doc))
            self.resolver.store(target.doc, _replaced(whole, target.tokens, new))
            self.touched = True


def _replaced(data: Any, tokens: tuple[str, ...], value: Any) -> Any:
    """``data`` with the value at ``tokens`` replaced, copying only the containers on the way."""
    if not tokens:
        return value
    head, rest = tokens[0], tokens[1:]
    if isinstance(data, dict):
        return {**data, head: _replaced(data[head], rest, value)}
    copy = list(data)
    copy[int(head)] = _replaced(copy[int(head)], rest, value)
    return copy


class _Rebase:
    """Rewrites the ``$ref``s of content moved from document ``source`` into document ``dest``."""

    def __init__(self, source: str, dest: str, root_name: str) -> None:
        self._source = source
        self._dest = dest
        self._root_name = root_name

    def value(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self.value(item) for item in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, item in node.items():
            if key == "$ref" and isinstance(item, str):
                out[key] = self.ref(item)
            elif key in _NAME_MAPS and isinstance(item, dict) and not _is_ref(item):
                out[key] = {name: self.value(member) for name, member in item.items()}
            elif key in _DATA or str(key).startswith("x-"):
                out[key] = item
            elif key == "examples" and isinstance(item, list):
                out[key] = item  # a schema's examples are values
            else:
                out[key] = self.value(item)
        return out

    def ref(self, ref: str) -> str:
        file_part, hashed, fragment = ref.partition("#")
        tail = f"#{fragment}" if hashed else ""
        if is_url(self._source) or _URI_SCHEME.match(file_part):
            # an absolute URL means the same everywhere; a relative one inside a fetched document
            # is made absolute
            return urljoin(self._source, file_part) + tail if is_url(self._source) else ref
        target = self._source
        if file_part:
            base = posixpath.dirname(self._source)
            target = posixpath.normpath(posixpath.join(base, unquote(file_part)))
            target = ROOT_DOC if target == self._root_name else target
        if target == self._dest:
            return tail or "#"
        if is_url(self._dest):
            return ref  # a local file is never read from a fetched document
        path = posixpath.relpath(target or self._root_name, posixpath.dirname(self._dest) or ".")
        return quote(path, safe="/:@!$&'()*+,;=-._~") + tail


def _is_ref(node: dict[str, Any]) -> bool:
    return isinstance(node.get("$ref"), str)
