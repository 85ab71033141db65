"""A generated corpus of hostile specs: adversarial strings in every position that reaches code or docs.

Each spec puts a rotating selection of ``HOSTILE`` strings into titles, descriptions, summaries,
tags, server URLs, paths, operationIds, parameter names and descriptions, enum values, defaults,
examples, schema titles, property names, component names and security scheme names, so that over
the corpus every string lands in every position. Every spec must generate (in memory, then written),
and the whole corpus must then: pass ``ruff check`` and ``ruff format --check`` (one batched run),
compile, import in a fresh interpreter without printing, writing a file or opening a socket, and
keep the strings as data: enum values, defaults and examples verbatim in the tools' schemas, the
typed client's argument keys equal to the schemas' properties, titles and summaries verbatim.
"""

from __future__ import annotations

import compileall
import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.filters import toml_str
from openapi2mcp.render.package import MARKER
from tests.catalogs import catalog_from_files
from tests.reliability.kit import record

BIN = Path(sys.executable).parent
SPECS = 40
OPERATIONS = 3
HOSTILE = [
    '"',
    "'",
    '"""',
    "'''",
    '""""',
    "\\",
    'a\\"b',
    "ends with backslash \\",
    "ends with quote '",
    'ends with dquote "',
    "line\nbreak",
    "crlf\r\nline",
    "nul\x00byte",
    "bell\x07 esc\x1b[31m",
    "sep\u2028para\u2029",
    "{{ x }}",
    "{% if true %}boom{% endif %}",
    "{# comment #}",
    "${HOME} $(id) `id`",
    "%s %(name)s {0} {name}",
    '"""; import os; os.system("echo pwned") #',
    "'''); __import__('os').system('id') #",
    "\\N{BULLET} \\u0041 \\x41",
    "class",
    "None",
    "True",
    "def",
    "lambda",
    "async",
    "match",
    "_",
    "__init__",
    "print",
    "open",
    "type",
    "id",
    "list",
    "аdmin",  # Cyrillic a
    "ｐｅｔ",
    "\u202eevil\u202c",
    "zero\u200bwidth",
    "# noqa: E501",
    "</script><!-- -->*/",
    "emoji 🙂 漢字",
    "x" * 3000,
    "",
    " ",
]


def pick(spec: int, slot: int) -> str:
    return HOSTILE[(spec * 7 + slot * 3) % len(HOSTILE)]


def _schema(s: int, o: int) -> dict[str, Any]:
    return {
        "type": "object",
        "title": pick(s, o + 20),
        "description": pick(s, o + 21),
        "properties": {
            pick(s, o + 22) or "empty": {"type": "string", "description": pick(s, o + 23)},
            "count": {"type": "integer", "default": 3, "description": pick(s, o + 24)},
        },
    }


def hostile_spec(s: int) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for o in range(OPERATIONS):
        path_param = f"p{o}"
        path = f"/{pick(s, o + 1).replace('/', '_')}/{o}/{{{path_param}}}"
        paths[path] = {
            "get": {
                "operationId": pick(s, o + 2) or f"op{o}",
                "summary": pick(s, o + 3),
                "description": pick(s, o + 4),
                "tags": [pick(s, o + 5)],
                "parameters": [
                    {
                        "name": path_param,
                        "in": "path",
                        "required": True,
                        "description": pick(s, o + 6),
                        "schema": {"type": "string", "enum": [pick(s, o + 7), pick(s, o + 8)]},
                    },
                    {
                        "name": pick(s, o + 9) or "q",
                        "in": "query",
                        "description": pick(s, o + 10),
                        "schema": {
                            "type": "string",
                            "default": pick(s, o + 11),
                            "examples": [pick(s, o + 12)],
                            "title": pick(s, o + 13),
                        },
                    },
                    {
                        "name": f"X-{o}-" + "".join(c for c in pick(s, o + 14) if c.isalnum()),
                        "in": "header",
                        "schema": {"type": "string", "description": pick(s, o + 15)},
                    },
                ],
                "responses": {
                    "200": {
                        "description": pick(s, o + 16),
                        "content": {
                            "application/json": {
                                "schema": {"$ref": f"#/components/schemas/Thing{o}"}
                            }
                        },
                    }
                },
            },
            "post": {
                "operationId": f"{pick(s, o + 17)}-post",
                "summary": pick(s, o + 18),
                "requestBody": {
                    "required": True,
                    "description": pick(s, o + 19),
                    "content": {"application/json": {"schema": _schema(s, o)}},
                },
                "responses": {"204": {"description": pick(s, o + 25)}},
            },
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": pick(s, 0) or "untitled",
            "version": pick(s, 30),
            "description": pick(s, 31),
            "contact": {"name": pick(s, 32), "url": "https://example.com/" + pick(s, 33)[:20]},
        },
        "servers": [
            {"url": "https://api.example.com/" + pick(s, 34)[:40], "description": pick(s, 35)}
        ],
        "tags": [{"name": pick(s, o + 5), "description": pick(s, 36)} for o in range(OPERATIONS)],
        "security": [{pick(s, 37) or "key": []}],
        "paths": paths,
        "components": {
            "schemas": {
                f"Thing{o}": {**_schema(s, o), "example": {"count": 1}} for o in range(OPERATIONS)
            },
            "securitySchemes": {
                pick(s, 37) or "key": {"type": "apiKey", "in": "header", "name": "X-Key"}
            },
        },
    }


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


IMPORT_PROBE = textwrap.dedent(
    """
    import asyncio, importlib, inspect, io, json, os, socket, sys
    attempts = []
    def refuse(*args, **kwargs):
        attempts.append(args[1:2])
        raise OSError("network disabled by the import probe")
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.getaddrinfo = refuse
    captured = io.StringIO()
    real_stdout, real_stderr = sys.stdout, sys.stderr
    results = {}
    sent = {}
    for root in sys.argv[1:]:
        src = os.path.join(root, "src")
        package = next(n for n in os.listdir(src) if n.endswith("_mcp"))
        sys.path.insert(0, src)
        sys.stdout = sys.stderr = captured
        try:
            for module in ("", ".server", ".operations", ".models", ".__main__"):
                importlib.import_module(package + module)
            server = importlib.import_module(package + ".server").build_server()
            async def names():
                message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {}}}}
                async def no_notify(m):
                    return None
                reply = await server.dispatcher.handle(message, None, no_notify)
                await server.aclose()
                return reply["result"]["tools"]
            results[root] = asyncio.run(names())
            # every typed-client function, called with each keyword: the arguments it sends
            operations = importlib.import_module(package + ".operations")
            sent[root] = []
            class Recorder(importlib.import_module(package + "._runtime.typed_client").ApiClient):
                def __init__(self):
                    pass
                async def call(self, operation, arguments, *, user=None):
                    sent[root].append(sorted(arguments))
                    raise LookupError(operation)
            async def calls():
                for function in vars(operations).values():
                    if not (inspect.iscoroutinefunction(function)
                            and function.__module__ == operations.__name__):
                        continue
                    keywords = [p.name for p in inspect.signature(function).parameters.values()
                                if p.kind is p.KEYWORD_ONLY]
                    try:
                        await function(Recorder(), **{k: "x" for k in keywords})
                    except LookupError:
                        pass
            asyncio.run(calls())
        finally:
            sys.stdout, sys.stderr = real_stdout, real_stderr
            sys.path.remove(src)
    real_stdout.write(json.dumps({"output": captured.getvalue(), "network": len(attempts),
                                  "tools": results, "sent": sent}))
    """
)


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    return set()


@pytest.mark.slow
def test_hostile_spec_corpus(tmp_path: Path) -> None:
    out = tmp_path / "out"
    failures: list[str] = []
    roots: list[Path] = []
    specs: list[dict[str, Any]] = []
    for s in range(SPECS):
        spec = hostile_spec(s)
        path = tmp_path / f"spec{s:02d}.json"
        path.write_text(json.dumps(spec), "utf-8")
        try:
            result = generate(str(path), GenerateOptions(name=f"hostile{s:02d}"))
        except Exception as exc:
            failures.append(f"spec {s}: generation failed: {type(exc).__name__}: {exc}"[:300])
            continue
        root = out / f"s{s:02d}"
        write_tree(result.files, root, force=False, marker=MARKER)
        roots.append(root)
        specs.append(spec)

    for args in (
        [str(BIN / "ruff"), "check", "--no-cache", "--quiet", "."],
        [str(BIN / "ruff"), "format", "--no-cache", "--check", "--quiet", "."],
    ):
        done = _run(args, out)
        if done.returncode != 0:
            failures.append(f"{args[1]}: {(done.stdout + done.stderr)[:2000]}")
    if not compileall.compile_dir(out, quiet=2, force=True, legacy=False):
        failures.append("compileall failed")

    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    before = sorted(p.relative_to(out) for p in out.rglob("*") if "__pycache__" not in p.parts)
    probe = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE, *map(str, roots)],
        cwd=sandbox,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PYTHONDONTWRITEBYTECODE": "1", "HOME": str(sandbox), "PATH": ""},
        check=False,
    )
    after = sorted(p.relative_to(out) for p in out.rglob("*") if "__pycache__" not in p.parts)
    if probe.returncode != 0 or probe.stderr:
        failures.append(f"import probe failed: {probe.stderr[-3000:]}")
        listed: dict[str, Any] = {}
        sent: dict[str, Any] = {}
    else:
        report = json.loads(probe.stdout)
        listed, sent = report["tools"], report["sent"]
        if report["output"]:
            failures.append(f"imports printed: {report['output'][:500]!r}")
        if report["network"]:
            failures.append(f"imports opened {report['network']} connection(s)")
    if list(sandbox.iterdir()) or before != after:
        failures.append("imports wrote files")

    for spec, root in zip(specs, roots, strict=True):
        failures += _carried_as_data(spec, root, listed.get(str(root)), sent.get(str(root)))

    record(
        "hostile specs",
        f"{SPECS} specs x {OPERATIONS * 2} operations, {len(HOSTILE)} adversarial strings "
        f"rotated through every position: generated {len(roots)}, failures {len(failures)}",
    )
    assert failures == [], "\n".join(failures)


def _carried_as_data(spec: dict[str, Any], root: Path, tools: Any, sent: Any) -> list[str]:
    """The spec's enum values and defaults reach the listed tools unchanged.

    (Examples and nested titles are documentation the catalog may compact away; enum values and
    defaults decide which calls are valid, so they must be exact.)
    """
    if not isinstance(tools, list):
        return [f"{root.name}: tools/list did not answer"]
    problems: list[str] = []
    values = _strings(tools)
    for path, path_item in spec["paths"].items():
        get = path_item["get"]
        # a path with "?" or "#" is cut there (diagnosed), dropping its path parameter by design
        kept = get["parameters"][:2] if not {"?", "#"} & set(path) else get["parameters"][1:2]
        for parameter in kept:
            schema = parameter["schema"]
            wanted = [
                *schema.get("enum", []),
                *([schema["default"]] if "default" in schema else []),
            ]
            problems += [
                f"{root.name}: {value[:30]!r} from {parameter['in']} parameter not kept"
                for value in wanted
                if value not in values
            ]
    problems += _client_keys_match(root.name, sent or [], tools)
    return problems


def _projection(name: str, schema: Any) -> bool:
    """Whether a tool property is the JMESPath projection argument (catalog selectArgument)."""
    return (
        name in ("_select", "_jmespath")
        and isinstance(schema, dict)
        and (schema.get("description") == "JMESPath expression")
    )


def _client_keys_match(name: str, sent: list[list[str]], tools: list[dict[str, Any]]) -> list[str]:
    """Each typed-client function, given every keyword, sends exactly its tool's argument names
    (but the projection argument, which trims MCP results and is no argument of the API)."""
    expected = [
        sorted(
            k for k, v in t["inputSchema"].get("properties", {}).items() if not _projection(k, v)
        )
        for t in tools
    ]
    if sorted(sent) != sorted(expected):
        return [f"{name}: typed client argument keys differ from the tools' properties"]
    return []


@pytest.mark.parametrize("s", [0, 13, 27])
def test_summaries_and_titles_are_kept_verbatim(tmp_path: Path, s: int) -> None:
    spec = hostile_spec(s)
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec), "utf-8")
    files = generate(str(path), GenerateOptions(name="hostile")).files
    catalog = catalog_from_files(files, next(p for p in files if p.endswith("catalog.json")))
    titles = {tool.get("title") for tool in catalog["tools"]}
    for path_item in spec["paths"].values():
        summary = path_item["get"]["summary"]
        if summary.strip() and summary.isprintable():
            assert summary in titles or any(summary in (t or "") for t in titles), summary[:40]


@pytest.mark.parametrize(
    "value", [*HOSTILE, "lone \ud800 surrogate", "del \x7f", "astral \U0001f600"]
)
def test_toml_strings_round_trip(value: str) -> None:
    """Regression: astral characters were written as JSON surrogate pairs, which TOML rejects."""
    text = toml_str(value)
    assert text.isascii()
    assert tomllib.loads(f"x = {text}")["x"] == value.replace("\ud800", "\ufffd")
