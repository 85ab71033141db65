"""A removal called with nothing that narrows it is refused unless it says it means everything.

Regression (ArchiveBox 0.9, PostgREST 12): ArchiveBox's ``cli_remove``, called with no argument,
removed every snapshot of the archive, and PostgREST's ``DELETE /books`` without a filter deletes
every row. A destructive removal whose arguments are all optional now takes ``_all``; a call none
of whose other arguments narrows it is refused, nothing sent, unless ``_all`` is true, and ``_all``
never reaches the API.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Served

STRING = {"type": "string"}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Books", "version": "1"},
    "servers": [{"url": "https://books.example"}],
    "paths": {
        "/books": {
            "delete": {
                "operationId": "deleteBooks",
                "parameters": [
                    {"name": "title", "in": "query", "schema": STRING},
                    {"name": "Prefer", "in": "header", "schema": STRING},
                ],
                "responses": {"204": {"description": "deleted"}},
            }
        },
        "/cli/remove": {
            "post": {
                "operationId": "cli_remove",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "filter_type": {"type": "string", "default": "exact"},
                                    "filter_patterns": {"type": "array", "items": STRING},
                                    "delete": {"type": "boolean"},
                                },
                            }
                        }
                    },
                },
                "responses": {"200": {"description": "removed"}},
            }
        },
    },
}


def _refusal(tool: str, label: str, given: str = "") -> dict[str, Any]:
    named = f" (given only {given} nothing)" if given else ""
    text = (
        f"Tool {tool!r} was called with none of the arguments that say what it acts on{named}:"
        f" {label} would act on everything the API holds. Nothing was sent. Give them, or"
        " `_all: true` to act on everything."
    )
    return {"content": [{"type": "text", "text": text}], "isError": True}


@pytest.mark.parametrize(
    ("arguments", "given"),
    [
        ({}, ""),
        ({"title": ""}, "title, which narrows"),  # empty
        ({"Prefer": "return=representation"}, "Prefer, which narrows"),  # how to answer
        ({"_all": False}, ""),
    ],
)
async def test_a_delete_without_a_filter_is_refused_and_nothing_is_sent(
    served: Served, arguments: dict[str, Any], given: str
) -> None:
    result = await served.call("delete_books", arguments)
    assert {k: result[k] for k in ("content", "isError")} == _refusal(
        "delete_books", "DELETE /books", given
    )
    assert served.api.requests == []


async def test_a_filter_narrows_and_all_means_everything(served: Served) -> None:
    narrowed = await served.call("delete_books", {"title": "Dune"})
    everything = await served.call("delete_books", {"_all": True, "Prefer": "return=minimal"})
    assert (narrowed.get("isError"), everything.get("isError")) == (None, None)
    sent = [(r.method, r.target, r.header("Prefer")) for r in served.api.requests]
    # `_all` is this server's, never the API's
    assert sent == [
        ("DELETE", "/books?title=Dune", None),
        ("DELETE", "/books", "return=minimal"),
    ]


async def test_a_body_of_defaults_and_switches_narrows_nothing(served: Served) -> None:
    # ArchiveBox's filter_type "exact" is its default, and `delete` says how, not what
    alike = {"filter_type": "exact", "delete": True}
    refused = await served.call("cli_remove", alike)
    assert {k: refused[k] for k in ("content", "isError")} == _refusal(
        "cli_remove", "POST /cli/remove", "delete, filter_type, which narrow"
    )
    assert served.api.requests == []
    narrowed = await served.call("cli_remove", {**alike, "filter_patterns": ["https://a.example"]})
    assert narrowed.get("isError") is None
    assert [r.body for r in served.api.requests] == [
        b'{"filter_type":"exact","filter_patterns":["https://a.example"],"delete":true}'
    ]


async def test_the_tool_says_so_and_takes_the_argument(served: Served) -> None:
    listed = await served.ask("tools/list", {})
    tools = {tool["name"]: tool for tool in listed["tools"]}
    books = tools["delete_books"]
    assert books["description"].endswith(
        "called with none of them, the API may act on everything it holds, so such a call is"
        " refused unless `_all` is true."
    )
    assert books["inputSchema"]["properties"]["_all"]["type"] == "boolean"
    assert "_all" not in books["inputSchema"].get("required", [])
