"""A model's JSON Schema set inline in a FastAPI document keeps its own ``$defs`` and refers to them
from its root (``#/$defs/JobStatus``), which is the document's root in OpenAPI: Langflow's workflow
list. The reference is read as the schema around it means it, not replaced by ``{}``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from openapi2mcp.generate import GenerateOptions, plan_source

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Flows", "version": "1.0"},
    "servers": [{"url": "https://flows.example.com"}],
    "paths": {
        "/api/v2/workflows": {
            "get": {
                "operationId": "list_workflows",
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "status": {"$ref": "#/$defs/JobStatus"},
                                        "missing": {"$ref": "#/$defs/Nowhere"},
                                    },
                                    "$defs": {
                                        "JobStatus": {
                                            "type": "string",
                                            "enum": ["queued", "done"],
                                        }
                                    },
                                }
                            }
                        },
                    }
                },
            }
        }
    },
}


def test_a_reference_to_the_defs_of_an_inline_schema_is_read(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(yaml.safe_dump(SPEC))
    plan, report = plan_source(str(spec), GenerateOptions())
    (tool,) = plan.tools
    output = tool.output_schema
    assert output is not None
    status = output["properties"]["status"]
    target = status["$ref"].rsplit("/", 1)[-1] if "$ref" in status else None
    resolved = plan.api.output_schemas[target] if target else status
    assert resolved["enum"] == ["queued", "done"]
    missing = [(d.pointer, d.message) for d in report.diagnostics if d.code == "ref-missing"]
    assert missing == [
        (
            "#/paths/~1api~1v2~1workflows/get/responses/200/content/application~1json/schema/"
            "properties/missing",
            "$ref '#/$defs/Nowhere' points to nothing; replaced by {}",
        )
    ]
