# Created by openapi2mcp 0.1.0. This file is yours: regeneration never overwrites it.
"""Your own code for the bookshop-mcp MCP server: extra tools, resources, prompts, hooks.

The server imports this module when it starts; an error here stops it with a one-line message (set
MCP_LOG_LEVEL=DEBUG for the traceback). Regenerating the package keeps this file exactly as it is.

- ``@tool``, ``@resource`` and ``@prompt`` (from ``._runtime.hooks``) turn async functions into MCP
  tools, resources (or resource templates) and prompts, listed after the generated ones. A tool's
  arguments are validated against its ``input_schema`` before the function runs, and its result
  against its ``output_schema``; raise ``ToolError`` to answer the model with an error.
- ``before_request(request)`` runs before every request to the API, with the ``httpx.Request``:
  add or change headers there.
- ``after_response(operation, response)`` runs on every API response, an ``UpstreamResponse``, and
  returns the response to use (``dataclasses.replace`` it to trim the body). ``operation`` is the
  operation's key in ``catalog.json`` (its operationId when the spec has one).

Uncomment what you need below; README.md ("Custom code") has more.
"""

from __future__ import annotations

# import json
# from dataclasses import replace
# from typing import Any
#
# import httpx
#
# from ._runtime.hooks import ToolError, UpstreamResponse, prompt, resource, tool
#
#
# @tool(
#     name="add_numbers",
#     description="Add two integers.",
#     input_schema={
#         "type": "object",
#         "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
#         "required": ["a", "b"],
#     },
#     output_schema={
#         "type": "object",
#         "properties": {"sum": {"type": "integer"}},
#         "required": ["sum"],
#     },
#     annotations={"readOnlyHint": True, "openWorldHint": False},
# )
# async def add_numbers(a: int, b: int) -> dict[str, Any]:
#     if abs(a) > 10**9 or abs(b) > 10**9:
#         raise ToolError("Both numbers must be at most 10**9 in size.")
#     return {"sum": a + b}
#
#
# @resource("notes://about", name="about", mime_type="text/markdown")
# async def about() -> str:
#     return "# About\n\nNotes for the model about this API."
#
#
# @prompt(name="summarise", arguments={"topic": "What to summarise"})
# async def summarise(topic: str) -> str:
#     return f"Summarise everything the API knows about {topic}."
#
#
# async def before_request(request: httpx.Request) -> None:
#     request.headers["X-Client"] = "my-mcp-server"
#
#
# async def after_response(operation: str, response: UpstreamResponse) -> UpstreamResponse:
#     if response.status == 200 and response.content_type.startswith("application/json"):
#         data = json.loads(response.body)
#         if isinstance(data, list):
#             return replace(response, body=json.dumps(data[:50]).encode())
#     return response
