"""A parameter where the operation's API key goes is the credential's, not the model's.

Trello declares ``key`` and ``token`` as required query parameters of every operation *and* as the
``apiKey`` schemes ``api_key`` and ``api_token``, listed as alternatives. As tool arguments they
were sent beside the credential (``?key=<argument>&token=<argument>&key=<secret>``, which Prism
refuses: "key must be string") and the model was asked for a secret. Now the tool takes neither,
both credentials go (the required parameters make both schemes necessary), each once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import call_tools

QUERY = [
    {"name": "key", "in": "query", "required": True, "schema": {"type": "string"}},
    {"name": "token", "in": "query", "required": True, "schema": {"type": "string"}},
    {"name": "fields", "in": "query", "schema": {"type": "string"}},
]
SPEC: dict[str, Any] = {
    "openapi": "3.0.0",
    "info": {"title": "Boards", "version": "1.0.0"},
    "servers": [{"url": "https://boards.example.com/1"}],
    "paths": {
        "/boards/{id}": {
            "get": {
                "operationId": "getBoard",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    *QUERY,
                ],
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        }
    },
    "components": {
        "securitySchemes": {
            "api_key": {"type": "apiKey", "in": "query", "name": "key"},
            "api_token": {"type": "apiKey", "in": "query", "name": "token"},
        }
    },
    "security": [{"api_key": []}, {"api_token": []}],
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("boards"), SPEC, "boards-mcp")


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        fake.script["/boards/b1"] = fs.content(b'{"id": "b1"}', "application/json")
        yield fake


def test_the_key_parameters_are_no_arguments(package: Path) -> None:
    (tool,) = read_catalog(package)["tools"]
    # _select: the server's own selection argument of read tools
    assert sorted(tool["inputSchema"]["properties"]) == ["_select", "fields", "id"]


async def test_each_credential_goes_once_where_its_parameter_was(
    package: Path, upstream: fs.FaultServer
) -> None:
    environ = {
        "BOARDS_BASE_URL": upstream.url,
        "BOARDS_API_KEY": "k-123",
        "BOARDS_API_TOKEN_KEY": "t-456",
    }
    arguments = {"id": "b1", "fields": "name"}
    (reply,) = await call_tools(read_catalog(package), environ, ("get_board", arguments))
    assert reply["result"].get("isError", False) is False, reply
    (request,) = upstream.requests
    assert request.target == "/boards/b1?fields=name&key=k-123&token=t-456"


# LNbits (FastAPI): APIKeyHeader(name="X-API-KEY") is a scheme, and the parameter of a route that
# says nothing of security and reads the header itself; a bearer token serves most other routes
LNBITS: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Wallets", "version": "1.0.0"},
    "servers": [{"url": "https://wallets.example.com"}],
    "paths": {
        "/api/v1/payments/{payment_hash}": {
            "get": {
                "operationId": "api_payment",
                "parameters": [
                    {"name": "payment_hash", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "x-api-key", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
        "/api/v1/auth": {
            "get": {
                "operationId": "get_auth_user",
                "security": [{"HTTPBearer": []}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
        "/api/v1/wallet": {
            "get": {
                "operationId": "api_wallet",
                "security": [{"HTTPBearer": []}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
    },
    "components": {
        "securitySchemes": {
            "APIKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-KEY"},
            "HTTPBearer": {"type": "http", "scheme": "bearer"},
        }
    },
}  # fmt: skip


async def test_a_key_an_operation_reads_as_its_parameter_goes_once_in_place_of_the_token(
    tmp_path: Path,
) -> None:
    package = generate_package(tmp_path, LNBITS, "wallets-mcp")
    catalog = read_catalog(package)
    tools = {tool["name"]: tool for tool in catalog["tools"]}
    assert sorted(tools["api_payment"]["inputSchema"]["properties"]) == ["_select", "payment_hash"]
    with fs.FaultServer() as upstream:
        upstream.script["/api/v1/payments/ab12"] = fs.content(b'{"paid": true}', "application/json")
        environ = {
            "WALLETS_BASE_URL": upstream.url,
            "WALLETS_API_KEY_HEADER_KEY": "k-123",
            "WALLETS_HTTP_BEARER_TOKEN": "jwt-456",
        }
        (reply,) = await call_tools(catalog, environ, ("api_payment", {"payment_hash": "ab12"}))
        assert reply["result"].get("isError", False) is False, reply
        (request,) = upstream.requests
        # once (a header sent twice reads "k-123, <the model's>"), and no token in its place
        assert request.headers["x-api-key"] == "k-123"
        assert "authorization" not in request.headers
    # without the key set, it goes without credentials, as the operation says it may
    with fs.FaultServer() as upstream:
        upstream.script["/api/v1/payments/ab12"] = fs.content(b'{"paid": true}', "application/json")
        del environ["WALLETS_API_KEY_HEADER_KEY"]
        environ["WALLETS_BASE_URL"] = upstream.url
        (reply,) = await call_tools(catalog, environ, ("api_payment", {"payment_hash": "ab12"}))
        assert reply["result"].get("isError", False) is False, reply
        (request,) = upstream.requests
        assert "x-api-key" not in request.headers and "authorization" not in request.headers
