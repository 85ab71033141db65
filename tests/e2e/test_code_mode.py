"""Code mode end to end: the official MCP client runs programs through ``run_code``.

The Petstore sample is generated with ``--tool-mode code`` and served over stdio and Streamable HTTP,
in both eras (2026-07-28 through ``mode="auto"``, 2025-11-25 through ``legacy``), against the fake
Petstore on 127.0.0.1, which records every request exactly as it arrived. A second package adds the
overlay that makes ``delete_pet`` need the user's yes: in 2026-07-28 the program is paused with
``input_required`` and run again after the answer, and the calls it made before are not sent again.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.conftest import PETSTORE_SPEC, fake_petstore_module
from tests.e2e.helpers import server_env, stdio_params
from tests.runtime.transports.kit import ServerProcess

OVERLAY = Path(__file__).parent / "specs" / "petstore-ask-overlay.yaml"
ERAS = ["auto", "legacy"]
TOOLS = ["search_operations", "describe_operation", "run_code"]
# two operations, the second fed by the first, their results combined
PROGRAM = """\
pets = await list_pets(limit=2)
rex = await get_pet_by_id(petId=pets[0]["id"])
print(f"{len(pets)} pets, the first is {rex['name']}")
{"names": [pet["name"] for pet in pets], "tags": [tag["name"] for tag in rex["tags"]]}
"""
PRINTED = "2 pets, the first is Rex\n"
VALUE = '{"names":["Rex","Whiskers"],"tags":["friendly"]}'
# a destructive call between two reads
DELETES = """\
pets = await list_pets(status=["available"])
answer = await delete_pet(petId=pets[-1]["id"])
left = await list_pets(status=["available"])
print("deleted", pets[-1]["name"], "-", answer)
len(left)
"""


def _generate(where: Path, options: GenerateOptions) -> Path:
    out = where / "petstore-mcp"
    write_tree(generate(str(PETSTORE_SPEC), options).files, out, force=False, marker=MARKER)
    return out


@pytest.fixture(scope="module")
def code_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _generate(tmp_path_factory.mktemp("code"), GenerateOptions(tool_mode="code"))


@pytest.fixture(scope="module")
def asking_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    options = GenerateOptions(tool_mode="code", overlays=(OVERLAY,))
    return _generate(tmp_path_factory.mktemp("code-asking"), options)


def texts(result: Any) -> list[str]:
    return [block.text for block in result.content]


def sent(fake: Any) -> list[tuple[str, str]]:
    return [(request.method, request.target) for request in fake.requests]


class User:
    """Answers each confirmation from a script and remembers the questions."""

    def __init__(self, *confirm: bool) -> None:
        self.answers = list(confirm)
        self.questions: list[str] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.questions.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": self.answers.pop(0)})


@pytest.mark.parametrize("mode", ERAS)
async def test_three_tools_and_a_program_that_combines_two_operations(
    code_package: Path, fake_petstore: Any, mode: str
) -> None:
    params = stdio_params(code_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode) as client:
        listed = await client.list_tools()
        fake_petstore.clear()
        result = await client.call_tool("run_code", {"code": PROGRAM})
    assert [tool.name for tool in listed.tools] == TOOLS
    run = listed.tools[2]
    assert "`pets = await list_pets(limit=5)`" in (run.description or "")
    assert (run.description or "").endswith(
        "Limits: 30 s, 256 MB of memory, 50 operation calls and 100000 characters of output "
        "per program."
    )
    assert not result.is_error, result
    assert texts(result) == [PRINTED, VALUE]
    assert result.structured_content is None
    assert sent(fake_petstore) == [("GET", "/v1/pets?limit=2"), ("GET", "/v1/pets/1")]
    assert all(r.headers["x-api-key"] == fake_petstore.api_key for r in fake_petstore.requests)


@pytest.fixture(scope="module")
def http_server(code_package: Path) -> Iterator[tuple[ServerProcess, Any]]:
    with fake_petstore_module().FakePetstore() as fake:
        server = ServerProcess(server_env(code_package, fake.base_url, fake.api_key))
        yield server, fake
        server.stop()


@pytest.mark.parametrize("mode", ERAS)
async def test_over_http_in_both_eras(http_server: tuple[ServerProcess, Any], mode: str) -> None:
    server, fake = http_server
    async with Client(server.url, mode=mode) as client:
        assert [tool.name for tool in (await client.list_tools()).tools] == TOOLS
        fake.clear()
        result = await client.call_tool("run_code", {"code": PROGRAM})
    assert not result.is_error, result
    assert texts(result) == [PRINTED, VALUE]
    assert sent(fake) == [("GET", "/v1/pets?limit=2"), ("GET", "/v1/pets/1")]


@pytest.mark.parametrize("mode", ERAS)
async def test_an_error_in_the_program_is_a_tool_error_and_the_server_goes_on(
    code_package: Path, fake_petstore: Any, mode: str
) -> None:
    params = stdio_params(code_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode) as client:
        escape = await client.call_tool("run_code", {"code": "open('/etc/passwd').read()"})
        missing = await client.call_tool("run_code", {"code": "await get_pet_by_id(petId=99)"})
        fake_petstore.clear()
        after = await client.call_tool("run_code", {"code": PROGRAM})
    assert escape.is_error
    assert texts(escape)[-1].endswith("PermissionError: Permission denied: '/etc/passwd'")
    assert missing.is_error
    assert texts(missing)[-1].endswith(
        'RuntimeError: get_pet_by_id: Upstream returned 404 Not Found: {"code":404,'
        '"message":"pet 99 not found"}'
    )
    assert texts(after) == [PRINTED, VALUE]


@pytest.mark.parametrize("mode", ERAS)
async def test_a_destructive_call_waits_for_the_users_yes_and_nothing_is_sent_twice(
    asking_package: Path, fake_petstore: Any, mode: str
) -> None:
    user = User(True)
    params = stdio_params(asking_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode, elicitation_callback=user) as client:
        fake_petstore.clear()
        result = await client.call_tool("run_code", {"code": DELETES})
    assert not result.is_error, result
    assert texts(result) == ["deleted Luna - HTTP 204 No Content\n", "2"]
    assert user.questions == ["Allow Delete a pet (DELETE /pets/{petId}) with petId=5?"]
    # 2026-07-28 ran the program twice: the first list was answered from the journal
    assert sent(fake_petstore) == [
        ("GET", "/v1/pets?status=available"),
        ("DELETE", "/v1/pets/5"),
        ("GET", "/v1/pets?status=available"),
    ]


@pytest.mark.parametrize("mode", ERAS)
async def test_a_refused_call_raises_permission_error_and_sends_nothing(
    asking_package: Path, fake_petstore: Any, mode: str
) -> None:
    code = (
        "try:\n"
        "    await delete_pet(petId=1)\n"
        "except PermissionError as error:\n"
        "    print('not allowed:', error)\n"
        "'kept'"
    )
    user = User(False)
    params = stdio_params(asking_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode, elicitation_callback=user) as client:
        fake_petstore.clear()
        result = await client.call_tool("run_code", {"code": code})
    assert not result.is_error, result
    assert texts(result) == [
        "not allowed: delete_pet: The user did not allow Delete a pet (DELETE /pets/{petId}); "
        "nothing was sent.\n",
        '"kept"',
    ]
    assert fake_petstore.requests == []


@pytest.fixture(scope="module")
def asking_http(asking_package: Path) -> Iterator[tuple[ServerProcess, Any]]:
    with fake_petstore_module().FakePetstore() as fake:
        server = ServerProcess(server_env(asking_package, fake.base_url, fake.api_key))
        yield server, fake
        server.stop()


@pytest.mark.parametrize("mode", ERAS)
async def test_over_http_a_destructive_call_waits_for_the_users_yes(
    asking_http: tuple[ServerProcess, Any], mode: str
) -> None:
    server, fake = asking_http
    pet = ERAS.index(mode) + 2  # the fake lives for the module: each era deletes its own pet
    code = f"pet = await get_pet_by_id(petId={pet})\nawait delete_pet(petId={pet})\npet['name']"
    user = User(True)
    async with Client(server.url, mode=mode, elicitation_callback=user) as client:
        fake.clear()
        result = await client.call_tool("run_code", {"code": code})
    assert not result.is_error, result
    assert texts(result) == ['"Whiskers"' if pet == 2 else '"Bubbles"']
    assert len(user.questions) == 1
    assert sent(fake) == [("GET", f"/v1/pets/{pet}"), ("DELETE", f"/v1/pets/{pet}")]


def test_without_the_code_extra_the_server_stops_at_start_up(code_package: Path) -> None:
    # the sandbox hidden from the import system, as when the extra is not installed
    launch = (
        "import sys; sys.modules['pydantic_monty'] = None; sys.argv = ['petstore-mcp']; "
        "from petstore_mcp.__main__ import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", launch],
        env=server_env(code_package, "http://127.0.0.1:9", None),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "petstore-mcp: code mode needs the sandbox, which is not installed: "
        "pip install 'petstore-mcp[code]'\n"
    )


async def test_a_program_gets_whole_answers_and_only_its_own_is_cut(
    code_package: Path, fake_petstore: Any
) -> None:
    # one result may hand the model 100 characters here: a program still works with the whole
    # answer (Evidently's 3.9 MB report had reached a program cut, the notice inside the string)
    params = stdio_params(code_package, fake_petstore.base_url, fake_petstore.api_key)
    params.env = {**(params.env or {}), "PETSTORE_MAX_RESULT_CHARS": "100"}
    program = 'pets = await list_pets(limit=100)\n[len(pets), sorted(p["name"] for p in pets)]'
    async with Client(params) as client:
        result = await client.call_tool("run_code", {"code": program})
    assert not result.is_error, result
    assert texts(result) == ['[5,["Bubbles","Luna","Rex","Tweety","Whiskers"]]']
