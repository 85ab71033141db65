"""From an upstream response to what MCP returns: a ``CallToolResult`` or resource contents.

Results are built in the modern (2026-07-28) shape, ``resultType`` included; the protocol layer
reshapes them for legacy revisions. A 2xx JSON body becomes one text block with compact JSON plus
``structuredContent`` when it conforms to the tool's output schema (a body that does not conform is
reported as an error, with the data kept in the text); text, images, audio and other binary bodies
map to their content block types, and a ``multipart/*`` body (``multipart.parse_multipart``) to one
block per part: text parts as text, images and audio as such, JSON and other parts as embedded
resources named by their ``Content-Location``, ``Content-ID`` or position. A non-2xx status becomes
``isError`` with a bounded excerpt of the body, credential-looking fields masked
(``redaction.scrub_credentials``) and the upstream's ``Retry-After`` quoted. A body that breaks its
promise (``application/json`` that does not parse, or anything but JSON where an output schema
promises JSON) is ``isError`` too, with an excerpt. Text handed to the model is bounded (one budget
for all the text of a result, ``ResultLimits``: ``<PREFIX>_MAX_RESULT_CHARS``, which each server passes
down to its tool calls) and says what was cut and how to raise the limit.
Upstream text is only ever data here: it fills content blocks and error excerpts, never the
server's own instructions or prompts.
"""

from __future__ import annotations

import base64
import contextlib
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from .jsonschema import Validator
from .multipart import MultipartError, Part, parse_multipart
from .redaction import scrub_credentials
from .upstream import UpstreamError, UpstreamResponse

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_ERROR_EXCERPT",
    "MAX_TEXT_CHARS",
    "MIN_TEXT_CHARS",
    "ResultLimits",
    "UpstreamStatusError",
    "resource_contents",
    "tool_error",
    "tool_result",
]

MAX_TEXT_CHARS = 1024 * 1024
MIN_TEXT_CHARS = 100
MAX_ERROR_EXCERPT = 2000
# a part's Content-Location longer than this is not used as its URI
_MAX_PART_URI = 2048
_TEXTUAL_APPLICATION = frozenset(
    {
        "application/xml",
        "application/yaml",
        "application/x-yaml",
        "application/javascript",
        "application/ecmascript",
        "application/graphql",
        "application/sql",
        "application/x-www-form-urlencoded",
        "application/csv",
    }
)


@dataclass(frozen=True, slots=True)
class ResultLimits:
    """How much text one result may hand the model, and the setting that raises it."""

    max_text_chars: int = MAX_TEXT_CHARS
    # named in the truncation notice, e.g. "PETSTORE_MAX_RESULT_CHARS"
    setting: str = "MCP_MAX_RESULT_CHARS"


DEFAULT_LIMITS = ResultLimits()


class UpstreamStatusError(UpstreamError):
    """The upstream answered with a non-2xx status (raised when reading a resource)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def tool_error(message: str) -> dict[str, Any]:
    """A tool execution error the model can read and act on."""
    return {"resultType": "complete", "isError": True, "content": [_text(message)]}


def tool_result(
    response: UpstreamResponse, output: Validator | None, limits: ResultLimits | None = None
) -> dict[str, Any]:
    """Map one upstream response to a modern ``CallToolResult``."""
    if not 200 <= response.status < 300:
        return tool_error(_status_message(response))
    budget = _TextBudget(limits or DEFAULT_LIMITS)
    media = _media(response.content_type)
    body = response.body
    if not body:
        return _complete([_text(f"HTTP {response.status} {response.reason}".rstrip())])
    kind = _kind(media, body)
    if kind == "json":
        return _json_result(response, output, budget)
    if output is not None:
        # the output schema promises JSON: anything else (an HTML error page, say) breaks it
        message = (
            f"The upstream answered {response.status} with {media or 'an unlabelled body'}, "
            "although the API documents JSON."
        )
        return _error_with_excerpt(message, response, kind)
    if kind == "text":
        return _complete([_text(budget.take(_decode(response)))])
    if kind == "multipart":
        return _complete(_multipart_blocks(response, budget))
    data = base64.b64encode(body).decode("ascii")
    if kind in ("image", "audio"):
        return _complete([{"type": kind, "data": data, "mimeType": media}])
    mime = media or "application/octet-stream"
    resource = {"uri": response.url, "mimeType": mime, "blob": data}
    return _complete([{"type": "resource", "resource": resource}])


def resource_contents(
    response: UpstreamResponse, uri: str, mime_type: str | None
) -> list[dict[str, Any]]:
    """``resources/read`` contents for ``uri``; a non-2xx status raises ``UpstreamStatusError``."""
    if not 200 <= response.status < 300:
        raise UpstreamStatusError(response.status, _status_message(response))
    media = _media(response.content_type)
    kind = _kind(media, response.body) if response.body else "text"
    if kind in ("json", "text"):
        mime = media or mime_type or ("application/json" if kind == "json" else "text/plain")
        return [{"uri": uri, "mimeType": mime, "text": _decode(response)}]
    mime = media or mime_type or "application/octet-stream"
    blob = base64.b64encode(response.body).decode("ascii")
    return [{"uri": uri, "mimeType": mime, "blob": blob}]


def _complete(content: list[dict[str, Any]]) -> dict[str, Any]:
    return {"resultType": "complete", "content": content}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _media(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def _charset(content_type: str) -> str:
    for param in content_type.split(";")[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            return value.strip().strip('"') or "utf-8"
    return "utf-8"


def _decode(response: UpstreamResponse) -> str:
    return _decode_bytes(response.body, response.content_type)


def _decode_bytes(body: bytes, content_type: str) -> str:
    try:
        return body.decode(_charset(content_type), errors="replace")
    except LookupError:  # an unknown charset name
        return body.decode("utf-8", errors="replace")


def _kind(media: str, body: bytes) -> str:
    """json, text, image, audio or binary; a missing content type is sniffed."""
    if media == "application/json" or media.endswith("+json"):
        return "json"
    if media.startswith("text/") or media in _TEXTUAL_APPLICATION or media.endswith("+xml"):
        return "text"
    if media.startswith("image/"):
        return "image"
    if media.startswith("audio/"):
        return "audio"
    if media.startswith("multipart/"):
        return "multipart"
    if media:
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


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class _TextBudget:
    """The characters of text a result may still hand the model; text beyond them is cut."""

    __slots__ = ("_left", "_limits")

    def __init__(self, limits: ResultLimits) -> None:
        self._limits = limits
        self._left = limits.max_text_chars

    def take(self, text: str) -> str:
        if len(text) <= self._left:
            self._left -= len(text)
            return text
        shown, self._left = self._left, 0
        limit = self._limits.max_text_chars
        return (
            text[:shown] + f"\n[truncated: {len(text) - shown} of {len(text)} characters cut; "
            f"this server returns at most {limit} characters of text per result "
            f"(its operator can raise that with {self._limits.setting})]"
        )


def _json_result(
    response: UpstreamResponse, output: Validator | None, budget: _TextBudget
) -> dict[str, Any]:
    text = _decode(response)
    try:
        value = json.loads(text)
    except ValueError:
        if output is None and _media(response.content_type):
            message = (
                "The upstream response is not valid JSON, although its Content-Type is "
                f"{_media(response.content_type)}."
            )
        elif output is None:
            return _complete([_text(budget.take(text))])
        else:
            message = "The upstream response is not valid JSON, although the API documents JSON."
        return {**tool_error(message), "content": [_text(message), _text(budget.take(text))]}
    compact = budget.take(_compact(value))
    if output is None:
        return _complete([_text(compact)])
    issues = output.issues(value, limit=5)
    if not issues:
        return {**_complete([_text(compact)]), "structuredContent": value}
    lines = [f"- {issue.path or '(root)'}: {issue.message}" for issue in issues]
    message = "The upstream response did not match the documented output schema:\n" + "\n".join(
        lines
    )
    return {**tool_error(message), "content": [_text(message), _text(compact)]}


# -- multipart ----------------------------------------------------------------------------------


def _multipart_blocks(response: UpstreamResponse, budget: _TextBudget) -> list[dict[str, Any]]:
    """One content block per part; a body that cannot be split stays one embedded resource."""
    media = _media(response.content_type)
    try:
        multipart = parse_multipart(response.content_type, response.body)
    except MultipartError as exc:
        whole = {
            "uri": response.url,
            "mimeType": media,
            "blob": base64.b64encode(response.body).decode("ascii"),
        }
        note = f"The {media} response could not be split into parts ({exc}); it follows whole."
        return [_text(note), {"type": "resource", "resource": whole}]
    blocks = [
        _part_block(part, index, response.url, budget)
        for index, part in enumerate(multipart.parts, start=1)
        if part.body
    ]
    if multipart.omitted:
        blocks.append(
            _text(
                f"[{multipart.omitted} more parts of the {media} response are not shown: "
                f"at most {len(multipart.parts)} parts are returned]"
            )
        )
    if not multipart.complete:
        blocks.append(_text(f"[the {media} response ended before its closing boundary]"))
    return blocks or [_text(f"HTTP {response.status} {response.reason} (no parts)")]


def _part_block(part: Part, index: int, url: str, budget: _TextBudget) -> dict[str, Any]:
    media = _media(part.content_type)
    kind = _kind(media, part.body)
    if kind == "text":
        return _text(budget.take(_decode_bytes(part.body, part.content_type)))
    if kind in ("image", "audio"):
        return {
            "type": kind,
            "data": base64.b64encode(part.body).decode("ascii"),
            "mimeType": media,
        }
    resource: dict[str, Any] = {"uri": _part_uri(part, index, url), "mimeType": media}
    if kind == "json":
        resource["text"] = budget.take(_decode_bytes(part.body, part.content_type))
    else:
        resource["mimeType"] = media or "application/octet-stream"
        resource["blob"] = base64.b64encode(part.body).decode("ascii")
    return {"type": "resource", "resource": resource}


def _part_uri(part: Part, index: int, url: str) -> str:
    """The part's ``Content-Location`` (resolved against the request URL), else a ``cid:`` URI
    (RFC 2392) from its ``Content-ID``, else the request URL with a ``#part-N`` fragment."""
    location = (part.header("content-location") or "").strip()
    if location and len(location) <= _MAX_PART_URI and _printable(location):
        resolved = urljoin(url, location) if url else location
        if urlsplit(resolved).scheme:
            return resolved
    content_id = (part.header("content-id") or "").strip().removeprefix("<").removesuffix(">")
    if content_id and len(content_id) <= _MAX_PART_URI and _printable(content_id):
        return "cid:" + quote(content_id, safe="@.!$&'*+-=^_`{|}~")
    return f"{url.split('#', 1)[0]}#part-{index}"


def _printable(text: str) -> bool:
    return all("!" <= char <= "~" for char in text)


def _error_with_excerpt(message: str, response: UpstreamResponse, kind: str) -> dict[str, Any]:
    if kind == "text":
        excerpt = _excerpt(scrub_credentials(_decode(response).strip()))
    else:
        excerpt = f"({len(response.body)} bytes of binary data)"
    return {**tool_error(message), "content": [_text(message), _text(excerpt)]}


def _excerpt(text: str) -> str:
    if len(text) > MAX_ERROR_EXCERPT:
        return text[:MAX_ERROR_EXCERPT] + f"… [{len(text) - MAX_ERROR_EXCERPT} more characters]"
    return text


def _status_message(response: UpstreamResponse) -> str:
    head = f"Upstream returned {response.status} {response.reason}".rstrip()
    if response.retry_after is not None and response.status in (429, 503):
        head += f" (it asks to retry after {response.retry_after:g} s)"
    if not response.body:
        return head
    media = _media(response.content_type)
    kind = _kind(media, response.body)
    if kind not in ("json", "text"):
        return f"{head}: ({len(response.body)} bytes of {media or 'binary data'})"
    text = _decode(response).strip()
    if kind == "json":
        with contextlib.suppress(ValueError):
            text = _compact(json.loads(text))
    return f"{head}: {_excerpt(scrub_credentials(text))}"
