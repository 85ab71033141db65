"""``<name>-mcp login [SCHEME]`` and ``logout [SCHEME]``: the local user's OAuth tokens for stdio.

``login`` runs the authorization-code flow of an ``oauth2`` scheme as a native app does (RFC 8252):
a listener on 127.0.0.1 (a free port unless ``--port``) receives the redirect at
``http://127.0.0.1:<port>/callback``; the request carries a PKCE S256 challenge and a random ``state``
that the callback must return unchanged. The authorization URL is written to stderr (and opened in a
browser unless told not to); the first callback is answered with a small page once the code has been
exchanged, or the wait ends after a timeout. The tokens, with the client registration they belong
to, go to the encrypted store of ``local.py`` under the local principal; nothing is stored when the
state does not match, the user refuses, the exchange fails or time runs out. ``logout`` deletes the
stored tokens of one scheme or of all. A failure is returned as a :class:`Refusal`: a message for
stderr and an exit status, 2 for a usage mistake (which scheme, a missing client id), 1 for the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Final
from urllib.parse import parse_qsl, urlsplit

import httpx

from ..catalog.model import Catalog, SecurityScheme, catalog_part
from ..errors import OAuthCodeError, TokenStoreError
from .local import LocalStorage, code_flow, local_user, with_client
from .oauth_code import CodeFlow, authorize_url, exchange, new_verifier, token_client
from .pages import STYLE, security_headers

DEFAULT_TIMEOUT: Final = 300.0
CALLBACK_PATH: Final = "/callback"
# a browser's request line and headers; more is not a redirect
_MAX_HEAD: Final = 16 * 1024
_READ_SECONDS: Final = 10.0

Say = Callable[[str], None]
Browser = Callable[[str], object]


@dataclass(frozen=True, slots=True)
class Refusal:
    """``login`` or ``logout`` did not happen: ``message`` for stderr, ``status`` to exit with."""

    message: str
    status: int = 1


class _Stop(Exception):
    """Ends the command with a :class:`Refusal` (raised inside this module only)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.refusal = Refusal(message, status)


@dataclass(frozen=True, slots=True)
class LoginOptions:
    """The command line's choices: which scheme, the browser, how long to wait, the port, scopes."""

    scheme: str | None = None
    browser: Browser | None = None  # None: only print the URL
    timeout: float = DEFAULT_TIMEOUT
    port: int = 0
    scopes: tuple[str, ...] = ()  # none: those the operations need


def code_schemes(catalog: Catalog) -> list[str]:
    """The schemes ``login`` works for: those with an authorization-code flow."""
    schemes = catalog["upstream"]["securitySchemes"]
    return [
        name for name, s in schemes.items() if s["type"] == "bearer" and "authorizationCode" in s
    ]


def _choose(catalog: Catalog, wanted: str | None, prog: str) -> str:
    usable = code_schemes(catalog)
    listed = ", ".join(usable)
    if wanted is None:
        if len(usable) == 1:
            return usable[0]
        if not usable:
            raise _Stop(
                "no security scheme of this API has an OAuth authorization-code flow, so there "
                "is nothing to log in to; set the credentials' environment variables instead",
                2,
            )
        raise _Stop(f"several schemes can log in ({listed}); name one: {prog} login SCHEME", 2)
    if wanted not in usable:
        what = (
            "has no OAuth authorization-code flow" if wanted in _schemes(catalog) else "is unknown"
        )
        others = f"login works for: {listed}" if usable else "no scheme of this API can log in"
        raise _Stop(f"the security scheme {wanted!r} {what}; {others}", 2)
    return wanted


def _schemes(catalog: Catalog) -> Mapping[str, SecurityScheme]:
    return catalog["upstream"]["securitySchemes"]


def _needed_scopes(catalog: Catalog, name: str) -> tuple[str, ...]:
    """Every scope an operation needs of scheme ``name``, in first-seen order."""
    found: dict[str, None] = {}
    for spec in catalog_part(catalog, "operations").values():
        found.update(dict.fromkeys(spec.get("scopes", {}).get(name, ())))
    return tuple(found)


async def login(
    catalog: Catalog,
    environ: Mapping[str, str],
    *,
    prefix: str,
    prog: str,
    options: LoginOptions,
    say: Say,
    transport: httpx.AsyncBaseTransport | None = None,
    clock: Callable[[], float] = time.time,
) -> str | Refusal:
    """Sign the local user in with one scheme and store the tokens; the scheme's name."""
    try:
        return await _login(catalog, environ, prefix, prog, options, say, transport, clock)
    except _Stop as stop:
        return stop.refusal


async def _login(
    catalog: Catalog,
    environ: Mapping[str, str],
    prefix: str,
    prog: str,
    options: LoginOptions,
    say: Say,
    transport: httpx.AsyncBaseTransport | None,
    clock: Callable[[], float],
) -> str:
    name = _choose(catalog, options.scheme, prog)
    scheme = _schemes(catalog)[name]
    assert scheme["type"] == "bearer" and "authorizationCode" in scheme
    client_env = scheme["authorizationCode"]["clientIdEnv"]
    if not (environ.get(client_env) or "").strip():
        raise _Stop(
            f"set {client_env} to the client id this server is registered with at the "
            f"authorization server (redirect URI http://127.0.0.1/callback, any port)",
            2,
        )
    server = catalog["server"]
    api = server.get("title") or server["name"]
    storage = LocalStorage.from_env(server["name"], environ, prefix)
    try:
        key = storage.key(create=True)
        assert key is not None
        store = await storage.open(key)
    except (ValueError, TokenStoreError) as exc:
        raise _Stop(str(exc)) from None
    try:
        async with _Loopback(options.port) as loopback:
            flow = code_flow(scheme, environ, redirect_uri=loopback.redirect_uri)
            assert flow is not None
            scopes = options.scopes or _needed_scopes(catalog, name)
            say(f"Sign in to {api} ({name}) in your browser:")
            callback = await _redirected(loopback, flow, scopes, options, say)
            try:
                async with token_client(
                    user_agent=f"{server['name']}/{server['version']} login", transport=transport
                ) as http:
                    credential = await exchange(
                        http,
                        flow,
                        code=callback.code,
                        verifier=callback.verifier,
                        now=clock(),
                        scopes=scopes,
                    )
                await store.put(local_user(), name, with_client(credential, flow))
            except (OAuthCodeError, TokenStoreError) as exc:
                await callback.answer(502, "Not signed in", str(exc))
                raise _Stop(str(exc)) from None
            await callback.answer(200, "Signed in", f"{api} is connected. You can close this tab.")
    finally:
        await store.close()
    say(f"Signed in: the {name} tokens are stored, encrypted, in {storage.where()}")
    return name


async def _redirected(
    loopback: _Loopback,
    flow: CodeFlow,
    scopes: tuple[str, ...],
    options: LoginOptions,
    say: Say,
) -> _Callback:
    """The callback of this sign-in, carrying a code and the state it was sent with."""
    state, verifier = secrets.token_urlsafe(32), new_verifier()
    url = authorize_url(flow, state=state, verifier=verifier, scopes=scopes)
    say(f"\n    {url}\n")
    if options.browser is not None:
        options.browser(url)
    say(f"Waiting up to {options.timeout:g} s for the sign-in to finish...")
    try:
        async with asyncio.timeout(options.timeout):
            callback = await loopback.callback()
    except TimeoutError:
        raise _Stop(
            f"no sign-in came back within {options.timeout:g} s; nothing was stored"
        ) from None
    query = callback.query
    if not hmac.compare_digest(query.get("state", "").encode(), state.encode()):
        await callback.answer(400, "Not signed in", "This sign-in was not started here.")
        raise _Stop(
            "the callback's state does not match this login (an old or forged redirect); "
            "nothing was stored"
        )
    if "code" not in query:
        why = query.get("error_description") or query.get("error") or "no authorization code"
        why = "".join(c for c in why[:200] if c.isprintable())
        await callback.answer(400, "Not signed in", f"The authorization server said: {why}")
        raise _Stop(f"the authorization server did not sign you in: {why}")
    return _Callback(query, callback.writer, verifier)


async def logout(
    catalog: Catalog, environ: Mapping[str, str], *, prefix: str, scheme: str | None, say: Say
) -> int | Refusal:
    """Delete the local user's stored tokens of ``scheme`` (all when None); how many there were."""
    try:
        return await _logout(catalog, environ, prefix, scheme, say)
    except _Stop as stop:
        return stop.refusal


async def _logout(
    catalog: Catalog, environ: Mapping[str, str], prefix: str, scheme: str | None, say: Say
) -> int:
    if scheme is not None and scheme not in _schemes(catalog):
        listed = ", ".join(_schemes(catalog)) or "none"
        raise _Stop(f"the security scheme {scheme!r} is unknown; this API has: {listed}", 2)
    storage = LocalStorage.from_env(catalog["server"]["name"], environ, prefix)
    try:
        key = storage.key(create=False) if storage.exists() else None
        if key is None:
            say("nothing is stored")
            return 0
        store = await storage.open(key)
        try:
            if scheme is None:
                removed = await store.revoke_all(local_user())
            else:
                removed = int(await store.delete(local_user(), scheme))
        finally:
            await store.close()
    except (ValueError, TokenStoreError) as exc:
        raise _Stop(str(exc)) from None
    which = "" if scheme is None else f" of {scheme}"
    say(f"removed the stored tokens{which}" if removed else f"no tokens{which} were stored")
    return removed


@dataclass(frozen=True, slots=True)
class _Callback:
    """One redirect to the callback, waiting for its answer."""

    query: dict[str, str]
    writer: asyncio.StreamWriter
    verifier: str = ""

    @property
    def code(self) -> str:
        return self.query["code"]

    async def answer(self, status: int, title: str, message: str) -> None:
        with contextlib.suppress(OSError):  # a browser that went away needs no page
            await _respond(self.writer, status, _page(title, message))


class _Loopback:
    """The redirect's listener on 127.0.0.1: the first ``GET /callback`` is the answer."""

    def __init__(self, port: int) -> None:
        self._port = port
        self._server: asyncio.Server | None = None
        self._arrived: asyncio.Future[_Callback] | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self._port}{CALLBACK_PATH}"

    async def __aenter__(self) -> _Loopback:
        self._arrived = asyncio.get_running_loop().create_future()
        try:
            self._server = await asyncio.start_server(
                self._serve, "127.0.0.1", self._port, limit=_MAX_HEAD
            )
        except OSError as exc:
            why = exc.strerror or str(exc)
            message = f"cannot listen on 127.0.0.1:{self._port} for the redirect: {why}"
            raise _Stop(message) from None
        self._port = self._server.sockets[0].getsockname()[1]
        return self

    async def callback(self) -> _Callback:
        assert self._arrived is not None
        return await asyncio.shield(self._arrived)

    async def __aexit__(self, *_: object) -> None:
        if self._server is not None:
            self._server.close()
        for writer in self._writers:
            writer.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None and self._arrived is not None
        self._tasks.add(task)
        self._writers.add(writer)
        try:
            async with asyncio.timeout(_READ_SECONDS):
                head = await reader.readuntil(b"\r\n\r\n")
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            writer.close()
            return
        method, target, *_ = [*head.split(b"\r\n", 1)[0].decode("latin-1").split(" "), "", ""]
        parts = urlsplit(target)
        if method != "GET" or parts.path != CALLBACK_PATH or self._arrived.done():
            with contextlib.suppress(OSError):
                await _respond(writer, 404, _page("Not found", "Nothing to see here."))
            return
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        self._arrived.set_result(_Callback(query, writer))


_REASONS: Final = {200: "OK", 400: "Bad Request", 404: "Not Found", 502: "Bad Gateway"}


async def _respond(writer: asyncio.StreamWriter, status: int, body: bytes) -> None:
    head = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}".encode("ascii")]
    head += [name.title() + b": " + value for name, value in security_headers()]
    head += [b"Content-Length: %d" % len(body), b"Connection: close"]
    writer.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
    try:
        await writer.drain()
    finally:
        writer.close()


def _page(title: str, message: str) -> bytes:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n<h1>{escape(title)}</h1>\n<p>{escape(message)}</p>\n</main>\n</body>\n"
        "</html>\n"
    ).encode()
