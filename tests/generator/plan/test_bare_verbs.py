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


NINJA = """\
openapi: 3.1.0
info: {title: Archive, version: "1"}
servers: [{url: "https://archive.example"}]
paths:
  /api/v1/core/snapshots:
    get: {operationId: archivebox_api_v1_core_get_snapshots, responses: {"200": {description: ok}}}
  /api/v1/core/snapshot/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: archivebox_api_v1_core_get_snapshot, responses: {"200": {description: ok}}}
  /api/v1/cli/add:
    post: {operationId: archivebox_api_v1_cli_cli_add, responses: {"200": {description: ok}}}
"""


def test_the_words_every_id_leads_with_up_to_its_version_are_left_out(tmp_path: Path) -> None:
    # django-ninja's ids lead with the API's module path (ArchiveBox's archivebox_api_v1_)
    spec = tmp_path / "openapi.yaml"
    spec.write_text(NINJA)
    plan, _ = plan_source(str(spec), GenerateOptions(tool_mode="full"))
    assert sorted(tool.name for tool in plan.tools) == [
        "cli_cli_add",
        "core_get_snapshot",
        "core_get_snapshots",
    ]
    # without a mount or a version among them, shared words are the API's things: kept
    spec.write_text(NINJA.replace("archivebox_api_v1_", "pets_"))
    plan, _ = plan_source(str(spec), GenerateOptions(tool_mode="full"))
    assert sorted(tool.name for tool in plan.tools) == [
        "pets_cli_cli_add",
        "pets_core_get_snapshot",
        "pets_core_get_snapshots",
    ]
