"""GitHub's own documented example responses, through every tool of the GitHub server in full mode.

The published GitHub document (npm ``@octokit/openapi``, pinned) is generated with one tool per
operation; a fake GitHub on 127.0.0.1 answers each request with the example GitHub documents for
that operation's success response. Every tool is called once through the official MCP client
(2026-07-28, stdio) with arguments made from its advertised ``inputSchema``. A 2xx is never a
failure: no tool whose upstream answered 2xx may come back with ``isError``, and the client (which
checks ``structuredContent`` against the advertised ``outputSchema``) must accept every result.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from jsonschema import Draft202012Validator, FormatChecker  # type: ignore[import-untyped]
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import TextContent, Tool

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.examples import NoExample, example_instance
from openapi2mcp.render.package import MARKER
from tests.bigapi.github_examples import (
    DOWNLOAD,
    DOWNLOADS,
    FakeGitHub,
    Kind,
    Router,
    fetch_spec,
    loopback_overlay,
)
from tests.catalogs import read_catalog

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".work" / "cache" / "octokit"
MODULE = "github_mcp"
CONCURRENCY = 6
# the runtime's message when it could not connect; anything but the fake means a leak
LEFT_LOOPBACK = re.compile(r"could not reach (https?://(?!127\.0\.0\.1[:/])[^\s:/]+)")


@dataclass(frozen=True, slots=True)
class Generated:
    spec: dict[str, Any]
    package: Path
    # server variable -> URL: operation servers the overlay made configurable
    variables: dict[str, str]


@pytest.fixture(scope="session")
def github(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    spec_path = fetch_spec(CACHE)
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    where = tmp_path_factory.mktemp("github")
    overlay = where / "loopback.overlay.json"
    variables = loopback_overlay(spec, overlay)
    options = GenerateOptions(name="github", tool_mode="full", overlays=(overlay,))
    result = generate(str(spec_path), options)
    assert result.report.errors == []
    package = where / "github-mcp"
    write_tree(result.files, package, force=False, marker=MARKER)
    return Generated(spec, package, variables)


@dataclass(frozen=True, slots=True)
class Outcome:
    tool: str
    arguments: dict[str, Any] | None
    problem: str | None  # why no arguments could be made
    is_error: bool = False
    text: str = ""
    raised: str | None = None


def arguments_for(
    tool: Tool, smoke: dict[str, Any] | None, checks: dict[str, Any] | None = None
) -> tuple[dict[str, Any] | None, str]:
    """Arguments valid for the advertised input schema and the checks the server keeps beside it
    (a root ``anyOf``, which no tool advertises): a synthesised instance, else the package's own
    smoke-test arguments; ``(None, why)`` when neither is valid."""
    schema = {**tool.input_schema, **(checks or {})}
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    reasons: list[str] = []
    try:
        made = example_instance(schema, schema.get("$defs", {}))
    except NoExample as error:
        reasons.append(f"example_instance: {error}")
    else:
        found = [e.message for e in validator.iter_errors(made)]
        if not found and isinstance(made, dict):
            # a removal's guard (a DELETE whose arguments are all optional): as the example acts
            return ({**made, "_all": True} if "_all" in schema.get("properties", {}) else made), ""
        reasons.append(f"example_instance gave invalid arguments: {found[:1]}")
    if smoke is not None:
        found = [e.message for e in validator.iter_errors(smoke)]
        if not found:
            return smoke, ""
        reasons.append(f"smoke case invalid: {found[:1]}")
    return None, "; ".join(reasons) or "no arguments"


def result_text(content: list[Any]) -> str:
    return "\n".join(block.text for block in content if isinstance(block, TextContent))


async def list_every_tool(client: Client) -> list[Tool]:
    tools: list[Tool] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools += page.tools
        cursor = page.next_cursor
        if cursor is None:
            return tools


async def call_every_tool(
    client: Client, tools: list[Tool], smoke: dict[str, Any], checks: dict[str, Any]
) -> list[Outcome]:
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(tool: Tool) -> Outcome:
        arguments, problem = arguments_for(tool, smoke.get(tool.name), checks.get(tool.name))
        if arguments is None:
            return Outcome(tool.name, None, problem)
        async with gate:
            try:
                result = await client.call_tool(tool.name, arguments)
            except Exception as error:  # the client refusing a result is what we measure
                kind = type(error).__name__
                return Outcome(tool.name, arguments, None, raised=f"{kind}: {error}")
        return Outcome(tool.name, arguments, None, result.is_error, result_text(result.content))

    return list(await asyncio.gather(*(one(tool) for tool in tools)))


_GROUPS = (
    ("missing required property", re.compile(r"missing required property|is a required property")),
    ("null where not nullable", re.compile(r"got null|(None|null) is not of types? ")),
    (
        "object vs array",
        re.compile(
            r"expected (an )?object, got (an )?array|expected (an )?array, got (an )?object"
            r'|\[[^\n]* is not of types? "object"|\{[^\n]* is not of types? "array"'
        ),
    ),
    ("enum", re.compile(r"is not one of")),
)


def reason_group(text: str) -> str:
    """The group of the first problem the reason names."""
    first = headline(text)
    for name, pattern in _GROUPS:
        if pattern.search(first):
            return name
    return "other"


def headline(text: str) -> str:
    """The first line, and the first listed problem when the first line introduces a list."""
    lines = text.splitlines() or [""]
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[1]}"
    return lines[0]


def spec_key(operation: dict[str, Any]) -> str:
    """``GET /repos/{owner}``, the fake's operation key: from the operation's pointer into the spec
    (``#/paths/~1repos~1{owner}/get``), which the catalog leaves out when it is the method and path."""
    pointer = operation.get("pointer")
    if pointer is None:
        return f"{operation['method']} {operation['path']}"
    path, _, method = pointer.removeprefix("#/paths/").rpartition("/")
    return f"{method.upper()} {path.replace('~1', '/').replace('~0', '~')}"


@pytest.mark.node
@pytest.mark.slow
async def test_every_tool_accepts_the_example_github_documents(github: Generated) -> None:
    router = Router(github.spec)
    (catalog_path,) = github.package.glob(f"src/{MODULE}/catalog.json")
    catalog = read_catalog(catalog_path)
    expected = [tool["name"] for tool in catalog["tools"]]
    cases = json.loads((github.package / "tests" / "smoke_cases.json").read_text("utf-8"))
    smoke = {case["tool"]: case["arguments"] for case in cases["tools"]}

    with FakeGitHub(router) as fake:
        env = {
            "PYTHONPATH": str(github.package / "src"),
            "GITHUB_BASE_URL": fake.url,
            "GITHUB_RATE_LIMIT": "0",
            **{f"GITHUB_SERVER_{name.upper()}": fake.url for name in github.variables},
        }
        server = StdioServerParameters(command=sys.executable, args=["-m", MODULE], env=env)
        async with Client(server, mode="2026-07-28", cache=None, read_timeout_seconds=60) as client:
            tools = await list_every_tool(client)
            assert [tool.name for tool in tools] == expected
            checks = {
                name: binding["inputChecks"]
                for name, binding in catalog["toolBindings"].items()
                if "inputChecks" in binding
            }
            outcomes = await call_every_tool(client, tools, smoke, checks)

    # each tool's operation, as the fake names it ("GET /repos/{owner}/{repo}")
    operation_of = {
        name: spec_key(catalog["operations"][binding["operation"]])
        for name, binding in catalog["toolBindings"].items()
    }
    kind_of = {route.key: route.answer.kind for route in router.routes}
    statuses: dict[str, list[int]] = {}
    for served in fake.served:
        key = served.operation or f"{served.method} {served.path} (no operation matched)"
        statuses.setdefault(key, []).append(served.status)
    unrouted = sorted(key for key in statuses if key.endswith("(no operation matched)"))
    failures = [
        Failure(outcome.tool, kind_of[operation_of[outcome.tool]], reason)
        for outcome in outcomes
        if (reason := failure_reason(outcome, operation_of[outcome.tool], statuses)) is not None
    ]
    called = sum(outcome.arguments is not None for outcome in outcomes)
    if failures or unrouted or called != len(expected):
        kinds = Counter(kind_of[operation_of[outcome.tool]] for outcome in outcomes)
        lines = [
            summary(failures, kinds, called, router.resolved_values),
            *(f"{failure.tool}: {headline(failure.reason)[:240]}" for failure in failures),
            *(f"request matched no operation: {key}" for key in unrouted),
        ]
        pytest.fail("\n".join(lines), pytrace=False)
    assert called == len(outcomes) == len(expected)


@dataclass(frozen=True, slots=True)
class Failure:
    tool: str
    kind: Kind  # of the tool's operation
    reason: str


def failure_reason(outcome: Outcome, operation: str, statuses: dict[str, list[int]]) -> str | None:
    """Why the tool failed: no valid arguments, the client raised, it tried to leave loopback, it
    never reached its operation, or a 2xx of its operation came back as an error."""
    answered = statuses.get(operation, [])
    if outcome.arguments is None:
        return f"no valid arguments: {outcome.problem}"
    if outcome.raised is not None:
        return f"the client raised {outcome.raised}"
    if off_loopback := LEFT_LOOPBACK.search(outcome.text):
        return f"tried to leave 127.0.0.1 for {off_loopback.group(1)}: {outcome.text}"
    if not answered:
        return f"never reached {operation}: {headline(outcome.text)}"
    if outcome.is_error and any(200 <= status < 300 for status in answered):
        return outcome.text
    return None


def summary(failures: list[Failure], kinds: Counter[Kind], called: int, resolved: int) -> str:
    """``84 of 1,186 tools: ...`` with the failures per operation kind and per reason."""
    failed = Counter(failure.kind for failure in failures)
    by_kind = ", ".join(f"{kind} {failed[kind]} of {n}" for kind, n in sorted(kinds.items()))
    groups = dict(Counter(reason_group(failure.reason) for failure in failures).most_common())
    return (
        f"{len(failures)} of {kinds.total():,} tools: by operation kind: {by_kind}; by reason: "
        f"{groups}; called {called:,}; {resolved} documented example values were $refs to other "
        "examples (served resolved)"
    )


MINI_SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "paths": {
        "/repos/{owner}/{repo}/compare/{basehead}": {"get": {"responses": {"200": {"$ref": "#/components/responses/ok"}}}},
        "/repos/{owner}/{repo}/compare/{base}...{head}": {"get": {"responses": {"204": {"description": "none"}}}},
        "/repos/{owner}/{repo}/contents/{path}": {
            "get": {
                "responses": {
                    "201": {"description": "later"},
                    "200": {
                        "description": "a file",
                        "content": {
                            "application/vnd.github.object": {"examples": {"obj": {"value": {"kind": "object"}}}},
                            "application/json": {"examples": {"file": {"value": {"$ref": "#/components/examples/file"}}}},
                        },
                    },
                }
            }
        },
        "/repos/{owner}/{repo}/contents/README": {"get": {"responses": {"200": {"description": "x", "content": {"text/plain": {"example": "hello"}}}}}},
        "/repos/{owner}/{repo}/tarball/{ref}": {
            "get": {"responses": {"302": {"description": "found", "headers": {"Location": {"example": "https://codeload.github.com/o/r/legacy.tar.gz/main?token=t", "schema": {"type": "string"}}}}}}
        },
        "/assets": {"post": {"servers": [{"url": "https://uploads.github.com"}], "responses": {"201": {"description": "x", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
    },
    "components": {
        "responses": {"ok": {"description": "ok", "content": {"application/json": {"examples": {"a": {"$ref": "#/components/examples/compare"}, "b": {"value": 2}}}}}},
        "examples": {"compare": {"value": {"ahead_by": 1}}, "file": {"value": {"type": "file"}}},
    },
}  # fmt: skip


def test_the_router_prefers_literals_and_serves_the_first_documented_example() -> None:
    router = Router(MINI_SPEC)

    def found(method: str, path: str) -> tuple[str, int, tuple[str, bytes]] | None:
        route = router.find(method, path)
        if route is None:
            return None
        return route.template, route.answer.status, route.answer.pick("application/json")

    assert found("GET", "/repos/o/r/compare/main...topic") == (
        "/repos/{owner}/{repo}/compare/{base}...{head}",
        204,
        ("", b""),
    )
    assert found("GET", "/repos/o/r/compare/main") == (
        "/repos/{owner}/{repo}/compare/{basehead}",
        200,
        ("application/json", b'{"ahead_by": 1}'),
    )
    # a value that is a $ref to another example is served resolved; Accept picks the media type
    assert found("GET", "/repos/o/r/contents/docs%2Fa.md") == (
        "/repos/{owner}/{repo}/contents/{path}",
        200,
        ("application/json", b'{"type": "file"}'),
    )
    assert router.resolved_values == 1
    contents = router.find("GET", "/repos/o/r/contents/docs/a.md")
    assert contents is not None and contents.template == "/repos/{owner}/{repo}/contents/{path}"
    assert contents.answer.pick("*/*") == ("application/vnd.github.object", b'{"kind": "object"}')
    readme = router.find("GET", "/repos/o/r/contents/README")
    assert readme is not None and readme.answer.pick("*/*") == ("text/plain", b"hello")
    tarball = router.find("GET", "/repos/o/r/tarball/main")
    assert tarball is not None and tarball.answer.kind == "no-2xx"
    assert tarball.answer.headers == (
        ("Location", "https://codeload.github.com/o/r/legacy.tar.gz/main?token=t"),
    )
    assets = router.find("POST", "/assets")
    assert assets is not None and assets.answer.kind == "no-example"
    assert assets.answer.pick("application/json") == ("application/json", b"{}")
    assert router.find("DELETE", "/assets") is None


def test_the_fake_keeps_documented_redirects_on_loopback(tmp_path: Path) -> None:
    router = Router(MINI_SPEC)
    with FakeGitHub(router) as fake:
        connection = http.client.HTTPConnection(urlsplit(fake.url).netloc, timeout=10)
        connection.request("GET", "/repos/o/r/tarball/main")
        redirect = connection.getresponse()
        redirect.read()
        location = redirect.getheader("Location") or ""
        connection.request("GET", urlsplit(location).path)
        download = connection.getresponse()
        assert (download.status, download.read()) == (200, DOWNLOAD)
        connection.close()
    tarball = router.find("GET", "/repos/o/r/tarball/main")
    assert tarball is not None
    assert redirect.status == 302
    assert location == f"{fake.url}{DOWNLOADS}{tarball.index}/o/r/legacy.tar.gz/main"
    assert [(s.method, s.operation, s.status) for s in fake.served] == [
        ("GET", "GET /repos/{owner}/{repo}/tarball/{ref}", 302),
        ("GET", "GET /repos/{owner}/{repo}/tarball/{ref}", 200),
    ]
    overlay = tmp_path / "overlay.json"
    assert loopback_overlay(MINI_SPEC, overlay) == {
        "uploads_github_com": "https://uploads.github.com"
    }
    assert json.loads(overlay.read_text("utf-8"))["actions"] == [
        {
            "target": "$.paths['/assets'].post.servers[0]",
            "update": {
                "url": "{uploads_github_com}",
                "variables": {"uploads_github_com": {"default": "https://uploads.github.com"}},
            },
        }
    ]


def test_a_2xx_reported_as_an_error_is_a_failure_and_other_statuses_are_not() -> None:
    schema_error = (
        "The upstream response did not match the documented output schema:\n"
        "- (root): expected object, got null\nnull"
    )
    statuses = {"PUT /a": [201], "GET /b": [302], "GET /c": [302, 200]}
    cases = [
        (Outcome("put_a", {}, None, True, schema_error), "PUT /a", schema_error),
        (Outcome("put_a", {}, None, False, "{}"), "PUT /a", None),
        (Outcome("get_b", {}, None, True, "Upstream returned 302 Found"), "GET /b", None),
        (Outcome("get_c", {}, None, True, "Upstream returned 404"), "GET /c", "Upstream returned 404"),
        (Outcome("get_d", None, "example_instance: no value"), "GET /d", "no valid arguments: example_instance: no value"),
        (Outcome("get_e", {}, None, raised="RuntimeError: Invalid structured content"), "GET /e", "the client raised RuntimeError: Invalid structured content"),
        (Outcome("get_f", {}, None, True, "could not reach https://codeload.github.com: host not found"), "GET /f", "tried to leave 127.0.0.1 for https://codeload.github.com: could not reach https://codeload.github.com: host not found"),
        (Outcome("get_g", {}, None, True, "could not reach http://127.0.0.1:9: refused"), "GET /g", "never reached GET /g: could not reach http://127.0.0.1:9: refused"),
    ]  # fmt: skip
    assert [failure_reason(o, operation, statuses) for o, operation, _ in cases] == [
        reason for _, _, reason in cases
    ]
    assert headline(schema_error) == (
        "The upstream response did not match the documented output schema: "
        "- (root): expected object, got null"
    )
    assert reason_group(schema_error) == "null where not nullable"
    failures = [
        Failure("put_a", "example", schema_error),
        Failure("get_h", "example", "...schema:\n- (root): missing required property 'id'"),
    ]
    kinds: Counter[Kind] = Counter({"example": 907, "empty": 271, "no-2xx": 8})
    assert summary(failures, kinds, 1186, 6) == (
        "2 of 1,186 tools: by operation kind: empty 0 of 271, example 2 of 907, no-2xx 0 of 8; "
        "by reason: {'null where not nullable': 1, 'missing required property': 1}; called 1,186; "
        "6 documented example values were $refs to other examples (served resolved)"
    )
