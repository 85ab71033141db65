"""Running the HTTP transport: ``create_app`` wires an ``McpServer`` into ``McpHttpApp``;
``serve_http`` binds a socket and serves the app with uvicorn until the process is told to stop.

uvicorn is the generated package's optional extra ``http`` and is imported only here, when HTTP is
started. The app is plain ASGI, so ``create_app(server)`` also runs under any other ASGI server. The
socket is bound before uvicorn starts, so the address reported to ``on_ready`` is the real one (also
for port 0, which picks a free port). Inbound authentication comes from the server or, when it has
none, from the environment, with the endpoint's public URL as the OAuth resource identifier. Calls
carry the server's credentials, each caller's own (per-user mode, ``peruser.service``) or tokens
exchanged for each caller's (exchange mode, ``peruser.exchange``): one of them, as
``<PREFIX>_CREDENTIALS`` says. Like stdio, start-up reads only the catalog's index: the
``x-mcp-header`` declarations a tool's ``Mcp-Param-*`` headers are checked against are read on that
tool's first call, from its line in ``catalog.tools.jsonl`` when the catalog is loaded lazily
(``_LazyToolHeaders``).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from collections.abc import Callable
from typing import Any

from ..auth.bearer import (
    Authenticator,
    BearerAuthenticator,
    Principal,
    authenticator_from_env,
    protected_resource_metadata,
    protected_resource_metadata_paths,
)
from ..catalog.model import Catalog
from ..errors import HttpUnavailable as HttpUnavailable  # noqa: PLC0414 - re-exported
from ..errors import TokenStoreError
from ..peruser.exchange import TokenExchange, exchange_from_env
from ..peruser.service import PerUser, per_user_from_env
from ..protocol.pagination import ToolSource, tool_source
from ..server import McpServer, SettingsError
from .http import McpHttpApp
from .http_headers import ParamHeader, ToolHeaders
from .http_responses import DEFAULT_PATH

logger = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# open SSE streams must not hold a stopping server for long
_GRACEFUL_SHUTDOWN_SECONDS = 5


def endpoint_url(host: str, port: int, path: str) -> str:
    """``http://host:port/path`` for a bound address (IPv6 literals in brackets)."""
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    shown = f"[{host}]" if literal is not None and literal.version == 6 else host
    return f"http://{shown}:{port}{path}"


def _authenticator(server: McpServer, resource_url: str | None) -> Authenticator | None:
    if server.authenticator is not None:
        return server.authenticator
    settings = server.settings
    try:
        return authenticator_from_env(
            settings.environ,
            resource_url=resource_url or "",
            prefix=f"{settings.env_prefix}_",
        )
    except ValueError as exc:
        hint = "" if resource_url else f" (set {settings.env_prefix}_PUBLIC_URL)"
        raise SettingsError(f"{exc}{hint}") from None


class _LazyToolHeaders(ToolHeaders):
    """``ToolHeaders`` whose tools' input schemas are read by name, on each tool's first call."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(())
        self._catalog = catalog
        self._source: ToolSource | None = None
        self._positions: dict[str, int] = {}

    def declared(self, tool: str) -> tuple[ParamHeader, ...]:
        if tool not in self._schemas:
            if self._source is None:
                self._source = tool_source(self._catalog)
                self._positions = {name: i for i, name in enumerate(self._source.names)}
            position = self._positions.get(tool)
            if position is None:
                return ()  # not a tool of the catalog: nothing declared, nothing cached
            schema: Any = self._source.pick([position])[0].get("inputSchema")
            self._schemas[tool] = schema
        return super().declared(tool)


def create_app(
    server: McpServer, *, path: str = DEFAULT_PATH, resource_url: str | None = None
) -> McpHttpApp:
    """The ASGI app for ``server`` on ``path``.

    ``resource_url`` is the endpoint's URL when ``<PREFIX>_PUBLIC_URL`` does not say it; OAuth needs
    one of them. Raises ``SettingsError`` for unusable authentication settings.
    """
    settings = server.settings
    resource = settings.public_url or resource_url
    authenticator = _authenticator(server, resource)
    per_user = _per_user(server, authenticator, resource or endpoint_url(DEFAULT_HOST, 0, path))
    pages, startup, shutdown = None, [], []
    if per_user is not None:
        server.dispatcher.serve_per_user(per_user)
        pages, startup, shutdown = (
            (per_user.path, per_user.asgi),
            [per_user.start],
            [per_user.aclose],
        )
    # the modes exclude each other: at most one of the two is configured
    exchange = _exchange(server, authenticator) if per_user is None else None
    if exchange is not None:
        server.dispatcher.serve_per_user(exchange)
        shutdown = [exchange.aclose]
    # listing every tool here would read the whole catalog before the first request
    return McpHttpApp(
        server.dispatcher,
        _LazyToolHeaders(server.catalog),
        path=path,
        allowed_origins=settings.allowed_origins,
        max_body_bytes=settings.max_body_bytes,
        authenticator=authenticator,
        resource_metadata=protected_resource_metadata(authenticator),
        metadata_paths=protected_resource_metadata_paths(path),
        pages=pages,
        startup=startup,
        shutdown=shutdown,
    )


def _per_user(
    server: McpServer, authenticator: Authenticator | None, public_url: str
) -> PerUser | None:
    """Per-user mode when ``<PREFIX>_CREDENTIALS`` (or the generated default) asks for it."""
    settings = server.settings
    verify = None
    if authenticator is not None:
        inbound = authenticator

        async def verify(token: str) -> tuple[str, str] | None:
            outcome = await inbound.authenticate(f"Bearer {token}", b"") if token else None
            if isinstance(outcome, Principal) and outcome.subject:
                return outcome.issuer, outcome.subject
            return None

    upstream = server.catalog["upstream"]
    try:
        return per_user_from_env(
            upstream,
            settings.environ,
            prefix=settings.env_prefix,
            server_name=server.catalog["server"]["name"],
            api=server.catalog["server"].get("title") or server.catalog["server"]["name"],
            public_url=public_url,
            verify=verify,
            transport=settings.transport,
        )
    except (ValueError, TokenStoreError) as exc:
        raise SettingsError(str(exc)) from None


def _exchange(server: McpServer, authenticator: Authenticator | None) -> TokenExchange | None:
    """Exchange mode when ``<PREFIX>_CREDENTIALS`` (or the generated default) asks for it."""
    settings = server.settings
    # only the identity provider's own access tokens (JWTs) can be exchanged at it
    oauth = authenticator.oauth if isinstance(authenticator, BearerAuthenticator) else None
    try:
        return exchange_from_env(
            server.catalog["upstream"],
            settings.environ,
            prefix=settings.env_prefix,
            api=server.catalog["server"].get("title") or server.catalog["server"]["name"],
            issuer=None if oauth is None else oauth.issuer,
            transport=settings.transport,
        )
    except ValueError as exc:
        raise SettingsError(str(exc)) from None


def _bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(socket.SOMAXCONN)
    except OSError:
        sock.close()
        raise
    return sock


async def serve_http(
    server: McpServer,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    path: str = DEFAULT_PATH,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve MCP over HTTP at ``http://host:port/path`` until stopped (SIGINT/SIGTERM).

    ``on_ready`` receives the endpoint URL once the socket accepts connections. Raises
    ``HttpUnavailable`` without uvicorn, ``OSError`` when the address cannot be bound and
    ``SettingsError`` for unusable settings. The server's upstream client is closed at the end.
    """
    try:
        import uvicorn  # noqa: PLC0415 - optional dependency, only needed for HTTP
    except ImportError:
        raise HttpUnavailable(
            "the HTTP transport needs uvicorn: install this server with its 'http' extra"
        ) from None
    try:
        sock = _bind(host, port)
        try:
            url = endpoint_url(host, sock.getsockname()[1], path)
            app = create_app(server, path=path, resource_url=url)
            if not _is_loopback(host):
                logger.warning(
                    "serving MCP on %s, beyond this machine: configure authentication", url
                )
            config = uvicorn.Config(
                app,
                lifespan="on",
                log_config=None,
                access_log=False,
                server_header=False,
                timeout_graceful_shutdown=_GRACEFUL_SHUTDOWN_SECONDS,
            )
            if on_ready is not None:
                on_ready(url)
            await uvicorn.Server(config).serve(sockets=[sock])
        finally:
            sock.close()
    finally:
        await server.aclose()


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
