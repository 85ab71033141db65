"""The sandbox that runs code mode's programs: Monty (``pydantic-monty``), imported here only.

A program runs in a ``monty`` worker subprocess of a pool made for that run and closed after it, so
nothing a program does (a crash, a hang, a memory bomb) outlives it or reaches this process: Monty
is a Python interpreter of its own with no file system, network, environment, subprocesses or
imports beyond its small standard library (``json``, ``re``, ``math``, ``datetime``, ``asyncio``
...). The worker enforces execution time (its clock stops while it waits for the host), heap memory,
recursion depth and the number of round trips to the host; this module adds a wall-clock deadline
over the whole run, operation calls included, and the cap on printed text (``Output``), and turns
every failure into text a model can act on: Monty's traceback with line numbers, plus a line naming
the setting behind a limit that was hit. ``CodeLimits`` holds those limits, read from the
environment at start-up (``<PREFIX>_CODE_*``, a bad value is a ``ToolModeError`` naming the
variable). Values crossing the boundary are checked as JSON (``jsonable``): arguments of operation
calls, and the program's value.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import importlib.util
import math
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..environment import name as env_name
from ..errors import ToolModeError

DEFAULT_TIMEOUT: Final = 30.0
DEFAULT_MEMORY_MB: Final = 256
DEFAULT_MAX_CALLS: Final = 50
DEFAULT_MAX_OUTPUT: Final = 100_000
DEFAULT_CONCURRENCY: Final = 4
# deeper JSON than this is refused at the boundary: what the host converts, it converts recursively
MAX_DEPTH: Final = 64
# the last characters of a traceback kept (its end names the error)
_MAX_ERROR_CHARS = 6000
# the worker backstops: a turn or a whole run this much past the deadline kills the worker
_BACKSTOP_SECONDS = 5.0
# the wall clock's grace over the worker's own limit, so that a program that computes too long is
# stopped by the worker, whose error says where it was
_WALL_GRACE_SECONDS = 0.5
# the pool's native threads may still call into Python just after it closes; an interpreter that
# exits meanwhile aborts, so a run waits this long before it returns (see run_program)
_SETTLE_SECONDS = 0.02
_FEED_NAME = re.compile(r"<python-input-\d+>")

Function = Callable[..., Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class CodeLimits:
    """What one program may use; ``prefix`` names the variables in messages."""

    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    max_calls: int = DEFAULT_MAX_CALLS
    max_output: int = DEFAULT_MAX_OUTPUT
    concurrency: int = DEFAULT_CONCURRENCY
    prefix: str = "MCP"

    @classmethod
    def from_env(cls, environ: Mapping[str, str], prefix: str) -> CodeLimits:
        """The limits ``<prefix>_CODE_*`` set (the defaults for those unset); ``ToolModeError``
        names a variable whose value is unusable."""
        return cls(
            _number(environ, env_name(prefix, "CODE_TIMEOUT"), DEFAULT_TIMEOUT, 3600.0),
            _integer(environ, env_name(prefix, "CODE_MEMORY_MB"), DEFAULT_MEMORY_MB, 16, 65536),
            _integer(environ, env_name(prefix, "CODE_MAX_CALLS"), DEFAULT_MAX_CALLS, 1, 10_000),
            _integer(environ, env_name(prefix, "CODE_MAX_OUTPUT"), DEFAULT_MAX_OUTPUT, 100, 10**8),
            _integer(environ, env_name(prefix, "CODE_CONCURRENCY"), DEFAULT_CONCURRENCY, 1, 256),
            prefix,
        )

    def setting(self, which: str) -> str:
        """The variable behind one limit: ``timeout``, ``memory``, ``calls`` or ``output``."""
        names = {
            "timeout": env_name(self.prefix, "CODE_TIMEOUT"),
            "memory": env_name(self.prefix, "CODE_MEMORY_MB"),
            "calls": env_name(self.prefix, "CODE_MAX_CALLS"),
            "output": env_name(self.prefix, "CODE_MAX_OUTPUT"),
        }
        return names[which]

    def summary(self) -> str:
        return (
            f"Limits: {self.timeout:g} s, {self.memory_mb} MB of memory, {self.max_calls} "
            f"operation calls and {self.max_output} characters of output per program."
        )


DEFAULT_CODE_LIMITS: Final = CodeLimits()


def _number(environ: Mapping[str, str], name: str, default: float, high: float) -> float:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value <= high:
        raise ToolModeError(
            f"{name} must be a number of seconds in (0, {high:g}], got {raw[:40]!r}"
        )
    return value


def _integer(environ: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise ToolModeError(f"{name} must be a whole number from {low} to {high}, got {raw[:40]!r}")
    return int(raw)


def check_available(install: str) -> None:
    """Start-up in code mode: ``ToolModeError`` when the sandbox is not installed (found without
    importing it: the import itself waits for the first program)."""
    if importlib.util.find_spec("pydantic_monty") is None:
        raise ToolModeError(
            f"code mode needs the sandbox, which is not installed: pip install '{install}[code]'"
        )


class Output:
    """What a program prints (both streams, in order), up to ``limit`` characters.

    Printing past the limit raises ``RuntimeError`` into the program and asks ``stop`` to end it.
    """

    def __init__(self, limit: int, stop: Callable[[str], None], setting: str) -> None:
        self._parts: list[str] = []
        self._size = 0
        self._limit = limit
        self._stop = stop
        self._setting = setting

    @property
    def text(self) -> str:
        return "".join(self._parts)

    def write(self, stream: str, text: str) -> None:
        if self._size + len(text) > self._limit:
            room = max(0, self._limit - self._size)
            self._parts.append(text[:room])
            self._size = self._limit
            message = (
                f"The program printed more than {self._limit} characters (the limit, "
                f"{self._setting}); it was stopped. Print less: a summary, or return the data."
            )
            self._stop(message)
            raise RuntimeError(message)
        self._parts.append(text)
        self._size += len(text)


@dataclass(frozen=True, slots=True)
class Finished:
    """The program ran to its end; ``value`` is its last expression (or ``return``)."""

    value: Any


@dataclass(frozen=True, slots=True)
class Failed:
    """The program did not finish: ``message`` says why (a traceback, a limit, a crash)."""

    message: str


async def run_program(
    code: str,
    functions: Mapping[str, Function],
    limits: CodeLimits,
    output: Output,
    stop: asyncio.Event,
) -> Finished | Failed:
    """Run ``code`` with ``functions`` as its external async functions.

    Setting ``stop`` ends the run at once (``Failed``; whoever set it knows why).
    """
    import pydantic_monty as monty  # noqa: PLC0415 - the code extra, imported in code mode only

    worker_limits: monty.ResourceLimits = {
        "max_feed_duration_secs": limits.timeout,
        "max_memory": limits.memory_mb * 1024 * 1024,
        "max_total_sleep_secs": limits.timeout,
        # calls, name lookups and awaited results: ours (max_calls) are counted by the caller
        "max_suspensions": 4 * limits.max_calls + 1000,
    }
    try:
        async with (
            monty.AsyncMonty(
                min_processes=1,
                max_processes=1,
                request_timeout=limits.timeout + _BACKSTOP_SECONDS,
                feed_duration_limit_grace=_BACKSTOP_SECONDS,
            ) as pool,
            pool.checkout(limits=worker_limits, script_name="program.py") as session,
        ):
            feed = session.feed_run(
                code, external_lookup=dict(functions), print_callback=output.write
            )
            return await _until_stopped(feed, stop, limits)
    except monty.MontyError as exc:
        return Failed(_explained(exc, limits))
    except OSError as exc:  # the worker binary is missing or cannot start
        return Failed(f"The sandbox could not start ({exc}); the program did not run.")
    finally:
        await asyncio.sleep(_SETTLE_SECONDS)


async def _until_stopped(
    feed: Awaitable[Any], stop: asyncio.Event, limits: CodeLimits
) -> Finished | Failed:
    running = asyncio.ensure_future(feed)
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait(
            {running, stopping},
            timeout=limits.timeout + _WALL_GRACE_SECONDS,
            return_when=asyncio.FIRST_COMPLETED,
        )
    finally:  # stopped, out of time, or this request cancelled: the feed goes too
        stopping.cancel()
        if not running.done():
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await running
    if not running.cancelled():
        return Finished(running.result())
    if stop.is_set():
        return Failed("The program was stopped.")
    return Failed(
        f"The program ran out of time: it may run {limits.timeout:g} s, operation calls included "
        f"(the limit, {limits.setting('timeout')}); it was stopped."
    )


def _explained(exc: Exception, limits: CodeLimits) -> str:
    """Monty's report of a failed program, with what to do about a limit that was hit."""
    display = getattr(exc, "display", None)
    text = str(display()) if callable(display) else str(exc)
    text = _FEED_NAME.sub("program", text)
    if len(text) > _MAX_ERROR_CHARS:
        text = "…" + text[-_MAX_ERROR_CHARS:]
    last = text.rsplit("\n", 1)[-1]
    if type(exc).__name__ == "MontyCrashedError":
        return (
            f"The sandbox stopped while running the program ({text}); it did not finish. This "
            "server is unaffected: simplify the program and run it again."
        )
    if last.startswith("TimeoutError: feed time limit"):
        text += (
            f"\nThe program may compute for {limits.timeout:g} s (the limit, "
            f"{limits.setting('timeout')})."
        )
    elif last.startswith("TimeoutError: sleep limit"):
        text += (
            f"\nThe program may sleep {limits.timeout:g} s in all (the limit, "
            f"{limits.setting('timeout')})."
        )
    elif last.startswith("MemoryError: memory limit"):
        text += (
            f"\nThe program may use {limits.memory_mb} MB of memory (the limit, "
            f"{limits.setting('memory')})."
        )
    return text


def jsonable(value: Any, what: str) -> Any:
    """``value`` (from the sandbox) as JSON data: tuples and sets become lists, dates ISO 8601
    text, dictionary keys text. ``ValueError`` names ``what`` when that is not possible."""
    return _json(value, what, 0, set())


def _json(value: Any, what: str, depth: int, path: set[int]) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{what} holds {value!r}, which JSON cannot carry")
        return value
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if depth >= MAX_DEPTH:
        raise ValueError(f"{what} is nested more than {MAX_DEPTH} levels deep")
    if id(value) in path:
        raise ValueError(f"{what} contains itself")
    path.add(id(value))
    try:
        if isinstance(value, dict):
            return {_key(k, what): _json(v, what, depth + 1, path) for k, v in value.items()}
        if isinstance(value, list | tuple | set | frozenset):
            return [_json(item, what, depth + 1, path) for item in value]
    finally:
        path.discard(id(value))
    kind = "bytes (decode them, or base64-encode them)" if isinstance(value, bytes) else None
    raise ValueError(
        f"{what} holds {kind or type(value).__name__ + ' ' + repr(value)[:60]}, not JSON"
    )


def _key(key: Any, what: str) -> str:
    """A dictionary key as JSON writes it (``json.dumps`` turns 1 into "1", True into "true")."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, bool):
        return {None: "null", True: "true", False: "false"}[key]
    if isinstance(key, int | float):
        return str(key)
    raise ValueError(f"{what} has a key that is not text: {key!r}"[:200])
