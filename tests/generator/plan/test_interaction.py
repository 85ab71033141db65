"""Declared questions (``x-mcp: {elicit}``) and confirmation (``x-mcp: {confirm}``, ``[elicitation]``).

What the generator puts in the catalog for the runtime, and the diagnostics that name the JSON pointer
of a declaration it leaves out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.render.catalog import build_catalog

BASE: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Pets", "version": "1.0.0"},
    "servers": [{"url": "https://pets.example/v1"}],
    "paths": {
        "/pets": {
            "get": {
                "operationId": "listPets",
                "parameters": [
                    {"name": "status", "in": "query", "schema": {"type": "string"}},
                    {"name": "X-Api-Key", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "ok"}},
            },
            "post": {
                "operationId": "createPet",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {"name": {"type": "string"}},
                            }
                        }
                    },
                },
                "responses": {"201": {"description": "created"}},
            },
        },
        "/pets/{petId}": {
            "delete": {
                "operationId": "deletePet",
                "parameters": [
                    {"name": "petId", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "responses": {"204": {"description": "gone"}},
            }
        },
    },
}
QUESTION = {
    "key": "which",
    "message": "Which status?",
    "fields": {"status": {"type": "string", "enum": ["available", "sold"]}},
}


def catalog_for(
    tmp_path: Path, x_mcp: dict[str, dict[str, Any]], config: str = ""
) -> tuple[dict[str, Any], Report]:
    spec = json.loads(json.dumps(BASE))
    for pointer, extension in x_mcp.items():
        path, method = pointer.rsplit(" ", 1)
        spec["paths"][path][method]["x-mcp"] = extension
    source = tmp_path / "openapi.yaml"
    source.write_text(yaml.safe_dump(spec), encoding="utf-8")
    if config:
        (tmp_path / "openapi2mcp.toml").write_text(config, encoding="utf-8")
    plan, report = plan_source(str(source), GenerateOptions())
    return build_catalog(plan, report), report


def warnings(report: Report) -> list[tuple[str, str]]:
    return [
        (d.pointer, d.message) for d in report.warnings if "elicit" in d.code or "x-mcp" in d.code
    ]


def test_declared_question_reaches_the_catalog(tmp_path: Path) -> None:
    catalog, report = catalog_for(tmp_path, {"/pets get": {"elicit": [QUESTION]}})
    assert catalog["toolBindings"]["list_pets"]["interaction"] == {
        "ask": [
            {
                "key": "which",
                "message": "Which status?",
                "fields": {"status": {"type": "string", "enum": ["available", "sold"]}},
                "required": ["status"],
            }
        ]
    }
    assert "interaction" not in catalog["toolBindings"]["create_pet"]
    assert catalog["interaction"] == {"confirm": "off", "elicitMissing": True}
    assert warnings(report) == []


ELICIT_AT = "#/paths/~1pets/get/x-mcp/elicit/0"


@pytest.mark.parametrize(
    ("question", "where", "says"),
    [
        ({**QUESTION, "key": "confirm"}, "/key", "not missing_arguments or confirm"),
        ({**QUESTION, "key": "two words"}, "/key", "key must be"),
        ({**QUESTION, "fields": {"status": {"type": "object"}}}, "/fields/status", "type must be"),
        (
            {**QUESTION, "fields": {"status": {"type": "string", "pattern": "x"}}},
            "/fields/status",
            "cannot have pattern",
        ),
        ({**QUESTION, "fields": {"colour": {"type": "string"}}}, "/fields/colour", "no argument"),
        ({**QUESTION, "maps_to": "nope"}, "/maps_to", "names no argument"),
        (
            {**QUESTION, "fields": {"key": {"type": "string"}}, "maps_to": "X-Api-Key"},
            "",
            "never ask the user for credentials",
        ),
        (
            {"key": "s", "method": "sampling/createMessage", "maps_to": "status"},
            "/prompt",
            "prompt",
        ),
        ({**QUESTION, "method": "tasks/get"}, "/method", "method must be"),
        ({**QUESTION, "round": 0}, "/round", "positive integer"),
    ],
)
def test_a_bad_question_is_left_out_with_its_pointer(
    tmp_path: Path, question: dict[str, Any], where: str, says: str
) -> None:
    catalog, report = catalog_for(tmp_path, {"/pets get": {"elicit": [question]}})
    assert "interaction" not in catalog["toolBindings"]["list_pets"]
    ((pointer, message),) = warnings(report)
    assert pointer == ELICIT_AT + where
    assert says in message


def test_duplicate_keys_keep_the_first(tmp_path: Path) -> None:
    catalog, report = catalog_for(tmp_path, {"/pets get": {"elicit": [QUESTION, QUESTION]}})
    assert len(catalog["toolBindings"]["list_pets"]["interaction"]["ask"]) == 1
    assert warnings(report) == [
        ("#/paths/~1pets/get/x-mcp/elicit/1/key", "duplicate key; left out")
    ]


def test_confirm_in_the_spec_and_the_config_file_which_wins(tmp_path: Path) -> None:
    config = """
[elicitation]
confirm = "destructive"
missing_arguments = false
[elicitation.tools]
createPet = "when-supported"
"""
    catalog, _ = catalog_for(
        tmp_path,
        {"/pets/{petId} delete": {"confirm": False}, "/pets post": {"confirm": True}},
        config,
    )
    assert catalog["interaction"] == {"confirm": "destructive", "elicitMissing": False}
    assert catalog["toolBindings"]["delete_pet"]["interaction"] == {"confirm": "off"}
    # the config file beats x-mcp
    assert catalog["toolBindings"]["create_pet"]["interaction"] == {"confirm": "when-supported"}


def test_bad_confirm_values_are_named(tmp_path: Path) -> None:
    catalog, report = catalog_for(tmp_path, {"/pets post": {"confirm": "sometimes"}})
    assert "interaction" not in catalog["toolBindings"]["create_pet"]
    assert warnings(report) == [
        (
            "#/paths/~1pets/post/x-mcp/confirm",
            'confirm must be true, false or "when-supported"; ignored',
        )
    ]
    config = '[elicitation]\nconfirm = "often"\n'
    with pytest.raises(Exception, match=r"elicitation\.confirm"):
        catalog_for(tmp_path, {}, config)
