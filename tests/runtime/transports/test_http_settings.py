"""HTTP settings from the environment, the Origin allow-list, and the ``http`` command line."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from templates.runtime.server import Settings, SettingsError
from templates.runtime.transports.http_origins import (
    DEFAULT_ALLOWED_ORIGINS,
    OriginPolicy,
    parse_allowed_origins,
)
from tests.runtime.transports.conftest import AppFactory, petstore_catalog
from tests.runtime.transports.kit import TIMEOUT, ServerProcess, modern, modern_headers, server_env

DISCOVER = json.dumps(modern("server/discover")).encode()
DISCOVER_HEADERS = modern_headers("server/discover")


def settings(package: Path, **env: str) -> Settings:
    return Settings.from_env(petstore_catalog(package), env)


def test_http_settings_default(petstore_package: Path) -> None:
    loaded = settings(petstore_package)
    assert loaded.env_prefix == "PETSTORE"
    assert loaded.allowed_origins == DEFAULT_ALLOWED_ORIGINS
    assert loaded.max_body_bytes == 4 * 1024 * 1024
    assert loaded.public_url is None


def test_http_settings_from_the_environment(petstore_package: Path) -> None:
    loaded = settings(
        petstore_package,
        PETSTORE_ALLOWED_ORIGINS="https://app.example.com, http://localhost:*\thttps://[::1]:8443",
        PETSTORE_MAX_BODY_BYTES="65536",
        PETSTORE_PUBLIC_URL="https://mcp.example.com/mcp",
    )
    assert loaded.allowed_origins == (
        "https://app.example.com",
        "http://localhost:*",
        "https://[::1]:8443",
    )
    assert loaded.max_body_bytes == 65536
    assert loaded.public_url == "https://mcp.example.com/mcp"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "PETSTORE_ALLOWED_ORIGINS",
            "app.example.com",
            "PETSTORE_ALLOWED_ORIGINS: not an origin: 'app.example.com'",
        ),
        (
            "PETSTORE_ALLOWED_ORIGINS",
            "https://x.example/path",
            "PETSTORE_ALLOWED_ORIGINS: not an origin: 'https://x.example/path'",
        ),
        (
            "PETSTORE_MAX_BODY_BYTES",
            "lots",
            "PETSTORE_MAX_BODY_BYTES must be a positive number of bytes, got 'lots'",
        ),
        (
            "PETSTORE_MAX_BODY_BYTES",
            "0",
            "PETSTORE_MAX_BODY_BYTES must be a positive number of bytes, got '0'",
        ),
        (
            "PETSTORE_PUBLIC_URL",
            "mcp.example.com/mcp",
            "PETSTORE_PUBLIC_URL must be an absolute http(s) URL without a fragment",
        ),
    ],
)
def test_unusable_http_settings_name_their_variable(
    petstore_package: Path, name: str, value: str, message: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        settings(petstore_package, **{name: value})
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("https://app.example.com", True),
        ("https://app.example.com:443", True),
        ("https://APP.example.com", True),
        ("https://app.example.com:8443", False),
        ("http://app.example.com", False),
        ("https://app.example.com.evil.example", False),
        ("http://localhost:3000", True),
        ("https://localhost:3000", False),
        ("null", False),
        ("", False),
        (None, True),
    ],
)
def test_origin_patterns(origin: str | None, allowed: bool) -> None:
    policy = OriginPolicy(parse_allowed_origins("https://app.example.com http://localhost:*"))
    assert policy.allows(origin) is allowed


def test_a_star_allows_every_origin() -> None:
    assert OriginPolicy(["*"]).allows("https://anything.example:1234")


@pytest.fixture
async def configured(make_app: AppFactory) -> AsyncIterator[httpx.AsyncClient]:
    app = make_app(
        PETSTORE_ALLOWED_ORIGINS="https://app.example.com", PETSTORE_MAX_BODY_BYTES="300"
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        yield client


async def test_the_configured_origins_replace_the_default(configured: httpx.AsyncClient) -> None:
    ok = await configured.post(
        "/mcp", content=DISCOVER, headers={**DISCOVER_HEADERS, "origin": "https://app.example.com"}
    )
    assert ok.status_code == 200
    local = await configured.post(
        "/mcp", content=DISCOVER, headers={**DISCOVER_HEADERS, "origin": "http://localhost:3000"}
    )
    assert local.status_code == 403


async def test_the_configured_body_limit_applies_with_and_without_content_length(
    configured: httpx.AsyncClient,
) -> None:
    big = json.dumps(modern("server/discover", padding="x" * 300)).encode()
    declared = await configured.post("/mcp", content=big, headers=DISCOVER_HEADERS)
    assert declared.status_code == 413

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(big), 100):
            yield big[start : start + 100]

    streamed = await configured.post("/mcp", content=chunks(), headers=DISCOVER_HEADERS)
    assert "content-length" not in streamed.request.headers
    assert streamed.status_code == 413
    assert streamed.json()["error"]["message"] == "Payload Too Large: the limit is 300 bytes"
    small = await configured.post("/mcp", content=DISCOVER, headers=DISCOVER_HEADERS)
    assert small.status_code == 200


# -- the command line ---------------------------------------------------------------------------


def run_cli(package: Path, *args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "petstore_mcp", *args],
        input=b"",
        capture_output=True,
        timeout=TIMEOUT,
        env=server_env(package, "http://127.0.0.1:9/v1", None, **env),
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["http", "--port", "70000"], "not a port number: '70000'"),
        (["http", "--port", "-1"], "not a port number: '-1'"),
        (["http", "--path", "mcp"], "not an endpoint path: 'mcp'"),
        (["http", "--path", "/mcp?x=1"], "not an endpoint path: '/mcp?x=1'"),
    ],
)
def test_bad_http_arguments_are_usage_errors(
    petstore_package: Path, args: list[str], complaint: str
) -> None:
    done = run_cli(petstore_package, *args)
    assert done.returncode == 2
    assert done.stdout == b""
    assert complaint in done.stderr.decode()


def test_an_address_in_use_is_reported(petstore_package: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = run_cli(petstore_package, "http", "--port", str(port))
    assert done.returncode == 1
    assert done.stderr.decode().startswith(f"petstore-mcp: cannot listen on 127.0.0.1:{port}: ")


def test_a_bad_http_setting_is_reported(petstore_package: Path) -> None:
    done = run_cli(petstore_package, "http", "--port", "0", PETSTORE_MAX_BODY_BYTES="lots")
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "petstore-mcp: PETSTORE_MAX_BODY_BYTES must be a positive number of bytes, got 'lots'\n"
    )


def test_uvicorn_is_needed_only_for_http(petstore_package: Path, tmp_path: Path) -> None:
    broken = tmp_path / "uvicorn"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('uvicorn is not installed here')\n")
    path = f"{tmp_path}:{petstore_package / 'src'}"
    http = run_cli(petstore_package, "http", "--port", "0", PYTHONPATH=path)
    assert http.returncode == 1
    assert http.stderr.decode() == (
        "petstore-mcp: the HTTP transport needs uvicorn: install this server with its 'http' extra\n"
    )
    stdio = run_cli(petstore_package, PYTHONPATH=path)
    assert (stdio.returncode, stdio.stdout, stdio.stderr) == (0, b"", b"")


async def test_a_custom_path_is_the_only_endpoint(
    petstore_package: Path, fake_petstore: Any
) -> None:
    env = server_env(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    server = ServerProcess(env, "--path", "/api/v2/mcp")
    try:
        assert server.url.endswith("/api/v2/mcp")
        async with httpx.AsyncClient(timeout=TIMEOUT) as client:
            served = await client.post(server.url, content=DISCOVER, headers=DISCOVER_HEADERS)
            assert served.status_code == 200
            other = await client.post(
                server.url.replace("/api/v2/mcp", "/mcp"),
                content=DISCOVER,
                headers=DISCOVER_HEADERS,
            )
            assert other.status_code == 404
    finally:
        server.stop()


def test_the_stdio_path_loads_neither_the_http_app_nor_uvicorn(petstore_package: Path) -> None:
    probe = (
        "import sys, petstore_mcp.__main__, petstore_mcp.server\n"
        "petstore_mcp.server.build_server()\n"
        "print(sorted(m for m in sys.modules if m == 'uvicorn' or m.startswith(('petstore_mcp._runtime.transports.http', "
        "'petstore_mcp._runtime.auth.bearer'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        timeout=TIMEOUT,
        env=server_env(petstore_package, "http://127.0.0.1:9/v1", None),
        check=True,
    )
    # only the constants the settings need: the endpoint's defaults and the Origin allow-list
    assert json.loads(done.stdout.decode().replace("'", '"')) == [
        "petstore_mcp._runtime.transports.http_origins",
        "petstore_mcp._runtime.transports.http_responses",
    ]
