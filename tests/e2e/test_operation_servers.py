"""Servers: variables set from the environment (checked against their enums), and per-path and
per-operation ``servers`` that send an operation's request somewhere else than the base URL.

One generated spec exercises every rule; its catalog drives a server in process (and the generated
package once over stdio) against a recording upstream on 127.0.0.1, whose port reaches the spec
through the ``{port}`` server variable.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from templates.runtime.server import SettingsError
from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import META, call_tool, server, texts

DOCUMENT_SERVER = "http://127.0.0.1:{port}/{version}"
UPLOADS_SERVER = "http://{host}:{port}/uploads"
TENANT_SERVER = "http://127.0.0.1:{port}/t/{tenant}"
PORT_VARIABLE = {"default": "1", "description": "Port of the API"}


def _get(operation_id: str, **extra: Any) -> dict[str, Any]:
    return {"operationId": operation_id, "responses": {"204": {"description": "done"}}, **extra}


SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Atlas", "version": "1.0.0"},
    "servers": [
        {
            "url": DOCUMENT_SERVER,
            "variables": {
                "port": PORT_VARIABLE,
                "version": {"default": "v1", "enum": ["v1", "v2"]},
            },
        }
    ],
    "paths": {
        "/things": {"get": _get("listThings")},
        "/reports": {
            # a relative path-level server: resolved against the base URL, path replaced
            "servers": [{"url": "/reporting"}],
            "get": _get("listReports"),
            # the operation's own servers replace its path's
            "post": _get("runReport", servers=[{"url": "batch"}]),
        },
        "/files": {
            "get": _get(
                "listFiles",
                servers=[
                    {
                        "url": UPLOADS_SERVER,
                        "variables": {
                            "host": {"default": "127.0.0.1", "enum": ["127.0.0.1", "::1"]},
                            "port": PORT_VARIABLE,
                        },
                    }
                ],
            )
        },
        "/members": {
            "get": _get(
                "listMembers",
                servers=[{"url": TENANT_SERVER, "variables": {"port": PORT_VARIABLE}}],
            )
        },
    },
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("servers"), SPEC, "atlas-mcp")


@pytest.fixture(scope="module")
def catalog(package: Path) -> dict[str, Any]:
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        yield fake


def _port(fake: fs.FaultServer) -> str:
    return fake.url.rsplit(":", 1)[1]


async def _call(
    catalog: dict[str, Any],
    env: dict[str, str],
    *names: str,
    arguments: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    srv = server(catalog, {"ATLAS_RETRIES": "0", **env})  # type: ignore[arg-type]
    try:
        return [await call_tool(srv, name, arguments or {}, i) for i, name in enumerate(names)]
    finally:
        await srv.aclose()


def test_the_catalog_keeps_the_servers_as_declared(package: Path, catalog: dict[str, Any]) -> None:
    upstream = catalog["upstream"]
    assert upstream["baseUrl"] == "http://127.0.0.1:1/v1"
    assert upstream["server"] == {
        "url": DOCUMENT_SERVER,
        "variables": {
            "port": {"env": "ATLAS_SERVER_PORT", "default": "1"},
            "version": {"env": "ATLAS_SERVER_VERSION", "default": "v1", "enum": ["v1", "v2"]},
        },
    }
    operations = catalog["operations"]
    assert "server" not in operations["listThings"]
    assert operations["listReports"]["server"] == {"url": "/reporting"}
    assert operations["runReport"]["server"] == {"url": "batch"}
    assert operations["listMembers"]["server"] == {
        "url": TENANT_SERVER,
        "variables": {
            "port": {"env": "ATLAS_SERVER_PORT", "default": "1"},
            "tenant": {"env": "ATLAS_SERVER_TENANT"},
        },
    }
    readme = (package / "README.md").read_text()
    for name in ("PORT", "VERSION", "HOST", "TENANT", "URLS"):
        assert f"| `ATLAS_SERVER_{name}` |" in readme
    assert "one of v1, v2; not used when ATLAS\\_BASE\\_URL is set" in readme
    assert "(default: none; only for the operations that declare this server) |" in readme


async def test_each_operation_goes_to_its_server(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    env = {
        "ATLAS_SERVER_PORT": _port(upstream),
        "ATLAS_SERVER_VERSION": "v2",
        "ATLAS_SERVER_TENANT": "acme",
    }
    names = ("list_things", "list_reports", "run_report", "list_files", "list_members")
    replies = await _call(catalog, env, *names)
    assert [r["result"].get("isError", False) for r in replies] == [False] * 5
    assert [(r.method, r.target) for r in upstream.requests] == [
        ("GET", "/v2/things"),
        ("GET", "/reporting/reports"),  # "/reporting" replaces the base URL's path
        ("POST", "/v2/batch/reports"),  # "batch" is appended to it
        ("GET", "/uploads/files"),
        ("GET", "/t/acme/members"),
    ]
    assert {r.headers["host"] for r in upstream.requests} == {f"127.0.0.1:{_port(upstream)}"}


async def test_a_value_outside_the_enum_names_the_variable_and_the_values(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    # the document's server: checked at start-up
    env = {"ATLAS_SERVER_PORT": _port(upstream), "ATLAS_SERVER_VERSION": "v3"}
    with pytest.raises(SettingsError) as refused:
        await _call(catalog, env, "list_things")
    assert str(refused.value) == (
        f"ATLAS_SERVER_VERSION is 'v3', which the server URL {DOCUMENT_SERVER} does not allow "
        "for {version}; allowed values: v1, v2"
    )
    # an operation's own server: checked when that operation is called
    host = {"ATLAS_SERVER_PORT": _port(upstream), "ATLAS_SERVER_HOST": "evil.example"}
    (reply,) = await _call(catalog, host, "list_files")
    assert texts(reply) == (
        f"ATLAS_SERVER_HOST is 'evil.example', which the server URL {UPLOADS_SERVER} does not "
        "allow for {host}; allowed values: 127.0.0.1, ::1"
    )
    assert upstream.requests == []


async def test_a_variable_without_default_must_be_set(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    (reply,) = await _call(catalog, {"ATLAS_SERVER_PORT": _port(upstream)}, "list_members")
    assert texts(reply) == (
        f"the server URL {TENANT_SERVER} needs a value for {{tenant}}: set ATLAS_SERVER_TENANT"
    )
    assert upstream.requests == []


async def test_server_urls_send_an_operations_own_server_elsewhere(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    # <PREFIX>_SERVER_URLS: the declared URL (variables and all) -> a URL; no variable needed then
    moved = {TENANT_SERVER: f"{upstream.url}/moved"}
    env = {"ATLAS_SERVER_PORT": _port(upstream), "ATLAS_SERVER_URLS": json.dumps(moved)}
    (reply,) = await _call(catalog, env, "list_members")
    assert reply["result"].get("isError", False) is False
    assert [(r.method, r.target) for r in upstream.requests] == [("GET", "/moved/members")]
    (reply,) = await _call(catalog, {**env, "ATLAS_SERVER_URLS": "[1]"}, "list_members")
    assert texts(reply) == (
        "ATLAS_SERVER_URLS must be a JSON object of server URLs as the spec declares them to "
        'URLs, e.g. {"https://uploads.example.com": "http://127.0.0.1:8080"}'
    )
    assert len(upstream.requests) == 1


async def test_the_base_url_variable_replaces_only_the_documents_server(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    env = {
        "ATLAS_BASE_URL": upstream.url + "/custom/api",
        # the document's variables no longer apply; an operation's own server still uses them
        "ATLAS_SERVER_VERSION": "v3",
        "ATLAS_SERVER_PORT": _port(upstream),
    }
    names = ("list_things", "list_reports", "run_report", "list_files")
    replies = await _call(catalog, env, *names)
    assert [r["result"].get("isError", False) for r in replies] == [False] * 4
    assert [r.target for r in upstream.requests] == [
        "/custom/api/things",
        "/reporting/reports",
        "/custom/api/batch/reports",
        "/uploads/files",
    ]


async def test_arguments_cannot_leave_the_operations_server(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    spec = json.loads(json.dumps(catalog))
    spec["operations"]["listFiles"]["path"] = "/files/{name}"
    spec["operations"]["listFiles"]["parameters"] = [
        {
            "name": "name",
            "location": "path",
            "argument": "name",
            "required": True,
            "style": "simple",
            "explode": False,
        }
    ]
    tool = next(t for t in spec["tools"] if t["name"] == "list_files")
    tool["inputSchema"] = {"type": "object", "properties": {"name": {"type": "string"}}}
    env = {"ATLAS_SERVER_PORT": _port(upstream)}
    (reply,) = await _call(spec, env, "list_files", arguments={"name": "@evil.example/x"})
    assert upstream.requests[0].target == "/uploads/files/%40evil.example%2Fx"
    assert reply["result"].get("isError", False) is False


def test_the_generated_package_uses_the_server_variables_over_stdio(
    package: Path, upstream: fs.FaultServer, tmp_path: Path
) -> None:
    calls = [
        {
            "jsonrpc": "2.0",
            "id": i,
            "method": "tools/call",
            "params": {"_meta": META, "name": name, "arguments": {}},
        }
        for i, name in enumerate(("list_things", "list_files"))
    ]
    env = {
        "PYTHONPATH": str(package / "src"),
        "PATH": os.environ.get("PATH", ""),
        "ATLAS_SERVER_PORT": _port(upstream),
        "ATLAS_SERVER_VERSION": "v2",
    }
    done = subprocess.run(
        [sys.executable, "-m", "atlas_mcp"],
        input=b"".join(json.dumps(call).encode() + b"\n" for call in calls),
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["result"].get("isError", False) for r in replies] == [False, False]
    assert sorted(r.target for r in upstream.requests) == ["/uploads/files", "/v2/things"]
