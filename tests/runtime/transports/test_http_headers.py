"""2026-07-28 header/body validation: MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*.

Each failure must be HTTP 400 with a ``-32020`` JSON-RPC error carrying the request id; values may be
``=?base64?...?=``-encoded and integers compare numerically.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest

from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.jsonrpc import JsonRpcError
from templates.runtime.transports.http_headers import (
    RequestHeaders,
    ToolHeaders,
    check_modern_headers,
)
from tests.kit.meta import PROTOCOL_VERSION
from tests.runtime.transports.conftest import AppFactory, body_of
from tests.runtime.transports.kit import modern, modern_headers

REQUEST_ID = "4f1c2a1e-9a77-4c47-9f7e-2b2d1f0c3a55"


def b64(text: str) -> str:
    return "=?base64?" + base64.b64encode(text.encode()).decode() + "?="


async def post(client: httpx.AsyncClient, body: Any, headers: Any) -> httpx.Response:
    return await client.post("/mcp", content=json.dumps(body).encode(), headers=headers)


def assert_mismatch(response: httpx.Response, message: str, request_id: Any = 1) -> None:
    assert response.status_code == 400
    assert body_of(response) == {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": -32020, "message": message},
    }


def without(headers: dict[str, str], name: str) -> dict[str, str]:
    return {key: value for key, value in headers.items() if key != name}


# -- standard headers, both transports -------------------------------------------------------------


async def test_missing_protocol_version_header(endpoint: httpx.AsyncClient) -> None:
    headers = without(modern_headers("tools/list"), "mcp-protocol-version")
    response = await post(endpoint, modern("tools/list"), headers)
    assert_mismatch(response, "Header mismatch: MCP-Protocol-Version header is missing")


async def test_protocol_version_header_differing_from_meta(endpoint: httpx.AsyncClient) -> None:
    headers = modern_headers("tools/list", **{"mcp-protocol-version": "2025-11-25"})
    response = await post(endpoint, modern("tools/list"), headers)
    assert_mismatch(
        response,
        "Header mismatch: MCP-Protocol-Version header does not match _meta "
        "io.modelcontextprotocol/protocolVersion",
    )


async def test_header_mismatch_is_reported_before_an_unknown_version(
    endpoint: httpx.AsyncClient,
) -> None:
    body = modern("server/discover", meta_extra={PROTOCOL_VERSION: "v999.0.0"})
    response = await post(endpoint, body, modern_headers("server/discover"))
    assert response.status_code == 400
    assert body_of(response)["error"]["code"] == -32020


@pytest.mark.parametrize("value", [None, "prompts/list", "TOOLS/LIST", "tools/list/"])
async def test_mcp_method_must_equal_the_method(
    endpoint: httpx.AsyncClient, value: str | None
) -> None:
    headers = without(modern_headers("tools/list"), "mcp-method")
    if value is not None:
        headers["mcp-method"] = value
    response = await post(endpoint, modern("tools/list"), headers)
    expected = (
        "Header mismatch: Mcp-Method header is missing"
        if value is None
        else "Header mismatch: Mcp-Method header does not match method 'tools/list'"
    )
    assert_mismatch(response, expected)


@pytest.mark.parametrize("name", ["mcp-method", "MCP-METHOD", "Mcp-Method"])
async def test_header_names_are_case_insensitive(endpoint: httpx.AsyncClient, name: str) -> None:
    headers = without(modern_headers("tools/list"), "mcp-method")
    headers[name] = "tools/list"
    assert (await post(endpoint, modern("tools/list"), headers)).status_code == 200


async def test_a_repeated_routing_header_is_a_mismatch(endpoint: httpx.AsyncClient) -> None:
    headers = [*modern_headers("tools/list").items(), ("mcp-method", "tools/list")]
    response = await post(endpoint, modern("tools/list"), headers)
    assert_mismatch(response, "Header mismatch: Mcp-Method header is repeated")


@pytest.mark.parametrize(
    ("method", "params", "name"),
    [
        ("tools/call", {"name": "get_pet_by_id", "arguments": {"petId": 1}}, "get_pet_by_id"),
        ("prompts/get", {"name": "pets_workflow", "arguments": {"goal": "x"}}, "pets_workflow"),
        ("resources/read", {"uri": "petstore://pets/1"}, "petstore://pets/1"),
    ],
)
async def test_mcp_name_mirrors_the_name_or_uri(
    endpoint: httpx.AsyncClient, method: str, params: dict[str, Any], name: str
) -> None:
    body = modern(method, **params)
    source = "uri" if method == "resources/read" else "name"
    ok = await post(endpoint, body, modern_headers(method, name))
    assert ok.status_code == 200 and "result" in body_of(ok)
    encoded = await post(endpoint, body, modern_headers(method, b64(name)))
    assert encoded.status_code == 200
    missing = await post(endpoint, body, modern_headers(method))
    assert_mismatch(missing, "Header mismatch: Mcp-Name header is missing")
    wrong = await post(endpoint, body, modern_headers(method, "something_else"))
    assert_mismatch(wrong, f"Header mismatch: Mcp-Name header does not match params.{source}")


async def test_whitespace_around_a_value_is_not_part_of_it(make_app: AppFactory) -> None:
    # h11 clients refuse to send it, and servers strip it; an ASGI server might pass it through
    transport = httpx.ASGITransport(app=make_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        body = modern("tools/call", name="get_pet_by_id", arguments={"petId": 1})
        headers = modern_headers(
            "tools/call", "  get_pet_by_id\t", **{"mcp-method": " tools/call "}
        )
        response = await post(client, body, headers)
    assert response.status_code == 200


@pytest.mark.parametrize(
    "value",
    [
        "=?base64?Z2V0X3BldF9ieV9pZA?=",  # padding missing
        "=?base64?Z2V0X3Bl!!!dF9ieV9pZA==?=",  # not in the alphabet
        "=?base64?Z2V0X3BldF9ieV9pZB==?=",  # non-zero padding bits: not the canonical form
        "=?base64?/w==?=",  # decodes to bytes that are not UTF-8
    ],
)
async def test_malformed_base64_is_a_mismatch(endpoint: httpx.AsyncClient, value: str) -> None:
    body = modern("tools/call", name="get_pet_by_id", arguments={"petId": 1})
    response = await post(endpoint, body, modern_headers("tools/call", value))
    assert_mismatch(response, "Header mismatch: Mcp-Name header is not valid =?base64?...?= text")


@pytest.mark.parametrize(
    "value",
    ["=?BASE64?Z2V0X3BldF9ieV9pZA==?=", "=?base64?Z2V0X3BldF9ieV9pZA==", "Z2V0X3BldF9ieV9pZA=="],
)
async def test_values_without_the_exact_sentinel_are_literal(
    endpoint: httpx.AsyncClient, value: str
) -> None:
    body = modern("tools/call", name="get_pet_by_id", arguments={"petId": 1})
    response = await post(endpoint, body, modern_headers("tools/call", value))
    assert_mismatch(response, "Header mismatch: Mcp-Name header does not match params.name")


async def test_a_base64_name_may_carry_any_unicode(endpoint: httpx.AsyncClient) -> None:
    body = modern("tools/call", name="Größe 🐕", arguments={})
    response = await post(endpoint, body, modern_headers("tools/call", b64("Größe 🐕")))
    # header and body agree; the tool just does not exist (an application error: 200)
    assert response.status_code == 200
    assert body_of(response)["error"] == {"code": -32602, "message": "Unknown tool: Größe 🐕"}


@pytest.mark.parametrize("raw", [b"caf\xc3\xa9", b"get\x7fpet"])
async def test_header_values_outside_visible_ascii_are_a_mismatch(
    endpoint: httpx.AsyncClient, raw: bytes
) -> None:
    body = modern("tools/call", name="get_pet_by_id", arguments={"petId": 1})
    headers: list[tuple[str, str | bytes]] = [
        *modern_headers("tools/call").items(),
        ("mcp-name", raw),
    ]
    response = await post(endpoint, body, headers)
    assert_mismatch(response, "Header mismatch: Mcp-Name header has invalid characters")


# -- Mcp-Param-* from x-mcp-header ------------------------------------------------------------------


def list_pets(arguments: dict[str, Any], **headers: str) -> tuple[Any, dict[str, str]]:
    body = modern("tools/call", name="list_pets", arguments=arguments)
    return body, {**modern_headers("tools/call", "list_pets"), **headers}


async def test_a_declared_param_header_is_checked_and_the_call_made(
    endpoint: httpx.AsyncClient,
) -> None:
    body, headers = list_pets({"limit": 1, "X-Request-ID": REQUEST_ID})
    for value in (REQUEST_ID, b64(REQUEST_ID)):
        response = await post(endpoint, body, {**headers, "Mcp-Param-X-Request-ID": value})
        assert response.status_code == 200
        result = body_of(response)["result"]
        assert "isError" not in result and isinstance(result["structuredContent"], list)


async def test_the_param_header_reaches_the_upstream_as_the_argument(
    make_app: AppFactory, fake_petstore: Any
) -> None:
    transport = httpx.ASGITransport(app=make_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        body, headers = list_pets({"limit": 1, "X-Request-ID": REQUEST_ID})
        response = await post(client, body, {**headers, "mcp-param-x-request-id": REQUEST_ID})
    assert response.status_code == 200
    (sent,) = fake_petstore.requests
    assert (sent.method, sent.raw_path, sent.query) == ("GET", "/v1/pets", "limit=1")
    assert sent.headers["x-request-id"] == REQUEST_ID


@pytest.mark.parametrize(
    ("arguments", "header", "message"),
    [
        ({"X-Request-ID": REQUEST_ID}, None, "Mcp-Param-X-Request-ID header is missing"),
        ({}, REQUEST_ID, "Mcp-Param-X-Request-ID header is present but the argument is not"),
        (
            {"X-Request-ID": None},
            REQUEST_ID,
            "Mcp-Param-X-Request-ID header is present but the argument is not",
        ),
        (
            {"X-Request-ID": REQUEST_ID},
            "other",
            "Mcp-Param-X-Request-ID header does not match the argument",
        ),
        (
            {"X-Request-ID": REQUEST_ID},
            "",
            "Mcp-Param-X-Request-ID header does not match the argument",
        ),
        (
            {"X-Request-ID": REQUEST_ID},
            REQUEST_ID.upper(),
            "Mcp-Param-X-Request-ID header does not match the argument",
        ),
    ],
)
async def test_param_header_mismatches(
    endpoint: httpx.AsyncClient, arguments: dict[str, Any], header: str | None, message: str
) -> None:
    body, headers = list_pets(arguments)
    if header is not None:
        headers["Mcp-Param-X-Request-ID"] = header
    assert_mismatch(await post(endpoint, body, headers), f"Header mismatch: {message}")


async def test_a_null_argument_expects_no_header(endpoint: httpx.AsyncClient) -> None:
    body, headers = list_pets({"X-Request-ID": None})
    response = await post(endpoint, body, headers)
    # the headers agree with the body; null then leaves the optional header out of the call
    assert response.status_code == 200
    result = body_of(response)["result"]
    assert result.get("isError") is not True, result


async def test_a_repeated_param_header_is_a_mismatch(endpoint: httpx.AsyncClient) -> None:
    body, headers = list_pets({"X-Request-ID": REQUEST_ID})
    pairs = [
        *headers.items(),
        ("mcp-param-x-request-id", REQUEST_ID),
        ("MCP-PARAM-X-REQUEST-ID", REQUEST_ID),
    ]
    response = await post(endpoint, body, pairs)
    assert_mismatch(response, "Header mismatch: Mcp-Param-X-Request-ID header is repeated")


async def test_undeclared_param_headers_are_ignored(endpoint: httpx.AsyncClient) -> None:
    body, headers = list_pets({"limit": 1})
    response = await post(endpoint, body, {**headers, "Mcp-Param-Region": "us-west1"})
    assert response.status_code == 200


def pet_id_header(catalog: Catalog) -> None:
    tool = next(t for t in catalog["tools"] if t["name"] == "get_pet_by_id")
    tool["inputSchema"]["properties"]["petId"]["x-mcp-header"] = "Pet-Id"


@pytest.mark.parametrize("value", ["1", "1.0", "1.000", "+1", "1e0", "0.1E1", b64("1"), b64("1.0")])
async def test_integer_params_compare_numerically(make_app: AppFactory, value: str) -> None:
    transport = httpx.ASGITransport(app=make_app(pet_id_header))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        body = modern("tools/call", name="get_pet_by_id", arguments={"petId": 1})
        headers = {**modern_headers("tools/call", "get_pet_by_id"), "Mcp-Param-Pet-Id": value}
        response = await post(client, body, headers)
    assert response.status_code == 200
    assert body_of(response)["result"]["structuredContent"]["id"] == 1


@pytest.mark.parametrize("value", ["2", "1.5", "one", "", "0x1", "1 0", "NaN", "Infinity"])
async def test_integer_params_that_differ_are_a_mismatch(make_app: AppFactory, value: str) -> None:
    transport = httpx.ASGITransport(app=make_app(pet_id_header))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        body = modern("tools/call", name="get_pet_by_id", arguments={"petId": 1})
        headers = {**modern_headers("tools/call", "get_pet_by_id"), "Mcp-Param-Pet-Id": value}
        response = await post(client, body, headers)
    assert_mismatch(
        response, "Header mismatch: Mcp-Param-Pet-Id header does not match the argument"
    )


# -- the checks as a function: booleans, nested properties, non-scalar arguments --------------------

TOOL = {
    "name": "search",
    "inputSchema": {
        "type": "object",
        "properties": {
            "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
            "where": {
                "type": "object",
                "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
            },
            "filter": {"type": "string", "x-mcp-header": "Filter"},
            "items": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}},
        },
    },
}


def check(arguments: Any, **headers: str) -> str | None:
    """The mismatch message, or ``None`` when the headers agree with the arguments."""
    raw = [
        (b"mcp-protocol-version", b"2026-07-28"),
        (b"mcp-method", b"tools/call"),
        (b"mcp-name", b"search"),
        *((name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()),
    ]
    message = modern("tools/call", name="search", arguments=arguments)
    try:
        check_modern_headers(RequestHeaders(raw), message, "2026-07-28", ToolHeaders([TOOL]))
    except JsonRpcError as exc:
        assert exc.code == -32020
        return exc.message
    return None


def test_booleans_are_lowercase_words() -> None:
    assert check({"verbose": True}, mcp_param_verbose="true") is None
    assert check({"verbose": False}, mcp_param_verbose="false") is None
    assert check({"verbose": True}, mcp_param_verbose="True") is not None
    assert check({"verbose": True}, mcp_param_verbose="1") is not None


def test_nested_properties_are_mirrored_by_their_path() -> None:
    assert check({"where": {"region": "us-west1"}}, mcp_param_region="us-west1") is None
    assert (
        check({"where": {"region": "us-west1"}})
        == "Header mismatch: Mcp-Param-Region header is missing"
    )
    assert check({"where": {}}) is None
    assert check({"where": "flat"}) is None


def test_only_properties_chains_declare_headers() -> None:
    # "items" is not a properties chain: its x-mcp-header is not a declaration
    assert check({"items": ["a"]}) is None
    assert check({"items": ["a"]}, mcp_param_item="a") is None


def test_non_scalar_arguments_expect_no_header() -> None:
    assert check({"filter": {"a": 1}}) is None
    message = "Header mismatch: Mcp-Param-Filter header is present but the argument is not"
    assert check({"filter": ["a"]}, mcp_param_filter="a") == message


def test_numbers_compare_numerically_in_any_declared_property() -> None:
    assert check({"filter": 42}, mcp_param_filter="42.0") is None
    assert check({"filter": 2.5}, mcp_param_filter="2.50") is None
    assert check({"filter": 2.5}, mcp_param_filter="2.4") is not None
    assert check({"filter": "42"}, mcp_param_filter="42.0") is not None
