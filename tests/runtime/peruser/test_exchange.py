"""Token exchange (``peruser.exchange``, RFC 8693) against a real authorization server on 127.0.0.1
(``tests.kit.oauth_server``): the exact request on the wire (form and client authentication), the
cache per principal and scope set until shortly before expiry (an injected clock), one exchange for
concurrent calls, refusals and unusable answers as messages that name the endpoint's error but never
a token or the client secret, the operations exchange mode cannot serve, the settings and their
start-up messages, the inbound token's holder, and the path from a request through the dispatcher
to the upstream call.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import pickle
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

import pytest

from templates.runtime.auth.bearer import STATIC_ISSUER, InboundToken, inbound_token
from templates.runtime.catalog.model import Catalog, OperationSpec, UpstreamInfo
from templates.runtime.errors import SettingsError, UpstreamError
from templates.runtime.peruser.exchange import (
    ACCESS_TOKEN_TYPE,
    GRANT_TYPE,
    ExchangeSettings,
    TokenExchange,
    exchange_from_env,
)
from templates.runtime.peruser.service import credentials_mode, per_user_from_env
from templates.runtime.protocol.dispatch import Call, Dispatcher, LegacySession
from templates.runtime.protocol.reporting import NO_LOG, NO_PROGRESS
from templates.runtime.server import McpServer, Settings
from templates.runtime.transports.http_serve import create_app
from templates.runtime.upstream.client import UpstreamResponse
from tests.kit.oauth_server import OAuthServer
from tests.kit.upstream import RecordingUpstream, Reply, Request
from tests.runtime.conftest import CATALOG, META

from .conftest import FakeClock

SECRET = "exchange-client-S3CRET"
AUDIENCE = "crm-api"
RESOURCE = "https://crm.example.com/v1"
MCP_AUDIENCE = "https://mcp.example.com/mcp"
NOTHING = "; nothing was sent to the API"
INFO: UpstreamInfo = {
    "baseUrl": "https://crm.example.com/v1",
    "baseUrlEnv": "CRM_BASE_URL",
    "timeoutEnv": "CRM_TIMEOUT",
    "timeoutSeconds": 30,
    "securitySchemes": {
        "crm": {"type": "bearer", "env": "CRM_CRM_TOKEN"},
        "cc": {
            "type": "oauth2ClientCredentials",
            "tokenUrl": "https://crm.example.com/token",
            "clientIdEnv": "CRM_CC_CLIENT_ID",
            "clientSecretEnv": "CRM_CC_CLIENT_SECRET",
            "env": "CRM_CC_TOKEN",
        },
        "key": {"type": "apiKey", "location": "header", "name": "X-Key", "env": "CRM_KEY"},
        "basic": {"type": "basic", "usernameEnv": "CRM_USER", "passwordEnv": "CRM_PASSWORD"},
    },
}


def op(security: list[list[str]], **scopes: list[str]) -> OperationSpec:
    spec: OperationSpec = {
        "method": "get",
        "path": "/me",
        "parameters": [],
        "security": security,
        "responseMediaType": "application/json",
    }
    if scopes:
        spec["scopes"] = dict(scopes)
    return spec


READ = op([["crm"]], crm=["contacts:read"])


@pytest.fixture
def oauth() -> Iterator[OAuthServer]:
    with OAuthServer() as server:
        server.register("crm-mcp", SECRET)
        yield server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


# every source a test made, closed after it (each keeps an HTTP client for its token requests)
_MADE: list[TokenExchange] = []


@pytest.fixture(autouse=True)
async def close_sources() -> AsyncIterator[None]:
    yield
    while _MADE:
        await _MADE.pop().aclose()


def make(
    oauth: OAuthServer, clock: FakeClock | None = None, timeout: float = 5, **changes: Any
) -> TokenExchange:
    fields: dict[str, Any] = {
        "token_url": oauth.token_url,
        "audience": AUDIENCE,
        "client_id": "crm-mcp",
        "client_secret": SECRET,
    }
    fields.update(changes)
    source = TokenExchange(
        INFO,
        ExchangeSettings(**fields),
        issuer=oauth.url,
        api="CRM",
        clock=clock or FakeClock(),
        timeout=timeout,
    )
    _MADE.append(source)
    return source


class Caller:
    """A person signed in at the identity provider: their MCP access token and principal."""

    def __init__(self, oauth: OAuthServer, user: str) -> None:
        self.jwt = oauth.issue_jwt(user, MCP_AUDIENCE, scopes=("mcp",))
        self.principal = (oauth.url, user)

    async def credentials(self, source: TokenExchange, spec: OperationSpec = READ) -> Any:
        return await source.credentials(self.principal, spec, inbound=InboundToken(self.jwt))


def exchanges(oauth: OAuthServer) -> list[dict[str, str]]:
    return [dict(seen.form) for seen in oauth.requests_to("/token")]


def basic(client_id: str, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()


# -- the request ---------------------------------------------------------------------------------


async def test_the_exchange_request_on_the_wire(oauth: OAuthServer) -> None:
    alice = Caller(oauth, "alice")
    source = make(oauth, resource=RESOURCE)
    spec = op([["crm"]], crm=["contacts:write", "contacts:read", "contacts:read"])
    values = await alice.credentials(source, spec)
    (seen,) = oauth.requests_to("/token")
    assert seen.method == "POST"
    assert seen.header("content-type") == "application/x-www-form-urlencoded"
    assert seen.header("accept") == "application/json"
    assert seen.header("authorization") == basic("crm-mcp", SECRET)
    assert seen.form == (
        ("grant_type", GRANT_TYPE),
        ("subject_token", alice.jwt),
        ("subject_token_type", ACCESS_TOKEN_TYPE),
        ("requested_token_type", ACCESS_TOKEN_TYPE),
        ("audience", AUDIENCE),
        ("resource", RESOURCE),
        ("scope", "contacts:read contacts:write"),
    )
    # the token the identity provider issued for the API, in the scheme's variable
    (token,) = values.values()
    assert list(values) == ["CRM_CRM_TOKEN"] and token.startswith("xt-alice-")
    issued = oauth.tokens[token]
    assert (issued.user, issued.audience, issued.scopes) == (
        "alice",
        AUDIENCE,
        ("contacts:read", "contacts:write"),
    )


async def test_a_public_client_sends_its_id_and_no_client_sends_nothing(
    oauth: OAuthServer,
) -> None:
    oauth.register("crm-public")
    alice = Caller(oauth, "alice")
    public = make(oauth, client_id="crm-public", client_secret=None)
    await alice.credentials(public, op([["crm"]]))
    anonymous = make(oauth, client_id=None, client_secret=None)
    with pytest.raises(UpstreamError) as refused:
        await alice.credentials(anonymous, op([["crm"]]))
    first, second = oauth.requests_to("/token")
    assert first.header("authorization") is None and second.header("authorization") is None
    assert first.form[-1] == ("client_id", "crm-public")
    assert [name for name, _ in second.form] == [
        "grant_type",
        "subject_token",
        "subject_token_type",
        "requested_token_type",
        "audience",
    ]
    # this identity provider wants its clients known: the refusal as it said it
    assert str(refused.value) == (
        f"Could not exchange your access token for a CRM token at the token endpoint "
        f"{oauth.token_url}: HTTP 401 invalid_client (unknown client){NOTHING}"
    )


# -- the cache -----------------------------------------------------------------------------------


async def test_tokens_are_cached_per_principal_and_scope_set_until_shortly_before_expiry(
    oauth: OAuthServer, clock: FakeClock
) -> None:
    alice, bob = Caller(oauth, "alice"), Caller(oauth, "bob")
    source = make(oauth, clock)
    first = await alice.credentials(source)
    assert await alice.credentials(source) == first
    writing = await alice.credentials(source, op([["crm"]], crm=["contacts:write"]))
    of_bob = await bob.credentials(source)
    assert len(exchanges(oauth)) == 3
    assert [f["scope"] for f in exchanges(oauth)] == [
        "contacts:read",
        "contacts:write",
        "contacts:read",
    ]
    assert [f["subject_token"] for f in exchanges(oauth)] == [alice.jwt, alice.jwt, bob.jwt]
    assert len({first["CRM_CRM_TOKEN"], writing["CRM_CRM_TOKEN"], of_bob["CRM_CRM_TOKEN"]}) == 3
    assert oauth.user_of(of_bob["CRM_CRM_TOKEN"]) == "bob"
    # expires_in is 3600: reused until 30 seconds before it runs out
    clock.advance(3569)
    assert await alice.credentials(source) == first
    assert len(exchanges(oauth)) == 3
    clock.advance(1)
    renewed = await alice.credentials(source)
    assert renewed != first and oauth.user_of(renewed["CRM_CRM_TOKEN"]) == "alice"
    assert len(exchanges(oauth)) == 4


async def test_a_short_lived_token_is_kept_half_its_life_and_one_without_expiry_not_at_all(
    oauth: OAuthServer, clock: FakeClock
) -> None:
    alice = Caller(oauth, "alice")
    source = make(oauth, clock)
    oauth.expires_in = 20
    first = await alice.credentials(source)
    clock.advance(9)
    assert await alice.credentials(source) == first
    clock.advance(1)
    assert await alice.credentials(source) != first
    clock.advance(10)
    oauth.expires_in = None
    await alice.credentials(source)
    await alice.credentials(source)
    assert len(exchanges(oauth)) == 4


async def test_concurrent_calls_of_one_caller_share_one_exchange(oauth: OAuthServer) -> None:
    alice = Caller(oauth, "alice")
    source = make(oauth)
    answers = await asyncio.gather(*(alice.credentials(source) for _ in range(5)))
    assert len(exchanges(oauth)) == 1
    assert all(answer == answers[0] for answer in answers)


# -- refusals and unusable answers ---------------------------------------------------------------


def endpoint_failed(oauth: OAuthServer) -> str:
    return (
        f"Could not exchange your access token for a CRM token at the token endpoint "
        f"{oauth.token_url}: "
    )


async def test_a_refusal_names_the_error_and_its_description(oauth: OAuthServer) -> None:
    oauth.exchange_audiences = {"billing-api"}
    with pytest.raises(UpstreamError) as refused:
        await Caller(oauth, "alice").credentials(make(oauth))
    assert str(refused.value) == endpoint_failed(oauth) + (
        f"HTTP 400 invalid_target (the audience {AUDIENCE} is not allowed){NOTHING}"
    )


async def test_a_refusal_that_echoes_the_request_shows_no_token_and_no_secret(
    oauth: OAuthServer,
) -> None:
    oauth.exchange_audiences = {"billing-api"}
    oauth.quote_requests_in_errors = True  # the description repeats the form and the Basic header
    alice = Caller(oauth, "alice")
    with pytest.raises(UpstreamError) as refused:
        await alice.credentials(make(oauth))
    message = str(refused.value)
    assert message.startswith(endpoint_failed(oauth) + "HTTP 400 invalid_target (the audience")
    assert message.endswith(NOTHING)
    assert "***" in message
    for secret in (alice.jwt, *alice.jwt.split("."), SECRET, basic("crm-mcp", SECRET)[6:]):
        assert secret not in message
    assert all(c.isprintable() for c in message)


async def test_an_expired_or_unknown_subject_token_is_refused(oauth: OAuthServer) -> None:
    alice = Caller(oauth, "alice")
    oauth.tokens[alice.jwt].revoked = True
    with pytest.raises(UpstreamError) as refused:
        await alice.credentials(make(oauth))
    assert str(refused.value) == endpoint_failed(oauth) + (
        f"HTTP 400 invalid_grant (the subject_token is not an active access token){NOTHING}"
    )


UNUSABLE = [
    (
        {"access_token": "xt-1", "issued_token_type": ACCESS_TOKEN_TYPE, "token_type": "N_A"},
        "the token_type is 'N_A', not Bearer",
    ),
    (
        {
            "access_token": "xt-2",
            "issued_token_type": "urn:ietf:params:oauth:token-type:refresh_token",
            "token_type": "Bearer",
        },
        "the issued_token_type is 'urn:ietf:params:oauth:token-type:refresh_token', not an "
        "access token",
    ),
    ({"token_type": "Bearer", "expires_in": 60}, "the answer has no usable access_token"),
    ({"access_token": "xt-3\r\nX-Evil: 1"}, "the answer has no usable access_token"),
    (b"<html>ok</html>", "the answer is not a JSON object"),
]


@pytest.mark.parametrize(("answer", "why"), UNUSABLE)
async def test_an_unusable_answer_is_refused(oauth: OAuthServer, answer: Any, why: str) -> None:
    oauth.script_token_reply(200, answer)
    with pytest.raises(UpstreamError) as refused:
        await Caller(oauth, "alice").credentials(make(oauth))
    assert str(refused.value) == endpoint_failed(oauth) + why + NOTHING


async def test_an_answer_holding_the_callers_own_token_is_never_forwarded(
    oauth: OAuthServer,
) -> None:
    alice = Caller(oauth, "alice")
    oauth.script_token_reply(200, {"access_token": alice.jwt, "token_type": "Bearer"})
    with pytest.raises(UpstreamError) as refused:
        await alice.credentials(make(oauth))
    assert str(refused.value) == endpoint_failed(oauth) + (
        "the answer holds your own access token, which is never forwarded" + NOTHING
    )
    assert alice.jwt not in str(refused.value)


async def test_a_server_error_without_a_body_says_its_status(oauth: OAuthServer) -> None:
    oauth.script_token_reply(503, b"")
    with pytest.raises(UpstreamError) as refused:
        await Caller(oauth, "alice").credentials(make(oauth))
    assert str(refused.value) == endpoint_failed(oauth) + "HTTP 503" + NOTHING


class Silent(RecordingUpstream):
    def answer(self, request: Request) -> Reply | None:
        return None  # never answers


async def test_an_endpoint_that_never_answers_or_cannot_be_reached(oauth: OAuthServer) -> None:
    alice = Caller(oauth, "alice")
    with Silent() as silent:
        source = make(oauth, timeout=0.2, token_url=silent.url + "/token")
        with pytest.raises(UpstreamError) as slow:
            await alice.credentials(source)
    assert str(slow.value) == (
        f"Could not exchange your access token for a CRM token at the token endpoint "
        f"{silent.url}/token: timed out after 0.2 s{NOTHING}"
    )
    with pytest.raises(UpstreamError) as gone:
        await alice.credentials(make(oauth, token_url=silent.url + "/token"))
    assert str(gone.value).endswith(f"/token: could not connect (ConnectError){NOTHING}")


# -- what exchange mode can serve ----------------------------------------------------------------


def refusal(scheme: str, kind: str) -> str:
    return (
        f"This operation needs the {scheme} scheme ({kind}), which this server cannot fill: it "
        "calls CRM with tokens exchanged for each caller's, and exchange mode issues bearer "
        f"tokens only{NOTHING}."
    )


@pytest.mark.parametrize(
    ("security", "scheme", "kind"),
    [
        ([["key"]], "key", "apiKey"),
        ([["basic"]], "basic", "basic"),
        ([["crm", "key"]], "key", "apiKey"),
    ],
)
async def test_an_operation_needing_an_api_key_or_basic_is_refused(
    oauth: OAuthServer, security: list[list[str]], scheme: str, kind: str
) -> None:
    with pytest.raises(UpstreamError) as refused:
        await Caller(oauth, "alice").credentials(make(oauth), op(security))
    assert str(refused.value) == refusal(scheme, kind)
    assert exchanges(oauth) == []


async def test_the_alternatives_exchange_mode_takes(oauth: OAuthServer) -> None:
    alice, source = Caller(oauth, "alice"), make(oauth)
    # anonymous access beats an API key it cannot send; no security at all needs nothing
    assert await alice.credentials(source, op([["key"], []])) == {}
    assert await alice.credentials(source, op([])) == {}
    assert exchanges(oauth) == []
    # a bearer alternative beats both
    bearer = await alice.credentials(source, op([["key"], ["crm"], []]))
    assert list(bearer) == ["CRM_CRM_TOKEN"]
    # a client-credentials scheme takes the exchanged token instead of the server's own
    client = await alice.credentials(source, op([["cc"]], cc=["contacts:read"]))
    assert list(client) == ["CRM_CC_TOKEN"] and client["CRM_CC_TOKEN"].startswith("xt-alice-")


async def test_a_caller_without_an_access_token_of_the_identity_provider_is_refused(
    oauth: OAuthServer,
) -> None:
    source = make(oauth)
    expected = (
        f"This server calls CRM with a token exchanged for your own access token from "
        f"{oauth.url}, and this request was not authenticated with one{NOTHING}."
    )
    static = (STATIC_ISSUER, "token-0123456789abcdef")
    for caller, inbound in [(static, InboundToken("static-token-0123456789")), (static, None)]:
        with pytest.raises(UpstreamError) as refused:
            await source.credentials(caller, READ, inbound=inbound)
        assert str(refused.value) == expected
    with pytest.raises(UpstreamError):
        await source.credentials((oauth.url, "alice"), READ)
    assert exchanges(oauth) == []


# -- settings ------------------------------------------------------------------------------------


def settings_env(**values: str) -> dict[str, str]:
    base = {
        "CRM_CREDENTIALS": "exchange",
        "CRM_EXCHANGE_TOKEN_URL": "https://idp.example.com/oauth/token",
        "CRM_EXCHANGE_AUDIENCE": AUDIENCE,
    }
    base.update(values)
    return {k: v for k, v in base.items() if v}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"CRM_EXCHANGE_TOKEN_URL": ""},
            "CRM_CREDENTIALS=exchange trades each caller's access token at the identity "
            "provider's token endpoint: set CRM_EXCHANGE_TOKEN_URL",
        ),
        (
            {"CRM_EXCHANGE_TOKEN_URL": "http://idp.example.com/token"},
            "CRM_EXCHANGE_TOKEN_URL must be an https:// URL (plain http is allowed only for "
            "127.0.0.1, ::1 and localhost)",
        ),
        (
            {"CRM_EXCHANGE_TOKEN_URL": "https://idp.example.com/token#x"},
            "CRM_EXCHANGE_TOKEN_URL must be an absolute URL without a fragment",
        ),
        (
            {"CRM_EXCHANGE_AUDIENCE": ""},
            "CRM_CREDENTIALS=exchange asks for a token of the API's audience: set "
            "CRM_EXCHANGE_AUDIENCE (the name the identity provider knows the API by) or "
            "CRM_EXCHANGE_RESOURCE (the API's URI)",
        ),
        (
            {"CRM_EXCHANGE_RESOURCE": "crm api"},
            "CRM_EXCHANGE_RESOURCE must be an absolute URL without a fragment",
        ),
        (
            {"CRM_EXCHANGE_CLIENT_SECRET": SECRET},
            "CRM_EXCHANGE_CLIENT_SECRET is set but CRM_EXCHANGE_CLIENT_ID is not",
        ),
    ],
)
def test_unusable_settings_name_their_variable(changes: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError) as refused:
        exchange_from_env(
            INFO, settings_env(**changes), prefix="CRM", api="CRM", issuer="https://i"
        )
    assert str(refused.value) == message
    assert SECRET not in str(refused.value)


def test_settings_from_the_environment() -> None:
    environ = settings_env(
        CRM_EXCHANGE_TOKEN_URL="http://127.0.0.1:8080/token",
        CRM_EXCHANGE_AUDIENCE="",
        CRM_EXCHANGE_RESOURCE=RESOURCE,
        CRM_EXCHANGE_CLIENT_ID=" crm-mcp ",
        CRM_EXCHANGE_CLIENT_SECRET=SECRET,
    )
    settings = ExchangeSettings.from_env(environ, "CRM")
    assert settings == ExchangeSettings(
        "http://127.0.0.1:8080/token", None, RESOURCE, "crm-mcp", SECRET
    )
    assert SECRET not in repr(settings)


def test_exchange_mode_needs_the_identity_providers_tokens_and_excludes_per_user() -> None:
    environ = settings_env()
    with pytest.raises(ValueError) as refused:
        exchange_from_env(INFO, environ, prefix="CRM", api="CRM", issuer=None)
    assert str(refused.value) == (
        "CRM_CREDENTIALS=exchange trades each caller's OAuth access token at the identity "
        "provider, so callers must sign in with its tokens: set CRM_AUTH_JWKS_URL and "
        "CRM_AUTH_ISSUER (static tokens of CRM_AUTH_TOKENS are not the identity provider's and "
        "cannot be exchanged)"
    )
    assert credentials_mode(INFO, environ, "CRM") == "exchange"
    unused = {"prefix": "CRM", "server_name": "crm-mcp", "api": "CRM", "public_url": "http://x/mcp"}
    assert per_user_from_env(INFO, environ, verify=None, **unused) is None
    for mode in ("environment", "per-user"):
        other = {**environ, "CRM_CREDENTIALS": mode}
        assert exchange_from_env(INFO, other, prefix="CRM", api="CRM", issuer="https://i") is None
    with pytest.raises(ValueError) as bogus:
        credentials_mode(INFO, {"CRM_CREDENTIALS": "forward"}, "CRM")
    assert str(bogus.value) == (
        "CRM_CREDENTIALS must be one of environment, per-user, exchange, got 'forward'"
    )


def test_the_inbound_token_never_shows() -> None:
    held = inbound_token("Bearer  eyJhbGciOi.secret-part.sig ")
    assert held is not None and held.reveal() == "eyJhbGciOi.secret-part.sig"
    assert repr(held) == str(held) == f"{held}" == "InboundToken(<hidden>)"
    call = Call("2026-07-28", NO_PROGRESS, NO_LOG, caller=("i", "s"), inbound=held)
    assert "secret-part" not in repr(call)
    with pytest.raises(TypeError):
        pickle.dumps(held)
    assert inbound_token("Basic abc") is None and inbound_token(None) is None


# -- through the dispatcher and the transport's start-up -----------------------------------------


class FakeUpstream:
    """Records the credentials each call carried."""

    def __init__(self) -> None:
        self.users: list[Mapping[str, str] | None] = []

    async def call(
        self, operation: str, arguments: Mapping[str, Any], *, user: Mapping[str, str] | None = None
    ) -> UpstreamResponse:
        self.users.append(user)
        return UpstreamResponse(200, "OK", "application/json", b'{"id":1,"name":"Rex"}', "u")


def exchange_catalog() -> Catalog:
    catalog: Catalog = copy.deepcopy(CATALOG)
    catalog["upstream"]["securitySchemes"]["crm"] = {"type": "bearer", "env": "PETSTORE_CRM"}
    catalog["operations"]["getPet"]["security"] = [["crm"]]
    catalog["operations"]["getPet"]["scopes"] = {"crm": ["pets:read"]}
    catalog["operations"]["getInventory"]["security"] = [["crm"]]
    catalog["operations"]["getInventory"]["scopes"] = {"crm": ["pets:read"]}
    catalog["operations"]["getGone"]["security"] = [["api_key"]]
    return catalog


async def ignore(message: dict[str, Any]) -> None:
    return None


async def test_tool_calls_of_both_eras_carry_the_exchanged_token(oauth: OAuthServer) -> None:
    upstream = FakeUpstream()
    dispatcher = Dispatcher(exchange_catalog(), upstream)
    source = TokenExchange(
        exchange_catalog()["upstream"],
        ExchangeSettings(oauth.token_url, AUDIENCE, None, "crm-mcp", SECRET),
        issuer=oauth.url,
        api="Petstore",
    )
    _MADE.append(source)
    dispatcher.serve_per_user(source)
    alice = Caller(oauth, "alice")
    identity: dict[str, Any] = {
        "subject": "alice",
        "caller": alice.principal,
        "inbound": InboundToken(alice.jwt),
    }
    get_pet = {"name": "get_pet", "arguments": {"petId": 1}}
    modern = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"_meta": META, **get_pet},
    }
    reply = await dispatcher.handle(modern, None, ignore, **identity)
    assert reply is not None and not reply["result"].get("isError"), reply
    legacy = LegacySession(version="2025-11-25", initialized=True)
    older = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": get_pet}
    reply = await dispatcher.handle(older, legacy, ignore, **identity)
    assert reply is not None and not reply["result"].get("isError"), reply
    (token,) = {user["PETSTORE_CRM"] for user in upstream.users if user is not None}
    assert oauth.user_of(token) == "alice" and oauth.tokens[token].audience == AUDIENCE
    assert len(exchanges(oauth)) == 1
    # an API-key operation cannot be served: the call's error result, nothing sent
    create = {"name": "create_pet", "arguments": {"name": "Rex"}}
    refused = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"_meta": META, **create},
    }
    reply = await dispatcher.handle(refused, None, ignore, **identity)
    assert reply is not None
    text = reply["result"]["content"][0]["text"]
    assert reply["result"]["isError"] is True
    assert text.startswith("This operation needs the api_key scheme (apiKey)")
    assert len(upstream.users) == 2
    # resource reads too: the same cached token, or the refusal as a JSON-RPC error
    read = {"jsonrpc": "2.0", "id": 4, "method": "resources/read"}
    inventory = {**read, "params": {"_meta": META, "uri": "petstore://store/inventory"}}
    reply = await dispatcher.handle(inventory, None, ignore, **identity)
    assert reply is not None and "result" in reply, reply
    assert upstream.users[-1] == {"PETSTORE_CRM": token}
    gone = {**read, "params": {"_meta": META, "uri": "petstore://gone"}}
    reply = await dispatcher.handle(gone, None, ignore, **identity)
    assert reply is not None and reply["error"]["code"] == -32603
    assert reply["error"]["message"].startswith("This operation needs the api_key scheme (apiKey)")
    assert len(upstream.users) == 3 and len(exchanges(oauth)) == 1


@pytest.mark.parametrize(
    ("auth", "message"),
    [
        (
            {"PETSTORE_AUTH_TOKENS": "static-token-0123456789abcdef"},
            "set PETSTORE_AUTH_JWKS_URL and PETSTORE_AUTH_ISSUER",
        ),
        ({}, "set PETSTORE_AUTH_JWKS_URL and PETSTORE_AUTH_ISSUER"),
    ],
)
async def test_the_http_transport_refuses_exchange_mode_without_jwt_authentication(
    auth: dict[str, str], message: str
) -> None:
    environ = {
        "PETSTORE_CREDENTIALS": "exchange",
        "PETSTORE_EXCHANGE_TOKEN_URL": "https://idp.example.com/token",
        "PETSTORE_EXCHANGE_AUDIENCE": AUDIENCE,
        **auth,
    }
    server = McpServer(exchange_catalog(), Settings.from_env(exchange_catalog(), environ))
    with pytest.raises(SettingsError) as refused:
        create_app(server, resource_url="http://127.0.0.1:8000/mcp")
    assert message in str(refused.value)
    await server.aclose()


async def test_the_http_transport_serves_exchange_mode_with_jwt_authentication() -> None:
    environ = {
        "PETSTORE_CREDENTIALS": "exchange",
        "PETSTORE_AUTH_JWKS_URL": "http://127.0.0.1:9/jwks",
        "PETSTORE_AUTH_ISSUER": "https://idp.example.com",
        "PETSTORE_EXCHANGE_TOKEN_URL": "https://idp.example.com/token",
        "PETSTORE_EXCHANGE_AUDIENCE": AUDIENCE,
    }
    server = McpServer(exchange_catalog(), Settings.from_env(exchange_catalog(), environ))
    create_app(server, resource_url="http://127.0.0.1:8000/mcp")
    assert isinstance(server.dispatcher._calls.per_user, TokenExchange)
    await server.aclose()
