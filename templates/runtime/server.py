"""``McpServer``: one API's catalog, its upstream client and the protocol core, wired together.

``Settings`` gathers what may differ between deployments of the same generated server (upstream base
URL and timeout from the environment variables the catalog names, the environment that holds the
credentials, the list page size, the HTTP transport's limits) plus a test seam, an ``httpx``
transport. Settings are authoritative: the upstream client is given the resolved base URL and timeout
rather than re-reading them. ``McpServer`` may carry an inbound ``Authenticator`` for HTTP; without
one, the HTTP transport builds it from the environment (``auth.authenticator_from_env``), and
authentication stays off when nothing there asks for it. It may also carry the package's custom code
(``hooks.CustomCode``, loaded by ``load_custom_code``): its tools, resources and prompts are appended
to the catalog, ``before_request`` becomes an httpx event hook of the upstream client, and
``after_response`` wraps every upstream call. A custom module that cannot be imported, or declares
something unusable, is a ``CustomCodeError``: a one-line start-up failure.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast
from urllib.parse import urlsplit

import httpx

from .ask.interaction import OFF, POLICIES
from .catalog.model import OUTPUT_SCHEMA_MODES, Catalog, UpstreamInfo, catalog_part, load_catalog
from .environment import name as env_name
from .errors import CustomCodeError as CustomCodeError  # noqa: PLC0414 - re-exported
from .errors import SettingsError as SettingsError  # noqa: PLC0414 - re-exported
from .errors import TokenStoreError
from .hooks import CustomCaller, CustomCode, DefinitionError, LocalItem, collect, module_path
from .protocol.calls import UpstreamCaller
from .protocol.dispatch import Dispatcher
from .protocol.dynamic import ToolModeError, ToolSelection, selection_from_env
from .protocol.pagination import DEFAULT_PAGE_SIZE
from .protocol.request_state import DEFAULT_TTL_SECONDS, MIN_SECRET_BYTES, StateSigner
from .protocol.results import MAX_TEXT_CHARS, MIN_TEXT_CHARS, ResultLimits
from .transports.http_origins import DEFAULT_ALLOWED_ORIGINS, parse_allowed_origins
from .transports.http_responses import DEFAULT_MAX_BODY_BYTES
from .transports.stdio import DEFAULT_MAX_LINE_BYTES, serve_stdio
from .upstream.client import Upstream, UpstreamError, expand_server, upstream_headers
from .upstream.resilience import Policy, PolicyError

if TYPE_CHECKING:
    # the HTTP transport's authentication code is not loaded on the stdio path
    from .auth.bearer import Authenticator
    from .peruser.local import LocalCredentials


logger = logging.getLogger(__name__)
# a start-up error is one line; a longer exception message is cut
_MAX_ERROR_CHARS = 300


def load_custom_code(module_name: str) -> CustomCode | None:
    """Import the custom module ``module_name`` if it exists and collect its declarations.

    ``None`` when there is no such module. Any exception while importing it (a syntax error, a failed
    import, a wrong declaration) becomes a ``CustomCodeError`` naming the file, the error and the
    line; the traceback is logged at DEBUG level (``MCP_LOG_LEVEL=DEBUG``).
    """
    try:
        if importlib.util.find_spec(module_name) is None:
            return None
        return collect(importlib.import_module(module_name))
    except Exception as exc:
        logger.debug("custom code %s failed to load", module_name, exc_info=True)
        raise CustomCodeError(_load_failure(module_name, exc)) from exc


def _load_failure(module_name: str, exc: Exception) -> str:
    path = module_path(module_name)
    line: int | None = None
    message = str(exc)
    if isinstance(exc, SyntaxError):
        line, message = exc.lineno, exc.msg
    else:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(path)]
        line = frames[-1].lineno if frames else None
    message = " ".join(message.split())
    detail = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    where = f" (line {line})" if line else ""
    text = f"custom code {path} failed to load: {detail}"
    if len(text) > _MAX_ERROR_CHARS:
        text = text[: _MAX_ERROR_CHARS - 1] + "…"
    return text + where


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
    # characters of text one tool result may carry (<PREFIX>_MAX_RESULT_CHARS)
    max_result_chars: int = MAX_TEXT_CHARS
    transport: httpx.AsyncBaseTransport | None = None
    # the prefix of this server's environment variables, e.g. "PETSTORE"
    env_prefix: str = "MCP"
    # HTTP transport: browser origins allowed to call the endpoint; request body limit; the
    # endpoint's public URL (OAuth resource identifier), when it differs from the bound address
    allowed_origins: tuple[str, ...] = DEFAULT_ALLOWED_ORIGINS
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    public_url: str | None = None
    # the tool mode (<PREFIX>_TOOL_MODE, <PREFIX>_TOOLSETS); None: the one the catalog was made with
    tool_selection: ToolSelection | None = None
    # asking the user (interaction.py): which calls need a yes, whether missing arguments are asked
    # for, and the signer of requestState (None: a random secret of this process)
    confirm_policy: str = OFF
    elicit_missing: bool = True
    state_signer: StateSigner | None = None
    # <PREFIX>_OUTPUT_SCHEMAS: lenient, strict or off for every tool; None: as generated
    output_schemas: str | None = None

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

        The variables, their defaults and meanings are in ``environment.VARIABLES``. The credentials
        for the upstream API and inbound authentication (``auth``) are read from ``environ`` by the
        upstream client and the HTTP transport.
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
        server = upstream.get("server")
        variables = server.get("variables", {}) if server is not None else {}
        configured = any(env.get(v["env"], "").strip() for v in variables.values())
        if server is not None and configured and not env.get(upstream["baseUrlEnv"], "").strip():
            # a server variable set to a value its enum refuses stops start-up; one left unset
            # without a default is reported by each call, like a missing base URL
            try:
                expand_server(server, env)
            except UpstreamError as exc:
                raise SettingsError(str(exc)) from None
        try:  # retries, circuit breaker and limits: a bad value stops start-up, not every call
            Policy.from_env(env, prefix)
        except PolicyError as exc:
            raise SettingsError(str(exc)) from None
        try:  # the same for <PREFIX>_HEADERS
            upstream_headers(upstream, env)
        except UpstreamError as exc:
            raise SettingsError(str(exc)) from None
        return cls(
            base_url,
            timeout,
            env,
            page_size=page_size,
            transport=transport,
            env_prefix=prefix,
            allowed_origins=_allowed_origins(env, env_name(prefix, "ALLOWED_ORIGINS")),
            max_body_bytes=_max_body_bytes(env, env_name(prefix, "MAX_BODY_BYTES")),
            max_line_bytes=_max_line_bytes(env, env_name(prefix, "MAX_LINE_BYTES")),
            max_result_chars=_max_result_chars(env, env_name(prefix, "MAX_RESULT_CHARS")),
            public_url=_public_url(env, env_name(prefix, "PUBLIC_URL")),
            tool_selection=_tool_selection(catalog, env, prefix),
            output_schemas=_output_schemas(env, env_name(prefix, "OUTPUT_SCHEMAS")),
            **_interaction_settings(catalog, env, prefix),
        )


def _interaction_settings(catalog: Catalog, env: Mapping[str, str], prefix: str) -> _Interaction:
    defaults = catalog.get("interaction") or {"confirm": OFF, "elicitMissing": True}
    name = env_name(prefix, "CONFIRM")
    policy = env.get(name, "").strip().lower() or defaults["confirm"]
    if policy not in POLICIES:
        raise SettingsError(f"{name} must be one of {', '.join(POLICIES)}, got {policy[:40]!r}")
    name = env_name(prefix, "ELICIT_MISSING")
    raw = env.get(name, "").strip().lower()
    if raw not in ("", "true", "false", "1", "0", "yes", "no"):
        raise SettingsError(f"{name} must be true or false, got {raw[:40]!r}")
    elicit = defaults["elicitMissing"] if not raw else raw in ("true", "1", "yes")
    name = env_name(prefix, "STATE_TTL")
    raw = env.get(name, "").strip()
    ttl = float(DEFAULT_TTL_SECONDS)
    if raw:
        try:
            ttl = float(raw)
        except ValueError:
            ttl = -1.0
        if not 0 < ttl <= 86_400:
            raise SettingsError(
                f"{name} must be a number of seconds in (0, 86400], got {raw[:40]!r}"
            )
    name = env_name(prefix, "STATE_SECRET")
    secret = env.get(name, "")
    if secret and len(secret.encode()) < MIN_SECRET_BYTES:
        raise SettingsError(f"{name} must be at least {MIN_SECRET_BYTES} bytes long")
    if secret:
        signer = StateSigner(secret.encode(), ttl_seconds=ttl)
    else:
        signer = StateSigner.ephemeral(ttl_seconds=ttl)
    return {"confirm_policy": policy, "elicit_missing": elicit, "state_signer": signer}


class _Interaction(TypedDict):
    confirm_policy: str
    elicit_missing: bool
    state_signer: StateSigner


def _tool_selection(catalog: Catalog, env: Mapping[str, str], prefix: str) -> ToolSelection:
    try:
        return selection_from_env(catalog, env, prefix)
    except ToolModeError as exc:
        raise SettingsError(str(exc)) from None


def _output_schemas(env: Mapping[str, str], name: str) -> str | None:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return None
    if raw not in OUTPUT_SCHEMA_MODES:
        choices = ", ".join(OUTPUT_SCHEMA_MODES)
        raise SettingsError(f"{name} must be one of {choices}, got {raw[:40]!r}")
    return raw


def _allowed_origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    raw = env.get(name, "").strip()
    if not raw:
        return DEFAULT_ALLOWED_ORIGINS
    try:
        return parse_allowed_origins(raw)
    except ValueError as exc:
        raise SettingsError(f"{name}: {exc}") from None


def _max_line_bytes(env: Mapping[str, str], name: str) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return DEFAULT_MAX_LINE_BYTES
    if not raw.isdigit() or int(raw) < 1024:
        raise SettingsError(f"{name} must be a number of bytes >= 1024, got {raw[:40]!r}")
    return int(raw)


def _max_result_chars(env: Mapping[str, str], name: str) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return MAX_TEXT_CHARS
    if not raw.isdigit() or int(raw) < MIN_TEXT_CHARS:
        raise SettingsError(
            f"{name} must be a number of characters >= {MIN_TEXT_CHARS}, got {raw[:40]!r}"
        )
    return int(raw)


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
        custom: CustomCode | None = None,
    ) -> None:
        local: dict[str, LocalItem] = {}
        # without custom items the catalog stays as loaded (lazily: start-up reads only its index)
        if custom is not None and custom.items:
            try:
                catalog, local = custom.extend(catalog)
            except DefinitionError as exc:
                raise CustomCodeError(f"custom code {custom.source}: {exc}") from None
        self.catalog = catalog
        self.settings = settings
        # inbound HTTP authentication; None lets the HTTP transport read it from the environment
        self.authenticator = authenticator
        self._upstream: Upstream | None = None
        if upstream is None:
            upstream = self._upstream = self._build_upstream(catalog, settings, custom)
        if custom is not None:
            upstream = CustomCaller(upstream, local, custom.after_response)
        self.dispatcher = Dispatcher(
            catalog,
            upstream,
            page_size=settings.page_size,
            local_prompts=custom.get_prompt if custom is not None else None,
            tool_selection=settings.tool_selection,
            confirm_policy=settings.confirm_policy,
            elicit_missing=settings.elicit_missing,
            state_signer=settings.state_signer,
            result_limits=ResultLimits(
                settings.max_result_chars, env_name(settings.env_prefix, "MAX_RESULT_CHARS")
            ),
            output_mode=settings.output_schemas,
        )

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
    def _build_upstream(
        catalog: Catalog, settings: Settings, custom: CustomCode | None
    ) -> Upstream:
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
            catalog_part(catalog, "operations"),
            environ=environ,
            user_agent=_user_agent(catalog),
            transport=settings.transport,
            event_hooks=custom.event_hooks() if custom is not None else None,
        )

    async def serve_stdio(self) -> None:
        """Serve MCP on this process's stdin/stdout until stdin closes.

        When the user has run ``login`` (a store key and the token store exist), calls carry the
        tokens it stored for them and the environment's credentials for the other schemes
        (``peruser.local``); otherwise nothing is opened and the environment's are used. An unusable
        key or store is a ``SettingsError``.
        """
        dispatcher = self.dispatcher
        local = await self._local_credentials()
        if local is not None:
            from .peruser.local import AsLocalUser  # noqa: PLC0415 - after a login only

            self.dispatcher.serve_per_user(local)
            # stdio names no caller, and per-user credentials are looked up for one
            dispatcher = cast("Dispatcher", AsLocalUser(self.dispatcher, local.user))
        try:
            await serve_stdio(dispatcher, max_line_bytes=self.settings.max_line_bytes)
        finally:
            if local is not None:
                await local.aclose()
            await self.aclose()

    async def _local_credentials(self) -> LocalCredentials | None:
        from .peruser.local import open_local  # noqa: PLC0415 - loads the store only after a login

        settings, server = self.settings, self.catalog["server"]
        try:
            return await open_local(
                self.catalog["upstream"],
                settings.environ,
                prefix=settings.env_prefix,
                server_name=server["name"],
                api=server.get("title") or server["name"],
                transport=settings.transport,
            )
        except (ValueError, TokenStoreError) as exc:
            raise SettingsError(str(exc)) from None

    async def aclose(self) -> None:
        if self._upstream is not None:
            await self._upstream.aclose()
