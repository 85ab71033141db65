"""changedetection.io 0.60 (PyPI: Flask-RESTful; its live OpenAPI 3.1 document, served as YAML)
driven through a generated MCP server.

changedetection.io checks every API request against its own document (openapi-core) and refuses
what the document does not allow, so each call below is also a check of the request we build. A
page served from 127.0.0.1 is watched, changed and watched again, and its difference read as text
(between two snapshots named as its history names them, by the keys of an object, strings, where
the document asks for integers; the recheck asked with ``true`` where the document says "true");
URLs are imported as a plain-text body; notification URLs are added and removed (a DELETE with a
JSON body); a drifting answer (its uptime is a number, documented a string) is a success with a
note; and in code mode a program reads what changed. Every effect is checked with a direct request
to changedetection.io.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.realapis.conftest import (
    LiveApi,
    content,
    mcp_client,
    only_text,
    result_json,
    texts,
)

pytestmark = pytest.mark.realapi


def _direct(live: LiveApi) -> httpx.Client:
    key = live.credentials["API_KEY_AUTH_KEY"]
    return httpx.Client(base_url=live.base_url, headers={"x-api-key": key}, timeout=10)


def _page_url(direct: httpx.Client, name: str) -> str:
    """The URL of page ``name`` of the static server: beside the page the fixture watches first."""
    [first] = [w["url"] for w in direct.get("/watch").json().values() if w["url"].endswith("/")]
    return first + name


def _history(direct: httpx.Client, watch: str, entries: int, timeout: float = 60.0) -> list[str]:
    """The watch's snapshot timestamps once it has ``entries`` of them (each check of a changed
    page adds one, a few seconds after it is asked for)."""
    deadline = time.monotonic() + timeout
    while len(found := direct.get(f"/watch/{watch}/history").json()) < entries:
        assert time.monotonic() < deadline, f"{watch} has {len(found)} snapshots, not {entries}"
        time.sleep(0.2)
    return sorted(found)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_changed_page_is_seen_and_its_difference_read(
    changedetection: LiveApi, mode: str
) -> None:
    assert changedetection.files is not None
    page = changedetection.files / f"stock-{mode}.html"
    page.write_text("<html><body><p>Stock: 3 left</p></body></html>")
    with _direct(changedetection) as direct:
        url = _page_url(direct, page.name)
        async with mcp_client(changedetection.stdio(**changedetection.credentials), mode) as client:
            tag = content(await client.call_tool("create_tag", {"title": f"shop {mode}"}))["uuid"]
            assert direct.get(f"/tag/{tag}").json()["title"] == f"shop {mode}"

            # documented as text/plain, answered as JSON: the text as received
            made = result_json(
                await client.call_tool(
                    "create_watch", {"url": url, "title": f"Stock {mode}", "tags": [tag]}
                )
            )
            watch = made["uuid"]
            stored = direct.get(f"/watch/{watch}").json()
            assert (stored["url"], stored["title"], stored["tags"]) == (url, f"Stock {mode}", [tag])
            _history(direct, watch, 1)

            page.write_text("<html><body><p>Stock: 1 left</p></body></html>")
            rechecked = await client.call_tool("get_watch", {"uuid": watch, "recheck": True})
            assert not rechecked.is_error, rechecked
            first, last = _history(direct, watch, 2)

            diff = await client.call_tool(
                "get_watch_history_diff",
                {"uuid": watch, "from_timestamp": first, "to_timestamp": last},
            )
            assert only_text(diff) == "(changed) Stock: 3 left\n(into) Stock: 1 left"
            snapshot = await client.call_tool(
                "get_watch_snapshot", {"uuid": watch, "timestamp": "latest", "html": "1"}
            )
            assert only_text(snapshot) == "<html><body><p>Stock: 1 left</p></body></html>"

            paused = await client.call_tool("update_watch", {"uuid": watch, "paused": True})
            assert not paused.is_error, paused
            assert direct.get(f"/watch/{watch}").json()["paused"] is True

            cleared = await client.call_tool("delete_watch_history", {"uuid": watch})
            assert not cleared.is_error, cleared
            assert direct.get(f"/watch/{watch}/history").json() == {}

            deleted = await client.call_tool("delete_watch", {"uuid": watch})
            assert not deleted.is_error, deleted
            assert direct.get(f"/watch/{watch}").status_code == 404
            removed = await client.call_tool("delete_tag", {"uuid": tag})
            assert not removed.is_error, removed
            assert tag not in direct.get("/tags").json()


async def test_urls_are_imported_from_plain_text(changedetection: LiveApi) -> None:
    with _direct(changedetection) as direct:
        urls = [_page_url(direct, f"imported-{n}.html") for n in (1, 2)]
        async with mcp_client(changedetection.stdio(**changedetection.credentials)) as client:
            made = content(
                await client.call_tool(
                    "import_watches", {"body": "\n".join(urls), "tag": "imported"}
                )
            )
        assert sorted(direct.get(f"/watch/{uuid}").json()["url"] for uuid in made) == urls
        [imported] = [
            uuid for uuid, tag in direct.get("/tags").json().items() if tag["title"] == "imported"
        ]
        assert all(direct.get(f"/watch/{uuid}").json()["tags"] == [imported] for uuid in made)


async def test_notification_urls_are_added_and_removed(changedetection: LiveApi) -> None:
    hook = "json://127.0.0.1:9/changes"
    with _direct(changedetection) as direct:
        async with mcp_client(changedetection.stdio(**changedetection.credentials)) as client:
            added = content(
                await client.call_tool("add_notifications", {"notification_urls": [hook]})
            )
            assert added == {"notification_urls": [hook]}
            assert direct.get("/notifications").json() == {"notification_urls": [hook]}
            # a DELETE whose body says what to delete
            removed = await client.call_tool("delete_notifications", {"notification_urls": [hook]})
            assert not removed.is_error, removed
        assert direct.get("/notifications").json() == {"notification_urls": []}


async def test_a_drifting_answer_is_a_success_with_a_note(changedetection: LiveApi) -> None:
    async with mcp_client(changedetection.stdio(**changedetection.credentials)) as client:
        result = await client.call_tool("get_system_info", {})
    assert not result.is_error, result
    body, note = texts(result)
    info: dict[str, Any] = content(result)
    assert info["version"] == "0.60.10"
    assert isinstance(info["watch_count"], int)
    # documented a string, sent a number: set to null in the structured content, kept in the text
    assert info["uptime"] is None
    assert note.startswith(
        "The call succeeded (HTTP 200 OK). Its response does not match the documented schema:\n"
        "- uptime: "
    ), note
    assert '"uptime":' in body


async def test_an_unknown_watch_says_what_changedetection_said(changedetection: LiveApi) -> None:
    async with mcp_client(changedetection.stdio(**changedetection.credentials)) as client:
        missing = await client.call_tool(
            "get_watch", {"uuid": "00000000-0000-4000-8000-000000000000"}
        )
    assert missing.is_error
    assert only_text(missing).startswith("Upstream returned 404 NOT FOUND: ")


PROGRAM = """\
watches = await list_watches()
uuids = [key for key, watch in watches.items() if watch["url"].endswith("/code-price.html")]
stamps = sorted(await get_watch_history(uuid=uuids[0]))
print(len(stamps), "snapshots")
await get_watch_history_diff(uuid=uuids[0], from_timestamp=stamps[0], to_timestamp=stamps[-1])
"""


async def test_a_program_in_code_mode_reads_what_changed(changedetection: LiveApi) -> None:
    """Code mode over the real API: the program finds the watch, names its snapshots by the keys
    its history gives (strings, where the diff's path takes integers) and returns the diff."""
    assert changedetection.files is not None
    page = changedetection.files / "code-price.html"
    page.write_text("<html><body><p>Price: 10 EUR</p></body></html>")
    with _direct(changedetection) as direct:
        made = direct.post("/watch", json={"url": _page_url(direct, page.name)})
        made.raise_for_status()
        watch = made.json()["uuid"]
        _history(direct, watch, 1)
        page.write_text("<html><body><p>Price: 12 EUR</p></body></html>")
        direct.get(f"/watch/{watch}", params={"recheck": "1"}).raise_for_status()
        _history(direct, watch, 2)
        params = changedetection.stdio(TOOL_MODE="code", **changedetection.credentials)
        async with mcp_client(params) as client:
            result = await client.call_tool("run_code", {"code": PROGRAM})
    assert not result.is_error, result
    assert texts(result) == ["2 snapshots\n", '"(changed) Price: 10 EUR\\n(into) Price: 12 EUR"']
