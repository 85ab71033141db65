"""A fake Petstore API: a real HTTP server on loopback implementing ``openapi.yaml`` in memory.

It owns the sample's upstream for the quick-start demo and for tests: seeded pets, orders and users,
the operations of the spec with realistic replies (201 + the new object, 204 on delete, JSON error
bodies for 400/401/404/409), ``X-API-Key`` checked against a configurable key, and a thread-safe
record of every request exactly as it arrived (raw path, query, lower-cased headers, body bytes), so
tests can assert the wire request a generated MCP server made. Stdlib only, so it runs in any
virtual environment; ``python fake_upstream.py`` serves it standalone.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import re
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, TextIO
from urllib.parse import parse_qsl, unquote

__all__ = ["BASE_PATH", "DEFAULT_API_KEY", "FakePetstore", "RecordedRequest"]

DEFAULT_API_KEY = "sk-demo-petstore-42"
BASE_PATH = "/v1"
# a stuck client must not pin a handler thread forever
_CONNECTION_TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as the fake received it, before any interpretation."""

    method: str
    # the request target exactly as sent (percent-encoding preserved), and its two halves
    target: str
    raw_path: str
    query: str
    # raw_path percent-decoded
    path: str
    # lower-cased names; repeated headers joined with ", "
    headers: dict[str, str] = field(hash=False)
    body: bytes = b""
    # the status the fake answered with
    status: int = 0

    @property
    def query_params(self) -> list[tuple[str, str]]:
        """The query string decoded into ordered (name, value) pairs."""
        return parse_qsl(self.query, keep_blank_values=True)

    def json(self) -> Any:
        """The body decoded as JSON."""
        return json.loads(self.body)


JsonObject = dict[str, Any]
Query = list[tuple[str, str]]
PET_STATUSES = ("available", "pending", "sold")
ORDER_STATUSES = ("placed", "approved", "delivered")
_USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@dataclass(slots=True)
class Reply:
    """An HTTP reply: status, JSON body (``None`` for none) and extra headers."""

    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def error(cls, status: int, message: str, headers: dict[str, str] | None = None) -> Reply:
        return cls(status, {"code": status, "message": message}, dict(headers or {}))


class ApiError(Exception):
    """An error reply, raised from anywhere in an operation."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _json_body(body: bytes) -> Any:
    if not body:
        raise ApiError(400, "request body is required")
    try:
        return json.loads(body)
    except ValueError:
        raise ApiError(400, "request body is not valid JSON") from None


def _object(value: Any, what: str, allowed: frozenset[str]) -> JsonObject:
    if not isinstance(value, dict):
        raise ApiError(400, f"{what} must be a JSON object")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} in {what}")
    return value


def _text(value: Any, name: str, *, max_length: int, nullable: bool = False) -> str | None:
    if value is None and nullable:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= max_length:
        raise ApiError(400, f"{name} must be a string of 1 to {max_length} characters")
    return value


def _enum(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ApiError(400, f"{name} must be one of {', '.join(allowed)}; got {value!r}")
    return str(value)


def _named_items(value: Any, name: str) -> list[JsonObject]:
    if not isinstance(value, list):
        raise ApiError(400, f"{name} must be an array")
    items = [_object(item, f"{name} item", frozenset({"id", "name"})) for item in value]
    for item in items:
        _text(item.get("name"), f"{name} item name", max_length=100)
        if "id" in item and not _is_int(item["id"]):
            raise ApiError(400, f"{name} item id must be an integer")
    return [dict(item) for item in items]


def _pet_fields(value: Any, *, partial: bool) -> JsonObject:
    """Validate a Pet (or PetPatch) body and return its fields; ``id`` is read-only and ignored."""
    names = {"name", "status", "tags", "notes"}
    if not partial:
        names |= {"id", "category", "birthDate", "photoUrls"}
    data = _object(value, "PetPatch" if partial else "Pet", frozenset(names))
    fields: JsonObject = {}
    if "name" in data or not partial:
        fields["name"] = _text(data.get("name"), "name", max_length=100)
    if "status" in data:
        fields["status"] = _enum(data["status"], "status", PET_STATUSES)
    if "tags" in data:
        fields["tags"] = _named_items(data["tags"], "tags")
    if "notes" in data:
        fields["notes"] = _text(data["notes"], "notes", max_length=500, nullable=True)
    if "category" in data:
        fields["category"] = _named_items([data["category"]], "category")[0]
    if data.get("birthDate") is not None:
        try:
            date.fromisoformat(data["birthDate"])
        except (TypeError, ValueError):
            raise ApiError(400, "birthDate must be a date like 2021-04-12 or null") from None
        fields["birthDate"] = data["birthDate"]
    if "photoUrls" in data:
        urls = data["photoUrls"]
        if not isinstance(urls, list) or not all(isinstance(url, str) for url in urls):
            raise ApiError(400, "photoUrls must be an array of strings")
        fields["photoUrls"] = list(urls)
    if partial and not fields:
        raise ApiError(400, "nothing to update: give at least one of name, status, tags, notes")
    return fields


def _user_fields(value: Any) -> JsonObject:
    allowed = frozenset({"id", "username", "firstName", "lastName", "email", "phone", "userStatus"})
    data = _object(value, "User", allowed)
    username = data.get("username")
    if not isinstance(username, str) or not _USERNAME.fullmatch(username):
        raise ApiError(400, "username must be 3 to 32 letters, digits, '_', '.' or '-'")
    email = data.get("email")
    if not isinstance(email, str) or not _EMAIL.fullmatch(email):
        raise ApiError(400, "email must be an e-mail address")
    user: JsonObject = {"username": username}
    for name in ("firstName", "lastName"):
        if name in data:
            user[name] = _text(data[name], name, max_length=100)
    user["email"] = email
    user["phone"] = _text(data.get("phone"), "phone", max_length=40, nullable=True)
    user["userStatus"] = data.get("userStatus", 0)
    if user["userStatus"] not in (0, 1) or not _is_int(user["userStatus"]):
        raise ApiError(400, "userStatus must be 0 or 1")
    return user


def _values(query: Query, name: str) -> list[str]:
    return [value for key, value in query if key == name]


def _single(query: Query, name: str) -> str | None:
    values = _values(query, name)
    if len(values) > 1:
        raise ApiError(400, f"{name} must be given once")
    return values[0] if values else None


def _integer(text: str, name: str, minimum: int = 1, maximum: int | None = None) -> int:
    if not re.fullmatch(r"-?[0-9]+", text):
        raise ApiError(400, f"{name} must be an integer; got {text!r}")
    number = int(text)
    if number < minimum or (maximum is not None and number > maximum):
        upper = f" and at most {maximum}" if maximum is not None else ""
        raise ApiError(400, f"{name} must be at least {minimum}{upper}; got {number}")
    return number


def _limit(query: Query) -> int:
    text = _single(query, "limit")
    return 20 if text is None else _integer(text, "limit", 1, 100)


Params = dict[str, str]
Operation = Callable[["PetstoreData", Params, Query, bytes], Reply]


class PetstoreData:
    """The API's state and operations; every operation runs under one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pets: dict[int, JsonObject] = {}
        self.orders: dict[int, JsonObject] = {}
        self.users: dict[str, JsonObject] = {}
        self.next_id = {"pet": 1, "order": 1, "user": 1}
        for name, category, tags, status in _SEED_PETS:
            self._store_pet(
                {"name": name, "category": dict(category), "tags": [{"name": t} for t in tags]}
                | {"status": status, "birthDate": None, "notes": None, "photoUrls": []}
            )
        self._store_order({"petId": 4, "quantity": 1, "shipDate": "2026-05-02T10:00:00Z"} | _DONE)
        self._store_order({"petId": 3, "quantity": 2, "shipDate": None} | _OPEN)
        for user in _SEED_USERS:
            self._store_user(dict(user))

    def route(
        self, method: str, segments: list[str]
    ) -> tuple[Callable[[Query, bytes], Reply], bool]:
        """Find the operation for a request; returns it bound to its path parameters, and publicness."""
        allowed: list[str] = []
        for route_method, pattern, operation, public in _ROUTES:
            params = _match(pattern, segments)
            if params is None:
                continue
            if route_method != method:
                allowed.append(route_method)
                continue

            def bound(
                query: Query, body: bytes, op: Operation = operation, p: Params = params
            ) -> Reply:
                with self.lock:
                    return op(self, p, query, body)

            return bound, public
        if allowed:
            raise ApiError(
                405, f"{method} not allowed here", {"Allow": ", ".join(sorted(set(allowed)))}
            )
        raise ApiError(404, f"no route for {method} /{'/'.join(segments)}")

    def _next(self, kind: str) -> int:
        number = self.next_id[kind]
        self.next_id[kind] = number + 1
        return number

    def _store_pet(self, fields: JsonObject) -> JsonObject:
        pet: JsonObject = {"id": self._next("pet")} | fields
        self.pets[pet["id"]] = pet
        return pet

    def _store_order(self, fields: JsonObject) -> JsonObject:
        order: JsonObject = {"id": self._next("order")} | fields
        self.orders[order["id"]] = order
        return order

    def _store_user(self, fields: JsonObject) -> JsonObject:
        user: JsonObject = {"id": self._next("user")} | fields
        self.users[user["username"]] = user
        return user

    def _pet(self, params: Params) -> JsonObject:
        pet_id = _integer(params["petId"], "petId")
        if pet_id not in self.pets:
            raise ApiError(404, f"pet {pet_id} not found")
        return self.pets[pet_id]

    def _order(self, params: Params) -> JsonObject:
        order_id = _integer(params["orderId"], "orderId")
        if order_id not in self.orders:
            raise ApiError(404, f"order {order_id} not found")
        return self.orders[order_id]

    def _user(self, params: Params) -> JsonObject:
        if params["username"] not in self.users:
            raise ApiError(404, f"user {params['username']!r} not found")
        return self.users[params["username"]]

    def _new_pet(self, fields: JsonObject) -> JsonObject:
        """Fill the defaults of a full Pet, keeping the schema's property order."""
        defaults: JsonObject = {"tags": [], "status": "available", "birthDate": None, "notes": None}
        merged = defaults | {"photoUrls": []} | fields
        return {key: merged[key] for key in _PET_KEYS if key in merged}

    # --- pets -------------------------------------------------------------------------------

    def list_pets(self, params: Params, query: Query, body: bytes) -> Reply:
        statuses = [_enum(value, "status", PET_STATUSES) for value in _values(query, "status")]
        pets = [pet for pet in self.pets.values() if not statuses or pet["status"] in statuses]
        return Reply(200, copy.deepcopy(pets[: _limit(query)]))

    def create_pet(self, params: Params, query: Query, body: bytes) -> Reply:
        pet = self._store_pet(self._new_pet(_pet_fields(_json_body(body), partial=False)))
        return Reply(201, copy.deepcopy(pet), {"Location": f"{BASE_PATH}/pets/{pet['id']}"})

    def find_pets_by_status(self, params: Params, query: Query, body: bytes) -> Reply:
        statuses = [_enum(value, "status", PET_STATUSES) for value in _values(query, "status")]
        if not statuses:
            raise ApiError(400, "status is required")
        return Reply(200, copy.deepcopy([p for p in self.pets.values() if p["status"] in statuses]))

    def find_pets_by_tags(self, params: Params, query: Query, body: bytes) -> Reply:
        wanted = set(_values(query, "tags"))
        if not wanted:
            raise ApiError(400, "tags is required")
        match_all = _single(query, "matchAll") or "false"
        if match_all not in ("true", "false"):
            raise ApiError(400, f"matchAll must be true or false; got {match_all!r}")
        found = []
        for pet in self.pets.values():
            names = {tag["name"] for tag in pet["tags"]}
            if (wanted <= names) if match_all == "true" else (wanted & names):
                found.append(pet)
        return Reply(200, copy.deepcopy(found))

    def get_pet(self, params: Params, query: Query, body: bytes) -> Reply:
        return Reply(200, copy.deepcopy(self._pet(params)))

    def update_pet(self, params: Params, query: Query, body: bytes) -> Reply:
        pet = self._pet(params)
        fields = _pet_fields(_json_body(body), partial=False)
        pet.clear()
        pet.update({"id": _integer(params["petId"], "petId")} | self._new_pet(fields))
        return Reply(200, copy.deepcopy(pet))

    def patch_pet(self, params: Params, query: Query, body: bytes) -> Reply:
        pet = self._pet(params)
        pet.update(_pet_fields(_json_body(body), partial=True))
        return Reply(200, copy.deepcopy(pet))

    def delete_pet(self, params: Params, query: Query, body: bytes) -> Reply:
        del self.pets[self._pet(params)["id"]]
        return Reply(204)

    def list_pet_orders(self, params: Params, query: Query, body: bytes) -> Reply:
        pet_id = self._pet(params)["id"]
        orders = [order for order in self.orders.values() if order["petId"] == pet_id]
        return Reply(200, copy.deepcopy(orders[: _limit(query)]))

    # --- store ------------------------------------------------------------------------------

    def get_inventory(self, params: Params, query: Query, body: bytes) -> Reply:
        counts = dict.fromkeys(PET_STATUSES, 0)
        for pet in self.pets.values():
            counts[pet["status"]] += 1
        return Reply(200, counts)

    def list_orders(self, params: Params, query: Query, body: bytes) -> Reply:
        status = _single(query, "status")
        if status is not None:
            _enum(status, "status", ORDER_STATUSES)
        orders = [o for o in self.orders.values() if status is None or o["status"] == status]
        return Reply(200, copy.deepcopy(orders[: _limit(query)]))

    def place_order(self, params: Params, query: Query, body: bytes) -> Reply:
        allowed = frozenset({"id", "petId", "quantity", "shipDate", "status", "complete"})
        data = _object(_json_body(body), "Order", allowed)
        pet_id, quantity = data.get("petId"), data.get("quantity", 1)
        if not _is_int(pet_id) or pet_id not in self.pets:
            raise ApiError(400, f"petId must be the id of an existing pet; got {pet_id!r}")
        if not _is_int(quantity) or not 1 <= quantity <= 10:
            raise ApiError(400, "quantity must be an integer from 1 to 10")
        if "status" in data:
            _enum(data["status"], "status", ORDER_STATUSES)
        ship_date = data.get("shipDate")
        if ship_date is not None:
            try:
                datetime.fromisoformat(ship_date)
            except (TypeError, ValueError):
                raise ApiError(400, "shipDate must be a date-time or null") from None
        if not isinstance(data.get("complete", False), bool):
            raise ApiError(400, "complete must be a boolean")
        order = self._store_order(
            {"petId": pet_id, "quantity": quantity, "shipDate": ship_date}
            | {"status": "placed", "complete": data.get("complete", False)}
        )
        return Reply(201, copy.deepcopy(order))

    def get_order(self, params: Params, query: Query, body: bytes) -> Reply:
        return Reply(200, copy.deepcopy(self._order(params)))

    def delete_order(self, params: Params, query: Query, body: bytes) -> Reply:
        del self.orders[self._order(params)["id"]]
        return Reply(204)

    def approve_order(self, params: Params, query: Query, body: bytes) -> Reply:
        order = self._order(params)
        if order["status"] != "placed":
            message = (
                f"order {order['id']} is {order['status']}; only placed orders can be approved"
            )
            raise ApiError(409, message)
        order["status"] = "approved"
        return Reply(200, copy.deepcopy(order))

    # --- users ------------------------------------------------------------------------------

    def create_user(self, params: Params, query: Query, body: bytes) -> Reply:
        fields = _user_fields(_json_body(body))
        if fields["username"] in self.users:
            raise ApiError(409, f"user {fields['username']!r} already exists")
        return Reply(201, copy.deepcopy(self._store_user(fields)))

    def create_users_with_list(self, params: Params, query: Query, body: bytes) -> Reply:
        data = _json_body(body)
        if not isinstance(data, list) or not 1 <= len(data) <= 50:
            raise ApiError(400, "the body must be an array of 1 to 50 users")
        users = [_user_fields(item) for item in data]
        seen: set[str] = set()
        for user in users:
            if user["username"] in self.users or user["username"] in seen:
                raise ApiError(409, f"user {user['username']!r} already exists")
            seen.add(user["username"])
        return Reply(200, copy.deepcopy([self._store_user(user) for user in users]))

    def get_user(self, params: Params, query: Query, body: bytes) -> Reply:
        return Reply(200, copy.deepcopy(self._user(params)))

    def update_user(self, params: Params, query: Query, body: bytes) -> Reply:
        user = self._user(params)
        fields = _user_fields(_json_body(body))
        if fields["username"] != params["username"]:
            raise ApiError(400, "the username in the body must match the path")
        user_id = user["id"]
        user.clear()
        user.update({"id": user_id} | fields)
        return Reply(200, copy.deepcopy(user))

    def delete_user(self, params: Params, query: Query, body: bytes) -> Reply:
        del self.users[self._user(params)["username"]]
        return Reply(204)


def _match(pattern: tuple[str, ...], segments: list[str]) -> Params | None:
    if len(pattern) != len(segments):
        return None
    params: Params = {}
    for expected, actual in zip(pattern, segments, strict=True):
        if expected.startswith("{"):
            if not actual:
                return None
            params[expected[1:-1]] = actual
        elif expected != actual:
            return None
    return params


_SEED_PETS = (
    ("Rex", {"id": 1, "name": "Dogs"}, ("friendly",), "available"),
    ("Whiskers", {"id": 2, "name": "Cats"}, ("indoor",), "available"),
    ("Bubbles", {"id": 3, "name": "Fish"}, (), "pending"),
    ("Tweety", {"id": 4, "name": "Birds"}, ("friendly", "noisy"), "sold"),
    ("Luna", {"id": 2, "name": "Cats"}, ("friendly", "indoor"), "available"),
)
_PET_KEYS = ("name", "category", "tags", "status", "birthDate", "notes", "photoUrls")
_DONE = {"status": "delivered", "complete": True}
_OPEN = {"status": "placed", "complete": False}
_SEED_USERS = (
    {"username": "jdoe", "firstName": "Jane", "lastName": "Doe", "email": "jane@example.com"}
    | {"phone": None, "userStatus": 0},
    {"username": "asmith", "firstName": "Alex", "lastName": "Smith", "email": "alex@example.com"}
    | {"phone": "+44 20 7946 0000", "userStatus": 0},
)
# literal segments come before parameters so /pets/findByStatus is not read as a pet id
_ROUTES: tuple[tuple[str, tuple[str, ...], Operation, bool], ...] = (
    ("GET", ("pets",), PetstoreData.list_pets, False),
    ("POST", ("pets",), PetstoreData.create_pet, False),
    ("GET", ("pets", "findByStatus"), PetstoreData.find_pets_by_status, False),
    ("GET", ("pets", "findByTags"), PetstoreData.find_pets_by_tags, False),
    ("GET", ("pets", "{petId}"), PetstoreData.get_pet, False),
    ("PUT", ("pets", "{petId}"), PetstoreData.update_pet, False),
    ("PATCH", ("pets", "{petId}"), PetstoreData.patch_pet, False),
    ("DELETE", ("pets", "{petId}"), PetstoreData.delete_pet, False),
    ("GET", ("pets", "{petId}", "orders"), PetstoreData.list_pet_orders, False),
    ("GET", ("store", "inventory"), PetstoreData.get_inventory, True),
    ("GET", ("store", "orders"), PetstoreData.list_orders, False),
    ("POST", ("store", "orders"), PetstoreData.place_order, False),
    ("GET", ("store", "orders", "{orderId}"), PetstoreData.get_order, False),
    ("DELETE", ("store", "orders", "{orderId}"), PetstoreData.delete_order, False),
    ("POST", ("store", "orders", "{orderId}", "approve"), PetstoreData.approve_order, False),
    ("POST", ("users",), PetstoreData.create_user, False),
    ("POST", ("users", "createWithList"), PetstoreData.create_users_with_list, False),
    ("GET", ("users", "{username}"), PetstoreData.get_user, False),
    ("PUT", ("users", "{username}"), PetstoreData.update_user, False),
    ("DELETE", ("users", "{username}"), PetstoreData.delete_user, False),
)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], owner: FakePetstore) -> None:
        self.owner = owner
        self.open_connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    # HTTP/1.1 keeps connections alive; every reply therefore carries an exact Content-Length
    protocol_version = "HTTP/1.1"
    # without TCP_NODELAY a keep-alive request on loopback waits ~40 ms for delayed ACKs
    disable_nagle_algorithm = True
    timeout = _CONNECTION_TIMEOUT_SECONDS
    server: _Server
    server_version = "FakePetstore/1.0"

    def setup(self) -> None:
        super().setup()
        with self.server.connections_lock:
            self.server.open_connections.add(self.connection)

    def finish(self) -> None:
        with self.server.connections_lock:
            self.server.open_connections.discard(self.connection)
        super().finish()

    def do_GET(self) -> None:
        self._dispatch()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

    def log_message(self, format: str, *args: Any) -> None:
        log = self.server.owner.log
        if log is not None:
            log.write(f"{self.address_string()} {format % args}\n")
            log.flush()

    def _dispatch(self) -> None:
        try:
            body = self._read_body()
        except ValueError as exc:
            self.close_connection = True
            self._send(Reply.error(400, str(exc)))
            return
        recorded = _record(self.command, self.path, self.headers.items(), body)
        owner = self.server.owner
        try:
            reply = owner.handle(recorded)
        except ApiError as exc:
            reply = Reply.error(exc.status, exc.message, exc.headers)
        except Exception as exc:
            # a bug in the fake must still answer, so the test shows a 500 rather than hanging
            reply = Reply.error(500, f"fake Petstore failed: {type(exc).__name__}: {exc}")
        request_id = recorded.headers.get("x-request-id")
        if request_id is not None:
            reply.headers["X-Request-ID"] = request_id
        # recorded before the reply is sent, so a client that saw the reply also sees the record
        owner.record(replace(recorded, status=reply.status))
        self._send(reply)

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return self._read_chunked()
        length_header = self.headers.get("Content-Length")
        if length_header is None:
            return b""
        if not length_header.isdigit():
            raise ValueError("invalid Content-Length")
        return self.rfile.read(int(length_header))

    def _read_chunked(self) -> bytes:
        chunks: list[bytes] = []
        while True:
            size_line = self.rfile.readline(1024).split(b";", 1)[0].strip()
            try:
                size = int(size_line, 16)
            except ValueError:
                raise ValueError("invalid chunked body") from None
            if size == 0:
                # trailer section ends with an empty line
                while self.rfile.readline(1024).strip():
                    pass
                return b"".join(chunks)
            chunks.append(self.rfile.read(size))
            self.rfile.readline(3)

    def _send(self, reply: Reply) -> None:
        payload = b"" if reply.body is None else json.dumps(reply.body).encode()
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if reply.status != 204:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD" and reply.status != 204:
            self.wfile.write(payload)


def _record(
    method: str, target: str, header_items: list[tuple[str, str]], body: bytes
) -> RecordedRequest:
    raw_path, _, query = target.partition("?")
    headers: dict[str, str] = {}
    for name, value in header_items:
        key = name.lower()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return RecordedRequest(
        method=method,
        target=target,
        raw_path=raw_path,
        query=query,
        path=unquote(raw_path),
        headers=headers,
        body=body,
    )


class FakePetstore:
    """The fake Petstore server; start it, point a client at :attr:`base_url`, read :attr:`requests`.

    ``api_key=None`` turns the ``X-API-Key`` check off. Use it as a context manager to start and
    stop it around a block.
    """

    def __init__(
        self,
        api_key: str | None = DEFAULT_API_KEY,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        log: TextIO | None = None,
    ) -> None:
        self.api_key = api_key
        self.log = log
        self._address = (host, port)
        self._data = PetstoreData()
        self._requests: list[RecordedRequest] = []
        self._requests_lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """The API's base URL, e.g. ``http://127.0.0.1:8123/v1``."""
        if self._server is None:
            raise RuntimeError("the fake Petstore is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{BASE_PATH}"

    def start(self) -> str:
        """Bind, serve in a background thread and return :attr:`base_url`."""
        if self._server is None:
            self._server = _Server(self._address, self)
            self._thread = threading.Thread(
                target=self._server.serve_forever,
                kwargs={"poll_interval": 0.01},
                name="fake-petstore",
                daemon=True,
            )
            self._thread.start()
        return self.base_url

    def stop(self) -> None:
        """Stop serving and drop open keep-alive connections."""
        if self._server is None:
            return
        self._server.shutdown()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._close()

    def _close(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        with server.connections_lock:
            connections = list(server.open_connections)
        for connection in connections:
            # the peer may have closed it already
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        server.server_close()

    def __enter__(self) -> FakePetstore:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def requests(self) -> list[RecordedRequest]:
        """A copy of the requests received so far, oldest first."""
        with self._requests_lock:
            return list(self._requests)

    def clear(self) -> None:
        """Forget the recorded requests (the data is kept)."""
        with self._requests_lock:
            self._requests.clear()

    def record(self, request: RecordedRequest) -> None:
        with self._requests_lock:
            self._requests.append(request)

    def handle(self, request: RecordedRequest) -> Reply:
        """Route one request and run it against the data; raises :class:`ApiError` for errors."""
        if not (request.raw_path == BASE_PATH or request.raw_path.startswith(BASE_PATH + "/")):
            raise ApiError(404, f"no route for {request.method} {request.raw_path}")
        segments = [unquote(part) for part in request.raw_path[len(BASE_PATH) :].split("/")[1:]]
        operation, public = self._data.route(request.method, segments)
        if not public and self.api_key is not None:
            self._check_key(request.headers.get("x-api-key"))
        media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if request.body and media_type != "application/json":
            raise ApiError(415, f"Content-Type must be application/json; got {media_type!r}")
        return operation(request.query_params, request.body)

    def _check_key(self, key: str | None) -> None:
        if key is None:
            raise ApiError(401, "missing X-API-Key header")
        if key != self.api_key:
            raise ApiError(401, "invalid API key")


def main(argv: list[str] | None = None) -> int:
    """Serve the fake Petstore until killed; the first line on stdout is its base URL."""
    parser = argparse.ArgumentParser(description="Serve an in-memory Petstore API on loopback.")
    parser.add_argument("--port", type=int, default=0, help="port to bind (default: a free one)")
    parser.add_argument("--api-key", default=DEFAULT_API_KEY, help="expected X-API-Key value")
    parser.add_argument("--no-auth", action="store_true", help="accept requests without a key")
    parser.add_argument("--quiet", action="store_true", help="do not log requests to stderr")
    options = parser.parse_args(argv)
    fake = FakePetstore(
        None if options.no_auth else options.api_key,
        port=options.port,
        log=None if options.quiet else sys.stderr,
    )
    fake.start()
    print(fake.base_url, flush=True)
    key_note = "no API key needed" if fake.api_key is None else f"X-API-Key: {fake.api_key}"
    print(f"fake Petstore serving ({key_note}); Ctrl-C to stop", file=sys.stderr, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
