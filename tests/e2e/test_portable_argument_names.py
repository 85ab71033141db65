"""Argument names every function-calling dialect takes: a parameter or body property named with
other characters (Phoenix's multipart ``input_keys[]``, OData's ``$top``, Rails' ``filter[status]``)
is advertised as its portable form, and sent under its own name. Anthropic's API and Bedrock refuse
a whole tool list over one property name outside ``[A-Za-z0-9_.-]{1,64}``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import call_tool, server

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Things", "version": "1.0.0"},
    "servers": [{"url": "https://things.example.com"}],
    "paths": {
        "/things": {
            "get": {
                "operationId": "listThings",
                "parameters": [
                    {"name": n, "in": "query", "schema": s}
                    for n, s in [
                        ("ids[]", {"type": "array", "items": {"type": "string"}}),
                        ("$top", {"type": "integer"}),
                        ("filter[status]", {"type": "string"}),
                        ("top", {"type": "integer"}),
                        ("filter.name", {"type": "string"}),
                    ]
                ],
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
        "/datasets": {
            "post": {
                "operationId": "uploadDataset",
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "input_keys[]": {"type": "array", "items": {"type": "string"}},
                                },
                            }
                        }
                    },
                },
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
    },
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    package: Path = generate_package(tmp_path_factory.mktemp("portable"), SPEC, "things-mcp")
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        fake.script["/things"] = fs.content(b"[]", "application/json")
        fake.script["/datasets"] = fs.content(b"{}", "application/json")
        yield fake


def test_every_argument_name_is_portable(catalog: dict[str, Any]) -> None:
    names = {
        t["name"]: [n for n in t["inputSchema"]["properties"] if n != "_select"]
        for t in catalog["tools"]
    }
    # a name already portable keeps it (`top`), before another's made so (`$top`)
    assert names == {
        "list_things": ["ids", "top_query", "filter_status", "top", "filter.name"],
        "upload_dataset": ["name", "input_keys"],
    }
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", n) for ns in names.values() for n in ns)


async def _call(
    catalog: dict[str, Any], upstream: fs.FaultServer, tool: str, arguments: dict[str, Any]
) -> fs.Seen:
    srv = server(catalog, {"THINGS_BASE_URL": upstream.url, "THINGS_RETRIES": "0"})  # type: ignore[arg-type]
    try:
        reply = await call_tool(srv, tool, arguments, 1)
    finally:
        await srv.aclose()
    assert reply["result"].get("isError", False) is False, reply
    (request,) = upstream.requests
    return request


async def test_each_value_goes_under_its_own_name(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    arguments = {"ids": ["a", "b"], "top_query": 5, "filter_status": "open", "top": 1}
    request = await _call(catalog, upstream, "list_things", arguments)
    assert parse_qsl(urlsplit(request.target).query) == [
        ("ids[]", "a"),
        ("ids[]", "b"),
        ("$top", "5"),
        ("filter[status]", "open"),
        ("top", "1"),
    ]


async def test_a_body_propertys_value_goes_under_its_own_name(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    request = await _call(
        catalog, upstream, "upload_dataset", {"name": "qa", "input_keys": ["question", "tier"]}
    )
    names = re.findall(rb'name="([^"]*)"', request.body)
    assert names == [b"name", b"input_keys[]", b"input_keys[]"]
