"""OAuth2 client credentials for the upstream: the token request, caching, refresh, failures, secrecy.

A spec whose ``oauth2`` scheme has a ``clientCredentials`` flow is generated; its catalog drives a
server in process (and, once, the generated package over stdio) against a recording upstream on
127.0.0.1 that is both the API and the token endpoint. Every test asserts what went over the wire.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from templates.runtime.upstream import oauth as upstream_oauth
from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import META, call_tool, call_tools, server, texts

CLIENT_ID = "robot@example"
SECRET = "s3cret-Client:Value"
TOKEN_PATH = "/oauth/token"
TOK1, TOK2 = "vault-token-1", "vault-token-2"
SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Vault", "version": "1.0.0"},
    "servers": [{"url": "https://vault.example.com/api"}],
    "components": {
        "securitySchemes": {
            "oauth": {
                "type": "oauth2",
                "flows": {
                    "clientCredentials": {
                        "tokenUrl": TOKEN_PATH,
                        "scopes": {"secrets:read": "read", "secrets:write": "write"},
                    }
                },
            }
        }
    },
    "security": [{"oauth": ["secrets:read"]}],
    "paths": {
        "/secrets/{name}": {
            "parameters": [
                {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "get": {
                "operationId": "readSecret",
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            },
            "put": {
                "operationId": "writeSecret",
                "security": [{"oauth": ["secrets:write", "secrets:read"]}],
                "requestBody": {
                    "required": True,
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                },
                "responses": {"204": {"description": "stored"}},
            },
        }
    },
}


def _token(n: int) -> str:
    return f"vault-token-{n}"


def _issue(lifetime: int | None = 3600) -> fs.Behaviour:
    """A token endpoint: ``_token(n)`` for its n-th request."""

    def run(x: fs.Exchange) -> None:
        answer: dict[str, Any] = {"access_token": _token(x.count), "token_type": "Bearer"}
        if lifetime is not None:
            answer["expires_in"] = lifetime
        x.json(200, answer, {"Set-Cookie": "session=from-the-token-endpoint; Path=/"})

    return run


def _accept(*tokens: str) -> fs.Behaviour:
    """The API: 200 for the given bearer tokens, 401 for anything else."""

    def run(x: fs.Exchange) -> None:
        sent = x.request.headers.get("authorization", "")
        if sent.removeprefix("Bearer ") in tokens:
            x.json(200, {"name": "db", "value": "hunter2"})
        else:
            x.json(401, {"error": "invalid_token"})

    return run


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("oauth"), SPEC, "vault-mcp")


@pytest.fixture(scope="module")
def catalog(package: Path) -> dict[str, Any]:
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        fake.script[TOKEN_PATH] = _issue()
        fake.script["/api/secrets/db"] = _accept(TOK1)
        yield fake


def _env(fake: fs.FaultServer, **extra: str) -> dict[str, str]:
    return {
        "VAULT_BASE_URL": fake.url + "/api",
        "VAULT_OAUTH_CLIENT_ID": CLIENT_ID,
        "VAULT_OAUTH_CLIENT_SECRET": SECRET,
        "VAULT_RETRIES": "0",
        **extra,
    }


def _basic() -> str:
    # RFC 6749 §2.3.1: form-encoded, then joined ("@" and ":" encoded)
    return "Basic " + base64.b64encode(b"robot%40example:s3cret-Client%3AValue").decode()


def test_the_catalog_and_readme_describe_the_flow(package: Path, catalog: dict[str, Any]) -> None:
    assert catalog["upstream"]["securitySchemes"]["oauth"] == {
        "type": "oauth2ClientCredentials",
        "tokenUrl": TOKEN_PATH,
        "clientIdEnv": "VAULT_OAUTH_CLIENT_ID",
        "clientSecretEnv": "VAULT_OAUTH_CLIENT_SECRET",
        "env": "VAULT_OAUTH_TOKEN",
    }
    assert catalog["operations"]["writeSecret"]["scopes"] == {
        "oauth": ["secrets:write", "secrets:read"]
    }
    readme = (package / "README.md").read_text()
    for name in ("VAULT_OAUTH_CLIENT_ID", "VAULT_OAUTH_CLIENT_SECRET", "VAULT_OAUTH_TOKEN"):
        assert f"| `{name}` |" in readme


async def test_token_request_and_bearer_on_the_wire(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    replies = await call_tools(
        catalog, _env(upstream), ("read_secret", {"name": "db"}), ("read_secret", {"name": "db"})
    )
    assert [r["result"].get("isError", False) for r in replies] == [False, False]
    token_request, first, second = upstream.requests
    assert (token_request.method, token_request.target) == ("POST", TOKEN_PATH)
    assert token_request.body == b"grant_type=client_credentials&scope=secrets%3Aread"
    assert token_request.headers["authorization"] == _basic()
    assert token_request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert token_request.headers["accept"] == "application/json"
    # the token is cached: the second call sends it again without asking for another
    for api_request in (first, second):
        assert (api_request.method, api_request.target) == ("GET", "/api/secrets/db")
        assert api_request.headers["authorization"] == f"Bearer {TOK1}"


async def test_each_scope_set_gets_its_own_token(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    upstream.script["/api/secrets/db"] = _accept(TOK1, TOK2)
    await call_tools(
        catalog,
        _env(upstream),
        ("read_secret", {"name": "db"}),
        ("write_secret", {"name": "db", "body": "v"}),
        ("write_secret", {"name": "db", "body": "w"}),
    )
    bodies = [r.body for r in upstream.requests if r.path == TOKEN_PATH]
    assert bodies == [
        b"grant_type=client_credentials&scope=secrets%3Aread",
        b"grant_type=client_credentials&scope=secrets%3Aread+secrets%3Awrite",
    ]
    api = [
        (r.method, r.headers["authorization"]) for r in upstream.requests if r.path != TOKEN_PATH
    ]
    assert api == [("GET", f"Bearer {TOK1}"), ("PUT", f"Bearer {TOK2}"), ("PUT", f"Bearer {TOK2}")]


async def test_a_pre_issued_token_wins(catalog: dict[str, Any], upstream: fs.FaultServer) -> None:
    upstream.script["/api/secrets/db"] = _accept("issued-by-hand-1234")
    env = _env(upstream, VAULT_OAUTH_TOKEN="issued-by-hand-1234")
    (reply,) = await call_tools(catalog, env, ("read_secret", {"name": "db"}))
    assert reply["result"].get("isError", False) is False
    assert upstream.hits(TOKEN_PATH) == 0
    assert upstream.requests[0].headers["authorization"] == "Bearer issued-by-hand-1234"


async def test_the_token_is_renewed_shortly_before_it_expires(
    catalog: dict[str, Any], upstream: fs.FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(upstream_oauth, "clock", lambda: now[0])
    upstream.script["/api/secrets/db"] = _accept(TOK1, TOK2)
    srv = server(catalog, _env(upstream))  # type: ignore[arg-type]
    try:
        await call_tool(srv, "read_secret", {"name": "db"}, 1)
        now[0] += 3560  # 3600 s lifetime: still more than the 30 s margin left
        await call_tool(srv, "read_secret", {"name": "db"}, 2)
        assert upstream.hits(TOKEN_PATH) == 1
        now[0] += 15  # 25 s left: renewed before the API could reject it
        await call_tool(srv, "read_secret", {"name": "db"}, 3)
    finally:
        await srv.aclose()
    assert upstream.hits(TOKEN_PATH) == 2
    sent = [r.headers["authorization"] for r in upstream.requests if r.path != TOKEN_PATH]
    assert sent == [f"Bearer {TOK1}", f"Bearer {TOK1}", f"Bearer {TOK2}"]


async def test_a_401_fetches_a_new_token_once(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    upstream.script["/api/secrets/db"] = _accept(TOK2)  # the first token was revoked
    (reply,) = await call_tools(catalog, _env(upstream), ("read_secret", {"name": "db"}))
    assert json.loads(texts(reply)) == {"name": "db", "value": "hunter2"}
    assert [(r.path, r.headers.get("authorization")) for r in upstream.requests] == [
        (TOKEN_PATH, _basic()),
        ("/api/secrets/db", f"Bearer {TOK1}"),
        (TOKEN_PATH, _basic()),
        ("/api/secrets/db", f"Bearer {TOK2}"),
    ]
    # the token endpoint's cookie went nowhere, not even back to the token endpoint
    assert all("cookie" not in r.headers for r in upstream.requests)


@pytest.mark.parametrize(
    ("answer", "tokens_asked"),
    [
        # Airflow's answer to a token revoked at sign-out or signed with a rotated key
        ({"detail": "Invalid JWT token"}, 2),
        # a permission the token lacks: no fresh token would have it
        ({"detail": "Forbidden: the viewer role may not read secrets"}, 1),
    ],
)
async def test_a_403_naming_the_token_fetches_a_new_one_once(
    catalog: dict[str, Any], upstream: fs.FaultServer, answer: dict[str, str], tokens_asked: int
) -> None:
    def forbid_the_first(x: fs.Exchange) -> None:
        if x.request.headers.get("authorization") == f"Bearer {TOK2}":
            x.json(200, {"name": "db", "value": "hunter2"})
        else:
            x.json(403, answer)

    upstream.script["/api/secrets/db"] = forbid_the_first
    (reply,) = await call_tools(catalog, _env(upstream), ("read_secret", {"name": "db"}))
    assert [r.path for r in upstream.requests] == [TOKEN_PATH, "/api/secrets/db"] * tokens_asked
    if tokens_asked == 2:
        assert json.loads(texts(reply)) == {"name": "db", "value": "hunter2"}
    else:
        assert reply["result"]["isError"] is True
        assert "403" in texts(reply)


async def test_a_second_401_is_the_answer(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    upstream.script["/api/secrets/db"] = _accept()
    (reply,) = await call_tools(catalog, _env(upstream), ("read_secret", {"name": "db"}))
    assert reply["result"]["isError"] is True
    assert "401" in texts(reply)
    assert [r.path for r in upstream.requests] == [TOKEN_PATH, "/api/secrets/db"] * 2


async def test_concurrent_calls_share_one_token_request(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    slow_issue = _issue()

    def issue_slowly(x: fs.Exchange) -> None:
        x.stop.wait(0.3)  # every call is waiting for the token by now
        slow_issue(x)

    upstream.script[TOKEN_PATH] = issue_slowly
    srv = server(catalog, _env(upstream))  # type: ignore[arg-type]
    try:
        replies = await asyncio.gather(
            *(call_tool(srv, "read_secret", {"name": "db"}, i) for i in range(20))
        )
    finally:
        await srv.aclose()
    assert all(r["result"].get("isError", False) is False for r in replies)
    assert upstream.hits(TOKEN_PATH) == 1
    api = [r.headers["authorization"] for r in upstream.requests if r.path != TOKEN_PATH]
    assert api == [f"Bearer {TOK1}"] * 20


async def test_a_failing_token_endpoint_is_a_tool_error(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    def refuse(x: fs.Exchange) -> None:
        x.json(401, {"error": "invalid_client", "error_description": f"bad secret {SECRET}"})

    upstream.script[TOKEN_PATH] = refuse
    replies = await call_tools(
        catalog, _env(upstream), ("read_secret", {"name": "db"}), ("read_secret", {"name": "db"})
    )
    assert replies[0]["result"]["isError"] is True
    assert texts(replies[0]) == (
        "could not get an access token for 'oauth' from the token endpoint "
        f"{upstream.url}{TOKEN_PATH}: HTTP 401 invalid_client (bad secret ***); check "
        "VAULT_OAUTH_CLIENT_ID and VAULT_OAUTH_CLIENT_SECRET"
    )
    # failures are not cached: the next call asks again; the API itself is never called
    assert [r.path for r in upstream.requests] == [TOKEN_PATH, TOKEN_PATH]


async def test_an_unreachable_token_endpoint_is_a_tool_error(catalog: dict[str, Any]) -> None:
    spec = json.loads(json.dumps(catalog))
    spec["upstream"]["securitySchemes"]["oauth"]["tokenUrl"] = "http://127.0.0.1:1/token"
    with fs.FaultServer() as fake:
        (reply,) = await call_tools(spec, _env(fake), ("read_secret", {"name": "db"}))
        assert fake.requests == []
    assert texts(reply) == (
        "could not get an access token for 'oauth' from the token endpoint "
        "http://127.0.0.1:1/token: connection refused"
    )


async def test_a_token_answer_without_a_token_is_a_tool_error(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    upstream.script[TOKEN_PATH] = fs.content(b"<html>login</html>", "text/html")
    (reply,) = await call_tools(catalog, _env(upstream), ("read_secret", {"name": "db"}))
    assert texts(reply).endswith(
        f"{TOKEN_PATH}: the answer is not a JSON object with a bearer access_token"
    )


async def test_missing_credentials_send_the_call_without_them_and_a_401_names_every_way(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    upstream.script["/api/secrets/db"] = fs.status(401)
    env = {"VAULT_BASE_URL": upstream.url + "/api", "VAULT_OAUTH_CLIENT_ID": CLIENT_ID}
    (reply,) = await call_tools(catalog, env, ("read_secret", {"name": "db"}))
    assert texts(reply) == (
        'Upstream returned 401 Unauthorized: {"error":"status 401"}\n'
        # the client id is set: what is still to set
        "It was sent without credentials; to send them, set the environment variable "
        "VAULT_OAUTH_CLIENT_SECRET (or an access token in VAULT_OAUTH_TOKEN)."
    )
    [request] = upstream.requests  # no token request, and the call itself went out without one
    assert (request.target, request.headers.get("authorization")) == ("/api/secrets/db", None)


async def test_secret_and_tokens_stay_out_of_results_and_logs(
    catalog: dict[str, Any], upstream: fs.FaultServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    upstream.script["/api/secrets/db"] = fs.echo_headers(401)  # echoes the bearer token
    replies = await call_tools(catalog, _env(upstream), ("read_secret", {"name": "db"}))
    assert upstream.requests[1].headers["authorization"] == f"Bearer {TOK1}"
    everything = json.dumps(replies) + "\n".join(r.getMessage() for r in caplog.records)
    basic = _basic().removeprefix("Basic ")
    for secret in (SECRET, TOK1, TOK2, basic):
        assert secret not in everything
    assert "Bearer ***" in everything


def test_the_generated_package_fetches_its_token_over_stdio(
    package: Path, upstream: fs.FaultServer, tmp_path: Path
) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"_meta": META, "name": "read_secret", "arguments": {"name": "db"}},
    }
    env = {
        "PYTHONPATH": str(package / "src"),
        "PATH": os.environ.get("PATH", ""),
        "MCP_LOG_LEVEL": "DEBUG",
        **_env(upstream),
    }
    done = subprocess.run(
        [sys.executable, "-m", "vault_mcp"],
        input=json.dumps(call).encode() + b"\n",
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    reply = json.loads(done.stdout)
    assert json.loads(texts(reply)) == {"name": "db", "value": "hunter2"}
    assert [(r.method, r.target) for r in upstream.requests] == [
        ("POST", TOKEN_PATH),
        ("GET", "/api/secrets/db"),
    ]
    output = done.stdout.decode() + done.stderr.decode()
    assert SECRET not in output and TOK1 not in output
