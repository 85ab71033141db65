"""Keeping the upstream API healthy and every call bounded: retries, a circuit breaker, limits.

``Policy`` holds the knobs and reads them from the environment (``Policy.from_env`` lists the
variables). ``Guard`` is what ``Upstream`` consults around each call: a token-bucket limit on
invocations per second and a cap on calls in flight, both of which make a call wait its turn for a
short while (``limit_wait``) before refusing it, and one ``CircuitBreaker`` per operation. A circuit
opens after a run of consecutive failures of the upstream itself (transport errors, timeouts and the
gateway statuses 502/503/504) so that a failing route is not hammered, then half-opens after a
cool-down to let one probe through. What the API answers to one bad request (a 4xx, a 500, a 429)
never opens a circuit, and one operation's failures never pause another: a healthy read keeps
working while a broken write is paused. ``Guard.retry_delay`` is exponential backoff with jitter, or
the upstream's ``Retry-After`` when it fits under the cap. Every refusal is a ``Refused`` whose
message tells a model what happened and when to try again; ``failure_reason`` names what went
wrong with a connection (refused, host not found, TLS), and ``answer_failure`` a failing answer
with the reason its body gives, which a paused call's message keeps (the API's own words often say
what to do). Stdlib only; the clock, the sleep and the random source can be replaced in tests.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from ..environment import name as env_name
from ..errors import PolicyError, Refused
from .redaction import scrub_credentials

__all__ = [
    "IDEMPOTENT_METHODS",
    "RETRY_STATUSES",
    "SAFE_METHODS",
    "CircuitBreaker",
    "Guard",
    "Policy",
    "PolicyError",
    "Refused",
    "answer_failure",
    "failure_reason",
    "maybe_done",
    "parse_retry_after",
]

# methods whose repetition has no extra effect (RFC 9110 §9.2.2): only these are retried after a
# failure that may have happened after the request was acted on
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


# methods that change nothing: a request of theirs that went out and got no answer is sent again
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def maybe_done(method: str) -> str:
    """What a failure after the request went out leaves unknown, for a method that changes
    something: NocoDB had made the record a POST timed out on, and a model that read "timed out"
    made it again; Signal K's PUT of the next point of a route, sent three times after it timed
    out, moved the boat three legs on. A PUT or DELETE is meant to be repeatable, but an API's
    may not be."""
    if method.upper() in SAFE_METHODS:
        return ""
    return "; the request was sent, and the API may have made the change: check before repeating it"


# a gateway or an overloaded upstream: worth another try for idempotent methods, and what counts as
# a failure of the upstream itself (for the circuit breaker). A 500 is not among them: it is most
# often the API's answer to this one request, and the same request gets the same answer again.
RETRY_STATUSES = frozenset({502, 503, 504})
FAILURE_STATUSES = RETRY_STATUSES
# throttled (RFC 6585): the request was not acted on, so any method may be sent again
THROTTLED = 429

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


_REASONS = (
    ("refused", "connection refused"),
    ("name or service not known", "host not found"),
    ("nodename nor servname", "host not found"),
    ("getaddrinfo", "host not found"),
    ("name resolution", "host not found"),
    ("no address associated", "host not found"),
    ("certificate", "TLS certificate verification failed"),
    ("unreachable", "network is unreachable"),
    ("reset by peer", "connection reset"),
    ("server disconnected", "the server closed the connection without answering"),
)


def failure_reason(exc: BaseException) -> str:
    """A short cause of a transport failure, found along the exception chain (httpx wraps the OS
    error twice)."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    for error in chain:
        if isinstance(error, ConnectionRefusedError):
            return "connection refused"
        if isinstance(error, socket.gaierror):
            return "host not found"
        if isinstance(error, ssl.SSLCertVerificationError):
            return "TLS certificate verification failed"
    for error in chain:
        lowered = str(error).lower()
        for needle, reason in _REASONS:
            if needle in lowered:
                return reason
    text = str(exc)
    return text[:200] if text else type(exc).__name__


# what a failing answer's own reason may take of a circuit's message
MAX_REASON_CHARS = 200
# where APIs put what went wrong: FastAPI's detail, RFC 9457's title, OpenAI's error.message
_REASON_KEYS = ("detail", "message", "error", "title")
# a larger body is no short reason (and is not parsed on every failure)
_REASON_BODY_BYTES = 64 * 1024


def answer_failure(status: int, reason: str, body: bytes, content_type: str) -> str:
    """A failing answer as a circuit names it: its status, and the reason its body gives, when it
    gives one (Open WebUI's 503 "The Ollama API is disabled. Please enable it to use this
    feature." tells a model what to do; the status alone, only to wait). ``body`` comes with the
    configured credentials masked; credential-looking fields are masked here too."""
    line = f"HTTP {status} {reason}".rstrip()
    said = " ".join(_body_reason(body[:_REASON_BODY_BYTES], content_type).split())
    if not said:
        return line
    said = scrub_credentials(said)
    if len(said) > MAX_REASON_CHARS:
        said = said[: MAX_REASON_CHARS - 1] + "…"
    return f"{line}: {said}"


def _body_reason(body: bytes, content_type: str) -> str:
    media = content_type.split(";", 1)[0].strip().lower()
    if "json" in media:
        try:
            return _json_reason(json.loads(body))
        except ValueError:
            return ""
    if media.startswith("text/") and media not in ("text/html", "text/xml"):
        return body[: 4 * MAX_REASON_CHARS].decode("utf-8", "replace")
    return ""  # a web page, an image: nothing a model can read in a line


def _json_reason(value: object, depth: int = 0) -> str:
    """The first string under a reason key, one level down too (``{"error": {"message": …}}``),
    or the body when it is a JSON string."""
    if isinstance(value, str) and depth == 0:
        return value
    if not isinstance(value, dict):
        return ""
    for key in _REASON_KEYS:
        said = value.get(key)
        if isinstance(said, str) and said.strip():
            return said
        if isinstance(said, dict) and depth == 0 and (inner := _json_reason(said, 1)):
            return inner
    return ""


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
    limit_wait: float = 2.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str], prefix: str) -> Policy:
        """The policy from ``environ``; unset or empty variables keep the defaults above, which
        ``environment.VARIABLES`` documents (``<PREFIX>_RETRIES`` and the rest of its tuning group).
        Retries apply to idempotent methods (GET, HEAD, OPTIONS, PUT, DELETE) after a transport
        error, a timeout or 502/503/504, and to any method after 429 (a throttled request was not
        acted on); a ``Retry-After`` asking for longer than the longest wait is not waited for.
        A circuit opened by consecutive failures lets one probe call through after the cooldown.
        """
        d = cls()
        return cls(
            retries=_integer(environ, env_name(prefix, "RETRIES"), d.retries, maximum=10),
            backoff=_seconds(environ, env_name(prefix, "RETRY_BACKOFF"), d.backoff),
            max_wait=_seconds(environ, env_name(prefix, "RETRY_MAX_WAIT"), d.max_wait),
            circuit_threshold=_integer(
                environ, env_name(prefix, "CIRCUIT_THRESHOLD"), d.circuit_threshold
            ),
            circuit_cooldown=_seconds(
                environ, env_name(prefix, "CIRCUIT_COOLDOWN"), d.circuit_cooldown
            ),
            max_concurrency=_integer(
                environ, env_name(prefix, "MAX_CONCURRENCY"), d.max_concurrency
            ),
            rate_limit=_seconds(
                environ, env_name(prefix, "RATE_LIMIT"), d.rate_limit, what="calls"
            ),
            limit_wait=_seconds(environ, env_name(prefix, "LIMIT_WAIT"), d.limit_wait),
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
    circuit. An attempt that ends without an outcome (cancelled) frees the probe slot. ``label``
    names what the circuit guards in messages (``GET /pets/{petId} at https://api.example.com``).
    """

    def __init__(self, threshold: int, cooldown: float, label: str, clock: Clock) -> None:
        self._threshold = threshold
        self._cooldown = cooldown
        self._label = label
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
                f"{self._label} is failing ({self._failures} failed attempts in a row, the last: "
                f"{self._last_failure}); calls to it are paused for another "
                f"{math.ceil(remaining)} s (other operations are not affected)"
            )
        if self._probing:
            raise Refused(
                f"{self._label} is failing ({self._last_failure}); a test call is checking "
                "whether it has recovered: try again in a moment"
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
    """Calls per second with bursts of as many; a call may reserve a token that is not there yet."""

    def __init__(self, rate: float, clock: Clock) -> None:
        self._rate = rate
        self._capacity = max(1.0, rate)
        self._tokens = self._capacity
        self._clock = clock
        self._stamp = clock()

    def reserve(self, patience: float) -> tuple[bool, float]:
        """``(True, wait)``: a token is the caller's after ``wait`` seconds (0: now); ``(False,
        wait)``: none would be within ``patience`` seconds, nothing was reserved."""
        now = self._clock()
        self._tokens = min(self._capacity, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        # the tokens may go below zero: each reservation queues behind the ones before it
        wait = max(0.0, (1 - self._tokens) / self._rate)
        if wait > patience:
            return False, wait
        self._tokens -= 1
        return True, wait


class Guard:
    """The limits of one upstream, shared by all its concurrent calls, and a circuit per operation."""

    def __init__(
        self,
        policy: Policy,
        origin: str,
        *,
        clock: Clock = time.monotonic,
        rng: Callable[[], float] = random.random,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.policy = policy
        self._origin = origin
        self._clock = clock
        self._circuits: dict[str, CircuitBreaker] = {}
        self._bucket = _TokenBucket(policy.rate_limit, clock) if policy.rate_limit else None
        self._rng = rng
        self._sleep = sleep
        self.in_flight = 0
        # calls waiting for a free slot under the concurrency limit, first come first served
        self._waiting: list[asyncio.Future[None]] = []

    def circuit(self, key: str, label: str) -> CircuitBreaker:
        """The circuit of operation ``key``; ``label`` (``GET /pets``) names it in messages."""
        circuit = self._circuits.get(key)
        if circuit is None:
            circuit = CircuitBreaker(
                self.policy.circuit_threshold,
                self.policy.circuit_cooldown,
                f"{label} at {self._origin}",
                self._clock,
            )
            self._circuits[key] = circuit
        return circuit

    async def enter(self) -> None:
        """Start a call once the limits allow it, or raise ``Refused`` after ``limit_wait``.

        Every successful ``enter`` needs one ``leave``.
        """
        patience = self.policy.limit_wait
        if self._bucket is not None:
            granted, wait = self._bucket.reserve(patience)
            if not granted:
                waited = f" and waiting {patience:g} s would not be enough" if patience else ""
                raise Refused(
                    f"rate limit reached: at most {self.policy.rate_limit:g} upstream calls per "
                    f"second{waited}; try again in {max(wait, 0.1):.1f} s"
                )
            if wait:
                await self._sleep(wait)
        await self._slot(patience)

    async def _slot(self, patience: float) -> None:
        """Take a slot under the concurrency limit, waiting up to ``patience`` seconds for one."""
        limit = self.policy.max_concurrency
        if not limit or (self.in_flight < limit and not self._waiting):
            self.in_flight += 1
            return
        if patience:
            # ``leave`` hands its slot to the first caller in line (in_flight already counts it)
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.append(turn)
            try:
                await asyncio.wait_for(asyncio.shield(turn), patience)
                return
            except TimeoutError:
                if turn.done():
                    return  # handed over just as the wait ran out
            except BaseException:
                if turn.done():
                    self.leave()  # cancelled after the hand-over: pass the slot on
                raise
            finally:
                if turn in self._waiting:
                    self._waiting.remove(turn)
        waited = f" and none finished within {patience:g} s" if patience else ""
        raise Refused(
            f"too many calls to the upstream at once (the limit is {limit}{waited}); try again "
            "when one has finished"
        )

    def leave(self) -> None:
        """End a call; its slot goes to the first caller waiting for one."""
        if self._waiting:
            turn = self._waiting.pop(0)
            turn.set_result(None)  # in_flight stays: the slot changes hands
            return
        self.in_flight -= 1

    def may_retry(self, method: str, attempt: int, status: int | None = None) -> bool:
        """Whether attempt number ``attempt`` (0 = the first) may be followed by another.

        A throttled answer (429) may be retried whatever the method; anything else only for
        idempotent methods.
        """
        if attempt >= self.policy.retries:
            return False
        return status == THROTTLED or method.upper() in IDEMPOTENT_METHODS

    def retry_delay(self, attempt: int, retry_after: float | None = None) -> float | None:
        """Seconds to wait before retrying after ``attempt``; ``None`` when it would be too long."""
        if retry_after is not None:
            return retry_after if retry_after <= self.policy.max_wait else None
        nominal = min(self.policy.max_wait, self.policy.backoff * 2.0**attempt)
        return nominal * (0.5 + self._rng() / 2)
