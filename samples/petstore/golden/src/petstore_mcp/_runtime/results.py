"""From an upstream response to what MCP returns: a ``CallToolResult`` or resource contents.

Results are built in the modern (2026-07-28) shape, ``resultType`` included; the protocol layer
reshapes them for legacy revisions. A 2xx JSON body becomes one text block with compact JSON plus
``structuredContent`` when it conforms to the tool's output schema (a body that does not conform is
reported as an error, with the data kept in the text); text, images, audio and other binary bodies
map to their content block types; a non-2xx status becomes ``isError`` with a bounded excerpt of the
body, credential-looking fields masked (``redaction.scrub_credentials``) and the upstream's
``Retry-After`` quoted. A body that breaks its promise (``application/json`` that does not parse, or
anything but JSON where an output schema promises JSON) is ``isError`` too, with an excerpt. Text
handed to the model is bounded, and says when it was cut. Upstream text is only ever data here: it
fills content blocks and error excerpts, never the server's own instructions or prompts.
"""

from __future__ import annotations

import base64
import contextlib
import json
from typing import Any

from .jsonschema import Validator
from .redaction import scrub_credentials
from .upstream import UpstreamError, UpstreamResponse

__all__ = [
    "MAX_ERROR_EXCERPT",
    "MAX_TEXT_CHARS",
    "UpstreamStatusError",
    "resource_contents",
    "tool_error",
    "tool_result",
]

MAX_TEXT_CHARS = 1024 * 1024
MAX_ERROR_EXCERPT = 2000
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


class UpstreamStatusError(UpstreamError):
    """The upstream answered with a non-2xx status (raised when reading a resource)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def tool_error(message: str) -> dict[str, Any]:
    """A tool execution error the model can read and act on."""
    return {"resultType": "complete", "isError": True, "content": [_text(message)]}


def tool_result(response: UpstreamResponse, output: Validator | None) -> dict[str, Any]:
    """Map one upstream response to a modern ``CallToolResult``."""
    if not 200 <= response.status < 300:
        return tool_error(_status_message(response))
    media = _media(response.content_type)
    body = response.body
    if not body:
        return _complete([_text(f"HTTP {response.status} {response.reason}".rstrip())])
    kind = _kind(media, body)
    if kind == "json":
        return _json_result(response, output)
    if output is not None:
        # the output schema promises JSON: anything else (an HTML error page, say) breaks it
        message = (
            f"The upstream answered {response.status} with {media or 'an unlabelled body'}, "
            "although the API documents JSON."
        )
        return _error_with_excerpt(message, response, kind)
    if kind == "text":
        return _complete([_text(_bounded(_decode(response)))])
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
    try:
        return response.body.decode(_charset(response.content_type), errors="replace")
    except LookupError:  # an unknown charset name
        return response.body.decode("utf-8", errors="replace")


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


def _bounded(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return (
        text[:limit] + f"\n[truncated: the response has {len(text)} characters; "
        f"only the first {limit} are shown]"
    )


def _json_result(response: UpstreamResponse, output: Validator | None) -> dict[str, Any]:
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
            return _complete([_text(_bounded(text))])
        else:
            message = "The upstream response is not valid JSON, although the API documents JSON."
        return {**tool_error(message), "content": [_text(message), _text(_bounded(text))]}
    compact = _bounded(_compact(value))
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
