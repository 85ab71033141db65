"""Token exchange end to end (RFC 8693): each caller's MCP access token traded for one of the API's.

A small CRM spec (an ``oauth2`` scheme, an API-key-only operation, one that an API key or nothing
serves) is generated into a package and run over HTTP in exchange mode, once per era of the official
MCP client. The fake authorization server (``tests/kit/oauth_server.py``) is the identity provider of
both: it signs the callers' RS256 JWT access tokens for the MCP server (whose inbound OAuth checks
them against its JWKS) and exchanges them at ``/token`` for tokens of the CRM's audience. A
recording CRM answers with whoever its token belongs to. Two callers call twice each: the API
receives tokens exchanged for each of them (never an inbound JWT, never the server's own token), one
exchange per caller; a refusal by the identity provider is an error result holding neither token.
"""

from __future__ import annotations

import base64
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.kit.oauth_server import ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE, OAuthServer
from tests.kit.upstream import RecordingUpstream, Reply, Request
from tests.runtime.transports.kit import ServerProcess

SPEC = Path(__file__).parent / "specs" / "crm-exchange.yaml"
ERAS = ["auto", "legacy"]
MCP_AUDIENCE = "https://crm-mcp.example.com/mcp"
API_AUDIENCE = "crm-api"
CLIENT_ID, CLIENT_SECRET = "crm-mcp", "crm-mcp-exchange-S3CRET"
SERVER_TOKEN, SERVER_KEY = "server-own-token-NEVER-SENT", "server-own-key-NEVER-SENT"


class Api(RecordingUpstream):
    """The CRM: ``/v1/me`` names whose token came and for which audience it was issued."""

    def __init__(self, oauth: OAuthServer) -> None:
        super().__init__()
        self.oauth = oauth

    def answer(self, request: Request) -> Reply:
        if request.path == "/v1/status":
            return Reply.json(200, {"status": "ok"})
        token = (request.header("authorization") or "").removeprefix("Bearer ")
        issued = self.oauth.tokens.get(token)
        if issued is None or issued.kind != "access" or issued.audience != API_AUDIENCE:
            return Reply.json(401, {"error": "invalid_token"})
        return Reply.json(200, {"user": issued.user, "audience": issued.audience})

    def tokens_sent(self, path: str = "/v1/me") -> list[str]:
        return [
            (r.header("authorization") or "").removeprefix("Bearer ")
            for r in self.requests
            if r.path == path
        ]


class Deployment:
    def __init__(self, package: Path, oauth: OAuthServer, api: Api, era: str) -> None:
        self.oauth, self.api, self.era = oauth, api, era
        oauth.register(CLIENT_ID, CLIENT_SECRET)
        env = {
            "PYTHONPATH": str(package / "src"),
            "PATH": "/usr/bin:/bin",
            "PYTHONUNBUFFERED": "1",
            "CRM_BASE_URL": api.url + "/v1",
            "CRM_CREDENTIALS": "exchange",
            "CRM_AUTH_JWKS_URL": oauth.jwks_url,
            "CRM_AUTH_ISSUER": oauth.url,
            "CRM_AUTH_AUDIENCE": MCP_AUDIENCE,
            "CRM_EXCHANGE_TOKEN_URL": oauth.token_url,
            "CRM_EXCHANGE_AUDIENCE": API_AUDIENCE,
            "CRM_EXCHANGE_CLIENT_ID": CLIENT_ID,
            "CRM_EXCHANGE_CLIENT_SECRET": CLIENT_SECRET,
            # the server's own credentials: exchange mode must never send them
            "CRM_CRM_TOKEN": SERVER_TOKEN,
            "CRM_LEGACY_KEY": SERVER_KEY,
        }
        self.server = ServerProcess(env, module="crm_mcp")
        self.url = self.server.url

    def exchanges(self) -> list[dict[str, str]]:
        forms = [dict(seen.form) for seen in self.oauth.requests_to("/token")]
        return [form for form in forms if form.get("grant_type") == TOKEN_EXCHANGE]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("crm-exchange") / "crm-mcp"
    write_tree(generate(str(SPEC), GenerateOptions()).files, out, force=False, marker=MARKER)
    return out


@pytest.fixture(scope="module", params=ERAS)
def deployment(request: pytest.FixtureRequest, package: Path) -> Iterator[Deployment]:
    with OAuthServer() as oauth, Api(oauth) as api:
        running = Deployment(package, oauth, api, request.param)
        try:
            yield running
        finally:
            running.server.stop()


@contextlib.asynccontextmanager
async def client(deployment: Deployment, token: str) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        transport = streamable_http_client(deployment.url, http_client=http)
        async with Client(transport, mode=deployment.era) as session:
            yield session


def text_of(result: Any) -> str:
    return "".join(getattr(item, "text", "") for item in result.content)


def everything_sent(deployment: Deployment) -> str:
    """Every request the API received, as text."""
    return "\n".join(request.wire() for request in deployment.api.requests)


async def test_each_caller_reaches_the_api_with_a_token_exchanged_for_their_own(
    deployment: Deployment,
) -> None:
    oauth, api = deployment.oauth, deployment.api
    alice = oauth.issue_jwt("alice", MCP_AUDIENCE, scopes=("crm",))
    bob = oauth.issue_jwt("bob", MCP_AUDIENCE, scopes=("crm",))
    for token, user in [(alice, "alice"), (bob, "bob")]:
        async with client(deployment, token) as session:
            for _ in range(2):
                result = await session.call_tool("get_me", {})
                assert not result.is_error, text_of(result)
                assert result.structured_content == {"user": user, "audience": API_AUDIENCE}
    sent = api.tokens_sent()
    assert [oauth.tokens[token].user for token in sent] == ["alice", "alice", "bob", "bob"]
    # the second call of each caller reused their exchanged token: one exchange per caller
    assert sent[0] == sent[1] and sent[2] == sent[3] and sent[0] != sent[2]
    assert all(token.startswith("xt-") for token in sent)
    exchanges = deployment.exchanges()
    assert [form["subject_token"] for form in exchanges] == [alice, bob]
    for form in exchanges:
        assert form["subject_token_type"] == form["requested_token_type"] == ACCESS_TOKEN_TYPE
        assert (form["audience"], form["scope"]) == (API_AUDIENCE, "contacts:read")
        assert "client_secret" not in form
    pair = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
    seen = oauth.requests_to("/token")
    assert {s.header("authorization") for s in seen} == {f"Basic {pair}"}
    # never forwarded: no inbound token, nor any part of one, nor the server's own credentials
    wire = everything_sent(deployment)
    for secret in (alice, bob, *alice.split("."), *bob.split("."), SERVER_TOKEN, SERVER_KEY):
        assert secret not in wire


async def test_an_api_key_operation_is_refused_and_an_anonymous_one_sent_bare(
    deployment: Deployment,
) -> None:
    carol = deployment.oauth.issue_jwt("carol", MCP_AUDIENCE)
    before = len(deployment.api.requests)
    async with client(deployment, carol) as session:
        refused = await session.call_tool("export_contacts", {})
        status = await session.call_tool("get_status", {})
    assert refused.is_error
    assert text_of(refused) == (
        "This operation needs the legacyKey scheme (apiKey), which this server cannot fill: it "
        "calls CRM with tokens exchanged for each caller's, and exchange mode issues bearer "
        "tokens only; nothing was sent to the API."
    )
    assert not status.is_error and status.structured_content == {"status": "ok"}
    (request,) = deployment.api.requests[before:]
    assert request.path == "/v1/status"
    assert request.header("authorization") is None and request.header("x-legacy-key") is None
    assert [form["subject_token"] for form in deployment.exchanges()].count(carol) == 0


async def test_a_refusal_is_an_error_result_holding_neither_token(deployment: Deployment) -> None:
    oauth = deployment.oauth
    dave = oauth.issue_jwt("dave", MCP_AUDIENCE)
    oauth.exchange_audiences = {"billing-api"}
    # a careless identity provider that repeats the request (and the client's Basic header)
    oauth.quote_requests_in_errors = True
    before = len(deployment.api.requests)
    try:
        async with client(deployment, dave) as session:
            result = await session.call_tool("get_me", {})
    finally:
        oauth.exchange_audiences, oauth.quote_requests_in_errors = None, False
    message = text_of(result)
    assert result.is_error
    assert message.startswith(
        f"Could not exchange your access token for a CRM token at the token endpoint "
        f"{oauth.token_url}: HTTP 400 invalid_target (the audience {API_AUDIENCE} is not allowed"
    )
    assert message.endswith("; nothing was sent to the API")
    issued = [t for t, i in oauth.tokens.items() if t.startswith("xt-")]
    for secret in (dave, *dave.split("."), CLIENT_SECRET, *issued):
        assert secret not in message
    assert deployment.api.requests[before:] == []
    # and none of it in the server's log either
    log = deployment.server.log_until("token exchange failed")
    for secret in (dave, *dave.split("."), CLIENT_SECRET, *issued):
        assert secret not in log
