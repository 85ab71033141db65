"""Upstream responses as the model sees them: CallToolResult and resources/read contents."""

from __future__ import annotations

import base64

import pytest

from templates.runtime.jsonschema import Validator
from templates.runtime.protocol.results import (
    MAX_ERROR_EXCERPT,
    MAX_TEXT_CHARS,
    ResultLimits,
    UpstreamStatusError,
    resource_contents,
    tool_error,
    tool_result,
)
from templates.runtime.upstream.client import UpstreamError, UpstreamResponse

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


LENIENT_PET = {
    "type": "object",
    "properties": {"id": {"type": ["integer", "null"]}, "name": {"type": ["string", "null"]}},
}


def test_a_2xx_that_breaks_a_strict_schema_is_still_a_success_with_the_data() -> None:
    """The documented schema requires 'name': no value can be made to conform, so the result
    carries the body as text, says the call succeeded, and no structured content."""
    result = tool_result(response(body=b'{"id": "one"}'), Validator(PET_SCHEMA))
    assert result == {
        "resultType": "complete",
        "content": [
            {"type": "text", "text": '{"id":"one"}'},
            {
                "type": "text",
                "text": "The call succeeded (HTTP 200 OK). Its response does not match the "
                "documented schema:\n"
                '- (root): "name" is a required property\n'
                '- id: "one" is not of type "integer"\n'
                "The text above is the response as received; there is no structured content.",
            },
        ],
    }


def test_a_write_whose_response_drifts_says_the_change_was_made() -> None:
    drifted = UpstreamResponse(
        201, "Created", "application/json", b'{"id":"x7"}', URL, method="PUT"
    )
    result = tool_result(drifted, Validator(LENIENT_PET))
    assert result == {
        "resultType": "complete",
        "content": [
            {"type": "text", "text": '{"id":"x7"}'},
            {
                "type": "text",
                "text": "The call succeeded (HTTP 201 Created): the change was made, so do not "
                "repeat it. Its response does not match the documented schema:\n"
                '- id: "x7" is not of types "null", "integer"\n'
                "The text above is the response as received; the structured content sets what "
                "does not match to null.",
            },
        ],
        "structuredContent": {"id": None},
    }


def test_a_boolean_kept_as_0_or_1_is_that_boolean_and_no_drift() -> None:
    """NocoDB on SQLite answers a checkbox as 0 or 1 where its document says boolean: the
    structured content had it as null, with a drift note on every record read."""
    task = {
        "type": "object",
        "properties": {
            "Done": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
            "Count": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "Flags": {"type": "array", "items": {"type": "boolean"}},
        },
    }
    body = b'{"Id":1,"Done":0,"Count":1,"Flags":[1,0]}'
    read = UpstreamResponse(200, "OK", "application/json", body, URL, method="GET")
    result = tool_result(read, Validator(task))
    assert result == {
        "resultType": "complete",
        "content": [{"type": "text", "text": body.decode()}],
        "structuredContent": {"Id": 1, "Done": False, "Count": 1, "Flags": [True, False]},
    }
    # a number other than 0 or 1 is no boolean: drift, as before
    read = UpstreamResponse(200, "OK", "application/json", b'{"Done":2}', URL, method="GET")
    assert tool_result(read, Validator(task))["structuredContent"] == {"Done": None}


def test_text_that_is_not_utf8_loses_no_byte_and_says_how_it_was_read() -> None:
    # Mayan's download of a Latin-1 file, labelled text/plain without a charset: its accented
    # letters had come back as U+FFFD, and the bytes could not be had again
    body = b"caf\xe9 cr\xe8me br\xfbl\xe9e\n"
    download = UpstreamResponse(200, "OK", "text/plain", body, URL, method="GET")
    result = tool_result(download, None)
    assert result["content"] == [
        {"type": "text", "text": "café crème brûlée\n"},
        {
            "type": "text",
            "text": "[The answer is not utf-8 text: shown read as ISO-8859-1, one character per "
            "byte, so that no byte is lost.]",
        },
    ]
    assert result["content"][0]["text"].encode("latin-1") == body
    # text in the charset it names is shown as it is, with no note
    named = UpstreamResponse(200, "OK", "text/plain; charset=iso-8859-1", body, URL, method="GET")
    assert tool_result(named, None)["content"] == [{"type": "text", "text": "café crème brûlée\n"}]


def test_an_error_page_is_told_by_its_words_not_its_markup() -> None:
    # Mayan's 500 (Django): two thousand characters of script and markup, and no message
    page = (
        "<script>\n  if (typeof partialNavigation === 'undefined') { location = '/'; }\n"
        "</script>\n<html><head><title>Server error</title><style>p{color:red}</style></head>"
        "<body><h1>Server error</h1><p>There's been an unexpected error.\n  Please try "
        "again&nbsp;later.</p><!-- id 7 --><div>Ref: 42</div></body></html>"
    )
    failed = UpstreamResponse(
        500, "Internal Server Error", "text/html; charset=utf-8", page.encode(), URL, method="POST"
    )
    assert tool_result(failed, None)["content"] == [
        {
            "type": "text",
            "text": "Upstream returned 500 Internal Server Error: (an HTML page) Server error | "
            "There's been an unexpected error. Please try again later. | Ref: 42",
        }
    ]


def test_a_resource_read_is_bounded_like_a_tool_result() -> None:
    # Evidently's report download: an HTML page of 3.7 MB, labelled JSON, came whole
    page = UpstreamResponse(200, "OK", "application/json", b"<html>" + b"x" * 5000, URL)
    [content] = resource_contents(page, "evidently://report", None, ResultLimits(1000, "E_MAX"))
    assert content["mimeType"] == "application/json"
    assert len(content["text"]) == 1000
    assert content["text"].endswith(
        "\n[truncated: 4144 of 5006 characters cut; this server returns at most 1000 characters "
        "per result (its operator can raise that with E_MAX)]"
    )


NULLABLE_STRING = {"anyOf": [{"type": "string"}, {"type": "null"}]}


def test_a_value_that_breaks_a_nullable_field_inside_says_where_and_the_field_is_nulled() -> None:
    """Superset's lists answer ``ids: [2, 1]`` where its document says strings: the note names
    each item and its type (not "not valid under any of the schemas listed in the 'anyOf'
    keyword"), and the structured content nulls the field, which its schema admits."""
    listing = {
        "type": "object",
        "properties": {
            "count": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "ids": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        },
    }
    result = tool_result(response(body=b'{"count": 2, "ids": [2, 1]}'), Validator(listing))
    assert result == {
        "resultType": "complete",
        "content": [
            {"type": "text", "text": '{"count":2,"ids":[2,1]}'},
            {
                "type": "text",
                "text": "The call succeeded (HTTP 200 OK). Its response does not match the "
                "documented schema:\n"
                '- ids[0]: 2 is not of type "string"\n'
                '- ids[1]: 1 is not of type "string"\n'
                "The text above is the response as received; the structured content sets what "
                "does not match to null.",
            },
        ],
        "structuredContent": {"count": 2, "ids": None},
    }


def test_a_text_body_where_a_string_is_documented_is_the_structured_value() -> None:
    """PowerDNS documents its zone export as a JSON string and sends the zone file as text/plain."""
    zone = "ex.org.\t3600\tIN\tNS\tns1.ex.org.\n"
    plain = response(body=zone.encode("ascii"), content_type="text/plain; charset=us-ascii")
    result = tool_result(plain, Validator(NULLABLE_STRING))
    assert result == {
        "resultType": "complete",
        "content": [{"type": "text", "text": zone}],
        "structuredContent": zone,
    }
    # a schema the text cannot meet: the text as it came, a stand-in that conforms, and why
    number = tool_result(plain, Validator({"anyOf": [{"type": "integer"}, {"type": "null"}]}))
    assert number["structuredContent"] is None
    assert number["content"][1] == {"type": "text", "text": zone}


def test_an_object_where_a_string_is_documented_is_a_success_with_null_structured_content() -> None:
    """PowerDNS documents rectify's answer as a string and sends {"result": "Rectified"}: the
    lenient schema of a root of one value admits null, so every client gets conforming content."""
    answer = UpstreamResponse(
        200, "OK", "application/json", b'{"result": "Rectified"}', URL, method="PUT"
    )
    result = tool_result(answer, Validator(NULLABLE_STRING))
    assert result == {
        "resultType": "complete",
        "content": [
            {"type": "text", "text": '{"result":"Rectified"}'},
            {
                "type": "text",
                "text": "The call succeeded (HTTP 200 OK): the change was made, so do not repeat "
                "it. Its response does not match the documented schema:\n"
                '- (root): {"result":"Rectified"} is not of types "null", "string"\n'
                "The text above is the response as received; the structured content is null.",
            },
        ],
        "structuredContent": None,
    }


def test_an_object_where_an_array_is_documented_leaves_the_structured_content_empty() -> None:
    body = b'{"total_count": 1, "items": [{"id": 1}]}'
    result = tool_result(response(body=body), Validator({"type": "array", "items": {}}))
    assert result["structuredContent"] == []
    assert result.get("isError") is None
    assert result["content"][0] == {"type": "text", "text": '{"total_count":1,"items":[{"id":1}]}'}
    assert result["content"][1]["text"].endswith("the structured content is left empty.")


@pytest.mark.parametrize(
    ("reads", "said"),
    [
        (None, "The call succeeded (HTTP 200 OK): the change was made, so do not repeat it."),
        (True, "The call succeeded (HTTP 200 OK)."),
    ],
)
def test_a_search_by_post_is_not_a_change_made(reads: bool | None, said: str) -> None:
    # pygeoapi's CQL2 search of a collection's items: a POST annotated read-only
    page = UpstreamResponse(200, "OK", "text/html", b"<p>3 lakes</p>", URL, method="POST")
    result = tool_result(page, Validator(LENIENT_PET), reads=reads)
    assert result["content"][0]["text"] == (
        f"{said} The API answered with a web page, not the JSON its output schema describes (a "
        "sign-in page, or a web application's page for an address its API does not serve); its "
        "text follows."
    )


def test_events_where_json_is_documented_too_are_no_mismatch() -> None:
    # Langflow's workflow run documents JSON and text/event-stream; asked to stream, it streams
    body = b'event: token\ndata: {"chunk": "Hi"}\n\nevent: end\ndata: {}\n\n'
    events = response(body=body, content_type="text/event-stream; charset=utf-8")
    result = tool_result(events, Validator({"type": "object"}))
    assert result["content"][:2] == [
        {
            "type": "text",
            "text": "The call succeeded (HTTP 200 OK). The API answered with its events "
            "(text/event-stream), not one JSON value; the body follows as it came.",
        },
        {"type": "text", "text": body.decode()},
    ]
    assert result.get("isError") is None


def test_a_web_page_where_json_is_documented_without_a_schema_is_told_too() -> None:
    # Open WebUI's file content by name, "dir/x.txt": its %2F decoded, the application's page
    page = response(
        body=b"<html><title>Open WebUI</title><p>Loading</p></html>", content_type="text/html"
    )
    result = tool_result(page, None, documented="application/json")
    assert result["content"][0]["text"] == (
        "The call succeeded (HTTP 200 OK). The API answered with a web page, not the JSON this "
        "operation documents (a sign-in page, or a web application's page for an address its API "
        "does not serve); its text follows."
    )
    assert result["content"][1]["text"].startswith("(an HTML page) Open WebUI")
    # a page the operation documents is its answer
    assert tool_result(page, None, documented="text/html")["content"][0]["text"].startswith(
        "<html>"
    )


def test_a_web_page_where_json_is_documented_is_told_by_its_text() -> None:
    # Phoenix's web application answers 200 for an id with a "/" in it: its page, not markup
    body = (
        b"<html><head><title>Phoenix</title><script>window.Config={};</script></head>"
        b"<body><div id=root></div><noscript>Enable JavaScript</noscript></body></html>"
    )
    page = response(body=body, content_type="text/html; charset=utf-8")
    result = tool_result(page, Validator(LENIENT_PET))
    assert result == {
        "resultType": "complete",
        "content": [
            {
                "type": "text",
                "text": "The call succeeded (HTTP 200 OK). The API answered with a web page, not "
                "the JSON its output schema describes (a sign-in page, or a web application's "
                "page for an address its API does not serve); its text follows.",
            },
            {"type": "text", "text": "(an HTML page) Phoenix"},
        ],
        "structuredContent": {},
    }


def test_invalid_json_labelled_json_is_delivered_as_text() -> None:
    assert tool_result(response(body=b"{not json"), None) == {
        "resultType": "complete",
        "content": [{"type": "text", "text": "{not json"}],
    }
    schema = tool_result(response(body=b"{not json"), Validator(LENIENT_PET))
    assert schema["content"][1] == {"type": "text", "text": "{not json"}
    assert schema["structuredContent"] == {}


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-ndjson", b'{"n":1}\n{"n":2}\n'),
        ("application/jsonl", b'{"n":1}\r\n\r\n{"n":2}'),
        ("application/json", b'{"n":1}\n{"n":2}\n'),
        ("application/json-seq", b'\x1e{"n":1}\n\x1e{"n":2}\n'),
    ],
)
def test_json_lines_become_an_array(content_type: str, body: bytes) -> None:
    result = tool_result(
        response(body=body, content_type=content_type), Validator({"type": "array"})
    )
    assert result == {
        "resultType": "complete",
        "content": [{"type": "text", "text": '[{"n":1},{"n":2}]'}],
        "structuredContent": [{"n": 1}, {"n": 2}],
    }


def test_not_modified_is_a_success() -> None:
    result = tool_result(
        response(304, reason="Not Modified", content_type=""), Validator(LENIENT_PET)
    )
    assert result == {
        "resultType": "complete",
        "content": [
            {
                "type": "text",
                "text": "HTTP 304 Not Modified: the resource has not changed since the version the "
                "request named (its ETag or date); the copy you have is current.",
            }
        ],
        "structuredContent": {},
    }


def test_a_failure_after_a_redirect_names_the_redirect() -> None:
    refused = UpstreamResponse(
        401,
        "Unauthorized",
        "application/json",
        b'{"detail":"No Api Key provided."}',
        URL,
        followed="a 307 redirect to https://wallets.example.com/api/v1/wallet",
        auth_hint="the API did not accept the credentials of WALLETS_HTTP_BEARER_TOKEN",
    )
    assert tool_result(refused, None)["content"][0]["text"] == (
        "Upstream returned 401 Unauthorized (after a 307 redirect to "
        'https://wallets.example.com/api/v1/wallet): {"detail":"No Api Key provided."}\n'
        "The API did not accept the credentials of WALLETS_HTTP_BEARER_TOKEN."
    )


def test_a_redirect_that_was_not_followed_names_its_location() -> None:
    moved = UpstreamResponse(
        307,
        "Temporary Redirect",
        "",
        b"",
        URL,
        method="POST",
        location="https://api.example.com/v2/pets",
        not_followed="only GET and HEAD requests follow redirects; the POST was not resent",
    )
    assert tool_result(moved, None) == tool_error(
        "Upstream answered 307 Temporary Redirect, redirecting to https://api.example.com/v2/pets; "
        "it was not followed: only GET and HEAD requests follow redirects; the POST was not resent."
    )


def test_a_redirect_the_operation_documents_is_its_answer() -> None:
    """httpbin's ``PUT /redirect-to`` and GitHub's downloads document a 302 as what they answer:
    not followed (a PUT is not resent; a loopback target is refused), it is the call's result,
    not a failure; a 307 or 308 asks for the same request elsewhere, so it stays a failure."""
    found = UpstreamResponse(
        302,
        "Found",
        "",
        b"",
        URL,
        method="PUT",
        location="https://files.example.com/report.zip",
        not_followed="only GET and HEAD requests follow redirects; the PUT was not resent",
    )
    assert tool_result(found, None, redirects=["302"]) == {
        "resultType": "complete",
        "content": [
            {
                "type": "text",
                "text": "The call succeeded (HTTP 302 Found): the API redirected to "
                "https://files.example.com/report.zip, as this operation documents; it was not "
                "followed: only GET and HEAD requests follow redirects; the PUT was not resent. "
                "The change was made: do not repeat it.",
            }
        ],
    }
    bare = response(302, b"", content_type="", reason="Found")
    assert tool_result(bare, None, redirects=["3XX"])["content"] == [
        {
            "type": "text",
            "text": "The call succeeded (HTTP 302 Found): the API redirected, without a Location, "
            "as this operation documents.",
        }
    ]
    # undocumented, or a 307 / 308 even when documented: the request was not carried out
    assert tool_result(found, None)["isError"] is True
    moved = UpstreamResponse(307, "Temporary Redirect", "", b"", URL, method="POST", location=URL)
    assert tool_result(moved, None, redirects=["307", "3XX"])["isError"] is True


def test_a_201_without_a_body_names_the_new_location() -> None:
    created = UpstreamResponse(201, "Created", "", b"", URL, method="POST", location=f"{URL}/9")
    assert tool_result(created, None)["content"] == [
        {"type": "text", "text": f"HTTP 201 Created; Location: {URL}/9"}
    ]


def test_a_401_says_which_variable_sends_credentials() -> None:
    refused = UpstreamResponse(
        401,
        "Unauthorized",
        "application/json",
        b'{"message": "Requires authentication"}',
        URL,
        auth_hint="it was sent without credentials; to send them, set the environment variable "
        "GITHUB_TOKEN",
    )
    assert tool_result(refused, None) == tool_error(
        'Upstream returned 401 Unauthorized: {"message":"Requires authentication"}\n'
        "It was sent without credentials; to send them, set the environment variable GITHUB_TOKEN."
    )


def test_a_body_in_an_unknown_coding_is_a_blob_naming_it() -> None:
    packed = UpstreamResponse(200, "OK", "application/json", b"\x1b\x00br", URL, encoding="br")
    result = tool_result(packed, Validator(LENIENT_PET))
    assert result == {
        "resultType": "complete",
        "content": [
            {
                "type": "text",
                "text": "The call succeeded (HTTP 200 OK). The body is encoded as br, which this "
                "server cannot decode; it follows as it came.",
            },
            {
                "type": "resource",
                "resource": {
                    "uri": URL,
                    "mimeType": "application/json",
                    "blob": base64.b64encode(b"\x1b\x00br").decode(),
                },
            },
        ],
        "structuredContent": {},
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


def test_an_image_models_cannot_read_is_a_blob_and_jpg_is_jpeg() -> None:
    # TiTiler answers tiles as image/jpg, and as TIFF or JPEG 2000 when asked: a model API takes
    # PNG, JPEG, GIF and WebP images only, so the others go as bytes
    jpeg = b"\xff\xd8\xff\xe0"
    encoded = base64.b64encode(jpeg).decode()
    assert tool_result(response(body=jpeg, content_type="image/jpg"), None)["content"] == [
        {"type": "image", "data": encoded, "mimeType": "image/jpeg"}
    ]
    tiff = response(body=b"II*\x00", content_type="image/tiff; application=geotiff")
    [block] = tool_result(tiff, None)["content"]
    assert block == {
        "type": "resource",
        "resource": {
            "uri": URL,
            "mimeType": "image/tiff",
            "blob": base64.b64encode(b"II*\x00").decode(),
        },
    }


def test_a_format_the_operation_documents_beside_json_is_no_mismatch() -> None:
    # TiTiler's colour map documents JSON, PNG, HTML and more; asked with f=png, it is a PNG
    png = b"\x89PNG\r\n\x1a\n\x00"
    offered = frozenset({"application/json", "image/png", "text/html"})
    result = tool_result(
        response(body=png, content_type="image/png"), Validator(LENIENT_PET), offered=offered
    )
    assert result == {
        "resultType": "complete",
        "content": [
            {
                "type": "text",
                "text": "The call succeeded (HTTP 200 OK). The API answered with image/png, a"
                " format this operation documents beside JSON; it follows.",
            },
            {"type": "image", "data": base64.b64encode(png).decode(), "mimeType": "image/png"},
        ],
        "structuredContent": {},
    }
    page = response(body=b"<html><title>Viridis</title></html>", content_type="text/html")
    told = tool_result(page, Validator(LENIENT_PET), offered=offered)["content"]
    assert told == [
        {
            "type": "text",
            "text": "The call succeeded (HTTP 200 OK). The API answered with text/html, a format"
            " this operation documents beside JSON; the page's text follows.",
        },
        {"type": "text", "text": "(an HTML page) Viridis"},
    ]
    # JSON that is not JSON is still said to be so, documented or not
    broken = tool_result(response(body=b"nope"), Validator(LENIENT_PET), offered=offered)
    assert broken["content"][0]["text"] == (
        "The call succeeded (HTTP 200 OK). The API's answer is not the JSON its Content-Type"
        " (application/json) says; the body follows as it came."
    )
    # a type it does not document is still said to be one
    csv = tool_result(
        response(body=b"a,b", content_type="text/csv"), Validator(LENIENT_PET), offered=offered
    )
    assert csv["content"][0]["text"].endswith(
        "not the JSON its output schema describes; the body follows as it came."
    )


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
    assert tool_result(response(status), None) == {
        "resultType": "complete",
        "content": [{"type": "text", "text": text}],
    }
    # an advertised schema gets an empty value that conforms (here: a lenient object)
    assert tool_result(response(status), Validator(LENIENT_PET))["structuredContent"] == {}


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


def test_a_redirect_without_a_location_is_an_error() -> None:
    result = tool_result(response(302, b"", content_type="", reason="Found"), None)
    assert result == tool_error("Upstream returned 302 Found")


def test_error_excerpt_is_bounded() -> None:
    body = ("x" * (MAX_ERROR_EXCERPT + 500)).encode()
    text = tool_result(response(500, body, content_type="text/plain"), None)["content"][0]["text"]
    assert (
        text
        == "Upstream returned 500 Internal Server Error: "
        + "x" * MAX_ERROR_EXCERPT
        + "… [500 more characters]"
    )


def test_large_text_is_truncated_and_says_so() -> None:
    body = ("a" * (MAX_TEXT_CHARS + 10)).encode()
    text = tool_result(response(body=body, content_type="text/plain"), None)["content"][0]["text"]
    notice = (
        f"\n[truncated: 168 of {MAX_TEXT_CHARS + 10} characters cut; this server returns at most "
        f"{MAX_TEXT_CHARS} characters per result (its operator can raise that with "
        "MCP_MAX_RESULT_CHARS)]"
    )
    assert text == "a" * (MAX_TEXT_CHARS - 158) + notice
    assert len(text) == MAX_TEXT_CHARS


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


def test_a_document_in_a_type_of_its_own_is_text() -> None:
    # NetBox's schema as YAML, application/vnd.oai.openapi
    body = b"openapi: 3.0.3\ninfo:\n  title: NetBox REST API\n"
    yaml = response(body=body, content_type="application/vnd.oai.openapi; charset=utf-8")
    assert tool_result(yaml, None)["content"][0] == {"type": "text", "text": body.decode()}


def test_a_page_labelled_json_is_told_as_a_page() -> None:
    # Evidently's report download: 3.9 MB of HTML (scripts, fonts) labelled application/json,
    # which had come whole as text, a million characters of it
    body = (
        b"<!DOCTYPE html><html><head><title>Report</title><script>" + b"x" * 5000
        + b"</script></head><body><table><tr><th>metric</th><th>value</th></tr>"
        + b"<tr><td>drift</td><td>0.12</td></tr></table></body></html>"
    )  # fmt: skip
    for output in (Validator(LENIENT_PET), None):
        result = tool_result(response(body=body), output, documented="application/json")
        assert [block["text"] for block in result["content"][:2]] == [
            "The call succeeded (HTTP 200 OK). The API's answer is a web page (HTML), though its "
            "Content-Type says application/json; its text follows.",
            "(an HTML page) Report | metric value | drift 0.12",
        ]


def test_a_download_labelled_as_bytes_whose_name_says_text_is_text() -> None:
    # Evidently's dataset as CSV: application/octet-stream, filename=….csv, had come as base64
    body = b"temp,hum,season\n9.1,0.8,winter\n"
    disposition = ("content-disposition", 'attachment; filename="bikes.csv"')
    csv = UpstreamResponse(200, "OK", "application/octet-stream", body, URL, headers=(disposition,))
    assert tool_result(csv, None)["content"] == [
        {"type": "text", "text": body.decode()},
        {
            "type": "text",
            "text": '[response headers] content-disposition: attachment; filename="bikes.csv"',
        },
    ]
    # bytes that are no text stay a blob, whatever the name
    raw = UpstreamResponse(
        200, "OK", "application/octet-stream", b"\xff\xfe", URL, headers=(disposition,)
    )
    assert tool_result(raw, None)["content"][0]["type"] == "resource"


def test_jsonp_is_text() -> None:
    # Netdata's data as JSONP (format=jsonp): application/x-javascript, which had come as base64
    body = b'cb({"labels": ["time", "user"]});'
    jsonp = response(body=body, content_type="application/x-javascript; charset=utf-8")
    assert tool_result(jsonp, None)["content"][0] == {"type": "text", "text": body.decode()}


def test_resource_bytes_listed_as_json_are_no_json() -> None:
    # Aim's run search: its own binary encoding, unlabelled, where the document says JSON
    raw = b"$\x00\x00\x00b1\xff"
    contents = resource_contents(
        response(body=raw, content_type=""), "api://runs", "application/json"
    )
    assert contents == [
        {
            "uri": "api://runs",
            "mimeType": "application/octet-stream",
            "blob": base64.b64encode(raw).decode(),
        }
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


def test_a_web_page_for_a_path_that_repeats_its_mount_is_no_success() -> None:
    # Phoenix's base URL set with its /v1: GET /v1/v1/projects, and its web application answered
    # 200 with its page, which had been "The call succeeded"
    url = "http://127.0.0.1:6006/v1/v1/projects"
    page = UpstreamResponse(200, "OK", "text/html", b"<title>Phoenix</title>", url)
    result = tool_result(page, Validator(LENIENT_PET), reads=True)
    assert result == {
        "resultType": "complete",
        "isError": True,
        "content": [
            {
                "type": "text",
                "text": "The API answered with a web page (HTTP 200 OK), not this operation's "
                "answer: the request went to /v1/v1/projects, which says /v1 twice. The base URL "
                "may end with the /v1 every path of the API starts with; set it without.",
            }
        ],
    }


def test_a_path_that_repeats_its_mount_says_the_base_url_may_hold_it() -> None:
    # Glances prints its address as http://host:61208/api/4, and every path it documents starts
    # with /api/4: a base URL set so sent /api/4/api/4/load, and the 400 said "Unknown plugin api"
    url = "http://127.0.0.1:61208/api/4/api/4/load"
    body = b'{"detail":"Unknown plugin api (available plugins: [cpu, load])"}'
    result = tool_result(UpstreamResponse(400, "Bad Request", "application/json", body, url), None)
    assert result["isError"] is True
    assert result["content"][0]["text"] == (
        'Upstream returned 400 Bad Request: {"detail":"Unknown plugin api (available plugins: '
        '[cpu, load])"}\nThe request went to /api/4/api/4/load, which says /api/4 twice: the base '
        "URL may end with the /api/4 every path of the API starts with (as the address a server "
        "prints often does); set it without."
    )
    # a path whose values repeat says nothing of the kind
    matrix = UpstreamResponse(404, "Not Found", "application/json", b"{}", "http://h/cells/4/4")
    assert "twice" not in tool_result(matrix, None)["content"][0]["text"]
