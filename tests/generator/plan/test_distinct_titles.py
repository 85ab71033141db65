"""Tools that share a title are told apart in it: Aim's five "Search Api" (one per kind of
sequence), and two whose names say nothing more by their method and path."""

from __future__ import annotations

from pathlib import Path

from openapi2mcp.generate import GenerateOptions, plan_source

SPEC = """\
openapi: 3.1.0
info: {title: Runs, version: "1.0"}
servers: [{url: "https://runs.example.com"}]
paths:
  /runs/search/images:
    get: {operationId: search_api_images, summary: Search Api, responses: {"200": {description: ok}}}
  /runs/search/texts:
    get: {operationId: search_api_texts, summary: Search Api, responses: {"200": {description: ok}}}
  /runs/search/run:
    get: {operationId: run_search_api, summary: Run Search Api, responses: {"200": {description: ok}}}
  /v1/tools/mcp/servers:
    get: {operationId: list_mcp_servers, summary: List Mcp Servers, responses: {"200": {description: ok}}}
  /v1/mcp-servers/:
    get: {operationId: mcp_list_mcp_servers, summary: List Mcp Servers, responses: {"200": {description: ok}}}
  /cog/point/{lon},{lat}:
    get: {operationId: cog_get_data_for_point, summary: Point, responses: {"200": {description: ok}}}
  /stac/point/{lon},{lat}:
    get: {operationId: stac_get_data_for_point, summary: Point, responses: {"200": {description: ok}}}
"""


def test_a_shared_title_says_what_tells_each_tool_apart(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(SPEC)
    plan, _ = plan_source(str(spec), GenerateOptions())
    titles = {tool.name: (tool.title, tool.annotations.title) for tool in plan.tools}
    assert {name: title for name, (title, _) in titles.items()} == {
        "search_api_images": "Search Api (images)",
        "search_api_texts": "Search Api (texts)",
        "run_search_api": "Run Search Api",
        "list_mcp_servers": "List Mcp Servers (GET /v1/tools/mcp/servers)",
        "mcp_list_mcp_servers": "List Mcp Servers (GET /v1/mcp-servers/)",
        # TiTiler's: what every name says tells none apart
        "cog_get_data_for_point": "Point (cog)",
        "stac_get_data_for_point": "Point (stac)",
    }
    assert all(title == annotated for title, annotated in titles.values())
    # the resources that read them say it too
    assert {r.name: r.title for r in plan.resources}["search_api_texts"] == "Search Api (texts)"
