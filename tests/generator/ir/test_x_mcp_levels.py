"""``x-mcp`` on the document and on path items: defaults for the operations below them.

Precedence: document < path item < operation (annotations merge key by key); keys that
name a single operation are rejected above the operation with a diagnostic naming their pointer; a
config rule still beats every level, and ``inspect`` says which level decided.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from openapi2mcp.config import CONFIG_NAME
from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.ir.model import Api
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.ir.x_mcp import XMcp, XMcpAnnotations
from openapi2mcp.load.reading import load_source
from openapi2mcp.plan.model import ServerPlan

SPEC = dedent(
    """\
    openapi: 3.1.0
    info: {title: Library, version: "1.0"}
    servers: [{url: "https://library.example.com"}]
    x-mcp:
      annotations: {openWorldHint: false, title: nope}
      confirm: when-supported
      name: everything
      description: not a default
    paths:
      /books:
        x-mcp: {kind: tool, title: Books}
        get:
          operationId: listBooks
          responses: {"200": {description: ok, content: {application/json: {schema: {type: array}}}}}
        post:
          operationId: addBook
          x-mcp:
            annotations: {idempotentHint: true}
            confirm: true
          responses: {"201": {description: created}}
      /books/{id}:
        x-mcp: {kind: resource_template, read_tool: false}
        parameters: [{name: id, in: path, required: true, schema: {type: string}}]
        get:
          operationId: getBook
          responses: {"200": {description: ok, content: {application/json: {schema: {type: object}}}}}
        delete:
          operationId: deleteBook
          responses: {"204": {description: gone}}
      /admin/reindex:
        x-mcp: {exclude: true}
        post:
          operationId: reindex
          responses: {"202": {description: started}}
        get:
          operationId: reindexStatus
          x-mcp: {exclude: false, annotations: {openWorldHint: true}}
          responses: {"200": {description: ok, content: {application/json: {schema: {type: object}}}}}
      /old:
        get:
          operationId: oldThing
          deprecated: true
          responses: {"200": {description: ok, content: {application/json: {schema: {type: object}}}}}
    """
)


def write(tmp_path: Path, spec: str = SPEC, config: str | None = None) -> Path:
    path = tmp_path / "openapi.yaml"
    path.write_text(spec, encoding="utf-8")
    if config is not None:
        (tmp_path / CONFIG_NAME).write_text(config, encoding="utf-8")
    return path


def parsed(tmp_path: Path, spec: str = SPEC) -> tuple[Api, Report]:
    report = Report()
    return parse_api(load_source(str(write(tmp_path, spec))), report), report


def planned(tmp_path: Path, config: str | None = None) -> tuple[ServerPlan, Report]:
    return plan_source(str(write(tmp_path, SPEC, config)), GenerateOptions())


def test_operations_inherit_the_document_and_path_item_defaults(tmp_path: Path) -> None:
    api, _ = parsed(tmp_path)
    ops = {op.key: op for op in api.operations}
    assert ops["listBooks"].x_mcp == XMcp(
        annotations=XMcpAnnotations(openWorldHint=False, title="nope"),
        confirm="when-supported",
        kind="tool",
    )
    # the operation's own annotations are laid over the inherited ones, key by key
    assert ops["addBook"].x_mcp == XMcp(
        annotations=XMcpAnnotations(openWorldHint=False, title="nope", idempotentHint=True),
        confirm=True,
        kind="tool",
    )
    assert ops["reindexStatus"].x_mcp.exclude is False
    assert ops["reindex"].x_mcp.exclude is True
    assert ops["oldThing"].x_mcp == XMcp(
        annotations=XMcpAnnotations(openWorldHint=False, title="nope"), confirm="when-supported"
    )


def test_origins_name_the_level_that_set_each_key(tmp_path: Path) -> None:
    api, _ = parsed(tmp_path)
    ops = {op.key: op for op in api.operations}
    assert dict(ops["addBook"].x_mcp_origins) == {
        "annotations": "#/paths/~1books/post/x-mcp",
        "confirm": "#/paths/~1books/post/x-mcp",
        "kind": "#/paths/~1books/x-mcp",
    }
    assert dict(ops["getBook"].x_mcp_origins) == {
        "annotations": "#/x-mcp",
        "confirm": "#/x-mcp",
        "kind": "#/paths/~1books~1{id}/x-mcp",
        "read_tool": "#/paths/~1books~1{id}/x-mcp",
    }


def test_keys_of_a_single_operation_are_rejected_above_it(tmp_path: Path) -> None:
    api, report = parsed(tmp_path)
    rejected = sorted(
        (d.level, d.pointer, d.message)
        for d in report.diagnostics
        if d.code == "x-mcp-not-a-default"
    )
    assert rejected == [
        (
            "warning",
            "#/paths/~1books/x-mcp/title",
            "x-mcp 'title' describes a single operation and cannot be set on a path item; ignored",
        ),
        (
            "warning",
            "#/x-mcp/description",
            "x-mcp 'description' describes a single operation and cannot be set on the document;"
            " ignored",
        ),
        (
            "warning",
            "#/x-mcp/name",
            "x-mcp 'name' describes a single operation and cannot be set on the document; ignored",
        ),
    ]
    assert all(op.x_mcp.name is None and op.x_mcp.title is None for op in api.operations)


def test_x_mcp_that_is_not_an_object_on_the_document_or_a_path_is_ignored(tmp_path: Path) -> None:
    spec = dedent(
        """\
        openapi: 3.0.3
        info: {title: T, version: "1"}
        x-mcp: exclude
        paths:
          /a:
            x-mcp: [tool]
            get:
              operationId: a
              responses: {"204": {description: ok}}
        """
    )
    api, report = parsed(tmp_path, spec)
    assert api.operations[0].x_mcp == XMcp()
    assert [(d.code, d.pointer) for d in report.diagnostics if d.code == "x-mcp-invalid"] == [
        ("x-mcp-invalid", "#/x-mcp"),
        ("x-mcp-invalid", "#/paths/~1a/x-mcp"),
    ]


def test_the_plan_applies_every_level(tmp_path: Path) -> None:
    plan, report = planned(tmp_path)
    tools = {tool.name: tool for tool in plan.tools}
    # /books: kind tool → no resource; /books/{id}: a template only (read_tool false), while its
    # DELETE ignores the inherited resource kind and stays a tool, without a warning
    assert list(tools) == ["list_books", "add_book", "delete_book", "reindex_status"]
    assert [t.uri_template for t in plan.resource_templates] == ["library://books/{id}"]
    assert [r.uri for r in plan.resources] == ["library://admin/reindex"]
    assert not [d for d in report.diagnostics if d.code == "rule-not-applicable"]
    annotations = {name: tool.annotations for name, tool in tools.items()}
    assert annotations["list_books"].open_world is False
    assert annotations["list_books"].title == "nope"
    assert (annotations["add_book"].open_world, annotations["add_book"].idempotent) == (
        False,
        True,
    )
    # the operation's own x-mcp wins over the path item's exclude and the document's hint
    assert annotations["reindex_status"].open_world is True


def test_inspect_notes_say_which_level_decided(tmp_path: Path) -> None:
    plan, _ = planned(tmp_path)
    notes = {d.operation.key: (d.kinds, d.note) for d in plan.decisions}
    assert notes == {
        "listBooks": (("tool",), "by x-mcp at #/paths/~1books/x-mcp"),
        "addBook": (("tool",), "by x-mcp at #/paths/~1books/x-mcp"),
        "getBook": (("resource_template",), "by x-mcp at #/paths/~1books~1{id}/x-mcp"),
        "deleteBook": (("tool",), ""),
        "reindex": (("skipped",), "excluded by x-mcp at #/paths/~1admin~1reindex/x-mcp"),
        "reindexStatus": (("tool", "resource"), ""),
        # an inherited default never brings a deprecated operation back
        "oldThing": (("skipped",), "deprecated"),
    }


def test_a_config_rule_beats_every_x_mcp_level(tmp_path: Path) -> None:
    config = '[[rules]]\noperation_id = "reindex"\nkind = "tool"\n'
    plan, _ = planned(tmp_path, config)
    notes = {d.operation.key: (d.kinds, d.note) for d in plan.decisions}
    assert notes["reindex"] == (("tool",), "by config rule #1")


def test_operation_level_x_mcp_keeps_its_plain_source(tmp_path: Path) -> None:
    spec = dedent(
        """\
        openapi: 3.1.0
        info: {title: T, version: "1"}
        x-mcp: {exclude: true}
        paths:
          /a:
            get:
              operationId: a
              x-mcp: {exclude: false, kind: tool}
              responses: {"200": {description: ok, content: {application/json: {schema: {}}}}}
          /b:
            get:
              operationId: b
              responses: {"200": {description: ok, content: {application/json: {schema: {}}}}}
        """
    )
    plan, _ = plan_source(str(write(tmp_path, spec)), GenerateOptions())
    assert [(d.operation.key, d.kinds, d.note) for d in plan.decisions] == [
        ("a", ("tool",), "by x-mcp"),
        ("b", ("skipped",), "excluded by x-mcp at #/x-mcp"),
    ]


def test_a_document_read_tool_default_keeps_reads_as_resources_only(tmp_path: Path) -> None:
    spec = dedent(
        """\
        openapi: 3.1.0
        info: {title: T, version: "1"}
        x-mcp: {read_tool: false}
        paths:
          /a:
            get:
              operationId: listA
              responses: {"200": {description: ok, content: {application/json: {schema: {}}}}}
            post:
              operationId: addA
              responses: {"201": {description: ok}}
          /b:
            get:
              operationId: getB
              parameters: [{name: X-Tenant, in: header, required: true, schema: {type: string}}]
              responses: {"200": {description: ok, content: {application/json: {schema: {}}}}}
        """
    )
    plan, _ = plan_source(str(write(tmp_path, spec)), GenerateOptions())
    assert [(d.operation.key, d.kinds, d.note) for d in plan.decisions] == [
        ("listA", ("resource",), "by x-mcp at #/x-mcp"),
        ("addA", ("tool",), "by the additive POST rule: 'add' leads its operationId"),
        # a read that cannot be a resource (required header) stays a tool
        ("getB", ("tool",), "by x-mcp at #/x-mcp"),
    ]
