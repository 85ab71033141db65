"""The transport-independent MCP core: era detection, version checks and method dispatch.

``Dispatcher.handle`` takes one decoded JSON-RPC message and returns the reply (or ``None``). It
serves both eras (mcp-wire §2.4): ``initialize`` starts the legacy handshake, whose negotiated
revision lives in an explicit ``LegacySession`` owned by the transport (the stdio process, a legacy
HTTP session); a request carrying ``_meta["io.modelcontextprotocol/protocolVersion"]`` is served
statelessly under 2026-07-28 and never reads the session; anything else after a handshake gets legacy
semantics; anything else is the ``-32602`` a modern client expects for missing ``_meta``. Unexpected
exceptions become ``-32603`` and are logged (to stderr, by whoever configures logging), never raised
into the transport. A request whose ``_meta`` carries a ``progressToken`` gets a ``Progress`` bound
to the transport's ``notify``, and one that chose a log level a ``RequestLog``: a modern request
through ``_meta["io.modelcontextprotocol/logLevel"]``, a legacy one through the session's
``logging/setLevel``; only ``tools/call`` reports through them today. Legacy sessions also accept
``resources/subscribe`` and ``resources/unsubscribe``, advertised only in legacy ``initialize``
results (2026-07-28 has neither method). Which tools are listed and callable is the tool mode's
business (``dynamic.ToolSurface``). Nothing here reads more of the catalog than the first request
needs: capabilities come from the catalog's counts, lists are read on their first page, prompts and
completions on first use.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..ask.interaction import OFF, Asker, InputRequired, Interaction, Stop
from ..catalog.model import Catalog, CatalogCounts, catalog_counts
from .calls import Calls, ResourceNotFound, UpstreamCaller, UserCredentials
from .completion import Completer
from .dynamic import ToolSelection, ToolSurface, default_selection
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
from .pagination import DEFAULT_PAGE_SIZE, LazyItems, Pager, PageSource, ShapeItem, tool_source
from .prompts import Prompts, ToolView
from .reporting import LOG_LEVELS, Notify, Progress, RequestLog
from .request_state import StateSigner
from .results import DEFAULT_LIMITS, ResultLimits
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

if TYPE_CHECKING:
    from ..auth.bearer import InboundToken

logger = logging.getLogger(__name__)

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
# lists come from the catalog, identical for every caller: cache them for an hour, anywhere
STATIC_CACHE = CacheHint(3_600_000, "public")
# resource contents are upstream data, possibly per credential: never reuse across callers
PRIVATE_CACHE = CacheHint(0, "private")


@dataclass(slots=True)
class LegacySession:
    """Legacy handshake state: the revision ``initialize`` negotiated (``None`` before it).

    ``log_level`` is the minimum severity ``logging/setLevel`` asked for; until then (``None``) the
    session gets no log notifications.
    """

    version: str | None = None
    initialized: bool = False
    log_level: str | None = None
    # what the client declared in initialize (elicitation, sampling, roots...)
    client_capabilities: JsonObject | None = None
    # its Mcp-Session-Id over HTTP (None over stdio, where there is one client)
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """One request as a method handler sees it, besides its params."""

    version: str
    progress: Progress
    log: RequestLog
    # the legacy session the request belongs to; None on the modern path
    session: LegacySession | None = None
    # the client's capabilities for this request (modern: from _meta; legacy: from initialize)
    capabilities: Any = None
    # the authenticated caller (HTTP with inbound auth), which requestState is bound to
    subject: str | None = None
    # who vouches for the caller and the caller, (issuer, subject): per-user credentials are
    # stored under it
    caller: tuple[str, str] | None = None
    # legacy only: sends a request to the client and waits for its result
    ask: Asker | None = None
    # the caller's bearer token, held out of sight: token exchange trades it for the API's
    inbound: InboundToken | None = None


Handler = Callable[[JsonObject, Call], Awaitable[JsonObject]]
# renders a prompt the catalog lists but custom code implements; None when it is not such a prompt
LocalPrompts = Callable[[JsonObject], Awaitable[JsonObject | None]]


class Dispatcher:
    """Answers MCP messages for one catalog; safe to share across concurrent requests."""

    def __init__(
        self,
        catalog: Catalog,
        upstream: UpstreamCaller,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
        local_prompts: LocalPrompts | None = None,
        tool_selection: ToolSelection | None = None,
        confirm_policy: str = OFF,
        elicit_missing: bool = True,
        state_signer: StateSigner | None = None,
        result_limits: ResultLimits = DEFAULT_LIMITS,
        output_mode: str | None = None,
    ) -> None:
        # prompts the package's custom code renders (hooks.py); None answers "not one of mine"
        self._local_prompts = local_prompts
        self._catalog = catalog
        self._server_info: JsonObject = {**catalog["server"]}
        self._calls = Calls(
            catalog,
            upstream,
            confirm_policy=confirm_policy,
            result_limits=result_limits,
            output_mode=output_mode,
        )
        self._ask_missing = elicit_missing
        # seals requestState; a per-process secret unless the deployment shares one (server.py)
        self._signer = state_signer or StateSigner.ephemeral()
        self._selection = tool_selection or default_selection(catalog)
        self._tools = ToolSurface(catalog, self._calls, tool_source(catalog), self._selection)
        self._instructions = self._tools.instructions(catalog.get("instructions"))
        self._prompts_used: Prompts | None = None
        self._completer_used: Completer | None = None
        counts = catalog_counts(catalog)
        self.capabilities = _capabilities(counts, len(self._tools.listing))
        self.legacy_capabilities = _legacy_capabilities(self.capabilities)
        self._pagers = {
            key: Pager(key, items, page_size=page_size, shape=shape, finish=self._finish_list)
            for key, items, shape in _lists(catalog, counts, self._tools.listing, self._calls)
        }
        self._discovery: PreparedResult | None = None
        common = self._common_methods()
        self._modern: dict[str, Handler] = {"server/discover": self._discover, **common}
        self._legacy: dict[str, Handler] = {"ping": self._ping, **common, **self._legacy_methods()}

    @property
    def _prompts(self) -> Prompts:
        if self._prompts_used is None:
            catalog = self._catalog
            # generated prompts name what the tool mode in force offers (prompts.ToolView)
            view = ToolView(self._tools.mode, catalog.get("toolsets"), self._selection.toolsets)
            self._prompts_used = Prompts(catalog["prompts"], catalog["promptMessages"], view)
        return self._prompts_used

    @property
    def _completer(self) -> Completer:
        if self._completer_used is None:
            catalog = self._catalog
            self._completer_used = Completer(
                catalog["completions"], catalog["prompts"], catalog["resourceTemplates"]
            )
        return self._completer_used

    def serve_per_user(self, per_user: UserCredentials) -> None:
        """From now on calls carry each caller's own credentials (per-user or exchange mode, over
        HTTP; on stdio, the tokens ``login`` stored)."""
        self._calls.per_user = per_user

    # -- entry points --------------------------------------------------------------------------

    async def handle(
        self,
        message: Any,
        session: LegacySession | None,
        notify: Notify,
        *,
        subject: str | None = None,
        ask: Asker | None = None,
        caller: tuple[str, str] | None = None,
        inbound: InboundToken | None = None,
    ) -> JsonObject | None:
        """The reply to one message, or ``None`` for notifications and stray responses.

        ``notify`` sends a server notification on the request's channel (progress, log messages);
        ``ask`` (legacy sessions, when the transport can) sends a request to the client and waits
        for its answer; ``subject`` is the authenticated caller, if any, ``caller`` its (issuer,
        subject) and ``inbound`` its bearer token (for token exchange only).
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
            result = await self._request(envelope, session, notify, subject, ask, caller, inbound)
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
        self,
        messages: list[Any],
        session: LegacySession | None,
        notify: Notify,
        *,
        subject: str | None = None,
        caller: tuple[str, str] | None = None,
        inbound: InboundToken | None = None,
    ) -> JsonObject | list[JsonObject] | None:
        """A batch's replies (an array), one error for a refused batch, ``None`` if nothing to say."""
        if not self.batch_allowed(session):
            return failure(None, batch_refused())
        if not messages:
            return failure(None, JsonRpcError(INVALID_REQUEST, "Invalid request: empty batch"))
        replies = await asyncio.gather(
            *(
                self.handle(item, session, notify, subject=subject, caller=caller, inbound=inbound)
                for item in messages
            )
        )
        answered = [reply for reply in replies if reply is not None]
        return answered or None

    # -- era selection -------------------------------------------------------------------------

    async def _request(
        self,
        envelope: Envelope,
        session: LegacySession | None,
        notify: Notify,
        subject: str | None,
        ask: Asker | None,
        caller: tuple[str, str] | None = None,
        inbound: InboundToken | None = None,
    ) -> JsonObject:
        params = envelope.params
        if envelope.method == "initialize":
            return self._initialize(params, session)
        progress = Progress.for_request(params, notify)
        meta = params.get("_meta") if isinstance(params, dict) else None
        if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
            assert isinstance(params, dict)
            check_modern_meta(meta)
            log = RequestLog(meta.get(LOG_LEVEL_KEY), notify, self._server_info["name"])
            capabilities = meta[CLIENT_CAPABILITIES_KEY]
            call = Call(
                MODERN,
                progress,
                log,
                capabilities=capabilities,
                subject=subject,
                caller=caller,
                inbound=inbound,
            )
            return await self._dispatch(self._modern, envelope.method, params, call)
        if session is not None and session.version is not None:
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise JsonRpcError(INVALID_PARAMS, "params must be an object")
            log = RequestLog(session.log_level, notify, self._server_info["name"])
            call = Call(
                session.version,
                progress,
                log,
                session,
                capabilities=session.client_capabilities if ask is not None else None,
                subject=subject,
                ask=ask,
                caller=caller,
                inbound=inbound,
            )
            return await self._dispatch(self._legacy, envelope.method, params, call)
        raise JsonRpcError(INVALID_PARAMS, f"Missing required _meta field {PROTOCOL_VERSION_KEY}")

    @staticmethod
    async def _dispatch(
        table: dict[str, Handler], method: str, params: JsonObject, call: Call
    ) -> JsonObject:
        handler = table.get(method)
        if handler is None:
            raise JsonRpcError(METHOD_NOT_FOUND, f"Method not found: {method}")
        return await handler(params, call)

    def _initialize(self, params: Any, session: LegacySession | None) -> JsonObject:
        requested = params.get("protocolVersion") if isinstance(params, dict) else None
        if not isinstance(requested, str):
            raise JsonRpcError(INVALID_PARAMS, "initialize requires params.protocolVersion")
        # 2026-07-28 has no handshake: a client asking for it here still gets the newest legacy one
        version = requested if requested in LEGACY_VERSIONS else NEWEST_LEGACY
        if session is not None:
            session.version = version
            session.initialized = False
            session.log_level = None
            declared = params.get("capabilities")
            session.client_capabilities = _legacy_client_capabilities(declared, version)
        result: JsonObject = {
            "protocolVersion": version,
            "capabilities": self.legacy_capabilities,
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

    def _legacy_methods(self) -> dict[str, Handler]:
        """Methods 2026-07-28 removed, limited to what legacy ``initialize`` advertises."""
        methods: dict[str, Handler] = {}
        if "logging" in self.legacy_capabilities:
            methods["logging/setLevel"] = self._set_level
        if self.legacy_capabilities.get("resources", {}).get("subscribe"):
            methods["resources/subscribe"] = self._subscribe
            methods["resources/unsubscribe"] = self._subscribe
        return methods

    def _finish(
        self, result: JsonObject, version: str, cache: CacheHint | None = None
    ) -> JsonObject:
        return finish(result, version, self._server_info, cache)

    def _finish_list(self, result: JsonObject, version: str) -> JsonObject:
        return self._finish(result, version, STATIC_CACHE)

    async def _discover(self, params: JsonObject, call: Call) -> JsonObject:
        version = call.version
        if self._discovery is None:
            result: JsonObject = {
                "supportedVersions": list(SUPPORTED_VERSIONS),
                "capabilities": self.capabilities,
            }
            if self._instructions:
                result["instructions"] = self._instructions
            self._discovery = PreparedResult(self._finish(result, version, STATIC_CACHE))
        return self._discovery

    async def _ping(self, params: JsonObject, call: Call) -> JsonObject:
        return {}

    async def _set_level(self, params: JsonObject, call: Call) -> JsonObject:
        level = params.get("level")
        if level not in LOG_LEVELS:
            raise JsonRpcError(
                INVALID_PARAMS,
                f"logging/setLevel needs params.level, one of {', '.join(LOG_LEVELS)}",
            )
        assert call.session is not None and isinstance(level, str)
        call.session.log_level = level
        return {}

    async def _subscribe(self, params: JsonObject, call: Call) -> JsonObject:
        """``resources/subscribe`` and ``resources/unsubscribe``: accepted, nothing more.

        The data behind every resource lives in the upstream API, which tells this server nothing
        when it changes, so no ``notifications/resources/updated`` is ever sent and there is no
        subscription to remember: both methods only check that the URI names a resource.
        """
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise JsonRpcError(INVALID_PARAMS, "params.uri (a string) is required")
        if not self._calls.knows_resource(uri):
            raise JsonRpcError(LEGACY_RESOURCE_NOT_FOUND, "Resource not found", {"uri": uri})
        return {}

    def _list(self, key: str) -> Handler:
        pager = self._pagers[key]

        async def list_page(params: JsonObject, call: Call) -> JsonObject:
            return pager.page(params, call.version)

        return list_page

    async def _call_tool(self, params: JsonObject, call: Call) -> JsonObject:
        interaction = self._interaction("tools/call", params, call)
        result = await self._tools.call(params, call.version, call.progress, call.log, interaction)
        return self._finish(result, call.version)

    def _interaction(self, method: str, params: JsonObject, call: Call) -> Interaction:
        """How this request may ask the user: MRTR (modern), server requests (legacy), or not."""
        if call.version != MODERN:
            interaction = Interaction(
                call.capabilities, False, ask=call.ask, elicit_missing=self._ask_missing
            )
        else:
            interaction = Interaction.for_request(
                method, params, call.capabilities, call.subject, self._signer, self._ask_missing
            )
        interaction.caller, interaction.version = call.caller, call.version
        interaction.inbound = call.inbound
        interaction.session_id = call.session.id if call.session is not None else None
        return interaction

    async def _read_resource(self, params: JsonObject, call: Call) -> JsonObject:
        try:
            contents = await self._calls.read_resource(params, call.caller, call.inbound)
        except ResourceNotFound as exc:
            code = INVALID_PARAMS if call.version == MODERN else LEGACY_RESOURCE_NOT_FOUND
            data = {"uri": exc.uri, **({"detail": exc.detail} if exc.detail else {})}
            # the why in the message too: clients show the message alone (Python's MCPError)
            message = f"Resource not found: {exc.detail}" if exc.detail else "Resource not found"
            raise JsonRpcError(code, message, data) from exc
        return self._finish({"contents": contents}, call.version, PRIVATE_CACHE)

    async def _get_prompt(self, params: JsonObject, call: Call) -> JsonObject:
        interaction = self._interaction("prompts/get", params, call)
        name, arguments = params.get("name"), params.get("arguments")
        target = self._prompts.target(name) if isinstance(name, str) else None
        if target is not None and isinstance(arguments, dict | None):
            outcome = await interaction.resolve(target, arguments or {}, _no_check)
            if isinstance(outcome, InputRequired):
                return self._finish(outcome.result(), call.version)
            if isinstance(outcome, Stop):
                raise JsonRpcError(INVALID_PARAMS, outcome.message)
            params = {**params, "arguments": outcome.arguments}
        local = await self._local_prompts(params) if self._local_prompts is not None else None
        return self._finish(self._prompts.get(params) if local is None else local, call.version)

    async def _complete(self, params: JsonObject, call: Call) -> JsonObject:
        return self._finish(self._completer.complete(params), call.version)


def _no_check(arguments: JsonObject) -> str | None:
    return None  # prompts/get checks its own arguments (prompts.py)


def _legacy_client_capabilities(declared: Any, version: str) -> JsonObject | None:
    """What a legacy client can be asked: elicitation exists from 2025-06-18 on."""
    if not isinstance(declared, dict):
        return None
    if version == V2025_03_26:
        return {key: value for key, value in declared.items() if key != "elicitation"}
    return dict(declared)


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


def _capabilities(counts: CatalogCounts, tools: int) -> JsonObject:
    """What ``server/discover`` advertises (2026-07-28); keys in a fixed order."""
    capabilities: JsonObject = {}
    if counts["completions"]:
        capabilities["completions"] = {}
    if tools:
        # tool calls emit notifications/message when asked to (mcp-wire §7.4: emitters declare it)
        capabilities["logging"] = {}
    if counts["prompts"]:
        capabilities["prompts"] = {"listChanged": False}
    if counts["resources"] or counts["resourceTemplates"]:
        capabilities["resources"] = {"listChanged": False}
    if tools:
        capabilities["tools"] = {"listChanged": False}
    return capabilities


def _legacy_capabilities(modern: JsonObject) -> JsonObject:
    """What legacy ``initialize`` advertises: the modern set plus ``resources.subscribe``.

    Subscribing is a legacy method (2026-07-28 replaced it with ``subscriptions/listen``), so it is
    never advertised by ``server/discover``.
    """
    legacy = dict(modern)
    if "resources" in legacy:
        legacy["resources"] = {**legacy["resources"], "subscribe": True}
    return legacy


def _lists(
    catalog: Catalog, counts: CatalogCounts, tools: PageSource, calls: Calls
) -> list[tuple[str, PageSource, ShapeItem]]:
    """Each list method's items; all but the tools are read from the catalog on the first page."""

    def lazily(key: str) -> PageSource:
        return LazyItems(counts[key], lambda: catalog[key])  # type: ignore[literal-required]

    def shape_listed_tool(tool: JsonObject, version: str) -> JsonObject:
        return shape_tool(calls.listed(tool), version)

    return [
        ("tools", tools, shape_listed_tool),
        ("resources", lazily("resources"), shape_resource),
        ("resourceTemplates", lazily("resourceTemplates"), shape_resource),
        ("prompts", lazily("prompts"), shape_prompt),
    ]
