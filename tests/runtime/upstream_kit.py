"""The upstream-client tests' kit: the kit's recording upstream answering from a queue (``FakeApi``),
the ``api``/``make`` fixtures (conftest imports them) and builders for operation specs.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest

from templates.runtime.catalog.model import (
    OAuth2PasswordScheme,
    OperationSpec,
    ParameterSpec,
    UpstreamInfo,
)
from templates.runtime.upstream.client import Upstream, UpstreamResponse
from tests.kit.upstream import JSON, RecordingUpstream, Reply, Request

API_KEY = "k3y-S3CRET"
TOKEN = "t0ken-S3CRET"
USER, PASSWORD = "alice", "pa:ss-S3CRET"

# FastAPI's OAuth2PasswordBearer as the catalog describes it (the scheme tests and per-user mode's)
PASSWORD_SCHEME: OAuth2PasswordScheme = {
    "type": "oauth2Password",
    "tokenUrl": "token",
    "usernameEnv": "P_SIGNIN_USERNAME",
    "passwordEnv": "P_SIGNIN_PASSWORD",
    "clientIdEnv": "P_SIGNIN_CLIENT_ID",
    "clientSecretEnv": "P_SIGNIN_CLIENT_SECRET",
    "env": "P_SIGNIN_TOKEN",
}

INFO: UpstreamInfo = {
    "baseUrl": "https://api.example.com",
    "baseUrlEnv": "PET_BASE_URL",
    "timeoutEnv": "PET_TIMEOUT",
    "timeoutSeconds": 30.0,
    "securitySchemes": {
        "headerKey": {
            "type": "apiKey",
            "location": "header",
            "name": "X-API-Key",
            "env": "PET_API_KEY",
        },
        "queryKey": {
            "type": "apiKey",
            "location": "query",
            "name": "api_key",
            "env": "PET_QUERY_KEY",
        },
        "cookieKey": {"type": "apiKey", "location": "cookie", "name": "sid", "env": "PET_SID"},
        # slurmrestd's pair: the user's name beside the user's token
        "userName": {
            "type": "apiKey",
            "location": "header",
            "name": "X-User-Name",
            "env": "PET_USER_NAME_KEY",
            "identity": True,
        },
        "bearer": {"type": "bearer", "env": "PET_TOKEN"},
        "basic": {"type": "basic", "usernameEnv": "PET_USER", "passwordEnv": "PET_PASSWORD"},
    },
}


def param(
    name: str,
    location: str = "query",
    *,
    style: str = "",
    explode: bool | None = None,
    argument: str | None = None,
    required: bool = False,
    allow_reserved: bool = False,
) -> ParameterSpec:
    default_style = {"path": "simple", "query": "form", "header": "simple", "cookie": "form"}
    style = style or default_style[location]
    spec: ParameterSpec = {
        "name": name,
        "location": location,  # type: ignore[typeddict-item]
        "argument": argument or name,
        "required": required or location == "path",
        "style": style,
        "explode": (style == "form") if explode is None else explode,
    }
    if allow_reserved:
        spec["allowReserved"] = True
    return spec


def op(
    method: str = "GET",
    path: str = "/pets",
    parameters: list[ParameterSpec] | None = None,
    *,
    body: dict[str, Any] | None = None,
    security: list[list[str]] | None = None,
    media: str = "application/json",
) -> OperationSpec:
    spec: OperationSpec = {
        "method": method,
        "path": path,
        "parameters": parameters or [],
        "security": security or [],
        "responseMediaType": media,
        "pointer": f"#/paths/{path}/{method.lower()}",
    }
    if body is not None:
        spec["body"] = body  # type: ignore[typeddict-item]
    return spec


# -- the recording upstream, answering from a queue ---------------------------------------------


class FakeApi(RecordingUpstream):
    """Answers the queued ``reply`` calls in order, then ``200 {"ok":true}``; ``slow`` answers nothing."""

    def __init__(self) -> None:
        super().__init__(Reply(200, b'{"ok":true}', JSON))
        self.replies: list[Reply] = []
        self.slow = False

    def reply(
        self, status: int = 200, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> None:
        self.replies.append(Reply(status, body, tuple((headers or {}).items())))

    def answer(self, request: Request) -> Reply | None:
        if self.slow:
            return None
        return self.replies.pop(0) if self.replies else self.canned


@contextlib.contextmanager
def fake_api() -> Iterator[FakeApi]:
    """A recording server on a free port of 127.0.0.1 (a second one is another origin)."""
    with FakeApi() as fake:
        yield fake


@pytest.fixture
def api() -> Iterator[FakeApi]:
    with fake_api() as fake:
        yield fake


Make = Callable[..., Upstream]


@pytest.fixture
async def make(api: FakeApi) -> AsyncIterator[Make]:
    made: list[Upstream] = []

    def build(
        operations: dict[str, OperationSpec],
        environ: dict[str, str] | None = None,
        *,
        info: UpstreamInfo = INFO,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> Upstream:
        upstream = Upstream(
            info,
            operations,
            environ={"PET_BASE_URL": api.url, **(environ or {})},
            user_agent="petstore-mcp/1.0",
            transport=transport,
        )
        made.append(upstream)
        return upstream

    yield build
    for upstream in made:
        await upstream.aclose()


async def call(
    make: Make, spec: OperationSpec, arguments: dict[str, Any], **kw: Any
) -> UpstreamResponse:
    return await make({"op": spec}, **kw).call("op", arguments)
