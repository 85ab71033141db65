"""Search examples learned from real use: kinto 26.5.0's server in dynamic mode, with a search log.

The package is generated in dynamic mode from kinto's live document and run with
``KINTO_SEARCH_LOG``. Through the official client the model searches, calls what it found (a record
really created in kinto, an account kinto refuses) and calls an operation no search found. The log
holds those searches and calls, and nothing of what was sent. ``openapi2mcp examples`` turns it into
one example phrasing: the successful call after the search that found it second. The package
generated again with that file as its search examples finds the operation first for that phrasing;
the refused call taught nothing. Over Streamable HTTP with two users (static bearer tokens, both
eras; or no authentication, told apart by their legacy sessions), each call pairs with its own
caller's search, not with the other user's later one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from openapi2mcp.cli import main
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.realapis.conftest import LiveApi, headers_env, mcp_client, only_text
from tests.realapis.test_kinto import _basic
from tests.runtime.transports.kit import ServerProcess

pytestmark = pytest.mark.realapi

NOTE = "save a new note in my notes collection"
SIGN_UP = "register a user"
ENTRY = "add an entry to the list"
ALICE, BOB = "alice-token-5b0e1c9d7a3f", "bob-token-e2d94a61c8b7"


def _dynamic(kinto: LiveApi, where: Path, examples: Path | None = None) -> LiveApi:
    """kinto's live document generated in dynamic mode into ``where``."""
    where.mkdir()
    document = where / "kinto-openapi.json"
    document.write_text(json.dumps(kinto.spec), encoding="utf-8")
    options = GenerateOptions(name="kinto", tool_mode="dynamic", search_examples=examples)
    generation = generate(str(document), options)
    assert generation.report.errors == []
    out = where / "kinto-mcp"
    write_tree(generation.files, out, force=False, marker=MARKER)
    return dataclasses.replace(kinto, package=out)


def _signed_up(kinto: LiveApi, user: str, bucket: str, collection: str) -> dict[str, str]:
    """A new kinto account owning ``bucket`` and its ``collection``; its Basic credentials."""
    password = f"pw-{user}-51d2"
    with httpx.Client(base_url=kinto.base_url, timeout=10) as server:
        signed = server.put(f"/accounts/{user}", json={"data": {"password": password}})
        assert signed.status_code == 201, signed.text
        server.headers.update(_basic(user, password))
        assert server.put(f"/buckets/{bucket}").status_code == 201
        assert server.put(f"/buckets/{bucket}/collections/{collection}").status_code == 201
    return _basic(user, password)


def _found(result: CallToolResult) -> list[str]:
    """The operation names a search result lists, best first."""
    assert not result.is_error, result
    lines = only_text(result).splitlines()[1:]
    return [line[2:].split(":", 1)[0] for line in lines]


def _records(log: Path) -> list[dict[str, Any]]:
    found = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert all(isinstance(record.pop("at"), float) for record in found)
    return found


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_what_the_model_found_and_called_teaches_the_next_server(
    kinto: LiveApi, tmp_path: Path, mode: str
) -> None:
    bucket, collection = f"notes-{mode}", "notes"
    auth = _signed_up(kinto, f"learner-{mode}", bucket, collection)
    with httpx.Client(base_url=kinto.base_url, headers=auth, timeout=10) as server:
        first = _dynamic(kinto, tmp_path / "first")
        log = tmp_path / "search.jsonl"
        stdio = first.stdio(HEADERS=headers_env(auth), SEARCH_LOG=str(log))
        async with mcp_client(stdio, mode) as client:
            noted = await client.call_tool("search_operations", {"query": NOTE})
            note = {"bucket_id": bucket, "collection_id": collection, "data": {"text": "oat milk"}}
            created = await client.call_tool(
                "call_operation", {"name": "create_record", "arguments": note}
            )
            signing = await client.call_tool("search_operations", {"query": SIGN_UP})
            refused = await client.call_tool(
                "call_operation", {"name": "create_account", "arguments": {"data": {}}}
            )
            info = await client.call_tool("call_operation", {"name": "server_info"})
        assert _found(noted)[:2] == ["create_collection", "create_record"]
        assert _found(signing)[:2] == ["delete_user_data", "create_account"]
        assert not created.is_error and refused.is_error and not info.is_error
        listed = server.get(f"/buckets/{bucket}/collections/{collection}/records").json()
        assert [r["text"] for r in listed["data"]] == ["oat milk"]

    assert _records(log) == [
        {"search": NOTE, "found": _found(noted)},
        {"called": "create_record", "ok": True},
        {"search": SIGN_UP, "found": _found(signing)},
        {"called": "create_account", "ok": False},
        {"called": "server_info", "ok": True},
    ]
    assert "oat milk" not in log.read_text(encoding="utf-8")

    examples = tmp_path / "examples.jsonl"
    learned = CliRunner().invoke(main, ["examples", str(log), "-o", str(examples)])
    assert learned.exit_code == 0, learned.output
    assert examples.read_text(encoding="utf-8") == (
        json.dumps(
            {"query": NOTE, "expected": "create_record", "split": "usage", "uses": 1, "rank": 2}
        )
        + "\n"
    )
    assert learned.stderr == (
        "2 searches (0 found nothing), 3 calls (2 succeeded, 1 after a search that found them): "
        f"1 new example phrasing(s) to {examples}\n"
    )

    second = _dynamic(kinto, tmp_path / "second", examples)
    async with mcp_client(second.stdio(HEADERS=headers_env(auth)), mode) as client:
        noted = await client.call_tool("search_operations", {"query": NOTE})
        signing = await client.call_tool("search_operations", {"query": SIGN_UP})
    assert _found(noted)[0] == "create_record"
    assert _found(signing)[:2] == ["delete_user_data", "create_account"]


@contextlib.asynccontextmanager
async def _over_http(url: str, token: str | None, mode: str) -> AsyncIterator[Client]:
    """The official client over Streamable HTTP, sending ``token`` as its MCP bearer token."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode) as client:
            yield client


@pytest.mark.parametrize(
    ("mode", "signed_in"),
    [("auto", True), ("legacy", True), ("legacy", False)],
    ids=["2026-signed-in", "legacy-signed-in", "legacy-sessions-only"],
)
async def test_over_http_each_call_pairs_with_its_own_callers_search(
    kinto: LiveApi, tmp_path: Path, mode: str, signed_in: bool
) -> None:
    """Two users: by bearer token, or (legacy, no authentication) by their MCP sessions."""
    bucket = f"shared-{mode}-{signed_in}".lower()
    auth = _signed_up(kinto, f"learner-{bucket}", bucket, "notes")
    package = _dynamic(kinto, tmp_path / "http")
    log = tmp_path / "search.jsonl"
    tokens = {"AUTH_TOKENS": f"{ALICE},{BOB}"} if signed_in else {}
    env = package.env(
        HEADERS=headers_env(auth),
        SEARCH_LOG=str(log),
        STATE_SECRET="the replicas share this secret",
        **tokens,
    )
    running = ServerProcess(env, module=package.module)
    try:
        async with (
            _over_http(running.url, ALICE if signed_in else None, mode) as alice,
            _over_http(running.url, BOB if signed_in else None, mode) as bob,
        ):
            asked = await alice.call_tool("search_operations", {"query": NOTE})
            # Bob searches later, and his search lists the operation first
            other = await bob.call_tool("search_operations", {"query": ENTRY})
            note = {"bucket_id": bucket, "collection_id": "notes", "data": {"text": "rye"}}
            made = await alice.call_tool(
                "call_operation", {"name": "create_record", "arguments": note}
            )
    finally:
        running.stop()
    assert _found(asked)[:2] == ["create_collection", "create_record"]
    assert _found(other)[0] == "create_record"
    assert not made.is_error, made

    written = _records(log)
    assert [sorted(r) for r in written] == [
        ["by", "found", "search"],
        ["by", "found", "search"],
        ["by", "called", "ok"],
    ]
    by_alice, by_bob, by_caller = (r["by"] for r in written)
    assert by_alice == by_caller != by_bob
    text = log.read_text(encoding="utf-8")
    assert ALICE not in text and BOB not in text

    learned = CliRunner().invoke(main, ["examples", str(log)])
    assert learned.exit_code == 0, learned.output
    assert learned.stdout == (
        json.dumps(
            {"query": NOTE, "expected": "create_record", "split": "usage", "uses": 1, "rank": 2}
        )
        + "\n"
    )
