"""The per-user token store as its users see it: what comes back, what an operator finds on disk or in
Redis (no secret, no subject, no issuer), who can read what, single-use sign-in records, and the exact
messages of a misconfigured store. Each test taking ``backend`` runs on SQLite and on a real Redis.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
import socket
import stat
import sys
from pathlib import Path

import pytest

from templates.runtime.peruser.store import (
    Credential,
    CredentialStore,
    TokenStoreError,
    open_store,
    parse_store_key,
)

from .conftest import (
    KEY,
    OTHER_KEY,
    SETTING,
    START,
    Backend,
    FakeClock,
    Principal,
    RedisBackend,
    SqliteBackend,
)

ALICE = Principal("https://idp.example.com/", "alice@example.com")
BOB = Principal("https://idp.example.com/", "bob@example.com")
# the same subject from another issuer is another person
ALICE_ELSEWHERE = Principal("https://other-idp.example.net/", "alice@example.com")

OAUTH = Credential(
    "oauth2",
    {"access_token": "ya29.ACCESS-alice-7f3a", "refresh_token": "1//REFRESH-alice-91c2"},
    expires_at=START + 3600,
    scopes=("pets:read", "pets:write"),
)
API_KEY = Credential("apiKey", {"value": "sk_live_APIKEY-alice-55d0"})
BASIC = Credential("basic", {"username": "alice-basic-login", "password": "correct horse battery"})
BOB_KEY = Credential("apiKey", {"value": "sk_live_APIKEY-bob-0e77"})

FORMS = "sqlite:///absolute/path.db, sqlite:relative/path.db, redis://host:port/db or rediss://…"
NEED = (
    "it must hold 32 random bytes as base64 or base64url (43 or 44 characters) or as 64 hex digits, "
    'e.g. the output of: python -c "import secrets; print(secrets.token_urlsafe(32))"'
)


async def test_credentials_round_trip(backend: Backend) -> None:
    store = await backend.open()
    await store.put(ALICE, "petstore_auth", OAUTH)
    await store.put(ALICE, "api_key", API_KEY)
    await store.put(BOB, "api_key", BOB_KEY)

    assert await store.get(ALICE, "petstore_auth") == OAUTH
    assert await store.get(ALICE, "api_key") == API_KEY
    assert await store.get(BOB, "api_key") == BOB_KEY
    assert await store.get(BOB, "petstore_auth") is None
    assert await store.get(ALICE_ELSEWHERE, "api_key") is None

    await store.put(ALICE, "api_key", BASIC)  # replaced, not added
    assert await store.get(ALICE, "api_key") == BASIC
    assert await store.delete(ALICE, "api_key") is True
    assert await store.delete(ALICE, "api_key") is False
    assert await store.get(ALICE, "api_key") is None
    assert await store.get(ALICE, "petstore_auth") == OAUTH


async def test_an_expired_credential_is_still_returned_for_its_refresh_token(
    backend: Backend,
) -> None:
    store = await backend.open()
    await store.put(ALICE, "petstore_auth", OAUTH)
    stored = await store.get(ALICE, "petstore_auth")
    assert stored is not None
    assert stored.expired(START + 3600) is True
    assert stored.expired(START + 3599) is False
    assert stored.values["refresh_token"] == "1//REFRESH-alice-91c2"
    assert API_KEY.expired(START + 10**9) is False


async def test_the_store_holds_no_secret_subject_issuer_scheme_or_nonce(backend: Backend) -> None:
    store = await backend.open()
    await store.put(ALICE, "petstore_auth", OAUTH)
    await store.put(ALICE, "api_key", API_KEY)
    await store.put(ALICE_ELSEWHERE, "basic_auth", BASIC)
    await store.put_pending("nonce-Zq81-single-use", {"verifier": "pkce-VERIFIER-8e1f"}, 600)

    raw = backend.dump()
    assert len(raw) > 200
    needles = [
        "ya29.ACCESS-alice-7f3a",
        "1//REFRESH-alice-91c2",
        "sk_live_APIKEY-alice-55d0",
        "alice-basic-login",
        "correct horse battery",
        "alice@example.com",
        "alice",
        "idp.example.com",
        "other-idp.example.net",
        "petstore_auth",
        "basic_auth",
        "pets:read",
        "nonce-Zq81-single-use",
        "pkce-VERIFIER-8e1f",
    ]
    for needle in needles:
        for encoded in (needle.encode(), needle.encode("utf-16-le")):
            assert encoded not in raw, needle


async def test_redis_keys_are_digests_and_only_pending_records_expire(
    redis_backend: RedisBackend,
) -> None:
    store = await redis_backend.open()
    await store.put(ALICE, "petstore_auth", OAUTH)
    await store.put(ALICE, "api_key", API_KEY)
    await store.put(BOB, "api_key", BOB_KEY)
    await store.put_pending("nonce-1", {"scheme": "petstore_auth"}, 30)

    raw = redis_backend.raw
    keys = sorted(k.decode() for k in redis_backend.redis_keys())
    digest = "[0-9a-f]{64}"
    assert len(keys) == 3  # one hash per person, one key per pending sign-in
    assert all(re.fullmatch(f"mcp-token-store:[cp]:{digest}", k) for k in keys), keys
    hashes = [k for k in keys if k.startswith("mcp-token-store:c:")]
    assert sorted(raw.hlen(k) for k in hashes) == [1, 2]
    fields = [f for k in hashes for f in redis_backend.fields(k.encode())]
    assert all(re.fullmatch(digest, f.decode()) for f in fields), fields
    assert all(raw.ttl(k) == -1 for k in hashes)  # credentials outlive their access tokens
    (pending,) = (k for k in keys if k.startswith("mcp-token-store:p:"))
    assert 0 < raw.pttl(pending) <= 30_000


async def test_a_value_copied_under_another_principal_does_not_decrypt(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    store = await backend.open()
    await store.put(ALICE, "api_key", API_KEY)
    (alice_cell,) = backend.cells().items()
    await store.put(BOB, "api_key", BOB_KEY)
    (bob_where,) = set(backend.cells()) - {alice_cell[0]}

    backend.write(bob_where, alice_cell[1])

    with caplog.at_level(logging.WARNING):
        assert await store.get(BOB, "api_key") is None
    assert await store.get(ALICE, "api_key") == API_KEY
    assert [r.getMessage() for r in caplog.records] == [
        "token store: a stored credential did not decrypt (another TOKEN_STORE_KEY, or a value "
        "moved to another row); treated as absent"
    ]


async def test_another_store_key_reads_nothing_and_leaks_nothing(backend: Backend) -> None:
    right = await backend.open()
    await right.put(ALICE, "api_key", API_KEY)
    await right.put_pending("nonce-1", {"scheme": "api_key"}, 600)

    wrong = await backend.open(OTHER_KEY)
    assert await wrong.get(ALICE, "api_key") is None
    assert await wrong.take_pending("nonce-1") is None
    assert await wrong.revoke_all(ALICE) == 0
    assert await right.get(ALICE, "api_key") == API_KEY


async def test_two_servers_sharing_a_store_and_key_do_not_share_credentials(
    backend: Backend,
) -> None:
    petstore = await backend.open(namespace="PETSTORE")
    other = await backend.open(namespace="BOOKSHOP")
    await petstore.put(ALICE, "api_key", API_KEY)
    assert await other.get(ALICE, "api_key") is None
    assert await petstore.get(ALICE, "api_key") == API_KEY


async def test_a_pending_sign_in_can_be_taken_once(backend: Backend) -> None:
    store = await backend.open()
    record = {"scheme": "petstore_auth", "verifier": "pkce-1", "scopes": ["pets:read"]}
    await store.put_pending("nonce-1", record, 600)

    assert await store.take_pending("nonce-1") == record
    assert await store.take_pending("nonce-1") is None
    assert await store.take_pending("never-issued") is None


async def test_a_pending_sign_in_expires(backend: Backend, clock: FakeClock) -> None:
    store = await backend.open(clock=clock)
    await store.put_pending("early", {"n": 1}, 60)
    await store.put_pending("late", {"n": 2}, 60)

    clock.advance(59.5)
    assert await store.take_pending("early") == {"n": 1}
    clock.advance(0.5)
    assert await store.take_pending("late") is None


async def test_one_of_many_simultaneous_takes_wins(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    await first.put_pending("nonce-1", {"scheme": "api_key"}, 600)

    taken = await asyncio.gather(*(s.take_pending("nonce-1") for s in [first, second] * 10))

    assert taken.count({"scheme": "api_key"}) == 1
    assert taken.count(None) == 19


async def test_expired_pending_rows_are_purged_lazily(
    sqlite_backend: SqliteBackend, clock: FakeClock
) -> None:
    store = await sqlite_backend.open(clock=clock)
    await store.put_pending("abandoned-1", {}, 10)
    await store.put_pending("abandoned-2", {}, 10)
    clock.advance(11)
    await store.put_pending("fresh", {}, 10)

    assert sqlite_backend.query("SELECT count(*) FROM pending") == [(1,)]


async def test_revoke_all_removes_every_scheme_of_one_principal_only(backend: Backend) -> None:
    store = await backend.open()
    for scheme, credential in [("petstore_auth", OAUTH), ("api_key", API_KEY), ("basic", BASIC)]:
        await store.put(ALICE, scheme, credential)
    await store.put(BOB, "api_key", BOB_KEY)
    await store.put(ALICE_ELSEWHERE, "api_key", API_KEY)

    assert await store.revoke_all(ALICE) == 3

    for scheme in ("petstore_auth", "api_key", "basic"):
        assert await store.get(ALICE, scheme) is None
    assert await store.get(BOB, "api_key") == BOB_KEY
    assert await store.get(ALICE_ELSEWHERE, "api_key") == API_KEY
    assert await store.revoke_all(ALICE) == 0


async def test_tokens_survive_closing_and_reopening_the_sqlite_store(
    sqlite_backend: SqliteBackend,
) -> None:
    async with await sqlite_backend.open() as store:
        await store.put(ALICE, "petstore_auth", OAUTH)
        await store.put_pending("nonce-1", {"scheme": "petstore_auth"}, 600)

    with pytest.raises(TokenStoreError, match=r"^the token store is closed$"):
        await store.get(ALICE, "petstore_auth")
    reopened = await sqlite_backend.open()
    assert await reopened.get(ALICE, "petstore_auth") == OAUTH
    assert await reopened.take_pending("nonce-1") == {"scheme": "petstore_auth"}


async def test_two_replicas_share_one_redis(redis_backend: RedisBackend) -> None:
    replica_a, replica_b = await redis_backend.open(), await redis_backend.open()

    await replica_a.put(ALICE, "petstore_auth", OAUTH)
    await replica_b.put_pending("nonce-1", {"scheme": "petstore_auth"}, 600)

    assert await replica_b.get(ALICE, "petstore_auth") == OAUTH
    assert await replica_a.take_pending("nonce-1") == {"scheme": "petstore_auth"}
    assert await replica_b.take_pending("nonce-1") is None
    assert await replica_b.revoke_all(ALICE) == 1
    assert await replica_a.get(ALICE, "petstore_auth") is None


async def test_fifty_concurrent_puts_and_gets_are_consistent(backend: Backend) -> None:
    store = await backend.open()
    people = [Principal("https://idp.example.com/", f"user-{i}") for i in range(50)]

    def key_of(i: int) -> Credential:
        return Credential("apiKey", {"value": f"key-of-user-{i}"})

    async def put_then_get(i: int) -> Credential | None:
        await store.put(people[i], f"scheme-{i % 3}", key_of(i))
        return await store.get(people[i], f"scheme-{i % 3}")

    assert await asyncio.gather(*(put_then_get(i) for i in range(50))) == [
        key_of(i) for i in range(50)
    ]
    again = await asyncio.gather(*(store.get(p, f"scheme-{i % 3}") for i, p in enumerate(people)))
    assert again == [key_of(i) for i in range(50)]


async def test_the_sqlite_file_is_private(sqlite_backend: SqliteBackend) -> None:
    store = await sqlite_backend.open()
    await store.put(ALICE, "api_key", API_KEY)

    files = sqlite_backend.files()
    assert [p.name for p in files] == ["tokens.db", "tokens.db-wal", "tokens.db-shm"]
    assert [stat.S_IMODE(p.stat().st_mode) for p in files] == [0o600, 0o600, 0o600]
    assert stat.S_IMODE(sqlite_backend.path.parent.stat().st_mode) == 0o700


async def test_a_relative_sqlite_path_resolves_against_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with await open_store("sqlite:data/tokens.db", KEY) as store:
        monkeypatch.chdir("/")  # later changes of directory do not move the store
        await store.put(ALICE, "api_key", API_KEY)
        assert await store.get(ALICE, "api_key") == API_KEY
    assert (tmp_path / "data" / "tokens.db").stat().st_size > 0


async def test_sqlalchemys_four_slash_form_names_the_same_absolute_file(tmp_path: Path) -> None:
    async with await open_store(f"sqlite:///{tmp_path}/t.db", KEY) as store:
        await store.put(ALICE, "api_key", API_KEY)
    async with await open_store(f"sqlite:////{tmp_path}/t.db", KEY) as store:
        assert await store.get(ALICE, "api_key") == API_KEY


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", f"{SETTING} is not a URL; use {FORMS}"),
        ("tokens.db", f"{SETTING} is not a URL; use {FORMS}"),
        ("postgres://db/tokens", f"{SETTING}: unsupported store 'postgres'; use {FORMS}"),
        (
            "sqlite://tokens.db",
            f"{SETTING}: a sqlite URL names a file, not a host: "
            "write sqlite:///absolute/path.db or sqlite:relative/path.db",
        ),
        ("sqlite:///var/tokens.db?mode=ro", f"{SETTING}: a sqlite URL takes no query or fragment"),
        (
            "sqlite:",
            f"{SETTING}: the sqlite URL names no file: "
            "write sqlite:///absolute/path.db or sqlite:relative/path.db",
        ),
        (
            "sqlite:///var/lib/",
            f"{SETTING}: the sqlite URL names no file: "
            "write sqlite:///absolute/path.db or sqlite:relative/path.db",
        ),
        ("redis://", f"{SETTING}: the redis URL names no host; use redis://host:port/db"),
        ("redis://cache:six/0", f"{SETTING}: the redis URL's port is not a number"),
        (
            "rediss://cache:6380/tokens",
            f"{SETTING}: the redis URL's path must be a database number, as in redis://host:6379/0",
        ),
    ],
)
async def test_a_bad_store_url_is_refused_with_a_precise_message(url: str, message: str) -> None:
    with pytest.raises(TokenStoreError) as refused:
        await open_store(url, KEY, setting=SETTING)
    assert str(refused.value) == message


async def test_an_unreachable_redis_is_named_without_its_password() -> None:
    with socket.socket() as probe:  # a port nothing listens on any more
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(TokenStoreError) as refused:
        await open_store(f"redis://:hunter2-secret@127.0.0.1:{port}/0", KEY, setting=SETTING)
    assert str(refused.value) == (
        f"{SETTING}: cannot reach the Redis token store at 127.0.0.1:{port} (ConnectionError)"
    )


async def test_an_unreadable_sqlite_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tokens.db").write_bytes(b"this is not a database, it is a text file" * 100)
    with pytest.raises(TokenStoreError) as refused:
        await open_store(f"sqlite://{tmp_path}/tokens.db", KEY, setting=SETTING)
    assert str(refused.value) == (
        f"{SETTING}: cannot open the SQLite token store (DatabaseError: file is not a database)"
    )


async def test_a_missing_redis_client_names_the_extra(
    redis_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "redis.asyncio", None)
    with pytest.raises(TokenStoreError) as refused:
        await open_store(redis_server, KEY, setting=SETTING)
    assert str(refused.value) == (
        f"{SETTING} names a Redis store, but the redis client is not installed: "
        "install the server with its redis extra (pip install '<server>[redis]')"
    )


async def test_a_missing_cryptography_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cryptography.hazmat.primitives.ciphers.aead", None)
    with pytest.raises(TokenStoreError) as refused:
        await open_store(f"sqlite://{tmp_path}/tokens.db", KEY)
    assert str(refused.value) == (
        "the token store encrypts with the cryptography package, which is not installed: "
        "install the server with its http extra (pip install '<server>[http]')"
    )


async def test_a_short_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^the token store key must be 32 bytes, not 16$"):
        await open_store(f"sqlite://{tmp_path}/tokens.db", KEY[:16])


@pytest.mark.parametrize(
    "text",
    [
        KEY.hex(),
        KEY.hex().upper(),
        base64.b64encode(KEY).decode(),
        base64.urlsafe_b64encode(KEY).decode().rstrip("="),
        base64.b64encode(KEY).decode().rstrip("="),
        f"  {base64.urlsafe_b64encode(KEY).decode()}\n",
    ],
)
def test_the_store_key_is_read_from_base64_or_hex(text: str) -> None:
    assert parse_store_key(text, "PETSTORE_TOKEN_STORE_KEY") == KEY


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "is empty"),
        ("   ", "is empty"),
        ("not-a-key-at-all!", "is neither base64 nor hex"),
        ("abcde", "is neither base64 nor hex"),
        (base64.b64encode(b"sixteen byte key").decode(), "decodes to 16 bytes, not 32"),
        ("ab" * 33, "decodes to 49 bytes, not 32"),
    ],
)
def test_a_bad_store_key_is_refused_without_echoing_it(text: str, problem: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_store_key(text, "PETSTORE_TOKEN_STORE_KEY")
    assert str(refused.value) == f"PETSTORE_TOKEN_STORE_KEY {problem}; {NEED}"
    if text.strip():
        assert text.strip() not in str(refused.value)


def test_a_credential_keeps_its_secrets_out_of_repr_and_checks_its_fields() -> None:
    assert "alice" not in repr(BASIC) and "correct horse" not in repr(BASIC)
    assert repr(API_KEY) == "Credential(kind='apiKey', expires_at=None, scopes=())"
    with pytest.raises(ValueError, match=r"^basic credentials need password$"):
        Credential("basic", {"username": "u"})
    with pytest.raises(ValueError, match=r"^oauth2 credentials need access_token$"):
        Credential("oauth2", {"refresh_token": "r"})
    with pytest.raises(TypeError):
        API_KEY.values["value"] = "changed"  # type: ignore[index]


async def test_a_pending_record_needs_a_nonce_and_a_positive_lifetime(backend: Backend) -> None:
    store: CredentialStore = await backend.open()
    with pytest.raises(ValueError, match=r"^a pending sign-in needs a nonce$"):
        await store.put_pending("", {}, 60)
    with pytest.raises(ValueError, match=r"^ttl_seconds must be positive$"):
        await store.put_pending("n", {}, 0)
