"""Credentials of the one local user on stdio: the tokens ``login`` stored, else the environment's.

On stdio the person running the server is the only caller, so the store key is theirs too:
``<PREFIX>_TOKEN_STORE_KEY`` when set, otherwise a key generated once and kept in
``<data dir>/<server name>/store.key`` (``$XDG_DATA_HOME`` or ``~/.local/share``), created with mode 0600
and refused when others may read it, as ssh refuses a private key. The store is the encrypted one of
per-user mode (``store.py``; ``<PREFIX>_TOKEN_STORE``, default ``tokens.db`` in the same directory), its
rows owned by the fixed principal (issuer ``urn:openapi2mcp:local``, subject the OS user name), so it
still holds no credential in plaintext. :class:`LocalCredentials` is the ``UserCredentials`` of stdio:
a scheme with stored credentials uses them (an expired OAuth token refreshed, its refresh token
rotated, with the client registration stored at login; a failed refresh leaves them for the next call
and this one uses the environment), every other scheme reads the environment as before, so a call is
never sent to sign in. :func:`open_local` opens it only when a key and the store
file exist: a server whose user never ran ``login`` opens nothing.
"""

from __future__ import annotations

import asyncio
import getpass
import logging
import os
import secrets
import stat
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

import httpx

from ..catalog.model import AuthorizationCodeSpec, OperationSpec, SecurityScheme, UpstreamInfo
from ..environment import name as env_name
from ..errors import OAuthCodeError, TokenStoreError
from ..upstream.schemes import strategy
from .sealing import KEY_BYTES, Credential, parse_store_key

if TYPE_CHECKING:
    from ..auth.bearer import InboundToken
    from ..protocol.dispatch import Dispatcher
    from .oauth_code import CodeFlow
    from .store import CredentialStore

# the store, its SQLite/Redis backends and the OAuth client are imported where used: a server whose
# user never ran login gets as far as "no key" and loads none of them

logger = logging.getLogger(__name__)

LOCAL_ISSUER: Final = "urn:openapi2mcp:local"
KEY_FILE: Final = "store.key"
# where login keeps the client registration next to the tokens: a refresh token is bound to the
# client it was issued to, and the MCP client that starts the server may not pass its variables
CLIENT_ID: Final = "client_id"
CLIENT_SECRET: Final = "client_secret"  # noqa: S105 - a field name
# a refresh needs no redirect, but a CodeFlow names one
_NO_REDIRECT: Final = "http://127.0.0.1/callback"


@dataclass(frozen=True, slots=True)
class LocalUser:
    """The store's owner on stdio: ``(issuer, subject)`` of the person running the server."""

    issuer: str
    subject: str

    @property
    def caller(self) -> tuple[str, str]:
        return self.issuer, self.subject


def local_user() -> LocalUser:
    return LocalUser(LOCAL_ISSUER, getpass.getuser())


def data_dir(server_name: str, environ: Mapping[str, str]) -> Path:
    """``<$XDG_DATA_HOME or ~/.local/share>/<server name>``, where ``default_store`` puts the store."""
    base = (environ.get("XDG_DATA_HOME") or "").strip()
    root = Path(base) if base else Path.home() / ".local" / "share"
    return (root / server_name).resolve()


@dataclass(frozen=True, slots=True)
class LocalStorage:
    """Where the local user's store and its key live, as the environment says."""

    url: str
    setting: str  # <PREFIX>_TOKEN_STORE
    key_setting: str  # <PREFIX>_TOKEN_STORE_KEY
    key_file: Path
    namespace: str
    environ: Mapping[str, str]

    @classmethod
    def from_env(cls, server_name: str, environ: Mapping[str, str], prefix: str) -> LocalStorage:
        from .service import default_store  # noqa: PLC0415

        setting = env_name(prefix, "TOKEN_STORE")
        url = (environ.get(setting) or "").strip() or default_store(server_name, environ)
        return cls(
            url,
            setting,
            env_name(prefix, "TOKEN_STORE_KEY"),
            data_dir(server_name, environ) / KEY_FILE,
            prefix,
            environ,
        )

    def where(self) -> str:
        """The store for people: the SQLite file's path, or the Redis host (never a password)."""
        from .store import _sqlite_path  # noqa: PLC0415

        parts = urlsplit(self.url)
        if parts.scheme == "sqlite":
            return str(_sqlite_path(self.url, self.setting))
        return f"the Redis store at {parts.hostname}"

    def exists(self) -> bool:
        """Whether the store may hold something: its SQLite file exists (a Redis store: always)."""
        from .store import _sqlite_path  # noqa: PLC0415

        if urlsplit(self.url).scheme != "sqlite":
            return True
        return _sqlite_path(self.url, self.setting).is_file()

    def key(self, *, create: bool) -> bytes | None:
        """The store key: the variable's, else the key file's (made now when ``create``), else None.

        ``ValueError`` names the variable or the file when the key is unusable or the file is open
        to others.
        """
        raw = (self.environ.get(self.key_setting) or "").strip()
        if raw:
            return parse_store_key(raw, self.key_setting)
        if create and not self.key_file.exists():
            _write_key_file(self.key_file)
        try:
            mode = self.key_file.stat().st_mode
        except FileNotFoundError:
            return None
        except OSError as error:
            raise ValueError(f"cannot read the store key file {self.key_file}: {error}") from None
        if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ValueError(
                f"the store key file {self.key_file} may be read by others; "
                f"make it private (chmod 600 {self.key_file}) or set {self.key_setting}"
            )
        try:
            text = self.key_file.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"cannot read the store key file {self.key_file}: {error}") from None
        return parse_store_key(text, f"the store key file {self.key_file}")

    async def open(self, key: bytes) -> CredentialStore:
        from .store import open_store  # noqa: PLC0415

        return await open_store(self.url, key, setting=self.setting, namespace=self.namespace)


def _write_key_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return  # another login made it first: that key is the one
    with os.fdopen(fd, "w", encoding="ascii") as file:
        if hasattr(os, "fchmod"):
            os.fchmod(file.fileno(), 0o600)  # whatever the umask
        file.write(secrets.token_bytes(KEY_BYTES).hex() + "\n")


def code_flow(
    scheme: SecurityScheme,
    environ: Mapping[str, str],
    *,
    redirect_uri: str = _NO_REDIRECT,
    stored: Credential | None = None,
    refreshing: bool = False,
) -> CodeFlow | None:
    """The scheme's authorization-code registration: the client stored with ``stored`` (the one
    its refresh token belongs to), else ``clientIdEnv``/``clientSecretEnv``. None without a flow;
    ``ValueError`` when no client id is known."""
    from .oauth_code import CodeFlow  # noqa: PLC0415

    if scheme["type"] != "bearer" or "authorizationCode" not in scheme:
        return None
    code: AuthorizationCodeSpec = scheme["authorizationCode"]
    values: Mapping[str, str] = stored.values if stored is not None else {}
    client_id = values.get(CLIENT_ID) or (environ.get(code["clientIdEnv"]) or "").strip()
    if CLIENT_ID in values:
        secret = values.get(CLIENT_SECRET) or None
    else:
        secret = (environ.get(code["clientSecretEnv"]) or "").strip() or None
    token_url = code["tokenUrl"]
    if refreshing:
        token_url = code.get("refreshUrl") or token_url
    return CodeFlow(
        authorization_url=code["authorizationUrl"],
        token_url=token_url,
        client_id=client_id,
        client_secret=secret,
        redirect_uri=redirect_uri,
    )


def with_client(credential: Credential, flow: CodeFlow) -> Credential:
    """``credential`` carrying the client registration it was issued to (sealed like the tokens)."""
    values = dict(credential.values)
    values[CLIENT_ID] = flow.client_id
    if flow.client_secret is not None:
        values[CLIENT_SECRET] = flow.client_secret
    return Credential(credential.kind, values, credential.expires_at, credential.scopes)


def _token_of(scheme: SecurityScheme, stored: Credential) -> dict[str, str] | None:
    """The stored credential as the variables the scheme's strategy reads."""
    values = stored.values
    if scheme["type"] in ("bearer", "oauth2Password") and stored.kind in ("bearer", "oauth2"):
        return {scheme["env"]: values.get("token") or values["access_token"]}
    if scheme["type"] == "apiKey" and stored.kind == "apiKey":
        return {scheme["env"]: values["value"]}
    if scheme["type"] == "basic" and stored.kind == "basic":
        return {
            scheme["usernameEnv"]: values["username"],
            scheme["passwordEnv"]: values["password"],
        }
    return None


class LocalCredentials:
    """``UserCredentials`` for stdio: the local user's stored credentials, else the environment's."""

    def __init__(
        self,
        info: UpstreamInfo,
        store: CredentialStore,
        *,
        environ: Mapping[str, str],
        api: str,
        user: LocalUser | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._schemes: Mapping[str, SecurityScheme] = info["securitySchemes"]
        self._store = store
        self._environ = environ
        self._api = api
        self.user = user or local_user()
        self._transport = transport
        self._clock = clock
        # one refresh at a time per scheme: a rotated refresh token used twice revokes the grant
        self._refreshing: dict[str, asyncio.Lock] = {}

    async def credentials(
        self, caller: tuple[str, str], spec: OperationSpec, *, inbound: InboundToken | None = None
    ) -> dict[str, str]:
        """The variables of every scheme ``spec`` may use: stored ones over the environment's.

        ``caller`` is the local user (stdio has no other) and there is no ``inbound`` token; the
        upstream client then picks the first alternative these satisfy, as it does with the
        environment alone.
        """
        values: dict[str, str] = {}
        for name in dict.fromkeys(n for alternative in spec["security"] for n in alternative):
            scheme = self._schemes.get(name)
            if scheme is None:
                continue
            for setting in strategy(name, scheme).environment():
                if setting.env in self._environ:
                    values[setting.env] = self._environ[setting.env]
            stored = await self._stored(name, scheme)
            if stored is not None:
                values.update(stored)
        return values

    async def _stored(self, name: str, scheme: SecurityScheme) -> dict[str, str] | None:
        if scheme["type"] == "oauth2ClientCredentials":
            return None  # the client's own identity: the environment's
        try:
            stored = await self._store.get(self.user, name)
            if stored is not None and stored.kind == "oauth2" and stored.expired(self._clock()):
                stored = await self._refreshed(name, scheme)
        except TokenStoreError as exc:
            logger.warning("the token store failed; %s uses the environment: %s", name, exc)
            return None
        return None if stored is None else _token_of(scheme, stored)

    async def _refreshed(self, name: str, scheme: SecurityScheme) -> Credential | None:
        from .oauth_code import refresh, token_client  # noqa: PLC0415

        lock = self._refreshing.setdefault(name, asyncio.Lock())
        async with lock:
            # another call may have refreshed it while this one waited
            stored = await self._store.get(self.user, name)
            if stored is None or not stored.expired(self._clock()):
                return stored
            try:
                flow = code_flow(scheme, self._environ, stored=stored, refreshing=True)
                if flow is None:
                    return None
                async with token_client(
                    user_agent=f"{self._api} MCP server", transport=self._transport
                ) as http:
                    fresh = await refresh(http, flow, stored, now=self._clock())
            except (OAuthCodeError, ValueError) as exc:
                # kept: a refresh that failed for want of a network works on a later call
                logger.warning(
                    "the stored %s token has expired and could not be refreshed (%s); this call "
                    "uses the environment's credentials; if this lasts, run login again",
                    name,
                    exc,
                )
                return None
            fresh = with_client(fresh, flow)
            await self._store.put(self.user, name, fresh)
            return fresh

    async def aclose(self) -> None:
        await self._store.close()


class AsLocalUser:
    """A dispatcher whose every request comes from the local user: stdio carries no identity, and
    the protocol asks per-user credentials only of an identified caller."""

    def __init__(self, dispatcher: Dispatcher, user: LocalUser) -> None:
        self._dispatcher = dispatcher
        self._caller = user.caller

    async def handle(self, message: Any, session: Any, notify: Any, **options: Any) -> Any:
        return await self._dispatcher.handle(message, session, notify, **self._as_local(options))

    async def handle_batch(
        self, messages: list[Any], session: Any, notify: Any, **options: Any
    ) -> Any:
        return await self._dispatcher.handle_batch(
            messages, session, notify, **self._as_local(options)
        )

    def _as_local(self, options: dict[str, Any]) -> dict[str, Any]:
        return {**options, "caller": options.get("caller") or self._caller}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._dispatcher, name)


async def open_local(
    info: UpstreamInfo,
    environ: Mapping[str, str],
    *,
    prefix: str,
    server_name: str,
    api: str,
    transport: httpx.AsyncBaseTransport | None = None,
) -> LocalCredentials | None:
    """The local user's credentials when ``login`` left a key and a store, else None (nothing is
    opened or created). ``ValueError`` or ``TokenStoreError`` for an unusable key or store."""
    key_file = data_dir(server_name, environ) / KEY_FILE
    if (
        not (environ.get(env_name(prefix, "TOKEN_STORE_KEY")) or "").strip()
        and not key_file.exists()
    ):
        return None
    storage = LocalStorage.from_env(server_name, environ, prefix)
    if not storage.exists():
        return None
    key = storage.key(create=False)
    if key is None:
        return None
    store = await storage.open(key)
    return LocalCredentials(info, store, environ=environ, api=api, transport=transport)
