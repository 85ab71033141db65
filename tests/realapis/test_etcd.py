"""etcd 3.4 (Debian; a Go key-value store whose JSON API is grpc-gateway's translation of its gRPC
services, described by the Swagger 2.0 document protoc-gen-swagger writes from them) driven through
a generated MCP server.

Every call is a POST of a JSON message: keys and values are base64 (``format: byte``, which the
tools now say with ``contentEncoding``), 64-bit numbers are strings, enums are names, and a request
message with no fields is a required ``{type: object}`` body, which a tool now takes as ``{}`` when
it is left out. Keys are put under a lease, read back by prefix, swapped in a transaction only if
unchanged, and deleted; every effect is checked with a direct request to etcd.
"""

from __future__ import annotations

import base64
from typing import Any

import httpx
import pytest

from tests.realapis.conftest import LiveApi, content, mcp_client, only_text

pytestmark = pytest.mark.realapi


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def text_of(value: str) -> str:
    return base64.b64decode(value).decode()


def _read(live: LiveApi, key: str) -> list[dict[str, Any]]:
    """The key-values under ``key`` as etcd has them, read directly."""
    answer = httpx.post(f"{live.base_url}/v3/kv/range", json={"key": b64(key)}, timeout=10)
    answer.raise_for_status()
    kvs: list[dict[str, Any]] = answer.json().get("kvs", [])
    return kvs


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_keys_are_put_under_a_lease_read_by_prefix_swapped_and_deleted(
    etcd: LiveApi, mode: str
) -> None:
    prefix = f"/config/{mode}/"
    async with mcp_client(etcd.stdio(), mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        # optional in a Swagger 2.0 document, it takes null too: its other branch is the bytes
        key = tools["put"].input_schema["properties"]["key"]
        (key_schema,) = [b for b in key.get("anyOf", [key]) if b.get("type") != "null"]
        assert (key_schema["format"], key_schema["contentEncoding"]) == ("byte", "base64")

        # a 64-bit number is a string; one given as a number goes as its text
        lease = content(await client.call_tool("lease_grant", {"TTL": 600}))
        assert lease["TTL"] == "600"
        for name, value in (("region", "eu-west"), ("tier", "gold"), ("zone", "b")):
            put = {"key": b64(prefix + name), "value": b64(value), "lease": lease["ID"]}
            result = await client.call_tool("put", put)
            assert not result.is_error, result
        (stored,) = _read(etcd, prefix + "tier")
        assert (text_of(stored["value"]), stored["lease"]) == ("gold", lease["ID"])

        # the prefix's range ends where the prefix's last byte, plus one, begins
        found = content(
            await client.call_tool(
                "range",
                {
                    "key": b64(prefix),
                    "range_end": b64(prefix[:-1] + chr(ord(prefix[-1]) + 1)),
                    "sort_order": "DESCEND",
                    "sort_target": "KEY",
                    "limit": 2,
                },
            )
        )
        assert [text_of(kv["key"]) for kv in found["kvs"]] == [prefix + "zone", prefix + "tier"]
        assert (found["count"], found["more"]) == ("3", True)

        # compare-and-swap: "tier" is at version 1, so the first swap goes and the second does not
        swap = {
            "compare": [
                {
                    "key": b64(prefix + "tier"),
                    "target": "VERSION",
                    "result": "EQUAL",
                    "version": "1",
                }
            ],
            "success": [{"request_put": {"key": b64(prefix + "tier"), "value": b64("platinum")}}],
            "failure": [{"request_range": {"key": b64(prefix + "tier")}}],
        }
        assert content(await client.call_tool("txn", swap))["succeeded"] is True
        again = content(await client.call_tool("txn", swap))
        assert "succeeded" not in again  # proto3's JSON leaves out a field at its default (false)
        (current,) = again["responses"][0]["response_range"]["kvs"]
        assert text_of(current["value"]) == "platinum"
        assert text_of(_read(etcd, prefix + "tier")[0]["value"]) == "platinum"

        # a request message with no fields: called with no arguments, {} goes
        status = content(await client.call_tool("status", {}))
        assert status["version"].startswith("3.4.")

        gone = content(
            await client.call_tool("delete_range", {"key": b64(prefix + "zone"), "prev_kv": True})
        )
        assert gone["deleted"] == "1"
        assert text_of(gone["prev_kvs"][0]["value"]) == "b"
        assert _read(etcd, prefix + "zone") == []
        revoked = await client.call_tool("lease_revoke", {"ID": lease["ID"]})
        assert not revoked.is_error, revoked
        assert _read(etcd, prefix + "region") == []


async def test_a_key_that_is_not_base64_is_refused_in_etcds_words(etcd: LiveApi) -> None:
    async with mcp_client(etcd.stdio(), "auto") as client:
        refused = await client.call_tool("put", {"key": "hello", "value": b64("world")})
    assert refused.is_error
    assert only_text(refused) == (
        'Upstream returned 400 Bad Request: {"error":"illegal base64 data at input byte 4",'
        '"message":"illegal base64 data at input byte 4","code":3}'
    )
