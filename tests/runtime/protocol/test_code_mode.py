"""Code mode in process: ``tools/list`` and ``run_code`` through the dispatcher, in both eras.

A hand-built pets catalog carries code mode's three tools; a fake API answers each operation and
records the arguments it got, so every test can say exactly what reached the API and what the
program's result says. The helpers here serve the other ``test_code_mode_*`` files too.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

import pytest

from templates.runtime import environment
from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.codemode import python_names
from templates.runtime.protocol.dispatch import Dispatcher, LegacySession
from templates.runtime.protocol.sandbox import CodeLimits, jsonable
from templates.runtime.server import McpServer, Settings, SettingsError
from templates.runtime.upstream.client import UpstreamResponse
from tests.kit.meta import CLIENT_CAPABILITIES, meta
from tests.reliability.kit import catalog, operation, parameter, tool

READ = {"readOnlyHint": True, "destructiveHint": False}
REX = {"id": 1, "name": "Rex", "tags": ["friendly"]}
TOM = {"id": 2, "name": "Tom", "tags": []}
RUN_CODE = {
    "name": "run_code",
    "description": "Run a Python program.",
    "inputSchema": {
        "type": "object",
        "properties": {"code": {"type": "string", "minLength": 1}},
        "required": ["code"],
        "additionalProperties": False,
    },
}
CODE_TOOLS = [
    tool("search_operations", {"query": {"type": "string"}}, required=["query"]),
    tool("describe_operation", {"name": {"type": "string"}}, required=["name"]),
    RUN_CODE,
]
SECRET = b"the replicas share this secret"
FORM = {"elicitation": {}}


def json_reply(status: int, body: Any, reason: str = "OK") -> UpstreamResponse:
    return UpstreamResponse(status, reason, "application/json", json.dumps(body).encode(), "u")


class Api:
    """The pets API: answers each operation, remembers ``(operation, arguments)`` of every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.pets = [REX, TOM]
        # operation -> seconds it takes, or a response that replaces its own
        self.slow: dict[str, float] = {}
        self.replies: dict[str, UpstreamResponse] = {}

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        self.calls.append((operation, dict(arguments)))
        if operation in self.slow:
            await asyncio.sleep(self.slow[operation])
        if operation in self.replies:
            return self.replies[operation]
        if operation == "list_pets":
            return json_reply(200, self.pets[: arguments.get("limit", len(self.pets))])
        if operation == "get_pet":
            found = [pet for pet in self.pets if pet["id"] == arguments["id"]]
            if not found:
                return json_reply(404, {"message": f"no pet {arguments['id']}"}, "Not Found")
            return json_reply(200, found[0])
        if operation == "create_pet":
            return json_reply(201, {"id": 3, **arguments}, "Created")
        if operation == "search-pets":
            return UpstreamResponse(200, "OK", "text/plain", b"Rex, Tom", "u")
        return UpstreamResponse(204, "No Content", "", b"", "u")


def pets_catalog() -> Catalog:
    cat = catalog(
        {
            "get_pet": operation("GET", "/pets/{id}", [parameter("id", "path")]),
            "list_pets": operation("GET", "/pets", [parameter("limit")]),
            "create_pet": operation("POST", "/pets", body={"mediaType": "application/json"}),
            "delete_pet": operation("DELETE", "/pets/{id}", [parameter("id", "path")]),
            "search-pets": operation("GET", "/pets/search", [parameter("q")], media="text/plain"),
            "class": operation("GET", "/classes"),
        },
        [
            tool("get_pet", {"id": {"type": "integer"}}, required=["id"]) | {"annotations": READ},
            tool("list_pets", {"limit": {"type": "integer", "minimum": 1}}) | {"annotations": READ},
            tool("create_pet", {"name": {"type": "string"}}, required=["name"]),
            tool("delete_pet", {"id": {"type": "integer"}}, required=["id"]),
            tool("search-pets", {"q": {"type": "string"}}) | {"annotations": READ},
            tool("class") | {"annotations": READ},
        ],
    )
    cat["toolMode"] = {"mode": "code", "toolsets": [], "autoThreshold": 60}
    cat["codeTools"] = CODE_TOOLS
    cat["codeInstructions"] = "Code mode's instructions."
    return cat


def serve(api: Api, env: dict[str, str] | None = None, cat: Catalog | None = None) -> Dispatcher:
    cat = cat or pets_catalog()
    environ = {"REL_STATE_SECRET": SECRET.decode(), **(env or {})}
    return McpServer(cat, Settings.from_env(cat, environ), upstream=api).dispatcher


async def ignore(message: dict[str, Any]) -> None:
    return None


async def request(
    dispatcher: Dispatcher,
    method: str,
    params: dict[str, Any],
    *,
    capabilities: dict[str, Any] | None = None,
    session: LegacySession | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The reply to one request: modern unless ``session`` (a legacy session) is given."""
    if session is None:
        params = {"_meta": meta(**{CLIENT_CAPABILITIES: capabilities or {}}), **params}
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    reply = await dispatcher.handle(message, session, options.pop("notify", ignore), **options)
    assert reply is not None
    return reply


async def legacy_session(
    dispatcher: Dispatcher, capabilities: dict[str, Any] | None = None
) -> LegacySession:
    session = LegacySession()
    hello = {
        "protocolVersion": "2025-11-25",
        "capabilities": capabilities or {},
        "clientInfo": {"name": "t", "version": "1"},
    }
    opened = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}
    await dispatcher.handle(opened, session, ignore)
    return session


async def run(dispatcher: Dispatcher, code: str, **options: Any) -> dict[str, Any]:
    """``run_code``'s result (its reply must be a result, not an error)."""
    extra = options.pop("params", {})
    params = {"name": "run_code", "arguments": {"code": code}, **extra}
    reply = await request(dispatcher, "tools/call", params, **options)
    assert "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


def texts(result: dict[str, Any]) -> list[str]:
    return [block["text"] for block in result["content"]]


# -- the tools ----------------------------------------------------------------------------------


async def test_code_mode_lists_three_tools_and_run_code_names_the_limits() -> None:
    env = {"REL_CODE_TIMEOUT": "12.5", "REL_CODE_MAX_CALLS": "7"}
    reply = await request(serve(Api(), env), "tools/list", {})
    listed = reply["result"]["tools"]
    assert [item["name"] for item in listed] == [
        "search_operations",
        "describe_operation",
        "run_code",
    ]
    assert listed[2]["description"] == (
        "Run a Python program.\n\nLimits: 12.5 s, 256 MB of memory, 7 operation calls and "
        "100000 characters of output per program."
    )
    discover = await request(serve(Api()), "server/discover", {})
    assert discover["result"]["instructions"] == "Code mode's instructions."


async def test_operations_are_not_tools_of_their_own() -> None:
    api = Api()
    reply = await request(serve(api), "tools/call", {"name": "get_pet", "arguments": {"id": 1}})
    assert reply["error"] == {"code": -32602, "message": "Unknown tool: get_pet"}
    assert api.calls == []


async def test_describe_names_the_function_of_an_operation() -> None:
    reply = await request(
        serve(Api()), "tools/call", {"name": "describe_operation", "arguments": {"name": "class"}}
    )
    described = reply["result"]["structuredContent"]
    assert (described["name"], described["function"], described["path"]) == (
        "class",
        "class_",
        "/classes",
    )


def test_function_names_are_python_identifiers_that_shadow_nothing() -> None:
    names = python_names(["get_pet", "search-pets", "pets.list", "2fa", "class", "list", "json"])
    assert names == {
        "get_pet": "get_pet",
        "search_pets": "search-pets",
        "pets_list": "pets.list",
        "_2fa": "2fa",
        "class_": "class",
        "list_": "list",
        "json_": "json",
    }
    assert python_names(["a-b", "a.b", "a_b"]) == {"a_b": "a-b", "a_b_2": "a.b", "a_b_3": "a_b"}


# -- programs -----------------------------------------------------------------------------------


async def test_a_program_combines_two_operations() -> None:
    api = Api()
    code = (
        "pets = await list_pets(limit=2)\n"
        "rex = await get_pet(id=pets[0]['id'])\n"
        "print('first:', rex['name'])\n"
        "{'count': len(pets), 'tags': rex['tags']}"
    )
    result = await run(serve(api), code)
    assert result == {
        "resultType": "complete",
        "content": [
            {"type": "text", "text": "first: Rex\n"},
            {"type": "text", "text": '{"count":2,"tags":["friendly"]}'},
        ],
        "_meta": result["_meta"],
    }
    assert api.calls == [("list_pets", {"limit": 2}), ("get_pet", {"id": 1})]


async def test_the_same_program_in_a_legacy_session() -> None:
    api = Api()
    dispatcher = serve(api)
    session = await legacy_session(dispatcher)
    result = await run(dispatcher, "return [p['name'] for p in await list_pets()]", session=session)
    assert result == {"content": [{"type": "text", "text": '["Rex","Tom"]'}]}
    assert api.calls == [("list_pets", {})]


async def test_a_top_level_return_and_nothing_at_all() -> None:
    dispatcher = serve(Api())
    assert texts(await run(dispatcher, "if True:\n    return 'early'\n'late'")) == ['"early"']
    assert texts(await run(dispatcher, "x = 1")) == [
        "The program finished: it printed nothing and returned None."
    ]


async def test_calls_gathered_run_at_once() -> None:
    api = Api()
    code = (
        "import asyncio\n"
        "pets = await asyncio.gather(get_pet(id=1), get_pet(id=2), list_pets(limit=1))\n"
        "[pet['name'] for pet in pets[:2]] + [len(pets[2])]"
    )
    assert texts(await run(serve(api), code)) == ['["Rex","Tom",1]']
    assert sorted(op for op, _ in api.calls) == ["get_pet", "get_pet", "list_pets"]


async def test_arguments_by_keyword_or_as_one_dictionary() -> None:
    api = Api()
    code = "a = await create_pet(name='Kit')\nb = await create_pet({'name': 'Bo'})\n[a, b]"
    assert texts(await run(serve(api), code)) == ['[{"id":3,"name":"Kit"},{"id":3,"name":"Bo"}]']
    positional = await run(serve(api), "await get_pet(1)")
    assert positional["isError"]
    assert texts(positional)[0].endswith(
        "TypeError: get_pet() takes its arguments by keyword (or as one dictionary), e.g. "
        "get_pet(name='value')"
    )
    assert api.calls == [("create_pet", {"name": "Kit"}), ("create_pet", {"name": "Bo"})]


async def test_arguments_are_validated_as_the_tools_are_and_nothing_is_sent() -> None:
    api = Api()
    result = await run(serve(api), "await get_pet(id='one')")
    assert result["isError"]
    assert texts(result) == [
        "Traceback (most recent call last):\n"
        '  File "program", line 1, in <module>\n'
        "    await get_pet(id='one')\n"
        "    ~~~~~~~~~~~~~~~~~~~~~~~\n"
        "ValueError: Invalid arguments for tool 'get_pet':\n"
        '- id: "one" is not of type "integer"'
    ]
    not_json = await run(serve(api), "await create_pet(name=b'Kit')")
    assert texts(not_json)[0].endswith(
        "ValueError: the arguments of create_pet() holds bytes (decode them, or base64-encode "
        "them), not JSON"
    )
    assert api.calls == []


async def test_an_upstream_failure_raises_in_the_program_which_may_catch_it() -> None:
    api = Api()
    code = (
        "try:\n"
        "    await get_pet(id=9)\n"
        "except RuntimeError as error:\n"
        "    print('failed:', error)\n"
        "await get_pet(id=8)"
    )
    result = await run(serve(api), code)
    assert result["isError"]
    assert texts(result) == [
        'failed: get_pet: Upstream returned 404 Not Found: {"message":"no pet 9"}\n',
        "Traceback (most recent call last):\n"
        '  File "program", line 5, in <module>\n'
        "    await get_pet(id=8)\n"
        "    ~~~~~~~~~~~~~~~~~~~\n"
        'RuntimeError: get_pet: Upstream returned 404 Not Found: {"message":"no pet 8"}',
    ]


async def test_a_failed_program_names_the_changes_it_already_made() -> None:
    api = Api()
    code = "await create_pet(name='Kit')\nawait list_pets()\n1 / 0"
    result = await run(serve(api), code)
    assert result["isError"]
    assert texts(result)[-2].endswith("ZeroDivisionError: division by zero")
    assert texts(result)[-1] == (
        "Calls the program made before it stopped, which changed data and are not undone (do "
        "not repeat them): create_pet (POST /pets)."
    )


async def test_responses_that_are_not_json_come_as_text() -> None:
    api = Api()
    code = "[await search_pets(q='r'), await delete_pet(id=2), await class_()]"
    assert texts(await run(serve(api), code)) == [
        '["Rex, Tom","HTTP 204 No Content","HTTP 204 No Content"]'
    ]
    assert [op for op, _ in api.calls] == ["search-pets", "delete_pet", "class"]


async def test_a_program_works_with_a_whole_answer_past_the_result_budget() -> None:
    # one result may hand the model 600 characters; the program counts all 19 pets (it had
    # counted the 5 a cut result showed, and the cut notice came with its value)
    api = Api()
    api.pets = [{"id": n, "name": "x" * 40} for n in range(1, 20)]
    result = await run(serve(api, {"REL_MAX_RESULT_CHARS": "600"}), "len(await list_pets())")
    assert texts(result) == ["19"]


async def test_the_value_is_json_and_what_is_not_is_an_error() -> None:
    dispatcher = serve(Api())
    code = "import datetime\n(1, {2, 3}, {4: None}, datetime.date(2024, 5, 6))"
    assert texts(await run(dispatcher, code)) == ['[1,[2,3],{"4":null},"2024-05-06"]']
    for code, says in [
        ("b'raw'", "holds bytes (decode them, or base64-encode them), not JSON"),
        ("float('nan')", "holds nan, which JSON cannot carry"),
        ("a = []\nfor _ in range(100):\n    a = [a]\na", "is nested more than 64 levels deep"),
    ]:
        result = await run(dispatcher, code)
        assert result["isError"], code
        assert texts(result) == [
            f"The program's value {says}; return JSON data (dicts, lists, text, numbers)."
        ]
    # the sandbox writes a list that holds itself as Python's repr does
    assert texts(await run(dispatcher, "a = []\na.append(a)\na")) == ['["[...]"]']


def test_values_from_the_host_are_checked_for_cycles() -> None:
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(ValueError, match=r"^the value contains itself$"):
        jsonable(looped, "the value")
    with pytest.raises(ValueError, match="has a key that is not text"):
        jsonable({(1, 2): 3}, "the value")
    assert jsonable({True: 1, None: 2, 1.5: 3}, "the value") == {"true": 1, "null": 2, "1.5": 3}


async def test_a_misspelt_operation_names_the_close_ones() -> None:
    result = await run(serve(Api()), "await get_pets(id=1)")
    assert texts(result)[0].endswith(
        "NameError: name 'get_pets' is not defined\n"
        "Operations with a close name: get_pet, list_pets."
    )


async def test_progress_names_each_call() -> None:
    sent: list[dict[str, Any]] = []

    async def notify(message: dict[str, Any]) -> None:
        sent.append(message["params"])

    params = {
        "_meta": meta(progressToken="p1"),
        "name": "run_code",
        "arguments": {"code": "await list_pets()\nawait get_pet(id=2)"},
    }
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    await serve(Api()).handle(message, None, notify)
    assert [(p["progress"], p.get("message")) for p in sent] == [
        (0, "Running the program"),
        (1, "Calling list_pets (GET /pets)"),
        (2, "Calling get_pet (GET /pets/{id})"),
    ]


# -- settings -----------------------------------------------------------------------------------


def test_the_documented_defaults_are_the_limits_applied() -> None:
    limits = CodeLimits.from_env({}, "REL")

    def documented(suffix: str) -> str:
        return environment.variable(suffix).default

    assert (
        documented("CODE_TIMEOUT"),
        documented("CODE_MEMORY_MB"),
        documented("CODE_MAX_CALLS"),
        documented("CODE_MAX_OUTPUT"),
        documented("CODE_CONCURRENCY"),
    ) == tuple(
        str(v)
        for v in (
            f"{limits.timeout:g}",
            limits.memory_mb,
            limits.max_calls,
            limits.max_output,
            limits.concurrency,
        )
    )


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("CODE_TIMEOUT", "0", "REL_CODE_TIMEOUT must be a number of seconds in (0, 3600], got '0'"),
        ("CODE_TIMEOUT", "soon", "REL_CODE_TIMEOUT must be a number of seconds in (0, 3600]"),
        ("CODE_MEMORY_MB", "8", "REL_CODE_MEMORY_MB must be a whole number from 16 to 65536"),
        ("CODE_MAX_CALLS", "-1", "REL_CODE_MAX_CALLS must be a whole number from 1 to 10000"),
        ("CODE_MAX_OUTPUT", "99", "REL_CODE_MAX_OUTPUT must be a whole number from 100 to"),
        ("CODE_CONCURRENCY", "0", "REL_CODE_CONCURRENCY must be a whole number from 1 to 256"),
        ("TOOL_MODE", "coding", "REL_TOOL_MODE must be full, dynamic, toolsets, code or auto"),
    ],
)
def test_a_bad_limit_stops_start_up_naming_the_variable(
    variable: str, value: str, message: str
) -> None:
    cat = pets_catalog()
    with pytest.raises(SettingsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Settings.from_env(cat, {f"REL_{variable}": value})


def test_code_mode_from_the_environment_needs_a_catalog_that_has_it() -> None:
    cat = pets_catalog()
    del cat["codeTools"]
    with pytest.raises(SettingsError, match="REL_TOOL_MODE=code: this server was generated"):
        Settings.from_env(cat, {"REL_TOOL_MODE": "code"})


def test_without_the_sandbox_start_up_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # what find_spec answers for a module that is not installed
    monkeypatch.setitem(__import__("sys").modules, "pydantic_monty", None)
    with pytest.raises(SettingsError) as raised:
        Settings.from_env(pets_catalog(), {})
    assert str(raised.value) == (
        "code mode needs the sandbox, which is not installed: pip install 'rel-mcp[code]'"
    )


def test_other_modes_do_not_need_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "pydantic_monty", None)
    settings = Settings.from_env(pets_catalog(), {"REL_TOOL_MODE": "full"})
    assert settings.tool_selection is not None and settings.tool_selection.mode == "full"
