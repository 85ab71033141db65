"""`openapi2mcp diff`: every change class judged breaking or compatible, each output format, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.diff.compare import diff_surfaces
from openapi2mcp.diff.report import render_markdown
from openapi2mcp.diff.schemas import compare_schemas

OLD = """\
openapi: 3.1.0
info: {title: Shop, version: "1.0"}
servers: [{url: "https://shop.example.com"}]
paths:
  /items:
    get:
      operationId: listItems
      summary: List items
      parameters:
        - {name: limit, in: query, schema: {type: integer, maximum: 100}}
        - {name: color, in: query, schema: {type: string, enum: [red, green, blue]}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Item"}}
    post:
      operationId: createItem
      summary: Create an item
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: {type: string}
                size: {type: integer}
                note: {type: string}
      responses: {"201": {description: created}}
  /items/{id}:
    get:
      operationId: getItem
      summary: Get an item
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}
    put:
      operationId: replaceItem
      summary: Replace an item
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"204": {description: done}}
    delete:
      operationId: deleteItem
      summary: Delete an item
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"204": {description: done}}
  /items/{id}/touch:
    post:
      operationId: touchItem
      summary: Touch an item
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"204": {description: done}}
  /reindex:
    get:
      operationId: reindex
      summary: Rebuild the index
      responses: {"204": {description: done}}
components:
  schemas:
    Item:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
        price: {type: number}
"""

# listItems: description added, limit's maximum lowered, enum value swapped, optional `q` added;
# createItem: `note` removed, `category` required, `size` integer -> string; getItem renamed by x-mcp;
# replaceItem PUT -> PATCH; touchItem POST -> PUT; reindex GET -> POST; deleteItem removed;
# getStats added; Item.price removed and Item.stock added
NEW = """\
openapi: 3.1.0
info: {title: Shop, version: "1.1"}
servers: [{url: "https://shop.example.com"}]
paths:
  /items:
    get:
      operationId: listItems
      summary: List items
      description: Newest first.
      parameters:
        - {name: limit, in: query, schema: {type: integer, maximum: 50}}
        - {name: color, in: query, schema: {type: string, enum: [red, green, yellow]}}
        - {name: q, in: query, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Item"}}
    post:
      operationId: createItem
      summary: Create an item
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, category]
              properties:
                name: {type: string}
                size: {type: string}
                category: {type: string}
      responses: {"201": {description: created}}
  /items/{id}:
    get:
      operationId: getItem
      x-mcp: {name: fetch_item}
      summary: Get an item
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}
    patch:
      operationId: replaceItem
      summary: Replace an item
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"204": {description: done}}
  /items/{id}/touch:
    put:
      operationId: touchItem
      summary: Touch an item
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"204": {description: done}}
  /reindex:
    post:
      operationId: reindex
      summary: Rebuild the index
      responses: {"204": {description: done}}
  /stats:
    get:
      operationId: getStats
      summary: Shop statistics
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {type: object}}}
components:
  schemas:
    Item:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
        stock: {type: integer}
"""

EXPECTED_SHOP_CHANGES = [
    ("breaking", "changed", "tool", "create_item", "argument `note` removed"),
    ("breaking", "changed", "tool", "create_item", "new required argument `category`"),
    ("breaking", "changed", "tool", "create_item", "argument `size`: type integer → string"),
    ("breaking", "removed", "tool", "delete_item", "removed"),
    ("breaking", "renamed", "tool", "fetch_item", "renamed from `get_item`"),
    ("breaking", "changed", "tool", "fetch_item", "output field `price` removed"),
    ("breaking", "changed", "tool", "list_items", 'argument `color`: enum value `"blue"` removed'),
    ("breaking", "changed", "tool", "list_items", "argument `limit`: maximum `100` → `50`"),
    ("breaking", "changed", "tool", "list_items", "output field `[].price` removed"),
    ("breaking", "changed", "tool", "reindex", "readOnlyHint true → false"),
    ("breaking", "changed", "tool", "reindex", "destructiveHint false → true"),
    ("breaking", "changed", "tool", "reindex", "idempotentHint true → false"),
    ("breaking", "changed", "tool", "replace_item", "idempotentHint true → false"),
    ("breaking", "removed", "resource", "reindex", "removed"),
    ("breaking", "renamed", "resource_template", "fetch_item", "renamed from `get_item`"),
    ("compatible", "changed", "tool", "fetch_item", "output field `stock` added"),
    ("compatible", "added", "tool", "get_stats", "added"),
    ("compatible", "changed", "tool", "list_items", "description changed"),
    (
        "compatible",
        "changed",
        "tool",
        "list_items",
        'argument `color`: enum value `"yellow"` added',
    ),
    ("compatible", "changed", "tool", "list_items", "new optional argument `q`"),
    ("compatible", "changed", "tool", "list_items", "output field `[].stock` added"),
    ("compatible", "changed", "tool", "touch_item", "idempotentHint false → true"),
    ("compatible", "added", "resource", "get_stats", "added"),
    ("compatible", "changed", "resource", "list_items", "description changed"),
]

SMALL_OLD = """\
openapi: 3.0.3
info: {title: Tiny API, version: "1.0"}
servers: [{url: "https://tiny.example.com"}]
paths:
  /things:
    get:
      operationId: listThings
      summary: List things
      responses: {"200": {description: ok}}
    post:
      operationId: addThing
      summary: Add a thing
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, properties: {name: {type: string}}, required: [name]}
      responses: {"201": {description: created}}
"""

SMALL_NEW = (
    SMALL_OLD.replace('version: "1.0"', 'version: "1.1"')
    .replace("summary: List things", "summary: List all things")
    .replace(
        "properties: {name: {type: string}}, required: [name]",
        "properties: {name: {type: string}, size: {type: integer}}, required: [name, size]",
    )
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def rows(document: dict[str, Any]) -> list[tuple[str, ...]]:
    return [
        (c["severity"], c["category"], c["kind"], c["name"], c["message"])
        for c in document["changes"]
    ]


def test_every_change_class_between_two_specs_is_found_and_judged(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.yaml", OLD), write(tmp_path, "new.yaml", NEW)
    code, out, _ = invoke("diff", str(old), str(new), "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert rows(document) == EXPECTED_SHOP_CHANGES
    assert document["summary"] == {
        "breaking": 15,
        "compatible": 9,
        "added": 2,
        "removed": 2,
        "renamed": 2,
        "changed": 6,
    }
    assert document["old"] == {"server": "shop-mcp", "version": "1.0"}
    renamed = [c for c in document["changes"] if c["category"] == "renamed"]
    assert {c["oldName"] for c in renamed} == {"get_item"}


def test_text_format_exactly(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.yaml", SMALL_OLD), write(tmp_path, "new.yaml", SMALL_NEW)
    code, out, err = invoke("diff", str(old), str(new))
    assert code == 1 and err == ""
    assert out == (
        "MCP surface: tiny-mcp 1.0 → 1.1\n"
        "1 breaking, 4 compatible (0 added, 0 removed, 0 renamed, 3 changed)\n"
        "\n"
        "Breaking:\n"
        "  tool add_thing: new required argument `size`\n"
        "\n"
        "Compatible:\n"
        "  tool list_things: title `List things` → `List all things`\n"
        "  tool list_things: description changed\n"
        "  resource list_things: title `List things` → `List all things`\n"
        "  resource list_things: description changed\n"
    )


def test_markdown_format_exactly(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.yaml", SMALL_OLD), write(tmp_path, "new.yaml", SMALL_NEW)
    code, out, _ = invoke("diff", str(old), str(new), "--format", "markdown")
    assert code == 1
    assert out == (
        "### MCP surface: `tiny-mcp` 1.0 → 1.1\n"
        "\n"
        "**1 breaking**, 4 compatible (0 added, 0 removed, 0 renamed, 3 changed)\n"
        "\n"
        "#### Breaking changes\n"
        "\n"
        "| Change | Where |\n"
        "| --- | --- |\n"
        "| new required argument `size` | tool `add_thing` |\n"
        "\n"
        "#### Compatible changes\n"
        "\n"
        "| Change | Where |\n"
        "| --- | --- |\n"
        "| title `List things` → `List all things` | tool `list_things`; resource `list_things` |\n"
        "| description changed | tool `list_things`; resource `list_things` |\n"
    )


def test_json_format_exactly(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", SMALL_OLD)
    new = write(tmp_path, "new.yaml", SMALL_OLD.replace("addThing", "createThing"))
    code, out, _ = invoke("diff", str(old), str(new), "--format", "json")
    assert code == 1
    assert out == (
        "{\n"
        '  "changes": [\n'
        "    {\n"
        '      "category": "renamed",\n'
        '      "kind": "tool",\n'
        '      "message": "renamed from `add_thing`",\n'
        '      "name": "create_thing",\n'
        '      "oldName": "add_thing",\n'
        '      "severity": "breaking"\n'
        "    }\n"
        "  ],\n"
        '  "format": 1,\n'
        '  "new": {\n'
        '    "server": "tiny-mcp",\n'
        '    "version": "1.0"\n'
        "  },\n"
        '  "old": {\n'
        '    "server": "tiny-mcp",\n'
        '    "version": "1.0"\n'
        "  },\n"
        '  "summary": {\n'
        '    "added": 0,\n'
        '    "breaking": 1,\n'
        '    "changed": 0,\n'
        '    "compatible": 0,\n'
        '    "removed": 0,\n'
        '    "renamed": 1\n'
        "  }\n"
        "}\n"
    )


def test_markdown_collapses_long_tables_and_escapes_pipes() -> None:
    def tool(index: int, title: str) -> dict[str, Any]:
        return {"kind": "tool", "name": f"t{index:02}", "title": title}

    old = {"server": "s", "version": "1", "items": [tool(i, "a") for i in range(11)]}
    # eleven different changes: eleven rows
    new = {"server": "s", "version": "2", "items": [tool(i, f"a|{i}") for i in range(11)]}
    text = render_markdown(diff_surfaces(old, new))
    assert "**0 breaking**, 11 compatible (0 added, 0 removed, 0 renamed, 11 changed)" in text
    assert (
        "<details><summary>11 compatible changes in 11 rows</summary>\n\n| Change | Where |"
    ) in text
    assert text.endswith("| title `a` → `a\\|10` | tool `t10` |\n\n</details>\n")
    assert "#### Breaking changes" not in text
    renamed = {**new["items"][0], "name": "x|y", "operationId": "op"}
    text = render_markdown(
        diff_surfaces({**old, "items": [{**renamed, "name": "old"}]}, {**new, "items": [renamed]})
    )
    assert "| renamed from `old` | tool `x\\|y` |" in text


def test_no_changes(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.yaml", SMALL_OLD), write(tmp_path, "new.yaml", SMALL_OLD)
    code, out, _ = invoke("diff", str(old), str(new), "--fail-on", "any")
    assert code == 0
    assert out == "MCP surface: tiny-mcp 1.0 → 1.0\nNo changes to the MCP surface.\n"


@pytest.mark.parametrize(
    ("new_text", "fail_on", "exit_code"),
    [
        (SMALL_NEW, "breaking", 1),
        (SMALL_NEW, "any", 1),
        (SMALL_NEW, "never", 0),
        (SMALL_OLD.replace("List things", "Show things"), "breaking", 0),
        (SMALL_OLD.replace("List things", "Show things"), "any", 1),
        (SMALL_OLD.replace("List things", "Show things"), "never", 0),
        (SMALL_OLD, "breaking", 0),
        (SMALL_OLD, "any", 0),
        (SMALL_OLD, "never", 0),
    ],
)
def test_exit_code_for_each_fail_on(
    tmp_path: Path, new_text: str, fail_on: str, exit_code: int
) -> None:
    old, new = write(tmp_path, "old.yaml", SMALL_OLD), write(tmp_path, "new.yaml", new_text)
    code, _, _ = invoke("diff", str(old), str(new), "--fail-on", fail_on)
    assert code == exit_code


def test_default_fail_on_is_breaking(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", SMALL_OLD)
    compatible = write(tmp_path, "c.yaml", SMALL_OLD.replace("List things", "Show things"))
    assert invoke("diff", str(old), str(compatible))[0] == 0
    assert invoke("diff", str(old), str(write(tmp_path, "b.yaml", SMALL_NEW)))[0] == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("openapi: 3.0.3\ninfo: [unclosed\n", "not valid YAML"),
        ("just: a mapping\n", "not an OpenAPI document"),
        ('{"server": "s", "version": "1", "items": []}', "of format 1; only formats 2 and 3"),
        ('{"format": 2, "items": [{"kind": "gadget", "name": "x"}]}', "not a valid MCP surface"),
    ],
)
def test_unusable_input_exits_2(tmp_path: Path, content: str | None, message: str) -> None:
    good = write(tmp_path, "good.yaml", SMALL_OLD)
    bad = tmp_path / "bad.input"
    if content is not None:
        bad.write_text(content)
    for args in ((str(bad), str(good)), (str(good), str(bad))):
        code, out, err = invoke("diff", *args, "--fail-on", "never")
        assert code == 2 and out == ""
        assert err.startswith("error: ") and message in err


def test_both_sides_from_stdin_is_refused() -> None:
    code, _, err = invoke("diff", "-", "-", input=SMALL_OLD)
    assert code == 2 and "only one side" in err


def test_surface_files_and_specs_compare_alike(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.yaml", OLD), write(tmp_path, "new.yaml", NEW)
    for spec, out in ((old, tmp_path / "old-pkg"), (new, tmp_path / "new-pkg")):
        code, _, err = invoke("generate", str(spec), "-o", str(out))
        assert code == 0, err
    old_surface = tmp_path / "old-pkg" / "mcp-surface.json"
    new_surface = tmp_path / "new-pkg" / "mcp-surface.json"
    pairs = [
        (old_surface, new_surface),
        (old_surface, new),
        (old, new_surface),
    ]
    for before, after in pairs:
        code, out, _ = invoke("diff", str(before), str(after), "--format", "json")
        assert code == 1
        assert rows(json.loads(out)) == EXPECTED_SHOP_CHANGES
    code, out, _ = invoke("diff", "-", str(new_surface), "--format", "json", input=OLD)
    assert rows(json.loads(out)) == EXPECTED_SHOP_CHANGES


def test_name_option_applies_to_spec_sides(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.yaml", SMALL_OLD), write(tmp_path, "new.yaml", SMALL_NEW)
    _, out, _ = invoke("diff", str(old), str(new), "--name", "gizmo")
    assert out.startswith("MCP surface: gizmo-mcp 1.0 → 1.1\n")


def test_rename_found_by_http_operation_when_there_is_no_operation_id(tmp_path: Path) -> None:
    spec = """\
openapi: 3.0.3
info: {title: Plain, version: "1"}
servers: [{url: "https://plain.example.com"}]
paths:
  /ping:
    post:
      summary: Ping
      responses: {"204": {description: ok}}
"""
    old = write(tmp_path, "old.yaml", spec)
    new = write(tmp_path, "new.yaml", spec.replace("post:\n", "post:\n      x-mcp: {name: ping}\n"))
    _, out, _ = invoke("diff", str(old), str(new), "--format", "json")
    assert rows(json.loads(out)) == [
        ("breaking", "renamed", "tool", "ping", "renamed from `post_ping`"),
    ]


def test_ambiguous_renames_are_reported_as_removed_and_added() -> None:
    def tool(name: str) -> dict[str, Any]:
        return {"kind": "tool", "name": name, "operationId": "same"}

    result = diff_surfaces(
        {"server": "s", "version": "1", "items": [tool("a"), tool("b")]},
        {"server": "s", "version": "1", "items": [tool("c")]},
    )
    assert [(c.category, c.name) for c in result.changes] == [
        ("removed", "a"),
        ("removed", "b"),
        ("added", "c"),
    ]


def item_changes(kind: str, old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    result = diff_surfaces(
        {"server": "s", "version": "1", "items": [{"kind": kind, "name": "x", **old}]},
        {"server": "s", "version": "2", "items": [{"kind": kind, "name": "x", **new}]},
    )
    return [(c.severity, c.message) for c in result.changes]


def goal(required: bool, description: str = "What you want") -> dict[str, Any]:
    return {"name": "goal", "required": required, "description": description}


@pytest.mark.parametrize(
    ("old_args", "new_args", "expected"),
    [
        ([], [goal(True)], [("breaking", "new required argument `goal`")]),
        ([], [goal(False)], [("compatible", "new optional argument `goal`")]),
        ([goal(False)], [], [("breaking", "argument `goal` removed")]),
        ([goal(False)], [goal(True)], [("breaking", "argument `goal` is now required")]),
        ([goal(True)], [goal(False)], [("compatible", "argument `goal` is now optional")]),
        (
            [goal(True)],
            [goal(True, "Your aim")],
            [("compatible", "argument `goal`: description changed")],
        ),
    ],
)
def test_prompt_argument_rules(
    old_args: list[Any], new_args: list[Any], expected: list[tuple[str, str]]
) -> None:
    assert item_changes("prompt", {"arguments": old_args}, {"arguments": new_args}) == expected


def test_resource_and_template_rules() -> None:
    assert item_changes(
        "resource",
        {"uri": "a://x", "mimeType": "application/json"},
        {"uri": "a://y", "mimeType": "text/plain"},
    ) == [
        ("breaking", "URI `a://x` → `a://y`"),
        ("breaking", "MIME type `application/json` → `text/plain`"),
    ]
    assert item_changes(
        "resource_template",
        {"uriTemplate": "a://x/{id}{?q}"},
        {"uriTemplate": "a://x/{id}{?q,limit}"},
    ) == [("compatible", "URI template `a://x/{id}{?q}` → `a://x/{id}{?q,limit}`")]
    assert item_changes(
        "resource_template",
        {"uriTemplate": "a://x/{id}{?q,limit}"},
        {"uriTemplate": "a://x/{id}{?q}"},
    ) == [("breaking", "URI template `a://x/{id}{?q,limit}` → `a://x/{id}{?q}`")]
    assert item_changes(
        "resource_template", {"uriTemplate": "a://x/{id}"}, {"uriTemplate": "a://items/{id}"}
    ) == [("breaking", "URI template `a://x/{id}` → `a://items/{id}`")]


def hints(read_only: bool, destructive: bool, idempotent: bool, open_world: bool) -> dict[str, Any]:
    return {
        "annotations": {
            "readOnlyHint": read_only,
            "destructiveHint": destructive,
            "idempotentHint": idempotent,
            "openWorldHint": open_world,
        }
    }


def test_annotations_becoming_safer_are_compatible_and_riskier_breaking() -> None:
    assert item_changes(
        "tool", hints(False, True, False, True), hints(True, False, True, False)
    ) == [
        ("compatible", "readOnlyHint false → true"),
        ("compatible", "destructiveHint true → false"),
        ("compatible", "idempotentHint false → true"),
        ("compatible", "openWorldHint true → false"),
    ]
    assert item_changes(
        "tool", hints(True, False, True, False), hints(False, True, False, True)
    ) == [
        ("breaking", "readOnlyHint true → false"),
        ("breaking", "destructiveHint false → true"),
        ("breaking", "idempotentHint true → false"),
        ("breaking", "openWorldHint false → true"),
    ]


def test_output_schema_removed_is_breaking_and_added_compatible() -> None:
    schema = {"type": "object"}
    assert item_changes("tool", {"outputSchema": schema}, {}) == [
        ("breaking", "output schema removed (no structured output)")
    ]
    assert item_changes("tool", {}, {"outputSchema": schema}) == [
        ("compatible", "output schema added")
    ]


def findings(old: Any, new: Any, direction: str) -> list[tuple[str, str]]:
    return [(f.severity, f.message) for f in compare_schemas(old, new, direction)]  # type: ignore[arg-type]


def obj(props: dict[str, Any], required: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(required), **extra}


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # nullable: accepting null is harmless for input
        (
            obj({"a": {"type": "string"}}),
            obj({"a": {"type": ["null", "string"]}}),
            [("compatible", "argument `a`: type string → null|string")],
        ),
        (
            obj({"a": {"type": "number"}}),
            obj({"a": {"type": "integer"}}),
            [("breaking", "argument `a`: type number → integer")],
        ),
        (
            obj({"a": {"type": "integer"}}),
            obj({"a": {"type": "number"}}),
            [("compatible", "argument `a`: type integer → number")],
        ),
        (
            obj({"a": {"type": "string"}}),
            obj({"a": {"type": "string", "enum": ["x"]}}),
            [("breaking", 'argument `a`: now restricted to `"x"`')],
        ),
        (
            obj({"a": {"type": "string", "minLength": 1}}),
            obj({"a": {"type": "string", "minLength": 3, "pattern": "^[a-z]+$"}}),
            [
                ("breaking", "argument `a`: minLength `1` → `3`"),
                ("breaking", "argument `a`: pattern none → `^[a-z]+$`"),
            ],
        ),
        (
            obj({"a": {"type": "integer", "maximum": 5}}),
            obj({"a": {"type": "integer"}}),
            [("compatible", "argument `a`: maximum `5` → none")],
        ),
        (
            obj({"a": obj({"b": {"type": "string"}})}),
            obj({"a": obj({"b": {"type": "string"}}, additionalProperties=False)}),
            [("breaking", "argument `a`: extra properties are no longer accepted")],
        ),
        (
            obj({"a": obj({"b": {"type": "string"}})}),
            obj({"a": obj({"b": {"type": "string"}}, ("b",))}),
            [("breaking", "argument `a.b` is now required")],
        ),
        (
            obj({"a": {"type": "string", "description": "A"}}),
            obj({"a": {"type": "string", "description": "B", "default": "z"}}),
            [
                ("compatible", "argument `a`: description changed"),
                ("compatible", 'argument `a`: default none → `"z"`'),
            ],
        ),
        (
            obj({"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}),
            obj({"a": {"anyOf": [{"type": "string"}]}}),
            [
                ("breaking", "argument `a`: type integer|string → string"),
                ("breaking", "argument `a` (anyOf): 1 alternative(s) removed"),
            ],
        ),
    ],
)
def test_input_schema_rules(old: Any, new: Any, expected: list[tuple[str, str]]) -> None:
    assert findings(old, new, "input") == expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            obj({"a": {"type": "string"}}),
            obj({"a": {"type": ["null", "string"]}}),
            [("breaking", "output field `a`: type string → null|string")],
        ),
        (
            obj({"a": {"type": "string"}}, ("a",)),
            obj({"a": {"type": "string"}}),
            [("breaking", "output field `a` may now be absent")],
        ),
        (
            obj({"a": {"type": "string"}}),
            obj({"a": {"type": "string"}}, ("a",)),
            [("compatible", "output field `a` is now always present")],
        ),
        (
            obj({"a": {"enum": ["x", "y"]}}),
            obj({"a": {"enum": ["x", "z"]}}),
            [
                ("compatible", 'output field `a`: enum value `"y"` removed'),
                ("compatible", 'output field `a`: enum value `"z"` added'),
            ],
        ),
        (
            {"type": "array", "items": {"$ref": "#/$defs/T"}, "$defs": {"T": obj({"id": {}})}},
            {"type": "array", "items": {"$ref": "#/$defs/T"}, "$defs": {"T": obj({})}},
            [("breaking", "output field `[].id` removed")],
        ),
    ],
)
def test_output_schema_rules(old: Any, new: Any, expected: list[tuple[str, str]]) -> None:
    assert findings(old, new, "output") == expected


def test_change_deep_behind_an_unchanged_definition_is_found() -> None:
    def schema(category: dict[str, Any]) -> dict[str, Any]:
        pet = obj({"category": {"$ref": "#/$defs/Category"}})
        items = {"$ref": "#/$defs/Pet"}
        return {"type": "array", "items": items, "$defs": {"Pet": pet, "Category": category}}

    before = schema(obj({"name": {"type": "string"}, "id": {"type": "integer"}}))
    after = schema(obj({"id": {"type": "integer"}}))
    assert findings(before, after, "output") == [
        ("breaking", "output field `[].category.name` removed")
    ]
    assert findings(before, before, "output") == []


def test_recursive_schemas_terminate() -> None:
    def tree(leaf: str) -> dict[str, Any]:
        node = obj(
            {
                "value": {"type": leaf},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            }
        )
        return {"$ref": "#/$defs/Node", "$defs": {"Node": node}}

    assert findings(tree("string"), tree("integer"), "output") == [
        ("breaking", "output field `value`: type string → integer")
    ]
