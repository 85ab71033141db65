"""The JWKS (the authorization server's signing keys): fetched with httpx, cached, refreshed carefully.

Keys are fetched on first use and kept for ``ttl`` seconds; a token's key is chosen by ``kid`` among
the keys that suit its ``alg`` (RSA keys for RS*/PS*, P-256 EC keys for ES256: ``Jwk.accepts``). A
token whose ``kid`` is not in the cached set triggers one refetch (key rotation), but never more often
than ``min_refresh_interval``, and a failed fetch is not retried before that interval either, so a
flood of bogus ``kid`` values or a dead JWKS host cannot make this server hammer the authorization
server. Fetches are serialised by a lock: a cold start under load makes one request. When a refresh
fails, the keys already known stay in use (and a warning is logged); with no keys at all every token
is refused until a fetch succeeds. The response is capped in size, redirects are not followed, and
the URL must be https (plain http only for loopback hosts, which is what tests and local
authorization servers use).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from collections.abc import Callable
from typing import Final
from urllib.parse import urlsplit

import httpx

from ..errors import KeysUnavailable as KeysUnavailable  # noqa: PLC0414 - re-exported
from .jwt import Jwk, JwtError, parse_jwk

logger = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS: Final = 300.0
DEFAULT_MIN_REFRESH_SECONDS: Final = 30.0
DEFAULT_TIMEOUT_SECONDS: Final = 10.0
MAX_JWKS_BYTES: Final = 256 * 1024
MAX_JWKS_KEYS: Final = 100


def is_loopback_host(host: str | None) -> bool:
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def jwks_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a JWKS URL (https required, http only for loopback), or None."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return "is not a valid URL"
    if parts.scheme == "https" and host:
        return None
    if parts.scheme == "http" and is_loopback_host(host):
        return None
    return "must be an https:// URL (plain http is allowed only for 127.0.0.1, ::1 and localhost)"


class JwksCache:
    """The cached key set of one JWKS URL; ``key_for`` picks the key a token names."""

    def __init__(
        self,
        url: str,
        *,
        ttl: float = DEFAULT_TTL_SECONDS,
        min_refresh_interval: float = DEFAULT_MIN_REFRESH_SECONDS,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        transport: httpx.AsyncBaseTransport | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        problem = jwks_url_problem(url)
        if problem is not None:
            raise ValueError(f"the JWKS URL {problem}")
        self._url = url
        self._ttl = ttl
        self._min_refresh_interval = min_refresh_interval
        self._timeout = timeout
        self._transport = transport
        self._monotonic = monotonic
        self._lock = asyncio.Lock()
        self._keys: tuple[Jwk, ...] | None = None
        self._fetched_at = 0.0
        self._attempted_at: float | None = None
        self._last_problem = "the JWKS has not been fetched yet"

    async def key_for(self, kid: str | None, alg: str) -> Jwk:
        """The key for a token's ``kid`` and ``alg``; refetches once for an unknown ``kid``.

        Raises ``KeysUnavailable`` when no key set could be obtained, ``JwtError`` when the key set
        has no (single) matching key.
        """
        key = _select(await self._current(), kid, alg)
        if key is None and kid is not None:
            key = _select(await self._refreshed(), kid, alg)
        if key is None:
            if kid is None:
                raise JwtError("the token names no key (kid) and the JWKS has no single match")
            raise JwtError("the token is signed with a key this server does not know (kid)")
        return key

    async def _current(self) -> tuple[Jwk, ...]:
        async with self._lock:
            now = self._monotonic()
            if self._keys is not None and now - self._fetched_at < self._ttl:
                return self._keys
            if self._may_fetch(now):
                await self._fetch(now)
            if self._keys is None:
                raise KeysUnavailable(self._last_problem)
            return self._keys

    async def _refreshed(self) -> tuple[Jwk, ...]:
        # another coroutine may have refreshed while this one waited: use its result
        async with self._lock:
            now = self._monotonic()
            if self._may_fetch(now):
                await self._fetch(now)
            return self._keys or ()

    def _may_fetch(self, now: float) -> bool:
        return self._attempted_at is None or now - self._attempted_at >= self._min_refresh_interval

    async def _fetch(self, now: float) -> None:
        self._attempted_at = now
        try:
            keys = _parse_jwks(await self._download())
        except KeysUnavailable as exc:
            self._last_problem = str(exc)
            kept = "keeping the keys fetched earlier" if self._keys else "no keys available"
            logger.warning("could not fetch the JWKS from %s: %s (%s)", self._url, exc, kept)
            return
        self._keys = keys
        self._fetched_at = now

    async def _download(self) -> bytes:
        try:
            async with (
                httpx.AsyncClient(
                    transport=self._transport, timeout=self._timeout, follow_redirects=False
                ) as client,
                client.stream("GET", self._url, headers={"Accept": "application/json"}) as response,
            ):
                if response.status_code != 200:
                    raise KeysUnavailable(f"HTTP status {response.status_code}")
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > MAX_JWKS_BYTES:
                        raise KeysUnavailable(f"the response is larger than {MAX_JWKS_BYTES} bytes")
                return bytes(body)
        except httpx.TimeoutException:
            raise KeysUnavailable(f"no answer within {self._timeout:g} s") from None
        except httpx.HTTPError as exc:
            raise KeysUnavailable(f"{type(exc).__name__}: {exc}") from None


def _parse_jwks(body: bytes) -> tuple[Jwk, ...]:
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        raise KeysUnavailable("the response is not JSON") from None
    entries = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise KeysUnavailable('the response is not a JWK set (no "keys" array)')
    keys = tuple(key for key in map(parse_jwk, entries[:MAX_JWKS_KEYS]) if key is not None)
    if not keys:
        raise KeysUnavailable("the JWK set holds no usable signing key (RSA, or EC on P-256)")
    return keys


def _select(keys: tuple[Jwk, ...], kid: str | None, alg: str) -> Jwk | None:
    # a key must suit the token's alg: its family (kty/crv) and its own alg, when it names one;
    # a token without kid is accepted only when exactly one key could have signed it
    matches = [k for k in keys if (kid is None or k.kid == kid) and k.accepts(alg)]
    return matches[0] if len(matches) == 1 else None
