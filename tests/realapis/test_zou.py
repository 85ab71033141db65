"""Kitsu's Zou 1.0 (PyPI: Flask-RESTful; its live OpenAPI 3.0.2 document, 853 operations, written
by flasgger from docstrings) driven through a generated MCP server.

Its document keeps Swagger 2.0's habits: 246 parameters typed beside them instead of in a schema,
and the fields of 20 operations ``in: formData`` (a comment's reply, its attachments), which
OpenAPI 3 does not have: those operations had been skipped, and the typed parameters taken as any
value. Read as 2.0 means them, a production is made, an asset in it, a task for the asset, a
comment on the task, a reply to the comment (a form) and an attachment (a multipart file); every
effect is checked with a direct request to Zou. It signs in with a JWT the document says goes as
``Bearer <token>``.
"""

from __future__ import annotations

import base64
from typing import Any

import httpx
import pytest
from mcp import Client

from tests.realapis.conftest import LiveApi, content, every_tool, mcp_client

pytestmark = pytest.mark.realapi

PNG = bytes.fromhex("89504e470d0a1a0a") + bytes(40)


def _direct(live: LiveApi, path: str) -> Any:
    """``path`` read from Zou directly, with the administrator's token."""
    token = live.credentials["JWT_AUTHORIZATION_KEY"]
    answer = httpx.get(
        live.root_url + path, headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    answer.raise_for_status()
    return answer.json()


async def _titled(client: Client) -> dict[str, str]:
    """The tools by their titles (Zou's summaries: its operations have no operationId)."""
    return {tool.title or "": tool.name for tool in (await every_tool(client)).values()}


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_comment_on_a_task_gets_a_reply_and_an_attachment(zou: LiveApi, mode: str) -> None:
    async with mcp_client(zou.stdio(**zou.credentials), mode) as client:
        tools = await _titled(client)
        made = content(await client.call_tool("post_data_projects", {"name": f"Moonrise {mode}"}))
        project = made["id"]
        [fx] = [
            t
            for t in content(await client.call_tool("get_data_asset_types", {}))
            if t["name"] == "FX"
        ]
        asset = content(
            await client.call_tool(
                tools["Create asset"],
                {
                    "project_id": project,
                    "asset_type_id": fx["id"],
                    "name": "Smoke",
                    "description": "a plume",
                    "data": {},
                    "is_shared": False,
                    "source_id": "",
                },
            )
        )
        assert _direct(zou, f"/data/assets/{asset['id']}")["name"] == "Smoke"

        task_types = content(await client.call_tool("get_data_task_types", {}))
        modeling = next(t for t in task_types if t["for_entity"] == "Asset")
        [task] = content(
            await client.call_tool(
                tools["Create asset tasks"],
                {"project_id": project, "task_type_id": modeling["id"], "body": [asset["id"]]},
            )
        )
        statuses = content(await client.call_tool("get_data_task_status", {}))
        todo = next(s for s in statuses if s["short_name"] == "todo")
        comment = content(
            await client.call_tool(
                tools["Create task comment"],
                {"task_id": task["id"], "task_status_id": todo["id"], "comment": "More smoke"},
            )
        )

        # the reply's text is a form field (in: formData), the attachment a multipart file
        reply = content(
            await client.call_tool(
                tools["Reply to comment"],
                {"task_id": task["id"], "comment_id": comment["id"], "text": "On it & done"},
            )
        )
        attached = content(
            await client.call_tool(
                tools["Add comment attachments"],
                {
                    "task_id": task["id"],
                    "comment_id": comment["id"],
                    "files": base64.b64encode(PNG).decode(),
                },
            )
        )
        stored = _direct(zou, f"/data/comments/{comment['id']}")
        assert [r["text"] for r in stored["replies"]] == ["On it & done"]
        assert stored["replies"][0]["id"] == reply["id"]
        assert [(a["id"], a["size"]) for a in attached] == [
            (stored["attachment_files"][0]["id"], len(PNG))
        ]
        # bare base64 of a PNG goes named files.png, as image/png (its first bytes say so): Zou
        # had stored "files", with no extension
        assert [(a["name"], a["extension"]) for a in attached] == [("files.png", "png")]
