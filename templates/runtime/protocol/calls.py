"""``tools/call`` and ``resources/read``: the two methods that reach the upstream API.

Tools are looked up by name, their arguments validated against ``inputSchema`` (validators compiled on
a tool's first call and kept; a tool whose schema does not compile refuses every call), then the bound
operation is called and its response mapped by ``results``. Resources are looked up by static URI, then
by matching the catalog's URI templates (compiled on the first read); matched template variables are
converted to the argument types the bound tool declares. Results come back in the 2026 shape; the
protocol layer adapts them per era. Upstream and validation failures of a tool are tool results
(``isError``), not protocol errors. A tool call whose request carried a progress token reports
``notifications/progress`` through ``Progress`` around its upstream call (mcp-wire §7.1): 0 of 2 naming
the call when it starts, 1 of 2 with the upstream's status when it has answered, 2 of 2 when the result
is built (or at once when the call failed); whichever transport built the ``Progress`` delivers them. A
``RequestLog`` does the same for ``notifications/message`` (mcp-wire §7.4) when the client chose a log
level: what is called, the upstream's answer and the outcome, never argument values or credentials. The
catalog's tables are read on the first call or read, not at start-up (a lazily loaded catalog is then
read whole). ``run_tool`` runs a tool by name for the call tool of dynamic mode, exactly as
``tools/call`` does. A read tool that lists the catalog's ``selectArgument`` takes a JMESPath
selection (``projection``): it is taken out of the arguments and compiled before anything else, so a
malformed one is refused with nothing sent, and applied to the response by ``results``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..ask.elicitation import secret_arguments
from ..ask.interaction import (
    NO_INTERACTION,
    OFF,
    InputRequired,
    Interaction,
    Stop,
    Target,
    confirmation,
)
from ..ask.signin import signin_answer
from ..catalog.model import (
    Catalog,
    OperationSpec,
    TemplateBinding,
    advertised_output_schema,
    complete_tool,
    needs_defs,
)
from ..errors import ResourceNotFound as ResourceNotFound  # noqa: PLC0414 - re-exported
from ..jsonschema import SchemaError, Validator
from ..upstream.bodies import FORM
from ..upstream.client import MAX_RESPONSE_BYTES, UpstreamError, UpstreamResponse
from ..upstream.encoding import media_type
from ..upstream.negotiation import documented_types
from .argument_issues import format_issues, pattern_note, split_issues
from .arguments_text import (
    body_gathered,
    json_texts,
    nulls_left_out,
    texts_as_sent,
    whole_numbers,
)
from .arguments_text import convert_variable as convert_variable  # noqa: PLC0414 - re-exported
from .everything import guard
from .jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, JsonObject, JsonRpcError
from .paging import pagination_arguments
from .projection import Selection, SelectionError, compile_selection, selected_output
from .reporting import NO_LOG, NO_PROGRESS, Progress, RequestLog
from .results import (
    DEFAULT_LIMITS,
    ResultLimits,
    UpstreamStatusError,
    resource_contents,
    tool_error,
    tool_result,
)
from .shaping import is_object_schema, shape_tool_result
from .uritemplate import Matched, UriTemplate, query_hint, slash_hint

if TYPE_CHECKING:
    from ..auth.bearer import InboundToken

logger = logging.getLogger(__name__)

_INVALID_STATUSES = frozenset({400, 422})
# a query parameter's name that is an RFC 6570 variable name as it is
_VARIABLE = re.compile(r"[A-Za-z0-9_]+")
_NOT_FOUND_STATUS = 404


def _without_selection(arguments: JsonObject, select: Selection | None) -> JsonObject:
    if select is None:
        return arguments
    return {k: v for k, v in arguments.items() if k != select.argument}


def _reads(tool: JsonObject) -> bool | None:
    """What the tool's annotation says of its effect: a search by POST changes nothing ("do not
    repeat it" would be wrong), whatever its method; None when it says nothing."""
    annotations = tool.get("annotations")
    hint = annotations.get("readOnlyHint") if isinstance(annotations, dict) else None
    return hint if isinstance(hint, bool) else None


def _call_label(spec: OperationSpec | None, operation: str) -> str:
    """``GET /pets/{petId}``: names the upstream call without any argument values."""
    if spec is None:
        return operation
    return f"{spec['method'].upper()} {spec['path']}"


class UserCredentials(Protocol):
    """What the protocol needs from a source of each caller's credentials: ``peruser.service.PerUser``
    (per-user mode), ``peruser.exchange.TokenExchange`` (exchange mode), ``peruser.local`` (stdio)."""

    async def credentials(
        self, caller: tuple[str, str], spec: OperationSpec, *, inbound: InboundToken | None = None
    ) -> Any:
        """The variables the operation's security schemes read, or a link to sign in (``Link``).

        ``inbound`` is the caller's bearer token, held (HTTP only); only token exchange reads it.
        Raises ``UpstreamError`` (a message safe to show) when the call cannot carry credentials.
        """


class UpstreamCaller(Protocol):
    """What the protocol needs from ``upstream.Upstream`` (tests substitute fakes)."""

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse: ...


class _Tables:
    """The catalog's lookup tables, built on first use."""

    def __init__(self, catalog: Catalog) -> None:
        self.operations = catalog["operations"]
        self.tools = _CompletedTools(catalog["tools"], catalog.get("schemaDefs"))
        self.tool_bindings = catalog["toolBindings"]
        self.resources = {item["uri"]: item for item in catalog["resources"]}
        self.resource_bindings = catalog["resourceBindings"]
        self.template_items = catalog["resourceTemplates"]
        self.template_bindings = catalog["templateBindings"]
        # the tool bound to each operation, whose inputSchema types template variables
        self.tool_by_operation: dict[str, str] = {}
        for name, binding in self.tool_bindings.items():
            if name in self.tools:
                self.tool_by_operation.setdefault(binding["operation"], name)


class _CompletedTools(Mapping[str, JsonObject]):
    """The catalog's tools by name, each completed with its ``$defs`` on first use (the
    generator pools them: ``catalog.complete_tool``)."""

    def __init__(self, tools: list[JsonObject], pools: Mapping[str, Any] | None) -> None:
        self._raw = {tool["name"]: tool for tool in tools}
        self._pools = pools
        self._done: dict[str, JsonObject] = {}

    def __getitem__(self, name: str) -> JsonObject:
        done = self._done.get(name)
        if done is None:
            done = self._done[name] = complete_tool(self._raw[name], self._pools)
        return done

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, name: object) -> bool:
        return name in self._raw


class Calls:
    """Runs tools and reads resources against the upstream API."""

    def __init__(
        self,
        catalog: Catalog,
        upstream: UpstreamCaller,
        *,
        confirm_policy: str = OFF,
        result_limits: ResultLimits = DEFAULT_LIMITS,
        output_mode: str | None = None,
    ) -> None:
        self._catalog = catalog
        self._upstream = upstream
        # <PREFIX>_OUTPUT_SCHEMAS (None: each tool's schema as generated)
        self.output_mode = output_mode
        # how much text a result may hand the model (<PREFIX>_MAX_RESULT_CHARS)
        self._limits = result_limits
        # what a program of code mode gets: the answer as read (at most MAX_RESPONSE_BYTES)
        self._whole = ResultLimits(2 * MAX_RESPONSE_BYTES, result_limits.setting)
        # which tools need the user's yes (interaction.confirmation); "off" unless configured
        self._confirm_policy = confirm_policy
        self._targets: dict[str, Target] = {}
        self._texts: dict[str, tuple[str, ...]] = {}
        self._loaded: _Tables | None = None
        # a schema that does not compile is kept as its error: the tool then refuses every call
        self._inputs: dict[str, Validator | SchemaError] = {}
        self._outputs: dict[str, Validator | SchemaError] = {}
        self._templates: list[tuple[UriTemplate, JsonObject, TemplateBinding]] | None = None
        # per-user or exchange mode (UserCredentials): each caller's own credentials; None: the
        # server's, from its environment
        self.per_user: UserCredentials | None = None

    @property
    def _tables(self) -> _Tables:
        if self._loaded is None:
            self._loaded = _Tables(self._catalog)
        return self._loaded

    def tool(self, name: str) -> JsonObject | None:
        """The tool called ``name`` (as the catalog lists it), if it can be called."""
        tables = self._tables
        return tables.tools.get(name) if name in tables.tool_bindings else None

    def listed(self, tool: JsonObject) -> JsonObject:
        """``tool`` as ``tools/list`` shows it: its schemas' ``$defs`` restored (the catalog is read
        for them only when a schema needs them) and the output schema of the mode in force."""
        if needs_defs(tool):
            tool = complete_tool(tool, self._catalog.get("schemaDefs"))
        selects = self.select_argument(tool) is not None
        if self.output_mode is None and not (selects and "outputSchema" in tool):
            return tool
        schema = self.output_schema(tool["name"], tool)
        if selects:
            schema = selected_output(schema)
        listed = {key: value for key, value in tool.items() if key != "outputSchema"}
        if schema is not None:
            listed["outputSchema"] = schema
        return listed

    def select_argument(self, tool: JsonObject) -> str | None:
        """The argument that carries a selection, if ``tool`` takes one (``projection``)."""
        argument = self._catalog.get("selectArgument")
        schema = tool.get("inputSchema")
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if isinstance(argument, str) and isinstance(properties, dict) and argument in properties:
            return argument
        return None

    def output_schema(self, name: str, tool: JsonObject) -> Any:
        """The output schema tool ``name`` documents in the mode in force (``None``: none);
        ``listed`` adds the alternative of a tool that takes a selection (``projection``)."""
        if self.output_mode is None:
            return tool.get("outputSchema")
        return advertised_output_schema(
            tool, self._tables.tool_bindings.get(name), self.output_mode
        )

    def operation(self, name: str) -> OperationSpec | None:
        """The upstream operation behind tool ``name`` (``None`` for custom tools)."""
        binding = self._tables.tool_bindings.get(name)
        return self._tables.operations.get(binding["operation"]) if binding else None

    async def run_tool(
        self,
        name: str,
        arguments: JsonObject,
        progress: Progress = NO_PROGRESS,
        log: RequestLog = NO_LOG,
        interaction: Interaction = NO_INTERACTION,
        *,
        whole: bool = False,
    ) -> JsonObject | None:
        """Tool ``name``'s ``CallToolResult`` in the 2026 shape, ``None`` when there is no such tool.

        The result may be ``input_required`` (questions for the user) when ``interaction`` allows.
        ``whole``: the answer as read, not cut to what one result may hand the model (code mode's
        programs work with values, and only what they return is cut: a report a program parsed
        had ended in the notice that cut it).
        """
        tool = self.tool(name)
        if tool is None:
            return None
        operation = self._tables.tool_bindings[name]["operation"]
        limits = self._whole if whole else self._limits
        return await self._run_tool(
            name, tool, operation, arguments, progress, log, interaction, limits
        )

    # -- tools ---------------------------------------------------------------------------------

    async def call_tool(
        self,
        params: JsonObject,
        version: str,
        progress: Progress = NO_PROGRESS,
        log: RequestLog = NO_LOG,
        interaction: Interaction = NO_INTERACTION,
    ) -> JsonObject:
        name = params.get("name")
        if not isinstance(name, str):
            raise JsonRpcError(INVALID_PARAMS, "tools/call requires params.name (a string)")
        tool = self._tables.tools.get(name)
        binding = self._tables.tool_bindings.get(name)
        if tool is None or binding is None:
            raise JsonRpcError(INVALID_PARAMS, f"Unknown tool: {name}")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise JsonRpcError(INVALID_PARAMS, "tools/call params.arguments must be an object")
        schema = self.output_schema(name, tool)
        wrapped = schema is not None and not is_object_schema(schema)
        result = await self._run_tool(
            name, tool, binding["operation"], arguments, progress, log, interaction, self._limits
        )
        return shape_tool_result(result, version, wrapped_output=wrapped)

    async def _run_tool(
        self,
        name: str,
        tool: JsonObject,
        operation: str,
        arguments: JsonObject,
        progress: Progress,
        log: RequestLog,
        interaction: Interaction,
        limits: ResultLimits,
    ) -> JsonObject:
        validator = self._input_validator(name, tool)
        if isinstance(validator, SchemaError):
            # never pass arguments upstream unchecked: a tool we cannot check is a tool we refuse
            await log.log("error", f"Tool {name}: unusable input schema, nothing was called")
            return tool_error(
                f"Tool {name!r} cannot be called: its input schema cannot be used to check "
                f"arguments ({validator}). Nothing was sent to the API."
            )

        select = self._selection(name, tool, arguments)
        if isinstance(select, dict):
            await log.log("warning", f"Tool {name}: invalid selection, nothing was called")
            return select
        # the selection is the server's, not the operation's
        arguments = self._read_losslessly(
            validator, operation, _without_selection(arguments, select)
        )

        spec = self._tables.operations.get(operation)

        def check(candidate: JsonObject) -> str | None:
            refusing, _ = split_issues(validator.issues(candidate), spec)
            return format_issues(name, refusing) if refusing else None

        outcome = await interaction.resolve(self._target(name, tool, operation), arguments, check)
        if isinstance(outcome, InputRequired):
            await log.log("info", f"Tool {name}: asking the user first, nothing was called")
            return outcome.result()
        if isinstance(outcome, Stop):
            # the messages name the tool and the operation, never argument values
            why = "invalid arguments" if outcome.invalid else outcome.message.rstrip(".")
            await log.log("warning", f"Tool {name}: {why}, nothing was called")
            return tool_error(outcome.message)
        arguments, unnarrowed = guard(
            self._tables.tool_bindings.get(name), spec, tool, name, outcome.arguments
        )
        if unnarrowed:
            await log.log(
                "warning", f"Tool {name}: called without what it acts on, nothing was called"
            )
            return tool_error(unnarrowed)
        output = self._output_validator(name, tool)
        if isinstance(output, SchemaError):
            # a declared schema we cannot check must not be answered with unchecked output
            return tool_error(f"Tool {name!r} has an unusable output schema")
        user: dict[str, str] | None = None
        if self.per_user is not None and spec is not None:
            access = await self._user_credentials(name, spec, interaction, log)
            if not isinstance(access, dict) or "content" in access or "resultType" in access:
                return access
            user = access
        label = _call_label(spec, operation)
        await progress.report(0, total=2, message=f"Calling {label}")
        await log.log("info", f"Tool {name}: calling {label}")
        # argument names only: values may be personal data
        await log.log("debug", f"Tool {name}: arguments {', '.join(sorted(arguments)) or '(none)'}")
        try:
            response = await self._upstream.call(operation, arguments, user=user)
        except UpstreamError as exc:
            await progress.report(2, total=2, message=f"{label} failed")
            # UpstreamError messages are written to be shown: no credentials in them
            await log.log("error", f"Tool {name}: {label} failed: {exc}")
            return tool_error(str(exc))
        await progress.report(1, total=2, message=f"{label} answered {response.status}")
        answered = f"{label} answered {response.status} {response.reason}".rstrip()
        await log.log("info" if response.status < 400 else "warning", f"Tool {name}: {answered}")
        kind = response.content_type or "no content type"
        await log.log("debug", f"Tool {name}: {len(response.body)} bytes of {kind}")
        result = self._result(tool, spec, response, output, select, limits)
        said = [] if validator.is_valid(arguments) else validator.issues(arguments)  # patterns
        note = pattern_note(split_issues(said, spec)[1])
        if note is not None:
            result["content"].append(note)
        await progress.report(2, total=2, message="Done")
        returned = "an error result" if result.get("isError") else "a result"
        await log.log("info", f"Tool {name}: returning {returned}")
        return result

    def _result(
        self,
        tool: JsonObject,
        spec: OperationSpec | None,
        response: UpstreamResponse,
        output: Validator | None,
        select: Selection | None,
        limits: ResultLimits,
    ) -> JsonObject:
        """The tool's result for the API's answer (``results.tool_result``)."""
        parameters = spec["parameters"] if spec is not None else []
        paging = pagination_arguments((p["name"], p["location"], p["argument"]) for p in parameters)
        return tool_result(
            response,
            output,
            limits,
            paging=paging,
            select=select,
            redirects=spec.get("redirects", []) if spec is not None else [],
            reads=_reads(tool),
            documented=spec.get("responseMediaType", "") if spec is not None else "",
            offered=documented_types(spec) if spec is not None else frozenset(),
        )

    def _selection(
        self, name: str, tool: JsonObject, arguments: JsonObject
    ) -> Selection | JsonObject | None:
        """The call's compiled selection (``None``: it has none), or the error result refusing it."""
        argument = self.select_argument(tool)
        if argument is None:
            offered = self._catalog.get("selectArgument")
            if isinstance(offered, str) and offered in arguments:
                return tool_error(
                    f"Tool {name!r} does not take {offered}: only read-only tools that return JSON "
                    "do. Nothing was sent to the API."
                )
            return None
        if argument not in arguments:
            return None
        try:
            return compile_selection(argument, arguments[argument])
        except SelectionError as exc:
            return tool_error(
                f"Invalid arguments for tool {name!r}:\n- {argument}: {exc}\n"
                "Nothing was sent to the API."
            )

    async def _user_credentials(
        self, name: str, spec: OperationSpec, interaction: Interaction, log: RequestLog
    ) -> JsonObject:
        """The caller's own credentials for ``spec`` (per-user mode), or the answer that sends
        them to sign in (an ``input_required`` or error result; era errors are raised)."""
        assert self.per_user is not None
        if interaction.caller is None:
            return tool_error(
                "This server uses each caller's own API credentials, and this request is not "
                "authenticated; nothing was sent to the API."
            )
        try:
            access = await self.per_user.credentials(
                interaction.caller, spec, inbound=interaction.inbound
            )
        except UpstreamError as exc:
            # written to be shown (token exchange: never a token in it)
            await log.log("error", f"Tool {name}: {exc}")
            return tool_error(str(exc))
        if isinstance(access, dict):
            return access
        await log.log("info", f"Tool {name}: the caller must sign in first, nothing was called")
        return signin_answer(
            access,
            modern=interaction.modern,
            version=interaction.version,
            capabilities=interaction.capabilities,
        )

    def _read_losslessly(
        self, validator: Validator, operation: str, arguments: JsonObject
    ) -> JsonObject:
        """What a model wrote, read without loss where its schema refuses it: a 64-bit number as
        its text, a parameter's value as another type of the same text, a whole number written
        ``2.0`` as ``2``, an object as the JSON text a parameter holds. Only arguments that fail
        pay for the rest: valid ones are checked once."""
        arguments = whole_numbers(arguments)
        if validator.is_valid(arguments):
            return arguments
        spec = self._tables.operations.get(operation)
        arguments = body_gathered(json_texts(arguments, spec), spec, validator.schema)
        arguments = nulls_left_out(validator, arguments, spec)
        arguments = validator.integers_as_text(arguments)
        return texts_as_sent(validator, arguments, self._textual(operation))

    def _textual(self, operation: str) -> tuple[str, ...]:
        """The arguments of ``operation`` that are sent as text: its parameters sent by their
        style, and the fields of a form body (Stripe's, Twilio's) sent so."""
        found = self._texts.get(operation)
        if found is None:
            spec = self._tables.operations.get(operation)
            found = tuple(
                p["argument"]
                for p in (spec["parameters"] if spec is not None else [])
                if "contentType" not in p and p.get("style") != "deepObject"
            )
            body = spec.get("body") if spec is not None else None
            if body is not None and media_type(body.get("contentType", "")) == FORM:
                parts = body.get("parts", {})
                found += tuple(
                    argument
                    for argument, field in body.get("properties", {}).items()
                    if "contentType" not in parts.get(field, {})
                )
            self._texts[operation] = found
        return found

    def _target(self, name: str, tool: JsonObject, operation: str) -> Target:
        """What ``interaction`` needs to know about tool ``name`` (built once per tool)."""
        target = self._targets.get(name)
        if target is None:
            binding = self._tables.tool_bindings.get(name, {"operation": operation})
            declared = binding.get("interaction", {})
            spec = self._tables.operations.get(operation)
            schema = tool.get("inputSchema")
            schema = schema if isinstance(schema, dict) else {}
            parameters = spec["parameters"] if spec is not None else []
            paths = tuple(p["argument"] for p in parameters if p["location"] == "path")
            schemes = self._catalog["upstream"]["securitySchemes"]
            target = Target(
                "tools/call",
                name,
                _call_label(spec, operation),
                tool.get("title") or name,
                schema,
                tuple(declared.get("ask", ())),
                confirmation(
                    self._confirm_policy, declared.get("confirm"), tool.get("annotations")
                ),
                secret_arguments(spec, schema, schemes),
                paths,
            )
            self._targets[name] = target
        return target

    def _input_validator(self, name: str, tool: JsonObject) -> Validator | SchemaError:
        """The validator of tool ``name``'s arguments, compiled on its first call: the schema it
        advertises, with the root's allOf / anyOf / oneOf put back (the binding's
        ``inputChecks``)."""
        cached = self._inputs.get(name)
        if cached is not None:
            return cached
        schema = tool.get("inputSchema")
        binding = self._tables.tool_bindings.get(name)
        checks = binding.get("inputChecks") if binding is not None else None
        if checks and isinstance(schema, dict):
            schema = {**schema, **checks}
        return self._validator(self._inputs, name, schema, "input")

    def _output_validator(self, name: str, tool: JsonObject) -> Validator | SchemaError | None:
        """The validator of tool ``name``'s output (``None``: it declares no output schema)."""
        schema = self.output_schema(name, tool)
        return None if schema is None else self._validator(self._outputs, name, schema, "output")

    @staticmethod
    def _validator(
        cache: dict[str, Validator | SchemaError], name: str, schema: Any, what: str
    ) -> Validator | SchemaError:
        compiled = cache.get(name)
        if compiled is None:
            try:
                compiled = Validator(schema)
            except SchemaError as exc:
                logger.warning("tool %s: %s schema not usable: %s", name, what, exc)
                compiled = exc
            cache[name] = compiled
        return compiled

    # -- resources -----------------------------------------------------------------------------

    async def read_resource(
        self,
        params: JsonObject,
        caller: tuple[str, str] | None = None,
        inbound: InboundToken | None = None,
    ) -> list[JsonObject]:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise JsonRpcError(INVALID_PARAMS, "resources/read requires params.uri (a string)")
        operation, arguments, mime_type = self._resolve(uri)
        self._check_read(uri, operation, arguments)
        user = await self._reader_credentials(operation, caller, inbound)
        try:
            response = await self._upstream.call(operation, arguments, user=user)
            contents = resource_contents(response, uri, mime_type, self._limits)
        except UpstreamStatusError as exc:
            if exc.status == _NOT_FOUND_STATUS:
                raise ResourceNotFound(uri, str(exc)) from exc
            # what the URI asked, refused as invalid (Phoenix's 422 for a list read without the
            # filter it needs), is the reader's to change; anything else is no fault of the URI
            invalid = exc.status in _INVALID_STATUSES
            raise JsonRpcError(INVALID_PARAMS if invalid else INTERNAL_ERROR, str(exc)) from exc
        except UpstreamError as exc:
            raise JsonRpcError(INTERNAL_ERROR, str(exc)) from exc
        if not contents:
            # an empty list would read as "no such resource"; the resource exists and is empty
            return [{"uri": uri, "mimeType": mime_type or "text/plain", "text": ""}]
        return contents

    async def _reader_credentials(
        self, operation: str, caller: tuple[str, str] | None, inbound: InboundToken | None = None
    ) -> dict[str, str] | None:
        """Per-user mode: the reader's own credentials; a reader without them is refused (a
        resource read cannot send them to sign in: calling one of the API's tools does)."""
        spec = self._tables.operations.get(operation)
        if self.per_user is None or spec is None:
            return None
        try:
            access = (
                None
                if caller is None
                else await self.per_user.credentials(caller, spec, inbound=inbound)
            )
        except UpstreamError as exc:
            raise JsonRpcError(INTERNAL_ERROR, str(exc)) from None
        if not isinstance(access, dict):
            raise JsonRpcError(
                INTERNAL_ERROR,
                "Reading this resource needs your own API credentials: call one of the API's "
                "tools to get a sign-in link, then read it again",
            )
        return access

    def _check_read(self, uri: str, operation: str, arguments: JsonObject) -> None:
        """Refuse a URI whose values its tool would refuse (Mayan's ``documents/abc``, whose id
        is digits): not found, with why, and nothing sent, as the tool sends nothing."""
        name = self._tables.tool_by_operation.get(operation)
        tool = self._tables.tools[name] if name is not None else None
        if tool is None or name is None:
            return
        validator = self._input_validator(name, tool)
        if isinstance(validator, SchemaError):
            return  # the tool itself says it cannot be called; the read is the API's to judge
        issues, _ = split_issues(
            validator.issues(arguments), self._tables.operations.get(operation)
        )
        if issues:
            said = (f"{i.path}: {i.message}" if i.path else i.message for i in issues[:3])
            raise ResourceNotFound(uri, "; ".join(said))

    def knows_resource(self, uri: str) -> bool:
        """Whether ``uri`` names a resource (static, or a match of a template), without reading it."""
        try:
            self._resolve(uri)
        except ResourceNotFound:
            return False
        return True

    def _resolve(self, uri: str) -> tuple[str, JsonObject, str | None]:
        """The operation, its arguments and the declared MIME type for ``uri``."""
        tables = self._tables
        static = tables.resource_bindings.get(uri)
        if static is not None:
            item = tables.resources.get(uri, {})
            return static["operation"], {}, item.get("mimeType")
        base, asks, _ = uri.partition("?")
        static = tables.resource_bindings.get(base) if asks else None
        why = ""  # a template the URI matches, with a value its type refuses ("size=abc")
        if static is not None:
            # a list read with its optional query ("phoenix://v1/datasets?limit=1"): the query
            # parameters of its operation, as a template of them would take them
            try:
                arguments = self._queried(base, static["operation"], uri)
            except ValueError as exc:
                arguments, why = None, str(exc)
            if arguments is not None:
                item = tables.resources.get(base, {})
                return static["operation"], arguments, item.get("mimeType")
        for template, item, binding in self._compiled_templates():
            variables = template.match(uri)
            if variables is None:
                continue
            try:
                arguments = self._arguments(binding, variables)
            except ValueError as exc:
                why = why or str(exc)
                continue
            return binding["operation"], arguments, item.get("mimeType")
        templates = [template for template, _, _ in self._compiled_templates()]
        raise ResourceNotFound(uri, why or slash_hint(templates, uri) or query_hint(templates, uri))

    def _queried(self, base: str, operation: str, uri: str) -> JsonObject | None:
        """The arguments ``uri`` gives a static resource's operation in its query, by the names
        of the operation's query parameters; None when it names anything else; ``ValueError``
        when a value is not of its parameter's type."""
        spec = self._tables.operations.get(operation)
        named = {
            param["name"]: param["argument"]
            for param in (spec["parameters"] if spec is not None else [])
            if param["location"] == "query" and _VARIABLE.fullmatch(param["name"])
        }
        if not named:
            return None
        try:
            template = UriTemplate(base + "{?" + ",".join(named) + "}")
        except ValueError:
            return None
        variables = template.match(uri)
        if variables is None:
            hint = query_hint([template], uri)  # a key it does not take ("&bogus=1")
            if hint:
                raise ValueError(hint)
            return None
        return self._arguments({"operation": operation, "variables": named}, variables)

    def _compiled_templates(self) -> list[tuple[UriTemplate, JsonObject, TemplateBinding]]:
        if self._templates is None:
            compiled = []
            for item in self._tables.template_items:
                binding = self._tables.template_bindings.get(item["uriTemplate"])
                if binding is None:
                    continue
                try:
                    compiled.append((UriTemplate(item["uriTemplate"]), item, binding))
                except ValueError as exc:
                    logger.warning("resource template skipped: %s", exc)
            # of two templates a URI fits, the one that says more of it literally, as a router
            # prefers a literal segment to a variable (Signal K's …/routes/_providers is the
            # providers of routes, not the route "_providers")
            compiled.sort(key=lambda each: -each[0].literal_length)
            self._templates = compiled
        return self._templates

    def _arguments(self, binding: TemplateBinding, variables: Mapping[str, Matched]) -> JsonObject:
        named = self._tables.tool_by_operation.get(binding["operation"])
        tool = self._tables.tools[named] if named is not None else None
        schema = tool.get("inputSchema") if tool is not None else None
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict):
            properties = {}
        arguments: JsonObject = {}
        for variable, text in variables.items():
            argument = binding["variables"].get(variable, variable)
            try:
                arguments[argument] = convert_variable(text, properties.get(argument))
            except ValueError as exc:
                raise ValueError(f"{variable}: {exc}") from None
        return arguments
