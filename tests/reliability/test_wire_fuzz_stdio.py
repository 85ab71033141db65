"""Wire fuzzing over stdio: the generated Petstore server as a subprocess, fed hostile lines.

Every input gets exactly what JSON-RPC owes it (``wire.expected``): one well-formed reply with its id,
one error without an id, or nothing for notifications and a client's responses. A sentinel request
after each batch proves the process is still answering; at the end the process must still be
alive, answer once more, and exit cleanly on EOF. Its resident memory is measured around a long run
of mutated inputs and must stay bounded. Figures go to the closing summary.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import fake_petstore_module
from tests.reliability import wire
from tests.reliability.kit import record, rss_kib

LIMIT = 4 * 1024 * 1024  # the stdio transport's default line limit
HANG_GUARD = 30.0
# the long run's resident memory may grow by at most this much after warming up
RSS_GROWTH_LIMIT_KIB = 24 * 1024


def id_key(value: Any) -> tuple[str, Any]:
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, float) and value.is_integer():
        return ("n", int(value))
    return ("n", value)


class StdioFuzzer:
    """The server process plus a reader thread; ``run`` sends lines and checks every reply."""

    def __init__(self, package: Path, base_url: str, api_key: str, **extra: str) -> None:
        env = {
            "PYTHONPATH": str(package / "src"),
            "PATH": os.environ.get("PATH", ""),
            "PETSTORE_BASE_URL": base_url,
            "PETSTORE_API_KEY": api_key,
            "PETSTORE_RATE_LIMIT": "0",
            **extra,
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "petstore_mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr = bytearray()
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()
        self.tried = 0
        self.problems: list[str] = []
        self._sentinel = 0
        self._late: Counter[tuple[str, Any]] = Counter()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            if len(self.stderr) < 1 << 20:
                self.stderr += line

    def _write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def run(self, inputs: list[bytes]) -> list[str]:
        """Send ``inputs`` (one line each) and a sentinel; the problems found with the replies."""
        owed: Counter[tuple[str, Any]] = Counter()
        no_id = 0
        # a request cancelled in the same batch may or may not have answered (mcp-wire §7.2)
        cancelled: set[tuple[str, Any]] = set()
        for line in inputs:
            want = wire.expected(line, LIMIT)
            if want is wire.NO_ID:
                no_id += 1
            elif want is not None:
                owed[id_key(want)] += 1
            target = wire.cancelled_id(line)
            if target is not None:
                cancelled.add(id_key(target))
        optional = Counter({key: owed.pop(key) for key in cancelled if key in owed})
        self._sentinel += 1
        sentinel = f"~sentinel~{self._sentinel}"
        probe = {"jsonrpc": "2.0", "id": sentinel, "method": "server/discover"}
        probe["params"] = {"_meta": wire.META}
        self._write(b"".join(line + b"\n" for line in inputs) + json.dumps(probe).encode() + b"\n")
        self.tried += len(inputs)
        problems: list[str] = []
        seen_sentinel = False
        while not seen_sentinel or +owed:
            try:
                raw = self._lines.get(timeout=HANG_GUARD)
            except queue.Empty:
                problems.append(f"no reply within {HANG_GUARD} s; still owed {dict(+owed)}")
                break
            if raw is None:
                problems.append("the server closed stdout (it died)")
                break
            try:
                reply = json.loads(raw)
            except ValueError:
                problems.append(f"stdout line is not JSON: {raw[:120]!r}")
                continue
            if wire.is_notification(reply):
                continue  # progress notifications for tool calls that asked for them
            why = wire.check_reply(reply)
            if why is not None:
                problems.append(f"malformed reply ({why}): {raw[:200]!r}")
            if reply.get("id") == sentinel:
                seen_sentinel = True
                if seen_sentinel and no_id:
                    problems.append(f"{no_id} error(s) without an id never came")
                continue
            if "id" not in reply:
                no_id -= 1
                if no_id < 0:
                    problems.append(f"an unexpected reply without an id: {raw[:200]!r}")
                continue
            key = id_key(reply["id"])
            if optional[key] > 0:
                optional[key] -= 1
                continue
            if owed[key] > 0:
                owed[key] -= 1
            elif self._late[key] > 0:  # a cancelled request of an earlier batch answered after all
                self._late[key] -= 1
            else:
                problems.append(f"an unexpected reply: {raw[:200]!r}")
        self._late += optional
        self.problems += problems
        return problems

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> int:
        assert self.process.stdin is not None
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            return self.process.wait(timeout=HANG_GUARD)
        finally:
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()


@pytest.fixture(scope="module")
def fuzzer(petstore_package: Path) -> Iterator[StdioFuzzer]:
    with fake_petstore_module().FakePetstore() as fake:
        target = StdioFuzzer(petstore_package, fake.base_url, fake.api_key)
        try:
            yield target
        finally:
            alive = target.alive()
            code = target.close()
            record(
                "wire fuzzing",
                f"stdio: {target.tried} inputs tried, crashes {int(not alive)}, "
                f"exit status on EOF {code}, reply problems {len(target.problems)}",
            )


@pytest.mark.parametrize(("name", "line"), wire.CORPUS, ids=[name for name, _ in wire.CORPUS])
def test_corpus(fuzzer: StdioFuzzer, name: str, line: bytes) -> None:
    assert fuzzer.run([line]) == []
    assert fuzzer.alive()


def test_line_over_the_limit_is_refused_and_the_next_line_served(fuzzer: StdioFuzzer) -> None:
    assert fuzzer.run([b'{"jsonrpc":"2.0","id":1,"method":"' + b"x" * (LIMIT + 10) + b'"}']) == []
    assert fuzzer.run([b" " * (LIMIT * 2), wire.CORPUS[0][1]]) == []
    assert fuzzer.alive()


@settings(
    max_examples=250,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(batch=st.lists(wire.lines, min_size=1, max_size=6))
def test_property_every_input_gets_what_it_is_owed(fuzzer: StdioFuzzer, batch: list[bytes]) -> None:
    assert fuzzer.run(batch) == []


@pytest.mark.slow
def test_long_run_keeps_memory_bounded(fuzzer: StdioFuzzer) -> None:
    inputs = wire.mutations(seed=8, count=12_000)
    chunks = [inputs[i : i + 200] for i in range(0, len(inputs), 200)]
    samples = []
    for index, chunk in enumerate(chunks):
        assert fuzzer.run(chunk) == []
        if index % 10 == 9:
            samples.append(rss_kib(fuzzer.process.pid))
    warm, last = samples[0], samples[-1]
    record(
        "wire fuzzing",
        f"stdio long run: {len(inputs)} mutated inputs, RSS after the first 2,000 {warm} KiB, "
        f"after all {last} KiB (growth {last - warm} KiB; samples {samples})",
    )
    assert last - warm < RSS_GROWTH_LIMIT_KIB
    assert fuzzer.alive()
