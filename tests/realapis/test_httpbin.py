"""httpbin 0.10.4 (its live Swagger 2.0 document, /spec.json) driven through a generated MCP server.

httpbin echoes what it receives, so it shows what reached the upstream: redirects (followed for
GET, reported for other methods, the answer where nothing else is documented), conditional requests answered 304, NDJSON streams, a br-encoded
body, failing routes next to healthy ones, and configured extra headers that must reach the API
but never come back to the model.
"""

from __future__ import annotations

import base64
import importlib.util
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.types import BlobResourceContents, CallToolResult, EmbeddedResource

from tests.realapis.conftest import (
    LiveApi,
    headers_env,
    mcp_client,
    only_text,
    result_json,
    texts,
    whole_result,
)

pytestmark = pytest.mark.realapi

SECRET = "s3cr3t-httpbin-header-value-42"


def _final_get(result: CallToolResult, api: LiveApi) -> dict[str, Any]:
    assert not result.is_error, result
    body = result_json(result)
    assert isinstance(body, dict)
    assert body["url"] == f"{api.root_url}/get"
    return body


async def test_generated_from_the_live_document_lists_every_operation(httpbin: LiveApi) -> None:
    assert httpbin.spec["swagger"] == "2.0"
    async with mcp_client(httpbin.stdio(), "auto") as client:
        assert client.server_info is not None and client.server_info.name == "httpbin-mcp"
        names = {tool.name for tool in (await client.list_tools()).tools}
    assert {
        "get_get",
        "get_headers",
        "get_redirect_n",
        "get_relative_redirect_n",
        "get_absolute_redirect_n",
        "post_redirect_to",
        "put_redirect_to",
        "get_etag_etag",
        "get_cache",
        "get_stream_n",
        "get_brotli",
        "get_status_codes",
        "get_basic_auth_user_passwd",
    } <= names
    assert len(names) == 73


@pytest.mark.parametrize(
    ("tool", "path", "location"),
    [
        ("get_redirect_n", "/redirect/3", "/relative-redirect/2"),
        ("get_relative_redirect_n", "/relative-redirect/3", "/relative-redirect/2"),
        ("get_absolute_redirect_n", "/absolute-redirect/3", "/absolute-redirect/2"),
    ],
)
async def test_a_get_that_documents_only_its_redirect_answers_with_it(
    httpbin: LiveApi, tool: str, path: str, location: str
) -> None:
    """``/redirect/{n}`` documents its 302 ("A redirection.") and nothing else: the redirect is
    its answer (as Strapi's email confirmation's is; followed, its target's failure was reported
    as the call's)."""
    direct = httpx.get(httpbin.root_url + path, follow_redirects=False)
    assert direct.status_code == 302  # the chain starts with a redirect on the server itself
    async with mcp_client(httpbin.stdio(), "auto") as client:
        result = await client.call_tool(tool, {"n": 3})
    assert not result.is_error, result
    assert texts(result) == [
        f"The call succeeded (HTTP 302 FOUND): the API redirected to {httpbin.root_url}{location}, "
        "as this operation documents."
    ]


async def test_a_get_redirect_beside_a_documented_success_is_followed_to_the_final_json(
    httpbin: LiveApi,
) -> None:
    # /status/302 redirects to /redirect/1, which redirects to /get: followed, as /status/{codes}
    # documents a 200 too
    async with mcp_client(httpbin.stdio(), "auto") as client:
        result = await client.call_tool("get_status_codes", {"codes": "302"})
    assert _final_get(result, httpbin)["args"] == {}


@pytest.mark.parametrize(
    ("tool", "arguments", "answer", "location"),
    [
        pytest.param(
            "post_status_codes",
            {"codes": "307"},
            "307 TEMPORARY REDIRECT",
            "/redirect/1",
            id="POST-307",
        ),
        pytest.param(
            "put_status_codes",
            {"codes": "307"},
            "307 TEMPORARY REDIRECT",
            "/redirect/1",
            id="PUT-307",
        ),
    ],
)
async def test_a_non_get_redirect_is_reported_not_followed(
    httpbin: LiveApi, tool: str, arguments: dict[str, Any], answer: str, location: str
) -> None:
    async with mcp_client(httpbin.stdio()) as client:
        result = await client.call_tool(tool, arguments)
    method = tool.split("_", 1)[0].upper()
    # the request was not carried out where the API points: an error naming the Location
    assert result.is_error
    assert texts(result) == [
        f"Upstream answered {answer}, redirecting to {httpbin.root_url}{location}; it was not "
        f"followed: only GET and HEAD requests follow redirects; the {method} was not resent."
    ]


async def test_a_redirect_the_operation_documents_is_its_result(httpbin: LiveApi) -> None:
    """``/redirect-to`` documents its 302 ("A redirection"): not followed for a POST, it is the
    call's answer, not a failure. httpbin reads url and status_code from the query string only,
    whatever its document says (formData for POST/PUT), so it points to the literal "None"."""
    async with mcp_client(httpbin.stdio()) as client:
        result = await client.call_tool("post_redirect_to", {"url": "/uuid", "status_code": 307})
    assert not result.is_error
    assert texts(result) == [
        f"The call succeeded (HTTP 302 FOUND): the API redirected to {httpbin.root_url}/None, as "
        "this operation documents. The change was made: do not repeat it."
    ]


async def test_a_conditional_get_answered_304_is_not_modified_not_an_error(
    httpbin: LiveApi,
) -> None:
    etag = '"v42"'
    direct = httpx.get(f"{httpbin.root_url}/etag/v42", headers={"If-None-Match": etag})
    assert direct.status_code == 304
    async with mcp_client(httpbin.stdio(), "auto") as client:
        fresh = await client.call_tool("get_etag_etag", {"etag": "v42"})
        unchanged = await client.call_tool("get_etag_etag", {"etag": "v42", "If-None-Match": etag})
        since = await client.call_tool(
            "get_cache", {"If-Modified-Since": "Wed, 21 Oct 2015 07:28:00 GMT"}
        )
    assert not fresh.is_error, fresh
    assert result_json(fresh)["url"] == f"{httpbin.root_url}/etag/v42"
    for result in (unchanged, since):
        assert not result.is_error, result
        text = "\n".join(texts(result))
        assert "304" in text
        assert "not modified" in text.lower()


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_an_ndjson_stream_is_parsed_into_an_array(httpbin: LiveApi, mode: str) -> None:
    direct = httpx.get(f"{httpbin.root_url}/stream/3")
    assert direct.headers["content-type"] == "application/json"
    assert len(direct.text.strip().splitlines()) == 3  # NDJSON, not one JSON document
    async with mcp_client(httpbin.stdio(), mode) as client:
        result = await client.call_tool("get_stream_n", {"n": 3})
    assert not result.is_error, result
    items = result_json(result)
    assert isinstance(items, list)
    assert [item["id"] for item in items] == [0, 1, 2]
    assert {item["url"] for item in items} == {f"{httpbin.root_url}/stream/3"}


BROTLI_MODULES = ("brotli", "brotlicffi")


def _brotli_available() -> bool:
    # the generated server runs on this interpreter: br is decodable when one of these imports
    return any(importlib.util.find_spec(name) for name in BROTLI_MODULES)


async def test_a_brotli_body_is_decoded_when_a_decoder_is_installed(httpbin: LiveApi) -> None:
    direct = httpx.get(f"{httpbin.root_url}/brotli", headers={"Accept-Encoding": "identity"})
    assert direct.headers["content-encoding"] == "br"  # whatever the client asked for
    async with mcp_client(httpbin.stdio(), "auto") as client:
        result = await client.call_tool("get_brotli", {})
    if not _brotli_available():
        _assert_named_blob(result)
        return
    assert not result.is_error, result
    body = result_json(result)
    assert body["brotli"] is True
    assert body["headers"]["User-Agent"] == "httpbin-mcp/0.10.4"


async def test_a_brotli_body_without_a_decoder_is_a_blob_naming_its_encoding(
    httpbin: LiveApi, tmp_path: Path
) -> None:
    for name in BROTLI_MODULES:  # shadow the installed decoders: importing them fails
        (tmp_path / f"{name}.py").write_text(f"raise ImportError('{name} hidden by the test')\n")
    async with mcp_client(httpbin.stdio(shadow=tmp_path), "auto") as client:
        result = await client.call_tool("get_brotli", {})
    _assert_named_blob(result)


def _assert_named_blob(result: CallToolResult) -> None:
    assert not result.is_error, result
    blobs = [
        block.resource
        for block in result.content
        if isinstance(block, EmbeddedResource) and isinstance(block.resource, BlobResourceContents)
    ]
    assert len(blobs) == 1, result
    raw = base64.b64decode(blobs[0].blob)
    assert raw and not raw.startswith(b"{")  # the encoded bytes, not a guess at decoding them
    said = " ".join(texts(result)) + " " + (blobs[0].mime_type or "")
    assert "br" in said.lower()  # the encoding is named, so the model knows what the bytes are
    assert all("\ufffd" not in text for text in texts(result))  # never garbled text


async def test_repeated_500s_never_pause_other_operations(httpbin: LiveApi) -> None:
    stdio = httpbin.stdio(RETRIES="0", CIRCUIT_THRESHOLD="3", CIRCUIT_COOLDOWN="60")
    async with mcp_client(stdio, "auto") as client:
        failures = [await client.call_tool("get_status_codes", {"codes": "500"}) for _ in range(8)]
        healthy = await client.call_tool("get_get", {})
        # gateway errors are what opens a circuit, and only this operation's
        gateway = [await client.call_tool("get_status_codes", {"codes": "503"}) for _ in range(3)]
        still_healthy = await client.call_tool("get_get", {})
        teapot = await client.call_tool("get_status_codes", {"codes": "418"})
    for failure in failures:
        assert failure.is_error
        assert "500" in only_text(failure)  # the API's own answer each time, never a refusal
    _final_get(healthy, httpbin)
    for failure in gateway:
        assert failure.is_error
        assert "503" in only_text(failure)
    _final_get(still_healthy, httpbin)
    assert teapot.is_error
    assert "418" not in only_text(teapot)  # the circuit of get_status_codes is open: not sent


async def test_extra_headers_reach_the_api_and_their_values_never_come_back(
    httpbin: LiveApi,
) -> None:
    user, password = "alice", "pw-for-basic-auth-9d1"
    basic = base64.b64encode(f"{user}:{password}".encode()).decode()
    extra = {"X-Secret-Header": SECRET, "Authorization": f"Basic {basic}"}
    async with mcp_client(httpbin.stdio(HEADERS=headers_env(extra)), "auto") as client:
        echoed = await client.call_tool("get_headers", {})
        checked = await client.call_tool(
            "get_basic_auth_user_passwd", {"user": user, "passwd": password}
        )
    assert not echoed.is_error, echoed
    headers = result_json(echoed)["headers"]
    assert "X-Secret-Header" in headers  # it reached httpbin...
    assert headers["X-Secret-Header"] != SECRET  # ...and its value was masked on the way back
    assert "Authorization" in headers
    for result in (echoed, checked):
        dumped = whole_result(result)
        assert SECRET not in dumped
        assert basic not in dumped
    # httpbin accepts the Basic credentials only if the exact header value arrived
    assert not checked.is_error, checked
    assert result_json(checked) == {"authenticated": True, "user": user}
    assert httpx.get(f"{httpbin.root_url}/basic-auth/{user}/{password}").status_code == 401


async def test_an_image_chosen_by_accept_comes_back_as_the_image(httpbin: LiveApi) -> None:
    """``/image`` answers the type the Accept header asks for and 406 to ``*/*``; its Swagger 2.0
    operation produces five image types and documents no schema: the request names them, and the
    image comes back as one (it had been refused with 406)."""
    async with mcp_client(httpbin.stdio(), "auto") as client:
        result = await client.call_tool("get_image", {})
    assert not result.is_error, whole_result(result)
    [image] = [c for c in result.content if c.type == "image"]
    assert image.mime_type == "image/webp"
    assert base64.b64decode(image.data)[8:12] == b"WEBP"
