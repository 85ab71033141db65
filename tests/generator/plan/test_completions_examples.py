"""Completion values from enums and examples, and enum-constrained arguments of the per-tag prompts.

``completion/complete`` offers, for a resource-template variable or a prompt argument, the whole enum
first, then the parameter's ``example``/``examples`` and its schema's ``examples`` that fit the schema,
deduplicated, while fewer than 100 are offered. A tag whose tools share an enum argument offers it
as an optional prompt argument with the same completions.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.plan.classify import MAX_COMPLETIONS, completion_values
from openapi2mcp.plan.model import ServerPlan
from openapi2mcp.render.catalog import build_catalog
from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.dispatch import Dispatcher
from templates.runtime.upstream.client import UpstreamResponse
from tests.kit.meta import meta

META = meta()
DEFS: dict[str, Any] = {"Colour": {"type": "string", "enum": ["red", "green"]}}


@pytest.mark.parametrize(
    ("schema", "examples", "expected"),
    [
        # enum first, then fitting examples; duplicates once
        ({"type": "string", "enum": ["a", "b"]}, ("b", "a"), ("a", "b")),
        ({"type": "string", "examples": ["x", "y"]}, ("y", "z"), ("y", "z", "x")),
        # examples that do not fit the schema are dropped (type, enum, pattern, format, bounds)
        ({"type": "integer", "minimum": 1}, (0, 1, "2", 2.5, True, 3), ("1", "3")),
        ({"type": "string", "enum": ["a"]}, ("zzz",), ("a",)),
        ({"type": "string", "pattern": "^[A-Z]{2}$"}, ("GB", "gbr", "FR"), ("GB", "FR")),
        ({"type": "string", "format": "date"}, ("2024-02-01", "soon"), ("2024-02-01",)),
        # booleans and numbers as the text a client types
        ({"type": "boolean"}, (True, False), ("true", "false")),
        ({"type": "number"}, (1.5, 2), ("1.5", "2")),
        # objects, nulls, empty and very long strings are no completion values
        ({}, ({"a": 1}, None, "", "x" * 201, "ok"), ("ok",)),
        # arrays offer values for their items, also from array-valued examples
        (
            {"type": "array", "items": {"type": "string", "examples": ["c"]}},
            (["a", "b"], "d"),
            ("a", "b", "d", "c"),
        ),
        (
            {"type": "array", "items": {"$ref": "#/$defs/Colour"}},
            (["green", "blue"],),
            ("red", "green"),
        ),
        # a referenced schema's examples count too
        ({"$ref": "#/$defs/Colour", "description": "paint"}, ("red",), ("red", "green")),
    ],
)
def test_completion_values(
    schema: dict[str, Any], examples: tuple[Any, ...], expected: tuple[str, ...]
) -> None:
    assert completion_values(schema, examples, DEFS) == expected


def test_examples_fill_up_to_the_limit_but_an_enum_is_never_cut() -> None:
    many = tuple(f"v{i}" for i in range(150))
    assert completion_values({"type": "string"}, many, {}) == many[:MAX_COMPLETIONS]
    enum = {"type": "string", "enum": list(many)}
    assert completion_values(enum, ("v1", "other"), {}) == many
    # the parameter's own examples come before its schema's
    schema = {"type": "string", "examples": list(many)}
    assert completion_values(schema, ("x", "y"), {}) == ("x", "y", *many[:98])


SPEC = dedent(
    """\
    openapi: 3.0.3
    info: {title: Tracker, version: "1.0"}
    servers: [{url: "https://tracker.example.com"}]
    tags: [{name: issues, description: Issues}, {name: labels}]
    paths:
      /repos/{owner}/issues:
        get:
          operationId: listIssues
          tags: [issues]
          parameters:
            - {name: owner, in: path, required: true, schema: {type: string}, example: octocat}
            - name: state
              in: query
              schema: {type: string, enum: [open, closed, all]}
              example: closed
            - name: sort
              in: query
              schema: {$ref: "#/components/schemas/Sort"}
            - name: label
              in: query
              schema: {type: string, example: bug}
              examples:
                first: {value: help wanted}
                shared: {$ref: "#/components/examples/Good"}
                broken: {summary: no value}
            - {name: goal, in: query, schema: {type: string, enum: [fix, triage]}}
          responses: {"200": {description: ok, content: {application/json: {schema: {type: array}}}}}
        post:
          operationId: createIssue
          tags: [issues]
          parameters: [{name: owner, in: path, required: true, schema: {type: string}}]
          requestBody:
            content:
              application/json:
                schema:
                  type: object
                  properties:
                    title: {type: string}
                    state: {type: string, enum: [open, closed, draft]}
                    goal: {type: string, enum: [fix, triage]}
          responses: {"201": {description: created}}
      /repos/{owner}/issues/search:
        get:
          operationId: searchIssues
          tags: [issues]
          parameters:
            - {name: owner, in: path, required: true, schema: {type: string}}
            - {name: sort, in: query, schema: {$ref: "#/components/schemas/Sort"}}
            - {name: state, in: query, schema: {type: string, enum: [open, closed]}}
            - {name: direction, in: query, schema: {type: string, enum: [asc, desc]}}
          responses: {"200": {description: ok, content: {application/json: {schema: {type: array}}}}}
      /labels:
        get:
          operationId: listLabels
          tags: [labels]
          parameters:
            - {name: colour, in: query, schema: {type: string, enum: [red, blue]}}
          responses: {"200": {description: ok, content: {application/json: {schema: {type: array}}}}}
    components:
      schemas:
        Sort: {type: string, enum: [created, updated]}
      examples:
        Good: {value: good first issue}
    """
)


class NoUpstream:
    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        raise AssertionError("completions and prompts never call the API")


def planned(tmp_path: Path) -> tuple[ServerPlan, Catalog]:
    path = tmp_path / "openapi.yaml"
    path.write_text(SPEC, encoding="utf-8")
    plan, _ = plan_source(str(path), GenerateOptions())
    return plan, build_catalog(plan, Report())  # type: ignore[return-value]


async def request(catalog: Catalog, method: str, params: dict[str, Any]) -> dict[str, Any]:
    async def no_notifications(message: dict[str, Any]) -> None:
        raise AssertionError(message)

    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": META, **params}}
    reply = await Dispatcher(catalog, NoUpstream()).handle(message, None, no_notifications)
    assert reply is not None
    return reply


def test_template_variables_offer_enums_then_examples(tmp_path: Path) -> None:
    _, catalog = planned(tmp_path)
    template = "tracker://repos/{owner}/issues{?state,sort,label,goal}"
    assert catalog["completions"]["resourceTemplates"][template] == {
        "owner": ["octocat"],
        "state": ["open", "closed", "all"],
        "sort": ["created", "updated"],
        # the parameter's examples (a $ref'd Example Object too), then its schema's example
        "label": ["help wanted", "good first issue", "bug"],
        "goal": ["fix", "triage"],
    }


async def test_completion_complete_filters_example_values_by_prefix(tmp_path: Path) -> None:
    _, catalog = planned(tmp_path)
    reply = await request(
        catalog,
        "completion/complete",
        {
            "ref": {
                "type": "ref/resource",
                "uri": "tracker://repos/{owner}/issues{?state,sort,label,goal}",
            },
            "argument": {"name": "label", "value": "G"},
        },
    )
    assert reply["result"]["completion"] == {
        "values": ["good first issue"],
        "total": 1,
        "hasMore": False,
    }


def test_a_tags_shared_enum_arguments_become_optional_prompt_arguments(tmp_path: Path) -> None:
    plan, _ = planned(tmp_path)
    prompts = {p.name: p for p in plan.prompts}
    issues = prompts["issues_workflow"]
    # state: 3 tools, sort and goal: 2 each (in first-seen order); direction: only one tool
    assert [(a.name, a.required) for a in issues.arguments] == [
        ("goal", True),
        ("state", False),
        ("sort", False),
        ("goal_2", False),
    ]
    assert issues.arguments[1].description == (
        "Optional: the 'state' argument of list_issues, create_issue, search_issues "
        "(one of open, closed, all, draft)"
    )
    assert issues.completions == (
        ("state", ("open", "closed", "all", "draft")),
        ("sort", ("created", "updated")),
        ("goal_2", ("fix", "triage")),
    )
    # one tool with an enum is nothing to share: the prompt keeps its goal only
    assert [a.name for a in prompts["labels_workflow"].arguments] == ["goal"]
    assert prompts["labels_workflow"].completions == ()


async def test_prompts_get_shows_the_choices_and_completion_offers_them(tmp_path: Path) -> None:
    _, catalog = planned(tmp_path)
    reply = await request(
        catalog,
        "prompts/get",
        {"name": "issues_workflow", "arguments": {"goal": "close stale", "state": "open"}},
    )
    (message,) = reply["result"]["messages"]
    assert message["content"]["text"].endswith(
        "ask the user before calling any destructive tool.\n\n"
        "Choices the user made for arguments these tools share (use them where a tool takes that "
        "argument; empty means no preference):\n"
        "- state: open\n- sort: \n- goal_2: \n\n"
        "The user's goal: close stale"
    )
    completed = await request(
        catalog,
        "completion/complete",
        {
            "ref": {"type": "ref/prompt", "name": "issues_workflow"},
            "argument": {"name": "state", "value": "d"},
        },
    )
    assert completed["result"]["completion"]["values"] == ["draft"]


def test_a_tag_prompt_offers_at_most_three_choices(tmp_path: Path) -> None:
    parameters = "\n".join(
        f"            - {{name: p{i}, in: query, schema: {{type: string, enum: [x{i}]}}}}"
        for i in range(5)
    )
    ops = "\n".join(
        f"      /r{n}:\n        get:\n          operationId: r{n}\n          tags: [t]\n"
        f"          parameters:\n{parameters}\n"
        "          responses: {'200': {description: ok}}"
        for n in range(2)
    )
    spec = f"openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\npaths:\n{ops}\n"
    path = tmp_path / "openapi.yaml"
    path.write_text(spec, encoding="utf-8")
    plan, _ = plan_source(str(path), GenerateOptions())
    (prompt,) = plan.prompts
    assert [a.name for a in prompt.arguments] == ["goal", "p0", "p1", "p2"]
