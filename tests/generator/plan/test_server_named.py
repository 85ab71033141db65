"""Operations without an operationId whose path names nothing are named by their server's URL.

Regression (Signal K 2.32): its notifications API is served at ``/signalk/v2/api/notifications``
with paths ``/`` and ``/{id}`` and no operationIds; its tools were ``get``, ``post``, ``get_id``
and ``delete_id``, which say nothing, and collide with another API's in one client.
"""

from __future__ import annotations

from pathlib import Path

from openapi2mcp.generate import GenerateOptions, plan_source

SPEC = """\
openapi: 3.0.3
info: {title: Notifications, version: "2"}
servers: [{url: SERVER}]
paths:
  /:
    get: {responses: {"200": {description: ok}}}
    post: {responses: {"201": {description: made}}}
  /{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {responses: {"200": {description: ok}}}
    delete: {responses: {"204": {description: gone}}}
  /mob:
    post: {responses: {"201": {description: made}}}
  /named/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: readNamed, responses: {"200": {description: ok}}}
"""


def _names(tmp_path: Path, server: str) -> list[str]:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(SPEC.replace("SERVER", server))
    plan, _ = plan_source(str(spec), GenerateOptions(tool_mode="full"))
    return sorted(tool.name for tool in plan.tools)


def test_the_servers_last_word_names_what_a_bare_path_is_about(tmp_path: Path) -> None:
    assert _names(tmp_path, "/signalk/v2/api/notifications") == [
        "delete_notifications_id",
        "get_notifications",
        "get_notifications_id",
        "post_mob",
        "post_notifications",
        "read_named",
    ]


def test_a_server_that_names_only_its_version_or_api_names_nothing(tmp_path: Path) -> None:
    assert _names(tmp_path, "https://api.example.com/api/v2") == [
        "delete_id",
        "get",
        "get_id",
        "post",
        "post_mob",
        "read_named",
    ]
