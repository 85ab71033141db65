"""The upstream authorization-code flow with PKCE (``peruser.oauth_code``) against a real authorization
server on 127.0.0.1 (``tests.kit.oauth_server``): the exact authorization URL, the browser's 302 back
to the redirect URI, the exact token requests on the wire (Basic, form or public-client
authentication), refresh-token rotation and reuse detection, the exact refusals, and that no message
ever holds a client secret, a code, a verifier or a token.
"""

from __future__ import annotations

import base64
import socket
from collections.abc import AsyncIterator, Iterator
from typing import cast
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx
import pytest

from templates.runtime.errors import ApiCallError
from templates.runtime.peruser.oauth_code import (
    ClientAuth,
    CodeFlow,
    OAuthCodeError,
    authorize_url,
    challenge,
    exchange,
    new_verifier,
    refresh,
    token_client,
)
from templates.runtime.peruser.sealing import Credential
from tests.kit.oauth_server import OAuthServer, Seen

from .conftest import START, FakeClock

REDIRECT = "http://127.0.0.1:8765/oauth/callback"  # never contacted: the test reads the Location
SECRET = "app-secret-f00d"
UA = "petstore-mcp/1.0 (test)"
# RFC 7636 Appendix B
RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
NOW = 1_000_000.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def server(clock: FakeClock) -> Iterator[OAuthServer]:
    with OAuthServer(clock=clock) as server:
        server.register("app", SECRET, [REDIRECT])
        yield server


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with token_client(user_agent=UA) as client:
        yield client


def flow_for(
    server: OAuthServer,
    client_id: str = "app",
    secret: str | None = SECRET,
    client_auth: ClientAuth = "client_secret_basic",
) -> CodeFlow:
    return CodeFlow(
        server.authorization_url, server.token_url, client_id, secret, REDIRECT, client_auth
    )


async def sign_in(
    http: httpx.AsyncClient, flow: CodeFlow, scopes: tuple[str, ...] = ("read", "write")
) -> tuple[str, str]:
    """The browser's trip: the authorization URL, then the 302 to the redirect URI (not followed)."""
    verifier = new_verifier()
    state = "state-" + new_verifier()[:8]
    response = await http.get(authorize_url(flow, state=state, verifier=verifier, scopes=scopes))
    assert response.status_code == 302, response.text
    location = urlsplit(response.headers["location"])
    assert location._replace(query="").geturl() == REDIRECT
    query = parse_qsl(location.query)
    assert [name for name, _ in query] == ["code", "state"]
    assert dict(query)["state"] == state
    return dict(query)["code"], verifier


def wire(request: Seen) -> list[tuple[str, str]]:
    """The request's headers as sent, but for the two that depend on the port and on the installed decoders."""
    return [(k, v) for k, v in request.headers if k not in {"host", "accept-encoding"}]


def basic(client_id: str, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()


def assert_no_leak(message: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in message
    for prefix in ("at-", "rt-", "code-"):
        assert prefix not in message


# -- the authorization URL and PKCE --------------------------------------------------------------


def test_the_authorization_url_is_exact_and_keeps_the_endpoints_query() -> None:
    flow = CodeFlow(
        "https://login.example.com/oauth2/authorize?tenant=t%2F1&prompt=consent",
        "https://login.example.com/oauth2/token",
        "app id",
        SECRET,
        "https://mcp.example.com/oauth/callback?x=1",
    )
    url = authorize_url(
        flow, state="s-1", verifier=RFC_VERIFIER, scopes=["pets:read", "pets:write"]
    )
    assert url == (
        "https://login.example.com/oauth2/authorize?tenant=t%2F1&prompt=consent"
        "&response_type=code&client_id=app%20id"
        "&redirect_uri=https%3A%2F%2Fmcp.example.com%2Foauth%2Fcallback%3Fx%3D1"
        "&scope=pets%3Aread%20pets%3Awrite&state=s-1"
        f"&code_challenge={RFC_CHALLENGE}&code_challenge_method=S256"
    )
    bare = CodeFlow(
        "https://as.example/authorize", "https://as.example/token", "app", None, REDIRECT
    )
    assert authorize_url(bare, state="s", verifier=RFC_VERIFIER, scopes=()) == (
        "https://as.example/authorize?response_type=code&client_id=app"
        "&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Foauth%2Fcallback&state=s"
        f"&code_challenge={RFC_CHALLENGE}&code_challenge_method=S256"
    )


def test_verifiers_are_fresh_43_character_base64url_strings_and_challenges_are_s256() -> None:
    verifiers = {new_verifier() for _ in range(20)}
    assert len(verifiers) == 20
    for verifier in verifiers:
        assert len(verifier) == 43
        assert set(verifier) <= set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        )
    assert challenge(RFC_VERIFIER) == RFC_CHALLENGE
    for bad in ("short", "x" * 129, "x" * 42 + "+"):
        with pytest.raises(ValueError, match="a code verifier is 43 to 128 characters"):
            challenge(bad)


def test_client_authentication_is_derived_and_contradictions_are_refused() -> None:
    urls = ("https://as.example/authorize", "https://as.example/token")
    assert CodeFlow(*urls, "app", "s", REDIRECT).client_auth == "client_secret_basic"
    assert CodeFlow(*urls, "app", None, REDIRECT).client_auth == "none"
    assert (
        CodeFlow(*urls, "app", "s", REDIRECT, "client_secret_post").client_auth
        == "client_secret_post"
    )
    assert SECRET not in repr(CodeFlow(*urls, "app", SECRET, REDIRECT))
    with pytest.raises(ValueError, match="client_auth client_secret_post needs a client secret"):
        CodeFlow(*urls, "app", None, REDIRECT, "client_secret_post")
    with pytest.raises(ValueError, match="client_auth none is for public clients"):
        CodeFlow(*urls, "app", "s", REDIRECT, "none")
    with pytest.raises(ValueError, match="client_secret is empty; None means a public client"):
        CodeFlow(*urls, "app", "", REDIRECT)
    with pytest.raises(ValueError, match="authorization_url already sets client_id, state"):
        CodeFlow(urls[0] + "?client_id=x&state=y", urls[1], "app", None, REDIRECT)
    with pytest.raises(ValueError, match="redirect_uri must be an http"):
        CodeFlow(*urls, "app", None, "com.example.app:/callback")


# -- the code exchange ---------------------------------------------------------------------------


async def test_sign_in_and_exchange_give_alice_her_credential(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    flow = flow_for(server)
    code, verifier = await sign_in(http, flow)
    assert code.startswith("code-alice-")
    credential = await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    access, refresh_token = credential.values["access_token"], credential.values["refresh_token"]
    assert credential == Credential(
        "oauth2",
        {"access_token": access, "token_type": "Bearer", "refresh_token": refresh_token},
        expires_at=NOW + 3600,
        scopes=("read", "write"),
    )
    assert access.startswith("at-alice-")
    assert refresh_token.startswith("rt-alice-")
    assert server.user_of(access) == "alice"
    [authorize, token] = server.requests
    assert dict(authorize.query)["code_challenge"] == challenge(verifier)
    assert token.form == (
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", REDIRECT),
        ("code_verifier", verifier),
    )
    assert wire(token) == [
        ("connection", "keep-alive"),
        ("user-agent", UA),
        ("content-type", "application/x-www-form-urlencoded"),
        ("accept", "application/json"),
        ("authorization", basic("app", SECRET)),
        ("content-length", str(len(urlencode(token.form)))),
    ]


async def test_each_user_gets_tokens_of_their_own(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    flow = flow_for(server)
    tokens = {}
    for user in ("alice", "bob"):
        server.signed_in = user
        code, verifier = await sign_in(http, flow)
        tokens[user] = (await exchange(http, flow, code=code, verifier=verifier, now=NOW)).values[
            "access_token"
        ]
    assert tokens["bob"].startswith("at-bob-")
    assert {user: server.user_of(token) for user, token in tokens.items()} == {
        "alice": "alice",
        "bob": "bob",
    }
    assert server.access_tokens_of("alice") == [tokens["alice"]]


async def test_a_wrong_verifier_is_refused_with_the_servers_reason(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    flow = flow_for(server)
    code, verifier = await sign_in(http, flow)
    wrong = new_verifier()
    with pytest.raises(OAuthCodeError) as refused:
        await exchange(http, flow, code=code, verifier=wrong, now=NOW)
    assert str(refused.value) == (
        f"could not get an access token from the token endpoint {server.url}/token: HTTP 400 invalid_grant "
        "(PKCE verification failed: the code_verifier does not match the code_challenge)"
    )
    assert isinstance(refused.value, ApiCallError)
    assert_no_leak(str(refused.value), SECRET, code, verifier, wrong)


async def test_a_code_used_twice_is_refused_and_its_tokens_revoked(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    flow = flow_for(server)
    code, verifier = await sign_in(http, flow)
    first = await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    with pytest.raises(OAuthCodeError) as refused:
        await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    assert str(refused.value) == (
        f"could not get an access token from the token endpoint {server.url}/token: "
        "HTTP 400 invalid_grant (the authorization code was already used)"
    )
    assert server.user_of(first.values["access_token"]) is None
    with pytest.raises(OAuthCodeError, match=r"HTTP 400 invalid_grant \(the grant was revoked\)$"):
        await refresh(http, flow, first, now=NOW)


async def test_an_expired_code_is_refused(
    server: OAuthServer, http: httpx.AsyncClient, clock: FakeClock
) -> None:
    flow = flow_for(server)
    code, verifier = await sign_in(http, flow)
    clock.advance(61)
    with pytest.raises(
        OAuthCodeError, match=r"HTTP 400 invalid_grant \(the authorization code expired\)$"
    ):
        await exchange(http, flow, code=code, verifier=verifier, now=NOW)


# -- client authentication on the wire -----------------------------------------------------------


async def test_a_public_client_sends_its_id_in_the_form_and_no_authorization(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    server.register("cli", None, [REDIRECT])
    flow = flow_for(server, "cli", None)
    assert flow.client_auth == "none"
    code, verifier = await sign_in(http, flow)
    credential = await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    assert server.user_of(credential.values["access_token"]) == "alice"
    token = server.requests_to("/token")[0]
    assert token.form == (
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", REDIRECT),
        ("code_verifier", verifier),
        ("client_id", "cli"),
    )
    assert token.header("authorization") is None
    renewed = await refresh(http, flow, credential, now=NOW)
    assert server.requests_to("/token")[1].form == (
        ("grant_type", "refresh_token"),
        ("refresh_token", credential.values["refresh_token"]),
        ("client_id", "cli"),
    )
    assert server.user_of(renewed.values["access_token"]) == "alice"


async def test_client_secret_post_puts_id_and_secret_in_the_form(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    server.register("poster", SECRET, [REDIRECT], "client_secret_post")
    flow = flow_for(server, "poster", SECRET, client_auth="client_secret_post")
    code, verifier = await sign_in(http, flow)
    await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    token = server.requests_to("/token")[0]
    assert token.form[-2:] == (("client_id", "poster"), ("client_secret", SECRET))
    assert token.header("authorization") is None


async def test_basic_credentials_are_form_encoded_before_they_are_joined(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    server.register("app:1", "s3c r+t/:ü", [REDIRECT])
    flow = flow_for(server, "app:1", "s3c r+t/:ü")
    code, verifier = await sign_in(http, flow)
    credential = await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    assert server.user_of(credential.values["access_token"]) == "alice"
    token = server.requests_to("/token")[0]
    assert token.header("authorization") == basic("app%3A1", "s3c+r%2Bt%2F%3A%C3%BC")
    assert [name for name, _ in token.form] == [
        "grant_type",
        "code",
        "redirect_uri",
        "code_verifier",
    ]


async def test_the_wrong_authentication_method_is_refused(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    server.register("poster", SECRET, [REDIRECT], "client_secret_post")
    code, verifier = await sign_in(http, flow_for(server, "poster"))
    with pytest.raises(OAuthCodeError) as refused:
        await exchange(http, flow_for(server, "poster"), code=code, verifier=verifier, now=NOW)
    assert str(refused.value) == (
        f"could not get an access token from the token endpoint {server.url}/token: "
        "HTTP 401 invalid_client (this client must authenticate with client_secret_post)"
    )
    bad = flow_for(server, "app", "not-the-secret")
    with pytest.raises(
        OAuthCodeError, match=r"HTTP 401 invalid_client \(client authentication failed\)$"
    ):
        await exchange(http, bad, code=code, verifier=verifier, now=NOW)


# -- refresh -------------------------------------------------------------------------------------


async def test_refresh_rotates_and_a_reused_refresh_token_revokes_the_grant(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    flow = flow_for(server)
    code, verifier = await sign_in(http, flow)
    first = await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    second = await refresh(http, flow, first, now=NOW + 4000)
    assert second.values["refresh_token"] != first.values["refresh_token"]
    assert second.values["access_token"] != first.values["access_token"]
    assert second.values["refresh_token"].startswith("rt-alice-")
    assert (second.kind, second.expires_at, second.scopes) == (
        "oauth2",
        NOW + 7600,
        ("read", "write"),
    )
    assert server.requests_to("/token")[1].form == (
        ("grant_type", "refresh_token"),
        ("refresh_token", first.values["refresh_token"]),
    )
    assert server.user_of(second.values["access_token"]) == "alice"

    with pytest.raises(OAuthCodeError) as reused:
        await refresh(http, flow, first, now=NOW)
    assert str(reused.value) == (
        f"could not refresh the access token at the token endpoint {server.url}/token: "
        "HTTP 400 invalid_grant (the refresh token was already used; the grant is revoked)"
    )
    assert_no_leak(str(reused.value), first.values["refresh_token"], second.values["refresh_token"])
    assert server.user_of(second.values["access_token"]) is None
    with pytest.raises(OAuthCodeError, match=r"HTTP 400 invalid_grant \(the grant was revoked\)$"):
        await refresh(http, flow, second, now=NOW)


async def test_a_refresh_answer_without_a_refresh_token_or_scope_keeps_the_old_ones(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    server.rotate_refresh_tokens = False
    server.echo_scope = False
    server.expires_in = None
    flow = flow_for(server)
    code, verifier = await sign_in(http, flow, scopes=("read",))
    first = await exchange(http, flow, code=code, verifier=verifier, now=NOW, scopes=["read"])
    assert (first.expires_at, first.scopes) == (None, ("read",))
    second = await refresh(http, flow, first, now=NOW)
    assert second.values["refresh_token"] == first.values["refresh_token"]
    assert (second.expires_at, second.scopes) == (None, ("read",))
    third = await refresh(http, flow, second, now=NOW)
    assert server.user_of(third.values["access_token"]) == "alice"


async def test_a_credential_without_a_refresh_token_is_not_sent(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    plain = Credential("oauth2", {"access_token": "at-x", "token_type": "Bearer"})
    with pytest.raises(OAuthCodeError) as refused:
        await refresh(http, flow_for(server), plain, now=NOW)
    assert str(refused.value) == (
        f"could not refresh the access token at the token endpoint {server.url}/token: "
        "the stored credential has no refresh token; sign in again"
    )
    assert server.requests == []


# -- what is refused in a token answer, and what a message may hold -------------------------------


@pytest.mark.parametrize(
    ("status", "payload", "reason"),
    [
        (200, {"token_type": "Bearer"}, "the answer has no usable access_token"),
        (
            200,
            {"access_token": "at-a\r\nX: y", "token_type": "Bearer"},
            "the answer has no usable access_token",
        ),
        (200, {"access_token": "at-a", "token_type": "mac"}, "the token_type is 'mac', not bearer"),
        (
            200,
            {"access_token": "at-a", "token_type": "DPoP"},
            "the token_type is 'DPoP', not bearer",
        ),
        (
            200,
            {"access_token": "at-a", "refresh_token": 7},
            "the answer's refresh_token is not usable",
        ),
        (200, b"access_token=at-a&token_type=bearer", "the answer is not a JSON object"),
        (200, ["at-a"], "the answer is not a JSON object"),
        (503, b"<html>down</html>", "HTTP 503"),
        (400, {"error": "invalid_request"}, "HTTP 400 invalid_request"),
    ],
)
async def test_unusable_token_answers_are_refused(
    server: OAuthServer, http: httpx.AsyncClient, status: int, payload: object, reason: str
) -> None:
    server.script_token_reply(status, payload)
    with pytest.raises(OAuthCodeError) as refused:
        await exchange(http, flow_for(server), code="c", verifier=RFC_VERIFIER, now=NOW)
    assert (
        str(refused.value)
        == f"could not get an access token from the token endpoint {server.url}/token: {reason}"
    )


async def test_token_answers_are_read_leniently_where_servers_differ(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    server.script_token_reply(
        200, {"access_token": "at-a", "token_type": "BEARER", "expires_in": "120", "scope": ""}
    )
    server.script_token_reply(
        200, {"access_token": "at-b", "refresh_token": None, "expires_in": -5}
    )
    first = await exchange(
        http, flow_for(server), code="c", verifier=RFC_VERIFIER, now=NOW, scopes=["read"]
    )
    assert first == Credential(
        "oauth2", {"access_token": "at-a", "token_type": "BEARER"}, NOW + 120, ()
    )
    second = await exchange(
        http, flow_for(server), code="c", verifier=RFC_VERIFIER, now=NOW, scopes=["read"]
    )
    assert second == Credential(
        "oauth2", {"access_token": "at-b", "token_type": "Bearer"}, None, ("read",)
    )


async def test_the_token_endpoint_is_never_followed_through_a_redirect(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    server.script_token_reply(307, b"", (("Location", server.token_url),))
    with pytest.raises(OAuthCodeError, match=r"/token: HTTP 307$"):
        await exchange(http, flow_for(server), code="c", verifier=RFC_VERIFIER, now=NOW)
    assert len(server.requests_to("/token")) == 1


async def test_the_servers_words_are_bounded_and_printable(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    server.script_token_reply(
        400, {"error": "invalid_grant\x1b[31m", "error_description": "x\ny" + "z" * 500}
    )
    with pytest.raises(OAuthCodeError) as refused:
        await exchange(http, flow_for(server), code="c", verifier=RFC_VERIFIER, now=NOW)
    assert str(refused.value).endswith(f"HTTP 400 invalid_grant [31m (x y{'z' * 197})")


@pytest.mark.parametrize("auth", ["client_secret_basic", "client_secret_post"])
async def test_no_message_holds_a_secret_a_code_a_verifier_or_a_token(
    server: OAuthServer, http: httpx.AsyncClient, auth: str
) -> None:
    server.quote_requests_in_errors = True  # a careless server that echoes what it received
    method = cast("ClientAuth", auth)
    server.register("echo", SECRET, [REDIRECT], method)
    flow = flow_for(server, "echo", client_auth=method)
    encoded = basic("echo", SECRET).removeprefix("Basic ")
    code, verifier = await sign_in(http, flow)
    with pytest.raises(OAuthCodeError) as wrong:
        await exchange(http, flow, code=code, verifier=new_verifier(), now=NOW)
    assert "***" in str(wrong.value)
    assert_no_leak(str(wrong.value), SECRET, encoded, code, verifier)
    code, verifier = await sign_in(http, flow)
    first = await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    await refresh(http, flow, first, now=NOW)
    with pytest.raises(OAuthCodeError) as reused:
        await refresh(http, flow, first, now=NOW)
    assert "***" in str(reused.value)
    tokens = (first.values["access_token"], first.values["refresh_token"])
    assert_no_leak(str(reused.value), SECRET, encoded, *tokens)


async def test_an_unreachable_token_endpoint_is_named(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    flow = CodeFlow(
        server.authorization_url, f"http://127.0.0.1:{port}/token?x=1", "app", SECRET, REDIRECT
    )
    with pytest.raises(OAuthCodeError) as refused:
        await exchange(http, flow, code="c", verifier=RFC_VERIFIER, now=NOW)
    assert str(refused.value) == (
        f"could not get an access token from the token endpoint http://127.0.0.1:{port}/token: "
        "could not connect (ConnectError)"
    )


# -- the fake authorization server itself --------------------------------------------------------


async def test_the_server_refuses_bad_authorization_requests_as_rfc_6749_says(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    flow = flow_for(server)
    good = authorize_url(flow, state="s", verifier=RFC_VERIFIER, scopes=["read"])
    unknown = await http.get(good.replace("client_id=app", "client_id=nobody"))
    assert (unknown.status_code, unknown.text) == (400, "unknown or missing client_id")
    elsewhere = await http.get(good.replace("8765", "8766"))
    assert (elsewhere.status_code, elsewhere.text) == (
        400,
        "redirect_uri is missing or not registered for this client",
    )

    async def error_of(url: str) -> list[tuple[str, str]]:
        response = await http.get(url)
        assert response.status_code == 302
        location = urlsplit(response.headers["location"])
        assert location._replace(query="").geturl() == REDIRECT
        return parse_qsl(location.query)

    plain = good.replace("code_challenge_method=S256", "code_challenge_method=plain")
    assert await error_of(plain) == [
        ("error", "invalid_request"),
        ("error_description", "transform algorithm not supported"),
        ("state", "s"),
    ]
    no_pkce = good.split("&code_challenge=")[0]
    assert (await error_of(no_pkce))[:2] == [
        ("error", "invalid_request"),
        ("error_description", "code_challenge is required (PKCE)"),
    ]
    token = good.replace("response_type=code", "response_type=token")
    assert (await error_of(token))[0] == ("error", "unsupported_response_type")
    server.signed_in = None
    assert (await error_of(good))[0] == ("error", "access_denied")
    assert server.codes == {}


async def test_revoking_a_refresh_token_revokes_the_grant_and_an_access_token_only_itself(
    server: OAuthServer, http: httpx.AsyncClient
) -> None:
    flow = flow_for(server)
    code, verifier = await sign_in(http, flow)
    first = await exchange(http, flow, code=code, verifier=verifier, now=NOW)
    auth = {"Authorization": basic("app", SECRET)}
    revoked = await http.post(
        server.revocation_url, data={"token": first.values["access_token"]}, headers=auth
    )
    assert (revoked.status_code, revoked.content) == (200, b"")
    assert server.user_of(first.values["access_token"]) is None
    second = await refresh(http, flow, first, now=NOW)
    assert server.user_of(second.values["access_token"]) == "alice"
    await http.post(
        server.revocation_url,
        data={"token": second.values["refresh_token"], "token_type_hint": "refresh_token"},
        headers=auth,
    )
    assert server.user_of(second.values["access_token"]) is None
    with pytest.raises(OAuthCodeError, match=r"invalid_grant \(the grant was revoked\)$"):
        await refresh(http, flow, second, now=NOW)
    unknown = await http.post(server.revocation_url, data={"token": "nothing"}, headers=auth)
    assert unknown.status_code == 200


async def test_access_tokens_expire_on_the_servers_clock(
    server: OAuthServer, http: httpx.AsyncClient, clock: FakeClock
) -> None:
    flow = flow_for(server)
    code, verifier = await sign_in(http, flow)
    credential = await exchange(http, flow, code=code, verifier=verifier, now=clock.now)
    assert credential.expires_at == START + 3600
    clock.advance(3599)
    assert server.user_of(credential.values["access_token"]) == "alice"
    clock.advance(1)
    assert server.user_of(credential.values["access_token"]) is None
    assert credential.expired(clock.now)
