"""Pulp 3.123 (PyPI: pulpcore and its file plugin; Django REST framework, the live OpenAPI 3.1
document drf-spectacular writes, /pulp/api/v3/docs/api.json) driven through a generated MCP server.

Pulp names what it made by href (``/pulp/api/v3/repositories/file/file/<id>/``), and 156 of its
216 paths are keyed by one: ``{file_file_repository_href}``, ``{task_href}``,
``{file_file_repository_href}modify/``. Such a parameter is the path to call, slashes kept (it had
been encoded as one segment, so that every call by href missed). Its uploads offer JSON, a form and
multipart for a body with a file: the file goes as multipart (a form had sent its base64 text).
Changes are tasks: the API answers 202 with a task's href, which the worker runs. A repository is
made, a file uploaded into it, labelled, changed, emptied and deleted; every effect is checked
with a direct request to Pulp.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
from typing import Any

import httpx
import pytest
from mcp import Client

from tests.realapis.conftest import PULP_PASSWORD, LiveApi, content, mcp_client, only_text

pytestmark = pytest.mark.realapi

FILE = b"Pulp keeps what it is given.\n"


def _direct(live: LiveApi, href: str) -> httpx.Response:
    """``href`` read from Pulp directly, as the administrator."""
    return httpx.get(live.root_url + href, auth=("admin", PULP_PASSWORD), timeout=10)


async def _finished(client: Client, answer: Any) -> dict[str, Any]:
    """The task a 202 answered with, read through the task tool until the worker is done."""
    task_href = answer["task"]
    for _ in range(300):
        task: dict[str, Any] = content(
            await client.call_tool(
                "tasks_read",
                {"task_href": task_href, "fields": ["state", "created_resources", "error"]},
            )
        )
        if task["state"] not in ("waiting", "running"):
            assert task["state"] == "completed", task
            return task
        await asyncio.sleep(0.1)
    raise AssertionError(f"task {task_href} still {task['state']}")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_repository_gets_a_file_a_label_a_change_and_is_deleted(
    pulp: LiveApi, mode: str
) -> None:
    async with mcp_client(pulp.stdio(**pulp.credentials), mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        upload = tools["content_file_files_create"].input_schema["properties"]["file"]
        assert upload["contentEncoding"] == "base64"
        made = content(
            await client.call_tool("repositories_file_file_create", {"name": f"docs-{mode}"})
        )
        repository = made["pulp_href"]
        assert repository.startswith("/pulp/api/v3/repositories/file/file/")
        assert _direct(pulp, repository).json()["name"] == f"docs-{mode}"

        # a file in multipart, into the repository: a task that makes its content and version 1
        uploaded = await _finished(
            client,
            content(
                await client.call_tool(
                    "content_file_files_create",
                    {
                        "file": base64.b64encode(FILE).decode(),
                        "relative_path": "notes/keep.txt",
                        "repository": repository,
                    },
                )
            ),
        )
        [unit] = [h for h in uploaded["created_resources"] if "/content/file/files/" in h]
        stored = _direct(pulp, unit).json()
        assert (stored["relative_path"], stored["sha256"]) == (
            "notes/keep.txt",
            hashlib.sha256(FILE).hexdigest(),
        )

        # read by its href, and by the href of what is under it (no last slash: one is added)
        versions = content(
            await client.call_tool(
                "repositories_file_file_versions_list",
                {"file_file_repository_href": repository, "fields": ["number", "content_summary"]},
            )
        )
        assert [v["number"] for v in versions["results"]] == [1, 0]
        assert versions["results"][0]["content_summary"]["present"]["file.file"]["count"] == 1
        roles = content(
            await client.call_tool(
                "repositories_file_file_list_roles",
                {"file_file_repository_href": repository.rstrip("/")},
            )
        )
        assert roles["roles"][0]["users"] == ["admin"]

        labelled = content(
            await client.call_tool(
                "repositories_file_file_set_label",
                {"file_file_repository_href": repository, "key": "team", "value": mode},
            )
        )
        assert labelled == {"key": "team", "value": mode}
        found = content(
            await client.call_tool(
                "repositories_file_file_list",
                {"pulp_label_select": f"team={mode}", "fields": ["pulp_href"]},
            )
        )
        assert found["results"] == [{"pulp_href": repository}]

        # a change is a task too; a null clears what was set
        await _finished(
            client,
            content(
                await client.call_tool(
                    "repositories_file_file_partial_update",
                    {
                        "file_file_repository_href": repository,
                        "description": "kept notes",
                        "retain_repo_versions": None,
                    },
                )
            ),
        )
        assert _direct(pulp, repository).json()["description"] == "kept notes"

        await _finished(
            client,
            content(
                await client.call_tool(
                    "repositories_file_file_modify",
                    {"file_file_repository_href": repository, "remove_content_units": [unit]},
                )
            ),
        )
        latest = _direct(pulp, repository).json()["latest_version_href"]
        assert latest.endswith("/versions/2/")
        assert _direct(pulp, latest).json()["content_summary"]["present"] == {}

        await _finished(
            client,
            content(
                await client.call_tool(
                    "repositories_file_file_delete", {"file_file_repository_href": repository}
                )
            ),
        )
        assert _direct(pulp, repository).status_code == 404


async def test_an_href_that_names_a_host_is_refused_and_a_wrong_password_named(
    pulp: LiveApi,
) -> None:
    async with mcp_client(pulp.stdio(**pulp.credentials), "auto") as client:
        elsewhere = f"{pulp.root_url}/pulp/api/v3/tasks/"
        refused = await client.call_tool("tasks_read", {"task_href": elsewhere})
    assert refused.is_error
    assert only_text(refused) == (
        "argument 'task_href' is refused: it takes a path of the API (such as an href a response "
        "gave, '/…/'), not a URL"
    )
    wrong = {"BASIC_AUTH_USERNAME": "admin", "BASIC_AUTH_PASSWORD": "not-the-password"}
    async with mcp_client(pulp.stdio(**wrong), "auto") as client:
        denied = await client.call_tool("repositories_file_file_list", {})
    assert denied.is_error
    assert only_text(denied) == (
        'Upstream returned 401 Unauthorized: {"detail":"Invalid username/password."}\n'
        "The API did not accept the credentials of PULP_BASIC_AUTH_USERNAME, "
        "PULP_BASIC_AUTH_PASSWORD."
    )
