"""What a document deprecates is said to the model, which uses whatever it is shown: Letta's
``use_legacy_format`` ("Legacy format is not supported") and, kept with --include-deprecated, its
deprecated operations."""

from __future__ import annotations

from pathlib import Path

from openapi2mcp.generate import GenerateOptions, plan_source

SPEC = """\
openapi: 3.1.0
info: {title: Agents, version: "1.0"}
servers: [{url: "https://agents.example.com"}]
paths:
  /v1/agents/{agent_id}/export:
    get:
      operationId: export_agent
      summary: Export Agent
      parameters:
        - {name: agent_id, in: path, required: true, schema: {type: string}}
        - name: use_legacy_format
          in: query
          deprecated: true
          description: Use the legacy format
          schema: {type: boolean}
      responses: {"200": {description: ok}}
  /v1/agents:
    post:
      operationId: create_agent
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                name: {type: string}
                memory_blocks: {type: array, items: {type: string}, deprecated: true}
      responses: {"200": {description: ok}}
  /v1/sources:
    get:
      operationId: list_sources
      summary: List Sources
      deprecated: true
      responses: {"200": {description: ok}}
"""


def test_deprecated_parameters_and_operations_say_so(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(SPEC)
    plan, _ = plan_source(str(spec), GenerateOptions(include_deprecated=True))
    tools = {tool.name: tool for tool in plan.tools}
    legacy = tools["export_agent"].input_schema["properties"]["use_legacy_format"]
    assert legacy["description"] == (
        "Use the legacy format. Deprecated: leave it out unless the task needs it."
    )
    assert tools["list_sources"].description == "Deprecated. List Sources"
    assert tools["export_agent"].description == "Export Agent"
    fields = tools["create_agent"].input_schema["properties"]
    assert fields["memory_blocks"]["description"] == (
        "Deprecated: leave it out unless the task needs it."
    )
    assert "description" not in fields["name"]
