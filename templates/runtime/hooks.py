"""Custom code in a generated server: the user's own tools, resources, prompts and upstream hooks.

Every generated package has a module of its own (``custom.py``) that the generator creates once and
never overwrites. It marks plain async functions with ``@tool``, ``@resource`` and ``@prompt``, and
may define ``before_request(request)``, called with each ``httpx.Request`` just before it goes to the
API, and ``after_response(operation, response)``, called with each ``UpstreamResponse`` before it
becomes a result (either may be sync or async). The decorators check a declaration on the spot and
raise ``DefinitionError``; ``collect`` gathers a module's declarations into a ``CustomCode``.
``CustomCode.extend`` appends the items to the catalog after the generated ones, each bound to a
local operation key, and ``CustomCaller`` serves those keys in-process, so the protocol layer treats
them like generated items: arguments are validated against ``inputSchema``, outputs against
``outputSchema``. A failure in user code at run time is logged with its traceback and becomes an
``UpstreamError``, which the model reads as a tool error; ``ToolError`` carries a message meant for
the model.
"""

from __future__ import annotations

import inspect
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, TypeVar

import httpx

from .catalog.model import Catalog
from .errors import DefinitionError, ToolError
from .jsonschema import SchemaError, Validator
from .protocol.calls import UpstreamCaller
from .protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, JsonObject, JsonRpcError
from .protocol.uritemplate import UriTemplate
from .upstream.client import UpstreamError, UpstreamResponse

__all__ = [
    "CustomCaller",
    "CustomCode",
    "DefinitionError",
    "ToolError",
    "UpstreamResponse",
    "collect",
    "prompt",
    "resource",
    "tool",
]

logger = logging.getLogger(__name__)

AsyncFunction = Callable[..., Awaitable[Any]]
F = TypeVar("F", bound=AsyncFunction)
Kind = Literal["tool", "resource", "resourceTemplate", "prompt"]

LOCAL_OPERATION_PREFIX = "custom:"
_MARK = "__openapi2mcp_item__"
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]+")
_HINTS = frozenset({"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})
_EMPTY_INPUT: JsonObject = {"type": "object", "properties": {}, "additionalProperties": False}
_NOT_FOUND = 404


@dataclass(frozen=True, slots=True)
class LocalItem:
    """One declared item: its definition as the list method returns it, and the function behind it."""

    kind: Kind
    definition: JsonObject
    function: AsyncFunction


# -- declaring -----------------------------------------------------------------------------------


def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: Mapping[str, Any] | None = None,
    output_schema: Mapping[str, Any] | None = None,
    title: str | None = None,
    annotations: Mapping[str, Any] | None = None,
) -> Callable[[F], F]:
    """Declare an async function as an MCP tool; it is called with the validated arguments as keywords.

    ``name`` defaults to the function's name and ``description`` to its docstring; without an
    ``input_schema`` the tool takes no arguments. The function returns a ``str`` (text), ``bytes``,
    an ``UpstreamResponse``, or any JSON value (with an ``output_schema``, it must conform and becomes
    ``structuredContent``). Raise ``ToolError`` to answer with an error the model can act on.
    """

    def mark(function: F) -> F:
        tool_name = _checked_name(name or _function_name(function), "tool")
        what = f"tool {tool_name!r}"
        _check_async(function, what)
        schema = _json_copy(input_schema if input_schema is not None else _EMPTY_INPUT, what)
        _check_schema(schema, f"{what} input_schema")
        if schema.get("type") != "object":
            raise DefinitionError(f'{what}: input_schema must have "type": "object"')
        properties = schema.get("properties", {})
        required = schema.get("required", [])
        if not isinstance(properties, dict) or not isinstance(required, list):
            raise DefinitionError(f"{what}: input_schema properties/required are malformed")
        _check_parameters(function, list(properties), {str(r) for r in required}, what)
        definition: JsonObject = {"name": tool_name}
        if title:
            definition["title"] = title
        definition["description"] = _description(description, function)
        definition["inputSchema"] = schema
        if output_schema is not None:
            output = _json_copy(output_schema, what)
            _check_schema(output, f"{what} output_schema")
            definition["outputSchema"] = output
        if annotations is not None:
            definition["annotations"] = _checked_annotations(annotations, what)
        setattr(function, _MARK, LocalItem("tool", definition, function))
        return function

    return mark


def resource(
    uri: str,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    mime_type: str | None = None,
) -> Callable[[F], F]:
    """Declare an async function as an MCP resource, or a resource template if ``uri`` has ``{...}``.

    A template's function is called with the matched variables (strings) as keywords. It returns
    ``str`` (text), ``bytes`` (a blob), a JSON value, or ``None`` when there is no such resource.
    """

    def mark(function: F) -> F:
        what = f"resource {uri!r}"
        _check_async(function, what)
        if not isinstance(uri, str) or not _URI.fullmatch(uri):
            raise DefinitionError(f"{what}: the URI needs a scheme, like docs://about")
        kind: Kind = "resourceTemplate" if "{" in uri else "resource"
        definition: JsonObject = {"uriTemplate" if kind == "resourceTemplate" else "uri": uri}
        variables: list[str] = []
        if kind == "resourceTemplate":
            try:
                variables = list(UriTemplate(uri).variables)
            except ValueError as exc:
                raise DefinitionError(f"{what}: {exc}") from None
        _check_parameters(function, variables, set(variables), what)
        definition["name"] = _checked_name(name or _function_name(function), what)
        if title:
            definition["title"] = title
        text = _description(description, function)
        if text:
            definition["description"] = text
        if mime_type:
            definition["mimeType"] = mime_type
        setattr(function, _MARK, LocalItem(kind, definition, function))
        return function

    return mark


def prompt(
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    arguments: Mapping[str, str] | None = None,
) -> Callable[[F], F]:
    """Declare an async function as an MCP prompt; it gets the caller's (string) arguments as keywords.

    The prompt's arguments are the function's parameters (required when they have no default);
    ``arguments`` maps parameter names to descriptions. It returns the text of one user message, or
    a list of messages, each a ``str`` (user) or ``{"role": ..., "content": {...}}``.
    """

    def mark(function: F) -> F:
        prompt_name = _checked_name(name or _function_name(function), "prompt")
        what = f"prompt {prompt_name!r}"
        _check_async(function, what)
        described = dict(arguments or {})
        declared: list[JsonObject] = []
        for param in inspect.signature(function).parameters.values():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            if param.kind is param.POSITIONAL_ONLY:
                raise DefinitionError(f"{what}: parameter {param.name!r} must accept a keyword")
            entry: JsonObject = {"name": param.name}
            if param.name in described:
                entry["description"] = described.pop(param.name)
            entry["required"] = param.default is param.empty
            declared.append(entry)
        if described:
            raise DefinitionError(f"{what}: no parameter named {sorted(described)[0]!r}")
        definition: JsonObject = {"name": prompt_name}
        if title:
            definition["title"] = title
        text = _description(description, function)
        if text:
            definition["description"] = text
        definition["arguments"] = declared
        setattr(function, _MARK, LocalItem("prompt", definition, function))
        return function

    return mark


def _checked_name(name: str, what: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise DefinitionError(f"{what} name {name!r} is not 1-128 letters, digits, '_', '-' or '.'")
    return name


def _function_name(function: Any) -> str:
    return str(getattr(function, "__name__", ""))


def _check_async(function: Any, what: str) -> None:
    if not inspect.iscoroutinefunction(function):
        raise DefinitionError(f"{what}: decorate an 'async def' function")


def _description(given: str | None, function: Any) -> str:
    return given if given is not None else inspect.getdoc(function) or ""


def _json_copy(value: Any, what: str) -> JsonObject:
    try:
        copied = json.loads(json.dumps(value))
    except (TypeError, ValueError) as exc:
        raise DefinitionError(f"{what}: a schema must be plain JSON data ({exc})") from None
    if not isinstance(copied, dict):
        raise DefinitionError(f"{what}: a schema must be a JSON object")
    return copied


def _check_schema(schema: JsonObject, what: str) -> None:
    try:
        Validator(schema)
    except SchemaError as exc:
        raise DefinitionError(f"{what}: {exc}") from None


def _check_parameters(function: Any, names: list[str], required: set[str], what: str) -> None:
    """The function must accept every schema property and need no more than the schema requires."""
    params = inspect.signature(function).parameters
    open_keywords = any(p.kind is p.VAR_KEYWORD for p in params.values())
    for name in names:
        param = params.get(name)
        if param is None and not open_keywords:
            raise DefinitionError(f"{what}: the function has no parameter {name!r}")
        if param is not None and param.kind not in (
            param.POSITIONAL_OR_KEYWORD,
            param.KEYWORD_ONLY,
        ):
            raise DefinitionError(f"{what}: parameter {name!r} must accept a keyword")
    for param in params.values():
        if (
            param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD)
            or param.default is not param.empty
        ):
            continue
        if param.name not in required:
            raise DefinitionError(
                f"{what}: parameter {param.name!r} needs a default (the schema does not require it)"
            )


def _checked_annotations(annotations: Mapping[str, Any], what: str) -> JsonObject:
    checked: JsonObject = {}
    for key, value in annotations.items():
        kind = str if key == "title" else bool if key in _HINTS else None
        if kind is None or not isinstance(value, kind):
            raise DefinitionError(
                f"{what}: annotation {key!r} is not a known hint with a bool value"
            )
        checked[key] = value
    return checked


# -- collecting ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CustomCode:
    """What a custom module declares: items in declaration order, and the two upstream hooks."""

    items: tuple[LocalItem, ...] = ()
    before_request: Callable[..., Any] | None = None
    after_response: Callable[..., Any] | None = None
    # the module's file, for messages: "petstore_mcp/custom.py"
    source: str = "custom code"

    def extend(self, catalog: Catalog) -> tuple[Catalog, dict[str, LocalItem]]:
        """The catalog with these items after the generated ones, and the item behind each new key."""
        extended = catalog.copy()
        lists: dict[Kind, list[JsonObject]] = {
            "tool": list(catalog["tools"]),
            "resource": list(catalog["resources"]),
            "resourceTemplate": list(catalog["resourceTemplates"]),
            "prompt": list(catalog["prompts"]),
        }
        tool_bindings = dict(catalog["toolBindings"])
        resource_bindings = dict(catalog["resourceBindings"])
        template_bindings = dict(catalog["templateBindings"])
        local: dict[str, LocalItem] = {}
        generated = {kind: len(items) for kind, items in lists.items()}
        for item in self.items:
            identity = _identity(item)
            clash = [
                i for i, d in enumerate(lists[item.kind]) if _identity_of(item.kind, d) == identity
            ]
            if clash:
                where = (
                    "a generated one" if clash[0] < generated[item.kind] else "another custom one"
                )
                raise DefinitionError(f"custom {_label(item)} has the same name as {where}")
            lists[item.kind].append(item.definition)
            key = _local_key(item, catalog, local)
            local[key] = item
            if item.kind == "tool":
                tool_bindings[identity] = {"operation": key}
            elif item.kind == "resource":
                resource_bindings[identity] = {"operation": key}
            elif item.kind == "resourceTemplate":
                variables = {v: v for v in UriTemplate(identity).variables}
                template_bindings[identity] = {"operation": key, "variables": variables}
        extended["tools"] = lists["tool"]
        extended["resources"] = lists["resource"]
        extended["resourceTemplates"] = lists["resourceTemplate"]
        extended["prompts"] = lists["prompt"]
        extended["toolBindings"] = tool_bindings
        extended["resourceBindings"] = resource_bindings
        extended["templateBindings"] = template_bindings
        return extended, local

    def event_hooks(self) -> dict[str, list[Callable[[httpx.Request], Awaitable[None]]]]:
        """httpx event hooks running ``before_request`` (empty when the module defines none)."""
        hook = self.before_request
        if hook is None:
            return {}

        async def before_request(request: httpx.Request) -> None:
            await _run_hook(hook, "before_request", request)

        return {"request": [before_request]}

    async def get_prompt(self, params: JsonObject) -> JsonObject | None:
        """The ``GetPromptResult`` of a custom prompt, or ``None`` when ``name`` is not one."""
        name = params.get("name")
        item = next(
            (i for i in self.items if i.kind == "prompt" and i.definition["name"] == name), None
        )
        if item is None:
            return None
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict) or not all(
            isinstance(v, str) for v in arguments.values()
        ):
            raise JsonRpcError(
                INVALID_PARAMS, "prompts/get params.arguments must map names to strings"
            )
        passed: dict[str, str] = {}
        for argument in item.definition["arguments"]:
            if argument["name"] in arguments:
                passed[argument["name"]] = arguments[argument["name"]]
            elif argument["required"]:
                raise JsonRpcError(
                    INVALID_PARAMS,
                    f"Missing required argument for prompt {name}: {argument['name']}",
                )
        try:
            messages = _prompt_messages(await item.function(**passed))
        except Exception:
            logger.exception("custom prompt %s failed", name)
            raise JsonRpcError(INTERNAL_ERROR, f"Prompt {name} failed") from None
        result: JsonObject = {}
        if "description" in item.definition:
            result["description"] = item.definition["description"]
        result["messages"] = messages
        return result


def collect(module: ModuleType) -> CustomCode:
    """The items and hooks ``module`` declares (items in the order the module defines them)."""
    items: list[LocalItem] = []
    for value in list(vars(module).values()):
        # getattr_static: an odd object's __getattr__ must neither run nor look like a declaration
        item = inspect.getattr_static(value, _MARK, None)
        if isinstance(item, LocalItem) and item not in items:
            items.append(item)
    return CustomCode(
        tuple(items),
        _hook(module, "before_request", 1),
        _hook(module, "after_response", 2),
        source=module_path(module.__name__),
    )


def module_path(module_name: str) -> str:
    """``petstore_mcp/custom.py`` for ``petstore_mcp.custom``: how messages name the file."""
    return module_name.replace(".", "/") + ".py"


def _hook(module: ModuleType, name: str, arity: int) -> Callable[..., Any] | None:
    hook: Callable[..., Any] | None = getattr(module, name, None)
    if hook is None:
        return None
    if not callable(hook):
        raise DefinitionError(f"{name} must be a function")
    try:
        inspect.signature(hook).bind(*([None] * arity))
    except TypeError:
        raise DefinitionError(f"{name} must accept {arity} positional argument(s)") from None
    except ValueError:  # no signature to inspect (some builtins): let a call tell
        pass
    return hook


def _identity(item: LocalItem) -> str:
    return str(_identity_of(item.kind, item.definition))


def _identity_of(kind: Kind, definition: JsonObject) -> Any:
    return definition.get({"resource": "uri", "resourceTemplate": "uriTemplate"}.get(kind, "name"))


def _label(item: LocalItem) -> str:
    kind = {"resourceTemplate": "resource template"}.get(item.kind, item.kind)
    return f"{kind} {_identity(item)!r}"


def _local_key(item: LocalItem, catalog: Catalog, taken: Mapping[str, LocalItem]) -> str:
    base = f"{LOCAL_OPERATION_PREFIX}{item.kind}:{_identity(item)}"
    key, n = base, 1
    while key in catalog["operations"] or key in taken:
        n += 1
        key = f"{base}#{n}"
    return key


def _prompt_messages(value: Any) -> list[JsonObject]:
    parts = value if isinstance(value, list) else [value]
    messages: list[JsonObject] = []
    for part in parts:
        if isinstance(part, str):
            messages.append({"role": "user", "content": {"type": "text", "text": part}})
        elif (
            isinstance(part, dict)
            and part.get("role") in ("user", "assistant")
            and isinstance(part.get("content"), dict)
        ):
            messages.append(part)
        else:
            raise TypeError(
                f"a prompt message must be a str or a role/content dict, not {part!r:.80}"
            )
    return messages


async def _run_hook(hook: Callable[..., Any], name: str, *args: Any) -> Any:
    try:
        result = hook(*args)
        if inspect.isawaitable(result):
            result = await result
    except UpstreamError:
        raise
    except Exception as exc:
        logger.exception("custom %s hook failed", name)
        raise UpstreamError(f"the server's {name} hook failed ({type(exc).__name__})") from None
    return result


# -- serving -------------------------------------------------------------------------------------


class CustomCaller:
    """An ``UpstreamCaller`` that serves custom items in-process and runs ``after_response``."""

    def __init__(
        self,
        upstream: UpstreamCaller,
        local: Mapping[str, LocalItem],
        after_response: Callable[..., Any] | None = None,
    ) -> None:
        self._upstream = upstream
        self._local = dict(local)
        self._after_response = after_response
        self._outputs: dict[str, Validator] = {}

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        item = self._local.get(operation)
        if item is None:
            response = await self._upstream.call(operation, arguments, user=user)
            if self._after_response is None:
                return response
            changed = await _run_hook(self._after_response, "after_response", operation, response)
            if not isinstance(changed, UpstreamResponse):
                raise UpstreamError(
                    f"the server's after_response hook returned {type(changed).__name__}, "
                    "not an UpstreamResponse"
                )
            return changed
        label = _label(item)
        try:
            value = await item.function(**arguments)
        except ToolError as exc:
            raise UpstreamError(str(exc) or f"{label} failed") from None
        except UpstreamError:
            raise
        except Exception as exc:
            logger.exception("custom %s failed", label)
            raise UpstreamError(
                f"{label} failed ({type(exc).__name__}); the server log has the details"
            ) from None
        if item.kind == "tool":
            return self._tool_response(operation, item, value)
        return _resource_response(operation, item, value)

    def _tool_response(self, key: str, item: LocalItem, value: Any) -> UpstreamResponse:
        schema = item.definition.get("outputSchema")
        if isinstance(value, UpstreamResponse):
            return value
        if schema is None and isinstance(value, str):
            return _response(key, "text/plain; charset=utf-8", value.encode("utf-8"))
        if schema is None and isinstance(value, bytes | bytearray):
            return _response(key, "application/octet-stream", bytes(value))
        if schema is not None:
            validator = self._outputs.get(key)
            if validator is None:
                validator = self._outputs[key] = Validator(schema)
            issues = validator.issues(value, limit=5)
            if issues:
                lines = "\n".join(f"- {i.path or '(root)'}: {i.message}" for i in issues)
                raise UpstreamError(
                    f"{_label(item)} returned a value that does not match its output_schema:\n"
                    + lines
                )
        return _response(key, "application/json", _json_bytes(value, item))


def _resource_response(key: str, item: LocalItem, value: Any) -> UpstreamResponse:
    declared = item.definition.get("mimeType")
    if value is None:
        return UpstreamResponse(_NOT_FOUND, "Not Found", "text/plain", b"", key)
    if isinstance(value, str):
        return _response(key, declared or "text/plain; charset=utf-8", value.encode("utf-8"))
    if isinstance(value, bytes | bytearray):
        return _response(key, declared or "application/octet-stream", bytes(value))
    return _response(key, declared or "application/json", _json_bytes(value, item))


def _json_bytes(value: Any, item: LocalItem) -> bytes:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError):
        raise UpstreamError(
            f"{_label(item)} returned a {type(value).__name__}, which is not JSON data"
        ) from None


def _response(key: str, content_type: str, body: bytes) -> UpstreamResponse:
    # the local operation key doubles as the URI of a binary result (``custom:tool:<name>``)
    return UpstreamResponse(200, "OK", content_type, body, key)
