"""The catalog: everything a generated server knows about its API, as plain JSON data.

The generator writes ``catalog.json`` next to ``server.py``; the runtime reads it once at start-up and
never looks at the OpenAPI document. The wire objects (``tools``, ``resources``, ``resourceTemplates``,
``prompts``) are stored exactly as the 2026-07-28 list methods return them, in their final order; the
runtime only reshapes them for legacy revisions. Everything the runtime needs to turn a call into an
HTTP request lives under ``operations``, keyed by a stable operation key, and the ``*Bindings`` maps tie
MCP names to those keys.

This module owns the format (``CATALOG_FORMAT``) and its typed view. It is copied verbatim into every
generated package, so it must stay stdlib-only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

CATALOG_FORMAT = 1

JsonObject = dict[str, Any]
ParameterLocation = Literal["path", "query", "header", "cookie"]


class ServerInfo(TypedDict):
    """``Implementation`` of the generated server (name, version, optional title/description)."""

    name: str
    version: str
    title: NotRequired[str]
    description: NotRequired[str]


class ApiKeyScheme(TypedDict):
    """``apiKey`` security scheme: the value comes from the environment variable ``env``."""

    type: Literal["apiKey"]
    # where the key goes and under which name
    location: Literal["header", "query", "cookie"]
    name: str
    env: str


class BearerScheme(TypedDict):
    """``http``/``bearer``, ``oauth2`` and ``openIdConnect``: a token sent as ``Authorization: Bearer``."""

    type: Literal["bearer"]
    env: str


class BasicScheme(TypedDict):
    """``http``/``basic``: user name and password from two environment variables."""

    type: Literal["basic"]
    usernameEnv: str
    passwordEnv: str


SecurityScheme = ApiKeyScheme | BearerScheme | BasicScheme


class UpstreamInfo(TypedDict):
    """Where the API lives and how to authenticate to it."""

    baseUrl: str
    baseUrlEnv: str
    timeoutEnv: str
    timeoutSeconds: float
    securitySchemes: dict[str, SecurityScheme]


class ParameterSpec(TypedDict):
    """One OpenAPI parameter and the tool argument that carries it."""

    name: str
    location: ParameterLocation
    argument: str
    required: bool
    style: str
    explode: bool
    allowReserved: NotRequired[bool]


class BodySpec(TypedDict):
    """The request body.

    ``argument`` names the single argument holding the whole body; when it is absent the body is an
    object whose properties are flattened into the tool's arguments, and ``properties`` maps each such
    argument name to the body property name.
    """

    contentType: str
    required: bool
    argument: NotRequired[str]
    properties: NotRequired[dict[str, str]]


class OperationSpec(TypedDict):
    """How to call one operation upstream."""

    method: str
    path: str
    parameters: list[ParameterSpec]
    body: NotRequired[BodySpec]
    # alternatives, each a list of scheme names that must all be satisfied; [] = anonymous allowed
    security: list[list[str]]
    # media type of the success response we expect ("" when the operation returns no body)
    responseMediaType: str
    # JSON pointer of the operation in the spec, for error messages
    pointer: str


class ToolBinding(TypedDict):
    operation: str


class ResourceBinding(TypedDict):
    operation: str


class TemplateBinding(TypedDict):
    """Maps each RFC 6570 variable of a template to the tool argument it fills."""

    operation: str
    variables: dict[str, str]


class PromptPart(TypedDict):
    """A piece of a prompt message: literal ``text`` or the value of ``argument``."""

    text: NotRequired[str]
    argument: NotRequired[str]


class PromptImage(TypedDict):
    """Image content of a prompt message, embedded when the server was generated."""

    data: str  # base64
    mimeType: str


class PromptResource(TypedDict):
    """An embedded text resource; ``uri`` and ``text`` are built from parts like text content."""

    uri: list[PromptPart]
    mimeType: str
    text: list[PromptPart]


class PromptMessage(TypedDict):
    """One message of a prompt: text from ``parts``, or an ``image``, or a ``resource``."""

    role: Literal["user", "assistant"]
    parts: NotRequired[list[PromptPart]]
    image: NotRequired[PromptImage]
    resource: NotRequired[PromptResource]


class Completions(TypedDict):
    """Values offered by ``completion/complete``, per prompt argument and per template variable."""

    prompts: dict[str, dict[str, list[str]]]
    resourceTemplates: dict[str, dict[str, list[str]]]


class Catalog(TypedDict):
    format: int
    server: ServerInfo
    instructions: NotRequired[str]
    upstream: UpstreamInfo
    tools: list[JsonObject]
    resources: list[JsonObject]
    resourceTemplates: list[JsonObject]
    prompts: list[JsonObject]
    operations: dict[str, OperationSpec]
    toolBindings: dict[str, ToolBinding]
    resourceBindings: dict[str, ResourceBinding]
    templateBindings: dict[str, TemplateBinding]
    promptMessages: dict[str, list[PromptMessage]]
    completions: Completions


class CatalogError(Exception):
    """The catalog file is missing, unreadable or of another format version."""


def load_catalog(path: Path) -> Catalog:
    """Read and sanity-check ``catalog.json``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogError(f"cannot read catalog {path.name}: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != CATALOG_FORMAT:
        raise CatalogError(f"{path.name} is not a catalog of format {CATALOG_FORMAT}")
    return data  # type: ignore[return-value]
