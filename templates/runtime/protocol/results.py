"""From an upstream response to what MCP returns: a ``CallToolResult`` or resource contents.

Results are built in the modern (2026-07-28) shape, ``resultType`` included; the protocol layer
reshapes them for legacy revisions. What the API answered is what the caller gets: a 2xx is always
a successful result, and so is a 304 to a conditional request ("not modified"). A JSON body becomes
one text block with compact JSON plus ``structuredContent`` when the tool advertises an output
schema; a body that breaks that schema is still delivered whole in the text, and the structured
content is made to conform (``structured.conform``: what does not match is set to null), with a note
saying the call succeeded, and, for a write, that the change was made and must not be repeated.
A body that is not what its content type says (an HTML page labelled JSON, NDJSON labelled JSON) is
delivered as it is: JSON Lines (``application/x-ndjson``, ``application/jsonl``, or one JSON value per
line under a JSON type) as an array, other text as text, anything else as a blob; a body in a content
coding this server cannot undo comes as a blob naming the coding. Text, images (those models
read: ``body_kinds``), audio and other binary bodies map to their content block types; a format the
operation documents beside its JSON (an image asked for with ``f=png``) is no mismatch; a ``multipart/*`` body
(``multipart.parse_multipart``) to one block per part: text parts as text, images and audio as such,
JSON and other parts as embedded resources named by their ``Content-Location``, ``Content-ID`` or
position. A redirect that was not followed is an error naming its ``Location``. A non-2xx status
becomes ``isError`` with a bounded excerpt of the body, credential-looking fields masked
(``redaction.scrub_credentials``), the upstream's ``Retry-After`` quoted, and for 401/403 what to set
to send credentials. One budget bounds everything a result hands the model, text and structured
content together (``ResultLimits``: ``<PREFIX>_MAX_RESULT_CHARS``): a JSON value is cut to its leading
items and properties (``structured.shrink``), and the result says what was cut, how to raise the
limit and, when the operation has them, which pagination arguments fetch the rest. A call that
carried a selection (``projection.Selection``, the ``_select`` argument of read tools) gets only what
the selection picked from the parsed JSON body, as text and as structured content (``projection``
says how the output schema admits it), and the budget then bounds that; a selection that cannot be
applied leaves the answer whole with a note naming why (the call went through: no error), and a
body that is not JSON comes as it is with a note saying the selection was not applied.
Upstream text is only ever data here: it fills content blocks and error excerpts, never the
server's own instructions or prompts.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from ..catalog.model import documented_redirect
from ..errors import UpstreamStatusError
from ..jsonschema import Validator
from ..upstream.client import MAX_RESPONSE_BYTES, UpstreamResponse
from ..upstream.encoding import is_json, media_type
from ..upstream.multipart import MultipartError, Part, parse_multipart
from ..upstream.redaction import scrub_credentials
from .body_kinds import EVENTS as _EVENTS
from .body_kinds import HTML as _HTML
from .body_kinds import body_kind as _kind
from .body_kinds import charset as _charset
from .body_kinds import image_type, named_media
from .body_kinds import media as _media
from .html_text import page_text
from .paging import paging_advice
from .projection import Selection, SelectionError, as_structured, nothing_selected
from .structured import MISSING, Conformed, compact, conform, describe_issues, shrink

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_ERROR_EXCERPT",
    "MAX_TEXT_CHARS",
    "MIN_TEXT_CHARS",
    "ResultLimits",
    "TextBudget",
    "UpstreamStatusError",
    "resource_contents",
    "tool_error",
    "tool_result",
]

MAX_TEXT_CHARS = 1024 * 1024
MIN_TEXT_CHARS = 100
MAX_ERROR_EXCERPT = 2000
NOT_MODIFIED = 304
_AUTH_STATUSES = frozenset({401, 403})
# room first kept in the budget for the note about a cut result (then adjusted to its length)
_NOTICE_ROOM = 300
# methods that change nothing: their results never warn against repeating them
_READS = frozenset({"GET", "HEAD", "OPTIONS"})
# a part's Content-Location longer than this is not used as its URI
_MAX_PART_URI = 2048


@dataclass(frozen=True, slots=True)
class ResultLimits:
    """How much text one result may hand the model, and the setting that raises it."""

    max_text_chars: int = MAX_TEXT_CHARS
    # named in the truncation notice, e.g. "PETSTORE_MAX_RESULT_CHARS"
    setting: str = "MCP_MAX_RESULT_CHARS"


DEFAULT_LIMITS = ResultLimits()


def tool_error(message: str) -> dict[str, Any]:
    """A tool execution error the model can read and act on."""
    return {"resultType": "complete", "isError": True, "content": [_text(message)]}


def tool_result(
    response: UpstreamResponse,
    output: Validator | None,
    limits: ResultLimits | None = None,
    *,
    paging: tuple[str, ...] = (),
    select: Selection | None = None,
    redirects: Sequence[str] = (),
    reads: bool | None = None,
    documented: str = "",
    offered: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """Map one upstream response to a modern ``CallToolResult``.

    ``output`` checks the documented output schema (``None``: the tool advertises none); ``paging``
    names the operation's pagination arguments, for the note on a result cut to the budget;
    ``select`` is the call's selection, applied to a JSON body; ``redirects`` are the redirects the
    operation documents as its answers (``"302"``, ``"3XX"``): one that was not followed is the
    result, not a failure; ``reads`` says the operation changes nothing (a search by POST), which
    its method says when it is not given; ``documented`` is the media type the operation
    documents for its answer (a web page where it is JSON is said to be one), ``offered`` every
    media type its success answers document (one of them that is not JSON is no mismatch).
    """
    if reads is None:
        reads = response.method.upper() in _READS
    status = response.status
    limits = limits or DEFAULT_LIMITS
    if status == NOT_MODIFIED:
        text = (
            f"HTTP 304 {response.reason or 'Not Modified'}: the resource has not changed since the "
            "version the request named (its ETag or date); the copy you have is current."
        )
        return _without_data(response, output, [_text(text)])
    if documented_redirect(status, redirects):
        return _without_data(response, output, [_text(_documented_redirect(response, reads))])
    if response.status in range(300, 400) and response.location:
        return tool_error(_redirect_message(response))
    if not 200 <= status < 300:
        return tool_error(_status_message(response))
    documented_json = is_json(media_type(documented))
    result = _Success(
        response, output, limits, paging, select, reads, documented_json, offered
    ).result()
    # what the body does not say: how to page on (a Link, a total), a file's name (text says
    # what it is itself)
    textual = _kind(_media(response.content_type), response.body) in _TEXTUAL
    told = [
        f"{name}: {value}"
        for name, value in response.headers
        if not (textual and name == "content-disposition")
    ]
    if told:
        result["content"].append(_text(f"[response headers] {'; '.join(told)}"))
    return result


_TEXTUAL = frozenset({"json", "ndjson", "text", "multipart"})


class _Success:
    """The result of one 2xx response (see the module docstring)."""

    def __init__(
        self,
        response: UpstreamResponse,
        output: Validator | None,
        limits: ResultLimits,
        paging: tuple[str, ...],
        select: Selection | None = None,
        reads: bool = False,
        documented_json: bool = False,
        offered: frozenset[str] = frozenset(),
    ) -> None:
        self.response = response
        self.reads = reads
        self.output = output
        self.limits = limits
        self.paging = paging
        self.select = select
        disposition = next((v for n, v in response.headers if n == "content-disposition"), "")
        self.media = named_media(_media(response.content_type), disposition, response.body)
        # the operation documents a JSON answer (its output schema may still be none)
        self.documented_json = documented_json
        # the media types its success answers document: an image asked for is one of them
        self.offered = offered

    def result(self) -> dict[str, Any]:
        response = self.response
        if response.encoding:
            note = (
                f"{self._succeeded()} The body is encoded as {response.encoding}, which this "
                "server cannot decode; it follows as it came."
            )
            content = [_text(note), self._blob(), *self._unselected("it is not decoded")]
            return _without_data(response, self.output, content)
        if response.cut_after is not None or response.cut_short:
            return self._stream()
        if not response.body:
            content = [_text(self._status_line()), *self._unselected("there is no body")]
            return _without_data(response, self.output, content)
        kind = _kind(self.media, response.body)
        if kind in ("json", "ndjson"):
            value = _parse_json(_decode(response), lines=kind == "ndjson")
            if value is not MISSING:
                return self._json(value)
            kind = "text" if _is_text(response.body) else "binary"
        if self.output is not None and kind == "text":
            text = _decode(response)
            if self.output.is_valid(text) and 2 * len(text) <= self.limits.max_text_chars:
                # a documented string that came as text (a zone file, a CSV, a bare word): the
                # text is the value the schema describes, whatever its label
                result = _complete([_text(text), *self._unselected()])
                result["structuredContent"] = text
                return result
        page = kind == "text" and (self.media in _HTML or _is_html(response.body))
        if self.output is not None or (self.documented_json and page):
            # a page where JSON is documented (Open WebUI's application answers a path the API
            # does not serve: a file name with a "/", decoded)
            return self._not_json(kind)
        budget = TextBudget(self.limits)
        if kind == "multipart":
            return _complete([*_multipart_blocks(response, budget), *self._unselected()])
        shown = [self._as_is(kind, budget)]
        if kind in ("text", "json", "ndjson"):
            shown += _undecoded(response.body, response.content_type)
        return _complete([*shown, *self._unselected()])

    def _not_json(self, kind: str) -> dict[str, Any]:
        """What came where the output schema promises JSON: delivered, the call said to have
        gone through."""
        response, budget = self.response, TextBudget(self.limits)
        if self.media in self.offered and _kind(self.media, b"") not in ("json", "ndjson"):
            # a format the operation documents beside its JSON, asked for (TiTiler's colour map
            # as a PNG with f=png, its tile matrix sets as a page with f=html): no mismatch
            said = (
                f"The API answered with {self.media}, a format this operation documents beside JSON"
            )
            if self.media in _HTML and kind == "text":
                shown = _text(budget.take(f"(an HTML page) {page_text(_decode(response))}"))
                said += "; the page's text follows."
            else:
                shown = self._as_is(kind, budget)
                said += "; it follows."
            content = [_text(f"{self._succeeded()} {said}"), shown, *self._unselected()]
            return _without_data(response, self.output, content)
        path = urlsplit(response.url).path
        repeated = _repeated_prefix(path) if self.media in _HTML else ""
        if repeated:
            # the base URL's mount said again (Phoenix's /v1/v1/projects): the web application
            # answers every address its API does not serve with its page, and no call was made
            return tool_error(
                f"The API answered with a web page ({self._status_line()}), not this operation's"
                f" answer: the request went to {path}, which says {repeated} twice. The base URL"
                f" may end with the {repeated} every path of the API starts with; set it without."
            )
        labelled = self.media in _HTML and kind == "text"
        if labelled or _is_html(response.body):
            # a web page in the API's place (Phoenix's web application answers an id with a
            # "/" in it, decoded into another path), or labelled JSON (Evidently's 3.9 MB report
            # download, which had come whole as text): its title and text, not its markup
            promised = "its output schema describes" if self.output else "this operation documents"
            said = (
                f"The API answered with a web page, not the JSON {promised} (a sign-in page, or "
                "a web application's page for an address its API does not serve); its text "
                "follows."
                if labelled
                else f"The API's answer is a web page (HTML), though its Content-Type says "
                f"{self.media}; its text follows."
            )
            shown = _text(budget.take(f"(an HTML page) {page_text(_decode(response))}"))
        else:
            if self.media and _kind(self.media, b"") in ("json", "ndjson"):
                said = f"The API's answer is not the JSON its Content-Type ({self.media}) says"
            elif self.media == _EVENTS:
                # an answer the operation offers beside its JSON (Langflow's workflow run, asked
                # to stream): its events, no mismatch
                said = "The API answered with its events (text/event-stream), not one JSON value"
            else:
                # another format the API offers too (a CSV asked for) or an error page
                what = self.media or "an unlabelled body"
                said = f"The API answered with {what}, not the JSON its output schema describes"
            said += "; the body follows as it came."
            shown = self._as_is(kind, budget)
        content = [_text(f"{self._succeeded()} {said}"), shown, *self._unselected()]
        return _without_data(response, self.output, content)

    def _stream(self) -> dict[str, Any]:
        """A body still arriving when the time was up (a stream: events, a watch, a log being
        followed), or larger than this server reads: what had arrived, as text."""
        response = self.response
        arrived = f"{len(response.body)} bytes" if response.body else "nothing yet"
        if response.cut_after is None:
            note = (
                f"{self._succeeded()} The API's {self.media or 'response'} answer is larger "
                f"than the {MAX_RESPONSE_BYTES // (1024 * 1024)} MiB this server reads; this is "
                f"its start ({arrived})."
            )
        else:
            note = (
                f"{self._succeeded()} The API was still sending its {self.media or 'response'} "
                f"after {response.cut_after:g} s, as a stream does; this is what had arrived by "
                f"then ({arrived})."
            )
        content = [_text(note)]
        if response.body:
            kind = _kind(self.media, response.body)
            shown = "text" if kind in ("json", "ndjson") else kind
            content.append(self._as_is(shown, TextBudget(self.limits)))
        unselected = self._unselected("the body was cut short")
        return _without_data(response, self.output, [*content, *unselected])

    def _unselected(self, why: str = "") -> list[dict[str, Any]]:
        """The note that the call's selection was not applied to a body that is not JSON."""
        if self.select is None:
            return []
        why = why or f"the API answered with {self.media or 'an unlabelled body'}, not JSON"
        return [_text(f"[{self.select.argument} was not applied: {why}.]")]

    def _as_is(self, kind: str, budget: TextBudget) -> dict[str, Any]:
        """The body as one content block of its kind."""
        response = self.response
        if kind in ("text", "json", "ndjson"):
            return _text(budget.take(_decode(response)))
        if kind in ("image", "audio"):
            too_large = self._too_large()
            if too_large is not None:
                return too_large
            data = base64.b64encode(response.body).decode("ascii")
            mime = image_type(self.media) if kind == "image" else self.media
            return {"type": kind, "data": data, "mimeType": mime}
        return self._blob()

    def _too_large(self) -> dict[str, Any] | None:
        """What is said in place of bytes whose base64 is over the result budget (Open WebUI's
        whole SQLite database, 972,120 characters where 1,500 were allowed), else ``None``."""
        size = len(self.response.body)
        chars = 4 * ((size + 2) // 3)
        limit = self.limits.max_text_chars
        if chars <= limit:
            return None
        what = self.media or "unlabelled bytes"
        return _text(
            f"[not shown: the answer is {size} bytes of {what}, {chars} characters as base64, more "
            f"than the {limit} characters per result this server hands over (its operator can "
            f"raise that with {self.limits.setting})]"
        )

    def _blob(self) -> dict[str, Any]:
        too_large = self._too_large()
        if too_large is not None:
            return too_large
        response = self.response
        resource = {
            "uri": response.url,
            "mimeType": self.media or "application/octet-stream",
            "blob": base64.b64encode(response.body).decode("ascii"),
        }
        return {"type": "resource", "resource": resource}

    def _status_line(self) -> str:
        response = self.response
        line = f"HTTP {response.status} {response.reason}".rstrip()
        if response.location:
            line += f"; Location: {response.location}"
        return line

    def _succeeded(self) -> str:
        """Says the call went through; for a write, that it must not be repeated."""
        if self.reads:
            return f"The call succeeded ({self._status_line()})."
        return (
            f"The call succeeded ({self._status_line()}): the change was made, so do not repeat it."
        )

    def _json(self, value: Any, notes: list[str] | None = None) -> dict[str, Any]:
        if self.select is not None and notes is None:
            return self._selected(value, self.select)
        notes = notes or []
        structured = MISSING
        if self.output is not None:
            conformed = conform(value, self.output)
            structured = conformed.value
            if conformed.issues:
                notes.append(self._drift_note(conformed))
        return self._fitted(value, structured, notes)

    def _selected(self, value: Any, select: Selection) -> dict[str, Any]:
        """What ``select`` picks from ``value``, as the text and the structured content."""
        try:
            picked = select.apply(value)
        except SelectionError as exc:
            # the call went through: its answer, whole, and why the selection is not applied
            said = (
                f"[{select.argument} could not be applied: {exc}. The whole response is shown;"
                " call again with another expression for less.]"
            )
            return self._json(value, [said])
        empty = picked is None or (picked == [] and bool(value))
        notes = [nothing_selected(value, picked, select.expression)] if empty else []
        structured = MISSING
        if self.output is not None:
            schema = self.output.schema
            object_root = isinstance(schema, dict) and schema.get("type") == "object"
            structured = as_structured(picked, object_root)
        return self._fitted(picked, structured, notes)

    def _fitted(self, value: Any, structured: Any, notes: list[str]) -> dict[str, Any]:
        """The result of ``value`` (the text) and ``structured`` within the budget."""
        copies = 2 if structured is not MISSING else 1
        total = self.limits.max_text_chars
        size = len(compact(value))
        if size * copies + sum(map(len, notes)) <= total:
            return self._json_result(value, structured, notes)
        # the text and the structured content share the budget with the notes
        room = (total - sum(map(len, notes)) - _NOTICE_ROOM) // copies
        for _ in range(4):
            shown, cuts = shrink(value, max(room, 2))
            cut_note = self._cut_note(cuts, size) if cuts else ""
            used = len(compact(shown)) * copies + sum(map(len, notes)) + len(cut_note)
            if used <= total or room <= 2:
                break
            room -= (used - total) // copies + 1
        if structured is not MISSING:
            structured, _ = shrink(structured, max(room, 2))
            # a selection's structured content is any object or value: it still conforms
            recheck = self.output if self.select is None else None
            if recheck is not None and not recheck.is_valid(structured):
                structured = conform(structured, recheck).value
        return self._json_result(shown, structured, [*notes, cut_note] if cut_note else notes)

    def _json_result(self, shown: Any, structured: Any, notes: list[str]) -> dict[str, Any]:
        result = _complete([_text(compact(shown)), *(_text(note) for note in notes)])
        if self.output is not None and structured is not MISSING:
            result["structuredContent"] = structured
        return result

    def _drift_note(self, conformed: Conformed) -> str:
        kept = {
            "nulled": "sets what does not match to null",
            "emptied": "is left empty",
        }.get(conformed.how, "")
        structured = f"the structured content {kept}"
        if conformed.value is None:
            structured = "the structured content is null"
        elif conformed.value is MISSING:
            structured = "there is no structured content"
        return "\n".join(
            [
                f"{self._succeeded()} Its response does not match the documented schema:",
                *describe_issues(conformed.issues),
                f"The text above is the response as received; {structured}.",
            ]
        )

    def _cut_note(self, cuts: list[str], size: int) -> str:
        shown = "; ".join(cuts[:3]) + ("; …" if len(cuts) > 3 else "")
        rest = paging_advice(self.paging)
        what = "response"
        if self.select is not None:
            what = "selection"
            rest += f" A narrower {self.select.argument} returns less."
        return (
            f"[cut to fit: the {what} has {size} characters; shown: {shown}. This server returns "
            f"at most {self.limits.max_text_chars} characters per result (its operator can raise "
            f"that with {self.limits.setting}).{rest}]"
        )


def _without_data(
    response: UpstreamResponse, output: Validator | None, content: list[dict[str, Any]]
) -> dict[str, Any]:
    """A successful result whose body carries no data for the output schema: an empty value that
    conforms to it stands in (``structured.conform`` of null)."""
    result = _complete(content)
    if output is not None:
        empty = conform(None, output).value
        if empty is not MISSING:
            result["structuredContent"] = empty
    return result


def _parse_json(text: str, *, lines: bool) -> Any:
    """The JSON value of ``text``; JSON Lines (one value per line) become an array."""
    if not lines:
        try:
            return json.loads(text)
        except ValueError:
            pass
    rows = [line for line in text.replace("\x1e", "\n").splitlines() if line.strip()]
    if not rows or (not lines and len(rows) < 2):
        return MISSING
    try:
        return [json.loads(row) for row in rows]
    except ValueError:
        return MISSING


def _is_text(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _documented_redirect(response: UpstreamResponse, reads: bool) -> str:
    """A redirect the operation documents as its answer (a download link, a short URL, the page
    a form posts to), as the result it is."""
    line = f"HTTP {response.status} {response.reason}".rstrip()
    where = f" to {response.location}" if response.location else ", without a Location"
    why = f"; it was not followed: {response.not_followed}" if response.not_followed else ""
    done = "" if reads else " The change was made: do not repeat it."
    return (
        f"The call succeeded ({line}): the API redirected{where}, as this operation documents"
        f"{why}.{done}"
    )


def _redirect_message(response: UpstreamResponse) -> str:
    head = f"Upstream answered {response.status} {response.reason}".rstrip()
    why = f": {response.not_followed}" if response.not_followed else ""
    return f"{head}, redirecting to {response.location}; it was not followed{why}."


def resource_contents(
    response: UpstreamResponse,
    uri: str,
    mime_type: str | None,
    limits: ResultLimits = DEFAULT_LIMITS,
) -> list[dict[str, Any]]:
    """``resources/read`` contents for ``uri``, text within the budget of a tool's result
    (Evidently's report download, an HTML page of 3.7 MB, came whole); a non-2xx status raises
    ``UpstreamStatusError``."""
    if not 200 <= response.status < 300:
        raise UpstreamStatusError(response.status, _status_message(response))
    media = _media(response.content_type)
    kind = _kind(media, response.body) if response.body else "text"
    if response.encoding:
        kind = "binary"
    if kind in ("json", "ndjson", "text"):
        mime = media or mime_type or ("application/json" if kind == "json" else "text/plain")
        return [{"uri": uri, "mimeType": mime, "text": TextBudget(limits).take(_decode(response))}]
    # bytes that are no JSON are not labelled as the JSON the resource was listed with (Aim's
    # searches answer their own encoding, unlabelled)
    declared = mime_type if mime_type and not is_json(_media(mime_type)) else None
    mime = media or declared or "application/octet-stream"
    blob = base64.b64encode(response.body).decode("ascii")
    return [{"uri": uri, "mimeType": mime, "blob": blob}]


def _complete(content: list[dict[str, Any]]) -> dict[str, Any]:
    return {"resultType": "complete", "content": content}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _decode(response: UpstreamResponse) -> str:
    return _decode_bytes(response.body, response.content_type)


def _decode_bytes(body: bytes, content_type: str) -> str:
    """``body`` as text in its charset (UTF-8 when it names none); bytes that are not that text
    are read as ISO-8859-1, one character per byte, so that none is lost (Mayan's Latin-1 file
    had come back with its accented letters replaced)."""
    try:
        return body.decode(_charset(content_type))
    except (LookupError, UnicodeDecodeError):  # an unknown charset name, or other bytes
        pass
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("latin-1")


def _undecoded(body: bytes, content_type: str) -> list[dict[str, Any]]:
    """The note for a text body that is not the text its Content-Type says."""
    charset = _charset(content_type)
    try:
        body.decode(charset)
        return []
    except LookupError:
        said = f"in a charset this server does not know ({charset})"
    except UnicodeDecodeError:
        said = f"not {charset} text"
    try:
        body.decode("utf-8")
        return [_text(f"[The answer is {said}: shown read as UTF-8.]")]
    except UnicodeDecodeError:
        return [
            _text(
                f"[The answer is {said}: shown read as ISO-8859-1, one character per byte, so "
                "that no byte is lost.]"
            )
        ]


class TextBudget:
    """The characters of text a result may still hand the model; text beyond them is cut."""

    __slots__ = ("_left", "_limits")

    def __init__(self, limits: ResultLimits) -> None:
        self._limits = limits
        self._left = limits.max_text_chars

    def take(self, text: str) -> str:
        """``text``, or as much of it as fits with a notice saying what was cut (the notice counts
        against the budget too, unless it alone is longer than what is left)."""
        if len(text) <= self._left:
            self._left -= len(text)
            return text
        shown = self._left
        for _ in range(3):  # the notice's length depends on the numbers in it
            notice = self._notice(len(text) - shown, len(text))
            shown = max(0, self._left - len(notice))
        self._left = 0
        return text[:shown] + self._notice(len(text) - shown, len(text))

    def _notice(self, cut: int, total: int) -> str:
        limit = self._limits.max_text_chars
        return (
            f"\n[truncated: {cut} of {total} characters cut; this server returns at most {limit} "
            f"characters per result (its operator can raise that with {self._limits.setting})]"
        )


# -- multipart ----------------------------------------------------------------------------------


def _multipart_blocks(response: UpstreamResponse, budget: TextBudget) -> list[dict[str, Any]]:
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


def _part_block(part: Part, index: int, url: str, budget: TextBudget) -> dict[str, Any]:
    media = _media(part.content_type)
    kind = _kind(media, part.body)
    if kind == "text":
        return _text(budget.take(_decode_bytes(part.body, part.content_type)))
    if kind in ("image", "audio"):
        return {
            "type": kind,
            "data": base64.b64encode(part.body).decode("ascii"),
            "mimeType": image_type(media) if kind == "image" else media,
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


def _is_html(body: bytes) -> bool:
    """Whether a body is an HTML document, whatever its label says."""
    return body[:1024].lstrip().lower().startswith((b"<!doctype html", b"<html"))


def _printable(text: str) -> bool:
    return all("!" <= char <= "~" for char in text)


def _excerpt(text: str) -> str:
    if len(text) > MAX_ERROR_EXCERPT:
        return text[:MAX_ERROR_EXCERPT] + f"… [{len(text) - MAX_ERROR_EXCERPT} more characters]"
    return text


def _status_message(response: UpstreamResponse) -> str:
    message = _status_excerpt(response)
    hint = response.auth_hint
    if response.status in _AUTH_STATUSES and hint:
        message += f"\n{hint[0].upper()}{hint[1:]}."
    repeated = _repeated_prefix(urlsplit(response.url).path) if response.status in _NO_ROUTE else ""
    if repeated:
        message += (
            f"\nThe request went to {urlsplit(response.url).path}, which says {repeated} twice: "
            f"the base URL may end with the {repeated} every path of the API starts with (as "
            "the address a server prints often does); set it without."
        )
    return message


# answers of an API to a path it has no route for
_NO_ROUTE = frozenset({400, 404, 405})
_MOUNT = re.compile(r"api|apis|rest|v\d+(\.\d+)?|\d+", re.IGNORECASE)


def _repeated_prefix(path: str) -> str:
    """The run of mount segments a path says twice in a row (``/api/4/api/4/load``: ``/api/4``,
    Glances' base URL as it prints it, beside paths that start with it), or ""."""
    segments = [s for s in path.split("/") if s]
    for start in range(len(segments)):
        for size in range(1, (len(segments) - start) // 2 + 1):
            run = segments[start : start + size]
            if (
                run == segments[start + size : start + 2 * size]
                and all(_MOUNT.fullmatch(s) for s in run)
                and not all(s.isdigit() for s in run)
            ):
                return "/" + "/".join(run)
    return ""


def _status_excerpt(response: UpstreamResponse) -> str:
    head = f"Upstream returned {response.status} {response.reason}".rstrip()
    if response.followed:
        head += f" (after {response.followed})"
    if response.retry_after is not None and response.status in (429, 503):
        head += f" (it asks to retry after {response.retry_after:g} s)"
    if not response.body:
        return head
    media = _media(response.content_type)
    kind = "binary" if response.encoding else _kind(media, response.body)
    if kind not in ("json", "ndjson", "text"):
        return f"{head}: ({len(response.body)} bytes of {media or 'binary data'})"
    text = _decode(response).strip()
    if kind == "json":
        with contextlib.suppress(ValueError):
            text = compact(json.loads(text))
    elif media in _HTML:
        text = f"(an HTML page) {page_text(text)}"
    return f"{head}: {_excerpt(scrub_credentials(text))}"
