"""``x-mcp`` is checked where it is written, like the config file: an unknown key or a value of the wrong
type is a warning at its exact JSON pointer (an unknown key with the closest valid one), only that
value is dropped, and the rest of the object still applies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.ir.model import Operation
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.ir.x_mcp import XMcp, XMcpAnnotations
from openapi2mcp.load.reading import load_source
from openapi2mcp.plan.model import Annotations, ServerPlan
from openapi2mcp.render.catalog import build_catalog

LIST = {
    "operationId": "listPets",
    "summary": "List pets",
    "parameters": [{"name": "status", "in": "query", "schema": {"type": "string"}}],
    "responses": {
        "200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array"}}}}
    },
}
ADD = {"operationId": "addPet", "summary": "Add a pet", "responses": {"201": {"description": "ok"}}}


def document(
    root: Any = None, path_item: Any = None, get: Any = None, post: Any = None
) -> dict[str, Any]:
    """The pets API with the given ``x-mcp`` objects (``None``: none written there)."""
    item: dict[str, Any] = {"get": dict(LIST), "post": dict(ADD)}
    for owner, x_mcp in ((item, path_item), (item["get"], get), (item["post"], post)):
        if x_mcp is not None:
            owner["x-mcp"] = x_mcp
    spec: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1.0"},
        "servers": [{"url": "https://pets.example.com"}],
        "paths": {"/pets": item},
    }
    if root is not None:
        spec["x-mcp"] = root
    return spec


def write(tmp_path: Path, spec: dict[str, Any]) -> str:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return str(path)


def parsed(tmp_path: Path, spec: dict[str, Any]) -> tuple[dict[str, Operation], Report]:
    report = Report()
    api = parse_api(load_source(write(tmp_path, spec)), report)
    return {op.key: op for op in api.operations}, report


def planned(tmp_path: Path, spec: dict[str, Any]) -> tuple[ServerPlan, Report]:
    return plan_source(write(tmp_path, spec), GenerateOptions())


def x_mcp_lines(report: Report) -> list[str]:
    return [d.render() for d in report.diagnostics if d.code.startswith("x-mcp")]


def test_typos_in_an_operations_x_mcp_are_named_with_the_closest_key(tmp_path: Path) -> None:
    spec = document(get={"exlude": True, "kind": "resouce", "titel": "X"})
    plan, report = planned(tmp_path, spec)
    assert x_mcp_lines(report) == [
        "warning[x-mcp-invalid] at #/paths/~1pets/get/x-mcp/exlude: unknown key 'exlude'"
        " (did you mean 'exclude'?); ignored",
        "warning[x-mcp-invalid] at #/paths/~1pets/get/x-mcp/kind: kind must be tool, resource,"
        " resource_template or exclude; ignored",
        "warning[x-mcp-invalid] at #/paths/~1pets/get/x-mcp/titel: unknown key 'titel'"
        " (did you mean 'title'?); ignored",
    ]
    # nothing was understood, so the operation is placed and titled as if x-mcp were absent
    (decision,) = [d for d in plan.decisions if d.operation.key == "listPets"]
    assert (decision.kinds, decision.note) == (("tool", "resource"), "")
    assert decision.operation.x_mcp == XMcp()
    assert {tool.name: tool.title for tool in plan.tools}["list_pets"] == "List pets"


def test_a_bad_hint_is_dropped_and_the_other_overrides_still_apply(tmp_path: Path) -> None:
    annotations = {"destructiveHint": "maybe", "idempotentHint": True, "title": "Custom"}
    plan, report = planned(tmp_path, document(post={"annotations": annotations}))
    assert x_mcp_lines(report) == [
        "warning[x-mcp-invalid] at #/paths/~1pets/post/x-mcp/annotations/destructiveHint:"
        " annotations.destructiveHint must be true or false; ignored"
    ]
    tools = {tool.name: tool for tool in plan.tools}
    # POST's own hints (destructive, not idempotent) with the two valid overrides laid over them
    assert tools["add_pet"].annotations == Annotations(
        title="Custom", read_only=False, destructive=True, idempotent=True, open_world=True
    )
    assert tools["add_pet"].title == "Add a pet"
    op = tools["add_pet"].operation
    assert op.x_mcp == XMcp(annotations=XMcpAnnotations(idempotentHint=True, title="Custom"))
    # exactly what the same x-mcp without the bad hint gives
    clean, _ = planned(
        tmp_path, document(post={"annotations": {"idempotentHint": True, "title": "Custom"}})
    )
    assert {t.name: t.annotations for t in clean.tools} == {
        t.name: t.annotations for t in plan.tools
    }


def test_a_hint_given_as_a_string_is_not_read_as_a_boolean(tmp_path: Path) -> None:
    ops, report = parsed(tmp_path, document(post={"annotations": {"readOnlyHint": "true"}}))
    assert x_mcp_lines(report) == [
        "warning[x-mcp-invalid] at #/paths/~1pets/post/x-mcp/annotations/readOnlyHint:"
        " annotations.readOnlyHint must be true or false; ignored"
    ]
    assert ops["addPet"].x_mcp == XMcp(annotations=XMcpAnnotations())


@pytest.mark.parametrize(
    ("level", "pointer", "line"),
    [
        (
            "root",
            "#/x-mcp/strictOuput",
            "unknown key 'strictOuput' (did you mean 'strictOutput'?); ignored",
        ),
        (
            "path_item",
            "#/paths/~1pets/x-mcp/read_tol",
            "unknown key 'read_tol' (did you mean 'read_tool'?); ignored",
        ),
        (
            "get",
            "#/paths/~1pets/get/x-mcp/nmae",
            "unknown key 'nmae' (did you mean 'name'?); ignored",
        ),
        (
            "get",
            "#/paths/~1pets/get/x-mcp/annotations/readonlyHint",
            "unknown key 'annotations.readonlyHint' (did you mean 'readOnlyHint'?); ignored",
        ),
    ],
)
def test_an_unknown_key_is_named_at_its_level_and_the_rest_applies(
    tmp_path: Path, level: str, pointer: str, line: str
) -> None:
    key = pointer.rsplit("/", 1)[1]
    x_mcp: dict[str, Any] = {"kind": "tool"}
    if "annotations" in pointer:
        x_mcp["annotations"] = {key: True, "openWorldHint": False}
    else:
        x_mcp[key] = True
    plan, report = planned(tmp_path, document(**{level: x_mcp}))
    assert x_mcp_lines(report) == [f"warning[x-mcp-invalid] at {pointer}: {line}"]
    # the valid keys beside it still apply: kind tool keeps the GET from becoming a resource
    op = next(d.operation for d in plan.decisions if d.operation.key == "listPets")
    assert op.x_mcp.kind == "tool"
    assert plan.resources == () and plan.resource_templates == ()


def test_an_unknown_key_far_from_any_valid_one_gets_no_suggestion(tmp_path: Path) -> None:
    _, report = parsed(tmp_path, document(get={"zzz": 1}))
    assert x_mcp_lines(report) == [
        "warning[x-mcp-invalid] at #/paths/~1pets/get/x-mcp/zzz: unknown key 'zzz'; ignored"
    ]


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("name", 5, "name must be a string"),
        ("title", ["Pets"], "title must be a string"),
        ("description", {"text": "x"}, "description must be a string"),
        ("exclude", "yes", "exclude must be true or false"),
        ("kind", "resouce", "kind must be tool, resource, resource_template or exclude"),
        ("read_tool", 0, "read_tool must be true or false"),
        ("annotations", "readOnly", "annotations must be an object"),
        ("confirm", "sometimes", 'confirm must be true, false or "when-supported"'),
        ("elicit", {"key": "which"}, "elicit must be a list of questions"),
        ("strictOutput", 1, "strictOutput must be true or false"),
        ("deepObjectArrays", "squares", "deepObjectArrays must be indexed, brackets or repeat"),
    ],
)
def test_a_value_of_the_wrong_type_is_dropped_alone(
    tmp_path: Path, key: str, value: Any, says: str
) -> None:
    beside = {"title": "Kept"} if key != "title" else {"name": "kept"}
    ops, report = parsed(tmp_path, document(get={**beside, key: value}))
    assert x_mcp_lines(report) == [
        f"warning[x-mcp-invalid] at #/paths/~1pets/get/x-mcp/{key}: {says}; ignored"
    ]
    assert ops["listPets"].x_mcp == XMcp.model_validate(beside)
    assert set(ops["listPets"].x_mcp_origins) == set(beside)


def test_a_bad_default_does_not_hide_the_one_below_it(tmp_path: Path) -> None:
    spec = document(root={"kind": "tool"}, path_item={"kind": "tool-ish"})
    ops, report = parsed(tmp_path, spec)
    assert x_mcp_lines(report) == [
        "warning[x-mcp-invalid] at #/paths/~1pets/x-mcp/kind: kind must be tool, resource,"
        " resource_template or exclude; ignored"
    ]
    assert ops["listPets"].x_mcp == XMcp(kind="tool")
    assert dict(ops["listPets"].x_mcp_origins) == {"kind": "#/x-mcp"}


def test_prompts_belong_to_the_document_only(tmp_path: Path) -> None:
    prompt = {"name": "p", "template": "Hello"}
    ops, report = parsed(tmp_path, document(path_item={"prompts": [prompt], "exclude": True}))
    assert x_mcp_lines(report) == [
        "warning[x-mcp-invalid] at #/paths/~1pets/x-mcp/prompts: prompts can only be set on the"
        " document; ignored"
    ]
    assert ops["listPets"].x_mcp == XMcp(exclude=True)


def test_a_malformed_question_is_left_out_and_the_next_keeps_its_pointer(tmp_path: Path) -> None:
    good = {"key": "which", "message": "Which status?", "fields": {"status": {"type": "string"}}}
    elicit = [
        {**good, "key": "first", "mesage": "typo"},
        7,
        {**good, "key": "late", "round": "2"},
        good,
        {**good, "key": "other", "maps_to": "nope"},
    ]
    plan, report = planned(tmp_path, document(get={"elicit": elicit, "confirm": True}))
    catalog = build_catalog(plan, report)
    at = "#/paths/~1pets/get/x-mcp/elicit"
    assert x_mcp_lines(report) == [
        f"warning[x-mcp-elicit-invalid] at {at}/0/mesage: unknown key 'mesage'"
        " (did you mean 'message'?); question left out",
        f"warning[x-mcp-elicit-invalid] at {at}/1: a question must be an object; question left out",
        f"warning[x-mcp-elicit-invalid] at {at}/2/round: round must be a positive integer;"
        " question left out",
        # found by the planner, against the tool: the pointer is still the question's own
        f"warning[x-mcp-elicit-invalid] at {at}/4/maps_to: maps_to names no argument of this"
        " tool: 'nope'; question left out",
    ]
    assert catalog["toolBindings"]["list_pets"]["interaction"] == {
        "ask": [{**good, "required": ["status"]}],
        "confirm": "required",
    }


def test_valid_x_mcp_at_every_level_is_read_without_a_word(tmp_path: Path) -> None:
    spec = document(
        root={"strictOutput": True, "annotations": {"openWorldHint": False}},
        path_item={"deepObjectArrays": "brackets", "confirm": "when-supported"},
        get={
            "name": "pets",
            "title": "Pets",
            "description": "All pets.",
            "kind": "resource",
            "read_tool": False,
            "annotations": {"title": "Pets!"},
            "elicit": [{"key": "s", "method": "roots/list", "maps_to": "status"}],
        },
        post={"exclude": False, "confirm": False},
    )
    ops, report = parsed(tmp_path, spec)
    assert x_mcp_lines(report) == []
    get = ops["listPets"].x_mcp
    assert get.model_dump(exclude={"elicit"}) == {
        "name": "pets",
        "title": "Pets",
        "description": "All pets.",
        "exclude": None,
        "kind": "resource",
        "read_tool": False,
        "annotations": {
            "title": "Pets!",
            "read_only": None,
            "destructive": None,
            "idempotent": None,
            "open_world": False,
        },
        "confirm": "when-supported",
        "strict_output": True,
        "deep_object_arrays": "brackets",
    }
    assert get.elicit is not None
    assert [(q.key, q.method, q.maps_to, q.pointer) for q in get.elicit] == [
        ("s", "roots/list", "status", "#/paths/~1pets/get/x-mcp/elicit/0")
    ]
    assert ops["addPet"].x_mcp.confirm is False
    assert dict(ops["addPet"].x_mcp_origins) == {
        "exclude": "#/paths/~1pets/post/x-mcp",
        "annotations": "#/x-mcp",
        "confirm": "#/paths/~1pets/post/x-mcp",
        "strictOutput": "#/x-mcp",
        "deepObjectArrays": "#/paths/~1pets/x-mcp",
    }
