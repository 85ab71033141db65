"""The resilience primitives on a fake clock: backoff and its cap, Retry-After, circuits per
operation, the rate bucket and the concurrency cap (both wait a bounded while before refusing)."""

from __future__ import annotations

import asyncio
import email.utils

import pytest

from templates.runtime.upstream.resilience import (
    Guard,
    Policy,
    PolicyError,
    Refused,
    parse_retry_after,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Sleeper:
    """An ``asyncio.sleep`` stand-in that only remembers each wait: the calls of a test arrive
    together, as a burst does (the clock moves only when a test moves it)."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(round(seconds, 6))


def guard(clock: Clock, rng: float = 0.5, **policy: float) -> Guard:
    return Guard(
        Policy(**policy),  # type: ignore[arg-type]
        "https://api.example.com",
        clock=clock,
        rng=lambda: rng,
        sleep=Sleeper(),
    )


@pytest.mark.parametrize(("rng", "delays"), [(0.0, [0.125, 0.25, 0.5]), (1.0, [0.25, 0.5, 1.0])])
def test_backoff_doubles_with_jitter_between_half_and_full(rng: float, delays: list[float]) -> None:
    g = guard(Clock(), rng)
    assert [g.retry_delay(attempt) for attempt in range(3)] == delays


def test_backoff_is_capped_by_the_max_wait() -> None:
    g = guard(Clock(), 1.0, backoff=1, max_wait=3)
    assert [g.retry_delay(attempt) for attempt in range(4)] == [1, 2, 3, 3]


def test_retry_after_is_honoured_up_to_the_cap() -> None:
    g = guard(Clock(), max_wait=10)
    assert g.retry_delay(0, retry_after=7) == 7
    assert g.retry_delay(0, retry_after=11) is None


@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "get"])
def test_idempotent_methods_may_retry(method: str) -> None:
    g = guard(Clock(), retries=2)
    assert [g.may_retry(method, attempt) for attempt in range(3)] == [True, True, False]


@pytest.mark.parametrize("method", ["POST", "PATCH", "CONNECT", "TRACE"])
def test_other_methods_never_retry(method: str) -> None:
    assert guard(Clock()).may_retry(method, 0) is False
    assert guard(Clock()).may_retry(method, 0, 503) is False


@pytest.mark.parametrize("method", ["POST", "PATCH", "GET"])
def test_a_throttled_call_may_be_retried_whatever_its_method(method: str) -> None:
    """429: the request was refused before it was acted on (RFC 6585)."""
    g = guard(Clock(), retries=1)
    assert [g.may_retry(method, attempt, 429) for attempt in range(2)] == [True, False]


def test_parse_retry_after() -> None:
    now = 1_700_000_000.0
    date = email.utils.formatdate(now + 42, usegmt=True)
    assert parse_retry_after("120") == 120
    assert parse_retry_after(date, now) == pytest.approx(42)
    assert parse_retry_after(email.utils.formatdate(now - 5, usegmt=True), now) == 0
    for junk in (None, "", "soon", "-3", "1.5e9999", "Mon, 99 Foo 2024"):
        assert parse_retry_after(junk, now) is None


def test_circuit_half_opens_for_exactly_one_probe() -> None:
    clock = Clock()
    g = guard(clock, circuit_threshold=2, circuit_cooldown=30)
    circuit = g.circuit("put", "PUT /pets/{petId}")
    for _ in range(2):
        circuit.admit()
        circuit.record(False, "HTTP 503 Service Unavailable")
    assert circuit.state == "open"
    with pytest.raises(Refused) as info:
        circuit.admit()
    assert str(info.value) == (
        "PUT /pets/{petId} at https://api.example.com is failing (2 failed attempts in a row, the "
        "last: HTTP 503 Service Unavailable); calls to it are paused for another 30 s (other "
        "operations are not affected)"
    )
    clock.now += 30
    assert circuit.state == "half-open"
    circuit.admit()  # the probe
    with pytest.raises(Refused, match="a test call is checking whether it has recovered"):
        circuit.admit()
    circuit.abandon()  # the probe was cancelled: the next caller probes
    circuit.admit()
    circuit.record(True)
    assert circuit.state == "closed"


def test_a_success_resets_the_failure_count() -> None:
    g = guard(Clock(), circuit_threshold=3)
    circuit = g.circuit("op", "GET /op")
    for ok in (False, False, True, False, False):
        circuit.record(ok, "timeout")
    assert circuit.state == "closed"


def test_one_operations_open_circuit_leaves_the_others_closed() -> None:
    g = guard(Clock(), circuit_threshold=1)
    g.circuit("put", "PUT /pets").record(False, "HTTP 502 Bad Gateway")
    assert g.circuit("put", "PUT /pets").state == "open"
    assert g.circuit("get", "GET /pets").state == "closed"
    g.circuit("get", "GET /pets").admit()


def test_threshold_zero_never_opens() -> None:
    g = guard(Clock(), circuit_threshold=0)
    circuit = g.circuit("op", "GET /op")
    for _ in range(100):
        circuit.record(False, "timeout")
    circuit.admit()


async def test_a_burst_over_the_rate_waits_its_turn() -> None:
    clock = Clock()
    g = guard(clock, rate_limit=2, limit_wait=2)
    for _ in range(5):
        await g.enter()
    # two tokens at once, then one every half second, each reservation behind the last
    assert g._sleep.waits == [0.5, 1.0, 1.5]  # type: ignore[attr-defined]
    assert g.in_flight == 5


async def test_the_rate_limit_refuses_what_would_wait_too_long() -> None:
    clock = Clock()
    g = guard(clock, rate_limit=2, limit_wait=0.6)
    for _ in range(3):
        await g.enter()
    with pytest.raises(Refused) as info:
        await g.enter()
    assert str(info.value) == (
        "rate limit reached: at most 2 upstream calls per second and waiting 0.6 s would not be "
        "enough; try again in 1.0 s"
    )
    clock.now += 1.0
    await g.enter()
    assert g.in_flight == 4


async def test_without_a_wait_the_rate_limit_refuses_at_once() -> None:
    g = guard(Clock(), rate_limit=2, limit_wait=0)
    await g.enter()
    await g.enter()
    with pytest.raises(
        Refused, match=r"^rate limit reached: at most 2 upstream calls per second; "
    ):
        await g.enter()


async def test_a_call_over_the_concurrency_limit_waits_for_a_slot() -> None:
    g = guard(Clock(), max_concurrency=1, rate_limit=0, limit_wait=2)
    await g.enter()
    waiting = asyncio.ensure_future(g.enter())
    await asyncio.sleep(0)
    assert not waiting.done()
    g.leave()  # the slot passes straight to the waiting call
    await waiting
    assert g.in_flight == 1
    g.leave()
    assert g.in_flight == 0


async def test_the_concurrency_limit_refuses_after_the_wait() -> None:
    g = guard(Clock(), max_concurrency=1, rate_limit=0, limit_wait=0.05)
    await g.enter()
    with pytest.raises(Refused) as info:
        await g.enter()
    assert str(info.value) == (
        "too many calls to the upstream at once (the limit is 1 and none finished within "
        "0.05 s); try again when one has finished"
    )
    g.leave()
    await g.enter()
    assert g.in_flight == 1


async def test_a_cancelled_waiter_gives_its_slot_back() -> None:
    g = guard(Clock(), max_concurrency=1, rate_limit=0, limit_wait=5)
    await g.enter()
    waiting = asyncio.ensure_future(g.enter())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    g.leave()
    assert g.in_flight == 0
    await g.enter()
    assert g.in_flight == 1


def test_policy_defaults_and_environment() -> None:
    assert Policy.from_env({}, "PET") == Policy(2, 0.25, 10, 5, 30, 64, 100, 2)
    env = {
        "PET_RETRIES": "0",
        "PET_RETRY_BACKOFF": "1.5",
        "PET_RETRY_MAX_WAIT": "60",
        "PET_CIRCUIT_THRESHOLD": "0",
        "PET_CIRCUIT_COOLDOWN": "5",
        "PET_MAX_CONCURRENCY": "0",
        "PET_RATE_LIMIT": "0.5",
        "PET_LIMIT_WAIT": "0",
    }
    assert Policy.from_env(env, "PET") == Policy(0, 1.5, 60, 0, 5, 0, 0.5, 0)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PET_RETRIES", "-1"),
        ("PET_RETRIES", "2.5"),
        ("PET_MAX_CONCURRENCY", "lots"),
        ("PET_RETRY_BACKOFF", "nan"),
        ("PET_RETRY_MAX_WAIT", "-0.1"),
    ],
)
def test_policy_refuses_unusable_values(name: str, value: str) -> None:
    with pytest.raises(PolicyError, match=name):
        Policy.from_env({name: value}, "PET")
