"""Each caller's own credentials, end to end: the official MCP client against a generated server.

The Petstore sample (an ``X-API-Key`` scheme) runs over HTTP with ``PETSTORE_CREDENTIALS=per-user``,
two callers' static MCP tokens and an encrypted SQLite store; its own ``PETSTORE_API_KEY`` is set
too, and must never reach the API. A call without stored credentials answers with a sign-in link
(``input_required`` in 2026-07-28, ``-32042`` in 2025-11-25); the test plays the person's browser:
it opens the link, proves who it is with the MCP token and enters the API key, and the retry goes
through with that key. The fake Petstore on 127.0.0.1 records which key each call carried.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.conftest import PETSTORE_SPEC, fake_petstore_module
from tests.e2e.helpers import stdio_params
from tests.kit.upstream import RecordingUpstream, Reply
from tests.runtime.transports import kit as http_kit
from tests.runtime.transports.kit import ServerProcess

ALICE, BOB = "alice-mcp-token-0123456789", "bob-mcp-token-0123456789ab"
# a caller who has never signed in (the other two do, test by test)
ALICE_NEW = "dave-mcp-token-0123456789abc"
ALICE_KEY, BOB_KEY = "alice-api-key-S3CRET-1111", "bob-api-key-S3CRET-2222"
SERVER_KEY = "server-own-key-NEVER-SENT"
STORE_KEY = "6f" * 32
ERAS = ["auto", "legacy"]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("per-user") / "petstore-mcp"
    write_tree(
        generate(str(PETSTORE_SPEC), GenerateOptions()).files, out, force=False, marker=MARKER
    )
    return out


class Deployment:
    """One fake Petstore, a token store file, and the server process (restartable)."""

    def __init__(self, package: Path, store: Path) -> None:
        self.fake = fake_petstore_module().FakePetstore(api_key=None)
        self.fake.__enter__()
        self.store = store
        self.env = http_kit.server_env(
            package,
            self.fake.base_url,
            SERVER_KEY,
            PETSTORE_CREDENTIALS="per-user",
            PETSTORE_AUTH_TOKENS=f"{ALICE},{BOB},{ALICE_NEW}",
            PETSTORE_TOKEN_STORE=f"sqlite:///{store.as_posix().lstrip('/')}",
            PETSTORE_TOKEN_STORE_KEY=STORE_KEY,
            # every log line the server can write, to look for secrets in
            MCP_LOG_LEVEL="debug",
        )
        self.server = ServerProcess(self.env)
        self.logs: list[str] = []

    def restart(self) -> None:
        self.server.stop()
        self.logs += self.server.stderr
        self.server = ServerProcess(self.env)

    def keys_sent(self) -> list[str | None]:
        for request in self.fake.requests:
            # the MCP bearer token is never forwarded: per-user keys only, in their own header
            assert "authorization" not in request.headers
            assert not any(t in repr(request) for t in (ALICE, BOB, ALICE_NEW, SERVER_KEY))
        return [request.headers.get("x-api-key") for request in self.fake.requests]

    def close(self) -> None:
        self.server.stop()
        self.logs += self.server.stderr
        self.fake.__exit__(None, None, None)


@pytest.fixture(scope="module")
def deployment(package: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    store = tmp_path_factory.mktemp("store") / "tokens.db"
    running = Deployment(package, store)
    yield running
    running.close()
    # after every test of the module: no credential and no MCP token in a log line, and the
    # callers' MCP tokens never went to the API
    logs = "".join(running.logs)
    assert "per-user credentials stored for scheme api_key" in logs  # the log was on
    for secret in (ALICE_KEY, BOB_KEY, SERVER_KEY, ALICE, BOB, ALICE_NEW, STORE_KEY):
        assert secret not in logs


@contextlib.asynccontextmanager
async def client(url: str, token: str, mode: str, user: Any = None) -> AsyncIterator[Client]:
    """The official client over HTTP, sending ``token`` as its MCP bearer token."""
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        transport = streamable_http_client(url, http_client=http)
        callbacks = {} if user is None else {"elicitation_callback": user}
        async with Client(transport, mode=mode, **callbacks) as session:
            yield session


def complete_sign_in(url: str, mcp_token: str, api_key: str) -> httpx.Response:
    """What the person does in their browser: open the link, prove who they are, enter the key."""
    with httpx.Client(timeout=20, follow_redirects=False) as browser:
        page = browser.get(url)
        assert page.status_code == 200, page.text
        found = re.search(r'name="form_token" value="([^"]+)"', page.text)
        assert found is not None
        action = re.search(r'<form[^>]* action="([^"]+)"', page.text)
        assert action is not None
        target = httpx.URL(url).join(action.group(1))
        form = {"form_token": found.group(1), "mcp_token": mcp_token, "value": api_key}
        return browser.post(target, data=form)


class Person:
    """Answers the URL elicitation by completing the sign-in, then accepting."""

    def __init__(self, mcp_token: str, api_key: str) -> None:
        self.mcp_token, self.api_key = mcp_token, api_key
        self.links: list[types.ElicitRequestURLParams] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestURLParams), params
        self.links.append(params)
        done = complete_sign_in(params.url, self.mcp_token, self.api_key)
        assert done.status_code == 200 and "Connected" in done.text
        return types.ElicitResult(action="accept")


def mcp_error(caught: BaseException) -> MCPError:
    """The JSON-RPC error the client raised (inside the task groups it raises from)."""
    while isinstance(caught, BaseExceptionGroup):
        caught = caught.exceptions[0]
    assert isinstance(caught, MCPError), caught
    return caught


async def sign_in_link(call: Any) -> str:
    """The link of the ``-32042`` error a 2025-11-25 call answers with."""
    with pytest.raises(BaseException) as raised:
        await call
    error = mcp_error(raised.value)
    assert error.error.code == -32042, error
    (elicitation,) = error.error.data["elicitations"]
    assert elicitation["mode"] == "url" and elicitation["elicitationId"]
    return str(elicitation["url"])


async def call_get_pet(deployment: Deployment, token: str, mode: str, person: Any = None) -> Any:
    async with client(deployment.server.url, token, mode, person) as session:
        return await session.call_tool("get_pet_by_id", {"petId": 1})


async def test_modern_era_signs_in_through_input_required_and_the_retry_carries_the_key(
    deployment: Deployment,
) -> None:
    alice = Person(ALICE, ALICE_KEY)
    deployment.fake.clear()
    result = await call_get_pet(deployment, ALICE, "auto", alice)
    assert not result.is_error, result
    (link,) = alice.links
    assert link.url.startswith(deployment.server.url + "-signin/")
    assert ALICE not in link.url and ALICE_KEY not in link.url
    assert "credentials (api_key)" in link.message
    # the API saw alice's own key, once, and never the server's
    assert deployment.keys_sent() == [ALICE_KEY]


async def test_legacy_era_gets_32042_and_the_retry_after_sign_in_goes_through(
    deployment: Deployment,
) -> None:
    deployment.fake.clear()
    first = await sign_in_link(call_get_pet(deployment, BOB, "legacy", Person(BOB, BOB_KEY)))
    assert deployment.keys_sent() == []
    # a retry before the sign-in asks again, with a fresh link
    again = await sign_in_link(call_get_pet(deployment, BOB, "legacy", Person(BOB, BOB_KEY)))
    assert again != first and BOB not in again
    assert complete_sign_in(again, BOB, BOB_KEY).status_code == 200
    result = await call_get_pet(deployment, BOB, "legacy", Person(BOB, BOB_KEY))
    assert not result.is_error, result
    assert deployment.keys_sent() == [BOB_KEY]


async def test_a_client_without_url_elicitation_is_told_what_it_lacks(
    deployment: Deployment,
) -> None:
    deployment.fake.clear()
    with pytest.raises(BaseException) as raised:
        await call_get_pet(deployment, ALICE_NEW, "auto")
    error = mcp_error(raised.value).error
    assert error.code == -32021
    assert error.data == {"requiredCapabilities": {"elicitation": {"url": {}}}}
    legacy = await call_get_pet(deployment, ALICE_NEW, "legacy")
    assert legacy.is_error
    assert "cannot open sign-in links" in legacy.content[0].text  # type: ignore[union-attr]
    assert deployment.keys_sent() == []


async def test_a_caller_the_server_does_not_know_is_refused(deployment: Deployment) -> None:
    deployment.fake.clear()
    headers = {
        **http_kit.modern_headers("tools/call", "get_pet_by_id"),
        "authorization": "Bearer carol-mcp-token-0123456789",
    }
    body = http_kit.modern("tools/call", name="get_pet_by_id", arguments={"petId": 1})
    with httpx.Client() as http:
        refused = http.post(deployment.server.url, json=body, headers=headers)
    assert refused.status_code == 401
    assert deployment.keys_sent() == []


async def test_one_users_link_cannot_be_completed_by_another(deployment: Deployment) -> None:
    async def keep(context: Any, params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="decline")

    # a link made for bob's call, completed with alice's MCP token: refused, nothing stored
    deployment.fake.clear()

    async def list_orders() -> Any:
        async with client(deployment.server.url, BOB, "legacy", keep) as session:
            return await session.call_tool("list_orders", {})

    await revoke(deployment, BOB)
    url = await sign_in_link(list_orders())
    hijack = complete_sign_in(url, ALICE, ALICE_KEY)
    assert hijack.status_code == 403 and "Nothing was saved" in hijack.text
    # the link is spent, and a made-up one was never valid
    with httpx.Client() as browser:
        assert browser.get(url).status_code == 410
        assert browser.get(deployment.server.url + "-signin/made-up-nonce").status_code == 410
    assert deployment.keys_sent() == []


async def test_credentials_survive_a_restart_and_rest_encrypted(deployment: Deployment) -> None:
    deployment.restart()
    deployment.fake.clear()
    result = await call_get_pet(deployment, ALICE, "auto", Person(ALICE, "unused"))
    assert not result.is_error, result
    assert deployment.keys_sent() == [ALICE_KEY]
    raw = deployment.store.read_bytes()
    with sqlite3.connect(deployment.store) as db:
        rows = repr(db.execute("SELECT * FROM credentials").fetchall())
    for secret in (ALICE_KEY, BOB_KEY, ALICE, BOB, "token-"):
        assert secret.encode() not in raw and secret not in rows


async def revoke(deployment: Deployment, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client() as http:
        return http.post(deployment.server.url + "-signin/revoke", headers=headers)


async def test_revoking_forgets_only_the_callers_credentials(deployment: Deployment) -> None:
    assert (await revoke(deployment, None)).status_code == 401
    assert (
        complete_sign_in(
            await sign_in_link(call_get_pet(deployment, BOB, "legacy", Person(BOB, BOB_KEY))),
            BOB,
            BOB_KEY,
        ).status_code
        == 200
    )
    assert (await revoke(deployment, BOB)).json() == {"revoked": 1}
    deployment.fake.clear()
    await sign_in_link(call_get_pet(deployment, BOB, "legacy", Person(BOB, BOB_KEY)))
    result = await call_get_pet(deployment, ALICE, "auto", Person(ALICE, "unused"))
    assert not result.is_error and deployment.keys_sent() == [ALICE_KEY]


class EchoingApi(RecordingUpstream):
    """An API that puts the caller's key into its answer (as some do in error messages)."""

    def answer(self, request: Any) -> Reply:
        return Reply.json(200, {"id": 1, "name": f"key {request.header('x-api-key')} accepted"})


def test_a_callers_key_echoed_by_the_api_is_masked_in_the_result(
    package: Path, tmp_path: Path
) -> None:
    with EchoingApi() as api:
        env = http_kit.server_env(
            package,
            api.url,
            None,
            PETSTORE_CREDENTIALS="per-user",
            PETSTORE_AUTH_TOKENS=ALICE,
            PETSTORE_TOKEN_STORE=f"sqlite:///{(tmp_path / 't.db').as_posix().lstrip('/')}",
            PETSTORE_TOKEN_STORE_KEY=STORE_KEY,
        )
        server = ServerProcess(env)
        try:

            async def run() -> Any:
                return await call_get_pet_at(server.url, ALICE, Person(ALICE, ALICE_KEY))

            result = asyncio.run(run())
        finally:
            server.stop()
    assert not result.is_error, result
    text = result.content[0].text  # type: ignore[union-attr]
    assert ALICE_KEY not in text and "key *** accepted" in text
    (sent,) = api.requests
    assert sent.header("x-api-key") == ALICE_KEY


async def call_get_pet_at(url: str, token: str, person: Any) -> Any:
    async with client(url, token, "auto", person) as session:
        return await session.call_tool("get_pet_by_id", {"petId": 1})


@pytest.mark.parametrize(
    ("drop", "message"),
    [
        (
            "PETSTORE_AUTH_TOKENS",
            "PETSTORE_CREDENTIALS=per-user keeps credentials per caller, so callers must be "
            "authenticated: set PETSTORE_AUTH_TOKENS or PETSTORE_AUTH_JWKS_URL",
        ),
        (
            "PETSTORE_TOKEN_STORE_KEY",
            "PETSTORE_CREDENTIALS=per-user stores credentials encrypted: set "
            "PETSTORE_TOKEN_STORE_KEY",
        ),
    ],
)
def test_per_user_mode_refuses_to_start_without_what_it_needs(
    package: Path, tmp_path: Path, drop: str, message: str
) -> None:
    env = http_kit.server_env(
        package,
        "http://127.0.0.1:9",
        None,
        PETSTORE_CREDENTIALS="per-user",
        PETSTORE_AUTH_TOKENS=ALICE,
        PETSTORE_TOKEN_STORE=f"sqlite:///{(tmp_path / 't.db').as_posix().lstrip('/')}",
        PETSTORE_TOKEN_STORE_KEY=STORE_KEY,
    )
    del env[drop]
    with pytest.raises(AssertionError) as exited:
        ServerProcess(env)
    assert f"petstore-mcp: {message}\n" in str(exited.value)


def test_the_config_file_makes_per_user_the_generated_default(tmp_path: Path) -> None:
    config = tmp_path / "openapi2mcp.toml"
    config.write_text('[upstream]\ncredentials = "per-user"\n')
    out = tmp_path / "petstore-mcp"
    files = generate(str(PETSTORE_SPEC), GenerateOptions(config_path=config)).files
    write_tree(files, out, force=False, marker=MARKER)
    readme = (out / "README.md").read_text()
    assert "`PETSTORE_CREDENTIALS=per-user` (this server's default)" in readme
    env = http_kit.server_env(out, "http://127.0.0.1:9", None)
    with pytest.raises(AssertionError) as exited:
        ServerProcess(env)
    assert "PETSTORE_CREDENTIALS=per-user keeps credentials per caller" in str(exited.value)


async def test_stdio_keeps_the_environment_credentials(package: Path) -> None:
    with fake_petstore_module().FakePetstore(api_key=None) as fake:
        params = stdio_params(package, fake.base_url, SERVER_KEY)
        params.env = {**(params.env or {}), "PETSTORE_CREDENTIALS": "per-user"}
        async with Client(params, mode="auto") as session:
            result = await session.call_tool("get_pet_by_id", {"petId": 1})
        assert not result.is_error, result
        assert [r.headers.get("x-api-key") for r in fake.requests] == [SERVER_KEY]
