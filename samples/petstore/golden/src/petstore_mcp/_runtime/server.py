"""``McpServer``: one API's catalog, its upstream client and the protocol core, wired together.

``Settings`` gathers what may differ between deployments of the same generated server (upstream base
URL and timeout from the environment variables the catalog names, the environment that holds the
credentials, the list page size) plus a test seam, an ``httpx`` transport. Settings are authoritative:
the upstream client is given the resolved base URL and timeout rather than re-reading them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from .calls import UpstreamCaller
from .catalog import Catalog, UpstreamInfo, load_catalog
from .pagination import DEFAULT_PAGE_SIZE
from .protocol import Dispatcher
from .stdio import DEFAULT_MAX_LINE_BYTES, serve_stdio
from .upstream import Upstream


class SettingsError(Exception):
    """A setting from the environment is unusable; the message names the variable."""


@dataclass(frozen=True, slots=True)
class Settings:
    base_url: str
    timeout: float
    environ: Mapping[str, str] = field(default_factory=dict)
    page_size: int = DEFAULT_PAGE_SIZE
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    transport: httpx.AsyncBaseTransport | None = None

    @classmethod
    def from_env(
        cls,
        catalog: Catalog,
        environ: Mapping[str, str] | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> Settings:
        """Settings from ``environ`` (default: the process environment) and the catalog defaults."""
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
        return cls(base_url, timeout, env, page_size=page_size, transport=transport)


def _user_agent(catalog: Catalog) -> str:
    server = catalog["server"]
    return f"{server['name']}/{server['version']}"


class McpServer:
    """A ready-to-serve MCP server for one catalog."""

    def __init__(
        self, catalog: Catalog, settings: Settings, *, upstream: UpstreamCaller | None = None
    ) -> None:
        self.catalog = catalog
        self.settings = settings
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
