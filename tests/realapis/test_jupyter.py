"""jupyter-server 2.21.1 (its live Swagger 2.0 document, /api/spec.yaml) through a generated MCP server.

The document has no host (``JUPYTER_BASE_URL`` gives it) and declares no security scheme although
every call needs ``Authorization: token …`` (``JUPYTER_HEADERS``). The contents API is driven as a
user would: make a directory, create an untitled file and save a text file in it, read it back,
rename it, list the directory, delete. Each effect is checked on the server (a direct request) and
on disk (the server's root directory). Jupyter's answers drift from its own document (``content``,
``format`` and ``mimetype`` are ``null`` where it promises strings): they are still successes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.types import CallToolResult

from tests.realapis.conftest import (
    JUPYTER_TOKEN,
    LiveApi,
    headers_env,
    mcp_client,
    only_text,
    result_json,
)

pytestmark = pytest.mark.realapi

AUTH = {"Authorization": f"token {JUPYTER_TOKEN}"}
CONTENTS = "get_api_contents_path"


def _model(result: CallToolResult) -> dict[str, Any]:
    """The contents model a successful result carries: the text is the response as received; the
    structured content is the same model, with what breaks the documented schema set to null
    (jupyter documents ``content`` as a string, yet a directory's is a list)."""
    assert not result.is_error, result
    model = result_json(result)
    assert isinstance(model, dict)
    structured = result.structured_content
    assert isinstance(structured, dict) and structured.keys() == model.keys()
    assert all(structured[key] in (model[key], None) for key in model)
    return model


async def test_generated_from_the_live_document(jupyter: LiveApi) -> None:
    assert jupyter.spec["swagger"] == "2.0"
    assert "host" not in jupyter.spec and "securityDefinitions" not in jupyter.spec
    async with mcp_client(jupyter.stdio(HEADERS=headers_env(AUTH)), "auto") as client:
        assert client.server_info is not None and client.server_info.name == "jupyter-mcp"
        names = {tool.name for tool in (await client.list_tools()).tools}
        status = await client.call_tool("get_api_status", {})
    assert {
        CONTENTS,
        "put_api_contents_path",
        "post_api_contents_path",
        "patch_api_contents_path",
        "delete_api_contents_path",
    } <= names
    assert not status.is_error, status
    assert "started" in result_json(status)


async def test_without_the_token_header_the_server_refuses(jupyter: LiveApi) -> None:
    async with mcp_client(jupyter.stdio(), "auto") as client:
        result = await client.call_tool(CONTENTS, {"path": "private.txt"})
    assert result.is_error
    assert "403" in only_text(result)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_make_write_read_rename_list_and_delete_files(
    jupyter: LiveApi, jupyter_root: Path, mode: str
) -> None:
    folder = f"notes-{mode}"
    with httpx.Client(base_url=jupyter.root_url + "/api/contents", headers=AUTH) as server:
        stdio = jupyter.stdio(HEADERS=headers_env(AUTH))
        async with mcp_client(stdio, mode) as client:
            # 1. a directory (201 with content/format/mimetype null: still a success)
            made = _model(
                await client.call_tool(
                    "put_api_contents_path", {"path": folder, "type": "directory"}
                )
            )
            assert (made["type"], made["path"]) == ("directory", folder)
            assert (jupyter_root / folder).is_dir()
            assert server.get(f"/{folder}").json()["type"] == "directory"

            # 2. an untitled file (POST), then a text file saved under its name (PUT)
            untitled = _model(
                await client.call_tool(
                    "post_api_contents_path", {"path": folder, "type": "file", "ext": ".txt"}
                )
            )
            assert (untitled["name"], untitled["path"]) == (
                "untitled.txt",
                f"{folder}/untitled.txt",
            )
            assert (jupyter_root / folder / "untitled.txt").read_text() == ""
            text = "buy milk\nwrite tests\n"
            saved = _model(
                await client.call_tool(
                    "put_api_contents_path",
                    {
                        "path": f"{folder}/todo.txt",
                        "type": "file",
                        "format": "text",
                        "content": text,
                    },
                )
            )
            assert (saved["name"], saved["path"], saved["size"]) == (
                "todo.txt",
                f"{folder}/todo.txt",
                len(text),
            )
            assert (jupyter_root / folder / "todo.txt").read_text() == text

            # 3. read it back
            read = _model(
                await client.call_tool(
                    CONTENTS, {"path": f"{folder}/todo.txt", "type": "file", "format": "text"}
                )
            )
            assert (read["content"], read["format"], read["mimetype"]) == (
                text,
                "text",
                "text/plain",
            )
            assert read["content"] == server.get(f"/{folder}/todo.txt").json()["content"]

            # 4. rename
            renamed = _model(
                await client.call_tool(
                    "patch_api_contents_path",
                    # the body's new path beside the path's old one
                    {"path": f"{folder}/todo.txt", "body_path": f"{folder}/done.txt"},
                )
            )
            assert renamed["path"] == f"{folder}/done.txt"
            assert not (jupyter_root / folder / "todo.txt").exists()
            assert (jupyter_root / folder / "done.txt").read_text() == text
            assert server.get(f"/{folder}/todo.txt").status_code == 404

            # 5. list the directory
            listing = _model(await client.call_tool(CONTENTS, {"path": folder}))
            assert listing["type"] == "directory"
            assert sorted(entry["name"] for entry in listing["content"]) == [
                "done.txt",
                "untitled.txt",
            ]

            # 6. delete the files, then the directory (204, no body)
            for path in (f"{folder}/done.txt", f"{folder}/untitled.txt", folder):
                gone = await client.call_tool("delete_api_contents_path", {"path": path})
                assert not gone.is_error, gone
                assert "204" in only_text(gone)
                assert server.get(f"/{path}").status_code == 404

    assert not (jupyter_root / folder).exists()
