"""Fixtures for the token-store tests: a real Redis server per session, both backends side by side.

The Redis server is Debian's ``redis-server``, started here on 127.0.0.1 on a free port without
persistence; ``.ci/run`` (``scripts/test.sh``) installs it. ``backend`` runs a test once per store
(SQLite file, Redis) and gives raw access to what the store wrote: every byte of the SQLite file and
its WAL, every Redis key and value.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest
import redis

from templates.runtime.peruser.store import CredentialStore, open_store

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
SETTING = "PETSTORE_TOKEN_STORE"
START = 1_700_000_000.0


@dataclass(frozen=True)
class Principal:
    issuer: str
    subject: str


class FakeClock:
    """Unix time that moves only when told to."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def raw_redis(redis_server: str) -> Iterator[redis.Redis]:
    """A plain client on an emptied server: what the store wrote, as Redis holds it."""
    client = redis.Redis.from_url(redis_server)
    client.flushall()
    yield client
    client.close()


class Backend:
    """One kind of store under test, the stores opened on it, and raw access to what they wrote."""

    def __init__(self, name: str, url: str) -> None:
        self.name = name
        self.url = url
        self.opened: list[CredentialStore] = []

    async def open(
        self,
        key: bytes = KEY,
        *,
        clock: Callable[[], float] = time.time,
        namespace: str = "",
    ) -> CredentialStore:
        store = await open_store(self.url, key, setting=SETTING, clock=clock, namespace=namespace)
        self.opened.append(store)
        return store

    def dump(self) -> bytes:
        """Everything stored, raw."""
        raise NotImplementedError

    def cells(self) -> dict[object, bytes]:
        """Each stored credential value by where it lives."""
        raise NotImplementedError

    def write(self, where: object, value: bytes) -> None:
        raise NotImplementedError


class SqliteBackend(Backend):
    def __init__(self, path: Path) -> None:
        super().__init__("sqlite", f"sqlite://{path}")
        self.path = path

    def files(self) -> list[Path]:
        return [
            p for p in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")) if p.exists()
        ]

    def query(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()

    def dump(self) -> bytes:
        rows = self.query("SELECT name, owner, sealed FROM credentials")
        rows += self.query("SELECT name, expires_at, sealed FROM pending")
        text = repr(rows).encode()
        return b"".join(p.read_bytes() for p in self.files()) + text

    def cells(self) -> dict[object, bytes]:
        rows = self.query("SELECT name, sealed FROM credentials")
        return {name: bytes(sealed) for name, sealed in rows}

    def write(self, where: object, value: bytes) -> None:
        self.query("UPDATE credentials SET sealed = ? WHERE name = ?", value, where)


class RedisBackend(Backend):
    def __init__(self, url: str, raw: redis.Redis) -> None:
        super().__init__("redis", url)
        self.raw = raw

    def redis_keys(self, pattern: str = "*") -> list[bytes]:
        return cast("list[bytes]", self.raw.keys(pattern))

    def fields(self, key: bytes) -> dict[bytes, bytes]:
        return cast("dict[bytes, bytes]", self.raw.hgetall(key))

    def dump(self) -> bytes:
        out: list[bytes] = []
        for key in self.redis_keys():
            out.append(key)
            kind = self.raw.type(key)
            if kind == b"hash":
                for field, value in self.fields(key).items():
                    out += [field, value]
            else:
                assert kind == b"string"
                out.append(cast("bytes", self.raw.get(key)))
        return b"\n".join(out)

    def cells(self) -> dict[object, bytes]:
        found: dict[object, bytes] = {}
        for key in self.redis_keys("*:c:*"):
            for field, value in self.fields(key).items():
                found[(key, field)] = value
        return found

    def write(self, where: object, value: bytes) -> None:
        key, field = cast("tuple[bytes, bytes]", where)
        self.raw.hset(key, field, value)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def sqlite_backend(tmp_path: Path) -> AsyncIterator[SqliteBackend]:
    chosen = SqliteBackend(tmp_path / "state" / "tokens.db")
    yield chosen
    for store in chosen.opened:
        await store.close()


@pytest.fixture
async def redis_backend(redis_server: str, raw_redis: redis.Redis) -> AsyncIterator[RedisBackend]:
    chosen = RedisBackend(redis_server, raw_redis)
    yield chosen
    for store in chosen.opened:
        await store.close()


@pytest.fixture(params=["sqlite", "redis"])
def backend(request: pytest.FixtureRequest) -> Backend:
    """Each test that takes it runs twice: on an SQLite file and on the Redis server."""
    chosen: Backend = request.getfixturevalue(f"{request.param}_backend")
    return chosen
