"""The ``_select`` example in a read tool's description works on the tool's responses.

Open WebUI's spec (FastAPI) documents most single objects as nullable (``anyOf: [{$ref: Model},
{type: null}]``) and most fields as nullable too; the example fell back to the list form
``items[].{id: id, name: name}`` for 156 of its 260 tools, ``get_model_by_id`` among them, and
following it returned null. The example now reads a nullable value as its non-null branch (and an
``allOf`` of one object as that object), and a tool whose output says nothing of its shape is told
both forms rather than a list form that may not fit. The generator writes the line with the
runtime's own function: the description a generated catalog lists is checked here, then followed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from templates.runtime.protocol.projection import description_line, example
from templates.runtime.server import McpServer, Settings
from templates.runtime.upstream.client import UpstreamResponse
from tests.catalogs import catalog_from_files
from tests.reliability.kit import META

MODEL = {
    "type": "object",
    "required": ["id", "name"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "base_model_id": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "meta": {"type": "object", "properties": {"description": {"type": "string"}}},
    },
}
DEFS = {"Model": MODEL}
REF = {"$ref": "#/$defs/Model"}
NULL = {"type": "null"}
# FastAPI's Optional[str] fields and Optional[list[...]] lists
USER = {
    "type": "object",
    "properties": {
        "role": {"anyOf": [{"type": "string"}, NULL]},
        "email": {"anyOf": [{"type": "string"}, NULL]},
    },
}
PAGE = {
    "type": "object",
    "properties": {
        "total": {"type": "integer"},
        "items": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/Model"}}, NULL]},
    },
}
BOTH = "e.g. `{id: id, name: name}` on an object, `[].{id: id, name: name}` on an array"


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"anyOf": [REF, NULL], "$defs": DEFS}, "{id: id, name: name}"),
        ({"anyOf": [NULL, REF], "$defs": DEFS, "description": "x"}, "{id: id, name: name}"),
        ({"oneOf": [REF, NULL], "$defs": DEFS}, "{id: id, name: name}"),
        ({"allOf": [REF], "$defs": DEFS}, "{id: id, name: name}"),
        ({**MODEL, "type": ["object", "null"]}, "{id: id, name: name}"),
        (
            {"anyOf": [{"type": "array", "items": REF}, NULL], "$defs": DEFS},
            "[].{id: id, name: name}",
        ),
        (
            {"anyOf": [{"type": "array", "items": {"anyOf": [REF, NULL]}}, NULL], "$defs": DEFS},
            "[].{id: id, name: name}",
        ),
        ({**PAGE, "$defs": DEFS}, "items[].{id: id, name: name}"),
        (USER, "{role: role, email: email}"),
        # the shape is not known: no example pretends to know it
        (None, ""),
        ({}, ""),
        ({"anyOf": [REF, {"type": "array", "items": REF}], "$defs": DEFS}, ""),
    ],
    ids=[
        "nullable-ref",
        "null-first",
        "one-of",
        "all-of-one",
        "type-list",
        "nullable-array",
        "nullable-items",
        "nullable-list-field",
        "nullable-fields",
        "none",
        "empty",
        "object-or-array",
    ],
)
def test_the_example_reads_nullable_values_as_their_other_branch(
    schema: Any, expected: str
) -> None:
    assert example(schema) == expected


def test_a_response_of_unknown_shape_is_told_both_forms() -> None:
    assert description_line("_select", example(None)) == (
        "Optional `_select`: a JMESPath expression picking what to return from the JSON "
        f"response, {BOTH}."
    )


SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Open WebUI", "version": "1"},
    "servers": [{"url": "https://webui.example.com"}],
    "paths": {
        "/api/v1/models/model": {
            "get": {
                "operationId": "get_model_by_id_api_v1_models_model_get",
                "parameters": [
                    {"name": "id", "in": "query", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {"anyOf": [{"$ref": "#/components/schemas/Model"}, NULL]}
                            }
                        },
                    }
                },
            }
        },
        "/api/v1/version": {
            "get": {
                "operationId": "get_app_version_api_v1_version_get",
                "responses": {
                    "200": {"description": "ok", "content": {"application/json": {"schema": {}}}}
                },
            }
        },
    },
    "components": {"schemas": {"Model": MODEL}},
}
ANSWER = {"id": "gpt-4o", "name": "GPT-4o", "base_model_id": None, "meta": {"description": "x"}}


class Answering:
    """The API: every call answers the one model."""

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        body = json.dumps(ANSWER).encode()
        return UpstreamResponse(200, "OK", "application/json", body, "https://webui.example.com")


async def _ask(server: McpServer, method: str, params: dict[str, Any]) -> dict[str, Any]:
    async def notify(message: dict[str, Any]) -> None:
        return None

    request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": META, **params}}
    reply = await server.dispatcher.handle(request, None, notify)
    assert reply is not None and "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


async def test_following_the_listed_example_picks_the_fields(tmp_path: Path) -> None:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    files = generate(str(path), GenerateOptions()).files
    cat = catalog_from_files(files, next(p for p in files if p.endswith("catalog.json")))
    server = McpServer(cat, Settings.from_env(cat, {}), upstream=Answering())
    listed = {t["name"]: t for t in (await _ask(server, "tools/list", {}))["tools"]}
    described = listed["get_model_by_id"]["description"]
    assert described.endswith(", e.g. `{id: id, name: name}`."), described
    assert listed["get_app_version"]["description"].endswith(f", {BOTH}.")
    expression = described.rsplit("`", 2)[1]
    arguments = {"id": "gpt-4o", "_select": expression}
    result = await _ask(server, "tools/call", {"name": "get_model_by_id", "arguments": arguments})
    assert result["structuredContent"] == {"id": "gpt-4o", "name": "GPT-4o"}
    assert result["content"] == [{"type": "text", "text": '{"id":"gpt-4o","name":"GPT-4o"}'}]
