"""Answers of real servers that were misreported: what the model is told, and what the API received.

Each test calls the upstream client against a server on 127.0.0.1 (the recording ``FakeApi``, or
the raw-socket ``FaultServer`` where a body must stay open) and renders the answer as the server
does (``tool_result``, ``resource_contents``; a refused call is ``tool_error`` of its message).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator

import pytest

from templates.runtime.catalog.model import OperationSpec
from templates.runtime.protocol.results import resource_contents, tool_result
from templates.runtime.typed_client import ApiClient
from templates.runtime.upstream.client import UpstreamError
from templates.runtime.upstream.resilience import answer_failure
from tests.reliability.fault_server import Exchange, FaultServer
from tests.runtime.upstream_kit import FakeApi, Make, op, param

JSON = {"Content-Type": "application/json"}


def _texts(result: dict[str, object]) -> list[str]:
    content = result["content"]
    assert isinstance(content, list)
    return [block["text"] for block in content]


# -- a redirect documented as the only answer ----------------------------------------------------


def _confirmation(*, answers: bool) -> OperationSpec:
    """Strapi's ``GET /auth/email-confirmation``: a 301 to the site, and no 2xx documented."""
    spec = op("GET", "/auth/email-confirmation", [param("confirmation")])
    spec["redirects"] = ["301"]
    if answers:
        spec["redirectAnswers"] = True
    return spec


async def test_a_redirect_documented_as_the_only_answer_is_not_followed(
    api: FakeApi, make: Make
) -> None:
    # the site the API redirects to is not served here: following it had made the call a 404
    api.reply(301, b"", {"Location": "/confirmed"})
    api.reply(404, b'{"error":"Not Found"}', JSON)
    spec = _confirmation(answers=True)
    upstream = make({"confirm": spec})
    response = await upstream.call("confirm", {"confirmation": "c0de"})
    assert [r.target for r in api.requests] == ["/auth/email-confirmation?confirmation=c0de"]
    result = tool_result(response, None, redirects=spec["redirects"])
    assert "isError" not in result
    assert _texts(result) == [
        f"The call succeeded (HTTP 301 Moved Permanently): the API redirected to "
        f"{api.url}/confirmed, as this operation documents."
    ]
    # the typed client returns where it points, without following it either
    api.replies.clear()
    api.reply(301, b"", {"Location": "/welcome?lang=en"})
    answer = await ApiClient(upstream).call("confirm", {"confirmation": "c0de"})
    assert answer == f"{api.url}/welcome?lang=en"
    assert [r.path for r in api.requests] == ["/auth/email-confirmation"] * 2


async def test_a_documented_redirect_beside_a_documented_success_is_still_followed(
    api: FakeApi, make: Make
) -> None:
    api.reply(301, b"", {"Location": "/confirmed"})
    api.reply(200, b'{"ok":1}', JSON)
    response = await make({"confirm": _confirmation(answers=False)}).call("confirm", {})
    assert [r.target for r in api.requests] == ["/auth/email-confirmation", "/confirmed"]
    assert (response.status, response.body) == (200, b'{"ok":1}')


async def test_a_307_documented_as_the_only_answer_is_still_followed(
    api: FakeApi, make: Make
) -> None:
    # 307 asks for the same request elsewhere: it was not carried out where it was sent
    spec = {**_confirmation(answers=True), "redirects": ["307"]}
    api.reply(307, b"", {"Location": "/v2/auth/email-confirmation"})
    response = await make({"confirm": spec}).call("confirm", {})
    assert [r.target for r in api.requests] == [
        "/auth/email-confirmation",
        "/v2/auth/email-confirmation",
    ]
    assert response.status == 200


# -- a paused call keeps the API's reason ---------------------------------------------------------


async def test_a_paused_call_keeps_the_reason_the_api_gave(api: FakeApi, make: Make) -> None:
    # Open WebUI's GET /ollama/api/tags while its Ollama API is switched off
    disabled = b'{"detail":"The Ollama API is disabled. Please enable it to use this feature."}'
    environ = {"PET_RETRIES": "0", "PET_CIRCUIT_THRESHOLD": "2"}
    upstream = make({"tags": op("GET", "/ollama/api/tags")}, environ)
    for _ in range(2):
        api.reply(503, disabled, JSON)
        assert (await upstream.call("tags", {})).status == 503
    with pytest.raises(UpstreamError) as paused:
        await upstream.call("tags", {})
    assert str(paused.value) == (
        f"GET /ollama/api/tags at {api.url} is failing (2 failed attempts in a row, the last: "
        "HTTP 503 Service Unavailable: The Ollama API is disabled. Please enable it to use this "
        "feature.); calls to it are paused for another 30 s (other operations are not affected)"
    )
    assert len(api.requests) == 2


def test_the_reason_a_failing_answer_gives_is_short_and_safe() -> None:
    said = answer_failure(502, "Bad Gateway", b"upstream\n  connect error\r\n", "text/plain")
    assert said == "HTTP 502 Bad Gateway: upstream connect error"
    nested = json.dumps({"error": {"message": "model overloaded", "code": 1}}).encode()
    assert answer_failure(503, "", nested, "application/json") == "HTTP 503: model overloaded"
    # nothing a model can read: the status alone
    page = b"<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>"
    assert answer_failure(503, "Service Unavailable", page, "text/html") == (
        "HTTP 503 Service Unavailable"
    )
    assert answer_failure(504, "Gateway Timeout", b'{"ok":false}', "application/json") == (
        "HTTP 504 Gateway Timeout"
    )
    long = answer_failure(503, "Service Unavailable", b"x" * 5000, "text/plain")
    assert long == "HTTP 503 Service Unavailable: " + "x" * 199 + "…"
    leaky = b'{"message":"bad header Authorization: Bearer abcdefghijkl"}'
    assert "abcdefghijkl" not in answer_failure(503, "", leaky, "application/json")


# -- a compressed stream cut at the timeout --------------------------------------------------------

END_EVENT = b'{"event": "end", "data": {"build_id": "7f1c"}}\n\n'


def _gzip_events(x: Exchange) -> None:
    """Langflow's build events: gzip, flushed after the event, and the connection kept open."""
    compressor = zlib.compressobj(wbits=16 + zlib.MAX_WBITS)
    sent = compressor.compress(END_EVENT) + compressor.flush(zlib.Z_SYNC_FLUSH)
    x.send(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Encoding: gzip\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    x.send(b"%x\r\n%s\r\n" % (len(sent), sent))
    x.hang()


@pytest.fixture
def streaming() -> Iterator[FaultServer]:
    with FaultServer() as server:
        server.script["/api/v1/build/7f1c/events"] = _gzip_events
        yield server


async def test_a_gzip_stream_cut_at_the_timeout_is_decoded(
    streaming: FaultServer, make: Make
) -> None:
    spec = op("GET", "/api/v1/build/{job_id}/events", [param("job_id", "path")])
    environ = {"PET_BASE_URL": streaming.url, "PET_TIMEOUT": "0.5"}
    upstream = make({"events": spec}, environ)
    response = await upstream.call("events", {"job_id": "7f1c"})
    assert streaming.hits("/api/v1/build/7f1c/events") == 1
    result = tool_result(response, None)
    assert "isError" not in result
    assert _texts(result) == [
        "The call succeeded (HTTP 200 OK). The API was still sending its application/x-ndjson "
        f"after 0.5 s, as a stream does; this is what had arrived by then ({len(END_EVENT)} "
        "bytes).",
        END_EVENT.decode(),
    ]
    # a resource read of the same URI gets what arrived too, as text
    uri = "langflow://build/7f1c/events"
    read = await upstream.call("events", {"job_id": "7f1c"})
    assert resource_contents(read, uri, None) == [
        {"uri": uri, "mimeType": "application/x-ndjson", "text": END_EVENT.decode()}
    ]
