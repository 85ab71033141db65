"""Multipart upstream responses: one content block per part, parsed robustly and within bounds."""

from __future__ import annotations

import base64
import json

import pytest

from templates.runtime.jsonschema import Validator
from templates.runtime.protocol.results import ResultLimits, tool_result
from templates.runtime.protocol.shaping import LEGACY_VERSIONS, shape_tool_result
from templates.runtime.upstream.client import UpstreamResponse
from templates.runtime.upstream.multipart import (
    MAX_HEADER_BYTES,
    MAX_PARTS,
    MultipartError,
    media_type,
    parse_multipart,
)

URL = "https://api.example.com/reports/7"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def body(boundary: str, *parts: tuple[list[str], bytes], eol: bytes = b"\r\n") -> bytes:
    out = b""
    for headers, content in parts:
        out += b"--" + boundary.encode() + eol
        out += b"".join(line.encode() + eol for line in headers) + eol + content + eol
    return out + b"--" + boundary.encode() + b"--" + eol


def call(content_type: str, raw: bytes, **limits: int) -> list[dict[str, object]]:
    response = UpstreamResponse(200, "OK", content_type, raw, URL)
    chosen = ResultLimits(limits["max_text_chars"], "API_MAX_RESULT_CHARS") if limits else None
    result = tool_result(response, None, chosen)
    assert result["resultType"] == "complete" and "isError" not in result
    content: list[dict[str, object]] = result["content"]
    return content


MIXED = body(
    "b1",
    (["Content-Type: text/plain; charset=utf-8"], "Multiple content types test: é".encode()),
    (["Content-Type: image/png"], PNG),
    (
        ["Content-Type: application/json", "Content-Location: test://mixed-content-resource"],
        b'{"test":"data","value":123}',
    ),
)


def test_text_image_and_json_parts_become_text_image_and_resource_blocks() -> None:
    assert call("multipart/mixed; boundary=b1", MIXED) == [
        {"type": "text", "text": "Multiple content types test: é"},
        {"type": "image", "data": b64(PNG), "mimeType": "image/png"},
        {
            "type": "resource",
            "resource": {
                "uri": "test://mixed-content-resource",
                "mimeType": "application/json",
                "text": '{"test":"data","value":123}',
            },
        },
    ]


def test_audio_and_binary_parts_named_by_location_content_id_or_position() -> None:
    raw = body(
        "zz",
        (["Content-Type: audio/wav"], WAV),
        (["Content-Type: application/pdf", "Content-ID: <report.pdf@example.com>"], b"%PDF-1"),
        (["Content-Type: application/zip", "Content-Location: files/a b.zip"], b"PK\x03\x04"),
        (["Content-Type: application/zip", "Content-Location: ../archive.zip"], b"PK\x05\x06"),
        (["Content-Type: application/x-thing"], b"\x00\x01"),
    )
    assert call("multipart/related; boundary=zz; type=audio/wav", raw) == [
        {"type": "audio", "data": b64(WAV), "mimeType": "audio/wav"},
        {
            "type": "resource",
            "resource": {
                "uri": "cid:report.pdf@example.com",
                "mimeType": "application/pdf",
                "blob": b64(b"%PDF-1"),
            },
        },
        # a location with a space is not a URI: the part is named by its position
        {
            "type": "resource",
            "resource": {
                "uri": URL + "#part-3",
                "mimeType": "application/zip",
                "blob": b64(b"PK\x03\x04"),
            },
        },
        # a relative location resolves against the request URL
        {
            "type": "resource",
            "resource": {
                "uri": "https://api.example.com/archive.zip",
                "mimeType": "application/zip",
                "blob": b64(b"PK\x05\x06"),
            },
        },
        {
            "type": "resource",
            "resource": {
                "uri": URL + "#part-5",
                "mimeType": "application/x-thing",
                "blob": b64(b"\x00\x01"),
            },
        },
    ]


def test_quoted_boundary_preamble_and_epilogue() -> None:
    boundary = "==a:b=c d(1)?"
    raw = (
        b"This is the preamble; it is not a part.\r\n"
        + body(boundary, (["Content-Type: text/plain"], b"first"), ([], b"second (no headers)"))
        + b"This is the epilogue.\r\n--"
        + boundary.encode()
        + b"\r\nnot a part\r\n"
    )
    content_type = 'multipart/mixed; charset="x"; BOUNDARY="==a:b=c d(1)?"; other=1'
    assert call(content_type, raw) == [
        {"type": "text", "text": "first"},
        {"type": "text", "text": "second (no headers)"},
    ]


def test_bare_lf_line_endings_and_padding_after_the_delimiter() -> None:
    raw = b"--q \t\n" + b"Content-Type: text/plain\n\nline 1\nline 2\n" + b"--q--\n"
    assert call("multipart/mixed; boundary=q", raw) == [{"type": "text", "text": "line 1\nline 2"}]


def test_a_line_that_only_starts_like_the_delimiter_is_content() -> None:
    text = b"--sepX is not the boundary\r\nnor is this: --sep"
    raw = b"--sep\r\nContent-Type: text/plain\r\n\r\n" + text + b"\r\n--sep--\r\n"
    assert call("multipart/mixed; boundary=sep", raw) == [{"type": "text", "text": text.decode()}]


def test_content_bytes_are_kept_exactly_crlf_inside_and_around() -> None:
    payload = b"\r\n\x00binary\r\n\r\n--almost\r\n"
    raw = body("k", (["Content-Type: application/octet-stream"], payload))
    [block] = call("multipart/mixed; boundary=k", raw)
    assert block["resource"] == {"uri": URL + "#part-1", "mimeType": "application/octet-stream",
                                 "blob": b64(payload)}  # fmt: skip


def test_transfer_encodings_are_undone_and_folded_headers_read() -> None:
    raw = body(
        "t",
        (["Content-Type: image/png", "Content-Transfer-Encoding: BASE64"],
         base64.encodebytes(PNG).strip()),
        (["Content-Type: text/plain;", "\tcharset=iso-8859-1",
          "Content-Transfer-Encoding: quoted-printable"], b"caf=E9 =\r\nau lait"),
    )  # fmt: skip
    assert call("multipart/mixed; boundary=t", raw) == [
        {"type": "image", "data": b64(PNG), "mimeType": "image/png"},
        {"type": "text", "text": "café au lait"},
    ]


def test_nested_multiparts_are_flattened_and_alternatives_reduced_to_plain_text() -> None:
    alternative = body(
        "inner",
        (["Content-Type: text/html"], b"<p>Hello</p>"),
        (["Content-Type: text/plain"], b"Hello"),
    )
    raw = body(
        "outer",
        (["Content-Type: multipart/alternative; boundary=inner"], alternative),
        (["Content-Type: image/png"], PNG),
    )
    assert call("multipart/mixed; boundary=outer", raw) == [
        {"type": "text", "text": "Hello"},
        {"type": "image", "data": b64(PNG), "mimeType": "image/png"},
    ]


def test_an_alternative_without_plain_text_keeps_its_last_part() -> None:
    raw = body(
        "a", (["Content-Type: text/html"], b"<p>x</p>"), (["Content-Type: text/markdown"], b"*x*")
    )
    assert call("multipart/alternative; boundary=a", raw) == [{"type": "text", "text": "*x*"}]


def test_parts_beyond_the_limit_are_counted_not_returned() -> None:
    parts = [(["Content-Type: text/plain"], f"part {n}".encode()) for n in range(MAX_PARTS + 6)]
    content = call("multipart/mixed; boundary=many", body("many", *parts))
    assert len(content) == MAX_PARTS + 1
    assert content[MAX_PARTS - 1] == {"type": "text", "text": f"part {MAX_PARTS - 1}"}
    assert content[-1] == {
        "type": "text",
        "text": f"[6 more parts of the multipart/mixed response are not shown: "
        f"at most {MAX_PARTS} parts are returned]",
    }


def test_a_body_cut_before_its_close_delimiter_keeps_its_parts_and_says_so() -> None:
    raw = b"--c\r\nContent-Type: text/plain\r\n\r\none\r\n--c\r\nContent-Type: text/plain\r\n\r\ntw"
    assert call("multipart/mixed; boundary=c", raw) == [
        {"type": "text", "text": "one"},
        {"type": "text", "text": "tw"},
        {
            "type": "text",
            "text": "[the multipart/mixed response ended before its closing boundary]",
        },
    ]


def test_empty_parts_are_skipped() -> None:
    raw = b"--e\r\n--e\r\nContent-Type: text/plain\r\n\r\n\r\n--e--"
    assert call("multipart/mixed; boundary=e", raw) == [
        {"type": "text", "text": "HTTP 200 OK (no parts)"}
    ]


@pytest.mark.parametrize(
    ("content_type", "raw", "reason"),
    [
        ("multipart/mixed", b"--x\r\n\r\nhi\r\n--x--", "has no usable boundary parameter"),
        ('multipart/mixed; boundary=""', b"--\r\n\r\nhi\r\n----", "has no usable boundary"),
        ("multipart/mixed; boundary=" + "b" * 71, b"x", "has no usable boundary parameter"),
        ("multipart/mixed; boundary=x", b"no delimiter here", "has no part boundary"),
    ],
)
def test_an_unsplittable_body_is_returned_whole_with_the_reason(
    content_type: str, raw: bytes, reason: str
) -> None:
    note, whole = call(content_type, raw)
    assert note["type"] == "text"
    assert reason in str(note["text"])
    assert str(note["text"]).startswith("The multipart/mixed response could not be split")
    assert whole == {
        "type": "resource",
        "resource": {"uri": URL, "mimeType": "multipart/mixed", "blob": b64(raw)},
    }


def test_text_of_all_parts_shares_one_budget() -> None:
    raw = body(
        "t",
        (["Content-Type: text/plain"], b"a" * 80),
        (["Content-Type: application/json"], b'"' + b"b" * 178 + b'"'),
        (["Content-Type: text/plain"], b"c" * 10),
    )
    first, second, third = call("multipart/mixed; boundary=t", raw, max_text_chars=250)
    assert first == {"type": "text", "text": "a" * 80}
    notice = (
        "this server returns at most 250 characters per result "
        "(its operator can raise that with API_MAX_RESULT_CHARS)]"
    )
    resource = second["resource"]
    assert isinstance(resource, dict)
    assert resource["text"] == '"' + "b" * 19 + f"\n[truncated: 160 of 180 characters cut; {notice}"
    assert len(resource["text"]) == 250 - 80
    assert third == {"type": "text", "text": f"\n[truncated: 10 of 10 characters cut; {notice}"}


def test_multipart_where_the_api_documents_json_is_delivered_whole() -> None:
    response = UpstreamResponse(200, "OK", "multipart/mixed; boundary=b1", MIXED, URL)
    result = tool_result(response, Validator({"type": "object"}))
    assert result == {
        "resultType": "complete",
        "content": [
            {
                "type": "text",
                "text": "The call succeeded (HTTP 200 OK). The API answered with multipart/mixed, "
                "not the JSON its output schema describes; the body follows as it came.",
            },
            {
                "type": "resource",
                "resource": {
                    "uri": URL,
                    "mimeType": "multipart/mixed",
                    "blob": base64.b64encode(MIXED).decode(),
                },
            },
        ],
        "structuredContent": {},
    }


def test_a_multipart_error_status_is_summarised() -> None:
    response = UpstreamResponse(502, "Bad Gateway", "multipart/mixed; boundary=b1", MIXED, URL)
    assert tool_result(response, None)["content"] == [
        {
            "type": "text",
            "text": f"Upstream returned 502 Bad Gateway: ({len(MIXED)} bytes of multipart/mixed)",
        }
    ]


@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_mixed_blocks_reach_every_legacy_revision_unchanged(version: str) -> None:
    # text, image, audio and embedded resources exist in 2025-03-26 and later alike
    raw = body(
        "m",
        (["Content-Type: audio/wav"], WAV),
        (["Content-Type: text/plain"], b"t"),
        (["Content-Type: image/png"], PNG),
        (["Content-Type: application/json"], b"{}"),
    )
    result = tool_result(UpstreamResponse(200, "OK", "multipart/mixed; boundary=m", raw, URL), None)
    shaped = shape_tool_result(result, version, wrapped_output=False)
    assert shaped == {"content": result["content"]}
    assert [block["type"] for block in shaped["content"]] == ["audio", "text", "image", "resource"]


# -- the parser itself --------------------------------------------------------------------------


def test_media_type_parameters() -> None:
    assert media_type('Multipart/Mixed ; Boundary="a\\"b;c" ; x=1; x=2; broken; =v') == (
        "multipart/mixed",
        {"boundary": 'a"b;c', "x": "1"},
    )
    assert media_type("text/plain") == ("text/plain", {})


def test_parse_refuses_bodies_over_the_byte_limit() -> None:
    with pytest.raises(MultipartError, match="larger than 10 bytes"):
        parse_multipart("multipart/mixed; boundary=x", b"--x\r\n\r\n123456\r\n--x--", max_bytes=10)


def test_parse_refuses_an_endless_header_block() -> None:
    head = b"X-Long: " + b"a" * (MAX_HEADER_BYTES + 10)
    with pytest.raises(MultipartError, match="headers are longer than"):
        parse_multipart("multipart/mixed; boundary=x", b"--x\r\n" + head + b"\r\n--x--")


def test_parse_reports_parts_headers_and_state() -> None:
    parsed = parse_multipart(
        "multipart/form-data; boundary=f",
        b'--f\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--f\r\nX-Only: header\r\n--f--',
        max_parts=1,
    )
    assert parsed.complete and parsed.omitted == 1
    [part] = parsed.parts
    assert part.headers == (("content-disposition", 'form-data; name="a"'),)
    assert part.header("Content-Disposition") == 'form-data; name="a"'
    assert part.content_type == "text/plain"
    assert part.body == b"1"


def test_many_false_delimiters_are_scanned_in_linear_time() -> None:
    # half a million near-misses on one line: the scan must not restart from each of them
    raw = b"--x\r\n\r\n" + b"--xy" * 500_000 + b"\r\n--x--"
    parsed = parse_multipart("multipart/mixed; boundary=x", raw)
    assert [len(p.body) for p in parsed.parts] == [2_000_000]


def test_json_of_the_fixture_is_a_text_resource_not_a_structured_result() -> None:
    [_, _, resource] = call("multipart/mixed; boundary=b1", MIXED)
    assert json.loads(str(resource["resource"]["text"])) == {  # type: ignore[index]
        "test": "data",
        "value": 123,
    }


def test_boundaries_outside_the_rfc_alphabet_are_still_split() -> None:
    raw = body("#{id}@host", (["Content-Type: text/plain"], b"ok"))
    assert call("multipart/mixed; boundary=#{id}@host", raw) == [{"type": "text", "text": "ok"}]
