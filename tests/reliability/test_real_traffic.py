"""Issue 13 end to end: each behaviour through the whole server against a recording API on 127.0.0.1,
asserting the exact request the API received and the exact result the model gets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.reliability import fault_server as fs
from tests.reliability.kit import call_tool, catalog, operation, parameter, server, texts, tool

LENIENT_PET = {
    "type": "object",
    "properties": {
        "id": {"type": ["integer", "null"]},
        "name": {"type": ["string", "null"]},
        "size": {"type": ["integer", "null"]},
    },
}


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        yield fake


ARGUMENTS = {
    "page": {"type": "integer"},
    "per_page": {"type": "integer"},
    "If-None-Match": {"type": "string"},
}


def pets(
    upstream: fs.FaultServer, spec: Any, output: dict[str, Any] | None = None, **env: str
) -> Any:
    listed = tool("op", ARGUMENTS)
    if output is not None:
        listed["outputSchema"] = output
    cat = catalog({"op": spec}, [listed])
    return server(cat, {"REL_BASE_URL": upstream.url, **env})


async def test_a_created_file_whose_answer_drifts_is_a_success_not_to_repeat(
    upstream: fs.FaultServer,
) -> None:
    upstream.script["/files/notes"] = fs.content(
        b'{"id": "f-1", "name": "notes", "size": null}', "application/json", 201
    )
    srv = pets(upstream, operation("PUT", "/files/notes"), LENIENT_PET)
    try:
        reply = await call_tool(srv, "op", {})
    finally:
        await srv.aclose()
    [request] = upstream.requests
    assert (request.method, request.target, request.headers["accept"]) == (
        "PUT",
        "/files/notes",
        "application/json",
    )
    assert reply["result"]["structuredContent"] == {"id": None, "name": "notes", "size": None}
    assert texts(reply) == (
        '{"id":"f-1","name":"notes","size":null}\n'
        "The call succeeded (HTTP 201 Created): the change was made, so do not repeat it. Its "
        "response does not match the documented schema:\n"
        '- id: "f-1" is not of types "null", "integer"\n'
        "The text above is the response as received; the structured content sets what does not "
        "match to null."
    )
    assert "isError" not in reply["result"]


async def test_the_result_budget_cuts_structured_content_and_names_the_paging_arguments(
    upstream: fs.FaultServer,
) -> None:
    items = [{"id": i, "name": f"pet {i}"} for i in range(300)]
    upstream.script["/pets"] = fs.content(json.dumps(items).encode(), "application/json")
    spec = operation("GET", "/pets", [parameter("page"), parameter("per_page")])
    srv = pets(
        upstream,
        spec,
        {"type": "array", "items": {"type": ["object", "null"]}},
        REL_MAX_RESULT_CHARS="2000",
    )
    try:
        reply = await call_tool(srv, "op", {"page": 2})
    finally:
        await srv.aclose()
    assert upstream.requests[0].target == "/pets?page=2"
    result = reply["result"]
    shown = result["structuredContent"]
    assert shown == items[: len(shown)] and 10 < len(shown) < 300
    size = sum(len(block["text"]) for block in result["content"]) + len(
        json.dumps(shown, separators=(",", ":"))
    )
    assert size <= 2000
    assert result["content"][1]["text"].endswith(
        f"shown: the first {len(shown)} of 300 items. This server returns at most 2000 characters "
        "per result (its operator can raise that with REL_MAX_RESULT_CHARS). To get the rest, "
        "call again for fewer at a time (per_page) and page on with page: a next page starts "
        "after what this call asked for, not after what is shown.]"
    )


async def test_each_operation_sends_the_accept_it_documents(upstream: fs.FaultServer) -> None:
    spec = operation("GET", "/report")
    spec["accept"] = "application/json, text/csv;q=0.9"
    srv = pets(upstream, spec)
    try:
        await call_tool(srv, "op", {})
    finally:
        await srv.aclose()
    assert upstream.requests[0].headers["accept"] == "application/json, text/csv;q=0.9"


async def test_a_conditional_get_answered_304_is_not_modified(upstream: fs.FaultServer) -> None:
    upstream.script["/pets/1"] = fs.content(b"", "", 304)
    spec = operation("GET", "/pets/1", [parameter("If-None-Match", "header")])
    srv = pets(upstream, spec, LENIENT_PET)
    try:
        reply = await call_tool(srv, "op", {"If-None-Match": '"v7"'})
    finally:
        await srv.aclose()
    assert upstream.requests[0].headers["if-none-match"] == '"v7"'
    assert reply["result"]["structuredContent"] == {}
    assert texts(reply).startswith("HTTP 304 Not Modified: the resource has not changed")
    assert "isError" not in reply["result"]


async def test_ndjson_labelled_json_is_an_array(upstream: fs.FaultServer) -> None:
    upstream.script["/events"] = fs.content(b'{"n": 1}\n{"n": 2}\n', "application/json")
    srv = pets(upstream, operation("GET", "/events"), {"type": "array"})
    try:
        reply = await call_tool(srv, "op", {})
    finally:
        await srv.aclose()
    assert reply["result"]["structuredContent"] == [{"n": 1}, {"n": 2}]
    assert texts(reply) == '[{"n":1},{"n":2}]'


async def test_without_credentials_the_call_goes_out_and_a_401_names_the_variable(
    upstream: fs.FaultServer,
) -> None:
    upstream.script["/me"] = fs.status(401)
    cat = catalog(
        {"op": operation("GET", "/me", security=[["token"]])},
        [tool("op")],
        schemes={"token": {"type": "bearer", "env": "REL_TOKEN"}},
    )
    srv = server(cat, {"REL_BASE_URL": upstream.url})
    try:
        reply = await call_tool(srv, "op", {})
    finally:
        await srv.aclose()
    assert "authorization" not in upstream.requests[0].headers
    assert texts(reply) == (
        'Upstream returned 401 Unauthorized: {"error":"status 401"}\n'
        "It was sent without credentials; to send them, set the environment variable REL_TOKEN."
    )
    assert reply["result"]["isError"] is True


async def test_extra_headers_reach_the_api_and_are_masked_in_its_echo(
    upstream: fs.FaultServer,
) -> None:
    upstream.script["/whoami"] = fs.echo_json
    headers = {"Authorization": "token ghp-S3CRET-0123456789", "X-GitHub-Api-Version": "2022-11-28"}
    srv = pets(upstream, operation("GET", "/whoami"), None, REL_HEADERS=json.dumps(headers))
    try:
        reply = await call_tool(srv, "op", {})
    finally:
        await srv.aclose()
    sent = upstream.requests[0].headers
    assert (sent["authorization"], sent["x-github-api-version"]) == (
        "token ghp-S3CRET-0123456789",
        "2022-11-28",
    )
    assert "S3CRET" not in json.dumps(reply)
    assert "2022-11-28" in texts(reply)
