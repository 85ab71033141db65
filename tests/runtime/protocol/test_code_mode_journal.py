"""What a program's operation call returns (``program_value``, ``entry_of``) from the results the
tools build (``results.tool_result``), and the journal that carries calls across rounds."""

from __future__ import annotations

import json
from typing import Any

import pytest

from templates.runtime.errors import StateError
from templates.runtime.jsonschema import Validator
from templates.runtime.protocol.code_journal import (
    JOURNAL_BYTES,
    Entry,
    Journal,
    entry_of,
    program_value,
)
from templates.runtime.protocol.results import ResultLimits, tool_error, tool_result
from templates.runtime.upstream.client import UpstreamResponse

PET = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}


def response(body: bytes, media: str, status: int = 200, method: str = "GET") -> UpstreamResponse:
    return UpstreamResponse(status, "OK", media, body, "https://api.example.com/x", method=method)


def test_a_json_response_is_parsed_as_received_not_as_made_to_fit() -> None:
    body = json.dumps({"id": "seven", "name": "Rex", "extra": [1, 2]}).encode()
    result = tool_result(response(body, "application/json"), Validator(PET))
    assert result["structuredContent"] == {}  # made to fit the schema
    value, notes = program_value(result)
    assert value == {"id": "seven", "name": "Rex", "extra": [1, 2]}
    (note,) = notes
    assert note.startswith("The call succeeded (HTTP 200 OK). Its response does not match")


def test_text_and_empty_responses_and_binary_ones() -> None:
    text = tool_result(response(b"line one\nline two", "text/plain"), None)
    assert program_value(text) == ("line one\nline two", [])
    empty = UpstreamResponse(204, "No Content", "", b"", "u", method="DELETE")
    assert program_value(tool_result(empty, Validator(PET))) == ("HTTP 204 No Content", [])
    html = tool_result(response(b"<p>hi</p>", "text/html"), Validator(PET))
    value, notes = program_value(html)
    # a web page where JSON is documented: its text, said to be a page
    assert value == "(an HTML page) hi"
    assert notes[0].startswith("The call succeeded (HTTP 200 OK). The API answered with a web page")
    image = tool_result(response(b"\x89PNG", "image/png"), None)
    assert program_value(image) == (
        {"type": "image", "data": "iVBORw==", "mimeType": "image/png"},
        [],
    )


def test_a_stream_cut_short_gives_what_arrived_and_its_note() -> None:
    lines = b'{"action": "ping"}\n{"action": "node.updated"}\n'
    cut = UpstreamResponse(200, "OK", "application/json", lines, "u", cut_after=2.0)
    value, notes = program_value(tool_result(cut, None))
    assert value == lines.decode()
    assert notes == [
        "The call succeeded (HTTP 200 OK). The API was still sending its application/json after "
        "2 s, as a stream does; this is what had arrived by then (46 bytes)."
    ]
    # nothing came before the time was up: no value, and the note says so
    silent = UpstreamResponse(200, "OK", "text/event-stream", b"", "u", cut_after=2.0)
    value, notes = program_value(tool_result(silent, None))
    assert value is None
    assert notes[0].endswith("this is what had arrived by then (nothing yet).")


def test_a_json_body_cut_to_the_budget_comes_with_its_note() -> None:
    body = json.dumps([{"id": n, "name": "x" * 30} for n in range(50)]).encode()
    result = tool_result(response(body, "application/json"), None, ResultLimits(500, "X_MAX"))
    value, notes = program_value(result)
    assert isinstance(value, list) and 0 < len(value) < 50
    assert len(notes) == 1 and notes[0].startswith("[cut to fit: the response has ")


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        (
            "Invalid arguments for tool 'get_pet':\n- id: required",
            "ValueError",
            "Invalid arguments for tool 'get_pet':\n- id: required",
        ),
        (
            "The user did not allow Get pet (GET /pets/{id}); nothing was sent.",
            "PermissionError",
            "get_pet: The user did not allow Get pet (GET /pets/{id}); nothing was sent.",
        ),
        (
            "Upstream returned 500 Internal Server Error",
            "RuntimeError",
            "get_pet: Upstream returned 500 Internal Server Error",
        ),
    ],
)
def test_an_error_result_raises_by_its_kind(text: str, kind: str, message: str) -> None:
    entry = entry_of("get_pet", "d", tool_error(text))
    assert entry.error == (kind, message)
    with pytest.raises(Exception) as raised:
        entry.deliver()
    assert (type(raised.value).__name__, str(raised.value)) == (kind, message)


def test_a_journal_round_trips_through_its_payload() -> None:
    journal = Journal(
        {
            0: Entry("list_pets", "d0", [{"id": 1}], ("a note",)),
            2: Entry("get_pet", "d2", error=("RuntimeError", "get_pet: 404")),
        },
        (3, "delete_pet", "d3", "v1.state.tag"),
    )
    payload = journal.payload({"list_pets": True})
    assert payload == {
        "done": [
            [0, "list_pets", "d0", "v", [{"id": 1}], ["a note"]],
            [2, "get_pet", "d2", "e", ["RuntimeError", "get_pet: 404"]],
        ],
        "asked": [3, "delete_pet", "d3", "v1.state.tag"],
    }
    assert Journal.from_payload(json.loads(json.dumps(payload))) == journal


def test_past_its_budget_reads_are_dropped_then_writes_cut() -> None:
    big = "é" * 30_000  # 60,000 bytes of UTF-8
    journal = Journal(
        {0: Entry("list_pets", "d0", [big]), 1: Entry("create_pet", "d1", {"n": big})}
    )
    payload = journal.payload({"list_pets": True, "create_pet": False})
    assert payload is not None
    assert len(json.dumps(payload, ensure_ascii=False).encode()) <= JOURNAL_BYTES
    read, write = Journal.from_payload(payload).done.values()
    assert read == Entry("list_pets", "d0", rerun=True)
    assert write.value["n"].endswith("…") and len(write.value["n"]) < 30_000
    assert write.notes[0].startswith(
        "[create_pet: the response was cut to carry it over the user's answer: the first "
    )


def test_a_journal_of_too_many_calls_does_not_fit() -> None:
    done = {n: Entry("create_pet", f"digest-{n}", {"id": n}) for n in range(3000)}
    assert Journal(done).payload({}) is None


@pytest.mark.parametrize("data", [None, {"done": [["x"]], "asked": None}, {"done": []}])
def test_a_payload_that_is_not_a_journal_is_refused(data: Any) -> None:
    with pytest.raises(StateError):
        Journal.from_payload(data)
