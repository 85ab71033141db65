"""What PostgREST showed: a filter of a DELETE given as null is never left out (the whole table was
deleted), and a ranged answer says which rows it holds of how many (``Content-Range: 0-1/8``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import call_tool, server, texts

FILTER = {"name": "reading_ts", "in": "query", "schema": {"type": "string"}}
NULLABLE = {"name": "note", "in": "query", "schema": {"type": "string", "nullable": True}}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Rows", "version": "12.0.2"},
    "servers": [{"url": "https://rows.example.com"}],
    "paths": {
        "/measurements": {
            "get": {
                "operationId": "getMeasurements",
                "parameters": [FILTER],
                "responses": {
                    "200": {"description": "ok", "content": {"application/json": {}}},
                    "206": {"description": "partial", "content": {"application/json": {}}},
                },
            },
            "delete": {
                "operationId": "deleteMeasurements",
                "parameters": [FILTER, NULLABLE],
                "responses": {"204": {"description": "deleted"}},
            },
        }
    },
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    package: Path = generate_package(tmp_path_factory.mktemp("rows"), SPEC, "rows-mcp")
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        yield fake


async def _call(
    catalog: dict[str, Any], upstream: fs.FaultServer, tool: str, arguments: dict[str, Any]
) -> dict[str, Any]:
    srv = server(catalog, {"ROWS_BASE_URL": upstream.url, "ROWS_RETRIES": "0"})  # type: ignore[arg-type]
    try:
        reply: dict[str, Any] = await call_tool(srv, tool, arguments, 1)
        return reply
    finally:
        await srv.aclose()


@pytest.mark.parametrize("argument", ["reading_ts", "note"])
async def test_a_null_filter_of_a_delete_is_refused_not_left_out(
    catalog: dict[str, Any], upstream: fs.FaultServer, argument: str
) -> None:
    reply = await _call(catalog, upstream, "delete_measurements", {argument: None})
    assert reply["result"]["isError"] is True
    assert upstream.requests == []  # nothing deleted
    if argument == "note":
        # its schema takes null: the request cannot say it, and leaving it out would widen it
        assert texts(reply) == (
            "argument 'note' is null, which a query cannot send, and a DELETE without it may act "
            "on more than asked; nothing was sent. Give it a value, or leave it out to act on all it "
            "would narrow"
        )
    else:
        # the schema refuses it, as for any null where no null is taken
        assert texts(reply) == (
            "Invalid arguments for tool 'delete_measurements':\n"
            '- reading_ts: null is not of type "string"'
        )


async def test_a_null_filter_of_a_read_is_left_out(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    upstream.script["/measurements"] = lambda x: x.json(200, [])
    reply = await _call(catalog, upstream, "get_measurements", {"reading_ts": None})
    assert reply["result"].get("isError", False) is False, reply
    assert [r.target for r in upstream.requests] == ["/measurements"]


async def test_a_ranged_answer_says_which_rows_of_how_many(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    def partial(x: fs.Exchange) -> None:
        x.json(206, [{"id": 1}, {"id": 2}], headers={"Content-Range": "0-1/8"})

    upstream.script["/measurements"] = partial
    reply = await _call(catalog, upstream, "get_measurements", {})
    assert reply["result"].get("isError", False) is False, reply
    assert reply["result"]["content"][-1] == {
        "type": "text",
        "text": "[response headers] content-range: 0-1/8",
    }
