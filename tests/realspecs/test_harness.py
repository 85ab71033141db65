"""The harness itself: the recorder keeps bytes, the validator reads what it must, the checks bite.

Small inline documents, no npm: if these fail, the real-spec table cannot be trusted.
"""

from __future__ import annotations

from typing import Any

import httpx
from werkzeug.datastructures import ImmutableMultiDict

from tests.kit.upstream import RecordingUpstream, Request
from tests.realspecs import compare
from tests.realspecs.instances import RICH_TEXT, instances
from tests.realspecs.selection import prune, select
from tests.realspecs.validation import bracket_loads, check, validator

FORM = "application/x-www-form-urlencoded"
HOST = "http://127.0.0.1:9"


def _form_spec() -> dict[str, Any]:
    body = {
        "type": "object",
        "properties": {
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
            "tags": {"type": "array", "items": {"type": "string"}},
            "count": {"type": "integer"},
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "servers": [{"url": HOST + "/v1"}],
        "paths": {
            "/things": {
                "post": {
                    "requestBody": {
                        "content": {
                            FORM: {
                                "schema": body,
                                "encoding": {
                                    "metadata": {"style": "deepObject", "explode": True},
                                    "tags": {"style": "form", "explode": False},
                                },
                            }
                        }
                    },
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }


def _form(body: bytes) -> Request:
    return Request("POST", "/v1/things", (("Content-Type", FORM),), body)


def test_bracket_loads_reads_nested_objects_and_indexed_arrays() -> None:
    location = ImmutableMultiDict(
        [("d[0][coupon]", "x"), ("d[1][coupon]", "y"), ("d[1][n][a]", "1"), ("other", "z")]
    )
    assert bracket_loads(True, "d", "array", location) == [
        {"coupon": "x"},
        {"coupon": "y", "n": {"a": "1"}},
    ]
    assert bracket_loads(True, "other", "", location) == "z"


def test_the_validator_reads_a_form_body_by_its_encoding_object() -> None:
    verdict = check(validator(_form_spec()), _form(b"metadata[order]=42&tags=a,b&count=3"), HOST)
    assert verdict.errors == []
    assert verdict.body == {"metadata": {"order": "42"}, "tags": ["a", "b"], "count": 3}


def test_json_written_into_a_deep_object_field_is_rejected() -> None:
    sent = _form(b"metadata=%7B%22order%22%3A%2242%22%7D&tags=a&tags=b")
    verdict = check(validator(_form_spec()), sent, HOST)
    assert verdict.errors != []


def test_a_dropped_null_in_a_json_body_is_an_alteration() -> None:
    operation = {
        "parameters": [],
        "body": {
            "contentType": "application/json",
            "required": True,
            "properties": {"name": "name", "due_on": "due_on"},
        },
    }
    sent = Request("PATCH", "/x", (("Content-Type", "application/json"),), b'{"name":"a"}')
    verdict = check(validator(_form_spec()), sent, HOST)
    problems = compare.body_problems(operation, {}, {"name": "a", "due_on": None}, sent, verdict)
    assert problems == [
        'JSON body {"name": "a"} differs from the arguments {"name": "a", "due_on": null}'
    ]


def test_the_recorder_keeps_the_raw_target_headers_and_body() -> None:
    with RecordingUpstream() as recorder:
        reply = httpx.post(
            recorder.url + "/a%2Fb/c?x=1&x=2&y=%20",
            content=b"\x00raw\xff",
            headers={"X-Thing": "v"},
        )
    assert (reply.status_code, reply.content) == (200, b"{}")
    (captured,) = recorder.requests
    assert (captured.method, captured.target, captured.body) == (
        "POST",
        "/a%2Fb/c?x=1&x=2&y=%20",
        b"\x00raw\xff",
    )
    assert captured.header("x-thing") == "v"


def test_selection_spreads_across_methods_and_prunes_unreferenced_components() -> None:
    ok: dict[str, Any] = {"200": {"description": "ok"}}
    paths: dict[str, dict[str, dict[str, Any]]] = {
        f"/r{i}": {m: {"responses": ok} for m in ("get", "post", "delete")} for i in range(30)
    }
    paths["/r0"]["post"]["requestBody"] = {
        "content": {FORM: {"schema": {"$ref": "#/components/schemas/Used"}}}
    }
    document = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": paths,
        "components": {"schemas": {"Used": {"type": "object"}, "Unused": {"type": "object"}}},
    }
    chosen = select(document)
    assert len(chosen) == 40
    assert {m: sum(1 for x, _ in chosen if x == m) for m in ("get", "post", "delete")} == {
        "get": 14,
        "post": 13,
        "delete": 13,
    }
    assert ("post", "/r0") in chosen  # the one form body is picked first
    assert select(document) == chosen
    assert prune(document, chosen)["components"] == {"schemas": {"Used": {"type": "object"}}}


def test_rich_arguments_fill_optional_properties_and_stay_schema_valid() -> None:
    schema = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "meta": {"type": "object", "additionalProperties": {"type": "string"}},
            "X-Trace": {"type": "string"},
        },
        "required": ["id"],
    }
    made = instances(schema, plain=frozenset({"X-Trace"}), body_fields=("tags", "meta"))
    assert made.calls["rich"] == {
        "id": RICH_TEXT,
        "tags": [RICH_TEXT, RICH_TEXT + "1"],
        "meta": {"alpha": RICH_TEXT, "beta": RICH_TEXT + "1"},
        "X-Trace": "ab",
    }
    assert made.calls["partial"] == {
        "id": made.calls["minimal"]["id"],
        "tags": made.calls["rich"]["tags"],
    }
