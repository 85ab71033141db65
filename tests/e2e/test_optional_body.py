"""A body that may be left out, as FastAPI documents one (``anyOf: [{$ref: Model}, {type: null}]``,
dstack's list requests), is flattened like any object body: its fields are the tool's arguments,
the body goes once one of them is given, and nothing goes when none is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import call_tool, server

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Fleet", "version": "1.0.0"},
    "servers": [{"url": "https://fleet.example.com"}],
    "paths": {
        "/api/users/list": {
            "post": {
                "operationId": "list_users_api_users_list_post",
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "anyOf": [
                                    {"$ref": "#/components/schemas/ListUsersRequest"},
                                    {"type": "null"},
                                ],
                                "title": "Body",
                            }
                        }
                    }
                },
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        }
    },
    "components": {
        "schemas": {
            "ListUsersRequest": {
                "type": "object",
                "required": ["ascending"],
                "properties": {
                    "name_pattern": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "ascending": {"type": "boolean"},
                    "limit": {"type": "integer", "default": 1000},
                },
            }
        }
    },
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    package: Path = generate_package(tmp_path_factory.mktemp("optional"), SPEC, "fleet-mcp")
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        fake.script["/api/users/list"] = fs.content(b"[]", "application/json")
        yield fake


def test_the_fields_of_a_body_that_may_be_null_are_the_tools_arguments(
    catalog: dict[str, Any],
) -> None:
    (tool,) = [t for t in catalog["tools"] if t["name"] == "list_users"]
    schema = tool["inputSchema"]
    # (and the selection a read takes: listing is a read)
    assert list(schema["properties"]) == ["name_pattern", "ascending", "limit", "_select"]
    assert "required" not in schema
    # the body goes whole once any of its fields is given
    assert schema["dependentRequired"] == {"name_pattern": ["ascending"], "limit": ["ascending"]}


@pytest.mark.parametrize(
    ("arguments", "sent"),
    [
        ({"name_pattern": "bo", "ascending": True}, b'{"name_pattern":"bo","ascending":true}'),
        ({}, b""),
    ],
)
async def test_the_body_goes_once_a_field_is_given(
    catalog: dict[str, Any], upstream: fs.FaultServer, arguments: dict[str, Any], sent: bytes
) -> None:
    srv = server(catalog, {"FLEET_BASE_URL": upstream.url, "FLEET_RETRIES": "0"})  # type: ignore[arg-type]
    try:
        reply = await call_tool(srv, "list_users", arguments, 1)
    finally:
        await srv.aclose()
    assert reply["result"].get("isError", False) is False, reply
    (request,) = upstream.requests
    assert (request.method, request.target) == ("POST", "/api/users/list")
    assert request.body == sent
    assert ("content-type" in request.headers) is bool(sent)
    if sent:
        assert json.loads(request.body) == arguments
