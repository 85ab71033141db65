"""Operations whose operationIds are one word they share are named by that word and their path.

Regression (Karrio 2026.1): its operationIds are ``$list``, ``&&&list``, ``$create`` … (the
punctuation only makes them unique); its tools were ``list``, ``list_2`` … ``list_13``, which no
model can tell apart. Now ``list_addresses``, ``list_connections``, ``retrieve_addresses``.
"""

from __future__ import annotations

from pathlib import Path

from openapi2mcp.generate import GenerateOptions, plan_source

SPEC = """\
openapi: 3.0.3
info: {title: Shipping, version: "1"}
servers: [{url: "https://shipping.example"}]
paths:
  /v1/addresses:
    get: {operationId: $list, responses: {"200": {description: ok}}}
    post: {operationId: $create, responses: {"201": {description: made}}}
  /v1/addresses/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: $retrieve, responses: {"200": {description: ok}}}
  /v1/connections:
    get: {operationId: "&&&list", responses: {"200": {description: ok}}}
  /v1/batches/operations:
    get: {operationId: "&&&&$list", responses: {"200": {description: ok}}}
  /v1/documents/generate:
    post: {operationId: "&&generate_document", responses: {"200": {description: ok}}}
  /v1/trackers/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: retrieve, responses: {"200": {description: ok}}}
"""


def test_a_shared_one_word_id_is_told_apart_by_its_path(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(SPEC)
    plan, _ = plan_source(str(spec), GenerateOptions(tool_mode="full"))
    assert sorted(tool.name for tool in plan.tools) == [
        "create",  # one of its word: nothing to tell apart
        "generate_document",
        "list_addresses",
        "list_batches_operations",
        "list_connections",
        "retrieve_addresses",
        "retrieve_trackers",
    ]
