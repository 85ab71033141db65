"""The JSON-RPC 2.0 envelope: error codes, message checks, replies and their compact serialisation.

This module knows nothing about MCP methods or eras. It classifies an incoming message (request,
notification, response, or invalid), builds success and error replies, and serialises them as one
compact line. ``PreparedResult`` lets the protocol layer hand out results whose JSON text was computed
once (the list pages), so replying to a list request costs one string concatenation.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from ..errors import JsonRpcError as JsonRpcError  # noqa: PLC0414 - re-exported

JsonObject = dict[str, Any]
RequestId = str | int | float

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# 2025-* resource-not-found; only ever sent to legacy peers
LEGACY_RESOURCE_NOT_FOUND = -32002
HEADER_MISMATCH = -32020
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022
# 2025-11-25 only: the request needs a URL elicitation completed first (never on 2026-07-28)
URL_ELICITATION_REQUIRED = -32042


class PreparedResult(dict[str, Any]):
    """A result whose compact JSON text is computed once; treat it as read-only, it is shared."""

    __slots__ = ("text",)

    def __init__(self, result: Mapping[str, Any]) -> None:
        super().__init__(result)
        self.text = dumps(result)


@dataclass(frozen=True, slots=True)
class Envelope:
    """What an incoming message is, once its envelope has been checked."""

    kind: Literal["request", "notification", "response"]
    method: str
    params: Any
    id: RequestId | None


def dumps(value: Any) -> str:
    """Compact JSON without embedded newlines (stdio frames are lines); NaN is refused."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(data: str | bytes) -> Any:
    """Parse one message; raises ``ValueError`` (also for NaN/Infinity) or ``RecursionError``."""
    return json.loads(data, parse_constant=_refuse_constant)


def is_request_id(value: Any) -> TypeGuard[RequestId]:
    # bool is an int subclass but not a valid id; null ids are refused by MCP; a number too large
    # for a float (1e400) parses as infinity, which no reply could echo as JSON
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str | int) and not isinstance(value, bool)


def check_envelope(message: Any) -> Envelope:
    """Classify ``message`` or raise ``JsonRpcError(INVALID_REQUEST)``.

    The error's ``data`` is never set; callers reply with ``readable_id(message)`` so a peer can match
    the error to its request whenever the id itself was readable.
    """
    if not isinstance(message, dict):
        raise JsonRpcError(INVALID_REQUEST, "Invalid request: a message must be a JSON object")
    if message.get("jsonrpc") != "2.0":
        raise JsonRpcError(INVALID_REQUEST, 'Invalid request: "jsonrpc" must be "2.0"')
    has_id = "id" in message
    if has_id and not is_request_id(message["id"]):
        raise JsonRpcError(INVALID_REQUEST, "Invalid request: id must be a string or a number")
    if "method" not in message:
        if has_id and ("result" in message or "error" in message):
            return Envelope("response", "", None, message["id"])
        raise JsonRpcError(INVALID_REQUEST, 'Invalid request: "method" is missing')
    method = message["method"]
    if not isinstance(method, str):
        raise JsonRpcError(INVALID_REQUEST, 'Invalid request: "method" must be a string')
    params = message.get("params")
    if has_id:
        return Envelope("request", method, params, message["id"])
    return Envelope("notification", method, params, None)


def readable_id(message: Any) -> RequestId | None:
    """The message's id if it is a valid one, for error replies to otherwise broken messages."""
    value = message.get("id") if isinstance(message, dict) else None
    return value if is_request_id(value) else None


def success(request_id: RequestId, result: JsonObject) -> JsonObject:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def failure(request_id: RequestId | None, error: JsonRpcError) -> JsonObject:
    """An error reply; without a readable id the ``id`` member is omitted (MCP forbids null ids)."""
    reply: JsonObject = {"jsonrpc": "2.0"}
    if request_id is not None:
        reply["id"] = request_id
    reply["error"] = error.to_error()
    return reply


def encode(message: JsonObject) -> str:
    """Serialise one reply as a single line (no trailing newline), splicing a prepared result."""
    result = message.get("result")
    if isinstance(result, PreparedResult):
        head = dumps({key: value for key, value in message.items() if key != "result"})
        return f'{head[:-1]},"result":{result.text}}}'
    return dumps(message)


def encode_batch(messages: list[JsonObject]) -> str:
    return "[" + ",".join(encode(message) for message in messages) + "]"
