"""``completion/complete``: suggested values for prompt arguments and URI-template variables.

Values come from the catalog's ``completions`` (the enums the generator found), keyed by prompt name
and argument, or by URI template and variable. The typed prefix filters them case-insensitively, in
catalog order; at most 100 are returned, with ``total`` and ``hasMore`` telling the client how many
matched. A reference to an unknown prompt, template, argument or variable is ``-32602``.
"""

from __future__ import annotations

from ..catalog.model import Completions
from .jsonrpc import INVALID_PARAMS, JsonObject, JsonRpcError
from .uritemplate import UriTemplate

MAX_VALUES = 100


class Completer:
    """Answers completion requests from the catalog."""

    def __init__(
        self,
        completions: Completions,
        prompts: list[JsonObject],
        templates: list[JsonObject],
    ) -> None:
        self._completions = completions
        self._prompt_arguments: dict[str, set[str]] = {
            prompt["name"]: {
                argument["name"]
                for argument in prompt.get("arguments", [])
                if isinstance(argument, dict) and isinstance(argument.get("name"), str)
            }
            for prompt in prompts
        }
        self._template_names = {item["uriTemplate"] for item in templates}
        # variables of each template, parsed on first use
        self._template_variables: dict[str, set[str]] = {}

    def complete(self, params: JsonObject) -> JsonObject:
        """The ``CompleteResult`` body (without the era's envelope fields)."""
        ref = params.get("ref")
        argument = params.get("argument")
        if not isinstance(argument, dict):
            raise JsonRpcError(INVALID_PARAMS, "completion/complete requires params.argument")
        name, value = argument.get("name"), argument.get("value")
        if not isinstance(name, str) or not isinstance(value, str):
            raise JsonRpcError(INVALID_PARAMS, "params.argument needs a string name and value")
        candidates = self._candidates(ref, name)
        prefix = value.casefold()
        matches = [item for item in candidates if item.casefold().startswith(prefix)]
        return {
            "completion": {
                "values": matches[:MAX_VALUES],
                "total": len(matches),
                "hasMore": len(matches) > MAX_VALUES,
            }
        }

    def _candidates(self, ref: object, name: str) -> list[str]:
        if not isinstance(ref, dict):
            raise JsonRpcError(INVALID_PARAMS, "completion/complete requires params.ref")
        kind = ref.get("type")
        if kind == "ref/prompt":
            prompt = ref.get("name")
            known = self._prompt_arguments.get(prompt) if isinstance(prompt, str) else None
            if known is None or not isinstance(prompt, str):
                raise JsonRpcError(INVALID_PARAMS, f"Unknown prompt: {prompt}")
            if name not in known:
                raise JsonRpcError(INVALID_PARAMS, f"Prompt {prompt} has no argument {name}")
            return self._completions["prompts"].get(prompt, {}).get(name, [])
        if kind == "ref/resource":
            uri = ref.get("uri")
            variables = self._variables(uri) if isinstance(uri, str) else None
            if variables is None or not isinstance(uri, str):
                raise JsonRpcError(INVALID_PARAMS, f"Unknown resource template: {uri}")
            if name not in variables:
                raise JsonRpcError(
                    INVALID_PARAMS, f"Resource template {uri} has no variable {name}"
                )
            return self._completions["resourceTemplates"].get(uri, {}).get(name, [])
        raise JsonRpcError(INVALID_PARAMS, f"Unsupported completion reference type: {kind}")

    def _variables(self, template: str) -> set[str] | None:
        if template not in self._template_names:
            return None
        if template not in self._template_variables:
            try:
                variables = set(UriTemplate(template).variables)
            except ValueError:
                variables = set()
            self._template_variables[template] = variables
        return self._template_variables[template]
