"""A route documented with and without a trailing slash (FastAPI's two decorators on one function,
Langflow's /api/v2/files) is one operation: one tool, one resource, named for what it does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from openapi2mcp.generate import GenerateOptions, plan_source


def _get(operation_id: str, summary: str) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "summary": summary,
        "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
    }


def _upload(operation_id: str) -> dict[str, Any]:
    body = f"Body_{operation_id}"
    return {
        "operationId": operation_id,
        "summary": "Upload User File",
        "requestBody": {
            "required": True,
            "content": {
                "multipart/form-data": {"schema": {"$ref": f"#/components/schemas/{body}"}}
            },
        },
        "responses": {"201": {"description": "made"}},
    }


def _body(name: str) -> dict[str, Any]:
    return {
        "title": name,
        "type": "object",
        "required": ["file"],
        "properties": {"file": {"type": "string", "format": "binary", "title": "File"}},
    }


SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Files", "version": "1.0"},
    "servers": [{"url": "https://files.example.com"}],
    "paths": {
        "/api/v2/files": {
            "get": _get("list_files_api_v2_files_get", "List Files"),
            "post": _upload("upload_user_file_api_v2_files_post"),
        },
        "/api/v2/files/": {
            "get": _get("list_files_api_v2_files__get", "List Files"),
            "post": _upload("upload_user_file_api_v2_files__post"),
        },
        # not twins: the slashed one says something else
        "/api/v2/tags": {"get": _get("list_tags", "List tags")},
        "/api/v2/tags/": {"get": _get("list_tag_names", "List the names of tags")},
    },
    "components": {
        "schemas": {
            "Body_upload_user_file_api_v2_files_post": _body(
                "Body_upload_user_file_api_v2_files_post"
            ),
            "Body_upload_user_file_api_v2_files__post": _body(
                "Body_upload_user_file_api_v2_files__post"
            ),
        }
    },
}


def test_a_route_documented_with_a_trailing_slash_too_is_one_operation(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(yaml.safe_dump(SPEC))
    plan, report = plan_source(str(spec), GenerateOptions())
    assert sorted((t.name, t.operation.method, t.operation.path) for t in plan.tools) == [
        ("list_files", "GET", "/api/v2/files"),
        ("list_tag_names", "GET", "/api/v2/tags/"),
        ("list_tags", "GET", "/api/v2/tags"),
        ("upload_user_file", "POST", "/api/v2/files"),
    ]
    # one URI reads one operation: the other of two that are no twins stays a tool
    assert sorted(r.uri for r in plan.resources) == ["files://api/v2/files", "files://api/v2/tags"]
    (taken,) = [d for d in report.diagnostics if d.code == "resource-uri-taken"]
    assert (taken.pointer, taken.message) == (
        "#/paths/~1api~1v2~1tags~1/get",
        "files://api/v2/tags already reads GET /api/v2/tags: GET /api/v2/tags/ is a tool, no "
        "resource",
    )
    told = [(d.pointer, d.message) for d in report.diagnostics if d.code == "operation-slash-twin"]
    assert told == [
        (
            "#/paths/~1api~1v2~1files~1/get",
            "GET /api/v2/files/ is GET /api/v2/files with a trailing slash, the same summary, "
            "parameters and body: one operation, kept as the one without it",
        ),
        (
            "#/paths/~1api~1v2~1files~1/post",
            "POST /api/v2/files/ is POST /api/v2/files with a trailing slash, the same summary, "
            "parameters and body: one operation, kept as the one without it",
        ),
    ]
