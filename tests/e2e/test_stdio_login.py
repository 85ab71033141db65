"""``<name>-mcp login`` then stdio, end to end: the generated package's own command line and server.

A package is generated from ``specs/notes-oauth.yaml`` (an ``oauth2`` scheme with an
authorization-code flow at the kit's fake authorization server on 127.0.0.1; ``GET /me`` needs it).
``python -m notes_mcp login --no-browser`` runs as a subprocess; the test plays the browser (opens the
URL it prints, the server approves as alice and redirects to the loopback callback). The stdio server
is then started by the official ``mcp`` client and the tool called: the recording upstream must get
alice's access token, not the one in the environment. A fresh data directory (no login) sends the
environment's token exactly as before.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.kit.oauth_server import OAuthServer
from tests.kit.upstream import RecordingUpstream, Reply

SPEC = Path(__file__).parent / "specs" / "notes-oauth.yaml"
CLIENT_ID = "notes-cli"
ENV_TOKEN = "env-token-NOT-alices"
ERAS = ["auto", "legacy"]


@pytest.fixture(scope="module")
def oauth() -> Iterator[OAuthServer]:
    with OAuthServer() as server:
        yield server


@pytest.fixture(scope="module")
def package(oauth: OAuthServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("notes")
    spec = where / "notes-oauth.yaml"
    text = SPEC.read_text(encoding="utf-8")
    text = text.replace("AUTHORIZATION_URL", oauth.authorization_url)
    spec.write_text(text.replace("TOKEN_URL", oauth.token_url), encoding="utf-8")
    out = where / "notes-mcp"
    write_tree(generate(str(spec), GenerateOptions()).files, out, force=False, marker=MARKER)
    return out


@pytest.fixture
def upstream() -> Iterator[RecordingUpstream]:
    with RecordingUpstream(Reply.json(200, {"user": "someone"})) as recording:
        yield recording


def environment(package: Path, home: Path, **extra: str) -> dict[str, str]:
    """The process environment: the package on the path, a data directory and home of the test's."""
    return {
        "PYTHONPATH": str(package / "src"),
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        **extra,
    }


async def run_login(oauth: OAuthServer, env: dict[str, str]) -> str:
    """``notes-mcp login --no-browser``, the browser played; what it wrote to stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "notes_mcp",
        "login",
        "--no-browser",
        "--timeout",
        "60",
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    said: list[str] = []
    try:
        async with asyncio.timeout(60):
            while not said or not said[-1].startswith("    http"):
                line = (await process.stderr.readline()).decode()
                assert line, "\n".join(said)
                said.append(line.rstrip("\n"))
            url = said[-1].strip()
            params = dict(parse_qsl(urlsplit(url).query))
            # an authorization server that accepts any port on 127.0.0.1 (RFC 8252 §7.3)
            oauth.register(CLIENT_ID, redirect_uris=[params["redirect_uri"]])
            async with httpx.AsyncClient(follow_redirects=True, timeout=30) as browser:
                page = await browser.get(url)
            out, err = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert page.status_code == 200 and "You can close this tab." in page.text
    assert process.returncode == 0, err.decode()
    assert out == b""
    return "\n".join(said) + "\n" + err.decode()


def stdio(package: Path, env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "notes_mcp"], env=env)


@pytest.mark.parametrize("mode", ERAS)
async def test_after_login_the_stdio_server_calls_the_api_with_alices_token(
    package: Path,
    oauth: OAuthServer,
    upstream: RecordingUpstream,
    tmp_path: Path,
    mode: str,
) -> None:
    env = environment(package, tmp_path, NOTES_OAUTH_CLIENT_ID=CLIENT_ID)
    said = await run_login(oauth, env)
    folder = tmp_path / "data" / "notes-mcp"
    assert f"Signed in: the oauth tokens are stored, encrypted, in {folder / 'tokens.db'}" in said
    alices = oauth.access_tokens_of("alice")[-1]
    assert oauth.user_of(alices) == "alice"

    # the MCP client's configuration has no client id, and an old token in the environment
    served = environment(
        package, tmp_path, NOTES_BASE_URL=upstream.url, NOTES_OAUTH_TOKEN=ENV_TOKEN
    )
    async with Client(stdio(package, served), mode=mode) as client:
        result = await client.call_tool("get_me", {})
    assert not result.is_error, result
    (request,) = upstream.requests
    assert (request.method, request.path) == ("GET", "/me")
    assert request.header("authorization") == f"Bearer {alices}"
    assert alices.encode() not in b"".join(p.read_bytes() for p in folder.iterdir())


async def test_without_login_the_environment_token_is_sent_as_before(
    package: Path, upstream: RecordingUpstream, tmp_path: Path
) -> None:
    served = environment(
        package, tmp_path, NOTES_BASE_URL=upstream.url, NOTES_OAUTH_TOKEN=ENV_TOKEN
    )
    async with Client(stdio(package, served)) as client:
        result = await client.call_tool("get_me", {})
    assert not result.is_error, result
    (request,) = upstream.requests
    assert request.header("authorization") == f"Bearer {ENV_TOKEN}"
    assert not (tmp_path / "data").exists()


async def test_logout_returns_the_server_to_the_environment_token(
    package: Path, oauth: OAuthServer, upstream: RecordingUpstream, tmp_path: Path
) -> None:
    env = environment(package, tmp_path, NOTES_OAUTH_CLIENT_ID=CLIENT_ID)
    await run_login(oauth, env)
    logout = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "notes_mcp",
        "logout",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await logout.communicate()
    assert (logout.returncode, out, err) == (0, b"", b"removed the stored tokens\n")
    served = environment(
        package, tmp_path, NOTES_BASE_URL=upstream.url, NOTES_OAUTH_TOKEN=ENV_TOKEN
    )
    async with Client(stdio(package, served)) as client:
        await client.call_tool("get_me", {})
    assert [r.header("authorization") for r in upstream.requests] == [f"Bearer {ENV_TOKEN}"]
