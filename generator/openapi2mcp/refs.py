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
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote, unquote, urldefrag, urljoin

from .diagnostics import GenerationError, Level, Report, pointer
from .load import LoadedDocument, RemoteError, parse_bytes

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
            return Location(at.doc, tokens)
        if is_url(at.doc) or _URI_SCHEME.match(file_part):
            # inside a fetched document every reference is relative to its URL
            doc = self._remote_document(urljoin(at.doc, file_part), ref, at)
        else:
            doc = self._document(unquote(file_part), ref, at)
        return None if doc is None else Location(doc, tokens)

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
