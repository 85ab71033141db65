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
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.e2e.helpers import Served
from tests.kit.offline import run_package_tests_offline

OK = {"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}
HREF = {"in": "path", "name": "task_href", "schema": {"type": "string"}, "required": True}
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
        # Pulp's drf-spectacular document: the path is the href a response gave
        "{task_href}": {
            "get": {"operationId": "tasks_read", "parameters": [HREF], "responses": OK}
        },
        "{task_href}cancel/": {
            "post": {"operationId": "tasks_cancel", "parameters": [HREF], "responses": OK}
        },
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
    # said as it is: given, and empty (Feast's get_entity {"name": ""} was "missing")
    assert result["content"][0]["text"] == ("argument 'id' is empty: a path segment needs a value")
    assert served.api.requests == []


async def test_a_path_that_starts_with_a_parameter_takes_an_href_whole(served: Served) -> None:
    """Pulp's drf-spectacular document keys 156 of its 216 paths as ``{task_href}`` or
    ``{task_href}cancel/``: the parameter is the href a response gave. It had been taken as one
    segment after a ``/`` added in front (``//pulp%2Fapi%2F...``): every such call missed."""
    href = "/pulp/api/v3/tasks/01a2-3f/"
    await served.call("tasks_read", {"task_href": href})
    await served.call("tasks_cancel", {"task_href": href})
    # an href given without its last slash still ends before what the path adds
    await served.call("tasks_cancel", {"task_href": href.rstrip("/")})
    # what is no path of its own is still encoded: a query, a fragment, a space, a lone "%"
    await served.call("tasks_read", {"task_href": "/a b/50%/c?x=1#y"})
    assert [(r.method, r.target) for r in served.api.requests] == [
        ("GET", href),
        ("POST", href + "cancel/"),
        ("POST", href + "cancel/"),
        ("GET", "/a%20b/50%25/c%3Fx=1%23y"),
    ]


@pytest.mark.parametrize(
    ("href", "refusal"),
    [
        (
            "https://elsewhere.example/pulp/api/v3/tasks/1/",
            "argument 'task_href' is refused: it takes a path of the API (such as an href a "
            "response gave, '/…/'), not a URL",
        ),
        (
            "//elsewhere.example/tasks/1/",
            "argument 'task_href' is refused: it takes a path of the API (such as an href a "
            "response gave, '/…/'), not a URL",
        ),
        (
            "/pulp/api/v3/tasks/../users/",
            "argument 'task_href' is refused: the path contains '.' or '..', which could reach "
            "another path of the API",
        ),
        (
            "/pulp/api/v3/tasks/%2e%2e/users/",
            "argument 'task_href' is refused: the path contains '.' or '..', which could reach "
            "another path of the API",
        ),
        ("/", "argument 'task_href' takes a path of the API, such as an href a response gave"),
    ],
)
async def test_an_href_that_would_leave_the_api_is_refused_and_nothing_sent(
    served: Served, href: str, refusal: str
) -> None:
    result = await served.call("tasks_read", {"task_href": href})
    assert result["isError"] is True
    assert result["content"][0]["text"] == refusal
    assert served.api.requests == []


def test_an_href_path_is_said_and_is_no_resource_template(served: Served) -> None:
    tools = {t["name"]: t for t in served.catalog["tools"]}
    described = tools["tasks_read"]["inputSchema"]["properties"]["task_href"]["description"]
    assert described == (
        "A path of this API, as a response gave it (an href such as '/…/'): sent as is, slashes "
        "kept."
    )
    # "segments://{+task_href}" would match the URI of every other such template
    templates = [t["name"] for t in served.catalog["resourceTemplates"]]
    assert templates == ["string_empty", "get_item", "array_in_path"]
    report = served.generation.report.diagnostics
    infos = [(d.code, d.pointer) for d in report if d.level == "info" and "task" in d.pointer]
    assert ("path-key-whole-path", "#/paths/{task_href}") in infos
    assert not [d for d in served.generation.report.warnings if "task" in d.pointer]


def test_smoke_cases_fill_every_path_segment(served: Served) -> None:
    [name] = [f for f in served.generation.files if f.endswith("tests/smoke_cases.json")]
    cases = {case["tool"]: case for case in json.loads(served.generation.files[name])["tools"]}
    # a required path array gets an item (an empty array would leave its segment empty)
    assert cases["array_in_path"]["arguments"] == {"ids": ["string"]}
    assert cases["string_empty"]["arguments"] == {"stringPath": ""}
    assert cases["string_empty"]["expect"]["path"] == "/paths/string/empty/"
    assert cases["tasks_cancel"]["expect"]["path"] == "/string/cancel/"
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
    # six tools called (the seventh can never be), and the listing
    summary = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"7 passed in [0-9.]+s( \(.*\))?", summary), summary
