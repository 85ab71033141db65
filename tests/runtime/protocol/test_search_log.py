"""The search log (``<PREFIX>_SEARCH_LOG``) in process: dynamic and code modes write what they did.

The pets catalog of ``test_code_mode`` (code mode), and the same with dynamic mode's tools, served
by the dispatcher against its fake API. Each test reads the log file back: the exact records (the
time aside), and what must never be in it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import stat
from pathlib import Path
from typing import Any

import pytest

from templates.runtime.protocol.search_log import SearchLog
from templates.runtime.server import Settings, SettingsError
from tests.reliability.kit import tool
from tests.runtime.protocol.test_code_mode import (
    SECRET,
    Api,
    legacy_session,
    pets_catalog,
    request,
    run,
    serve,
)

CALL = tool("call_operation", {"name": {"type": "string"}, "arguments": {"type": "object"}})
SEARCH = tool("search_operations", {"query": {"type": "string"}}, required=["query"])


def dynamic_catalog() -> Any:
    cat = pets_catalog()
    cat["toolMode"] = {"mode": "dynamic", "toolsets": [], "autoThreshold": 60}
    cat["dynamicTools"] = [SEARCH, tool("describe_operation", {"name": {"type": "string"}}), CALL]
    return cat


def records(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [json.loads(line) for line in lines]
    assert all(isinstance(r.pop("at"), float) for r in found)
    return found


async def call(dispatcher: Any, name: str, arguments: dict[str, Any], **options: Any) -> Any:
    params = {"name": name, "arguments": arguments}
    reply = await request(dispatcher, "tools/call", params, **options)
    return reply["result"]


async def test_dynamic_mode_writes_each_search_and_each_call(tmp_path: Path) -> None:
    log = tmp_path / "search.jsonl"
    api = Api()
    server = serve(api, {"REL_SEARCH_LOG": str(log)}, dynamic_catalog())
    found = await call(server, "search_operations", {"query": "show me the pet"})
    names = [line[2:].split(":")[0] for line in found["content"][0]["text"].splitlines()[1:]]
    assert names[:2] == ["get_pet", "list_pets"]
    ok = await call(server, "call_operation", {"name": "get_pet", "arguments": {"id": 1}})
    missing = await call(server, "call_operation", {"name": "get_pet", "arguments": {"id": 9}})
    unknown = await call(server, "call_operation", {"name": "feed_pet", "arguments": {}})
    assert not ok.get("isError") and missing["isError"] and unknown["isError"]
    assert records(log) == [
        {"search": "show me the pet", "found": names},
        {"called": "get_pet", "ok": True},
        {"called": "get_pet", "ok": False},
    ]  # an operation that does not exist is no call
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert [c[0] for c in api.calls] == ["get_pet", "get_pet"]


@pytest.mark.parametrize("era", ["2026-07-28", "2025-11-25"])
async def test_a_caller_is_written_as_a_keyed_hash_of_who_they_are(
    tmp_path: Path, era: str
) -> None:
    log = tmp_path / "search.jsonl"
    server = serve(Api(), {"REL_SEARCH_LOG": str(log)}, dynamic_catalog())
    who = {"subject": "alice@example.com", "caller": ("https://id.example", "alice@example.com")}
    if era != "2026-07-28":  # a legacy session knows its caller too
        who["session"] = await legacy_session(server)
    await call(server, "search_operations", {"query": "list pets"}, **who)
    await call(server, "call_operation", {"name": "list_pets"}, **who)
    by = hmac.new(SECRET, b"https://id.example\nalice@example.com", hashlib.sha256).hexdigest()
    written = records(log)
    assert [r["by"] for r in written] == [by[:16], by[:16]]
    assert "alice" not in log.read_text(encoding="utf-8")


async def test_an_unauthenticated_legacy_caller_is_its_session(tmp_path: Path) -> None:
    log = tmp_path / "search.jsonl"
    server = serve(Api(), {"REL_SEARCH_LOG": str(log)}, dynamic_catalog())
    first, second = await legacy_session(server), await legacy_session(server)
    first.id, second.id = "session-one", "session-two"
    await call(server, "search_operations", {"query": "list pets"}, session=first)
    await call(server, "search_operations", {"query": "list pets"}, session=second)
    await call(server, "call_operation", {"name": "list_pets"}, session=first)
    await call(server, "call_operation", {"name": "list_pets"}, session=None)  # 2026, nobody
    one = hmac.new(SECRET, b"mcp-session\nsession-one", hashlib.sha256).hexdigest()[:16]
    two = hmac.new(SECRET, b"mcp-session\nsession-two", hashlib.sha256).hexdigest()[:16]
    assert [r.get("by") for r in records(log)] == [one, two, one, None]
    assert "session-one" not in log.read_text(encoding="utf-8")


async def test_code_mode_writes_its_searches_and_the_calls_its_programs_make(
    tmp_path: Path,
) -> None:
    log = tmp_path / "search.jsonl"
    api = Api()
    server = serve(api, {"REL_SEARCH_LOG": str(log)})
    await call(server, "search_operations", {"query": "add a pet named Rex"})
    result = await run(server, "await create_pet(name='Rex')\nawait get_pet(id=7)")
    assert result["isError"]  # get_pet 7: 404
    written = records(log)
    assert written[0]["search"] == "add a pet named Rex"
    assert written[0]["found"][0] == "create_pet"
    assert written[1:] == [
        {"called": "create_pet", "ok": True},
        {"called": "get_pet", "ok": False},
    ]
    # what the program sent is not written
    assert "Rex" not in "".join(json.dumps(r) for r in written[1:])


def test_full_mode_has_no_search_to_log(tmp_path: Path) -> None:
    cat = pets_catalog()
    env = {"REL_TOOL_MODE": "full", "REL_SEARCH_LOG": str(tmp_path / "log")}
    with pytest.raises(SettingsError) as raised:
        Settings.from_env(cat, env)
    assert str(raised.value) == (
        "REL_SEARCH_LOG records the searches of dynamic and code modes; this server runs in full "
        "mode, which has no search"
    )
    assert not (tmp_path / "log").exists()


def test_a_log_that_cannot_be_opened_stops_start_up_naming_the_variable(tmp_path: Path) -> None:
    env = {"REL_SEARCH_LOG": str(tmp_path / "missing" / "log")}
    with pytest.raises(SettingsError) as raised:
        Settings.from_env(dynamic_catalog(), env)
    assert str(raised.value) == (
        f"REL_SEARCH_LOG: cannot open {tmp_path / 'missing' / 'log'} for appending: "
        "No such file or directory"
    )


def test_a_failed_write_is_reported_once_and_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    log = SearchLog(str(tmp_path / "log"), b"k" * 16)
    log.close()
    with caplog.at_level(logging.WARNING):
        log.searched("list pets", ["list_pets"], None)
        log.called("list_pets", True, None)
    assert [r.getMessage() for r in caplog.records] == [
        f"search log {tmp_path / 'log'}: cannot write (the search log is closed); calls go on"
    ]
