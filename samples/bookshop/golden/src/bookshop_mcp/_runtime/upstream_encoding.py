"""How tool arguments are written into an HTTP request: OpenAPI parameter styles and request bodies.

Pure functions, no I/O: path, query, header and cookie values in their OpenAPI ``style``/``explode``,
and request bodies in their media type (JSON, form, multipart, text, or base64-decoded bytes). In a
multipart body the properties the catalog marks as files become file parts (``filename`` from the
property name, ``Content-Type`` from the spec's ``encoding``; base64 or text, one part per item of
a list) and other declared parts carry their own ``Content-Type``. Every
value is percent-encoded so it can never add a path segment, a query parameter or a fragment; a path
value that would still be read as ``.``/``..`` by a server that decodes before routing is refused,
and so is a header value with a line break. Refusals raise ``EncodingRefused``, whose message names
the argument and never repeats its value. ``upstream`` turns them into ``UpstreamError``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import secrets
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote, unquote, urlencode

from .catalog import BodyPart, ParameterSpec

__all__ = [
    "EncodingRefused",
    "cookie_pairs",
    "encode_body",
    "encode_path",
    "header_value",
    "query_pairs",
]

# With allowReserved these stay literal; "&", "=", "+" and "#" are always encoded because they
# would change the query's structure (or start a fragment).
_QUERY_RESERVED = ":/?[]@!$'()*,;"
_PATH_LITERAL_SAFE = "/:@!$&'()*+,;=-._~%"
_TEXT_MEDIA = re.compile(
    r"text/.*|application/(xml|yaml|x-yaml|javascript|graphql|sql)|.*\+xml", re.IGNORECASE
)
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_SEGMENT_SEPARATORS = re.compile(r"[/\\]")
# how many rounds of percent-decoding a server (or a chain of proxies) might apply
_DECODE_ROUNDS = 3


class EncodingRefused(ValueError):
    """An argument cannot be placed in the request safely; the message is safe to show."""


def scalar(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _encode_all(text: str) -> str:
    return quote(text, safe="")


def _flatten(value: Any, explode: bool, enc: Callable[[str], str]) -> list[str]:
    """Array items, or object members as ``k=v`` (explode) / ``k, v`` (no explode), encoded."""
    if isinstance(value, dict):
        pairs = [(enc(str(k)), enc(scalar(v))) for k, v in value.items() if v is not None]
        if explode:
            return [f"{k}={v}" for k, v in pairs]
        return [x for pair in pairs for x in pair]
    if isinstance(value, list | tuple):
        return [enc(scalar(v)) for v in value if v is not None]
    return [enc(scalar(value))]


def _texts(value: Any) -> list[str]:
    """Every piece of text a value contributes to the URL (keys and items included)."""
    if isinstance(value, dict):
        return [str(k) for k in value] + [scalar(v) for v in value.values() if v is not None]
    if isinstance(value, list | tuple):
        return [scalar(v) for v in value if v is not None]
    return [scalar(value)]


def _is_dot_segment(text: str) -> bool:
    """Whether ``text`` holds a ``.``/``..`` segment, now or after a server percent-decodes it.

    Encoding alone is not enough: servers and proxies that decode ``%2F`` or ``%2E`` before routing
    (and then resolve dot segments) would still let ``..%2Fadmin`` climb out of its segment.
    """
    for _ in range(_DECODE_ROUNDS + 1):
        if any(part in (".", "..") for part in _SEGMENT_SEPARATORS.split(text)):
            return True
        decoded = unquote(text)
        if decoded == text:
            return False
        text = decoded
    return True  # still changing after several rounds: nobody needs that in a path


def _path_value(spec: ParameterSpec, value: Any) -> str:
    if any(_is_dot_segment(text) for text in _texts(value)):
        raise EncodingRefused(
            f"argument {spec['argument']!r} is refused: as a path segment it would contain "
            "'.' or '..', which could reach another path of the API"
        )
    style, explode = spec["style"] or "simple", spec["explode"]
    items = _flatten(value, explode, _encode_all)
    if style == "label":
        return "." + ("." if explode else ",").join(items)
    if style == "matrix":
        name = _encode_all(spec["name"])
        if isinstance(value, dict) and explode:
            return "".join(f";{item}" for item in items)
        if isinstance(value, list | tuple) and explode:
            return "".join(f";{name}={item}" for item in items)
        joined = ",".join(items)
        return f";{name}={joined}" if joined else f";{name}"
    return ",".join(items)


def _no_dot_segments(path: str) -> str:
    # "." and ".." would be resolved away by clients, proxies and servers alike
    return "/".join(
        seg.replace(".", "%2E") if seg and set(seg) == {"."} else seg for seg in path.split("/")
    )


def encode_path(
    template: str, parameters: Mapping[str, ParameterSpec], arguments: Mapping[str, Any]
) -> str:
    """The operation's path with each ``{name}`` filled, always starting with ``/``.

    The literal text of the path is encoded too, so a spec cannot smuggle a query or a fragment,
    and the result cannot change the base URL's host (it is appended after a ``/``).
    """

    def substitute(match: re.Match[str]) -> str:
        param = parameters.get(match.group(1))
        if param is None:
            raise EncodingRefused(f"path parameter {match.group(1)!r} is not described")
        value = arguments.get(param["argument"])
        text = None if value is None else _path_value(param, value)
        if not text:
            raise EncodingRefused(f"missing required argument {param['argument']!r}")
        return text

    pieces = _PLACEHOLDER.split(template)
    for i in range(0, len(pieces), 2):
        pieces[i] = quote(pieces[i], safe=_PATH_LITERAL_SAFE)
    literal = "".join(p if i % 2 == 0 else "{" + p + "}" for i, p in enumerate(pieces))
    path = _no_dot_segments(_PLACEHOLDER.sub(substitute, literal))
    return path if path.startswith("/") else "/" + path


def query_pairs(spec: ParameterSpec, value: Any) -> list[str]:
    style, explode = spec["style"] or "form", spec["explode"]
    safe = _QUERY_RESERVED if spec.get("allowReserved") else ""

    def enc(text: str) -> str:
        return quote(text, safe=safe)

    name = quote(spec["name"], safe="[]")
    if isinstance(value, dict) and style == "deepObject":
        return _deep_object(name, value, enc)
    if isinstance(value, dict) and explode:
        return _flatten(value, True, enc)
    if isinstance(value, list | tuple) and explode:
        return [f"{name}={item}" for item in _flatten(value, True, enc)]
    separator = {"spaceDelimited": "%20", "pipeDelimited": "|"}.get(style, ",")
    return [f"{name}={separator.join(_flatten(value, False, enc))}"]


def _deep_object(name: str, value: Any, enc: Callable[[str], str]) -> list[str]:
    if isinstance(value, dict):
        out: list[str] = []
        for key, member in value.items():
            if member is not None:
                out += _deep_object(f"{name}[{quote(str(key), safe='')}]", member, enc)
        return out
    if isinstance(value, list | tuple):
        return [f"{name}={enc(scalar(v))}" for v in value if v is not None]
    return [f"{name}={enc(scalar(value))}"]


def cookie_pairs(spec: ParameterSpec, value: Any) -> list[str]:
    name = _encode_all(spec["name"])
    if isinstance(value, dict) and spec["explode"]:
        return _flatten(value, True, _encode_all)
    if isinstance(value, list | tuple) and spec["explode"]:
        return [f"{name}={item}" for item in _flatten(value, True, _encode_all)]
    return [f"{name}={','.join(_flatten(value, False, _encode_all))}"]


def header_value(spec: ParameterSpec, value: Any) -> str | bytes:
    text = ",".join(_flatten(value, spec["explode"], lambda s: s))
    if any(c in text for c in "\r\n\0"):
        raise EncodingRefused(
            f"argument {spec['argument']!r} contains a line break, which cannot be sent in the "
            f"HTTP header {spec['name']!r}"
        )
    return text if text.isascii() else text.encode("utf-8")


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def is_json(media: str) -> bool:
    return media == "application/json" or media.endswith("+json")


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


def _form_pairs(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, dict):
        return [("", scalar(value))]
    pairs: list[tuple[str, str]] = []
    for key, member in value.items():
        if member is None:
            continue
        members = member if isinstance(member, list | tuple) else [member]
        pairs += [(str(key), scalar(m)) for m in members if m is not None]
    return pairs


# file name extensions for the part types servers most often check uploads against
_EXTENSIONS = {
    "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
    "image/svg+xml": ".svg", "application/pdf": ".pdf", "application/zip": ".zip",
    "application/json": ".json", "application/xml": ".xml", "text/plain": ".txt",
    "text/csv": ".csv", "text/html": ".html", "text/markdown": ".md", "audio/mpeg": ".mp3",
    "audio/wav": ".wav", "video/mp4": ".mp4",
}  # fmt: skip
_DATA_URL_TYPE = re.compile(r"data:([\w.+-]+/[\w.+-]+)[;,]", re.ASCII)


def _quoted(text: str) -> str:
    """A ``Content-Disposition`` parameter value: quotes and line breaks percent-encoded."""
    return text.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def _file_part(key: str, member: Any, part: BodyPart) -> tuple[str, bytes]:
    """The headers (after ``Content-Disposition: form-data; name=...``) and content of a file."""
    content_type = part["contentType"] or "application/octet-stream"
    if not part["base64"]:
        data = scalar(member).encode("utf-8")
    else:
        declared = _DATA_URL_TYPE.match(member) if isinstance(member, str) else None
        if declared and content_type == "application/octet-stream":
            content_type = declared.group(1)  # the spec allows anything; the data URL says what
        data = _decode_base64(member, key)
    filename = key + _EXTENSIONS.get(media_type(content_type), "")
    return f'; filename="{_quoted(filename)}"\r\nContent-Type: {content_type}', data


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
            out.append((f"{name}\r\nContent-Type: {part['contentType']}", text.encode("utf-8")))
            continue
        for item in member if isinstance(member, list | tuple) else [member]:
            if item is None:
                continue
            if part is not None and part["file"]:
                headers, data = _file_part(str(key), item, part)
                out.append((name + headers, data))
            elif part is not None and part["contentType"]:
                headers = f"{name}\r\nContent-Type: {part['contentType']}"
                out.append((headers, scalar(item).encode("utf-8")))
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
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def encode_body(
    content_type: str,
    value: Any,
    argument: str,
    parts: Mapping[str, BodyPart] | None = None,
) -> tuple[bytes, str]:
    """The body bytes and the ``Content-Type`` to send them with (``parts``: multipart only)."""
    media = media_type(content_type)
    if is_json(media):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8"), content_type
    if media == "application/x-www-form-urlencoded":
        pairs = _form_pairs(value)
        if pairs and pairs[0][0] == "":
            return pairs[0][1].encode("utf-8"), content_type
        return urlencode(pairs).encode("ascii"), content_type
    if media == "multipart/form-data":
        return _multipart(value, parts or {})
    if _TEXT_MEDIA.fullmatch(media):
        return scalar(value).encode("utf-8"), content_type
    return _decode_base64(value, argument), content_type
