"""``login`` and ``logout`` for stdio (``peruser.login``) and the credentials they leave (``peruser.local``).

The fake authorization server of the kit runs on 127.0.0.1; the test plays the person's browser with
httpx: it reads the authorization URL ``login`` prints, opens it (the server approves at once, as
alice) and follows the redirect to the loopback callback. Everything lands in a temporary
``XDG_DATA_HOME``: the encrypted store ``tokens.db`` and the key file ``store.key``. The store is then
opened as the server would open it, to see exactly what it holds.
"""

from __future__ import annotations

import asyncio
import copy
import getpass
import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest

from templates.runtime.catalog.model import Catalog, OperationSpec
from templates.runtime.cli import run
from templates.runtime.peruser.local import (
    LOCAL_ISSUER,
    LocalCredentials,
    LocalStorage,
    LocalUser,
    open_local,
)
from templates.runtime.peruser.login import LoginOptions, Refusal, login, logout
from templates.runtime.peruser.sealing import Credential, parse_store_key
from templates.runtime.peruser.store import CredentialStore, open_store
from templates.runtime.server import McpServer, Settings
from tests.kit.oauth_server import OAuthServer
from tests.runtime.conftest import CATALOG

PROG = "petstore-mcp"
PREFIX = "PETSTORE"
PUBLIC, CONFIDENTIAL, SECRET = "local-app", "local-secret-app", "app-secret-f00d"
ME = LocalUser(LOCAL_ISSUER, getpass.getuser())
ENV_TOKEN = "env-token-from-the-environment"


def catalog_for(server: OAuthServer, *, schemes: int = 1) -> Catalog:
    """The fixture Petstore with an ``oauth2`` scheme ``crm`` (and ``crm2`` when two are asked
    for) whose authorization-code flow is at ``server``; ``getMe`` needs ``crm``."""
    catalog = copy.deepcopy(CATALOG)
    upstream = catalog["upstream"]
    for index in range(schemes):
        name = "crm" if index == 0 else f"crm{index + 1}"
        upstream["securitySchemes"][name] = {
            "type": "bearer",
            "env": f"PETSTORE_{name.upper()}_TOKEN",
            "authorizationCode": {
                "authorizationUrl": server.authorization_url,
                "tokenUrl": server.token_url,
                "clientIdEnv": f"PETSTORE_{name.upper()}_CLIENT_ID",
                "clientSecretEnv": f"PETSTORE_{name.upper()}_CLIENT_SECRET",
            },
        }
    catalog["operations"]["getMe"] = me_spec()
    return cast("Catalog", catalog)


def me_spec() -> OperationSpec:
    return cast(
        "OperationSpec",
        {
            "method": "get",
            "path": "/me",
            "parameters": [],
            "security": [["crm"]],
            "scopes": {"crm": ["contacts:read"]},
            "responseMediaType": "application/json",
        },
    )


@pytest.fixture
def oauth() -> Iterator[OAuthServer]:
    with OAuthServer() as server:
        server.register(PUBLIC)
        server.register(CONFIDENTIAL, SECRET)
        yield server


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def env(data: Path) -> dict[str, str]:
    return {"XDG_DATA_HOME": str(data), "PETSTORE_CRM_CLIENT_ID": PUBLIC}


def allow_redirect(oauth: OAuthServer, url: str) -> str:
    """Register the loopback redirect URI the authorization URL carries for its client, as an
    authorization server does that accepts any port on 127.0.0.1 (RFC 8252 §7.3)."""
    params = dict(parse_qsl(urlsplit(url).query))
    client = oauth.clients[params["client_id"]]
    oauth.register(client.client_id, client.secret, [params["redirect_uri"]], client.auth_method)
    return params["redirect_uri"]


class Terminal:
    """What ``login`` writes to stderr; the authorization URL, once it is there."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.url: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def __call__(self, text: str) -> None:
        self.lines.append(text)
        for line in text.splitlines():
            if line.startswith("    http") and not self.url.done():
                self.url.set_result(line.strip())


async def browse(oauth: OAuthServer, terminal: Terminal) -> httpx.Response:
    """The person opens the printed URL; the server approves and sends them to the callback."""
    url = await terminal.url
    allow_redirect(oauth, url)
    async with httpx.AsyncClient(follow_redirects=True, timeout=20) as browser:
        return await browser.get(url)


async def attempt(
    catalog: Catalog, env: dict[str, str], oauth: OAuthServer, **options: Any
) -> tuple[str | Refusal, httpx.Response, Terminal]:
    """``login`` with the person at the browser: its outcome, the page they saw, the terminal."""
    terminal = Terminal()
    page = asyncio.create_task(browse(oauth, terminal))
    outcome = await login(
        catalog, env, prefix=PREFIX, prog=PROG, options=LoginOptions(**options), say=terminal
    )
    return outcome, await page, terminal


async def sign_in(
    catalog: Catalog, env: dict[str, str], oauth: OAuthServer, **options: Any
) -> tuple[httpx.Response, Terminal]:
    outcome, page, terminal = await attempt(catalog, env, oauth, **options)
    assert outcome == options.get("scheme", "crm"), outcome
    return page, terminal


async def stored(env: dict[str, str], scheme: str = "crm") -> Credential | None:
    store = await open_stored(env)
    try:
        return await store.get(ME, scheme)
    finally:
        await store.close()


async def open_stored(env: dict[str, str]) -> CredentialStore:
    storage = LocalStorage.from_env("petstore-mcp", env, PREFIX)
    key = parse_store_key(storage.key_file.read_text(), "key file")
    return await open_store(storage.url, key, namespace=PREFIX)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- login ---------------------------------------------------------------------------------------


async def test_login_stores_alices_tokens_encrypted_in_the_data_directory(
    oauth: OAuthServer, env: dict[str, str], data: Path
) -> None:
    page, terminal = await sign_in(catalog_for(oauth), env, oauth)

    assert page.status_code == 200
    assert "You can close this tab." in page.text
    credential = await stored(env)
    assert credential is not None and credential.kind == "oauth2"
    access, refresh = credential.values["access_token"], credential.values["refresh_token"]
    assert oauth.user_of(access) == "alice" and refresh.startswith("rt-alice-")
    assert credential.values["client_id"] == PUBLIC and "client_secret" not in credential.values
    assert credential.scopes == ("contacts:read",)
    # the authorization request: PKCE S256, the loopback redirect, the scopes the operations need
    (asked,) = oauth.requests_to("/authorize")
    query = dict(asked.query)
    assert query["code_challenge_method"] == "S256" and len(query["state"]) >= 43
    assert query["scope"] == "contacts:read"
    port = urlsplit(query["redirect_uri"]).port
    assert query["redirect_uri"] == f"http://127.0.0.1:{port}/callback"
    (exchanged,) = oauth.requests_to("/token")
    assert dict(exchanged.form)["grant_type"] == "authorization_code"
    # the store and its key: private files in <XDG_DATA_HOME>/<server name>/, no token in clear
    folder = data / "petstore-mcp"
    assert mode(folder / "tokens.db") == 0o600 and mode(folder / "store.key") == 0o600
    raw = b"".join(p.read_bytes() for p in folder.iterdir())
    assert access.encode() not in raw and refresh.encode() not in raw
    assert terminal.lines[-1] == (
        f"Signed in: the crm tokens are stored, encrypted, in {folder / 'tokens.db'}"
    )


async def test_a_second_login_reuses_the_key_file_and_replaces_the_tokens(
    oauth: OAuthServer, env: dict[str, str], data: Path
) -> None:
    catalog = catalog_for(oauth)
    await sign_in(catalog, env, oauth)
    key_file = data / "petstore-mcp" / "store.key"
    key, first = key_file.read_bytes(), await stored(env)
    await sign_in(catalog, env, oauth)
    second = await stored(env)
    assert key_file.read_bytes() == key
    assert first is not None and second is not None
    assert second.values["access_token"] != first.values["access_token"]
    assert oauth.user_of(second.values["access_token"]) == "alice"


async def test_a_confidential_client_authenticates_and_keeps_its_secret_sealed(
    oauth: OAuthServer, env: dict[str, str]
) -> None:
    env |= {"PETSTORE_CRM_CLIENT_ID": CONFIDENTIAL, "PETSTORE_CRM_CLIENT_SECRET": SECRET}
    await sign_in(catalog_for(oauth), env, oauth)
    (exchanged,) = oauth.requests_to("/token")
    assert (exchanged.header("authorization") or "").startswith("Basic ")
    credential = await stored(env)
    assert credential is not None
    assert (credential.values["client_id"], credential.values["client_secret"]) == (
        CONFIDENTIAL,
        SECRET,
    )


async def test_the_store_key_variable_replaces_the_key_file(
    oauth: OAuthServer, env: dict[str, str], data: Path
) -> None:
    env["PETSTORE_TOKEN_STORE_KEY"] = "ab" * 32
    await sign_in(catalog_for(oauth), env, oauth)
    assert not (data / "petstore-mcp" / "store.key").exists()
    storage = LocalStorage.from_env("petstore-mcp", env, PREFIX)
    store = await open_store(storage.url, bytes.fromhex("ab" * 32), namespace=PREFIX)
    try:
        assert await store.get(ME, "crm") is not None
    finally:
        await store.close()


async def test_a_fixed_port_gives_the_exact_redirect_uri(
    oauth: OAuthServer, env: dict[str, str]
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    redirect = f"http://127.0.0.1:{port}/callback"
    oauth.register(PUBLIC, redirect_uris=[redirect])
    terminal = Terminal()

    async def browse_without_registering() -> httpx.Response:
        async with httpx.AsyncClient(follow_redirects=True, timeout=20) as browser:
            return await browser.get(await terminal.url)

    page = asyncio.create_task(browse_without_registering())
    options = LoginOptions(port=port)
    outcome = await login(
        catalog_for(oauth), env, prefix=PREFIX, prog=PROG, options=options, say=terminal
    )
    assert outcome == "crm" and (await page).status_code == 200
    assert dict(oauth.requests_to("/authorize")[0].query)["redirect_uri"] == redirect


async def test_a_wrong_state_is_refused_and_nothing_is_stored(
    oauth: OAuthServer, env: dict[str, str]
) -> None:
    terminal = Terminal()

    async def forge() -> httpx.Response:
        params = dict(parse_qsl(urlsplit(await terminal.url).query))
        async with httpx.AsyncClient(timeout=20) as attacker:
            return await attacker.get(
                params["redirect_uri"], params={"code": "code-mallory-1", "state": "forged"}
            )

    page = asyncio.create_task(forge())
    outcome = await login(
        catalog_for(oauth), env, prefix=PREFIX, prog=PROG, options=LoginOptions(), say=terminal
    )
    assert outcome == Refusal(
        "the callback's state does not match this login (an old or forged redirect); "
        "nothing was stored",
        1,
    )
    assert (await page).status_code == 400
    assert oauth.requests_to("/token") == []
    assert await stored(env) is None


async def test_a_refusal_at_the_authorization_server_stores_nothing(
    oauth: OAuthServer, env: dict[str, str]
) -> None:
    oauth.approve = False
    outcome, page, _ = await attempt(catalog_for(oauth), env, oauth)
    assert outcome == Refusal(
        "the authorization server did not sign you in: the user did not approve the request"
    )
    assert page.status_code == 400 and "the user did not approve the request" in page.text
    assert await stored(env) is None


async def test_no_callback_before_the_timeout_exits_with_a_clear_message(
    oauth: OAuthServer, env: dict[str, str]
) -> None:
    outcome = await login(
        catalog_for(oauth),
        env,
        prefix=PREFIX,
        prog=PROG,
        options=LoginOptions(timeout=0.2),
        say=Terminal(),
    )
    assert outcome == Refusal("no sign-in came back within 0.2 s; nothing was stored", 1)
    assert oauth.requests_to("/authorize") == [] and await stored(env) is None


async def test_the_url_is_opened_in_the_browser_unless_told_not_to(
    oauth: OAuthServer, env: dict[str, str]
) -> None:
    opened: list[str] = []
    terminal = Terminal()
    page = asyncio.create_task(browse(oauth, terminal))
    options = LoginOptions(browser=opened.append)
    outcome = await login(
        catalog_for(oauth), env, prefix=PREFIX, prog=PROG, options=options, say=terminal
    )
    assert outcome == "crm" and (await page).status_code == 200
    assert opened == [await terminal.url]


# -- refresh and fallback: what the stdio server does with the store -------------------------------


async def test_an_expired_token_is_refreshed_and_the_refresh_token_rotated(
    env: dict[str, str],
) -> None:
    with OAuthServer(expires_in=0) as oauth:
        oauth.register(PUBLIC)
        catalog = catalog_for(oauth)
        await sign_in(catalog, env, oauth)
        first = await stored(env)
        # the MCP client that starts the server need not pass the client id: login stored it
        store = await open_stored(env)
        local = LocalCredentials(catalog["upstream"], store, environ={}, api="Petstore")
        try:
            values = await local.credentials(ME.caller, me_spec())
            second = await stored(env)
            again = await local.credentials(ME.caller, me_spec())
            third = await stored(env)
        finally:
            await local.aclose()
    assert first is not None and second is not None and third is not None
    token = values["PETSTORE_CRM_TOKEN"]
    assert token == second.values["access_token"] != first.values["access_token"]
    assert oauth.tokens[token].user == "alice"
    assert again["PETSTORE_CRM_TOKEN"] == third.values["access_token"] != token
    assert second.values["client_id"] == third.values["client_id"] == PUBLIC
    # each refresh spends the refresh token the one before got, and gets a new one
    refreshes = [dict(r.form) for r in oauth.requests_to("/token")][1:]
    assert [(r["grant_type"], r["client_id"], r["refresh_token"]) for r in refreshes] == [
        ("refresh_token", PUBLIC, first.values["refresh_token"]),
        ("refresh_token", PUBLIC, second.values["refresh_token"]),
    ]
    assert len({t.values["refresh_token"] for t in (first, second, third)}) == 3


async def test_concurrent_calls_never_spend_one_refresh_token_twice(env: dict[str, str]) -> None:
    with OAuthServer(expires_in=0) as oauth:
        oauth.register(PUBLIC)
        catalog = catalog_for(oauth)
        await sign_in(catalog, env, oauth)
        local = LocalCredentials(catalog["upstream"], await open_stored(env), environ={}, api="P")
        try:
            answers = await asyncio.gather(
                *(local.credentials(ME.caller, me_spec()) for _ in range(4))
            )
        finally:
            await local.aclose()
        last = await stored(env)
    spent = [dict(r.form)["refresh_token"] for r in oauth.requests_to("/token")[1:]]
    assert len(spent) == len(set(spent)) == 4
    # a refresh token used twice would have revoked the grant (the fake server does, as OAuth 2.1 says)
    assert last is not None and not oauth.tokens[last.values["refresh_token"]].grant.revoked
    assert all(oauth.tokens[a["PETSTORE_CRM_TOKEN"]].user == "alice" for a in answers)


async def test_stored_tokens_win_and_other_schemes_read_the_environment(
    oauth: OAuthServer, env: dict[str, str]
) -> None:
    catalog = catalog_for(oauth)
    await sign_in(catalog, env, oauth)
    credential = await stored(env)
    assert credential is not None
    environ = env | {"PETSTORE_CRM_TOKEN": ENV_TOKEN, "PETSTORE_API_KEY": "env-api-key"}
    local = await open_local(
        catalog["upstream"], environ, prefix=PREFIX, server_name="petstore-mcp", api="Petstore"
    )
    assert local is not None
    either = cast("OperationSpec", {**me_spec(), "security": [["crm"], ["api_key"]]})
    try:
        values = await local.credentials(ME.caller, either)
    finally:
        await local.aclose()
    assert values == {
        "PETSTORE_CRM_TOKEN": credential.values["access_token"],
        "PETSTORE_API_KEY": "env-api-key",
    }


async def test_without_a_login_nothing_is_opened_or_created(data: Path) -> None:
    catalog = cast("Catalog", CATALOG)
    environ = {"XDG_DATA_HOME": str(data), "PETSTORE_API_KEY": "k"}
    local = await open_local(
        catalog["upstream"], environ, prefix=PREFIX, server_name="petstore-mcp", api="Petstore"
    )
    assert local is None and not data.exists()


async def test_a_key_file_others_may_read_is_refused(
    oauth: OAuthServer, env: dict[str, str], data: Path
) -> None:
    catalog = catalog_for(oauth)
    await sign_in(catalog, env, oauth)
    key_file = data / "petstore-mcp" / "store.key"
    os.chmod(key_file, 0o644)
    with pytest.raises(ValueError) as refused:
        await open_local(
            catalog["upstream"], env, prefix=PREFIX, server_name="petstore-mcp", api="Petstore"
        )
    assert str(refused.value) == (
        f"the store key file {key_file} may be read by others; make it private "
        f"(chmod 600 {key_file}) or set PETSTORE_TOKEN_STORE_KEY"
    )


# -- logout --------------------------------------------------------------------------------------


async def test_logout_removes_the_stored_tokens(oauth: OAuthServer, env: dict[str, str]) -> None:
    catalog = catalog_for(oauth, schemes=2)
    await sign_in(catalog, env, oauth, scheme="crm")
    env["PETSTORE_CRM2_CLIENT_ID"] = PUBLIC
    await sign_in(catalog, env, oauth, scheme="crm2")
    said: list[str] = []

    assert await logout(catalog, env, prefix=PREFIX, scheme="crm", say=said.append) == 1
    assert await stored(env, "crm") is None and await stored(env, "crm2") is not None
    assert await logout(catalog, env, prefix=PREFIX, scheme="crm", say=said.append) == 0
    assert await logout(catalog, env, prefix=PREFIX, scheme=None, say=said.append) == 1
    assert await stored(env, "crm2") is None
    assert said == [
        "removed the stored tokens of crm",
        "no tokens of crm were stored",
        "removed the stored tokens",
    ]


async def test_logout_without_a_login_creates_nothing(
    oauth: OAuthServer, env: dict[str, str], data: Path
) -> None:
    said: list[str] = []
    assert await logout(catalog_for(oauth), env, prefix=PREFIX, scheme=None, say=said.append) == 0
    assert said == ["nothing is stored"] and not data.exists()


# -- the command line: which scheme, and usage mistakes (exit status 2) ----------------------------


def run_cli(
    catalog: Catalog, env: dict[str, str], argv: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    def build_server() -> McpServer:
        return McpServer(catalog, Settings.from_env(catalog, env))

    with pytest.raises(SystemExit) as ended:
        run(build_server, PROG, argv)
    return cast("int", ended.value.code), capsys.readouterr().err


def test_login_names_the_schemes_when_there_are_several(
    oauth: OAuthServer, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run_cli(catalog_for(oauth, schemes=2), env, ["login", "--no-browser"], capsys)
    assert (status, err) == (
        2,
        f"{PROG} login: several schemes can log in (crm, crm2); name one: {PROG} login SCHEME\n",
    )


def test_login_refuses_a_scheme_without_an_authorization_code_flow(
    oauth: OAuthServer, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run_cli(catalog_for(oauth), env, ["login", "api_key"], capsys)
    assert (status, err) == (
        2,
        f"{PROG} login: the security scheme 'api_key' has no OAuth authorization-code flow; "
        "login works for: crm\n",
    )


def test_login_without_a_client_id_names_the_variable(
    oauth: OAuthServer, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {"XDG_DATA_HOME": str(data)}
    status, err = run_cli(catalog_for(oauth), env, ["login", "--no-browser"], capsys)
    assert (status, err) == (
        2,
        f"{PROG} login: set PETSTORE_CRM_CLIENT_ID to the client id this server is registered "
        "with at the authorization server (redirect URI http://127.0.0.1/callback, any port)\n",
    )
    assert not data.exists()


def test_login_for_an_api_without_oauth_says_there_is_nothing_to_do(
    env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run_cli(cast("Catalog", CATALOG), env, ["login"], capsys)
    assert (status, err) == (
        2,
        f"{PROG} login: no security scheme of this API has an OAuth authorization-code flow, so "
        "there is nothing to log in to; set the credentials' environment variables instead\n",
    )


def test_a_timeout_exits_1_from_the_command_line(
    oauth: OAuthServer, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["login", "--no-browser", "--timeout", "0.2"]
    status, err = run_cli(catalog_for(oauth), env, argv, capsys)
    assert status == 1
    assert err.endswith(f"{PROG} login: no sign-in came back within 0.2 s; nothing was stored\n")
    assert "    http://127.0.0.1:" in err


def test_logout_of_an_unknown_scheme_is_a_usage_mistake(
    oauth: OAuthServer, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run_cli(catalog_for(oauth), env, ["logout", "nope"], capsys)
    assert (status, err) == (
        2,
        f"{PROG} logout: the security scheme 'nope' is unknown; this API has: api_key, crm\n",
    )
