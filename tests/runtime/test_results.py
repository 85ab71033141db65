"""Upstream responses as the model sees them: CallToolResult and resources/read contents."""

from __future__ import annotations

import base64
import json

import pytest

from templates.runtime.jsonschema import Validator
from templates.runtime.results import (
    MAX_ERROR_EXCERPT,
    MAX_TEXT_CHARS,
    UpstreamStatusError,
    resource_contents,
    tool_error,
    tool_result,
)
from templates.runtime.upstream import UpstreamError, UpstreamResponse

URL = "https://api.example.com/pets/1"
PET_SCHEMA = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
    "required": ["id", "name"],
}


def response(
    status: int = 200, body: bytes = b"", content_type: str = "application/json", reason: str = ""
) -> UpstreamResponse:
    phrases = {
        200: "OK",
        201: "Created",
        204: "No Content",
        404: "Not Found",
        500: "Internal Server Error",
    }
    return UpstreamResponse(status, reason or phrases.get(status, ""), content_type, body, URL)


def test_tool_error() -> None:
    assert tool_error("boom") == {
        "resultType": "complete",
        "isError": True,
        "content": [{"type": "text", "text": "boom"}],
    }


def test_json_with_conforming_output_schema_is_structured() -> None:
    body = b'{ "id": 1,\n  "name": "R\\u00e9x" }'
    assert tool_result(response(body=body), Validator(PET_SCHEMA)) == {
        "resultType": "complete",
        "content": [{"type": "text", "text": '{"id":1,"name":"Réx"}'}],
        "structuredContent": {"id": 1, "name": "Réx"},
    }


def test_json_array_is_structured_too() -> None:
    result = tool_result(response(body=b"[1, 2]"), Validator({"type": "array"}))
    assert result["structuredContent"] == [1, 2]
    assert result["content"] == [{"type": "text", "text": "[1,2]"}]


def test_json_without_output_schema_is_text_only() -> None:
    result = tool_result(
        response(body=b'{"a": [1, 2]}', content_type="application/problem+json"), None
    )
    assert result == {
        "resultType": "complete",
        "content": [{"type": "text", "text": '{"a":[1,2]}'}],
    }


def test_json_that_does_not_match_the_output_schema_is_an_error_keeping_the_data() -> None:
    result = tool_result(response(body=b'{"id": "one"}'), Validator(PET_SCHEMA))
    assert result == {
        "resultType": "complete",
        "isError": True,
        "content": [
            {
                "type": "text",
                "text": "The upstream response did not match the documented output schema:\n"
                '- id: expected integer, got string "one"\n'
                "- (root): missing required property 'name'",
            },
            {"type": "text", "text": '{"id":"one"}'},
        ],
    }


def test_invalid_json_with_output_schema_is_an_error() -> None:
    result = tool_result(response(body=b"{not json"), Validator(PET_SCHEMA))
    assert result["isError"] is True
    assert "structuredContent" not in result
    assert result["content"][0]["text"] == (
        "The upstream response is not valid JSON, although the API documents JSON."
    )
    assert result["content"][1]["text"] == "{not json"


def test_invalid_json_without_output_schema_is_an_error_when_labelled_json() -> None:
    assert tool_result(response(body=b"{not json"), None) == {
        "resultType": "complete",
        "isError": True,
        "content": [
            {
                "type": "text",
                "text": "The upstream response is not valid JSON, although its Content-Type is "
                "application/json.",
            },
            {"type": "text", "text": "{not json"},
        ],
    }


def test_text_body_uses_its_charset() -> None:
    body = "café".encode("latin-1")
    result = tool_result(response(body=body, content_type="text/plain; charset=ISO-8859-1"), None)
    assert result == {"resultType": "complete", "content": [{"type": "text", "text": "café"}]}


def test_text_with_unknown_charset_falls_back_to_utf8() -> None:
    result = tool_result(
        response(body="ü".encode(), content_type="text/plain; charset=klingon"), None
    )
    assert result["content"][0]["text"] == "ü"


def test_xml_is_text() -> None:
    result = tool_result(response(body=b"<a/>", content_type="application/atom+xml"), None)
    assert result["content"] == [{"type": "text", "text": "<a/>"}]


def test_image_and_audio_blocks() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00"
    encoded = base64.b64encode(png).decode()
    assert tool_result(response(body=png, content_type="image/png"), None)["content"] == [
        {"type": "image", "data": encoded, "mimeType": "image/png"}
    ]
    assert tool_result(response(body=png, content_type="audio/wav; rate=8000"), None)[
        "content"
    ] == [{"type": "audio", "data": encoded, "mimeType": "audio/wav"}]


def test_other_binary_is_an_embedded_resource() -> None:
    pdf = b"%PDF-1.7\x00\xff"
    result = tool_result(response(body=pdf, content_type="application/pdf"), None)
    assert result == {
        "resultType": "complete",
        "content": [
            {
                "type": "resource",
                "resource": {
                    "uri": URL,
                    "mimeType": "application/pdf",
                    "blob": base64.b64encode(pdf).decode(),
                },
            }
        ],
    }


def test_missing_content_type_is_sniffed() -> None:
    assert tool_result(response(body=b'{"a":1}', content_type=""), Validator({"type": "object"}))[
        "structuredContent"
    ] == {"a": 1}
    assert tool_result(response(body=b"hello", content_type=""), None)["content"] == [
        {"type": "text", "text": "hello"}
    ]
    blob = tool_result(response(body=b"\xff\x00", content_type=""), None)["content"][0]
    assert blob["type"] == "resource"
    assert blob["resource"]["mimeType"] == "application/octet-stream"


@pytest.mark.parametrize(
    ("status", "text"),
    [(204, "HTTP 204 No Content"), (201, "HTTP 201 Created"), (200, "HTTP 200 OK")],
)
def test_empty_body(status: int, text: str) -> None:
    assert tool_result(response(status), Validator(PET_SCHEMA)) == {
        "resultType": "complete",
        "content": [{"type": "text", "text": text}],
    }


def test_error_status_with_json_body_is_compacted() -> None:
    body = b'{\n  "message": "pet 42 not found",\n  "code": 404\n}'
    assert tool_result(response(404, body), Validator(PET_SCHEMA)) == {
        "resultType": "complete",
        "isError": True,
        "content": [
            {
                "type": "text",
                "text": 'Upstream returned 404 Not Found: {"message":"pet 42 not found","code":404}',
            }
        ],
    }


def test_error_status_with_text_and_empty_bodies() -> None:
    result = tool_result(response(500, b"  oops \n", content_type="text/plain"), None)
    assert result["content"][0]["text"] == "Upstream returned 500 Internal Server Error: oops"
    assert (
        tool_result(response(404), None)["content"][0]["text"] == "Upstream returned 404 Not Found"
    )
    assert (
        tool_result(response(599, reason=""), None)["content"][0]["text"] == "Upstream returned 599"
    )


def test_error_status_with_binary_body() -> None:
    result = tool_result(
        response(502, b"\x00\x01\x02", content_type="image/png", reason="Bad Gateway"), None
    )
    assert (
        result["content"][0]["text"] == "Upstream returned 502 Bad Gateway: (3 bytes of image/png)"
    )


def test_redirect_is_an_error() -> None:
    result = tool_result(response(302, b"", content_type="", reason="Found"), None)
    assert result == tool_error("Upstream returned 302 Found")


def test_error_excerpt_is_bounded() -> None:
    body = ("x" * (MAX_ERROR_EXCERPT + 500)).encode()
    text = tool_result(response(500, body, content_type="text/html"), None)["content"][0]["text"]
    assert (
        text
        == "Upstream returned 500 Internal Server Error: "
        + "x" * MAX_ERROR_EXCERPT
        + "… [500 more characters]"
    )


def test_large_text_is_truncated_and_says_so() -> None:
    body = ("a" * (MAX_TEXT_CHARS + 10)).encode()
    text = tool_result(response(body=body, content_type="text/plain"), None)["content"][0]["text"]
    assert text == "a" * MAX_TEXT_CHARS + (
        f"\n[truncated: 10 of {MAX_TEXT_CHARS + 10} characters cut; this server returns at most "
        f"{MAX_TEXT_CHARS} characters of text per result (its operator can raise that with "
        "MCP_MAX_RESULT_CHARS)]"
    )


def test_large_conforming_json_keeps_full_structured_content() -> None:
    value = ["x" * 1000] * (MAX_TEXT_CHARS // 1000 + 5)
    result = tool_result(response(body=json.dumps(value).encode()), Validator({"type": "array"}))
    assert result["structuredContent"] == value
    assert "[truncated:" in result["content"][0]["text"]


# -- resources ----------------------------------------------------------------------------------


def test_resource_json_is_text_with_the_body_as_sent() -> None:
    body = b'{"id": 1}'
    assert resource_contents(
        response(body=body, content_type="application/json; charset=utf-8"), "pets://1", None
    ) == [{"uri": "pets://1", "mimeType": "application/json", "text": '{"id": 1}'}]


def test_resource_text_prefers_the_actual_content_type() -> None:
    contents = resource_contents(
        response(body=b"hi", content_type="text/markdown"), "doc://x", "text/plain"
    )
    assert contents == [{"uri": "doc://x", "mimeType": "text/markdown", "text": "hi"}]


def test_resource_falls_back_to_the_declared_mime_type() -> None:
    contents = resource_contents(response(body=b"hi", content_type=""), "doc://x", "text/csv")
    assert contents == [{"uri": "doc://x", "mimeType": "text/csv", "text": "hi"}]


def test_resource_binary_is_a_blob() -> None:
    raw = b"\x89PNG\x00\xff"
    contents = resource_contents(response(body=raw, content_type="image/png"), "img://1", None)
    assert contents == [
        {"uri": "img://1", "mimeType": "image/png", "blob": base64.b64encode(raw).decode()}
    ]


def test_resource_empty_body() -> None:
    assert resource_contents(response(204, content_type=""), "x://1", None) == [
        {"uri": "x://1", "mimeType": "text/plain", "text": ""}
    ]


def test_resource_error_status_raises() -> None:
    with pytest.raises(UpstreamStatusError) as info:
        resource_contents(response(404, b'{"message": "no"}'), "pets://9", None)
    assert info.value.status == 404
    assert str(info.value) == 'Upstream returned 404 Not Found: {"message":"no"}'
    assert isinstance(info.value, UpstreamError)
