"""Selections (``protocol/projection.py``) and the results they give (``results.tool_result``).

The exact text and structured content of a few expressions, what the output schema advertises so
that a selection's structured content still conforms, and every way a selection fails: malformed,
not applicable to the response, too costly, a response that is not JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from templates.runtime.jsonschema import Validator
from templates.runtime.protocol.projection import (
    MAX_EXPRESSION,
    MAX_STEPS,
    SelectionError,
    argument_name,
    compile_selection,
    example,
    selectable,
    selected_output,
    with_select,
)
from templates.runtime.protocol.results import ResultLimits, tool_result
from templates.runtime.upstream.client import UpstreamResponse

ROOT = Path(__file__).resolve().parents[3]
PETS = [
    {"id": 1, "name": "Rex", "tags": [{"name": "friendly"}], "status": "available"},
    {"id": 2, "name": "Tom", "tags": [], "status": "sold"},
]
PET = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
PET_LIST = {"type": "array", "items": {"$ref": "#/$defs/Pet"}, "$defs": {"Pet": PET}}


def response(
    body: Any, content_type: str = "application/json", status: int = 200
) -> UpstreamResponse:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return UpstreamResponse(status, "OK", content_type, raw, "https://api.example.com/pets")


def select(expression: str) -> Any:
    return compile_selection("_select", expression)


def text(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


# -- results -------------------------------------------------------------------------------------


def test_an_array_response_gives_the_selected_fields_as_text_and_structured_content() -> None:
    result = tool_result(
        response(PETS), Validator(PET_LIST), select=select("[].{id: id, name: name}")
    )
    assert result == {
        "resultType": "complete",
        "content": [text('[{"id":1,"name":"Rex"},{"id":2,"name":"Tom"}]')],
        "structuredContent": [{"id": 1, "name": "Rex"}, {"id": 2, "name": "Tom"}],
    }


def test_a_value_picked_from_an_object_response_comes_under_result() -> None:
    result = tool_result(response(PETS[0]), Validator(PET), select=select("tags[].name"))
    assert result == {
        "resultType": "complete",
        "content": [text('["friendly"]')],
        "structuredContent": {"result": ["friendly"]},
    }
    picked = tool_result(response(PETS[0]), Validator(PET), select=select("{n: name}"))
    assert picked["structuredContent"] == {"n": "Rex"}


def test_without_an_output_schema_the_selection_is_text_only() -> None:
    result = tool_result(response(PETS), None, select=select("[?status=='sold'].name | [0]"))
    assert result == {"resultType": "complete", "content": [text('"Tom"')]}


def test_a_selection_that_picks_nothing_says_what_the_response_holds() -> None:
    result = tool_result(response(PETS), Validator(PET_LIST), select=select("[].nmae"))
    assert result == {
        "resultType": "complete",
        "content": [
            text("[]"),
            text(
                "[The selection picked nothing: JMESPath gives null for a name the response does "
                "not have, and leaves it out of a list. The response is an array of 2 items, the "
                'first with the fields "id", "name", "tags", "status".]'
            ),
        ],
        "structuredContent": [],
    }
    missing = tool_result(response(PETS[0]), Validator(PET), select=select("owner"))
    assert missing["content"][0] == text("null")
    assert missing["structuredContent"] == {"result": None}
    # no misspelt name: the list it picks from is empty (ZenML's tags, none of that name)
    page = {"index": 1, "items": [], "total": 0}
    nothing = tool_result(response(page), None, select=select("items[].name"))
    assert nothing["content"] == [
        text("[]"),
        text('[The selection picked nothing: the response\'s lists are empty ("items").]'),
    ]


def test_a_selection_of_a_field_that_holds_null_says_so() -> None:
    # Airflow 3's dag run with its note cleared: the field is there, its value null
    run = {"dag_run_id": "r1", "note": None, "state": "success"}
    result = tool_result(response(run), None, select=select("note"))
    assert result["content"] == [
        text("null"),
        text('[The selection picked nothing: the response\'s "note" holds null.]'),
    ]
    runs = [{"id": 1, "note": None}, {"id": 2, "note": None, "tags": None}]
    listed = tool_result(response(runs), None, select=select("[].[note, tags][]"))
    assert listed["content"] == [
        text("[]"),
        text('[The selection picked nothing: the response\'s "note", "tags" hold null.]'),
    ]


def test_a_selection_that_cannot_be_applied_leaves_the_answer_whole_and_says_why() -> None:
    # the call went through (ArchiveBox's crawl, asked length(snapshots) of a null): never an
    # error, which a model would take for a failed call and repeat
    result = tool_result(response(PETS[0]), Validator(PET), select=select("length(id)"))
    assert result == {
        "resultType": "complete",
        "content": [
            text('{"id":1,"name":"Rex","tags":[{"name":"friendly"}],"status":"available"}'),
            text(
                "[_select could not be applied: In function length(), invalid type for value: 1,"
                " expected one of: ['string', 'array', 'object'], received: \"number\". The"
                " whole response is shown; call again with another expression for less.]"
            ),
        ],
        "structuredContent": PETS[0],
    }


def test_an_expression_that_multiplies_its_input_stops_after_its_steps() -> None:
    bomb = select("@" + "[].[@, @, @, @][]" * 20)
    result = tool_result(response([1, 2]), None, select=bomb)
    assert "isError" not in result
    assert result["content"][0] == text("[1,2]")
    assert f"it takes more than {MAX_STEPS} steps on this response" in result["content"][1]["text"]


def test_a_response_that_is_not_json_comes_as_it_is_with_a_note() -> None:
    result = tool_result(response(b"name,id\nRex,1\n", "text/csv"), None, select=select("name"))
    assert result == {
        "resultType": "complete",
        "content": [
            text("name,id\nRex,1\n"),
            text("[_select was not applied: the API answered with text/csv, not JSON.]"),
        ],
    }
    empty = tool_result(response(b"", status=204), None, select=select("name"))
    assert empty["content"] == [
        text("HTTP 204 OK"),
        text("[_select was not applied: there is no body.]"),
    ]


def test_the_result_budget_applies_to_the_selection() -> None:
    many = [{"id": i, "name": f"pet {i}", "notes": "x" * 50} for i in range(200)]
    limits = ResultLimits(max_text_chars=1500, setting="PETSTORE_MAX_RESULT_CHARS")
    result = tool_result(
        response(many), Validator(PET_LIST), limits, select=select("[].{id: id, name: name}")
    )
    shown, note = (block["text"] for block in result["content"])
    assert len(shown) + len(json.dumps(result["structuredContent"])) + len(note) <= 1500
    assert json.loads(shown)[:2] == [{"id": 0, "name": "pet 0"}, {"id": 1, "name": "pet 1"}]
    assert "notes" not in shown
    selected = [{"id": pet["id"], "name": pet["name"]} for pet in many]
    size = len(json.dumps(selected, separators=(",", ":")))
    assert note.startswith(f"[cut to fit: the selection has {size} characters; shown: the first ")
    assert note.endswith(
        "This server returns at most 1500 characters per result (its operator can raise that "
        "with PETSTORE_MAX_RESULT_CHARS). A narrower _select returns less.]"
    )
    assert result["structuredContent"] == json.loads(shown)


def test_without_a_selection_nothing_changes() -> None:
    result = tool_result(response(PETS[0]), Validator(PET))
    assert result["structuredContent"] == PETS[0]


# -- compiling -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        (
            "items[",
            "is not a valid JMESPath expression: Invalid jmespath expression: Incomplete "
            'expression: "items[" ^',
        ),
        ("foo(@)", "is not a valid JMESPath expression: unknown function foo()"),
        ("length(@, @)", "is not a valid JMESPath expression: length() takes 1 argument(s), not 2"),
        ("  ", "is empty"),
        (7, "must be a string (a JMESPath expression)"),
        ("a" * (MAX_EXPRESSION + 1), f"is longer than {MAX_EXPRESSION} characters"),
    ],
)
def test_a_malformed_expression_is_refused_with_the_jmespath_error(
    expression: Any, message: str
) -> None:
    with pytest.raises(SelectionError) as caught:
        compile_selection("_select", expression).apply({})
    assert str(caught.value) == message


def test_the_server_imports_jmespath_only_for_a_call_that_selects() -> None:
    code = (
        "import sys; import templates.runtime.server, templates.runtime.protocol.dynamic; "
        "print('jmespath' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout == "False\n"


# -- what the tools advertise ----------------------------------------------------------------------


def test_an_object_output_schema_keeps_its_root_and_gains_any_object() -> None:
    documented = {"$schema": "https://json-schema.org/draft/2020-12/schema", **PET}
    assert selected_output(documented) == {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "anyOf": [
            PET,
            {
                "type": "object",
                "description": 'What a selection picked ({"result": value} for a non-object)',
            },
        ],
    }


def test_an_array_output_schema_gains_any_value_and_keeps_its_defs_at_the_root() -> None:
    advertised = selected_output(PET_LIST)
    assert advertised == {
        "anyOf": [
            {"type": "array", "items": {"$ref": "#/$defs/Pet"}},
            {
                "description": "What a selection picked",
                "anyOf": [
                    {"type": "object"},
                    {"type": "array"},
                    {"type": "string"},
                    {"type": "number"},
                    {"type": "boolean"},
                    {"type": "null"},
                ],
            },
        ],
        "$defs": {"Pet": PET},
    }
    checker = Validator(advertised)
    assert checker.issues(PETS) == []
    assert checker.issues(["Rex", 3, None]) == []
    assert selected_output(None) is None


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (PET_LIST, "[].{id: id, name: name}"),
        (PET, "{id: id, name: name}"),
        (
            {
                "type": "object",
                "properties": {
                    "total_count": {"type": "integer"},
                    "items": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "html_url": {"type": "string"},
                                "title": {"type": "string"},
                                "number": {"type": "integer"},
                            },
                        },
                    },
                },
            },
            "items[].{title: title, number: number}",
        ),
        ({"type": "object", "additionalProperties": {"type": "integer"}}, "keys(@)"),
        ({"type": "array", "items": {"type": "string"}}, "[:5]"),
        (None, ""),  # the shape is not known: description_line shows both forms
    ],
)
def test_the_example_fits_the_output_schema(schema: Any, expected: str) -> None:
    assert example(schema) == expected


def test_a_read_tool_lists_the_argument_and_says_what_it_does() -> None:
    tool = {
        "name": "list_pets",
        "title": "List pets",
        "inputSchema": {
            "type": "object",
            "properties": {"limit": {"type": "integer"}},
            "additionalProperties": False,
            "$defs": {"X": {}},
        },
        "annotations": {"readOnlyHint": True},
    }
    taking = with_select(tool, "_select", PET_LIST)
    assert list(taking) == ["name", "title", "description", "inputSchema", "annotations"]
    assert taking["description"] == (
        "Optional `_select`: a JMESPath expression picking what to return from the JSON "
        "response, e.g. `[].{id: id, name: name}`."
    )
    schema = taking["inputSchema"]
    assert list(schema) == ["type", "properties", "additionalProperties", "$defs"]
    assert list(schema["properties"]) == ["limit", "_select"]
    assert schema["properties"]["_select"]["type"] == "string"
    described = with_select({**tool, "description": "Lists."}, "_select", None)
    assert described["description"].startswith("Lists.\n\nOptional `_select`: a JMESPath")


def test_the_argument_name_avoids_the_apis_own_arguments() -> None:
    assert argument_name(["limit", "select", "$select"]) == "_select"
    assert argument_name(["_select"]) == "_jmespath"
    assert argument_name(["_select", "_jmespath"]) == ""


@pytest.mark.parametrize(
    ("read_only", "method", "media", "expected"),
    [
        (True, "GET", "application/json", True),
        (True, "POST", "application/vnd.github+json; charset=utf-8", True),
        (True, "GET", "application/x-ndjson", True),
        (True, "GET", "", True),
        (True, "GET", "text/csv", False),
        (True, "HEAD", "application/json", False),
        (False, "DELETE", "application/json", False),
    ],
)
def test_which_tools_take_a_selection(
    read_only: bool, method: str, media: str, expected: bool
) -> None:
    assert selectable(read_only, method, media) is expected
