"""What kind of body an answer is, from its media type (sniffed when it has none): JSON, JSON Lines,
text, an image a client shows, audio, multipart or other bytes. Stdlib only.

An image is one a client shows only in the formats models read (PNG, JPEG, GIF, WebP; TiTiler's
``image/jpg`` is JPEG): a TIFF or a JPEG 2000 sent as an image block is refused by the model API
it is passed to, so such bytes go as a blob, as any other binary answer does.
"""

from __future__ import annotations

import json
import mimetypes
import re
from typing import Final

__all__ = ["EVENTS", "HTML", "body_kind", "charset", "image_type", "media", "named_media"]

# JSON Lines / NDJSON / JSON text sequences: one JSON value per line
_JSON_LINES: Final = frozenset(
    {
        "application/x-ndjson",
        "application/ndjson",
        "application/jsonl",
        "application/x-jsonlines",
        "application/jsonlines",
        "application/json-lines",
        "application/json-seq",
        "application/stream+json",
        "application/x-json-stream",
    }
)
# documents of a type of their own that are text
_DOCUMENT_TYPES: Final = frozenset(
    {"application/vnd.oai.openapi", "application/toml", "application/x-sh", "application/csv"}
)
_TEXTUAL_APPLICATION: Final = frozenset(
    {
        "application/xml",
        "application/yaml",
        "application/x-yaml",
        "application/javascript",
        "application/x-javascript",  # Netdata's JSONP
        "application/ecmascript",
        "application/x-ecmascript",
        "application/graphql",
        "application/sql",
        "application/x-www-form-urlencoded",
        "application/csv",
    }
)
# the images models read, by the names their APIs take
_SHOWN_IMAGES: Final = {
    "image/png": "image/png",
    "image/jpeg": "image/jpeg",
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "image/gif": "image/gif",
    "image/webp": "image/webp",
}
HTML: Final = frozenset({"text/html", "application/xhtml+xml"})
EVENTS: Final = "text/event-stream"


def media(content_type: str) -> str:
    """A Content-Type's media type, in lower case, without its parameters."""
    return content_type.split(";", 1)[0].strip().lower()


def charset(content_type: str) -> str:
    for param in content_type.split(";")[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            return value.strip().strip('"') or "utf-8"
    return "utf-8"


def image_type(media_type: str) -> str:
    """The name an image block gives ``media_type`` (``image/jpg`` is ``image/jpeg``)."""
    return _SHOWN_IMAGES.get(media_type, media_type)


def body_kind(media_type: str, body: bytes) -> str:
    """json, ndjson, text, image, audio, multipart or binary; a missing content type is sniffed."""
    if media_type in _JSON_LINES:
        return "ndjson"
    if media_type == "application/json" or media_type.endswith("+json"):
        return "json"
    if (
        media_type.startswith("text/")
        or media_type in _TEXTUAL_APPLICATION
        or media_type.endswith("+xml")
    ):
        return "text"
    if media_type.endswith(("+yaml", "yaml", "openapi")) or media_type in _DOCUMENT_TYPES:
        # a document in a type of its own (NetBox's schema as application/vnd.oai.openapi, 6.8
        # MB of YAML, came as base64 past the result budget)
        return "text"
    if media_type.startswith("image/"):
        return "image" if media_type in _SHOWN_IMAGES else "binary"
    if media_type.startswith("audio/"):
        return "audio"
    if media_type.startswith("multipart/"):
        return "multipart"
    if media_type:
        return "binary"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "binary"
    try:
        json.loads(text)
    except ValueError:
        return "text"
    return "json"


# labels that say only "bytes": a download's file name may say more
_UNLABELLED: Final = frozenset(
    {
        "application/octet-stream",
        "binary/octet-stream",
        "application/x-download",
        "application/force-download",
    }
)
_FILENAME: Final = re.compile(r"filename\*?\s*=\s*(?:[\w-]+'[^']*')?\"?([^\";]+)", re.IGNORECASE)


def named_media(media_type: str, disposition: str, body: bytes) -> str:
    """``media_type``, or the type the file name of a download labelled only as bytes says, when
    that is text and its bytes are (Evidently's dataset as CSV: ``application/octet-stream``,
    ``filename=….csv``, which had come as a base64 blob)."""
    found = _FILENAME.search(disposition) if media_type in _UNLABELLED else None
    guessed = (mimetypes.guess_type(found[1].strip())[0] or "").lower() if found else ""
    if not guessed or body_kind(guessed, b"") not in ("json", "ndjson", "text"):
        return media_type
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return media_type
    return guessed
