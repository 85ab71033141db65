"""Path segments that real specs make hard, and the generated smoke tests that met them (issue 20).

Three of the real-specs trial's packages failed their own tests: AutoRest's URL test service (a path
parameter whose only value is the empty string, ``enum: [""]``, and a required path array given no
item), httpbin (a ``TRACE`` operation the package's fake upstream did not answer) and Jellyfin (a path
parameter typed as an object whose every property is read-only, so no input fills the segment). Each
test is named after what broke; the last runs the generated package's tests, offline, as its CI does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from templates.runtime.server import McpServer, Settings
from tests.catalogs import catalog_from_files
from tests.kit.offline import run_package_tests_offline
from tests.reliability.kit import META
from tests.runtime.upstream_kit import FakeApi, fake_api

OK = {"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Segments", "version": "1"},
    "servers": [{"url": "https://segments.example"}],
    "components": {
        "schemas": {
            # a .NET Version as Jellyfin describes it: an object of read-only numbers
            "Version": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "Major": {"type": "integer", "readOnly": True},
                    "Minor": {"type": "integer", "readOnly": True},
                },
            }
        }
    },
    "paths": {
        "/paths/string/empty/{stringPath}": {
            "get": {
                "operationId": "stringEmpty",
                "parameters": [
                    {
                        "name": "stringPath",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "enum": [""]},
                    }
                ],
                "responses": OK,
            }
        },
        "/items/{id}": {
            "get": {
                "operationId": "getItem",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": OK,
            }
        },
        "/arrays/{ids}": {
            "get": {
                "operationId": "arrayInPath",
                "parameters": [
                    {
                        "name": "ids",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    }
                ],
                "responses": OK,
            }
        },
        "/anything": {"trace": {"operationId": "traceAnything", "responses": OK}},
        "/plugins/{version}/disable": {
            "post": {
                "operationId": "disablePlugin",
                "parameters": [
                    {
                        "name": "version",
                        "in": "path",
                        "required": True,
                        "schema": {"$ref": "#/components/schemas/Version"},
                    }
                ],
                "responses": {"204": {"description": "done"}},
            }
        },
    },
}


class Served:
    def __init__(self, tmp: Path, api: FakeApi) -> None:
        spec = tmp / "openapi.json"
        spec.write_text(json.dumps(SPEC), "utf-8")
        self.generation = generate(str(spec), GenerateOptions(tool_mode="full"))
        [name] = [f for f in self.generation.files if f.endswith("/catalog.json")]
        catalog: Any = catalog_from_files(self.generation.files, name)
        prefix = catalog["upstream"]["baseUrlEnv"].removesuffix("_BASE_URL")
        self.server = McpServer(
            catalog, Settings.from_env(catalog, {f"{prefix}_BASE_URL": api.url})
        )
        self.api = api

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        async def notify(message: dict[str, Any]) -> None:
            return None

        params = {"_meta": META, "name": name, "arguments": arguments}
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
        reply = await self.server.dispatcher.handle(message, None, notify)
        assert reply is not None
        result: dict[str, Any] = reply["result"]
        return result


@pytest.fixture
def api() -> Iterator[FakeApi]:
    with fake_api() as fake:
        yield fake


@pytest.fixture
async def served(tmp_path: Path, api: FakeApi) -> Any:
    it = Served(tmp_path, api)
    yield it
    await it.server.aclose()


async def test_a_path_parameter_whose_enum_is_the_empty_string_sends_an_empty_segment(
    served: Served,
) -> None:
    result = await served.call("string_empty", {"stringPath": ""})
    assert "isError" not in result, result
    assert [(r.method, r.target) for r in served.api.requests] == [("GET", "/paths/string/empty/")]


async def test_an_empty_value_for_any_other_path_parameter_is_refused_and_nothing_sent(
    served: Served,
) -> None:
    result = await served.call("get_item", {"id": ""})
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("missing required argument 'id'")
    assert served.api.requests == []


def test_smoke_cases_fill_every_path_segment(served: Served) -> None:
    [name] = [f for f in served.generation.files if f.endswith("tests/smoke_cases.json")]
    cases = {case["tool"]: case for case in json.loads(served.generation.files[name])["tools"]}
    # a required path array gets an item (an empty array would leave its segment empty)
    assert cases["array_in_path"]["arguments"] == {"ids": ["string"]}
    assert cases["string_empty"]["arguments"] == {"stringPath": ""}
    assert cases["string_empty"]["expect"]["path"] == "/paths/string/empty/"
    assert "disable_plugin" not in cases


def test_a_path_parameter_nothing_can_fill_is_a_warning_naming_the_operation(
    served: Served,
) -> None:
    found = [d for d in served.generation.report.warnings if d.code == "path-value-empty-only"]
    assert [(d.pointer, d.message) for d in found] == [
        (
            "#/paths/~1plugins~1{version}~1disable/post",
            "a path parameter of disable_plugin admits no value that fills its segment (e.g. an "
            "object whose properties are all read-only): the server will refuse every call",
        )
    ]


@pytest.mark.slow
def test_the_generated_tests_pass_offline_trace_included(tmp_path: Path, served: Served) -> None:
    out = tmp_path / "package"
    write_tree(served.generation.files, out, force=False, marker=MARKER)
    done = run_package_tests_offline(out, tmp_path, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    # four tools called (the fifth can never be), and the listing
    summary = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"5 passed in [0-9.]+s( \(.*\))?", summary), summary
