"""Enum values written in another type than their schema's (seen in Zoom's description).

Regression: ``tspId: {type: string, enum: [1, 2]}`` admits no value at all (``1`` is no string,
``"1"`` is not in the enum), so the tool could never be called and its smoke test was skipped. Such
values are read in the schema's type when nothing is lost, with an ``enum-type-mismatch`` warning at
the enum's JSON pointer; a value that cannot be read so (``"abc"`` as an integer) is left alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.ir.schemas import SchemaNormaliser
from openapi2mcp.load.reading import LoadedDocument
from openapi2mcp.load.refs import ROOT, Resolver


def _normalise(schema: Any) -> tuple[Any, Report]:
    doc = LoadedDocument(
        data={"openapi": "3.1.0", "components": {"schemas": {}}},
        raw=b"",
        base_dir=None,
        name="<test>",
        sha256="",
    )
    report = Report()
    return SchemaNormaliser(Resolver(doc, report)).normalise(schema, ROOT, "input"), report


@pytest.mark.parametrize(
    ("schema", "enum"),
    [
        ({"type": "string", "enum": [1, 2]}, ["1", "2"]),
        ({"type": "string", "enum": ["a", 1.5]}, ["a", "1.5"]),
        ({"type": "integer", "enum": ["1", "20", 3]}, [1, 20, 3]),
        ({"type": "number", "enum": ["0.5", 2]}, [0.5, 2]),
        ({"type": "string", "enum": [1, "1"]}, ["1"]),
    ],
)
def test_enum_values_are_read_in_the_schemas_type(schema: Any, enum: list[Any]) -> None:
    normalised, report = _normalise(schema)
    assert normalised["enum"] == enum
    [warning] = [d for d in report.warnings if d.code == "enum-type-mismatch"]
    assert warning.pointer == "#/enum"


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "enum": ["a", "b"]},
        {"type": "integer", "enum": [1, 2]},
        {"type": "integer", "enum": ["abc"]},
        {"type": "boolean", "enum": [True]},
        {"enum": [1, "a"]},
        {"type": ["string", "null"], "enum": ["a", None]},
    ],
)
def test_enum_values_of_the_schemas_type_or_unreadable_stay_as_written(schema: Any) -> None:
    normalised, report = _normalise(schema)
    assert normalised["enum"] == schema["enum"]
    assert not [d for d in report.warnings if d.code == "enum-type-mismatch"]


def test_a_tool_with_such_a_path_parameter_can_be_called_and_is_smoke_tested(
    tmp_path: Path,
) -> None:
    spec = {
        "openapi": "3.0.0",
        "info": {"title": "Meetings", "version": "1"},
        "servers": [{"url": "https://meetings.example"}],
        "paths": {
            "/users/{userId}/tsp/{tspId}": {
                "get": {
                    "operationId": "userTsp",
                    "parameters": [
                        {
                            "name": "userId",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "tspId",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string", "enum": [1, 2]},
                        },
                    ],
                    "responses": {"204": {"description": "ok"}},
                }
            }
        },
    }
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(spec), "utf-8")
    generation = generate(str(path), GenerateOptions())
    [warning] = [d for d in generation.report.warnings if d.code == "enum-type-mismatch"]
    assert warning.pointer == "#/paths/~1users~1{userId}~1tsp~1{tspId}/get/parameters/1/schema/enum"
    [name] = [f for f in generation.files if f.endswith("tests/smoke_cases.json")]
    [case] = json.loads(generation.files[name])["tools"]
    assert case["arguments"] == {"userId": "string", "tspId": "1"}
    assert case["expect"]["path"] == "/users/string/tsp/1"
