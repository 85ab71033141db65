"""Canary credentials never show: not in results, error messages, logs, stdout/stderr or generated files.

The upstream here is hostile in the most common way: it echoes the request (headers, URL) in its
error and success bodies. Every credential kind (API key in a header, in the query and in a cookie;
bearer token; Basic password) is a unique canary string, and each test asserts that no canary, in
any encoding, appears anywhere the server writes. Logs run at DEBUG so httpx's request lines, which
carry full URLs, are in scope.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.conftest import PETSTORE_SPEC
from tests.reliability import fault_server as fs
from tests.reliability.kit import (
    META,
    call_tool,
    catalog,
    operation,
    parameter,
    record,
    server,
    tool,
)

CANARIES = {
    "REL_HEADER_KEY": "canary-hdr-7d1e9a55b2",
    "REL_QUERY_KEY": "canary-qry/+=&?7c01",
    "REL_COOKIE_KEY": "canary-cke-40aa11f3",
    "REL_TOKEN": "canary-tok-eyJraWQi0011",
    "REL_PASSWORD": 'canary-pw:d8e7"\\x',
}
USER = "robot"


def _forms() -> list[str]:
    forms: list[str] = []
    for value in CANARIES.values():
        forms += [value, quote(value, safe=""), json.dumps(value)[1:-1]]
    basic = base64.b64encode(f"{USER}:{CANARIES['REL_PASSWORD']}".encode()).decode()
    return [*forms, basic]


def leaks(text: str) -> list[str]:
    return [form for form in _forms() if form in text]


def _catalog() -> Any:
    schemes = {
        "hdr": {
            "type": "apiKey",
            "location": "header",
            "name": "X-API-Key",
            "env": "REL_HEADER_KEY",
        },
        "qry": {"type": "apiKey", "location": "query", "name": "api_key", "env": "REL_QUERY_KEY"},
        "cke": {"type": "apiKey", "location": "cookie", "name": "sid", "env": "REL_COOKIE_KEY"},
        "tok": {"type": "bearer", "env": "REL_TOKEN"},
        "basic": {"type": "basic", "usernameEnv": "REL_USER", "passwordEnv": "REL_PASSWORD"},
    }
    ops = {
        f"{kind}_{name}": operation("GET", f"/{kind}", [parameter("q")], security=[[name]])
        for name in schemes
        for kind in ("echo_error", "echo_ok", "refused")
    }
    ops["all_echo_error"] = operation("GET", "/echo_error", security=[["hdr", "qry", "cke", "tok"]])
    tools = [tool(name, {"q": {"type": "string"}}) for name in ops]
    return catalog(ops, tools, schemes=schemes)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        fake.script["/echo_error"] = fs.echo_headers(401)
        fake.script["/echo_ok"] = fs.echo_json
        fake.script["/refused"] = fs.reset_before_reply
        yield fake


async def test_credentials_stay_out_of_results_messages_and_logs(
    upstream: fs.FaultServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    env = {
        "REL_BASE_URL": upstream.url,
        "REL_USER": USER,
        "REL_RETRIES": "0",
        "REL_RATE_LIMIT": "0",
        **CANARIES,
    }
    cat = _catalog()
    srv = server(cat, env)
    replies = []
    try:
        for i, name in enumerate(cat["toolBindings"]):
            replies.append(await call_tool(srv, name, {"q": "x"}, i))
    finally:
        await srv.aclose()
    # the upstream really did receive (and echo) every credential
    received = "\n".join(json.dumps(r.headers) + r.target for r in upstream.requests)
    assert len(leaks(received)) >= len(CANARIES)
    everything = json.dumps(replies) + "\n".join(r.getMessage() for r in caplog.records)
    assert any("HTTP Request: GET" in r.getMessage() for r in caplog.records)  # httpx did log
    assert leaks(everything) == []
    error_texts = [
        block["text"]
        for reply in replies
        if reply["result"].get("isError")
        for block in reply["result"]["content"]
    ]
    assert any("x-api-key: ***" in text for text in error_texts)
    assert any("authorization: Bearer ***" in text for text in error_texts)
    record(
        "secrets",
        f"in-process: {len(replies)} tool calls with 5 canary credentials echoed by the upstream; "
        f"leaks in results, messages and DEBUG logs: {len(leaks(everything))}",
    )


def test_generated_server_never_shows_its_key(petstore_package: Path, tmp_path: Path) -> None:
    """The generated Petstore over stdio: stdout and stderr (logs at DEBUG) carry no canary."""
    key = CANARIES["REL_HEADER_KEY"]
    with fs.FaultServer() as fake:
        fake.script["/v1/pets/1"] = fs.echo_headers(403)
        fake.script["/v1/pets"] = fs.echo_json
        fake.script["/v1/store/inventory"] = fs.echo_headers(500)
        lines = [
            {"jsonrpc": "2.0", "id": i, "method": method, "params": {"_meta": META, **params}}
            for i, (method, params) in enumerate(
                [
                    ("tools/call", {"name": "get_pet_by_id", "arguments": {"petId": 1}}),
                    ("tools/call", {"name": "list_pets", "arguments": {"limit": 5}}),
                    ("tools/call", {"name": "get_inventory", "arguments": {}}),
                    ("resources/read", {"uri": "petstore://pets/1"}),
                    ("resources/read", {"uri": "petstore://pets"}),
                    ("resources/read", {"uri": "petstore://store/inventory"}),
                ]
            )
        ]
        env = {
            "PYTHONPATH": str(petstore_package / "src"),
            "PATH": os.environ.get("PATH", ""),
            "PETSTORE_BASE_URL": fake.url + "/v1",
            "PETSTORE_API_KEY": key,
            "PETSTORE_RETRIES": "0",
            "MCP_LOG_LEVEL": "DEBUG",
        }
        done = subprocess.run(
            [sys.executable, "-m", "petstore_mcp"],
            input=b"".join(json.dumps(line).encode() + b"\n" for line in lines),
            capture_output=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
            check=False,
        )
        echoed = "\n".join(json.dumps(r.headers) for r in fake.requests)
    assert done.returncode == 0, done.stderr.decode()
    stdout, stderr = done.stdout.decode(), done.stderr.decode()
    replies = [json.loads(line) for line in stdout.splitlines()]
    assert sorted(reply["id"] for reply in replies) == list(range(len(lines)))
    assert key in echoed
    assert "HTTP Request: GET" in stderr
    assert leaks(stdout) == [] and leaks(stderr) == []
    assert "x-api-key: ***" in stdout
    record(
        "secrets",
        f"generated Petstore over stdio: {len(lines)} calls, leaks in stdout {len(leaks(stdout))}, "
        f"in stderr (DEBUG logs) {len(leaks(stderr))}",
    )


def test_generated_files_hold_no_credentials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PETSTORE_API_KEY", CANARIES["REL_HEADER_KEY"])
    monkeypatch.setenv("PETSTORE_TOKEN", CANARIES["REL_TOKEN"])
    result = generate(str(PETSTORE_SPEC), GenerateOptions())
    out = tmp_path / "out"
    write_tree(result.files, out, force=False, marker=MARKER)
    texts = [p.read_text("utf-8", "replace") for p in out.rglob("*") if p.is_file()]
    diagnostics = "\n".join(str(d) for d in result.report.diagnostics)
    assert leaks("\n".join(texts) + diagnostics) == []
