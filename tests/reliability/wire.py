"""Wire fuzzing kit: hostile inputs, the JSON-RPC oracle that says what each deserves, reply checks.

``expected(line)`` decides, from JSON-RPC 2.0 and mcp-wire §1.1 alone (not from the server's code),
what a server owes one stdio line: nothing (a notification, a client's response, a blank line), one
error without an id (unparseable, not an object, a refused batch, an unreadable id, too long), or
exactly one reply carrying the request's id. ``check_reply`` says whether a reply is well-formed.
``messages``/``lines`` are the hypothesis strategies; ``CORPUS`` is the hand-written catalogue of
malformed inputs named in the issue; ``mutations`` is a fast seeded generator for long runs.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

from hypothesis import strategies as st

from tests.kit.meta import CLIENT_CAPABILITIES, MODERN, PROTOCOL_VERSION, meta

META = meta()
NO_ID = ("no-id",)
METHODS = [
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "subscriptions/listen",
    "ping",
    "logging/setLevel",
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/progress",
    "tasks/get",
    "rpc.discover",
    "",
    "tools/call/",
    "TOOLS/LIST",
]
TOOLS = [
    "list_pets",
    "get_pet_by_id",
    "create_pet",
    "find_pets_by_status",
    "nope",
    "",
    "list_pets\n",
]
URIS = ["petstore://pets", "petstore://pets/1", "petstore://pets/../users", "petstore://", "x"]


def _refuse(name: str) -> Any:
    raise ValueError(name)


def parse(line: bytes) -> tuple[bool, Any]:
    """``(True, value)`` for a JSON text (NaN/Infinity literals refused), else ``(False, None)``."""
    try:
        return True, json.loads(line, parse_constant=_refuse)
    except (ValueError, RecursionError):
        return False, None


def valid_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str | int)


def expected_for(message: Any) -> Any:
    """What one decoded message deserves: ``None`` (no reply), ``NO_ID`` or the id to echo."""
    if not isinstance(message, dict):
        return NO_ID
    has_id = "id" in message
    readable = message["id"] if has_id and valid_id(message["id"]) else NO_ID
    if message.get("jsonrpc") != "2.0":
        return readable
    if has_id and readable is NO_ID:
        return NO_ID
    if "method" not in message:
        if has_id and ("result" in message or "error" in message):
            return None  # a response from the client: nothing to answer
        return readable
    if not isinstance(message["method"], str):
        return readable
    return readable if has_id else None


def expected(line: bytes, limit: int) -> Any:
    """What a stdio line deserves (no ``initialize`` is ever sent, so batches are refused)."""
    if len(line) > limit:
        return NO_ID
    if not line.strip():
        return None
    ok, message = parse(line)
    if not ok or isinstance(message, list):
        return NO_ID
    return expected_for(message)


def cancelled_id(line: bytes) -> Any:
    """The request id a well-formed ``notifications/cancelled`` line names, else ``None``."""
    ok, message = parse(line)
    if not ok or expected_for(message) is not None or not isinstance(message, dict):
        return None
    params = message.get("params")
    if message.get("method") != "notifications/cancelled" or not isinstance(params, dict):
        return None
    target = params.get("requestId")
    return target if valid_id(target) else None


def check_reply(reply: Any) -> str | None:
    """Why ``reply`` is not a well-formed JSON-RPC response, or ``None``."""
    if not isinstance(reply, dict) or reply.get("jsonrpc") != "2.0":
        return "not a JSON-RPC 2.0 object"
    if ("result" in reply) == ("error" in reply):
        return "needs exactly one of result and error"
    if "id" in reply and not valid_id(reply["id"]):
        return "invalid id"
    if "result" in reply:
        if "id" not in reply or not isinstance(reply["result"], dict):
            return "a result needs an id and an object"
        return None
    error = reply["error"]
    if not isinstance(error, dict) or not isinstance(error.get("code"), int):
        return "error without an integer code"
    if not isinstance(error.get("message"), str):
        return "error without a message"
    if set(reply) - {"jsonrpc", "id", "error"}:
        return "unexpected members"
    return None


def is_notification(message: Any) -> bool:
    return isinstance(message, dict) and "method" in message and "id" not in message


# -- hypothesis strategies ---------------------------------------------------------------------

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ids = (
    st.integers(min_value=-(10**30), max_value=10**30)
    | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.none()
    | st.booleans()
    | st.lists(st.integers(), max_size=2)
    | st.just({"a": 1})
)
metas = st.one_of(
    st.just(META),
    st.just({**META, "progressToken": "p"}),
    st.just({**META, PROTOCOL_VERSION: "2025-06-18"}),
    st.just({**META, PROTOCOL_VERSION: 20260728}),
    st.just({**META, "io.modelcontextprotocol/logLevel": "loud"}),
    st.just({PROTOCOL_VERSION: MODERN}),
    st.dictionaries(st.text(max_size=10), json_values, max_size=3),
    json_values,
)
params = st.one_of(
    st.fixed_dictionaries(
        {"_meta": metas},
        optional={
            "name": st.sampled_from(TOOLS) | json_values,
            "arguments": st.fixed_dictionaries(
                {}, optional={"petId": json_values, "limit": json_values, "name": json_values}
            )
            | json_values,
            "uri": st.sampled_from(URIS) | json_values,
            "cursor": st.text(max_size=10) | json_values,
            "requestId": ids,
        },
    ),
    json_values,
)
_absent = st.just(...)


def _message(draw: st.DrawFn) -> Any:
    fields = {
        "jsonrpc": draw(st.sampled_from(["2.0", "2.0", "2.0", "1.0", 2.0, None, ...])),
        "id": draw(_absent | ids),
        "method": draw(st.sampled_from(METHODS) | st.text(max_size=15) | json_values | _absent),
        "params": draw(params | _absent),
    }
    if draw(st.booleans()):
        fields["result"] = draw(_absent | json_values)
        fields["error"] = draw(_absent | json_values)
    return {k: v for k, v in fields.items() if v is not ...}


messages = st.composite(_message)()


def _dump(value: Any) -> bytes:
    return json.dumps(value).encode()


lines = st.one_of(
    messages.map(_dump),
    messages.map(_dump),
    messages.map(_dump),
    st.lists(messages, max_size=3).map(_dump),
    json_values.map(_dump),
    st.binary(max_size=60),
    st.text(max_size=60).map(lambda t: t.encode("utf-8", "surrogatepass")),
    messages.map(lambda m: _dump(m)[: max(1, len(_dump(m)) // 2)]),
).map(lambda line: line.replace(b"\n", b" "))


# -- the hand-written corpus ---------------------------------------------------------------------


def _request(request_id: Any, method: str, **extra: Any) -> bytes:
    return _dump(
        {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {"_meta": META, **extra}}
    )


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = {"a": [value]}
    return value


CORPUS: list[tuple[str, bytes]] = [
    ("invalid JSON", b"{not json"),
    ("truncated JSON", b'{"jsonrpc":"2.0","id":1,"method":"tools/li'),
    ("trailing garbage", b'{"jsonrpc":"2.0","id":1,"method":"tools/list"} x'),
    ("two messages on one line", b'{"jsonrpc":"2.0","id":1}{"jsonrpc":"2.0","id":2}'),
    ("NaN literal", b'{"jsonrpc":"2.0","id":NaN,"method":"tools/list"}'),
    ("Infinity literal", b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":Infinity}'),
    ("single quotes", b"{'jsonrpc':'2.0','id':1,'method':'tools/list'}"),
    ("BOM", "\ufeff".encode() + _request(1, "tools/list")),
    ("invalid UTF-8 in a string", b'{"jsonrpc":"2.0","id":1,"method":"tools/\xff\xfe"}'),
    ("invalid UTF-8 only", b"\xc3\x28\xa0\xa1\xe2\x28\xa1"),
    ("overlong UTF-8", b'{"jsonrpc":"2.0","id":1,"method":"\xc0\xaf"}'),
    ("lone surrogate escape", b'{"jsonrpc":"2.0","id":"\\ud800","method":"nope"}'),
    ("NUL in a string", b'{"jsonrpc":"2.0","id":"\\u0000","method":"\\u0000"}'),
    ("raw NUL bytes", b"\x00\x00\x00"),
    ("number", b"42"),
    ("string", b'"hello"'),
    ("null", b"null"),
    ("true", b"true"),
    ("empty object", b"{}"),
    ("empty array (batch)", b"[]"),
    ("batch of requests", b"[" + _request(1, "tools/list") + b"," + _request(2, "ping") + b"]"),
    ("batch of notifications", b'[{"jsonrpc":"2.0","method":"notifications/initialized"}]'),
    ("nested batch", b"[[[]]]"),
    ("wrong jsonrpc", b'{"jsonrpc":"1.0","id":1,"method":"tools/list"}'),
    ("numeric jsonrpc", b'{"jsonrpc":2.0,"id":1,"method":"tools/list"}'),
    ("missing jsonrpc", b'{"id":1,"method":"tools/list"}'),
    ("wrong jsonrpc notification", b'{"jsonrpc":"1.0","method":"notifications/cancelled"}'),
    ("null id", b'{"jsonrpc":"2.0","id":null,"method":"tools/list"}'),
    ("boolean id", b'{"jsonrpc":"2.0","id":true,"method":"tools/list"}'),
    ("float id", _request(1.5, "tools/list")),
    ("negative zero id", b'{"jsonrpc":"2.0","id":-0.0,"method":"server/discover","params":{}}'),
    ("huge integer id", _request(10**300, "tools/list")),
    ("integer id past the digit limit", b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"ping"}'),
    ("float id overflowing to infinity", b'{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}'),
    ("object id", b'{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}'),
    ("array id", b'{"jsonrpc":"2.0","id":[1],"method":"tools/list"}'),
    ("very long string id", _request("i" * 100_000, "tools/list")),
    ("empty string id", _request("", "tools/list")),
    ("numeric method", b'{"jsonrpc":"2.0","id":1,"method":7}'),
    ("null method", b'{"jsonrpc":"2.0","id":1,"method":null}'),
    ("missing method", b'{"jsonrpc":"2.0","id":1}'),
    ("unknown method", _request(1, "pets/steal")),
    ("removed method ping (modern)", _request(1, "ping")),
    ("initialize-looking notification", b'{"jsonrpc":"2.0","method":"initialize"}'),
    ("no params", b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}'),
    ("params is a list", b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1,2]}'),
    ("params is a string", b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}'),
    ("params null", b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}'),
    ("_meta is a list", b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":[]}}'),
    ("unsupported version", _dump({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {**META, PROTOCOL_VERSION: "1999-01-01"}}})),
    ("capabilities not an object", _dump({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {**META, CLIENT_CAPABILITIES: 3}}})),
    ("tools/call without name", _request(1, "tools/call")),
    ("tools/call with numeric name", _request(1, "tools/call", name=5)),
    ("tools/call unknown tool", _request(1, "tools/call", name="drop_tables")),
    ("tools/call arguments a list", _request(1, "tools/call", name="list_pets", arguments=[1])),
    ("tools/call mistyped argument", _request(1, "tools/call", name="get_pet_by_id", arguments={"petId": "x"})),
    ("tools/call huge argument", _request(1, "tools/call", name="get_pet_by_id", arguments={"petId": 10**200})),
    ("tools/call deeply nested argument", _request(1, "tools/call", name="create_pet", arguments={"name": _nested(300)})),
    ("resources/read numeric uri", _request(1, "resources/read", uri=3)),
    ("resources/read traversal", _request(1, "resources/read", uri="petstore://pets/..%2F..%2Fadmin")),
    ("prompts/get non-string argument", _request(1, "prompts/get", name="pets_workflow", arguments={"goal": 1})),
    ("completion without ref", _request(1, "completion/complete")),
    ("bad cursor", _request(1, "tools/list", cursor="\x00\xff")),
    ("deeply nested params (parses)", _request(1, "tools/list", deep=_nested(400))),
    ("deeply nested arrays (too deep)", b"[" * 200_000 + b"]" * 200_000),
    ("deeply nested objects (too deep)", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
    ("client response (result)", b'{"jsonrpc":"2.0","id":77,"result":{}}'),
    ("client response (error)", b'{"jsonrpc":"2.0","id":78,"error":{"code":1,"message":"x"}}'),
    ("response without id", b'{"jsonrpc":"2.0","result":{}}'),
    ("response and method", b'{"jsonrpc":"2.0","id":79,"method":"tools/list","result":{}}'),
    ("cancel unknown request", b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}'),
    ("cancel malformed", b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}'),
    ("unknown notification", b'{"jsonrpc":"2.0","method":"notifications/whatever"}'),
    ("whitespace only", b"   \t  "),
    ("carriage returns", b"\r\r" + _request(1, "tools/list") + b"\r"),
    ("control characters", bytes(range(1, 32)).replace(b"\n", b"")),
]  # fmt: skip


# -- fast seeded mutations for long runs -------------------------------------------------------


def mutations(seed: int, count: int) -> list[bytes]:
    """``count`` lines: corpus entries, valid requests, and byte-level mutations of both."""
    rng = random.Random(seed)
    base = [line for _, line in CORPUS if len(line) < 10_000]
    valid = [
        _request(1, "tools/list"),
        _request(2, "tools/call", name="get_pet_by_id", arguments={"petId": 1}),
        _request(3, "resources/read", uri="petstore://pets/2"),
        _request(4, "prompts/get", name="pets_workflow", arguments={"goal": "x"}),
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}',
    ]
    out: list[bytes] = []
    for i in range(count):
        line = bytearray(rng.choice(base + valid * 3))
        for _ in range(rng.randrange(4)):
            op = rng.randrange(4)
            pos = rng.randrange(len(line) + 1)
            if op == 0 and line:
                del line[min(pos, len(line) - 1)]
            elif op == 1:
                line.insert(pos, rng.randrange(256))
            elif op == 2 and line:
                line[min(pos, len(line) - 1)] = rng.choice(b'{}[]",:0\\')
            else:
                line[pos:pos] = rng.choice([b"null", b'"id":', b"-1e999", b"\xff", b"[", b"}"])
        text = bytes(line).replace(b"\n", b" ")
        # unique ids keep replies apart when many lines are in flight
        out.append(text.replace(b'"id":1,', b'"id":"m%d",' % i, 1))
    return out
