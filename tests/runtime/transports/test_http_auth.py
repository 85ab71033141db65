"""Inbound authentication wired into the HTTP transport (the details of ``auth``: tests/runtime/auth).

Configured from the environment: challenges on 401 name the Protected Resource Metadata, which is
served at both well-known locations; a static token opens the endpoint; Origin is checked first.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.runtime.transports.conftest import AppFactory, body_of
from tests.runtime.transports.kit import TIMEOUT, ServerProcess, modern, modern_headers, server_env

TOKEN = "static-token-0123456789abcdef"
OAUTH = {
    "PETSTORE_AUTH_JWKS_URL": "https://auth.example.com/jwks.json",
    "PETSTORE_AUTH_ISSUER": "https://auth.example.com",
    "PETSTORE_AUTH_TOKENS": TOKEN,
}
PRM = "/.well-known/oauth-protected-resource"
LIST = modern("tools/list", 1)
LIST_HEADERS = modern_headers("tools/list")


@pytest.fixture
async def protected(make_app: AppFactory) -> AsyncIterator[httpx.AsyncClient]:
    app = make_app(**OAUTH, PETSTORE_PUBLIC_URL="https://mcp.example.com/mcp")
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        yield client


async def test_a_request_without_a_token_is_401_naming_the_metadata(
    protected: httpx.AsyncClient,
) -> None:
    response = await protected.post("/mcp", content=json.dumps(LIST), headers=LIST_HEADERS)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == (
        'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"'
    )
    assert body_of(response) == {
        "jsonrpc": "2.0",
        "error": {"code": -32600, "message": "this server requires a bearer token"},
    }


@pytest.mark.parametrize("path", [f"{PRM}/mcp", PRM])
async def test_protected_resource_metadata_is_served_at_both_locations(
    protected: httpx.AsyncClient, path: str
) -> None:
    response = await protected.get(path)
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"
    assert body_of(response) == {
        "resource": "https://mcp.example.com/mcp",
        "authorization_servers": ["https://auth.example.com"],
        "bearer_methods_supported": ["header"],
    }


async def test_a_valid_token_opens_the_endpoint_and_origin_is_checked_first(
    protected: httpx.AsyncClient,
) -> None:
    authorized = {**LIST_HEADERS, "authorization": f"Bearer {TOKEN}"}
    response = await protected.post("/mcp", content=json.dumps(LIST), headers=authorized)
    assert response.status_code == 200 and body_of(response)["result"]["tools"]
    foreign = {**authorized, "origin": "https://evil.example.com"}
    assert (
        await protected.post("/mcp", content=json.dumps(LIST), headers=foreign)
    ).status_code == 403
    query = await protected.post(
        f"/mcp?access_token={TOKEN}", content=json.dumps(LIST), headers=authorized
    )
    assert query.status_code == 400
    assert 'error="invalid_request"' in query.headers["www-authenticate"]


async def test_without_auth_settings_there_is_no_metadata(make_app: AppFactory) -> None:
    transport = httpx.ASGITransport(app=make_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        assert (await client.get(PRM + "/mcp")).status_code == 404
        response = await client.post("/mcp", content=json.dumps(LIST), headers=LIST_HEADERS)
        assert response.status_code == 200


@pytest.fixture
def protected_server(petstore_package: Path, fake_petstore: Any) -> Iterator[ServerProcess]:
    env = server_env(petstore_package, fake_petstore.base_url, fake_petstore.api_key, **OAUTH)
    server = ServerProcess(env)
    yield server
    server.stop()


async def test_the_served_endpoint_is_the_default_resource(protected_server: ServerProcess) -> None:
    origin = protected_server.url.removesuffix("/mcp")
    async with httpx.AsyncClient(base_url=origin, timeout=TIMEOUT) as client:
        refused = await client.post("/mcp", content=json.dumps(LIST), headers=LIST_HEADERS)
        assert refused.status_code == 401
        challenge = refused.headers["www-authenticate"]
        match = re.fullmatch(r'Bearer resource_metadata="([^"]+)"', challenge)
        assert match and match[1] == f"{origin}{PRM}/mcp"
        metadata = (await client.get(f"{PRM}/mcp")).json()
        assert metadata["resource"] == protected_server.url
        authorized = {**LIST_HEADERS, "authorization": f"Bearer {TOKEN}"}
        served = await client.post("/mcp", content=json.dumps(LIST), headers=authorized)
        assert served.status_code == 200
