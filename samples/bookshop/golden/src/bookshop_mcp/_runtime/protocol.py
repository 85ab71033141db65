"""The transport-independent MCP core: era detection, version checks and method dispatch.

``Dispatcher.handle`` takes one decoded JSON-RPC message and returns the reply (or ``None``). It
serves both eras (mcp-wire §2.4): ``initialize`` starts the legacy handshake, whose negotiated
revision lives in an explicit ``LegacySession`` owned by the transport (the stdio process, a legacy
HTTP session); a request carrying ``_meta["io.modelcontextprotocol/protocolVersion"]`` is served
statelessly under 2026-07-28 and never reads the session; anything else after a handshake gets legacy
semantics; anything else is the ``-32602`` a modern client expects for missing ``_meta``. Unexpected
exceptions become ``-32603`` and are logged (to stderr, by whoever configures logging), never raised
into the transport. A request whose ``_meta`` carries a ``progressToken`` gets a ``Progress`` bound
to the transport's ``notify``; only ``tools/call`` reports through it today.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .calls import Calls, Notify, Progress, ResourceNotFound, UpstreamCaller
from .catalog import Catalog
from .completion import Completer
from .jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LEGACY_RESOURCE_NOT_FOUND,
    METHOD_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
    Envelope,
    JsonObject,
    JsonRpcError,
    PreparedResult,
    check_envelope,
    failure,
    readable_id,
    success,
)
from .pagination import DEFAULT_PAGE_SIZE, Pager, ShapeItem
from .prompts import Prompts
from .shaping import (
    LEGACY_VERSIONS,
    MODERN,
    NEWEST_LEGACY,
    SUPPORTED_VERSIONS,
    V2025_03_26,
    CacheHint,
    finish,
    shape_prompt,
    shape_resource,
    shape_server_info,
    shape_tool,
)

logger = logging.getLogger(__name__)

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
LOG_LEVELS = frozenset(
    ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
)
# lists come from the catalog, identical for every caller: cache them for an hour, anywhere
STATIC_CACHE = CacheHint(3_600_000, "public")
# resource contents are upstream data, possibly per credential: never reuse across callers
PRIVATE_CACHE = CacheHint(0, "private")

Handler = Callable[[JsonObject, str, Progress], Awaitable[JsonObject]]


@dataclass(slots=True)
class LegacySession:
    """Legacy handshake state: the revision ``initialize`` negotiated (``None`` before it)."""

    version: str | None = None
    initialized: bool = False


class Dispatcher:
    """Answers MCP messages for one catalog; safe to share across concurrent requests."""

    def __init__(
        self, catalog: Catalog, upstream: UpstreamCaller, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> None:
        self._server_info: JsonObject = {**catalog["server"]}
        self._instructions = catalog.get("instructions")
        self._calls = Calls(catalog, upstream)
        self._prompts = Prompts(catalog["prompts"], catalog["promptMessages"])
        self._completer = Completer(
            catalog["completions"], catalog["prompts"], catalog["resourceTemplates"]
        )
        self.capabilities = _capabilities(catalog)
        self._pagers = {
            key: Pager(key, items, page_size=page_size, shape=shape, finish=self._finish_list)
            for key, items, shape in _lists(catalog)
        }
        self._discovery: PreparedResult | None = None
        common = self._common_methods()
        self._modern: dict[str, Handler] = {"server/discover": self._discover, **common}
        self._legacy: dict[str, Handler] = {"ping": self._ping, **common}

    # -- entry points --------------------------------------------------------------------------

    async def handle(
        self, message: Any, session: LegacySession | None, notify: Notify
    ) -> JsonObject | None:
        """The reply to one message, or ``None`` for notifications and stray responses.

        ``notify`` sends a server notification on the request's channel (progress).
        """
        try:
            envelope = check_envelope(message)
        except JsonRpcError as exc:
            return failure(readable_id(message), exc)
        if envelope.kind == "response":
            return None
        if envelope.kind == "notification":
            if envelope.method == "notifications/initialized" and session is not None:
                session.initialized = True
            return None
        assert envelope.id is not None
        try:
            progress = Progress.for_request(envelope.params, notify)
            result = await self._request(envelope, session, progress)
        except JsonRpcError as exc:
            return failure(envelope.id, exc)
        except Exception:
            logger.exception("internal error while answering %s", envelope.method)
            return failure(envelope.id, JsonRpcError(INTERNAL_ERROR, "Internal error"))
        return success(envelope.id, result)

    def batch_allowed(self, session: LegacySession | None) -> bool:
        """JSON-RPC batches exist only in 2025-03-26; every other revision refuses them."""
        return session is not None and session.version == V2025_03_26

    async def handle_batch(
        self, messages: list[Any], session: LegacySession | None, notify: Notify
    ) -> JsonObject | list[JsonObject] | None:
        """A batch's replies (an array), one error for a refused batch, ``None`` if nothing to say."""
        if not self.batch_allowed(session):
            return failure(None, batch_refused())
        if not messages:
            return failure(None, JsonRpcError(INVALID_REQUEST, "Invalid request: empty batch"))
        replies = await asyncio.gather(*(self.handle(item, session, notify) for item in messages))
        answered = [reply for reply in replies if reply is not None]
        return answered or None

    # -- era selection -------------------------------------------------------------------------

    async def _request(
        self, envelope: Envelope, session: LegacySession | None, progress: Progress
    ) -> JsonObject:
        params = envelope.params
        if envelope.method == "initialize":
            return self._initialize(params, session)
        meta = params.get("_meta") if isinstance(params, dict) else None
        if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
            assert isinstance(params, dict)
            check_modern_meta(meta)
            return await self._dispatch(self._modern, envelope.method, params, MODERN, progress)
        if session is not None and session.version is not None:
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise JsonRpcError(INVALID_PARAMS, "params must be an object")
            return await self._dispatch(
                self._legacy, envelope.method, params, session.version, progress
            )
        raise JsonRpcError(INVALID_PARAMS, f"Missing required _meta field {PROTOCOL_VERSION_KEY}")

    @staticmethod
    async def _dispatch(
        table: dict[str, Handler], method: str, params: JsonObject, version: str, progress: Progress
    ) -> JsonObject:
        handler = table.get(method)
        if handler is None:
            raise JsonRpcError(METHOD_NOT_FOUND, f"Method not found: {method}")
        return await handler(params, version, progress)

    def _initialize(self, params: Any, session: LegacySession | None) -> JsonObject:
        requested = params.get("protocolVersion") if isinstance(params, dict) else None
        if not isinstance(requested, str):
            raise JsonRpcError(INVALID_PARAMS, "initialize requires params.protocolVersion")
        # 2026-07-28 has no handshake: a client asking for it here still gets the newest legacy one
        version = requested if requested in LEGACY_VERSIONS else NEWEST_LEGACY
        if session is not None:
            session.version = version
            session.initialized = False
        result: JsonObject = {
            "protocolVersion": version,
            "capabilities": self.capabilities,
            "serverInfo": shape_server_info(self._server_info, version),
        }
        if self._instructions:
            result["instructions"] = self._instructions
        return result

    # -- methods -------------------------------------------------------------------------------

    def _common_methods(self) -> dict[str, Handler]:
        """Methods both eras share, limited to the advertised capabilities."""
        methods: dict[str, Handler] = {}
        if "tools" in self.capabilities:
            methods["tools/list"] = self._list("tools")
            methods["tools/call"] = self._call_tool
        if "resources" in self.capabilities:
            methods["resources/list"] = self._list("resources")
            methods["resources/templates/list"] = self._list("resourceTemplates")
            methods["resources/read"] = self._read_resource
        if "prompts" in self.capabilities:
            methods["prompts/list"] = self._list("prompts")
            methods["prompts/get"] = self._get_prompt
        if "completions" in self.capabilities:
            methods["completion/complete"] = self._complete
        return methods

    def _finish(
        self, result: JsonObject, version: str, cache: CacheHint | None = None
    ) -> JsonObject:
        return finish(result, version, self._server_info, cache)

    def _finish_list(self, result: JsonObject, version: str) -> JsonObject:
        return self._finish(result, version, STATIC_CACHE)

    async def _discover(self, params: JsonObject, version: str, progress: Progress) -> JsonObject:
        if self._discovery is None:
            result: JsonObject = {
                "supportedVersions": list(SUPPORTED_VERSIONS),
                "capabilities": self.capabilities,
            }
            if self._instructions:
                result["instructions"] = self._instructions
            self._discovery = PreparedResult(self._finish(result, version, STATIC_CACHE))
        return self._discovery

    async def _ping(self, params: JsonObject, version: str, progress: Progress) -> JsonObject:
        return {}

    def _list(self, key: str) -> Handler:
        pager = self._pagers[key]

        async def list_page(params: JsonObject, version: str, progress: Progress) -> JsonObject:
            return pager.page(params, version)

        return list_page

    async def _call_tool(self, params: JsonObject, version: str, progress: Progress) -> JsonObject:
        return self._finish(await self._calls.call_tool(params, version, progress), version)

    async def _read_resource(
        self, params: JsonObject, version: str, progress: Progress
    ) -> JsonObject:
        try:
            contents = await self._calls.read_resource(params)
        except ResourceNotFound as exc:
            code = INVALID_PARAMS if version == MODERN else LEGACY_RESOURCE_NOT_FOUND
            raise JsonRpcError(code, "Resource not found", {"uri": exc.uri}) from exc
        return self._finish({"contents": contents}, version, PRIVATE_CACHE)

    async def _get_prompt(self, params: JsonObject, version: str, progress: Progress) -> JsonObject:
        return self._finish(self._prompts.get(params), version)

    async def _complete(self, params: JsonObject, version: str, progress: Progress) -> JsonObject:
        return self._finish(self._completer.complete(params), version)


def batch_refused() -> JsonRpcError:
    return JsonRpcError(
        INVALID_REQUEST, "Invalid request: batches are accepted only from 2025-03-26 clients"
    )


def check_modern_meta(meta: JsonObject) -> None:
    """Version first (``-32022``), then the other required keys (``-32602``).

    Public so the HTTP transport can run it before dispatch, where these failures are HTTP 400.
    """
    version = meta[PROTOCOL_VERSION_KEY]
    if not isinstance(version, str):
        raise JsonRpcError(
            INVALID_PARAMS, f"Invalid _meta field {PROTOCOL_VERSION_KEY}: not a string"
        )
    if version != MODERN:
        message = "Unsupported protocol version"
        if version in LEGACY_VERSIONS:
            message += f": {version} is served only after initialize"
        raise JsonRpcError(
            UNSUPPORTED_PROTOCOL_VERSION,
            message,
            {"supported": list(SUPPORTED_VERSIONS), "requested": version},
        )
    if CLIENT_CAPABILITIES_KEY not in meta:
        raise JsonRpcError(
            INVALID_PARAMS, f"Missing required _meta field {CLIENT_CAPABILITIES_KEY}"
        )
    if not isinstance(meta[CLIENT_CAPABILITIES_KEY], dict):
        raise JsonRpcError(
            INVALID_PARAMS, f"Invalid _meta field {CLIENT_CAPABILITIES_KEY}: not an object"
        )
    if LOG_LEVEL_KEY in meta and meta[LOG_LEVEL_KEY] not in LOG_LEVELS:
        raise JsonRpcError(INVALID_PARAMS, f"Invalid _meta field {LOG_LEVEL_KEY}")


def _capabilities(catalog: Catalog) -> JsonObject:
    capabilities: JsonObject = {}
    completions = catalog["completions"]
    if any(completions["prompts"].values()) or any(completions["resourceTemplates"].values()):
        capabilities["completions"] = {}
    if catalog["prompts"]:
        capabilities["prompts"] = {"listChanged": False}
    if catalog["resources"] or catalog["resourceTemplates"]:
        capabilities["resources"] = {"listChanged": False}
    if catalog["tools"]:
        capabilities["tools"] = {"listChanged": False}
    return capabilities


def _lists(catalog: Catalog) -> list[tuple[str, list[JsonObject], ShapeItem]]:
    return [
        ("tools", catalog["tools"], shape_tool),
        ("resources", catalog["resources"], shape_resource),
        ("resourceTemplates", catalog["resourceTemplates"], shape_resource),
        ("prompts", catalog["prompts"], shape_prompt),
    ]
