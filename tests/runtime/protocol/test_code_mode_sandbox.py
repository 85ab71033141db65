"""Code mode's sandbox under attack: every escape and every limit ends in a clear tool error.

Each program below tries what a model's program must not do (read files, import the OS, walk
attributes to Python's internals, loop forever, exhaust memory, recurse without end, call or print
without bound); each ends in ``isError`` saying what happened, and the same server then runs the
next program as if nothing had happened. Limits are set low through the environment.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from templates.runtime.protocol.dispatch import Dispatcher
from templates.runtime.upstream.client import UpstreamResponse
from tests.runtime.protocol.test_code_mode import Api, run, serve, texts

LIMITS = {
    "REL_CODE_TIMEOUT": "1",
    "REL_CODE_MEMORY_MB": "32",
    "REL_CODE_MAX_CALLS": "3",
    "REL_CODE_MAX_OUTPUT": "200",
}


async def still_serves(dispatcher: Dispatcher) -> None:
    result = await run(dispatcher, "pets = await list_pets(limit=1)\nprint(pets[0]['name'])\n6 * 7")
    assert texts(result) == ["Rex\n", "42"]


async def failure(dispatcher: Dispatcher, code: str) -> list[str]:
    result = await run(dispatcher, code)
    assert result.get("isError") is True, result
    return texts(result)


@pytest.mark.parametrize(
    ("code", "last_line"),
    [
        ("open('/etc/passwd').read()", "PermissionError: Permission denied: '/etc/passwd'"),
        (
            "import pathlib\npathlib.Path('/etc/hostname').read_text()",
            "PermissionError: Permission denied: '/etc/hostname'",
        ),
        ("import os\nos.listdir('/')", "PermissionError: Permission denied: '/'"),
        ("import os\nos.system('id')", "AttributeError: module 'os' has no attribute 'system'"),
        (
            "import os\nos.environ['HOME']",
            "RuntimeError: 'os.environ' is not supported in this environment",
        ),
        ("import subprocess", "ModuleNotFoundError: No module named 'subprocess'"),
        ("import socket", "ModuleNotFoundError: No module named 'socket'"),
        ("import importlib", "ModuleNotFoundError: No module named 'importlib'"),
        ("__import__('os')", "NameError: name '__import__' is not defined"),
        (
            "().__class__.__bases__[0].__subclasses__()",
            "AttributeError: 'tuple' object has no attribute '__class__'",
        ),
        (
            "list_pets.__globals__",
            "AttributeError: 'function' object has no attribute '__globals__'",
        ),
        ("type(1).__mro__", "AttributeError: type object 'int' has no attribute '__mro__'"),
        ("import sys\nsys.modules", "AttributeError: module 'sys' has no attribute 'modules'"),
    ],
    ids=[
        "open",
        "pathlib",
        "listdir",
        "os.system",
        "environ",
        "subprocess",
        "socket",
        "importlib",
        "__import__",
        "subclasses",
        "globals",
        "mro",
        "sys.modules",
    ],
)
async def test_no_way_out_of_the_sandbox(code: str, last_line: str) -> None:
    dispatcher = serve(Api(), LIMITS)
    (message,) = await failure(dispatcher, code)
    assert message.startswith("Traceback (most recent call last):\n")
    assert message.splitlines()[-1] == last_line
    await still_serves(dispatcher)


async def test_an_endless_loop_runs_out_of_time() -> None:
    dispatcher = serve(Api(), LIMITS)
    (message,) = await failure(dispatcher, "while True:\n    pass")
    *_, error, hint = message.splitlines()
    assert error.startswith("TimeoutError: feed time limit exceeded: ")
    assert hint == "The program may compute for 1 s (the limit, REL_CODE_TIMEOUT)."
    await still_serves(dispatcher)


@pytest.mark.parametrize(
    "code",
    ["import time\ntime.sleep(100)", "import asyncio\nawait asyncio.sleep(100)"],
    ids=["time.sleep", "asyncio.sleep"],
)
async def test_sleeping_past_the_time_limit_is_stopped(code: str) -> None:
    dispatcher = serve(Api(), LIMITS)
    (message,) = await failure(dispatcher, code)
    *_, error, hint = message.splitlines()
    assert error.startswith("TimeoutError: sleep limit exceeded: ")
    assert hint == "The program may sleep 1 s in all (the limit, REL_CODE_TIMEOUT)."
    await still_serves(dispatcher)


@pytest.mark.parametrize(
    "code",
    ["'x' * 10**10", "grow = []\nwhile True:\n    grow.append('x' * 4096)"],
    ids=["one-string", "growing-list"],
)
async def test_a_memory_bomb_hits_the_memory_limit(code: str) -> None:
    dispatcher = serve(Api(), LIMITS)
    (message,) = await failure(dispatcher, code)
    *_, error, hint = message.splitlines()
    assert error.startswith("MemoryError: memory limit exceeded: ")
    assert error.endswith(" bytes > 33554432 bytes")
    assert hint == "The program may use 32 MB of memory (the limit, REL_CODE_MEMORY_MB)."
    await still_serves(dispatcher)


async def test_endless_recursion_is_a_recursion_error() -> None:
    dispatcher = serve(Api(), LIMITS)
    (message,) = await failure(dispatcher, "def down(n):\n    return down(n + 1)\ndown(0)")
    assert message.splitlines()[-1] == "RecursionError: maximum recursion depth exceeded"
    await still_serves(dispatcher)


@pytest.mark.parametrize(
    "code",
    [
        "for n in range(10):\n    await list_pets(limit=1)",
        # catching the error does not let the program go on calling
        "for n in range(10):\n    try:\n        await list_pets(limit=1)\n    except Exception:\n"
        "        pass\n'done'",
    ],
    ids=["loop", "caught"],
)
async def test_more_calls_than_allowed_stop_the_program(code: str) -> None:
    api = Api()
    dispatcher = serve(api, LIMITS)
    assert await failure(dispatcher, code) == [
        "The program called operations more than 3 times (the limit, REL_CODE_MAX_CALLS); it "
        "was stopped before call 4, list_pets, which was not made."
    ]
    assert len(api.calls) == 3
    await still_serves(dispatcher)


async def test_printing_more_than_allowed_stops_the_program() -> None:
    dispatcher = serve(Api(), LIMITS)
    printed, message = await failure(dispatcher, "while True:\n    print('spam ' * 10)")
    assert printed == ("spam " * 10 + "\n") * 3 + ("spam " * 10)[:47]
    assert message == (
        "The program printed more than 200 characters (the limit, REL_CODE_MAX_OUTPUT); it was "
        "stopped. Print less: a summary, or return the data."
    )
    await still_serves(dispatcher)


async def test_a_value_longer_than_allowed_is_cut_with_a_note() -> None:
    dispatcher = serve(Api(), {**LIMITS, "REL_CODE_MAX_OUTPUT": "1000"})
    value, note = texts(await run(dispatcher, "list(range(1000))"))
    assert value.startswith("[0,1,2,") and len(value) < 1000
    assert note == (
        "[the program's value was cut to fit: it has 3891 characters; shown: the first 177 of "
        "1000 items. A program hands back at most 1000 characters, printed text included (the "
        "limit, REL_CODE_MAX_OUTPUT): return less, or a summary.]"
    )


def _kill_workers() -> None:
    """SIGKILL this process's ``monty`` worker subprocesses (a crash, as the pool sees it)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        if parent == os.getpid() and name == "monty":
            os.kill(int(entry.name), signal.SIGKILL)


class Crashing(Api):
    """``list_pets`` kills the worker that runs the program before answering."""

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        if operation == "list_pets" and arguments.get("limit") == 99:
            _kill_workers()
        return await super().call(operation, arguments, user=user)


async def test_a_crashed_worker_is_an_error_and_the_next_program_gets_a_new_one() -> None:
    dispatcher = serve(Crashing(), LIMITS)
    (message,) = await failure(dispatcher, "await list_pets(limit=99)\nprint('after')")
    assert message.startswith("The sandbox stopped while running the program (")
    assert message.endswith(
        "); it did not finish. This server is unaffected: simplify the program and run it again."
    )
    await still_serves(dispatcher)


async def test_time_runs_out_while_a_write_is_in_flight_and_the_error_says_it_was_made() -> None:
    api = Api()
    api.slow["create_pet"] = 2.0
    dispatcher = serve(api, LIMITS)
    message, made = await failure(dispatcher, "await create_pet(name='Kit')")
    assert message == (
        "The program ran out of time: it may run 1 s, operation calls included (the limit, "
        "REL_CODE_TIMEOUT); it was stopped."
    )
    assert made == (
        "Calls the program made before it stopped, which changed data and are not undone (do "
        "not repeat them): create_pet (POST /pets)."
    )
    assert api.calls == [("create_pet", {"name": "Kit"})]
    await still_serves(dispatcher)
