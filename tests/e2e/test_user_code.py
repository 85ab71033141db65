"""The user's own module in a generated package: it survives regeneration and the server serves it.

A copy of the generated Petstore package gets a ``custom.py`` with a tool, a resource, a resource
template, a prompt and both upstream hooks; the official MCP client talks to it over stdio while the
fake Petstore on 127.0.0.1 records what the hooks did to the wire requests. A broken module must stop
the server with one line on stderr and exit status 1.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from mcp import Client

from openapi2mcp.cli import main
from templates.runtime.catalog.model import load_catalog
from templates.runtime.hooks import DefinitionError, collect
from templates.runtime.server import CustomCodeError, McpServer, Settings
from tests.conftest import PETSTORE_SPEC
from tests.e2e.helpers import server_env, stdio_params
from tests.kit.meta import meta

CUSTOM = Path("src/petstore_mcp/custom.py")
USER_MODULE = '''\
"""My additions to the Petstore server."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import httpx

from ._runtime.hooks import ToolError, UpstreamResponse, prompt, resource, tool


@tool(
    name="add_numbers",
    title="Add numbers",
    description="Add two integers.",
    input_schema={
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
        "additionalProperties": False,
    },
    output_schema={
        "type": "object",
        "properties": {"sum": {"type": "integer"}},
        "required": ["sum"],
    },
    annotations={"readOnlyHint": True, "openWorldHint": False},
)
async def add_numbers(a: int, b: int) -> dict[str, Any]:
    if a < 0:
        raise ToolError("a must not be negative")
    return {"sum": a + b}


@resource("notes://about", name="about", mime_type="text/markdown")
async def about() -> str:
    return "# About the shop"


@resource("notes://topics/{topic}", name="topic")
async def topic(topic: str) -> dict[str, str] | None:
    return None if topic == "unknown" else {"topic": topic}


@prompt(name="adopt", description="Help adopting a pet.", arguments={"kind": "The kind of pet"})
async def adopt(kind: str, mood: str = "cheerful") -> str:
    return f"Find a {kind} to adopt; answer in a {mood} tone."


async def before_request(request: httpx.Request) -> None:
    request.headers["X-Tenant"] = "acme"


async def after_response(operation: str, response: UpstreamResponse) -> UpstreamResponse:
    if operation == "listPets" and response.status == 200:
        return replace(response, body=json.dumps(json.loads(response.body)[:2]).encode())
    return response
'''


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture
def customised(petstore_package: Path, tmp_path: Path) -> Path:
    """A private copy of the generated Petstore package with ``USER_MODULE`` as its custom code."""
    out = tmp_path / "petstore-mcp"
    shutil.copytree(petstore_package, out)
    (out / CUSTOM).write_text(USER_MODULE, encoding="utf-8")
    return out


def with_custom(package: Path, tmp_path: Path, source: str) -> Path:
    out = tmp_path / "variant"
    shutil.copytree(package, out)
    (out / CUSTOM).write_text(source, encoding="utf-8")
    return out


def run_server(package: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "petstore_mcp"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=server_env(package, "http://127.0.0.1:9", None),
    )


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


# -- surviving regeneration ----------------------------------------------------------------------


def test_custom_module_survives_two_regenerations_force_and_check(tmp_path: Path) -> None:
    out = tmp_path / "petstore-mcp"
    assert invoke("generate", str(PETSTORE_SPEC), "-o", str(out))[0] == 0
    starter = (out / CUSTOM).read_text(encoding="utf-8")
    assert starter.startswith("# Created by openapi2mcp ")
    assert "This file is yours: regeneration never overwrites it." in starter
    (out / CUSTOM).write_text(USER_MODULE, encoding="utf-8")

    code, output = invoke("generate", str(PETSTORE_SPEC), "-o", str(out), "--version", "2.0.0")
    assert code == 0, output
    assert 'version = "2.0.0"' in (out / "pyproject.toml").read_text()  # it did regenerate
    assert (out / CUSTOM).read_text(encoding="utf-8") == USER_MODULE

    code, output = invoke("generate", str(PETSTORE_SPEC), "-o", str(out), "--force")
    assert code == 0, output
    assert 'version = "1.0.0"' in (out / "pyproject.toml").read_text()
    assert (out / CUSTOM).read_text(encoding="utf-8") == USER_MODULE

    code, output = invoke("generate", str(PETSTORE_SPEC), "-o", str(out), "--check")
    assert (code, output.splitlines()[-1]) == (0, f"{out}: up to date ({_file_count(out)} files)")

    # drift elsewhere is still found, and the custom module is still not reported
    (out / "server.json").write_text("{}\n")
    code, output = invoke("generate", str(PETSTORE_SPEC), "-o", str(out), "--check")
    assert code == 1
    assert output.splitlines()[-2:] == [
        f"{out}: 1 file(s) out of date:",
        "  changed  server.json",
    ]


def _file_count(out: Path) -> int:
    # what --check counts: the generated tree, starter custom module included
    return sum(1 for p in out.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def test_deleted_custom_module_is_created_again_and_the_server_starts_without_it(
    petstore_package: Path, tmp_path: Path
) -> None:
    out = tmp_path / "petstore-mcp"
    shutil.copytree(petstore_package, out)
    (out / CUSTOM).unlink()
    code, output = invoke("generate", str(PETSTORE_SPEC), "-o", str(out), "--check")
    assert code == 1 and "  added    src/petstore_mcp/custom.py" in output
    request = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/list",
            "params": {"_meta": meta()},
        }
    )
    served = run_server(out, request + "\n")
    assert served.returncode == 0, served.stderr
    names = [tool["name"] for tool in json.loads(served.stdout)["result"]["tools"]]
    assert len(names) == 20 and "add_numbers" not in names


# -- served over stdio with the official client --------------------------------------------------


async def test_custom_items_are_listed_after_generated_ones_and_work(
    customised: Path, fake_petstore: Any
) -> None:
    params = stdio_params(customised, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="auto") as client:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools][-2:] == ["delete_user", "add_numbers"]
        added = tools[-1]
        assert (added.title, added.description) == ("Add numbers", "Add two integers.")
        assert added.annotations is not None and added.annotations.read_only_hint is True

        result = await client.call_tool("add_numbers", {"a": 2, "b": 3})
        assert not result.is_error and result.structured_content == {"sum": 5}
        assert text_of(result) == '{"sum":5}'

        refused = await client.call_tool("add_numbers", {"a": -1, "b": 3})
        assert refused.is_error and text_of(refused) == "a must not be negative"

        invalid = await client.call_tool("add_numbers", {"a": "two"})
        assert invalid.is_error
        assert text_of(invalid) == (
            "Invalid arguments for tool 'add_numbers':\n"
            '- (arguments): "b" is a required property\n'
            '- a: "two" is not of type "integer"'
        )

        resources = [r.uri for r in (await client.list_resources()).resources]
        assert resources[-1] == "notes://about"
        (about,) = (await client.read_resource("notes://about")).contents
        assert (about.mime_type, getattr(about, "text", "")) == (
            "text/markdown",
            "# About the shop",
        )
        templates = (await client.list_resource_templates()).resource_templates
        assert templates[-1].uri_template == "notes://topics/{topic}"
        (topic,) = (await client.read_resource("notes://topics/cats")).contents
        assert getattr(topic, "text", "") == '{"topic":"cats"}'

        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
        arguments = prompts["adopt"].arguments or []
        assert [(a.name, a.description, a.required) for a in arguments] == [
            ("kind", "The kind of pet", True),
            ("mood", None, False),
        ]
        got = await client.get_prompt("adopt", {"kind": "cat"})
        assert [(m.role, getattr(m.content, "text", "")) for m in got.messages] == [
            ("user", "Find a cat to adopt; answer in a cheerful tone.")
        ]
    assert fake_petstore.requests == []  # custom items never reach the API


async def test_before_request_adds_a_header_the_upstream_receives(
    customised: Path, fake_petstore: Any
) -> None:
    params = stdio_params(customised, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="auto") as client:
        result = await client.call_tool("get_pet_by_id", {"petId": 1})
        assert not result.is_error, result
    (sent,) = fake_petstore.requests
    assert (sent.method, sent.raw_path) == ("GET", "/v1/pets/1")
    assert sent.headers["x-tenant"] == "acme"
    assert sent.headers["x-api-key"] == fake_petstore.api_key  # the generated request is intact


async def test_after_response_trims_tool_results_and_resources(
    customised: Path, fake_petstore: Any
) -> None:
    params = stdio_params(customised, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="auto") as client:
        trimmed = await client.call_tool("list_pets", {})
        assert not trimmed.is_error, trimmed
        assert [pet["name"] for pet in trimmed.structured_content or []] == ["Rex", "Whiskers"]
        (listing,) = (await client.read_resource("petstore://pets")).contents
        assert [pet["name"] for pet in json.loads(getattr(listing, "text", ""))] == [
            "Rex",
            "Whiskers",
        ]
        # other operations pass through untouched: three pets are available
        untouched = await client.call_tool("find_pets_by_status", {"status": ["available"]})
        assert len(untouched.structured_content or []) == 3
    assert [r.raw_path for r in fake_petstore.requests] == [
        "/v1/pets",
        "/v1/pets",
        "/v1/pets/findByStatus",
    ]


async def test_a_failing_hook_is_a_tool_error_and_nothing_is_sent(
    customised: Path, fake_petstore: Any, tmp_path: Path
) -> None:
    source = USER_MODULE.replace(
        'request.headers["X-Tenant"] = "acme"', 'raise RuntimeError("no tenant configured")'
    )
    package = with_custom(customised, tmp_path, source)
    params = stdio_params(package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="auto") as client:
        result = await client.call_tool("get_pet_by_id", {"petId": 1})
    assert result.is_error
    assert text_of(result) == "the server's before_request hook failed (RuntimeError)"
    assert fake_petstore.requests == []


# -- broken custom code stops the server ---------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "from __future__ import annotations\n\nVALUE = 1\nprint(undefined_name)\n",
            "custom code petstore_mcp/custom.py failed to load: "
            "NameError: name 'undefined_name' is not defined (line 4)",
        ),
        (
            "def broken(:\n    pass\n",
            "custom code petstore_mcp/custom.py failed to load: SyntaxError: invalid syntax (line 1)",
        ),
        (
            "import petstore_mcp_missing_dependency\n",
            "custom code petstore_mcp/custom.py failed to load: ModuleNotFoundError: "
            "No module named 'petstore_mcp_missing_dependency' (line 1)",
        ),
        (
            "from ._runtime.hooks import tool\n\n\n@tool(name='add', input_schema={'type': 'array'})\n"
            "async def add() -> str:\n    return ''\n",
            "custom code petstore_mcp/custom.py failed to load: DefinitionError: "
            'tool \'add\': input_schema must have "type": "object" (line 4)',
        ),
        (
            "from ._runtime.hooks import tool\n\n\n@tool(name='list_pets')\n"
            "async def mine() -> str:\n    return ''\n",
            "custom code petstore_mcp/custom.py: custom tool 'list_pets' has the same name as a "
            "generated one",
        ),
        (
            "def after_response(response):\n    return response\n",
            "custom code petstore_mcp/custom.py failed to load: DefinitionError: "
            "after_response must accept 2 positional argument(s)",
        ),
    ],
    ids=["name-error", "syntax-error", "missing-import", "bad-schema", "name-clash", "bad-hook"],
)
def test_broken_custom_module_fails_start_up_in_one_line(
    petstore_package: Path, tmp_path: Path, source: str, message: str
) -> None:
    package = with_custom(petstore_package, tmp_path, source)
    served = run_server(package)
    assert served.returncode == 1
    assert served.stdout == ""
    assert served.stderr == f"petstore-mcp: {message}\n"


# -- the runtime in-process: declarations and results at the edges --------------------------------

FIXTURE_CATALOG = Path(__file__).parents[1] / "runtime" / "fixtures" / "catalog.json"
META = meta()


def module_from(source: str) -> ModuleType:
    """``source`` as the module ``fixture_pkg.custom``, importing the runtime like a package does."""
    module = ModuleType("fixture_pkg.custom")
    code = compile(
        source.replace("from ._runtime.", "from templates.runtime."), "custom.py", "exec"
    )
    exec(code, module.__dict__)
    return module


def in_process_server(source: str, seen: list[httpx.Request] | None = None) -> McpServer:
    def answer(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        return httpx.Response(200, json=[{"id": 1, "name": "Rex"}, {"id": 2, "name": "Tom"}])

    catalog = load_catalog(FIXTURE_CATALOG)
    settings = Settings.from_env(catalog, {}, transport=httpx.MockTransport(answer))
    return McpServer(catalog, settings, custom=collect(module_from(source)))


async def ask(server: McpServer, method: str, **params: Any) -> dict[str, Any]:
    async def notify(message: dict[str, Any]) -> None:
        return None

    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": META}}
    reply = await server.dispatcher.handle(message, None, notify)
    assert reply is not None
    return reply


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "from ._runtime.hooks import tool\n@tool()\ndef plain() -> str:\n    return ''\n",
            "tool 'plain': decorate an 'async def' function",
        ),
        (
            "from ._runtime.hooks import tool\n@tool(name='bad name')\n"
            "async def f() -> str:\n    return ''\n",
            "tool name 'bad name' is not 1-128 letters, digits, '_', '-' or '.'",
        ),
        (
            "from ._runtime.hooks import tool\n"
            "@tool(input_schema={'type': 'object', 'properties': {'a': {}}})\n"
            "async def f(a: int) -> str:\n    return ''\n",
            "tool 'f': parameter 'a' needs a default (the schema does not require it)",
        ),
        (
            "from ._runtime.hooks import tool\n@tool(annotations={'readOnly': True})\n"
            "async def f() -> str:\n    return ''\n",
            "tool 'f': annotation 'readOnly' is not a known hint with a bool value",
        ),
        (
            "from ._runtime.hooks import tool\n"
            "@tool(input_schema={'type': 'object', 'properties': {'a': {'type': 'nope'}}})\n"
            "async def f(a: int = 0) -> str:\n    return ''\n",
            "tool 'f' input_schema: ",
        ),
        (
            "from ._runtime.hooks import resource\n@resource('no-scheme')\n"
            "async def f() -> str:\n    return ''\n",
            "resource 'no-scheme': the URI needs a scheme, like docs://about",
        ),
        (
            "from ._runtime.hooks import resource\n@resource('notes://{id}')\n"
            "async def f() -> str:\n    return ''\n",
            "resource 'notes://{id}': the function has no parameter 'id'",
        ),
        (
            "from ._runtime.hooks import prompt\n@prompt(arguments={'topic': 'x'})\n"
            "async def f() -> str:\n    return ''\n",
            "prompt 'f': no parameter named 'topic'",
        ),
    ],
    ids=["sync", "name", "default", "hint", "schema", "uri", "variable", "prompt-argument"],
)
def test_wrong_declarations_are_refused_where_they_are_made(source: str, message: str) -> None:
    with pytest.raises(DefinitionError) as caught:
        module_from(source)
    assert str(caught.value).startswith(message)


def test_two_custom_items_with_one_name_stop_the_server() -> None:
    source = (
        "from ._runtime.hooks import tool\n"
        "@tool(name='twin')\nasync def one() -> str:\n    return ''\n"
        "@tool(name='twin')\nasync def two() -> str:\n    return ''\n"
    )
    with pytest.raises(CustomCodeError) as caught:
        in_process_server(source)
    assert str(caught.value) == (
        "custom code fixture_pkg/custom.py: custom tool 'twin' has the same name as another "
        "custom one"
    )


OUTPUT_SCHEMA = "{'type': 'object', 'properties': {'sum': {'type': 'integer'}}}"


@pytest.mark.parametrize(
    ("declaration", "body", "text"),
    [
        (
            f"@tool(output_schema={OUTPUT_SCHEMA})",
            "return {'sum': 'three'}",
            "tool 'f' returned a value that does not match its output_schema:\n"
            '- sum: "three" is not of type "integer"',
        ),
        ("@tool()", "return {1, 2}", "tool 'f' returned a set, which is not JSON data"),
        (
            "@tool()",
            "raise ValueError('detail for the log only')",
            "tool 'f' failed (ValueError); the server log has the details",
        ),
    ],
    ids=["output-schema", "not-json", "exception"],
)
async def test_custom_tool_failures_are_tool_errors(declaration: str, body: str, text: str) -> None:
    source = (
        "from typing import Any\nfrom ._runtime.hooks import tool\n"
        f"{declaration}\nasync def f() -> Any:\n    {body}\n"
    )
    reply = await ask(in_process_server(source), "tools/call", name="f", arguments={})
    assert reply["result"]["isError"] is True
    assert reply["result"]["content"] == [{"type": "text", "text": text}]


async def test_custom_tool_text_bytes_and_hook_result_types() -> None:
    source = (
        "from ._runtime.hooks import UpstreamResponse, tool\n"
        "@tool()\nasync def text() -> str:\n    return 'plain words'\n"
        "@tool()\nasync def blob() -> bytes:\n    return b'\\x00\\x01'\n"
        "def after_response(operation: str, response: UpstreamResponse) -> object:\n"
        "    return {'not': 'a response'}\n"
    )
    seen: list[httpx.Request] = []
    server = in_process_server(source, seen)
    reply = await ask(server, "tools/call", name="text", arguments={})
    assert reply["result"]["content"] == [{"type": "text", "text": "plain words"}]
    reply = await ask(server, "tools/call", name="blob", arguments={})
    assert reply["result"]["content"] == [
        {
            "type": "resource",
            "resource": {
                "uri": "custom:tool:blob",
                "mimeType": "application/octet-stream",
                "blob": "AAE=",
            },
        }
    ]
    # a sync after_response works too; returning something else is a readable tool error
    reply = await ask(server, "tools/call", name="list_pets", arguments={})
    assert reply["result"]["isError"] is True
    assert reply["result"]["content"] == [
        {
            "type": "text",
            "text": "the server's after_response hook returned dict, not an UpstreamResponse",
        }
    ]
    assert len(seen) == 1


async def test_custom_prompt_may_return_several_messages() -> None:
    source = (
        "from ._runtime.hooks import prompt\n"
        "@prompt(description='Two turns.')\n"
        "async def chat(topic: str) -> list[object]:\n"
        "    return [f'Tell me about {topic}.', "
        "{'role': 'assistant', 'content': {'type': 'text', 'text': 'Gladly.'}}]\n"
    )
    server = in_process_server(source)
    reply = await ask(server, "prompts/get", name="chat", arguments={"topic": "cats"})
    assert reply["result"]["description"] == "Two turns."
    assert reply["result"]["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "Tell me about cats."}},
        {"role": "assistant", "content": {"type": "text", "text": "Gladly."}},
    ]
    # the generated prompts still render from the catalog
    reply = await ask(server, "prompts/get", name="pet_care", arguments={"pet_name": "Rex"})
    assert "Rex" in reply["result"]["messages"][0]["content"]["text"]
