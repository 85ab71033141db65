"""Overlay 1.0 actions and the JSONPath subset they use."""

from __future__ import annotations

from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.load.overlay import JsonPathError, apply_overlay, parse_overlay, select

DOC: dict[str, Any] = {
    "openapi": "3.0.3",
    "tags": [{"name": "pets"}],
    "paths": {
        "/pets": {
            "get": {"operationId": "listPets", "tags": ["pets"]},
            "post": {"operationId": "createPet", "tags": ["pets"], "deprecated": True},
        },
        "/admin": {"delete": {"operationId": "wipe", "tags": ["admin"]}},
    },
}


def overlay(*actions: dict[str, Any]) -> dict[str, Any]:
    return {"overlay": "1.0.0", "info": {"title": "o", "version": "1"}, "actions": list(actions)}


def run(*actions: dict[str, Any]) -> tuple[dict[str, Any], Report]:
    report = Report()
    parsed = parse_overlay(overlay(*actions), report, name="o.yaml")
    assert parsed is not None
    return apply_overlay(DOC, parsed, report), report


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("$.paths['/pets'].get.operationId", ["listPets"]),
        ("$.paths.*.*.operationId", ["listPets", "createPet", "wipe"]),
        ("$..operationId", ["listPets", "createPet", "wipe"]),
        ("$.paths['/pets'][?@.deprecated == true].operationId", ["createPet"]),
        ("$.paths.*[?(@.deprecated)].operationId", ["createPet"]),
        ("$.paths.*[?@.operationId != 'listPets' && @.tags].operationId", ["createPet", "wipe"]),
        ("$.tags[0].name", ["pets"]),
        ("$.tags[5]", []),
    ],
)
def test_jsonpath_subset(path: str, expected: list[str]) -> None:
    assert [container[key] for container, key in select(DOC, path)] == expected


@pytest.mark.parametrize("path", ["paths", "$.paths[?@.x ~ 1]", "$.[", "$.paths['/pets'"])
def test_unsupported_paths_are_errors(path: str) -> None:
    with pytest.raises(JsonPathError):
        select(DOC, path)


def test_update_merges_objects_and_leaves_the_input_alone() -> None:
    result, report = run(
        {
            "target": "$.paths['/pets'].get",
            "update": {"x-mcp": {"name": "pets"}, "summary": "All pets"},
        }
    )
    assert result["paths"]["/pets"]["get"] == {
        "operationId": "listPets",
        "tags": ["pets"],
        "x-mcp": {"name": "pets"},
        "summary": "All pets",
    }
    assert "x-mcp" not in DOC["paths"]["/pets"]["get"]
    assert report.diagnostics == []


def test_update_appends_to_arrays_and_remove_deletes() -> None:
    result, _ = run(
        {"target": "$.tags", "update": [{"name": "store"}]},
        {"target": "$.paths['/admin']", "remove": True},
        {"target": "$.paths.*[?@.deprecated == true]", "remove": True},
    )
    assert result["tags"] == [{"name": "pets"}, {"name": "store"}]
    assert list(result["paths"]) == ["/pets"]
    assert list(result["paths"]["/pets"]) == ["get"]


def test_problems_are_diagnostics_not_crashes() -> None:
    result, report = run(
        {"target": "$.paths['/nope']", "update": {"x": 1}},
        {"target": "nope", "update": {}},
        {"target": "$.tags"},
        {"update": {}},
    )
    assert result == DOC
    assert [d.code for d in report.diagnostics] == [
        "overlay-target-empty",
        "overlay-target-invalid",
        "overlay-action-empty",
        "overlay-action-invalid",
    ]


def test_not_an_overlay_is_an_error() -> None:
    report = Report()
    assert parse_overlay({"openapi": "3.0.0"}, report, name="x.yaml") is None
    assert report.errors[0].code == "overlay-invalid" and "x.yaml" in report.errors[0].message
