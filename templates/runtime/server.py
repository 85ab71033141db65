"""``McpServer``: one API's catalog, its upstream client and the protocol core, wired together.

``Settings`` gathers what may differ between deployments of the same generated server (upstream base
URL and timeout from the environment variables the catalog names, the environment that holds the
credentials, the list page size, the HTTP transport's limits) plus a test seam, an ``httpx``
transport. Settings are authoritative: the upstream client is given the resolved base URL and timeout
rather than re-reading them. ``McpServer`` may carry an inbound ``Authenticator`` for HTTP; without
one, the HTTP transport builds it from the environment (``auth.authenticator_from_env``), and
authentication stays off when nothing there asks for it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import httpx

from .calls import UpstreamCaller
from .catalog import Catalog, UpstreamInfo, load_catalog
from .http_origins import DEFAULT_ALLOWED_ORIGINS, parse_allowed_origins
from .http_responses import DEFAULT_MAX_BODY_BYTES
from .pagination import DEFAULT_PAGE_SIZE
from .protocol import Dispatcher
from .stdio import DEFAULT_MAX_LINE_BYTES, serve_stdio
from .upstream import Upstream

if TYPE_CHECKING:
    # the HTTP transport's authentication code is not loaded on the stdio path
    from .auth import Authenticator


class SettingsError(Exception):
    """A setting from the environment is unusable; the message names the variable."""


_BASE_URL_SUFFIX = "_BASE_URL"


def env_prefix(catalog: Catalog) -> str:
    """The server's environment prefix (``PETSTORE``), as in its ``<PREFIX>_BASE_URL`` variable."""
    name = catalog["upstream"]["baseUrlEnv"]
    return name.removesuffix(_BASE_URL_SUFFIX) if name.endswith(_BASE_URL_SUFFIX) else "MCP"


@dataclass(frozen=True, slots=True)
class Settings:
    """Deployment settings; ``from_env`` documents the environment variables behind them."""

    base_url: str
    timeout: float
    environ: Mapping[str, str] = field(default_factory=dict)
    page_size: int = DEFAULT_PAGE_SIZE
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    transport: httpx.AsyncBaseTransport | None = None
    # the prefix of this server's environment variables, e.g. "PETSTORE"
    env_prefix: str = "MCP"
    # HTTP transport: browser origins allowed to call the endpoint; request body limit; the
    # endpoint's public URL (OAuth resource identifier), when it differs from the bound address
    allowed_origins: tuple[str, ...] = DEFAULT_ALLOWED_ORIGINS
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    public_url: str | None = None

    @classmethod
    def from_env(
        cls,
        catalog: Catalog,
        environ: Mapping[str, str] | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> Settings:
        """Settings from ``environ`` (default: the process environment) and the catalog defaults.

        Variables, with ``<PREFIX>`` the server's prefix (``env_prefix``, e.g. ``PETSTORE``):

        - ``<PREFIX>_BASE_URL``: the upstream API's base URL (default: the spec's first server).
        - ``<PREFIX>_TIMEOUT``: seconds allowed for one upstream request (default from the catalog).
        - ``<PREFIX>_ALLOWED_ORIGINS`` (HTTP): browser origins allowed to call the endpoint,
          separated by commas or spaces, each ``scheme://host``, ``scheme://host:port``,
          ``scheme://host:*`` (any port) or ``*`` (any origin); requests without ``Origin`` are always
          allowed. Default: ``http(s)://localhost``, ``127.0.0.1`` and ``[::1]`` on any port.
        - ``<PREFIX>_MAX_BODY_BYTES`` (HTTP): the largest request body accepted, in bytes; larger
          requests get 413. Default: 4194304 (4 MiB).
        - ``<PREFIX>_PUBLIC_URL`` (HTTP): the endpoint's URL as clients reach it (e.g.
          ``https://mcp.example.com/mcp``), the OAuth resource identifier. Default: the address the
          server binds, e.g. ``http://127.0.0.1:8000/mcp``.

        The credentials for the upstream API and inbound authentication (``auth``) are read from
        ``environ`` by the upstream client and the HTTP transport.
        """
        env = dict(os.environ if environ is None else environ)
        upstream = catalog["upstream"]
        base_url = env.get(upstream["baseUrlEnv"], "").strip() or upstream["baseUrl"]
        raw_timeout = env.get(upstream["timeoutEnv"], "").strip()
        timeout = float(upstream["timeoutSeconds"])
        if raw_timeout:
            try:
                timeout = float(raw_timeout)
            except ValueError:
                timeout = -1.0
            if not 0 < timeout < float("inf"):
                raise SettingsError(
                    f"{upstream['timeoutEnv']} must be a positive number of seconds, "
                    f"got {raw_timeout[:40]!r}"
                )
        prefix = env_prefix(catalog)
        return cls(
            base_url,
            timeout,
            env,
            page_size=page_size,
            transport=transport,
            env_prefix=prefix,
            allowed_origins=_allowed_origins(env, f"{prefix}_ALLOWED_ORIGINS"),
            max_body_bytes=_max_body_bytes(env, f"{prefix}_MAX_BODY_BYTES"),
            public_url=_public_url(env, f"{prefix}_PUBLIC_URL"),
        )


def _allowed_origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    raw = env.get(name, "").strip()
    if not raw:
        return DEFAULT_ALLOWED_ORIGINS
    try:
        return parse_allowed_origins(raw)
    except ValueError as exc:
        raise SettingsError(f"{name}: {exc}") from None


def _max_body_bytes(env: Mapping[str, str], name: str) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return DEFAULT_MAX_BODY_BYTES
    if not raw.isdigit() or int(raw) < 1:
        raise SettingsError(f"{name} must be a positive number of bytes, got {raw[:40]!r}")
    return int(raw)


def _public_url(env: Mapping[str, str], name: str) -> str | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.fragment:
        raise SettingsError(f"{name} must be an absolute http(s) URL without a fragment")
    return raw


def _user_agent(catalog: Catalog) -> str:
    server = catalog["server"]
    return f"{server['name']}/{server['version']}"


class McpServer:
    """A ready-to-serve MCP server for one catalog."""

    def __init__(
        self,
        catalog: Catalog,
        settings: Settings,
        *,
        upstream: UpstreamCaller | None = None,
        authenticator: Authenticator | None = None,
    ) -> None:
        self.catalog = catalog
        self.settings = settings
        # inbound HTTP authentication; None lets the HTTP transport read it from the environment
        self.authenticator = authenticator
        self._upstream: Upstream | None = None
        if upstream is None:
            upstream = self._upstream = self._build_upstream(catalog, settings)
        self.dispatcher = Dispatcher(catalog, upstream, page_size=settings.page_size)

    @classmethod
    def from_catalog_path(
        cls,
        path: Path,
        *,
        environ: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> McpServer:
        """Load ``catalog.json`` and read the settings from ``environ`` (default: ``os.environ``)."""
        catalog = load_catalog(path)
        settings = Settings.from_env(catalog, environ, transport=transport, page_size=page_size)
        return cls(catalog, settings)

    @staticmethod
    def _build_upstream(catalog: Catalog, settings: Settings) -> Upstream:
        declared = catalog["upstream"]
        info: UpstreamInfo = {
            **declared,
            "baseUrl": settings.base_url,
            "timeoutSeconds": settings.timeout,
        }
        # hide the variables Settings already resolved so the client cannot disagree with them
        resolved = {declared["baseUrlEnv"], declared["timeoutEnv"]}
        environ = {key: value for key, value in settings.environ.items() if key not in resolved}
        return Upstream(
            info,
            catalog["operations"],
            environ=environ,
            user_agent=_user_agent(catalog),
            transport=settings.transport,
        )

    async def serve_stdio(self) -> None:
        """Serve MCP on this process's stdin/stdout until stdin closes."""
        try:
            await serve_stdio(self.dispatcher, max_line_bytes=self.settings.max_line_bytes)
        finally:
            await self.aclose()

    async def aclose(self) -> None:
        if self._upstream is not None:
            await self._upstream.aclose()
