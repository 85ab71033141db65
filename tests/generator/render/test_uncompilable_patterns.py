"""Patterns the generated server's validator refuses no longer cost whole operations.

Open WebUI's spec (FastAPI, pydantic) names the keys of ``ModelParams.model_controls`` by a
``patternProperties`` key written for Python's ``re``: a negative lookahead (which the server's
linear-time engine refuses) and ``\\Z`` (Python's end of input, which ECMA-262 does not have). Its
create, update and sync operations were skipped and eight tools lost their output schema. Now the
entry is left out with a warning naming where it was, an ``additionalProperties: false`` beside it
takes what the entry admitted (valid data is never refused), and a pattern whose only fault is a
Python anchor is published as its ECMA-262 equivalent and still checked.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, Generation, generate
from openapi2mcp.render.runtime_schema import compilable, validates
from tests.catalogs import catalog_from_files

# as Open WebUI writes it (pydantic's patternProperties for a dict with constrained keys)
WEBUI_KEY = r"^(?!(?:constructor|prototype)\Z)[a-zA-Z][a-zA-Z0-9_-]*\Z"
CONTROL = {"type": "object", "properties": {"hidden": {"type": "boolean"}}}
PARAMS = {
    "type": "object",
    "title": "ModelParams",
    "properties": {
        "model_controls": {
            "anyOf": [
                {"type": "object", "patternProperties": {WEBUI_KEY: CONTROL}},
                {"type": "null"},
            ]
        },
        "system": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    "additionalProperties": True,
}
MODEL = {
    "type": "object",
    "required": ["id", "params"],
    "properties": {"id": {"type": "string"}, "params": {"$ref": "#/components/schemas/Params"}},
}


def _ok(schema: dict[str, Any]) -> dict[str, Any]:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


NULLABLE_MODEL = {"anyOf": [{"$ref": "#/components/schemas/Model"}, {"type": "null"}]}
SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Open WebUI", "version": "1"},
    "servers": [{"url": "https://webui.example.com"}],
    "paths": {
        "/api/v1/models/create": {
            "post": {
                "operationId": "create_new_model_api_v1_models_create_post",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Model"}}
                    },
                },
                "responses": _ok(NULLABLE_MODEL),
            }
        },
        "/api/v1/models/model": {
            "get": {
                "operationId": "get_model_by_id_api_v1_models_model_get",
                "parameters": [
                    {"name": "id", "in": "query", "required": True, "schema": {"type": "string"}}
                ],
                "responses": _ok(NULLABLE_MODEL),
            }
        },
    },
    "components": {"schemas": {"Params": PARAMS, "Model": MODEL}},
}


@pytest.fixture(scope="module")
def generation(tmp_path_factory: pytest.TempPathFactory) -> Generation:
    spec = tmp_path_factory.mktemp("webui") / "openapi.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    return generate(str(spec), GenerateOptions())


def _tools(generation: Generation) -> dict[str, dict[str, Any]]:
    files = generation.files
    path = next(p for p in files if p.endswith("catalog.json"))
    return {tool["name"]: tool for tool in catalog_from_files(files, path)["tools"]}


def test_an_uncompilable_pattern_properties_key_keeps_the_operation(
    generation: Generation,
) -> None:
    tools = _tools(generation)
    assert {"create_new_model", "get_model_by_id"} <= set(tools)
    assert "outputSchema" in tools["get_model_by_id"]
    assert "outputSchema" in tools["create_new_model"]
    params = tools["create_new_model"]["inputSchema"]["$defs"]["Params"]
    controls = params["properties"]["model_controls"]["anyOf"][0]
    assert controls == {"type": "object"}
    warnings = [d for d in generation.report.diagnostics if d.code == "schema-uncompilable"]
    assert warnings, generation.report.diagnostics
    assert all(d.level == "warning" for d in warnings)
    assert not any("skipped" in d.message or "no output schema" in d.message for d in warnings)
    pointer = "#/$defs/Params/properties/model_controls/anyOf/0/patternProperties/"
    [create] = [d for d in warnings if "input schema of tool 'create_new_model'" in d.message]
    assert create.pointer == "#/paths/~1api~1v1~1models~1create/post"
    assert f"the patternProperties entry at {pointer}" in create.message
    assert "names it matched are no longer checked against its schema" in create.message


def test_a_dropped_key_loosens_additional_properties_false_to_what_it_admitted() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "patternProperties": {"^(?!x)[a-z]+$": {"type": "integer"}},
        "additionalProperties": False,
    }
    report = Report()
    repaired = compilable(
        schema, "#/paths/~1a/get", "input schema of tool 'a'", report, otherwise=""
    )
    assert repaired == {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "additionalProperties": {"type": "integer"},
    }
    assert validates(repaired, {"name": "n", "count": 3})  # the pattern admitted "count"
    assert not validates(repaired, {"count": "three"})  # and its schema still holds for it
    [warning] = report.diagnostics
    assert "additionalProperties now takes what it admitted" in warning.message


def test_a_dropped_key_widens_an_additional_properties_schema() -> None:
    schema = {
        "type": "object",
        "patternProperties": {"^(?!x)[a-z]+$": {"type": "integer"}},
        "additionalProperties": {"type": "string"},
    }
    repaired = compilable(schema, "#", "output schema of tool 'a'", Report(), otherwise="")
    assert repaired == {
        "type": "object",
        "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    }
    assert validates(repaired, {"count": 3, "label": "x"})


def test_a_python_end_anchor_is_published_as_ecma_and_still_checked() -> None:
    """pydantic writes Python's ``\\Z``; ECMA-262's ``$`` (no ``m`` flag) is the same anchor."""
    schema = {
        "type": "object",
        "properties": {
            "slug": {"type": "string", "pattern": r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z"},
            "names": {"type": "object", "patternProperties": {r"^[a-z]+\Z": {"type": "string"}}},
            "escaped": {"type": "string", "pattern": r"^a\\Z$"},
        },
    }
    report = Report()
    repaired = compilable(
        schema, "#/paths/~1a/post", "input schema of tool 'a'", report, otherwise=""
    )
    assert repaired is not None
    assert repaired["properties"]["slug"]["pattern"] == r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
    assert list(repaired["properties"]["names"]["patternProperties"]) == [r"^[a-z]+$"]
    assert repaired["properties"]["escaped"] == schema["properties"]["escaped"]
    assert validates(repaired, {"slug": "blue-shoe", "names": {"ab": "x"}})
    assert not validates(repaired, {"slug": "blue-shoe\n"})
    assert not validates(repaired, {"names": {"ab": 1}})
    assert [(d.code, d.level) for d in report.diagnostics] == [
        ("schema-pattern-rewritten", "info")
    ] * 2
    assert (
        "the input schema of tool 'a' has a pattern written for Python's re "
        r"('\A[a-z0-9]+(?:-[a-z0-9]+)*\Z' at #/properties/slug/pattern); it is published as its "
        r"ECMA-262 equivalent '^[a-z0-9]+(?:-[a-z0-9]+)*$'"
    ) in [d.message for d in report.diagnostics]


def test_a_lookahead_stays_out_however_its_anchors_are_written() -> None:
    """The server matches patterns in linear time, which refuses lookaround: rewriting ``\\Z``
    does not save the Open WebUI key, and the one warning names the key as the spec writes it."""
    schema = {"type": "object", "patternProperties": {WEBUI_KEY: CONTROL}}
    report = Report()
    assert compilable(schema, "#", "input schema of tool 'a'", report, otherwise="") == {
        "type": "object"
    }
    [warning] = report.diagnostics
    assert warning.code == "schema-uncompilable"
    assert f"the patternProperties entry at #/patternProperties/{WEBUI_KEY} is left out" in (
        warning.message
    )
