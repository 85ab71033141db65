"""The intermediate representation: what the generator knows about an API, independent of OpenAPI.

``parse.py`` is the only module that reads the OpenAPI document; it produces an :class:`Api`. Every later
stage (classification, rendering) works on these frozen values only. Schemas are JSON Schema 2020-12
objects (plain mappings, treated as immutable) with local ``$ref``s pointing into ``Api.schemas`` as
``#/$defs/<Name>``; they have already been normalised for their direction (input or output).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..config import PromptConfig
from .x_mcp import XMcp

JsonSchema = Mapping[str, Any]
ParameterLocation = Literal["path", "query", "header", "cookie"]
HttpMethod = Literal["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]


@dataclass(frozen=True, slots=True)
class Parameter:
    """One OpenAPI parameter after ``$ref`` resolution and path/operation merging."""

    name: str
    location: ParameterLocation
    required: bool
    schema: JsonSchema
    description: str = ""
    style: str = "simple"
    explode: bool = False
    allow_reserved: bool = False
    deprecated: bool = False
    examples: tuple[Any, ...] = ()
    # set for a parameter described by `content` (its single media type, e.g. "application/json"):
    # the value is serialised with that media type instead of by style/explode
    content_type: str = ""
    # a path key that starts with this parameter (``{task_href}add_role/``, Pulp's drf-spectacular
    # document): its value is a path of the API, sent with its slashes
    whole_path: bool = False
    # a query parameter that may be sent empty (``allowEmptyValue``): a boolean one that its words
    # call a presence flag goes as its bare name (render.catalog)
    allow_empty_value: bool = False


@dataclass(frozen=True, slots=True)
class BodyPart:
    """How one property of a form or multipart body is sent, when it is more than a plain field.

    ``file``: a file part (with a filename), from ``format: binary`` or ``contentMediaType``;
    ``base64``: the argument carries base64 to decode (binary files; text files are sent as given);
    ``content_type``: the part's ``Content-Type`` (multipart: from ``encoding``, else
    ``contentMediaType``, else ``application/json`` for objects and arrays of objects; a form field
    with a JSON ``contentType`` is sent as JSON). ``style``/``explode``/``allow_reserved``: the
    Encoding Object's serialisation of a form field ("" / None: OpenAPI's defaults, form and
    exploded); ``headers``: part headers whose value the spec fixes (``const``, one enum value or
    ``default``).
    """

    name: str
    content_type: str
    file: bool = False
    base64: bool = False
    style: str = ""
    explode: bool | None = None
    allow_reserved: bool = False
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class RequestBody:
    """The chosen request body media type and its (input-direction) schema."""

    content_type: str  # what is sent: always a concrete type (a media range is resolved)
    required: bool
    schema: JsonSchema
    description: str = ""
    # form and multipart: the properties sent with their own encoding
    parts: tuple[BodyPart, ...] = ()
    # the media range the spec declared (``*/*``, ``image/*``) when ``content_type`` replaces it
    declared_type: str = ""
    # multipart chosen for its files over the JSON the spec prefers: a call that gives no file is
    # sent as this JSON type (a multipart part cannot carry an object to a Django REST server)
    without_files: str = ""


@dataclass(frozen=True, slots=True)
class Response:
    """The success response we map to tool output (first 2xx, preferring JSON)."""

    status: str
    content_type: str  # "" when the response has no body
    schema: JsonSchema | None  # output-direction schema, None when unknown or not JSON
    description: str = ""
    # every media type the success responses document, ``content_type`` first (for ``Accept``;
    # derived from the responses, so left out of comparisons like the other provenance)
    media_types: tuple[str, ...] = field(default=(), compare=False)
    # the headers it documents (GitHub's and Gitea's Link and X-Total-Count: how to page on;
    # n8n's X-N8n-Export-Counts), as written
    headers: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Link:
    """An OpenAPI Link Object of a success response: which operation may follow, fed how.

    Targets are kept as written (``operationId`` or ``operationRef``); ``prompting.py`` resolves them.
    ``parameters`` maps the target's parameter names (possibly qualified, ``path.id``) to runtime
    expressions (``$response.body#/id``) or constants, verbatim.
    """

    name: str
    status: str  # the response that declares the link
    pointer: str  # JSON pointer of the Link Object
    operation_id: str = ""
    operation_ref: str = ""
    parameters: tuple[tuple[str, Any], ...] = ()
    # the request body of the target: an expression or a constant; None when the link sets none
    request_body: Any = None
    description: str = ""


@dataclass(frozen=True, slots=True)
class ServerVariable:
    """A ``{name}`` of a server URL: its default (None: none declared) and the values allowed."""

    name: str
    default: str | None
    enum: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True, slots=True)
class Server:
    """A server as declared: ``url`` keeps its ``{variable}`` placeholders."""

    url: str
    variables: tuple[ServerVariable, ...] = ()


@dataclass(frozen=True, slots=True)
class Operation:
    """One HTTP operation. ``key`` is unique and stable (the operationId, or derived from method+path)."""

    key: str
    operation_id: str | None
    method: HttpMethod
    path: str
    pointer: str  # JSON pointer of the operation object in the spec
    summary: str = ""
    description: str = ""
    tags: tuple[str, ...] = ()
    deprecated: bool = False
    parameters: tuple[Parameter, ...] = ()
    body: RequestBody | None = None
    response: Response | None = None
    # the redirects the operation documents as its answers ("302", "3XX"; never 304)
    redirects: tuple[str, ...] = ()
    # its only answer switches protocols (101, no 2xx: a WebSocket, which a tool call cannot use)
    switches_protocols: bool = False
    # the media types an `Accept` header parameter enumerates (the parameter itself is ignored)
    accept: tuple[str, ...] = ()
    # the type a `Content-Type` header parameter names, sent on a request that goes without a body
    # (the parameter itself is ignored; "" when there is none)
    bare_content_type: str = ""
    # alternatives; each a tuple of scheme names; () inside means anonymous is allowed
    security: tuple[tuple[str, ...], ...] = ()
    # the operation's `x-mcp` extension over the path item's and the document's (checked by the parser)
    x_mcp: XMcp = field(default_factory=XMcp)
    # x-mcp key -> JSON pointer of the `x-mcp` object that set it (provenance, not compared)
    x_mcp_origins: Mapping[str, str] = field(default_factory=dict, compare=False)
    # links declared by the success responses, in document order
    links: tuple[Link, ...] = ()
    # OAuth2 scopes the requirements ask for, per scheme (union over the alternatives)
    scopes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # the operation's (or its path's) own server, when it differs from the API's
    server: Server | None = None


@dataclass(frozen=True, slots=True)
class ApiKeyScheme:
    name: str
    location: Literal["header", "query", "cookie"]
    parameter: str
    description: str = ""
    # the word an Authorization header wants before the key ("Token" for Django REST framework)
    prefix: str = ""


@dataclass(frozen=True, slots=True)
class AuthorizationCodeFlow:
    """An ``oauth2`` scheme's ``authorizationCode`` flow (absolute or relative URLs, as declared)."""

    authorization_url: str
    token_url: str
    refresh_url: str = ""


@dataclass(frozen=True, slots=True)
class HttpBearerScheme:
    """``http``/``bearer``; ``oauth2`` and ``openIdConnect`` are also carried as bearer tokens.

    ``authorization_code``: the ``oauth2`` flow that signs users in, in per-user mode."""

    name: str
    description: str = ""
    authorization_code: AuthorizationCodeFlow | None = None


@dataclass(frozen=True, slots=True)
class HttpBasicScheme:
    name: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class OAuth2ClientCredentialsScheme:
    """``oauth2`` with a ``clientCredentials`` flow: the server fetches its own access tokens."""

    name: str
    token_url: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class OAuth2PasswordScheme:
    """``oauth2`` with a ``password`` flow (FastAPI's ``OAuth2PasswordBearer``): the server signs
    in with a user name and password and fetches its own access tokens."""

    name: str
    token_url: str
    description: str = ""


SecurityScheme = (
    ApiKeyScheme
    | HttpBearerScheme
    | HttpBasicScheme
    | OAuth2ClientCredentialsScheme
    | OAuth2PasswordScheme
)


@dataclass(frozen=True, slots=True)
class Tag:
    name: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Api:
    """A whole API: metadata, operations in document order, reusable schemas, security schemes."""

    title: str
    version: str
    description: str
    openapi_version: str
    servers: tuple[str, ...]
    operations: tuple[Operation, ...]
    tags: tuple[Tag, ...] = ()
    # component schemas normalised to 2020-12, by name, for `#/$defs/<name>` references
    input_schemas: Mapping[str, JsonSchema] = field(default_factory=dict)
    output_schemas: Mapping[str, JsonSchema] = field(default_factory=dict)
    security_schemes: Mapping[str, SecurityScheme] = field(default_factory=dict)
    # sha256 of the raw spec bytes, for headers of generated files
    source_sha256: str = ""
    # publishing metadata, as written in `info` and `externalDocs` ("" when absent)
    license_name: str = ""
    license_identifier: str = ""
    license_url: str = ""
    contact_url: str = ""
    terms_of_service: str = ""
    external_docs_url: str = ""
    # the first of `servers` as declared, when its URL has variables
    server: Server | None = None
    # the prompts of the document's `x-mcp: {prompts: [...]}` that are valid, each with its JSON pointer
    x_mcp_prompts: tuple[tuple[PromptConfig, str], ...] = ()
