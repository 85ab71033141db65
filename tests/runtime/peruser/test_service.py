"""The sign-in links of per-user mode, driven through the pages' ASGI app with a fake clock."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from templates.runtime.catalog.model import OperationSpec, UpstreamInfo
from templates.runtime.peruser.sealing import Credential
from templates.runtime.peruser.service import LINK_SECONDS, PerUser, SignIn
from templates.runtime.peruser.store import open_store
from tests.runtime.upstream_kit import PASSWORD_SCHEME

from .conftest import KEY, FakeClock

ALICE = ("https://idp.example.com", "alice")
INFO: UpstreamInfo = {
    "baseUrl": "https://api.example.com",
    "baseUrlEnv": "P_BASE_URL",
    "timeoutEnv": "P_TIMEOUT",
    "timeoutSeconds": 30.0,
    "securitySchemes": {
        "key": {"type": "apiKey", "location": "header", "name": "K", "env": "P_KEY"}
    },
}
SPEC: OperationSpec = {
    "method": "GET",
    "path": "/things",
    "parameters": [],
    "security": [["key"]],
    "responseMediaType": "application/json",
}


async def _verify(token: str) -> tuple[str, str] | None:
    return ALICE if token == "alice-mcp-token" else None


async def _service(tmp_path: Path, clock: FakeClock) -> PerUser:
    store = await open_store(
        f"sqlite:///{(tmp_path / 't.db').as_posix().lstrip('/')}", KEY, clock=clock
    )
    return PerUser(
        INFO,
        store,
        verify=_verify,
        public_url="https://mcp.example.com/mcp",
        api="Things",
        environ={"P_KEY": "the-servers-own-key"},
        clock=clock,
    )


def _browser(service: PerUser) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=service.asgi)  # type: ignore[arg-type]
    return httpx.AsyncClient(transport=transport, base_url="https://mcp.example.com")


async def test_a_link_older_than_its_lifetime_is_refused(tmp_path: Path) -> None:
    clock = FakeClock()
    service = await _service(tmp_path, clock)
    link = await service.credentials(ALICE, SPEC)
    assert isinstance(link, SignIn)
    clock.advance(LINK_SECONDS + 1)
    async with _browser(service) as browser:
        page = await browser.get(link.url)
    assert page.status_code == 410 and "This link has expired" in page.text
    await service.aclose()


async def test_a_link_within_its_lifetime_opens_and_stores_nothing_until_submitted(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    service = await _service(tmp_path, clock)
    link = await service.credentials(ALICE, SPEC)
    assert isinstance(link, SignIn)
    assert link.url.startswith("https://mcp.example.com/mcp-signin/")
    clock.advance(LINK_SECONDS - 1)
    async with _browser(service) as browser:
        page = await browser.get(link.url)
    assert page.status_code == 200 and 'name="form_token"' in page.text
    # the server's own key is never the caller's: still no credentials for alice
    assert isinstance(await service.credentials(ALICE, SPEC), SignIn)
    await service.aclose()


async def test_the_server_environment_never_satisfies_a_caller(tmp_path: Path) -> None:
    service = await _service(tmp_path, FakeClock())
    anonymous_too: Any = {**SPEC, "security": [["key"], []]}
    # with an anonymous alternative the call goes out without credentials, not with the server's
    assert await service.credentials(ALICE, anonymous_too) == {}
    await service.aclose()


PASSWORD_INFO: UpstreamInfo = {
    **INFO,
    "securitySchemes": {"signin": PASSWORD_SCHEME},
}


async def test_a_password_sign_in_scheme_takes_each_users_own_access_token(tmp_path: Path) -> None:
    # FastAPI's OAuth2PasswordBearer: per user, the server never signs in as the operator's account
    clock = FakeClock()
    store = await open_store(
        f"sqlite:///{(tmp_path / 't.db').as_posix().lstrip('/')}", KEY, clock=clock
    )
    service = PerUser(
        PASSWORD_INFO,
        store,
        verify=_verify,
        public_url="https://mcp.example.com/mcp",
        api="Things",
        environ={"P_SIGNIN_USERNAME": "operator", "P_SIGNIN_PASSWORD": "operators-password"},
        clock=clock,
    )
    spec: OperationSpec = {**SPEC, "security": [["signin"]]}
    link = await service.credentials(ALICE, spec)
    assert isinstance(link, SignIn)
    async with _browser(service) as browser:
        page = await browser.get(link.url)
    assert page.status_code == 200
    assert 'name="token"' in page.text and 'name="password"' not in page.text
    await store.put(_Owner(*ALICE), "signin", Credential("bearer", {"token": "alices-token"}))
    assert await service.credentials(ALICE, spec) == {"P_SIGNIN_TOKEN": "alices-token"}
    await service.aclose()


@dataclass(frozen=True)
class _Owner:
    issuer: str
    subject: str
