"""Every public exception of the runtime, in one tree under ``ServerError``.

The modules that raise them import them from here, and each class is still importable from the module
that used to define it (``upstream.client.UpstreamError``, ``hooks.ToolError``, ...), which is where
generated code and tests take them from. This module imports nothing of the runtime, so any layer may
use it. Per branch: who raises, and what the user sees. ``(ValueError)`` marks classes that are also
``ValueError``s, because callers catch them as such::

    ServerError
    ├── StartupError                the server does not start: the command line prints one line,
    │   │                           "<prog>: <message>", on stderr and exits with status 1
    │   ├── SettingsError           server.Settings.from_env, transports.http_serve: a setting from
    │   │   │                       the environment is unusable; caught by cli
    │   │   └── CustomCodeError     server: the package's custom.py cannot be imported or declares
    │   │                           something unusable
    │   ├── CatalogError            catalog.model, protocol.pagination: the catalog cannot be read;
    │   │                           caught by cli at start-up. A part read lazily later (a page of
    │   │                           tools) fails only that request: JSON-RPC -32603 "Internal error"
    │   ├── HttpUnavailable         transports.http_serve: --transport http without uvicorn; cli
    │   └── ConfigurationError (ValueError)
    │       │                       a lower layer's verdict on one setting or declaration; whoever
    │       │                       checks it at start-up re-raises it as SettingsError (or
    │       │                       CustomCodeError), so the user sees the start-up line
    │       ├── PolicyError         upstream.resilience: a retry/circuit/limit variable (an
    │       │                       UpstreamError, so an isError result, if first met by a call)
    │       ├── ToolModeError       protocol.dynamic: the tool mode or toolsets variable
    │       ├── HeaderError         upstream.credentials: <PREFIX>_HEADERS or the configured headers
    │       │                       (an UpstreamError if first met by a call, e.g. the typed client)
    │       ├── CryptographyUnavailable
    │       │                       auth.bearer: OAuth tokens configured, ``cryptography`` missing
    │       └── DefinitionError     hooks: a custom tool, resource, prompt or hook declared wrongly
    ├── McpRequestError             one MCP request is refused by the protocol layer; the server
    │   │                           goes on serving
    │   ├── JsonRpcError            protocol.*, ask.interaction, hooks, transports: the reply is the
    │   │                           JSON-RPC error object (code, message, data); over HTTP some come
    │   │                           with status 400 or 404 (before dispatch, or 2026-07-28 codes)
    │   ├── ResourceNotFound        protocol.calls: no resource has the URI (or the API answered
    │   │                           404): error -32602 in 2026-07-28, -32002 in 2025-*, data {uri}
    │   └── InteractionError        asking the user before a call (ask.*, protocol.request_state)
    │       ├── StateError          a requestState that does not verify: error -32602
    │       │                       "Invalid requestState: ..."
    │       ├── AskError            a legacy server-to-client request got no usable answer: the
    │       │                       tool's isError result "Could not ask the user (...)", or
    │       │                       -32602 for prompts/get; nothing is sent to the API
    │       └── AnswerError (ValueError)
    │                               a client's answer has the wrong shape: as AskError on legacy
    │                               sessions, error -32602 "inputResponses.<key>: ..." in 2026-07-28
    ├── ApiCallError                one call of the API (or of a custom tool standing in for it)
    │   │                           failed or was not made; the user reads an UpstreamError's message
    │   ├── UpstreamError           upstream.client, hooks, peruser.exchange (the token exchange
    │   │   │                       failed, or exchange mode cannot serve the operation):
    │   │   │                       tools/call answers with an isError result carrying the message
    │   │   │                       (written to be shown: no secrets, no token); resources/read
    │   │   │                       with error -32603 and the message
    │   │   └── UpstreamStatusError protocol.results: a resource read got a non-2xx status: 404 is
    │   │                           ResourceNotFound, any other -32603
    │   ├── EncodingRefused (ValueError)
    │   │                           upstream.encoding, upstream.bodies: an argument cannot be put
    │   │                           into the request safely; becomes an UpstreamError, nothing is sent
    │   ├── Refused                 upstream.resilience: circuit open, rate or concurrency limit;
    │   │                           becomes an UpstreamError, nothing is sent
    │   ├── TokenError              upstream.oauth: no client-credentials token; becomes an
    │   │                           UpstreamError (secrets redacted)
    │   ├── OAuthCodeError          peruser.oauth_code: the upstream's token endpoint refused or
    │   │                           failed; the sign-in page shows the message, a call needing a
    │   │                           refresh gets an isError result (never a secret, code or token)
    │   ├── TooLarge                upstream.decoding: the decoded body exceeds the limit; becomes
    │   │                           an UpstreamError
    │   ├── MultipartError (ValueError)
    │   │                           upstream.multipart: a multipart body cannot be split; the result
    │   │                           carries the body whole, as one embedded resource, with a note
    │   ├── SelectionError          protocol.projection: a read tool's ``_select`` is not a usable
    │   │                           JMESPath expression (the isError result names it, nothing is
    │   │                           sent) or cannot be applied to the response (an isError result)
    │   ├── ToolError               raised by a custom tool; its message becomes the isError result
    │   └── ApiError                typed_client (the generated operations.py): a non-2xx answer,
    │                               raised to the caller; uncaught in a custom tool, the isError
    │                               result says "... failed (ApiError); the server log has the
    │                               details"
    ├── InboundAuthError            auth.*, HTTP only: the caller's bearer token is not accepted;
    │   │                           HTTP 401 with a WWW-Authenticate "invalid_token" challenge
    │   ├── JwtError                auth.jwt, auth.jwks, auth.bearer: the token is not acceptable;
    │   │                           the challenge's error_description is the message
    │   └── KeysUnavailable         auth.jwks: the authorization server's keys cannot be fetched;
    │                               the description says the token cannot be verified now
    ├── TokenStoreError             peruser.store: the per-user credential store cannot be opened
    │                               (at start-up: the start-up line) or used (that call fails);
    │                               the message never holds a key, a password, a token or the URL
    └── SchemaError                 jsonschema: a schema cannot be compiled; the runtime turns it
                                    into the tool's isError result (the tool cannot be called), a
                                    DefinitionError or an AnswerError, the generator (which runs
                                    the same validator) into a ``schema-uncompilable`` warning

Private control-flow exceptions (``upstream.client._Failed``,
``upstream.http11._Stale``, ``transports.http._TooLarge`` and ``_Gone``) never leave their module and
stay there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .protocol.jsonrpc import JsonObject
    from .upstream.client import UpstreamResponse

__all__ = [
    "AnswerError",
    "ApiCallError",
    "ApiError",
    "AskError",
    "CatalogError",
    "ConfigurationError",
    "CryptographyUnavailable",
    "CustomCodeError",
    "DefinitionError",
    "EncodingRefused",
    "HeaderError",
    "HttpUnavailable",
    "InboundAuthError",
    "InteractionError",
    "JsonRpcError",
    "JwtError",
    "KeysUnavailable",
    "McpRequestError",
    "MultipartError",
    "OAuthCodeError",
    "PolicyError",
    "Refused",
    "ResourceNotFound",
    "SchemaError",
    "SelectionError",
    "ServerError",
    "SettingsError",
    "StartupError",
    "StateError",
    "TokenError",
    "TokenStoreError",
    "TooLarge",
    "ToolError",
    "ToolModeError",
    "UpstreamError",
    "UpstreamStatusError",
]


class ServerError(Exception):
    """Any public exception of the runtime (the module docstring draws the tree)."""


# -- start-up ------------------------------------------------------------------------------------


class StartupError(ServerError):
    """The server cannot start; the command line prints the message and exits with status 1."""


class SettingsError(StartupError):
    """A setting from the environment is unusable; the message names the variable."""


class CustomCodeError(SettingsError):
    """The package's custom module cannot be imported, or declares something the server cannot serve.

    A ``SettingsError`` so that the command line reports it like any start-up problem: one line on
    stderr and exit status 1.
    """


class CatalogError(StartupError):
    """The catalog file is missing, unreadable or of another format version."""


class HttpUnavailable(StartupError):
    """uvicorn is not installed; the message says how to install it."""


class ConfigurationError(StartupError, ValueError):
    """A lower layer's verdict on one setting or declaration, re-raised as a ``SettingsError``."""


class PolicyError(ConfigurationError):
    """A resilience setting is unusable; the message names the environment variable."""


class ToolModeError(ConfigurationError):
    """The tool mode asked for by the environment cannot be served; the message names the variable."""


class HeaderError(ConfigurationError):
    """An extra header is unusable; the message names the setting and the header, not the value."""


class CryptographyUnavailable(ConfigurationError):
    """JWT verification is configured but ``cryptography`` is missing; the message says what to install."""


class DefinitionError(ConfigurationError):
    """A custom tool, resource, prompt or hook is declared in a way the server cannot serve."""


# -- one MCP request -----------------------------------------------------------------------------


class McpRequestError(ServerError):
    """One MCP request is refused by the protocol layer (a JSON-RPC error, or a tool's isError)."""


class JsonRpcError(McpRequestError):
    """A failure that becomes a JSON-RPC error object; ``message`` and ``data`` are shown to the peer."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_error(self) -> JsonObject:
        error: JsonObject = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ResourceNotFound(McpRequestError):
    """No resource has this URI; the protocol layer picks the era's error code."""

    def __init__(self, uri: str, detail: str = "") -> None:
        super().__init__(f"Resource not found: {uri}")
        self.uri = uri
        # what the API said of it (its 404's body), when the API was asked
        self.detail = detail


class InteractionError(McpRequestError):
    """Asking the user before a call failed; nothing was sent to the API."""


class StateError(InteractionError):
    """The ``requestState`` is malformed, forged, expired, or was issued for another request."""


class AskError(InteractionError):
    """A server-initiated request got no usable answer (an error, a timeout, a closed transport)."""


class AnswerError(InteractionError, ValueError):
    """A client's answer does not have the shape of the result it answers."""


# -- one call of the API ----------------------------------------------------------------------


class ApiCallError(ServerError):
    """One call of the API failed or was not made; the user reads an ``UpstreamError``'s message."""


class UpstreamError(ApiCallError):
    """The call could not be made or completed; the message is safe to show the model."""


class UpstreamStatusError(UpstreamError):
    """The upstream answered with a non-2xx status (raised when reading a resource)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class EncodingRefused(ApiCallError, ValueError):
    """An argument cannot be placed in the request safely; the message is safe to show."""


class Refused(ApiCallError):
    """The call was not made (circuit open, rate or concurrency limit); safe to show a model."""


class TokenError(ApiCallError):
    """No access token could be obtained; the message is safe to show the model."""


class OAuthCodeError(ApiCallError):
    """The authorization-code exchange or a refresh failed; the message never holds a secret,
    a code, a verifier or a token."""


class TooLarge(ApiCallError):
    """The decoded body would exceed the limit."""


class MultipartError(ApiCallError, ValueError):
    """The body cannot be split into parts; the message never quotes the body."""


class SelectionError(ApiCallError):
    """A selection (``_select``) cannot be compiled or applied; the message says why, after the
    argument's name."""


class ToolError(ApiCallError):
    """Raise it in a custom tool: the message reaches the model as the tool's error result."""


class ApiError(ApiCallError):
    """The API answered with a non-2xx status."""

    def __init__(self, response: UpstreamResponse) -> None:
        excerpt = response.body[:500].decode("utf-8", "replace")
        super().__init__(f"{response.status} {response.reason}: {excerpt}")
        self.status = response.status
        self.response = response


# -- inbound authentication (HTTP) ---------------------------------------------------------------


class InboundAuthError(ServerError):
    """The caller's bearer token is not accepted: HTTP 401 with an ``invalid_token`` challenge."""


class JwtError(InboundAuthError):
    """The token is not acceptable; the message is a fixed sentence that never contains the token."""


class KeysUnavailable(InboundAuthError):
    """No signing keys could be obtained (the JWKS host is down, or answered with something unusable)."""


class SchemaError(ServerError):
    """The schema itself is unusable (a bad keyword value, a pattern the regex engine refuses, a
    ``$ref`` that resolves nowhere). ``location`` is where in the schema, as keys and indexes
    (``()`` when the library does not say); ``pointer`` is the same as a JSON pointer."""

    def __init__(self, message: str, location: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.location = location

    @property
    def pointer(self) -> str:
        return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in self.location)


class TokenStoreError(ServerError):
    """The store cannot be opened or used; the message never holds a key, a password or a token."""
