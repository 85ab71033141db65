"""Status codes and header rules of the HTTP endpoint, in process and through a real uvicorn server.

Every test runs twice (``endpoint`` is the ASGI app in process, then the generated package served by
uvicorn) and asserts the exact status, headers and JSON-RPC body a client receives.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from tests.kit.meta import CLIENT_CAPABILITIES, MODERN, PROTOCOL_VERSION, meta
from tests.runtime.transports.conftest import body_of
from tests.runtime.transports.kit import BASE_HEADERS, initialize, legacy, modern, modern_headers

DISCOVER = modern("server/discover")
DISCOVER_HEADERS = modern_headers("server/discover")
SUPPORTED = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]


def error_body(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    reply: dict[str, Any] = {"jsonrpc": "2.0"}
    if request_id is not None:
        reply["id"] = request_id
    reply["error"] = {"code": code, "message": message}
    return reply


async def post(client: httpx.AsyncClient, body: Any, headers: dict[str, str]) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return await client.post("/mcp", content=content, headers=headers)


async def test_discover_is_json_without_a_session(endpoint: httpx.AsyncClient) -> None:
    response = await post(endpoint, DISCOVER, DISCOVER_HEADERS)
    assert response.status_code == 200
    result = body_of(response)["result"]
    assert (result["resultType"], result["supportedVersions"]) == ("complete", SUPPORTED)
    assert "mcp-session-id" not in response.headers


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "OPTIONS"])
async def test_other_methods_are_405_with_allow(endpoint: httpx.AsyncClient, method: str) -> None:
    response = await endpoint.request(method, "/mcp", headers={"accept": "text/event-stream"})
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert body_of(response) == error_body(-32600, f"Method Not Allowed: {method}; use POST")


async def test_other_paths_are_404_without_a_json_rpc_body(endpoint: httpx.AsyncClient) -> None:
    response = await endpoint.post(
        "/mcp/extra", content=json.dumps(DISCOVER), headers=DISCOVER_HEADERS
    )
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/plain")


@pytest.mark.parametrize(
    "origin", ["http://evil.example.com", "null", "http://localhost.evil.example", "garbage"]
)
async def test_a_foreign_origin_is_403_with_an_id_less_error(
    endpoint: httpx.AsyncClient, origin: str
) -> None:
    response = await post(endpoint, DISCOVER, {**DISCOVER_HEADERS, "origin": origin})
    assert response.status_code == 403
    assert body_of(response) == error_body(-32600, "Forbidden: this Origin is not allowed")


@pytest.mark.parametrize(
    "origin",
    ["http://localhost:5173", "https://127.0.0.1", "http://[::1]:8080", "HTTP://LOCALHOST"],
)
async def test_loopback_origins_are_allowed(endpoint: httpx.AsyncClient, origin: str) -> None:
    response = await post(endpoint, DISCOVER, {**DISCOVER_HEADERS, "origin": origin})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin-1"],
)
async def test_a_body_that_is_not_json_is_415(
    endpoint: httpx.AsyncClient, content_type: str
) -> None:
    response = await post(endpoint, DISCOVER, {**DISCOVER_HEADERS, "content-type": content_type})
    assert response.status_code == 415
    assert body_of(response) == error_body(-32600, "Unsupported Media Type: send application/json")


async def test_json_with_a_utf8_charset_is_accepted(endpoint: httpx.AsyncClient) -> None:
    headers = {**DISCOVER_HEADERS, "content-type": "Application/JSON; charset=UTF-8"}
    assert (await post(endpoint, DISCOVER, headers)).status_code == 200


@pytest.mark.parametrize("accept", ["application/json", "text/event-stream", "text/html"])
async def test_accept_must_admit_json_and_event_streams(
    endpoint: httpx.AsyncClient, accept: str
) -> None:
    response = await post(endpoint, DISCOVER, {**DISCOVER_HEADERS, "accept": accept})
    assert response.status_code == 406
    assert body_of(response) == error_body(
        -32600, "Not Acceptable: accept application/json and text/event-stream"
    )


@pytest.mark.parametrize(
    "accept", ["*/*", "application/*, text/*", "text/event-stream;q=0.5, application/json"]
)
async def test_wildcard_accepts_are_enough(endpoint: httpx.AsyncClient, accept: str) -> None:
    response = await post(endpoint, DISCOVER, {**DISCOVER_HEADERS, "accept": accept})
    assert response.status_code == 200


async def test_a_body_over_the_limit_is_413(endpoint: httpx.AsyncClient) -> None:
    padding = "x" * (4 * 1024 * 1024)
    response = await post(endpoint, modern("server/discover", padding=padding), DISCOVER_HEADERS)
    assert response.status_code == 413
    assert body_of(response) == error_body(-32600, "Payload Too Large: the limit is 4194304 bytes")


async def test_unparseable_json_is_400_parse_error(endpoint: httpx.AsyncClient) -> None:
    response = await post(endpoint, b'{"jsonrpc": "2.0", "id": 1,', DISCOVER_HEADERS)
    assert response.status_code == 400
    assert body_of(response) == error_body(-32700, "Parse error: invalid JSON")


@pytest.mark.parametrize("body", [b"42", b'"tools/list"', b"null"])
async def test_a_non_object_body_is_400_invalid_request(
    endpoint: httpx.AsyncClient, body: bytes
) -> None:
    response = await post(endpoint, body, DISCOVER_HEADERS)
    assert response.status_code == 400
    assert body_of(response) == error_body(
        -32600, "Invalid request: a message must be a JSON object"
    )


async def test_a_broken_envelope_is_400_with_its_id(endpoint: httpx.AsyncClient) -> None:
    response = await post(endpoint, {**DISCOVER, "jsonrpc": "1.0", "id": 5}, DISCOVER_HEADERS)
    assert response.status_code == 400
    assert body_of(response) == error_body(-32600, 'Invalid request: "jsonrpc" must be "2.0"', 5)


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
        {"jsonrpc": "2.0", "id": 7, "result": {}},
    ],
)
@pytest.mark.parametrize("version", [None, "2025-06-18", MODERN])
async def test_notifications_and_responses_are_202_without_a_body(
    endpoint: httpx.AsyncClient, message: Any, version: str | None
) -> None:
    headers = dict(BASE_HEADERS)
    if version is not None:
        headers["mcp-protocol-version"] = version
    response = await post(endpoint, message, headers)
    assert (response.status_code, response.content) == (202, b"")


@pytest.mark.parametrize("params", [{}, {"_meta": {}}, None])
async def test_modern_requests_without_meta_are_400_invalid_params(
    endpoint: httpx.AsyncClient, params: Any
) -> None:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}
    if params is not None:
        body["params"] = params
    response = await post(endpoint, body, modern_headers("tools/list"))
    assert response.status_code == 400
    assert body_of(response) == error_body(
        -32602, f"Missing required _meta field {PROTOCOL_VERSION}", 3
    )


async def test_missing_client_capabilities_is_400_invalid_params(
    endpoint: httpx.AsyncClient,
) -> None:
    body = modern("tools/list", 4)
    del body["params"]["_meta"][CLIENT_CAPABILITIES]
    response = await post(endpoint, body, modern_headers("tools/list"))
    assert response.status_code == 400
    assert body_of(response)["error"]["code"] == -32602


async def test_an_unsupported_version_is_400_with_the_supported_list(
    endpoint: httpx.AsyncClient,
) -> None:
    body = modern("tools/list", 9, meta_extra={PROTOCOL_VERSION: "1900-01-01"})
    headers = modern_headers("tools/list", **{"mcp-protocol-version": "1900-01-01"})
    response = await post(endpoint, body, headers)
    assert response.status_code == 400
    assert body_of(response) == {
        "jsonrpc": "2.0",
        "id": 9,
        "error": {
            "code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": SUPPORTED, "requested": "1900-01-01"},
        },
    }


async def test_a_modern_body_naming_a_legacy_version_is_400_unsupported(
    endpoint: httpx.AsyncClient,
) -> None:
    body = modern("tools/list", 9, meta_extra={PROTOCOL_VERSION: "2025-06-18"})
    headers = modern_headers("tools/list", **{"mcp-protocol-version": "2025-06-18"})
    response = await post(endpoint, body, headers)
    assert response.status_code == 400
    assert body_of(response)["error"]["code"] == -32022


@pytest.mark.parametrize("method", ["no/such/method", "ping", "logging/setLevel", "initialize"])
async def test_unknown_modern_methods_are_404_with_a_json_rpc_body(
    endpoint: httpx.AsyncClient, method: str
) -> None:
    response = await post(endpoint, modern(method, "m1"), modern_headers(method))
    assert response.status_code == 404
    assert body_of(response) == error_body(-32601, f"Method not found: {method}", "m1")


async def test_other_modern_errors_are_200(endpoint: httpx.AsyncClient) -> None:
    body = modern("tools/call", 2, name="no_such_tool", arguments={})
    response = await post(endpoint, body, modern_headers("tools/call", "no_such_tool"))
    assert response.status_code == 200
    assert body_of(response) == error_body(-32602, "Unknown tool: no_such_tool", 2)


async def test_modern_batches_are_400(endpoint: httpx.AsyncClient) -> None:
    response = await post(endpoint, [DISCOVER, modern("tools/list", 2)], DISCOVER_HEADERS)
    assert response.status_code == 400
    assert body_of(response) == error_body(
        -32600, "Invalid request: batches are accepted only from 2025-03-26 clients"
    )


async def test_batches_with_a_2025_06_18_header_are_400(endpoint: httpx.AsyncClient) -> None:
    headers = {**BASE_HEADERS, "mcp-protocol-version": "2025-06-18"}
    response = await post(endpoint, [legacy("ping", 1), legacy("ping", 2)], headers)
    assert response.status_code == 400
    assert body_of(response)["error"]["code"] == -32600


@pytest.mark.parametrize("version", [None, "2025-03-26"])
async def test_batches_without_a_version_header_are_2025_03_26(
    endpoint: httpx.AsyncClient, version: str | None
) -> None:
    headers = dict(BASE_HEADERS)
    if version is not None:
        headers["mcp-protocol-version"] = version
    batch = [
        legacy("ping", "a"),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        legacy("no/such/method", "b"),
    ]
    response = await post(endpoint, batch, headers)
    assert response.status_code == 200
    assert body_of(response) == [
        {"jsonrpc": "2.0", "id": "a", "result": {}},
        error_body(-32601, "Method not found: no/such/method", "b"),
    ]


async def test_a_batch_of_notifications_is_202(endpoint: httpx.AsyncClient) -> None:
    batch = [{"jsonrpc": "2.0", "method": "notifications/initialized"}]
    response = await post(endpoint, batch, dict(BASE_HEADERS))
    assert (response.status_code, response.content) == (202, b"")


async def test_an_empty_batch_is_400(endpoint: httpx.AsyncClient) -> None:
    response = await post(endpoint, [], dict(BASE_HEADERS))
    assert response.status_code == 400
    assert body_of(response) == error_body(-32600, "Invalid request: empty batch")


async def test_legacy_initialize_is_json_with_a_fresh_session_id(
    endpoint: httpx.AsyncClient,
) -> None:
    first = await post(endpoint, initialize("2025-11-25"), dict(BASE_HEADERS))
    second = await post(endpoint, initialize("2025-11-25"), dict(BASE_HEADERS))
    assert first.status_code == 200
    result = body_of(first)["result"]
    assert result["protocolVersion"] == "2025-11-25"
    assert "resultType" not in result
    # visible ASCII, high entropy: 32 random-looking bytes in URL-safe base64, never repeated
    ids = {first.headers["mcp-session-id"], second.headers["mcp-session-id"]}
    assert len(ids) == 2 and all(re.fullmatch(r"[A-Za-z0-9_-]{43}", i) for i in ids)


async def test_a_failed_initialize_mints_no_session_id(endpoint: httpx.AsyncClient) -> None:
    body = legacy("initialize", 0, capabilities={})
    response = await post(endpoint, body, dict(BASE_HEADERS))
    assert body_of(response)["error"]["code"] == -32602
    assert "mcp-session-id" not in response.headers


async def test_a_session_id_sent_by_a_client_is_ignored(endpoint: httpx.AsyncClient) -> None:
    headers = {**DISCOVER_HEADERS, "mcp-session-id": "made-up", "last-event-id": "7"}
    response = await post(endpoint, DISCOVER, headers)
    assert response.status_code == 200
    assert "mcp-session-id" not in response.headers


async def test_unknown_legacy_methods_are_200_not_404(endpoint: httpx.AsyncClient) -> None:
    headers = {**BASE_HEADERS, "mcp-protocol-version": "2025-11-25"}
    response = await post(endpoint, legacy("no/such/method", 3), headers)
    assert response.status_code == 200
    assert body_of(response) == error_body(-32601, "Method not found: no/such/method", 3)


async def test_legacy_requests_need_no_mcp_method_or_name(endpoint: httpx.AsyncClient) -> None:
    headers = {**BASE_HEADERS, "mcp-protocol-version": "2025-06-18"}
    body = legacy("tools/call", 5, name="get_pet_by_id", arguments={"petId": 1})
    response = await post(endpoint, body, headers)
    assert response.status_code == 200
    result = body_of(response)["result"]
    assert "resultType" not in result
    # the compact output schema is an object, so legacy peers get the pet itself
    assert result["structuredContent"]["name"] == "Rex"


async def test_a_modern_tool_call_reaches_the_upstream(
    endpoint: httpx.AsyncClient,
) -> None:
    body = modern("tools/call", 8, name="get_pet_by_id", arguments={"petId": 1})
    response = await post(endpoint, body, modern_headers("tools/call", "get_pet_by_id"))
    assert response.status_code == 200
    result = body_of(response)["result"]
    assert result["resultType"] == "complete"
    assert result["structuredContent"]["name"] == "Rex"


async def test_meta_without_client_info_is_served(endpoint: httpx.AsyncClient) -> None:
    body = modern("tools/list", 6)
    body["params"]["_meta"] = meta()
    response = await post(endpoint, body, modern_headers("tools/list"))
    assert response.status_code == 200
    assert body_of(response)["result"]["tools"]


async def test_a_repeated_version_header_is_a_mismatch_in_any_era(
    endpoint: httpx.AsyncClient,
) -> None:
    headers = [*BASE_HEADERS.items(), ("mcp-protocol-version", "2025-06-18")]
    headers.append(("mcp-protocol-version", "2025-11-25"))
    response = await endpoint.post("/mcp", content=json.dumps(legacy("ping", 1)), headers=headers)
    assert response.status_code == 400
    assert body_of(response) == error_body(
        -32020, "Header mismatch: MCP-Protocol-Version header is repeated", 1
    )
