"""kinto 26.5.0 (its live Swagger 2.0 document, /v1/__api__) driven through a generated MCP server.

A user signs up anonymously (``PUT /accounts/{id}``), then, with ``KINTO_HEADERS`` carrying their
Basic credentials (the document declares no security scheme although every write needs them),
builds a bucket, a collection and records, reads, patches, replaces, lists, filters and deletes
them. Every effect is checked with a direct request to kinto. The server root answers 307 to
``/v1/``: a GET there is followed to kinto's server information.
"""

from __future__ import annotations

import base64
from typing import Any

import httpx
import pytest
from mcp.types import CallToolResult

from tests.realapis.conftest import LiveApi, headers_env, mcp_client, only_text, whole_result

pytestmark = pytest.mark.realapi


def _basic(user: str, password: str) -> dict[str, str]:
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def _data(result: CallToolResult) -> dict[str, Any]:
    """``data`` of a kinto object answer, from the result's structured content."""
    assert not result.is_error, result
    content = result.structured_content
    assert isinstance(content, dict), result
    data: dict[str, Any] = content["data"]
    return data


def _own_fields(record: dict[str, Any]) -> dict[str, Any]:
    """A record's data without the fields kinto adds itself."""
    return {key: value for key, value in record.items() if key not in ("id", "last_modified")}


async def test_generated_from_the_live_document(kinto: LiveApi) -> None:
    assert (kinto.spec["host"], kinto.spec["basePath"]) == (f"127.0.0.1:{kinto.server.port}", "/v1")
    assert kinto.spec["securityDefinitions"] == {}  # hence KINTO_HEADERS for the credentials
    async with mcp_client(kinto.stdio(), "auto") as client:
        assert client.server_info is not None and client.server_info.name == "kinto-mcp"
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert {
        "update_account",
        "create_bucket",
        "create_collection",
        "create_record",
        "get_record",
        "get_records",
        "patch_record",
        "update_record",
        "delete_record",
        "server_info",
    } <= set(tools)
    deleting = tools["delete_record"].annotations
    assert deleting is not None and deleting.destructive_hint and deleting.idempotent_hint


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_sign_up_then_build_read_change_list_and_delete_records(
    kinto: LiveApi, mode: str
) -> None:
    user, password = f"reader-{mode}", f"pw-{mode}-kinto-7c1e"
    bucket, collection = f"shelf-{mode}", "books"
    auth = _basic(user, password)
    with httpx.Client(base_url=kinto.base_url, headers=auth, timeout=10) as server:
        # 1. sign up, anonymously; writes without credentials are refused
        async with mcp_client(kinto.stdio(), mode) as client:
            account = await client.call_tool(
                "update_account", {"id": user, "data": {"password": password}}
            )
            anonymous = await client.call_tool("create_bucket", {"data": {"id": bucket}})
        assert _data(account)["id"] == user
        assert password not in whole_result(account)
        assert server.get(f"/accounts/{user}").json()["data"]["id"] == user
        assert anonymous.is_error
        assert "401" in only_text(anonymous)
        assert server.get(f"/buckets/{bucket}").status_code in (403, 404)

        stdio = kinto.stdio(HEADERS=headers_env(auth))
        async with mcp_client(stdio, mode) as client:
            # 2. a bucket and a collection
            made = await client.call_tool("create_bucket", {"data": {"id": bucket}})
            assert _data(made)["id"] == bucket
            assert server.get(f"/buckets/{bucket}").json()["data"]["id"] == bucket
            shelf = await client.call_tool(
                "create_collection", {"bucket_id": bucket, "data": {"id": collection}}
            )
            assert _data(shelf)["id"] == collection
            assert server.get(f"/buckets/{bucket}/collections/{collection}").status_code == 200
            where = {"bucket_id": bucket, "collection_id": collection}
            records = f"/buckets/{bucket}/collections/{collection}/records"

            # 3. a record, read back
            dune = {"title": "Dune", "author": "Frank Herbert", "year": 1965}
            created = _data(await client.call_tool("create_record", {**where, "data": dune}))
            record_id = created["id"]
            assert _own_fields(created) == dune
            assert _own_fields(server.get(f"{records}/{record_id}").json()["data"]) == dune
            read = _data(await client.call_tool("get_record", {**where, "id": record_id}))
            assert read == server.get(f"{records}/{record_id}").json()["data"]

            # 4. PATCH changes one field, PUT replaces the record
            patched = await client.call_tool(
                "patch_record", {**where, "id": record_id, "data": {"year": 1966}}
            )
            assert _own_fields(_data(patched)) == {**dune, "year": 1966}
            assert server.get(f"{records}/{record_id}").json()["data"]["year"] == 1966
            messiah = {"title": "Dune Messiah", "author": "Frank Herbert", "year": 1969}
            replaced = await client.call_tool(
                "update_record", {**where, "id": record_id, "data": messiah}
            )
            assert _own_fields(_data(replaced)) == messiah
            assert _own_fields(server.get(f"{records}/{record_id}").json()["data"]) == messiah

            # 5. list, sort, limit and filter
            hyperion = {"title": "Hyperion", "author": "Dan Simmons", "year": 1989}
            other_id = _data(await client.call_tool("create_record", {**where, "data": hyperion}))[
                "id"
            ]
            newest = await client.call_tool("get_records", {**where, "_sort": ["-year"]})
            oldest = await client.call_tool(
                "get_records", {**where, "_sort": ["year"], "_limit": 1}
            )
            by_id = await client.call_tool("get_records", {**where, "id": other_id})
            for listing in (newest, oldest, by_id):
                assert not listing.is_error, listing
            assert [r["title"] for r in newest.structured_content["data"]] == [
                "Hyperion",
                "Dune Messiah",
            ]
            assert [r["title"] for r in oldest.structured_content["data"]] == ["Dune Messiah"]
            assert [r["id"] for r in by_id.structured_content["data"]] == [other_id]

            # 6. delete
            deleted = _data(await client.call_tool("delete_record", {**where, "id": record_id}))
            assert deleted == {
                "id": record_id,
                "deleted": True,
                "last_modified": deleted["last_modified"],
            }
            assert server.get(f"{records}/{record_id}").status_code == 404
            left = await client.call_tool("get_records", where)
            assert [r["id"] for r in left.structured_content["data"]] == [other_id]
        assert [r["id"] for r in server.get(records).json()["data"]] == [other_id]


async def test_a_get_of_the_server_root_follows_its_redirect(kinto: LiveApi) -> None:
    direct = httpx.get(kinto.root_url + "/", follow_redirects=False)
    assert direct.status_code == 307
    assert direct.headers["location"].endswith("/v1/")
    # server_info is GET / below the base URL: at the server root that is the redirecting URL
    async with mcp_client(kinto.stdio(BASE_URL=kinto.root_url), "auto") as client:
        result = await client.call_tool("server_info", {})
    assert not result.is_error, result
    info = result.structured_content
    assert isinstance(info, dict), result
    assert info["project_name"] == "kinto"
    assert info["project_version"] == "26.5.0"
    assert info["url"] == f"{kinto.root_url}/v1/"
