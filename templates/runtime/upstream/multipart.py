"""Splitting a ``multipart/*`` upstream body into its parts (RFC 2046 §5.1), with bounded work.

This module owns the parsing only; ``results`` decides what each part becomes. The boundary comes
from the ``Content-Type`` parameters (quoted or not, 1-70 printable characters); the preamble
before the first delimiter and the epilogue after the close delimiter are ignored; delimiter lines
may end in CRLF or a bare LF and may carry trailing whitespace, and a line that merely starts like a
delimiter is content. Part headers may be folded and their ``Content-Transfer-Encoding`` (base64,
quoted-printable) is undone. Nested multiparts are flattened, up to ``MAX_DEPTH`` levels, and of a
``multipart/alternative`` only one part is kept (plain text when offered, else the last, which RFC
2046 calls the richest). The work is bounded: bodies above ``max_bytes`` and header blocks above
``MAX_HEADER_BYTES`` are refused, parts past ``max_parts`` are counted but not kept, and a body that
ends without its close delimiter still yields the parts it has. Every problem is a
``MultipartError`` whose message is a fixed sentence, safe to show the model.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Final

from ..errors import MultipartError

__all__ = [
    "MAX_DEPTH",
    "MAX_MULTIPART_BYTES",
    "MAX_PARTS",
    "Multipart",
    "MultipartError",
    "Part",
    "media_type",
    "parse_multipart",
]

MAX_PARTS: Final = 64
MAX_MULTIPART_BYTES: Final = 16 * 1024 * 1024
MAX_HEADER_BYTES: Final = 16 * 1024
MAX_DEPTH: Final = 3
DEFAULT_PART_TYPE: Final = "text/plain"
# RFC 2046 allows 1-70 "bchars"; any printable ASCII is accepted (it is only ever compared), but
# not a trailing space, which the RFC forbids because transports strip it
_BOUNDARY: Final = re.compile(r"[\x20-\x7e]{0,69}[\x21-\x7e]")
_HEADER_LINE: Final = re.compile(rb"[!-9;-~]+:")
_TOKEN: Final = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


@dataclass(frozen=True, slots=True)
class Part:
    """One leaf part: its headers (names lower-cased, in order) and its decoded body."""

    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)

    @property
    def content_type(self) -> str:
        return self.header("content-type") or DEFAULT_PART_TYPE


@dataclass(frozen=True, slots=True)
class Multipart:
    """The leaf parts in order, how many parts were left out (over the limit) and whether the body
    ended properly with its close delimiter."""

    parts: tuple[Part, ...]
    omitted: int = 0
    complete: bool = True


def media_type(content_type: str) -> tuple[str, dict[str, str]]:
    """``("multipart/mixed", {"boundary": "x"})`` from a ``Content-Type`` value.

    Parameter names are lower-cased; quoted values are unquoted (backslash escapes undone).
    Malformed parameters are skipped rather than failing the whole header.
    """
    media, _, rest = content_type.partition(";")
    params: dict[str, str] = {}
    i, n = 0, len(rest)
    while i < n:
        semicolon = rest.find(";", i)
        equals = rest.find("=", i)
        if equals < 0 or (0 <= semicolon < equals):
            i = n if semicolon < 0 else semicolon + 1
            continue
        name = rest[i:equals].strip().lower()
        i = equals + 1
        while i < n and rest[i] in " \t":
            i += 1
        if i < n and rest[i] == '"':
            value, i = _quoted(rest, i + 1)
        else:
            end = rest.find(";", i)
            end = n if end < 0 else end
            value, i = rest[i:end].strip(), end
        if _TOKEN.fullmatch(name) and name not in params:
            params[name] = value
        semicolon = rest.find(";", i)
        i = n if semicolon < 0 else semicolon + 1
    return media.strip().lower(), params


def _quoted(text: str, i: int) -> tuple[str, int]:
    """The quoted string starting after the opening quote at ``i``; returns it and the next index."""
    out: list[str] = []
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
        elif char == '"':
            return "".join(out), i + 1
        else:
            out.append(char)
            i += 1
    return "".join(out), i  # an unterminated quote runs to the end


def parse_multipart(
    content_type: str,
    body: bytes,
    *,
    max_parts: int = MAX_PARTS,
    max_bytes: int = MAX_MULTIPART_BYTES,
) -> Multipart:
    """The leaf parts of ``body``, a ``multipart/*`` entity labelled ``content_type``."""
    if len(body) > max_bytes:
        raise MultipartError(f"the multipart body is larger than {max_bytes} bytes")
    collector = _Collector(max_parts)
    complete = collector.entity(content_type, body, depth=0)
    return Multipart(tuple(collector.parts), collector.omitted, complete)


class _Collector:
    """Walks nested multiparts, keeping at most ``max_parts`` leaves in document order."""

    def __init__(self, max_parts: int) -> None:
        self.max_parts = max_parts
        self.parts: list[Part] = []
        self.omitted = 0

    def entity(self, content_type: str, body: bytes, depth: int) -> bool:
        media, params = media_type(content_type)
        boundary = params.get("boundary")
        if not media.startswith("multipart/"):
            raise MultipartError("the body is not a multipart entity")
        if boundary is None or not _BOUNDARY.fullmatch(boundary):
            raise MultipartError("the multipart Content-Type has no usable boundary parameter")
        raw_parts, complete = _split(body, boundary.encode("ascii"))
        parts = [_part(raw) for raw in raw_parts]
        if media == "multipart/alternative" and parts:
            parts = [_preferred_alternative(parts)]
        for part in parts:
            self.add(part, depth)
        return complete

    def add(self, part: Part, depth: int) -> None:
        if len(self.parts) >= self.max_parts:
            self.omitted += 1
            return
        nested = part.content_type.lower().lstrip().startswith("multipart/")
        if nested and depth + 1 < MAX_DEPTH:
            try:
                # a nested multipart's own parts take its place; if it is broken it stays a leaf
                self.entity(part.content_type, part.body, depth + 1)
                return
            except MultipartError:
                pass
        self.parts.append(part)


def _preferred_alternative(parts: list[Part]) -> Part:
    plain = [p for p in parts if media_type(p.content_type)[0] == "text/plain"]
    return plain[0] if plain else parts[-1]


def _split(body: bytes, boundary: bytes) -> tuple[list[bytes], bool]:
    """The raw parts (headers and body) between delimiters, and whether the close delimiter came."""
    delimiter = b"--" + boundary
    found = _next_delimiter(body, delimiter, 0)
    if found is None:
        raise MultipartError("the multipart body has no part boundary")
    raw_parts: list[bytes] = []
    _, content_start, closing = found
    while not closing:
        following = _next_delimiter(body, delimiter, content_start)
        if following is None:
            raw_parts.append(body[content_start:])
            return raw_parts, False
        start, next_content, closing = following
        # the line break before a delimiter belongs to the delimiter, not to the part
        end = start
        if end > content_start and body[end - 1 : end] == b"\n":
            end -= 1
            if end > content_start and body[end - 1 : end] == b"\r":
                end -= 1
        raw_parts.append(body[content_start:end])
        content_start = next_content
    return raw_parts, True


def _next_delimiter(body: bytes, delimiter: bytes, start: int) -> tuple[int, int, bool] | None:
    """(where the delimiter starts, where the next part starts, whether it closes) from ``start``.

    A delimiter begins a line and is followed by ``--`` (close) or by optional spaces and a line
    break; anything else on the line means the text only looks like a delimiter.
    """
    position = start
    while True:
        found = body.find(delimiter, position)
        if found < 0:
            return None
        after = found + len(delimiter)
        position = after
        if found > 0 and body[found - 1 : found] != b"\n":
            continue
        if body[after : after + 2] == b"--":
            return found, len(body), True
        line_end = body.find(b"\n", after)
        rest = body[after:] if line_end < 0 else body[after:line_end]
        if not rest.rstrip(b"\r").strip(b" \t"):
            return found, len(body) if line_end < 0 else line_end + 1, False


def _part(raw: bytes) -> Part:
    head, body = _head_and_body(raw)
    headers = _headers(head)
    encoding = next((value for name, value in headers if name == "content-transfer-encoding"), "")
    return Part(headers, _decoded(body, encoding.strip().lower()))


def _head_and_body(raw: bytes) -> tuple[bytes, bytes]:
    if raw.startswith(b"\r\n"):
        return b"", raw[2:]
    if raw.startswith(b"\n"):
        return b"", raw[1:]
    window = raw[: MAX_HEADER_BYTES + 4]
    ends = [(i, len(sep)) for sep in (b"\r\n\r\n", b"\n\n") if (i := window.find(sep)) >= 0]
    if ends:
        index, length = min(ends)
        return raw[:index], raw[index + length :]
    if len(raw) > MAX_HEADER_BYTES:
        if _HEADER_LINE.match(raw):
            raise MultipartError(f"a part's headers are longer than {MAX_HEADER_BYTES} bytes")
        return b"", raw
    # no blank line: a part of header lines only has an empty body, anything else is all body
    return (raw, b"") if _HEADER_LINE.match(raw) else (b"", raw)


def _headers(head: bytes) -> tuple[tuple[str, str], ...]:
    headers: list[tuple[str, str]] = []
    for line in head.decode("utf-8", errors="replace").splitlines():
        if line[:1] in (" ", "\t") and headers:  # folded continuation of the previous header
            name, value = headers[-1]
            headers[-1] = (name, f"{value} {line.strip()}".strip())
            continue
        name, colon, value = line.partition(":")
        if colon and _TOKEN.fullmatch(name.strip()):
            headers.append((name.strip().lower(), value.strip()))
    return tuple(headers)


def _decoded(body: bytes, encoding: str) -> bytes:
    """The body with its transfer encoding undone; a body that does not decode is kept as sent."""
    try:
        if encoding == "base64":
            return base64.b64decode(b"".join(body.split()), validate=True)
        if encoding == "quoted-printable":
            return binascii.a2b_qp(body)
    except (binascii.Error, ValueError):
        return body
    return body
