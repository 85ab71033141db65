"""``prompts/get``: a prompt's messages with the caller's arguments filled in.

Messages come from the catalog's ``promptMessages``: text as parts, each literal text or the value of
one argument, joined by plain concatenation (argument values and catalog text are never interpreted
as format strings, so braces in either are kept as they are); an image as stored; an embedded text
resource whose URI and text are parts too. Argument values must be strings (as the spec requires); a
missing required argument, an unknown prompt, or arguments that make a resource URI invalid are
``-32602``. A part that says when it applies (``catalog.PromptPart``) is rendered only in the tool
modes, and with the tools and toolsets, it names: a generated prompt sends the model to the tools
``tools/list`` shows, or in dynamic mode to operations through the dynamic tools, never to a tool
this server does not list (:class:`ToolView` is the mode in force).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..ask.interaction import Target
from ..catalog.model import PromptMessage, PromptPart, Toolset
from .jsonrpc import INVALID_PARAMS, JsonObject, JsonRpcError

# scheme ":" then anything without whitespace or control characters (RFC 3986 in the large)
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s\x00-\x1f\x7f]*")


class ToolView:
    """The tool mode in force, as prompts see it: what a prompt may send the model to.

    ``full``: every tool; ``dynamic``: every operation, through ``call_operation``; ``toolsets``: the
    tools of the ``selected`` toolsets and tools in no toolset (the package's own), as ``tools/list``
    shows them (``dynamic.ToolSurface`` decides the same way).
    """

    def __init__(
        self,
        mode: str = "full",
        toolsets: Mapping[str, Toolset] | None = None,
        selected: Sequence[str] = (),
    ) -> None:
        self.mode = mode
        self._selected = frozenset(selected)
        known = toolsets or {}
        self._chosen = frozenset(
            name for key in self._selected if key in known for name in known[key]["tools"]
        )
        self._tagged = frozenset(name for toolset in known.values() for name in toolset["tools"])

    def callable(self, tool: str) -> bool:
        if self.mode != "toolsets":
            return True
        return tool in self._chosen or tool not in self._tagged

    def selected(self, toolset: str) -> bool:
        return self.mode != "toolsets" or toolset in self._selected

    def shows(self, part: PromptPart) -> bool:
        """Does every condition of ``part`` hold in this mode?"""
        return (
            ("modes" not in part or self.mode in part["modes"])
            and ("unlessTool" not in part or not self.callable(part["unlessTool"]))
            and ("toolset" not in part or self.selected(part["toolset"]))
            and ("unlessToolset" not in part or not self.selected(part["unlessToolset"]))
        )


FULL = ToolView()


class Prompts:
    """Renders the catalog's prompts for the tool mode in force (``view``)."""

    def __init__(
        self,
        prompts: list[JsonObject],
        messages: Mapping[str, list[PromptMessage]],
        view: ToolView = FULL,
    ) -> None:
        self._prompts = {prompt["name"]: prompt for prompt in prompts}
        self._messages = messages
        self._view = view
        self._targets: dict[str, Target] = {}

    def target(self, name: str) -> Target | None:
        """Prompt ``name``'s arguments as questions to the user can ask for them (all strings)."""
        prompt = self._prompts.get(name)
        if prompt is None:
            return None
        if name not in self._targets:
            declared = [a for a in prompt.get("arguments", []) if isinstance(a, dict)]
            properties: JsonObject = {}
            for argument in declared:
                field: JsonObject = {"type": "string"}
                if isinstance(argument.get("title"), str):
                    field["title"] = argument["title"]
                if isinstance(argument.get("description"), str):
                    field["description"] = argument["description"]
                properties[argument["name"]] = field
            schema: JsonObject = {"type": "object", "properties": properties}
            required = [a["name"] for a in declared if a.get("required")]
            if required:
                schema["required"] = required
            title = prompt.get("title") or name
            self._targets[name] = Target("prompts/get", name, f"prompt {name}", title, schema)
        return self._targets[name]

    def get(self, params: JsonObject) -> JsonObject:
        """The ``GetPromptResult`` body (without the era's envelope fields)."""
        name = params.get("name")
        if not isinstance(name, str):
            raise JsonRpcError(INVALID_PARAMS, "prompts/get requires params.name (a string)")
        prompt = self._prompts.get(name)
        if prompt is None:
            raise JsonRpcError(INVALID_PARAMS, f"Unknown prompt: {name}")
        arguments = _string_arguments(params.get("arguments"))
        declared = prompt.get("arguments")
        for argument in declared if isinstance(declared, list) else []:
            if argument.get("required") and argument.get("name") not in arguments:
                raise JsonRpcError(
                    INVALID_PARAMS,
                    f"Missing required argument for prompt {name}: {argument['name']}",
                )
        result: JsonObject = {}
        if isinstance(prompt.get("description"), str):
            result["description"] = prompt["description"]
        result["messages"] = [
            {"role": message["role"], "content": _content(name, message, arguments, self._view)}
            for message in self._messages.get(name, [])
        ]
        return result


def _string_arguments(arguments: object) -> dict[str, str]:
    if arguments is None:
        return {}
    if not isinstance(arguments, dict):
        raise JsonRpcError(INVALID_PARAMS, "prompts/get params.arguments must be an object")
    for key, value in arguments.items():
        if not isinstance(value, str):
            raise JsonRpcError(INVALID_PARAMS, f"Prompt argument {key} must be a string")
    return arguments


def _content(
    prompt: str, message: PromptMessage, arguments: Mapping[str, str], view: ToolView
) -> JsonObject:
    """The message's one ``ContentBlock``."""
    if "image" in message:
        image = message["image"]
        return {"type": "image", "data": image["data"], "mimeType": image["mimeType"]}
    if "resource" in message:
        resource = message["resource"]
        uri = _render(resource["uri"], arguments, view)
        if not _URI.fullmatch(uri):
            raise JsonRpcError(
                INVALID_PARAMS, f"Prompt {prompt}: the arguments do not make a valid resource URI"
            )
        embedded = {"uri": uri, "mimeType": resource["mimeType"]}
        embedded["text"] = _render(resource["text"], arguments, view)
        return {"type": "resource", "resource": embedded}
    return {"type": "text", "text": _render(message.get("parts", []), arguments, view)}


def _render(parts: list[PromptPart], arguments: Mapping[str, str], view: ToolView) -> str:
    pieces: list[str] = []
    for part in parts:
        if not view.shows(part):
            continue
        if "text" in part:
            pieces.append(part["text"])
        elif "argument" in part:
            pieces.append(arguments.get(part["argument"], ""))
    return "".join(pieces)
