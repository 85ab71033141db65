"""LoopBack 4's file-transfer example (npm; its live OpenAPI 3.0 document) driven through a
generated MCP server: a multipart upload whose file is named by a data URL, the list of stored
files, and the download of the same bytes as a blob."""

from __future__ import annotations

import base64
import uuid

import pytest
from mcp.types import BlobResourceContents, EmbeddedResource, TextContent

from tests.realapis.conftest import LiveApi, mcp_client

pytestmark = pytest.mark.realapi

# bytes that are no text: a NUL, a byte that is no UTF-8, a line break
CONTENT = b"report\x00\xff\r\n" + bytes(range(256))


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_named_file_is_uploaded_listed_and_downloaded_byte_for_byte(
    loopback_files: LiveApi, mode: str
) -> None:
    name = f"Q3 report {uuid.uuid4().hex[:6]}.bin"
    data_url = (
        f"data:application/octet-stream;name={name.replace(' ', '%20')};base64,"
        + base64.b64encode(CONTENT).decode()
    )
    async with mcp_client(loopback_files.stdio(), mode) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert tools == {"file_upload", "download_file", "file_download_list_files"}

        uploaded = await client.call_tool("file_upload", {"file": data_url})
        assert not uploaded.is_error, uploaded
        (stored,) = uploaded.structured_content["files"]
        assert (stored["originalname"], stored["size"]) == (name, len(CONTENT))

        listed = await client.call_tool("file_download_list_files", {})
        assert not listed.is_error, listed
        files = listed.structured_content
        if mode == "legacy":
            files = files["result"]
        assert name in files

        downloaded = await client.call_tool("download_file", {"filename": name})
    assert not downloaded.is_error, downloaded
    block, told = downloaded.content
    # the file's name, which only its Content-Disposition says
    assert isinstance(told, TextContent)
    assert f'filename="{name}"' in told.text, told.text
    assert isinstance(block, EmbeddedResource)
    assert isinstance(block.resource, BlobResourceContents)
    assert block.resource.mime_type == "application/octet-stream"
    assert base64.b64decode(block.resource.blob) == CONTENT
