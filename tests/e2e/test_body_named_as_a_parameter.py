"""A body property named as a parameter (FastAPI's update models repeat the path's id) is an
argument of its own, ``body_<name>``, and the body's other properties are arguments as usual: what
goes over the wire is the body the API expects, each value where its argument says."""

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
    "info": {"title": "Labs", "version": "1.0.0"},
    "servers": [{"url": "https://labs.example.com"}],
    "paths": {
        "/projects/{project_id}": {
            "put": {
                "operationId": "update_project_projects__project_id__put",
                "parameters": [
                    {
                        "name": "project_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/ProjectUpdate"}
                        }
                    },
                },
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        }
    },
    "components": {
        "schemas": {
            "ProjectUpdate": {
                "type": "object",
                "properties": {
                    "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "project_id": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "auto_close": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
                },
            }
        }
    },
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    package: Path = generate_package(tmp_path_factory.mktemp("renamed"), SPEC, "labs-mcp")
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        fake.script["/projects/p1"] = fs.content(b'{"ok":true}', "application/json")
        yield fake


def test_the_tool_takes_the_path_id_and_the_body_fields(catalog: dict[str, Any]) -> None:
    (tool,) = [t for t in catalog["tools"] if t["name"] == "update_project"]
    schema = tool["inputSchema"]
    assert list(schema["properties"]) == ["project_id", "name", "body_project_id", "auto_close"]
    assert schema["required"] == ["project_id"]


@pytest.mark.parametrize(
    ("arguments", "sent"),
    [
        (
            {"project_id": "p1", "name": "lab-2", "auto_close": False},
            {"name": "lab-2", "auto_close": False},
        ),
        (
            {"project_id": "p1", "body_project_id": "p1", "name": None},
            {"project_id": "p1", "name": None},
        ),
    ],
)
async def test_each_value_goes_where_its_argument_says(
    catalog: dict[str, Any],
    upstream: fs.FaultServer,
    arguments: dict[str, Any],
    sent: dict[str, Any],
) -> None:
    srv = server(catalog, {"LABS_BASE_URL": upstream.url, "LABS_RETRIES": "0"})  # type: ignore[arg-type]
    try:
        reply = await call_tool(srv, "update_project", arguments, 1)
    finally:
        await srv.aclose()
    assert reply["result"].get("isError", False) is False, reply
    (request,) = upstream.requests
    assert (request.method, request.target) == ("PUT", "/projects/p1")
    assert json.loads(request.body) == sent
