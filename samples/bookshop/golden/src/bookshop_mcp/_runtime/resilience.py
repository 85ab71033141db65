"""Keeping the upstream API healthy and every call bounded: retries, a circuit breaker, limits.

``Policy`` holds the knobs and reads them from the environment (``Policy.from_env`` lists the
variables). ``Guard`` is what ``Upstream`` consults around each call: a token-bucket limit on
invocations per second, a cap on calls in flight, and a ``CircuitBreaker`` that opens after a run of
consecutive failures (transport errors, timeouts, 5xx) so that a failing API is not hammered, then
half-opens after a cool-down to let one probe through. ``Guard.retry_delay`` is exponential backoff
with jitter, or the upstream's ``Retry-After`` when it fits under the cap. Every refusal is a
``Refused`` whose message tells a model what happened and when to try again. Stdlib only; the clock
and the random source can be replaced in tests.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

__all__ = [
    "IDEMPOTENT_METHODS",
    "RETRY_STATUSES",
    "CircuitBreaker",
    "Guard",
    "Policy",
    "PolicyError",
    "Refused",
    "parse_retry_after",
]

# methods whose repetition has no extra effect (RFC 9110 §9.2.2): only these are ever retried
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
# answers worth another try: throttling and the usual signs of a struggling or restarting upstream
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
# answers that count as a failure of the upstream itself (for the circuit breaker)
FAILURE_STATUSES = frozenset({500, 502, 503, 504})

Clock = Callable[[], float]


class PolicyError(ValueError):
    """A resilience setting is unusable; the message names the environment variable."""


class Refused(Exception):
    """The call was not made (circuit open, rate or concurrency limit); safe to show a model."""


@dataclass(frozen=True, slots=True)
class Policy:
    """Retry, circuit and limit settings; ``0`` switches a limit (or retries) off."""

    retries: int = 2
    backoff: float = 0.25
    max_wait: float = 10.0
    circuit_threshold: int = 5
    circuit_cooldown: float = 30.0
    max_concurrency: int = 64
    rate_limit: float = 100.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str], prefix: str) -> Policy:
        """The policy from ``environ``; unset or empty variables keep their defaults.

        - ``<PREFIX>_RETRIES`` (2): extra attempts for idempotent methods (GET, HEAD, OPTIONS, PUT,
          DELETE) after a transport error, a timeout, 429 or 500/502/503/504; 0 disables retries.
        - ``<PREFIX>_RETRY_BACKOFF`` (0.25): seconds before the first retry; doubled for each
          further retry, with jitter (each wait is between half and all of its nominal value).
        - ``<PREFIX>_RETRY_MAX_WAIT`` (10): the longest wait before a retry, in seconds; a
          ``Retry-After`` asking for longer is not waited for (the answer goes back to the caller).
        - ``<PREFIX>_CIRCUIT_THRESHOLD`` (5): consecutive failed attempts (transport errors,
          timeouts, 500/502/503/504) that open the circuit: calls then fail at once; 0 disables it.
        - ``<PREFIX>_CIRCUIT_COOLDOWN`` (30): seconds the circuit stays open before one probe call
          is let through; its success closes the circuit, its failure opens it again.
        - ``<PREFIX>_MAX_CONCURRENCY`` (64): upstream calls in flight at once; more are refused
          at once; 0 means no limit.
        - ``<PREFIX>_RATE_LIMIT`` (100): upstream calls (tool calls and resource reads) per second,
          with bursts of as many; more are refused; 0 means no limit.
        """
        d = cls()
        return cls(
            retries=_integer(environ, f"{prefix}_RETRIES", d.retries, maximum=10),
            backoff=_seconds(environ, f"{prefix}_RETRY_BACKOFF", d.backoff),
            max_wait=_seconds(environ, f"{prefix}_RETRY_MAX_WAIT", d.max_wait),
            circuit_threshold=_integer(environ, f"{prefix}_CIRCUIT_THRESHOLD", d.circuit_threshold),
            circuit_cooldown=_seconds(environ, f"{prefix}_CIRCUIT_COOLDOWN", d.circuit_cooldown),
            max_concurrency=_integer(environ, f"{prefix}_MAX_CONCURRENCY", d.max_concurrency),
            rate_limit=_seconds(environ, f"{prefix}_RATE_LIMIT", d.rate_limit, what="calls"),
        )


def _raw(environ: Mapping[str, str], name: str) -> str:
    return (environ.get(name) or "").strip()


def _integer(environ: Mapping[str, str], name: str, default: int, maximum: int = 1_000_000) -> int:
    raw = _raw(environ, name)
    if not raw:
        return default
    if not raw.isdigit() or int(raw) > maximum:
        raise PolicyError(f"{name} must be a whole number from 0 to {maximum}, got {raw[:40]!r}")
    return int(raw)


def _seconds(
    environ: Mapping[str, str], name: str, default: float, *, what: str = "seconds"
) -> float:
    raw = _raw(environ, name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value < math.inf:
        raise PolicyError(f"{name} must be a number of {what} (0 or more), got {raw[:40]!r}")
    return value


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date), or ``None``."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, moment.timestamp() - current)


class CircuitBreaker:
    """Closed → open after ``threshold`` consecutive failures → half-open after ``cooldown``.

    Half-open lets exactly one attempt through (the probe); its outcome closes or re-opens the
    circuit. An attempt that ends without an outcome (cancelled) frees the probe slot.
    """

    def __init__(self, threshold: int, cooldown: float, origin: str, clock: Clock) -> None:
        self._threshold = threshold
        self._cooldown = cooldown
        self._origin = origin
        self._clock = clock
        self._failures = 0
        self._last_failure = ""
        self._opened_at: float | None = None
        self._probing = False

    @property
    def state(self) -> str:
        if self._opened_at is None:
            return "closed"
        if self._probing or self._clock() < self._opened_at + self._cooldown:
            return "open"
        return "half-open"

    def check(self) -> None:
        """Raise ``Refused`` while open (without claiming the probe)."""
        if self._opened_at is None:
            return
        remaining = self._opened_at + self._cooldown - self._clock()
        if remaining > 0:
            raise Refused(
                f"the upstream {self._origin} is failing ({self._failures} failed attempts in a "
                f"row, the last: {self._last_failure}); calls to it are paused for another "
                f"{math.ceil(remaining)} s"
            )
        if self._probing:
            raise Refused(
                f"the upstream {self._origin} is failing ({self._last_failure}); a test call is "
                "checking whether it has recovered: try again in a moment"
            )

    def admit(self) -> None:
        """Let one attempt through, or raise ``Refused``; in half-open this is the probe."""
        self.check()
        if self._opened_at is not None:
            self._probing = True

    def record(self, ok: bool, failure: str = "") -> None:
        self._probing = False
        if ok:
            self._failures = 0
            self._opened_at = None
            return
        self._failures += 1
        self._last_failure = failure
        if self._threshold and (self._failures >= self._threshold or self._opened_at is not None):
            self._opened_at = self._clock()

    def abandon(self) -> None:
        """The admitted attempt ended without an outcome: the next caller may probe."""
        self._probing = False


class _TokenBucket:
    def __init__(self, rate: float, clock: Clock) -> None:
        self._rate = rate
        self._capacity = max(1.0, rate)
        self._tokens = self._capacity
        self._clock = clock
        self._stamp = clock()

    def take(self) -> float:
        """0 when a token was taken, else the seconds until one is available."""
        now = self._clock()
        self._tokens = min(self._capacity, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) / self._rate


class Guard:
    """The limits and the circuit of one upstream, shared by all its concurrent calls."""

    def __init__(
        self,
        policy: Policy,
        origin: str,
        *,
        clock: Clock = time.monotonic,
        rng: Callable[[], float] = random.random,
    ) -> None:
        self.policy = policy
        self.circuit = CircuitBreaker(
            policy.circuit_threshold, policy.circuit_cooldown, origin, clock
        )
        self._bucket = _TokenBucket(policy.rate_limit, clock) if policy.rate_limit else None
        self._rng = rng
        self.in_flight = 0

    def enter(self) -> None:
        """Start a call, or raise ``Refused``; every successful ``enter`` needs one ``leave``."""
        self.circuit.check()
        limit = self.policy.max_concurrency
        if limit and self.in_flight >= limit:
            raise Refused(
                f"too many calls to the upstream at once (the limit is {limit}); try again when "
                "one has finished"
            )
        if self._bucket is not None:
            wait = self._bucket.take()
            if wait:
                raise Refused(
                    f"rate limit reached: at most {self.policy.rate_limit:g} upstream calls per "
                    f"second; try again in {max(wait, 0.1):.1f} s"
                )
        self.in_flight += 1

    def leave(self) -> None:
        self.in_flight -= 1

    def may_retry(self, method: str, attempt: int) -> bool:
        """Whether attempt number ``attempt`` (0 = the first) may be followed by another."""
        return method.upper() in IDEMPOTENT_METHODS and attempt < self.policy.retries

    def retry_delay(self, attempt: int, retry_after: float | None = None) -> float | None:
        """Seconds to wait before retrying after ``attempt``; ``None`` when it would be too long."""
        if retry_after is not None:
            return retry_after if retry_after <= self.policy.max_wait else None
        nominal = min(self.policy.max_wait, self.policy.backoff * 2.0**attempt)
        return nominal * (0.5 + self._rng() / 2)
