"""Arguments are checked with standard JSON Schema 2020-12 semantics before anything goes upstream.

A spec is generated in memory and its catalog served by the runtime (``tools/call`` through the
dispatcher), with an upstream that records every call: an argument that breaks a constraint the old
validator let through (``$`` before a trailing newline, non-ASCII digits for ``\\d``, a decimal
``multipleOf``, ``unevaluatedProperties``) is an ``isError`` result naming it, and nothing reaches the
upstream; a pattern that backtracks catastrophically in other engines answers. A pattern the
validator cannot compile is dropped at generation time with a ``schema-uncompilable`` warning, and a
tool whose schema still does not compile at run time refuses every call.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from openapi2mcp.generate import GenerateOptions, Generation, generate
from templates.runtime.server import McpServer, Settings
from templates.runtime.upstream.client import UpstreamResponse
from tests.catalogs import catalog_from_files
from tests.reliability.kit import call_tool, catalog, operation, texts, tool

BODY = {
    "type": "object",
    "required": ["slug"],
    "properties": {
        "slug": {"type": "string", "pattern": "^[a-z0-9-]+$"},
        "code": {"type": "string", "pattern": "^\\d+$"},
        "price": {"type": "number", "multipleOf": 0.01},
        "word": {"type": "string", "pattern": "^(a+)+$"},
        "meta": {
            "type": "object",
            "allOf": [{"properties": {"a": {"type": "integer"}}}],
            "unevaluatedProperties": False,
        },
    },
}
SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Shop", "version": "1"},
    "servers": [{"url": "https://api.example.com"}],
    "paths": {
        "/items": {
            "post": {
                "operationId": "createItem",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": BODY}},
                },
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/things/{id}": {
            "get": {
                "operationId": "getThing",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {
                        "name": "q",
                        "in": "query",
                        "schema": {"type": "string", "pattern": "^(?!x)[a-z]+$"},
                    },
                ],
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
}


class Recorder:
    """An upstream that answers every call and remembers it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        self.calls.append((operation, dict(arguments)))
        return UpstreamResponse(200, "OK", "application/json", b"{}", "https://api.example.com")


@pytest.fixture(scope="module")
def generation(tmp_path_factory: pytest.TempPathFactory) -> Generation:
    spec = tmp_path_factory.mktemp("spec") / "openapi.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    return generate(str(spec), GenerateOptions())


def serve(generation: Generation) -> tuple[McpServer, Recorder]:
    files = generation.files
    cat = catalog_from_files(files, next(path for path in files if path.endswith("catalog.json")))
    upstream = Recorder()
    return McpServer(cat, Settings.from_env(cat, {}), upstream=upstream), upstream


VALID = {"slug": "blue-shoe", "code": "42", "price": 19.99, "word": "aaa", "meta": {"a": 1}}


async def test_valid_arguments_reach_the_upstream(generation: Generation) -> None:
    server, upstream = serve(generation)
    reply = await call_tool(server, "create_item", VALID)
    assert reply["result"].get("isError") is None, texts(reply)
    assert [operation for operation, _ in upstream.calls] == ["createItem"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("slug", "abc\n", '"abc\\n" does not match "^[a-z0-9-]+$"'),
        ("code", "١٢٣", r'"١٢٣" does not match "^\d+$"'),
        ("price", 10000000.001, "10000000.001 is not a multiple of 0.01"),
        ("meta", {"a": 1, "b": 2}, "Unevaluated properties are not allowed ('b' was unexpected)"),
        ("word", "a" * 30 + "!", '"' + "a" * 30 + '!" does not match "^(a+)+$"'),
    ],
    ids=["dollar-before-newline", "non-ascii-digits", "multiple-of", "unevaluated", "backtracking"],
)
async def test_an_invalid_argument_is_an_error_naming_it_and_nothing_is_sent(
    generation: Generation, field: str, value: Any, message: str
) -> None:
    server, upstream = serve(generation)
    reply = await call_tool(server, "create_item", {**VALID, field: value})
    assert reply["result"]["isError"] is True
    assert f"- {field}: {message}" in texts(reply).splitlines()
    assert upstream.calls == []


def test_an_uncompilable_pattern_is_dropped_with_a_warning(generation: Generation) -> None:
    [warning] = [d for d in generation.report.diagnostics if d.code == "schema-uncompilable"]
    assert warning.level == "warning"
    assert warning.pointer == "#/paths/~1things~1{id}/get"
    assert "'pattern' at #/properties/q/pattern is left out" in warning.message
    files = generation.files
    cat = catalog_from_files(files, next(path for path in files if path.endswith("catalog.json")))
    [thing] = [t for t in cat["tools"] if t["name"] == "get_thing"]
    assert thing["inputSchema"]["properties"]["q"] == {"type": "string"}


async def test_a_tool_whose_schema_does_not_compile_refuses_every_call() -> None:
    broken = tool("lookup", {"q": {"type": "string", "pattern": "^(?!x)y$"}})
    cat = catalog({"lookup": operation("GET", "/lookup")}, [broken])
    upstream = Recorder()
    server = McpServer(cat, Settings.from_env(cat, {}), upstream=upstream)
    for arguments in ({}, {"q": "y"}):
        reply = await call_tool(server, "lookup", arguments)
        assert reply["result"]["isError"] is True
        assert texts(reply) == (
            "Tool 'lookup' cannot be called: its input schema cannot be used to check arguments "
            '("^(?!x)y$" is not a "regex" (at /properties/q/pattern)). Nothing was sent to the API.'
        )
    assert upstream.calls == []
