"""Per-user upstream credentials at rest: one encrypted store, in SQLite or in Redis.

``open_store(url, key)`` opens what ``<PREFIX>_TOKEN_STORE`` names: ``sqlite:///absolute/path.db`` or
``sqlite:relative/path.db`` (sqlite3 from the standard library; one connection on a thread of its own,
WAL, the file created 0600) or ``redis://host:port/db`` / ``rediss://…`` (the ``redis`` client, the
``redis`` extra; replicas share it). A ``sqlite:`` URL reads like a file URL: after ``sqlite://`` comes an
empty host, so three slashes mean an absolute path (SQLAlchemy reads them as relative), and a relative
path is written without slashes and resolved against the working directory when the store is opened.
Values are sealed by ``sealing.Sealer`` (AES-GCM, associated data naming the row's context) and rows
are named by HMAC digests, so neither the file nor Redis holds an issuer, a subject, a scheme or a
sign-in nonce in plaintext; the rows of one principal share an owner digest, which ``revoke_all``
deletes by. A value that does not open (another key, a value moved to another user's row, damage)
reads as absent (``None``), and a warning without identifiers is logged. Pending sign-in records are
single-use: ``take_pending`` removes and returns in one step (an SQLite transaction, Redis GETDEL)
and refuses a record past its deadline on the store's clock (Redis also expires the key itself).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar, cast
from urllib.parse import unquote, urlsplit

from .sealing import Credential, CredentialKind, Sealer, TokenStoreError, parse_store_key

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = [
    "Credential",
    "CredentialKind",
    "CredentialStore",
    "LazyStore",
    "Owner",
    "TokenStoreError",
    "open_store",
    "parse_store_key",
]

logger = logging.getLogger(__name__)
T = TypeVar("T")

REDIS_PREFIX: Final = "mcp-token-store:"
_FORMS: Final = (
    "sqlite:///absolute/path.db, sqlite:relative/path.db, redis://host:port/db or rediss://…"
)


class Owner(Protocol):
    """Whose credentials: the inbound principal's issuer and subject."""

    @property
    def issuer(self) -> str: ...

    @property
    def subject(self) -> str: ...


class CredentialStore(ABC):
    """Credentials per (issuer, subject, scheme) and single-use pending sign-ins, sealed at rest.

    Use ``open_store``; close with ``close()`` or ``async with``. Backend failures raise
    ``TokenStoreError``; a value that cannot be opened reads as absent (``None``).
    """

    _failures: tuple[type[Exception], ...] = ()

    def __init__(self, sealer: Sealer, clock: Callable[[], float]) -> None:
        self._sealer = sealer
        self._clock = clock

    async def get(self, principal: Owner, scheme: str) -> Credential | None:
        """The stored credential, expired or not (``Credential.expired`` tells), or None."""
        context = ("credential", principal.issuer, principal.subject, scheme)
        sealed = await self._guard(self._load(self._owner(principal), self._sealer.name(*context)))
        plaintext = self._unseal(sealed, context)
        try:
            return None if plaintext is None else Credential.from_json(plaintext)
        except ValueError:
            logger.warning("token store: a stored credential is malformed; treated as absent")
            return None

    async def put(self, principal: Owner, scheme: str, credential: Credential) -> None:
        context = ("credential", principal.issuer, principal.subject, scheme)
        sealed = self._sealer.seal(credential.to_json(), *context)
        name = self._sealer.name(*context)
        await self._guard(self._save(self._owner(principal), name, sealed))

    async def delete(self, principal: Owner, scheme: str) -> bool:
        """Forget one scheme's credential; whether there was one."""
        name = self._sealer.name("credential", principal.issuer, principal.subject, scheme)
        return await self._guard(self._erase(self._owner(principal), name))

    async def revoke_all(self, principal: Owner) -> int:
        """Forget every credential of ``principal``; how many there were."""
        return await self._guard(self._erase_owner(self._owner(principal)))

    async def put_pending(self, nonce: str, record: Mapping[str, Any], ttl_seconds: float) -> None:
        """Keep a JSON-able ``record`` for ``take_pending(nonce)`` during ``ttl_seconds``."""
        if not nonce:
            raise ValueError("a pending sign-in needs a nonce")
        if not ttl_seconds > 0:
            raise ValueError("ttl_seconds must be positive")
        now = self._clock()
        body = json.dumps({"expires_at": now + ttl_seconds, "record": dict(record)}).encode()
        sealed = self._sealer.seal(body, "pending", nonce)
        await self._guard(self._park(self._sealer.name("pending", nonce), sealed, now, ttl_seconds))

    async def take_pending(self, nonce: str) -> dict[str, Any] | None:
        """The record kept under ``nonce``, removed in the same step; None if absent or expired."""
        now = self._clock()
        sealed = await self._guard(self._claim(self._sealer.name("pending", nonce), now))
        plaintext = self._unseal(sealed, ("pending", nonce))
        data = None if plaintext is None else json.loads(plaintext)
        if not isinstance(data, dict) or not isinstance(data.get("record"), dict):
            return None
        expires_at = data.get("expires_at")
        if not isinstance(expires_at, int | float) or now >= expires_at:
            return None
        return cast("dict[str, Any]", data["record"])

    async def __aenter__(self) -> CredentialStore:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    def _owner(self, principal: Owner) -> str:
        return self._sealer.name("owner", principal.issuer, principal.subject)

    def _unseal(self, sealed: bytes | None, context: tuple[str, ...]) -> bytes | None:
        if sealed is None:
            return None
        plaintext = self._sealer.open(sealed, *context)
        if plaintext is None:
            logger.warning(
                "token store: a stored %s did not decrypt (another TOKEN_STORE_KEY, or a value "
                "moved to another row); treated as absent",
                context[0],
            )
        return plaintext

    async def _guard(self, operation: Awaitable[T]) -> T:
        try:
            return await operation
        except self._failures as error:
            raise TokenStoreError(f"the token store failed ({type(error).__name__})") from error

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def _load(self, owner: str, name: str) -> bytes | None: ...

    @abstractmethod
    async def _save(self, owner: str, name: str, sealed: bytes) -> None: ...

    @abstractmethod
    async def _erase(self, owner: str, name: str) -> bool: ...

    @abstractmethod
    async def _erase_owner(self, owner: str) -> int: ...

    @abstractmethod
    async def _park(self, name: str, sealed: bytes, now: float, ttl: float) -> None: ...

    @abstractmethod
    async def _claim(self, name: str, now: float) -> bytes | None: ...


_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS credentials (name TEXT PRIMARY KEY, owner TEXT NOT NULL, sealed BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS credentials_owner ON credentials (owner);
CREATE TABLE IF NOT EXISTS pending (name TEXT PRIMARY KEY, expires_at REAL NOT NULL, sealed BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS pending_expiry ON pending (expires_at);
"""


class SqliteStore(CredentialStore):
    """The store in one SQLite file; every statement runs on the store's own thread, in order."""

    _failures = (sqlite3.Error, OSError)

    def __init__(self, path: Path, sealer: Sealer, clock: Callable[[], float]) -> None:
        super().__init__(sealer, clock)
        self.path = path
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="token-store")
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # created private before SQLite opens it; its -wal and -shm files inherit the mode
        os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
        db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.executescript(_SCHEMA)
        except BaseException:
            db.close()
            raise
        self._db = db

    async def open(self, setting: str) -> None:
        """Create the file (0600) and the schema; an unusable file is a ``TokenStoreError``."""
        try:
            await asyncio.get_running_loop().run_in_executor(self._thread, self._connect)
        except (sqlite3.Error, OSError) as error:
            await self.close()
            raise TokenStoreError(
                f"{setting}: cannot open the SQLite token store ({type(error).__name__}: {error})"
            ) from None

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        db = self._db
        if db is None:
            raise TokenStoreError("the token store is closed")
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, db)

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, db.close)
        self._thread.shutdown(wait=False)

    async def _load(self, owner: str, name: str) -> bytes | None:
        query = "SELECT sealed FROM credentials WHERE name = ?"
        row = await self._run(lambda db: db.execute(query, (name,)).fetchone())
        return None if row is None else bytes(row[0])

    async def _save(self, owner: str, name: str, sealed: bytes) -> None:
        query = "INSERT OR REPLACE INTO credentials (name, owner, sealed) VALUES (?, ?, ?)"
        await self._run(lambda db: db.execute(query, (name, owner, sealed)))

    async def _erase(self, owner: str, name: str) -> bool:
        query = "DELETE FROM credentials WHERE name = ?"
        return await self._run(lambda db: db.execute(query, (name,)).rowcount) > 0

    async def _erase_owner(self, owner: str) -> int:
        query = "DELETE FROM credentials WHERE owner = ?"
        return await self._run(lambda db: db.execute(query, (owner,)).rowcount)

    async def _park(self, name: str, sealed: bytes, now: float, ttl: float) -> None:
        def park(db: sqlite3.Connection) -> None:
            with _transaction(db):
                db.execute("DELETE FROM pending WHERE expires_at <= ?", (now,))
                db.execute(
                    "INSERT OR REPLACE INTO pending (name, expires_at, sealed) VALUES (?, ?, ?)",
                    (name, now + ttl, sealed),
                )

        await self._run(park)

    async def _claim(self, name: str, now: float) -> bytes | None:
        def claim(db: sqlite3.Connection) -> bytes | None:
            with _transaction(db):
                db.execute("DELETE FROM pending WHERE expires_at <= ?", (now,))
                row = db.execute("SELECT sealed FROM pending WHERE name = ?", (name,)).fetchone()
                db.execute("DELETE FROM pending WHERE name = ?", (name,))
            return None if row is None else bytes(row[0])

        return await self._run(claim)


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT (ROLLBACK on error): other processes on the file wait their turn."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class RedisStore(CredentialStore):
    """The store in Redis: a hash per owner (field per scheme), a key with a TTL per pending sign-in."""

    def __init__(
        self, client: Redis, failures: type[Exception], sealer: Sealer, clock: Callable[[], float]
    ) -> None:
        super().__init__(sealer, clock)
        self._client = client
        self._failures = (failures, OSError)

    async def close(self) -> None:
        await self._client.aclose()

    async def _load(self, owner: str, name: str) -> bytes | None:
        return cast("bytes | None", await self._client.hget(REDIS_PREFIX + "c:" + owner, name))

    async def _save(self, owner: str, name: str, sealed: bytes) -> None:
        await self._client.hset(REDIS_PREFIX + "c:" + owner, name, sealed)

    async def _erase(self, owner: str, name: str) -> bool:
        return bool(await self._client.hdel(REDIS_PREFIX + "c:" + owner, name))

    async def _erase_owner(self, owner: str) -> int:
        key = REDIS_PREFIX + "c:" + owner
        async with self._client.pipeline(transaction=True) as pipe:
            pipe.hlen(key)
            pipe.delete(key)
            count, _ = await pipe.execute()
        return int(count)

    async def _park(self, name: str, sealed: bytes, now: float, ttl: float) -> None:
        await self._client.set(REDIS_PREFIX + "p:" + name, sealed, px=max(1, math.ceil(ttl * 1000)))

    async def _claim(self, name: str, now: float) -> bytes | None:
        return cast("bytes | None", await self._client.getdel(REDIS_PREFIX + "p:" + name))


async def open_store(
    url: str,
    key: bytes,
    *,
    setting: str = "TOKEN_STORE",
    namespace: str = "",
    clock: Callable[[], float] = time.time,
) -> CredentialStore:
    """The store ``url`` names, sealed under ``key`` (``parse_store_key``), its schema ready.

    ``setting`` names the variable in messages (``PETSTORE_TOKEN_STORE``); ``namespace`` (the server's
    prefix) keeps two servers that share a store and a key apart; ``clock`` gives Unix time.
    """
    parts = urlsplit(url.strip())
    if parts.scheme == "sqlite":
        store = SqliteStore(_sqlite_path(url, setting), Sealer(key, namespace), clock)
        await store.open(setting)
        return store
    if parts.scheme in {"redis", "rediss"}:
        return await _open_redis(url.strip(), setting, Sealer(key, namespace), clock)
    if not parts.scheme:
        raise TokenStoreError(f"{setting} is not a URL; use {_FORMS}")
    raise TokenStoreError(f"{setting}: unsupported store {parts.scheme!r}; use {_FORMS}")


def _sqlite_path(url: str, setting: str) -> Path:
    parts = urlsplit(url.strip())
    if parts.netloc:
        raise TokenStoreError(
            f"{setting}: a sqlite URL names a file, not a host: "
            "write sqlite:///absolute/path.db or sqlite:relative/path.db"
        )
    if parts.query or parts.fragment or url.rstrip().endswith(("?", "#")):
        raise TokenStoreError(f"{setting}: a sqlite URL takes no query or fragment")
    path = unquote(parts.path)
    if not path or path.endswith("/"):
        raise TokenStoreError(
            f"{setting}: the sqlite URL names no file: "
            "write sqlite:///absolute/path.db or sqlite:relative/path.db"
        )
    # sqlite:////x (SQLAlchemy's absolute form) is the same file as sqlite:///x
    return Path("/" + path.lstrip("/")) if path.startswith("/") else Path(path).absolute()


async def _open_redis(
    url: str, setting: str, sealer: Sealer, clock: Callable[[], float]
) -> RedisStore:
    parts = urlsplit(url)
    try:
        port = parts.port or 6379
    except ValueError:
        raise TokenStoreError(f"{setting}: the redis URL's port is not a number") from None
    if not parts.hostname:
        raise TokenStoreError(f"{setting}: the redis URL names no host; use redis://host:port/db")
    if not re.fullmatch(r"/?|/\d+", parts.path):
        raise TokenStoreError(
            f"{setting}: the redis URL's path must be a database number, as in redis://host:6379/0"
        )
    try:
        from redis.asyncio import Redis  # noqa: PLC0415
        from redis.exceptions import RedisError  # noqa: PLC0415
    except ImportError:
        raise TokenStoreError(
            f"{setting} names a Redis store, but the redis client is not installed: "
            "install the server with its redis extra (pip install '<server>[redis]')"
        ) from None
    client = Redis.from_url(url, socket_timeout=10.0, socket_connect_timeout=10.0)
    try:
        await client.ping()
    except (RedisError, OSError) as error:
        await client.aclose()
        where = f"{parts.hostname}:{port}"  # never the URL: it may hold a password
        raise TokenStoreError(
            f"{setting}: cannot reach the Redis token store at {where} ({type(error).__name__})"
        ) from None
    return RedisStore(client, RedisError, sealer, clock)


class LazyStore:
    """A store opened on first use (or by :meth:`start`, at start-up), so that settings can be
    checked before the event loop runs; every operation of :class:`CredentialStore`."""

    def __init__(self, url: str, key: bytes, *, setting: str, namespace: str) -> None:
        self._url, self._key, self._setting, self._namespace = url, key, setting, namespace
        self._store: CredentialStore | None = None
        self._lock = asyncio.Lock()

    async def start(self) -> CredentialStore:
        async with self._lock:
            if self._store is None:
                self._store = await open_store(
                    self._url, self._key, setting=self._setting, namespace=self._namespace
                )
            return self._store

    async def get(self, principal: Owner, scheme: str) -> Credential | None:
        return await (await self.start()).get(principal, scheme)

    async def put(self, principal: Owner, scheme: str, credential: Credential) -> None:
        await (await self.start()).put(principal, scheme, credential)

    async def delete(self, principal: Owner, scheme: str) -> bool:
        return await (await self.start()).delete(principal, scheme)

    async def revoke_all(self, principal: Owner) -> int:
        return await (await self.start()).revoke_all(principal)

    async def put_pending(self, nonce: str, record: Mapping[str, Any], ttl_seconds: float) -> None:
        await (await self.start()).put_pending(nonce, record, ttl_seconds)

    async def take_pending(self, nonce: str) -> dict[str, Any] | None:
        return await (await self.start()).take_pending(nonce)

    async def close(self) -> None:
        if self._store is not None:
            store, self._store = self._store, None
            await store.close()
