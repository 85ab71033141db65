"""Each caller's own OAuth tokens, end to end, on two replicas that share a real Redis store.

A small CRM spec whose one operation needs an ``oauth2`` authorization-code scheme is generated into
a package; two server processes behind a round-robin proxy (one public URL, as behind a load
balancer) run it in per-user mode with the same Redis store and key. A fake authorization server
(``tests/kit/oauth_server.py``) signs people in; a recording upstream API keeps what each call
carried. The test plays the person's browser through the sign-in link: the link's page, the form,
the authorization server and the callback land on different replicas. The retry then reaches the API
with the caller's own access token, the other caller's call never does, and an expired token is
refreshed (its refresh token rotated) before the call.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.kit.oauth_server import OAuthServer
from tests.kit.upstream import RecordingUpstream, Reply
from tests.runtime.transports.kit import RoundRobinProxy, ServerProcess

SPEC = Path(__file__).parent / "specs" / "crm-oauth.yaml"
ALICE, BOB = "alice-mcp-token-0123456789", "bob-mcp-token-0123456789ab"
CLIENT_ID, CLIENT_SECRET = "crm-mcp", "crm-mcp-client-secret-S3CRET"


class Api(RecordingUpstream):
    """The CRM: answers ``/v1/me`` with whoever the bearer token belongs to at the AS."""

    def __init__(self, oauth: OAuthServer) -> None:
        super().__init__()
        self.oauth = oauth

    def answer(self, request: Any) -> Reply:
        token = (request.header("authorization") or "").removeprefix("Bearer ")
        # any access token the AS issued and has not revoked (expiry is the server's to watch)
        issued = self.oauth.tokens.get(token)
        if issued is None or issued.kind != "access" or issued.revoked:
            return Reply.json(401, {"error": "invalid_token"})
        return Reply.json(200, {"user": issued.user})

    def tokens_sent(self) -> list[str]:
        return [(r.header("authorization") or "").removeprefix("Bearer ") for r in self.requests]


class Deployment:
    def __init__(self, package: Path, oauth: OAuthServer, api: Api, redis_url: str) -> None:
        self.oauth, self.api = oauth, api
        # the public URL is the proxy's; its backends are known once the replicas run
        self.proxy = RoundRobinProxy([])
        public = f"http://127.0.0.1:{self.proxy.port}/mcp"
        oauth.register(CLIENT_ID, CLIENT_SECRET, redirect_uris=(public + "-signin/callback",))
        env = {
            "PYTHONPATH": str(package / "src"),
            "PATH": "/usr/bin:/bin",
            "PYTHONUNBUFFERED": "1",
            "CRM_BASE_URL": api.url + "/v1",
            "CRM_PUBLIC_URL": public,
            "CRM_CREDENTIALS": "per-user",
            "CRM_AUTH_TOKENS": f"{ALICE},{BOB}",
            "CRM_TOKEN_STORE": redis_url,
            "CRM_TOKEN_STORE_KEY": "a1" * 32,
            "CRM_STATE_SECRET": "replicas-share-this-state-secret",
            "CRM_CRM_CLIENT_ID": CLIENT_ID,
            "CRM_CRM_CLIENT_SECRET": CLIENT_SECRET,
            # the server's own token for the scheme: per-user mode must never send it
            "CRM_CRM_TOKEN": "server-own-token-NEVER-SENT",
        }
        self.replicas = [ServerProcess(env, module="crm_mcp") for _ in range(2)]
        self.proxy.route_to([replica.url for replica in self.replicas])
        self.url = public

    def close(self) -> None:
        self.proxy.close()
        for replica in self.replicas:
            replica.stop()


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory, redis_server: str) -> Iterator[Deployment]:
    with OAuthServer() as oauth, Api(oauth) as api:
        text = SPEC.read_text().replace("AUTHORIZATION_URL", oauth.authorization_url)
        spec = tmp_path_factory.mktemp("crm") / "openapi.yaml"
        spec.write_text(text.replace("TOKEN_URL", oauth.token_url))
        out = tmp_path_factory.mktemp("crm-package") / "crm-mcp"
        write_tree(generate(str(spec), GenerateOptions()).files, out, force=False, marker=MARKER)
        running = Deployment(out, oauth, api, redis_server)
        try:
            yield running
        finally:
            running.close()


@contextlib.asynccontextmanager
async def client(url: str, token: str, user: Any) -> AsyncIterator[Client]:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode="auto", elicitation_callback=user) as session:
            yield session


def sign_in(url: str, mcp_token: str, oauth: OAuthServer, person: str) -> httpx.Response:
    """The browser: the link, the form, the authorization server, back to the callback."""
    oauth.signed_in = person
    with httpx.Client(timeout=20, follow_redirects=False) as browser:
        page = browser.get(url)
        assert page.status_code == 200, page.text
        assert "Continue to CRM sign-in" in page.text
        token = re.search(r'name="form_token" value="([^"]+)"', page.text)
        assert token is not None
        submitted = browser.post(
            httpx.URL(url).join("submit"),
            data={"form_token": token.group(1), "mcp_token": mcp_token},
        )
        assert submitted.status_code == 303, submitted.text
        authorize = httpx.URL(submitted.headers["location"])
        assert authorize.params["code_challenge_method"] == "S256"
        assert authorize.params["scope"] == "contacts:read"
        approved = browser.get(authorize)
        assert approved.status_code == 302, approved.text
        return browser.get(approved.headers["location"])


class Person:
    def __init__(self, mcp_token: str, name: str, oauth: OAuthServer) -> None:
        self.mcp_token, self.name, self.oauth = mcp_token, name, oauth
        self.links: list[str] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestURLParams), params
        self.links.append(params.url)
        done = sign_in(params.url, self.mcp_token, self.oauth, self.name)
        assert done.status_code == 200 and "Connected" in done.text, done.text
        return types.ElicitResult(action="accept")


async def who_am_i(deployment: Deployment, token: str, person: Person) -> Any:
    async with client(deployment.url, token, person) as session:
        return await session.call_tool("get_me", {})


async def test_each_caller_reaches_the_api_with_their_own_token(deployment: Deployment) -> None:
    oauth, api = deployment.oauth, deployment.api
    alice = Person(ALICE, "alice", oauth)
    result = await who_am_i(deployment, ALICE, alice)
    assert not result.is_error, result
    assert result.structured_content == {"user": "alice"}
    assert len(alice.links) == 1
    # the page, the form and the callback were served by both replicas (one Redis store)
    assert {index for index, _ in deployment.proxy.served} == {0, 1}
    (sent,) = api.tokens_sent()
    assert oauth.user_of(sent) == "alice"
    # bob has signed in nowhere: his call is sent to sign in, never with alice's token
    bob = Person(BOB, "bob", oauth)
    answered = await who_am_i(deployment, BOB, bob)
    assert answered.structured_content == {"user": "bob"}
    assert [oauth.user_of(token) for token in api.tokens_sent()] == ["alice", "bob"]
    # the token exchange went to the token endpoint with PKCE and the client's credentials
    exchanges = [dict(r.form) for r in oauth.requests_to("/token")]
    assert [form["grant_type"] for form in exchanges] == ["authorization_code"] * 2
    assert all(form["code_verifier"] for form in exchanges)
    assert "server-own-token-NEVER-SENT" not in repr(api.requests)


async def test_an_expired_token_is_refreshed_and_rotated_before_the_call(
    deployment: Deployment,
) -> None:
    oauth, api = deployment.oauth, deployment.api
    async with httpx.AsyncClient() as http:
        revoked = await http.post(
            deployment.url + "-signin/revoke", headers={"Authorization": f"Bearer {ALICE}"}
        )
    assert revoked.json() == {"revoked": 1}
    # from now on every token the AS grants has expired by the time it is used
    oauth.expires_in = 0
    alice = Person(ALICE, "alice", oauth)
    api.requests.clear()
    before = len(_refreshes(oauth))
    first = await who_am_i(deployment, ALICE, alice)
    second = await who_am_i(deployment, ALICE, alice)
    oauth.expires_in = 3600
    assert first.structured_content == second.structured_content == {"user": "alice"}
    # one sign-in, then a refresh before each call, each with the refresh token the last one gave
    assert len(alice.links) == 1
    refreshes = _refreshes(oauth)[before:]
    assert len(refreshes) == 2
    assert refreshes[0]["refresh_token"] != refreshes[1]["refresh_token"]
    issued = [t for t, i in oauth.tokens.items() if i.kind == "refresh" and i.user == "alice"]
    assert refreshes[1]["refresh_token"] in issued
    first_sent, second_sent = api.tokens_sent()
    assert first_sent != second_sent
    assert {oauth.tokens[first_sent].user, oauth.tokens[second_sent].user} == {"alice"}


def _refreshes(oauth: OAuthServer) -> list[dict[str, str]]:
    forms = [dict(r.form) for r in oauth.requests_to("/token")]
    return [form for form in forms if form["grant_type"] == "refresh_token"]
