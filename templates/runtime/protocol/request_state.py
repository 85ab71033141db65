"""Integrity-protected ``requestState`` for multi round-trip requests (mcp-wire §6).

A server that answers ``input_required`` hands the client an opaque ``requestState`` to echo on the
retry. The client is not trusted with it: the state carries the answers gathered in earlier rounds
and the keys of the questions just asked, and a confirmation is only honoured when the state says it
was asked. So the state is sealed with HMAC-SHA256 under a secret from the environment (every replica
behind a load balancer must share it; without one, each process draws its own and a retry reaching
another process fails cleanly). The sealed payload binds the state to what it was issued for: the
method, the tool or prompt name, a digest of the original arguments, the caller's subject when
inbound authentication is on, and an expiry. Anything that does not verify is ``StateError``, which
the protocol layer answers with ``-32602`` before anything reaches the upstream API.

Format: ``v1.<payload>.<tag>``, both parts URL-safe base64 without padding; the payload is compact
JSON, signed, not encrypted: it holds nothing the client did not send (its own answers). A state
that holds what the client must not read (code mode's journal: what the API answered to calls of
the model's program, of which only the program's result is the client's) is sealed private:
``v2.<nonce and ciphertext>``, AES-256-GCM under a key drawn from the same secret (the
``cryptography`` package, which the ``code`` extra brings), so it is neither readable nor alterable.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import StateError as StateError  # noqa: PLC0414 - re-exported
from .jsonrpc import JsonObject

VERSION: Final = "v1"
PRIVATE: Final = "v2"
_NONCE_BYTES: Final = 12
DEFAULT_TTL_SECONDS: Final = 600
MIN_SECRET_BYTES: Final = 16
# a state is a few answers; anything larger is not one of ours
MAX_STATE_CHARS: Final = 64 * 1024


def arguments_digest(arguments: Any) -> str:
    """A digest of a request's arguments, independent of key order and JSON spacing."""
    canonical = json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).digest()
    return _b64(digest[:18])


@dataclass(frozen=True, slots=True)
class Binding:
    """What a state is issued for; a retry must present the same."""

    method: str
    name: str
    digest: str
    subject: str | None = None


@dataclass(frozen=True, slots=True)
class State:
    """The verified content of a ``requestState``."""

    answers: Mapping[str, JsonObject] = field(default_factory=dict)
    asked: tuple[str, ...] = ()


class StateSigner:
    """Seals and opens ``requestState`` values with one secret."""

    def __init__(
        self,
        secret: bytes,
        *,
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if len(secret) < MIN_SECRET_BYTES:
            raise ValueError(f"the requestState secret needs at least {MIN_SECRET_BYTES} bytes")
        self._key = hashlib.sha256(b"openapi2mcp requestState " + secret).digest()
        self._private_key = hashlib.sha256(b"openapi2mcp private requestState " + secret).digest()
        self._ttl = ttl_seconds
        self._clock = clock

    @classmethod
    def ephemeral(cls, *, ttl_seconds: float = DEFAULT_TTL_SECONDS) -> StateSigner:
        """A signer with a random secret of this process only."""
        return cls(secrets.token_bytes(32), ttl_seconds=ttl_seconds)

    def seal(self, binding: Binding, state: State, *, private: bool = False) -> str:
        """``state`` as a token for ``binding``: signed, or encrypted too when ``private``."""
        payload = {
            "m": binding.method,
            "n": binding.name,
            "d": binding.digest,
            "s": binding.subject,
            "x": int(self._clock() + self._ttl),
            "a": dict(state.answers),
            "q": list(state.asked),
        }
        raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
        if private:
            nonce = secrets.token_bytes(_NONCE_BYTES)
            sealed = _aead(self._private_key).encrypt(nonce, raw, PRIVATE.encode())
            return f"{PRIVATE}.{_b64(nonce + sealed)}"
        signed = f"{VERSION}.{_b64(raw)}"
        return f"{signed}.{_b64(self._tag(signed))}"

    def open(self, token: Any, binding: Binding) -> State:
        """The state inside ``token``, verified against ``binding``; ``StateError`` otherwise."""
        if not isinstance(token, str):
            raise StateError("requestState must be a string")
        if len(token) > MAX_STATE_CHARS:
            raise StateError("requestState is too long")
        version, _, rest = token.partition(".")
        if version == PRIVATE:
            return _checked(self._decrypted(rest), binding, self._clock())
        body, _, tag = rest.partition(".")
        if version != VERSION or not body or not tag:
            raise StateError("requestState is not one this server issued")
        try:
            expected = _unb64(tag)
            raw = _unb64(body)
        except ValueError:
            raise StateError("requestState is not one this server issued") from None
        if not hmac.compare_digest(expected, self._tag(f"{version}.{body}")):
            raise StateError("requestState failed its integrity check")
        try:
            payload = json.loads(raw)
        except ValueError:
            raise StateError("requestState failed its integrity check") from None
        return _checked(payload, binding, self._clock())

    def _decrypted(self, body: str) -> Any:
        try:
            raw = _unb64(body)
        except ValueError:
            raise StateError("requestState is not one this server issued") from None
        if len(raw) <= _NONCE_BYTES:
            raise StateError("requestState is not one this server issued")
        try:
            aead = _aead(self._private_key)
        except ImportError:
            raise StateError("requestState is not one this server issued") from None
        try:
            plain = aead.decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], PRIVATE.encode())
            return json.loads(plain)
        except Exception:  # InvalidTag, or JSON that no seal wrote
            raise StateError("requestState failed its integrity check") from None

    def _tag(self, signed: str) -> bytes:
        return hmac.new(self._key, signed.encode("ascii"), hashlib.sha256).digest()


def _aead(key: bytes) -> Any:
    """AES-256-GCM with ``key`` (``cryptography`` is imported here, when a state is private)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: PLC0415 - lazy

    return AESGCM(key)


def _checked(payload: Any, binding: Binding, now: float) -> State:
    if not isinstance(payload, dict):
        raise StateError("requestState failed its integrity check")
    expiry = payload.get("x")
    if not isinstance(expiry, int) or now > expiry:
        raise StateError("requestState has expired; call again without it")
    if payload.get("m") != binding.method or payload.get("n") != binding.name:
        raise StateError("requestState was issued for another request")
    if payload.get("d") != binding.digest:
        raise StateError("requestState was issued for other arguments")
    if payload.get("s") != binding.subject:
        raise StateError("requestState was issued to another caller")
    answers, asked = payload.get("a"), payload.get("q")
    if not isinstance(answers, dict) or not isinstance(asked, list):
        raise StateError("requestState failed its integrity check")
    return State(
        {key: value for key, value in answers.items() if isinstance(value, dict)},
        tuple(key for key in asked if isinstance(key, str)),
    )


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError(str(exc)) from None
