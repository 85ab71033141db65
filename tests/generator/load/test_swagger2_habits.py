"""Swagger 2.0 parameters in an OpenAPI 3 document (flasgger's, Kitsu's Zou): read as 2.0 means them."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from openapi2mcp.diagnostics import Report
from openapi2mcp.ir.model import Api, RequestBody
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.load.reading import load_source

DOCUMENT = """\
openapi: 3.0.2
info: {title: Kitsu, version: "1"}
servers: [{url: "https://kitsu.example"}]
paths:
  /data/tasks/{task_id}/comments:
    get:
      operationId: comments
      parameters:
        - {in: path, name: task_id, required: true, type: string, format: uuid,
           example: a24a6ea4-ce75-4665-a070-57453082c250}
        - {in: query, name: page, type: integer, minimum: 1, default: 1}
        - {in: query, name: ids, type: array, items: {type: string}, collectionFormat: multi}
        - {in: query, name: sort, schema: {type: string, enum: [asc, desc]}}
      responses: {"200": {description: ok}}
  /data/tasks/{task_id}/comments/{comment_id}/reply:
    parameters:
      - {in: path, name: task_id, required: true, type: string, format: uuid}
    post:
      operationId: reply
      parameters:
        - {in: path, name: comment_id, required: true, type: string, format: uuid}
        - {in: formData, name: text, type: string, description: Reply text content}
      responses: {"200": {description: ok}}
  /actions/tasks/{task_id}/attachments:
    post:
      operationId: attach
      consumes: [image/png, multipart/form-data]
      parameters:
        - {in: path, name: task_id, required: true, schema: {type: string}}
        - {in: formData, name: reply_id, type: string}
        - {in: formData, name: files, type: file, required: true}
      responses: {"200": {description: ok}}
  /data/assets:
    post:
      operationId: create_asset
      parameters:
        - in: body
          name: asset
          required: true
          schema:
            type: object
            required: [name]
            properties: {name: {type: string}}
      responses: {"201": {description: made}}
    put:
      operationId: replace_assets
      parameters:
        - {in: formData, name: ignored, type: string}
      requestBody:
        content:
          application/json: {schema: {type: array, items: {type: string}}}
      responses: {"200": {description: ok}}
"""


def parsed(tmp_path: Path, text: str = DOCUMENT) -> tuple[Api, Report]:
    path = tmp_path / "openapi.yaml"
    path.write_text(dedent(text))
    report = Report()
    return parse_api(load_source(str(path)), report), report


def test_typed_parameters_form_fields_and_body_parameters_are_read_as_2_0_means_them(
    tmp_path: Path,
) -> None:
    """Zou's 3.0.2 document types 246 parameters beside them and sends 20 operations' fields as
    ``in: formData``: they had been any value, and the 20 operations had been skipped."""
    api, report = parsed(tmp_path)
    ops = {op.key: op for op in api.operations}
    assert set(ops) == {"comments", "reply", "attach", "create_asset", "replace_assets"}
    comments = {p.name: p for p in ops["comments"].parameters}
    assert comments["task_id"].schema == {"type": "string", "format": "uuid"}
    assert comments["task_id"].examples == ("a24a6ea4-ce75-4665-a070-57453082c250",)
    assert comments["page"].schema == {"type": "integer", "minimum": 1, "default": 1}
    assert (comments["ids"].schema, comments["ids"].style, comments["ids"].explode) == (
        {"type": "array", "items": {"type": "string"}},
        "form",
        True,
    )
    assert comments["sort"].schema == {"type": "string", "enum": ["asc", "desc"]}

    reply = ops["reply"]
    assert [(p.name, p.schema) for p in reply.parameters] == [
        ("task_id", {"type": "string", "format": "uuid"}),
        ("comment_id", {"type": "string", "format": "uuid"}),
    ]
    assert reply.body is not None
    assert (reply.body.content_type, reply.body.schema) == (
        "application/x-www-form-urlencoded",
        {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "Reply text content"}},
        },
    )
    attach = ops["attach"].body
    assert attach is not None and attach.content_type == "multipart/form-data"
    assert [(part.name, part.file) for part in attach.parts] == [("files", True)]
    assert attach.schema["required"] == ["files"]

    body = ops["create_asset"].body
    assert isinstance(body, RequestBody) and body.required
    assert (body.content_type, body.schema["required"]) == ("application/json", ["name"])
    # a request body of its own wins; the form field beside it is dropped
    replaced = ops["replace_assets"].body
    assert replaced is not None and replaced.schema == {
        "type": "array",
        "items": {"type": "string"},
    }
    assert [p.name for p in ops["replace_assets"].parameters] == []

    assert [(d.level, d.code, d.pointer, d.message) for d in report.diagnostics] == [
        (
            "warning",
            "swagger2-parameters",
            "#/paths/~1data~1tasks~1{task_id}~1comments/get/parameters/0",
            "10 parameter(s) are written as in Swagger 2.0 (their type beside them, or in: "
            "formData / body), which OpenAPI 3 does not read: read as Swagger 2.0 means them (a "
            "schema; the operation's request body, where it has none)",
        )
    ]


def test_a_document_without_such_parameters_is_read_as_it_is(tmp_path: Path) -> None:
    api, report = parsed(
        tmp_path,
        """\
        openapi: 3.0.3
        info: {title: Plain, version: "1"}
        servers: [{url: "https://plain.example"}]
        paths:
          /items:
            get:
              operationId: items
              parameters: [{in: query, name: q, schema: {type: string}}]
              responses: {"200": {description: ok}}
        """,
    )
    assert [(p.name, p.schema) for p in api.operations[0].parameters] == [("q", {"type": "string"})]
    assert report.diagnostics == []
