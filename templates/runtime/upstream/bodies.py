"""Request bodies as the API's media type wants them: JSON, form, multipart, text or bytes.

Pure functions, no I/O. The catalog's content type is always concrete (the generator resolves media
ranges). JSON bodies keep every ``null`` the arguments hold. Form bodies (``application/x-www-form-
urlencoded``) follow each field's Encoding Object: its ``style``, ``explode`` and ``allowReserved``
(OpenAPI's defaults when absent: form style, exploded, so an array repeats its name and an object
spreads its keys), or its ``contentType`` (a JSON field is sent as JSON text); deepObject fields
nest (``metadata[order]=42``, arrays as ``upstream.deepObjectArrays`` says); spaces are written
``+``. A form or multipart field set to ``null`` is left out: forms cannot say null. Multipart
bodies: file parts (``filename`` from a data URL's ``name=``, a relative folder path kept, or the
property name with the extension of the file's type, which a data URL says or the first bytes do;
base64 or text, one part per item of a list), parts with their own ``Content-Type`` (JSON for
objects, unless the generator said otherwise) and fixed part headers. Text bodies are sent as
UTF-8; any other (binary) body is the base64 the tool schema asks for, decoded, and when the spec
declared a range such as ``image/*`` its type is sniffed from its first bytes
(``application/octet-stream`` when unknown). Refusals raise ``EncodingRefused``.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote

from ..catalog.model import BodyPart
from .encoding import (
    INDEXED,
    EncodingRefused,
    is_json,
    media_text,
    media_type,
    scalar,
    style_pairs,
)

__all__ = ["encode_body"]

FORM = "application/x-www-form-urlencoded"
_MULTIPART = "multipart/form-data"
_OCTETS = "application/octet-stream"
_TEXT_MEDIA = re.compile(
    r"text/.*|application/(xml|yaml|x-yaml|javascript|graphql|sql)|.*\+xml", re.IGNORECASE
)
# With allowReserved these stay literal; "&", "=", "+" and "#" always change a form's structure.
_FORM_RESERVED = ":/?[]@!$'()*,;"
# file name extensions for the part types servers most often check uploads against
# how much of a file tells whether it is text
_TEXT_SNIFF = 4096
_EXTENSIONS = {
    "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
    "image/svg+xml": ".svg", "application/pdf": ".pdf", "application/zip": ".zip",
    "application/json": ".json", "application/xml": ".xml", "text/plain": ".txt",
    "text/csv": ".csv", "text/html": ".html", "text/markdown": ".md", "audio/mpeg": ".mp3",
    "audio/wav": ".wav", "video/mp4": ".mp4",
}  # fmt: skip
# the first bytes of the binary types an API behind a media range most often takes
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"), (b"GIF89a", "image/gif"), (b"%PDF-", "application/pdf"),
    (b"PK\x03\x04", "application/zip"), (b"ID3", "audio/mpeg"), (b"OggS", "audio/ogg"),
    (b"fLaC", "audio/flac"), (b"\x1f\x8b", "application/gzip"),
)  # fmt: skip
# a data URL's media type and parameters (RFC 2397; `name=` gives a file's name, as form libraries
# such as react-jsonschema-form write it): data:application/pdf;name=report.pdf;base64,...
_DATA_URL = re.compile(r"data:([\w.+-]+/[\w.+-]+)?((?:;[^;,]*)*),", re.ASCII)


def encode_body(
    content_type: str,
    value: Any,
    argument: str,
    parts: Mapping[str, BodyPart] | None = None,
    *,
    declared: str = "",
    arrays: str = INDEXED,
    as_text: bool = False,
) -> tuple[bytes, str]:
    """The body bytes and the ``Content-Type`` to send them with.

    ``parts``: the encoding of form and multipart fields; ``declared``: the media range the spec
    declared, if any; ``arrays``: how arrays inside deepObject fields are written; ``as_text``: a
    string body of another media type that is sent as given (not base64 to decode).
    """
    media = media_type(content_type)
    if is_json(media):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8"), content_type
    if media == FORM:
        if not isinstance(value, dict):
            # a form body that is a string is the form itself, already encoded: sent as given,
            # only what a form cannot carry as such (spaces, non-ASCII) encoded
            return _form_text(scalar(value), _FORM_RESERVED + "%&=+~").encode("ascii"), content_type
        return _form(value, parts or {}, arrays).encode("ascii"), content_type
    if media == _MULTIPART:
        return _multipart(value, parts or {})
    if _TEXT_MEDIA.fullmatch(media) or as_text:
        return scalar(value).encode("utf-8"), content_type
    data = _decode_base64(value, argument)
    return data, _sniffed(data, declared) if declared else content_type


# -- forms ----------------------------------------------------------------------------------------


def _form_text(text: str, safe: str) -> str:
    """Percent-encoding for form bodies: reserved characters encoded, spaces as ``+``."""
    return quote(text, safe=safe + " ").replace(" ", "+")


def _form(value: Mapping[str, Any], parts: Mapping[str, BodyPart], arrays: str) -> str:
    pairs: list[str] = []
    for key, member in value.items():
        if member is None:
            continue
        part = parts.get(str(key))
        safe = _FORM_RESERVED if part is not None and part.get("allowReserved") else ""
        name = _form_text(str(key), "[]")
        style = part.get("style", "") if part is not None else ""
        media = part["contentType"] if part is not None else ""
        if media and not style:
            pairs.append(f"{name}={_form_text(media_text(member, media), safe)}")
            continue
        explode = part.get("explode") if part is not None else None
        style = style or "form"
        exploded = explode if explode is not None else style == "form"
        enc = functools.partial(_form_text, safe=safe)
        pairs += style_pairs(name, member, style, exploded, enc, arrays)
    return "&".join(pairs)


# -- multipart ------------------------------------------------------------------------------------


def _quoted(text: str) -> str:
    """A ``Content-Disposition`` parameter value: quotes and line breaks percent-encoded."""
    return text.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def _part_headers(part: BodyPart, content_type: str) -> str:
    """``\\r\\nContent-Type: ...`` and the part's fixed headers."""
    lines = f"\r\nContent-Type: {content_type}" if content_type else ""
    for name, header in part.get("headers", {}).items():
        if any(c in name + header for c in "\r\n\0"):
            raise EncodingRefused(f"a header of the part {name!r} has a line break")
        lines += f"\r\n{name}: {header}"
    return lines


def _file_part(key: str, member: Any, part: BodyPart) -> tuple[str, bytes]:
    """The headers (after ``Content-Disposition: form-data; name=...``) and content of a file."""
    content_type = part["contentType"] or _OCTETS
    if not part["base64"]:
        data = scalar(member).encode("utf-8")
    else:
        declared = _DATA_URL.match(member) if isinstance(member, str) else None
        if declared and declared.group(1) and content_type == _OCTETS:
            content_type = declared.group(1)  # the spec allows anything; the data URL says what
        named = _data_url_name(declared.group(2)) if declared else ""
        data = _decode_base64(member, key)
        if content_type == _OCTETS:
            # bare base64 of a PNG goes as image/png, named file.png: an upload filter that checks
            # the part's type (multer's, an avatar's) refuses application/octet-stream
            content_type = _sniffed(data, "*/*")
        if named:
            return f'; filename="{_quoted(named)}"' + _part_headers(part, content_type), data
    filename = key + _EXTENSIONS.get(media_type(content_type), "")
    return f'; filename="{_quoted(filename)}"' + _part_headers(part, content_type), data


def _data_url_name(parameters: str) -> str:
    """The file name a data URL's ``;name=`` parameter gives, percent-decoded; ``""`` when it gives
    none. A folder path in front is kept as a relative one, as a browser sends a folder's files
    (Open WebUI's skill import reads ``limerick/SKILL.md``), without what would climb out of it
    or start at a root (``..``, ``.``, empty segments, a drive)."""
    for parameter in parameters.split(";"):
        key, _, value = parameter.partition("=")
        if key.strip().lower() == "name" and value:
            segments = unquote(value.strip()).replace("\\", "/").split("/")
            kept = [s for s in segments if s not in ("", ".", "..") and not s.endswith(":")]
            return "/".join(kept) if kept and segments[-1] == kept[-1] else ""
    return ""


def _multipart_parts(value: Any, parts: Mapping[str, BodyPart]) -> list[tuple[str, bytes]]:
    """Each part's headers after its name and its content, in the order of ``value``."""
    if not isinstance(value, dict):
        return [('; name=""', scalar(value).encode("utf-8"))]
    out: list[tuple[str, bytes]] = []
    for key, member in value.items():
        part = parts.get(str(key))
        name = f'; name="{_quoted(str(key))}"'
        if member is None:
            continue
        if part is not None and any(c in part["contentType"] for c in "\r\n\0"):
            raise EncodingRefused(f"the media type of the part {str(key)!r} has a line break")
        if part is not None and not part["file"] and is_json(media_type(part["contentType"])):
            text = json.dumps(member, separators=(",", ":"), ensure_ascii=False)
            out.append((name + _part_headers(part, part["contentType"]), text.encode("utf-8")))
            continue
        for item in member if isinstance(member, list | tuple) else [member]:
            if item is None:
                continue
            if part is not None and part["file"]:
                headers, data = _file_part(str(key), item, part)
                out.append((name + headers, data))
            elif part is not None:
                headers = _part_headers(part, part["contentType"])
                out.append((name + headers, scalar(item).encode("utf-8")))
            else:
                out.append((name, scalar(item).encode("utf-8")))
    return out


def _multipart(value: Any, parts: Mapping[str, BodyPart]) -> tuple[bytes, str]:
    fields = _multipart_parts(value, parts)
    boundary = secrets.token_hex(16)
    while any(boundary.encode() in data for _, data in fields):
        boundary = secrets.token_hex(16)  # a file may hold anything, even a boundary
    chunks = [
        f"--{boundary}\r\nContent-Disposition: form-data{headers}\r\n\r\n".encode() + data + b"\r\n"
        for headers, data in fields
    ]
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"{_MULTIPART}; boundary={boundary}"


# -- bytes ----------------------------------------------------------------------------------------


def _decode_base64(value: Any, argument: str) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if not isinstance(value, str):
        raise EncodingRefused(f"argument {argument!r} must be a base64 string")
    text = re.sub(r"\s+", "", value.split(",", 1)[1] if value.startswith("data:") else value)
    try:
        if "-" in text or "_" in text:
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise EncodingRefused(f"argument {argument!r} is not valid base64") from None


def _sniffed(data: bytes, declared: str) -> str:
    """A concrete type for ``data`` sent where the spec declared the range ``declared``."""
    kind = media_type(declared).split("/", 1)[0]
    for signature, found in _SIGNATURES:
        if data.startswith(signature) and kind in ("*", found.split("/", 1)[0]):
            return found
    if data[:4] == b"RIFF" and data[8:12] in (b"WAVE", b"WEBP"):
        found = "audio/wav" if data[8:12] == b"WAVE" else "image/webp"
        if kind in ("*", found.split("/", 1)[0]):
            return found
    found = _text_kind(data)
    if found and kind in ("*", found.split("/", 1)[0]):
        return found
    return _OCTETS


# a character no text file holds (NUL, the C0 controls but tab, line feed, form feed, return)
_NOT_TEXT = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _text_kind(data: bytes) -> str:
    """``text/csv``, ``application/json`` or ``text/plain`` for bytes that are UTF-8 text of that
    kind, ``""`` for any other: an upload filter that checks a file's extension refuses a text file
    named without one (Evidently's dataset upload: "Extension not allowed")."""
    start = data[:_TEXT_SNIFF]
    try:
        text = start.decode("utf-8")
    except UnicodeDecodeError as cut:
        if len(data) <= _TEXT_SNIFF or cut.start < len(start) - 3:  # not a character cut short
            return ""
        text = start[: cut.start].decode("utf-8")
    if not text.strip() or _NOT_TEXT.search(text):
        return ""
    if text.lstrip()[:1] in ("{", "["):
        try:
            json.loads(data)
            return "application/json"
        except ValueError:
            pass
    # whole lines only (the sniff may cut the last), at most twenty
    lines = text.splitlines()[: -1 if len(data) > _TEXT_SNIFF else None][:20]
    commas = {line.count(",") for line in lines if line.strip()}
    if len(lines) >= 2 and len(commas) == 1 and commas != {0}:
        return "text/csv"
    return "text/plain"


def gives_file(value: Any, parts: Mapping[str, BodyPart]) -> bool:
    """Whether a body ``value`` has a file for one of its file ``parts``."""
    if not isinstance(value, dict):
        return False
    return any(
        part["file"] and value.get(name) not in (None, "", []) for name, part in parts.items()
    )
