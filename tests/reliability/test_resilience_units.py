"""The resilience primitives on a fake clock: backoff and its cap, Retry-After, circuit, rate bucket."""

from __future__ import annotations

import email.utils

import pytest

from templates.runtime.resilience import Guard, Policy, PolicyError, Refused, parse_retry_after


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def guard(clock: Clock, rng: float = 0.5, **policy: float) -> Guard:
    return Guard(Policy(**policy), "https://api.example.com", clock=clock, rng=lambda: rng)  # type: ignore[arg-type]


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
    circuit = g.circuit
    for _ in range(2):
        circuit.admit()
        circuit.record(False, "HTTP 503 Service Unavailable")
    assert circuit.state == "open"
    with pytest.raises(Refused, match="paused for another 30 s"):
        circuit.admit()
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
    for ok in (False, False, True, False, False):
        g.circuit.record(ok, "timeout")
    assert g.circuit.state == "closed"


def test_threshold_zero_never_opens() -> None:
    g = guard(Clock(), circuit_threshold=0)
    for _ in range(100):
        g.circuit.record(False, "timeout")
    g.circuit.admit()


def test_rate_bucket_refills_over_time() -> None:
    clock = Clock()
    g = guard(clock, rate_limit=2)
    g.enter()
    g.enter()
    with pytest.raises(Refused, match=r"at most 2 upstream calls per second; try again in 0\.5 s"):
        g.enter()
    clock.now += 0.5
    g.enter()
    assert g.in_flight == 3


def test_concurrency_counts_calls_in_flight() -> None:
    g = guard(Clock(), max_concurrency=1, rate_limit=0)
    g.enter()
    with pytest.raises(Refused, match="the limit is 1"):
        g.enter()
    g.leave()
    g.enter()


def test_policy_defaults_and_environment() -> None:
    assert Policy.from_env({}, "PET") == Policy(2, 0.25, 10, 5, 30, 64, 100)
    env = {
        "PET_RETRIES": "0",
        "PET_RETRY_BACKOFF": "1.5",
        "PET_RETRY_MAX_WAIT": "60",
        "PET_CIRCUIT_THRESHOLD": "0",
        "PET_CIRCUIT_COOLDOWN": "5",
        "PET_MAX_CONCURRENCY": "0",
        "PET_RATE_LIMIT": "0.5",
    }
    assert Policy.from_env(env, "PET") == Policy(0, 1.5, 60, 0, 5, 0, 0.5)


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
