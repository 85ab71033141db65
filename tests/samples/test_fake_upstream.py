"""The sample's fake Petstore API and the quick-start demo client.

The fake is what every functional test trusts to tell the truth about the wire, so these tests pin
its recording (raw path, query, lower-cased headers, body bytes), its auth and error replies, its data
behaviour and HTTP/1.1 keep-alive. The demo is driven end to end against a stand-in MCP server built
with the official SDK, so its output and exit codes are checked before the generated server exists.
"""

from __future__ import annotations

import http.client
import importlib
import os
import shlex
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp_types import Tool

from tests.conftest import PETSTORE_DIR, fake_petstore_module

fake_upstream = fake_petstore_module()
KEY = fake_upstream.DEFAULT_API_KEY
REX = {
    "id": 1,
    "name": "Rex",
    "category": {"id": 1, "name": "Dogs"},
    "tags": [{"name": "friendly"}],
    "status": "available",
    "birthDate": None,
    "notes": None,
    "photoUrls": [],
}


@pytest.fixture
def client(fake_petstore: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=fake_petstore.base_url, headers={"X-API-Key": KEY}) as http:
        yield http


def names(response: httpx.Response) -> list[str]:
    return [pet["name"] for pet in response.json()]


# --- recording ------------------------------------------------------------------------------


def test_records_method_raw_target_headers_and_body_bytes(
    fake_petstore: Any, client: httpx.Client
) -> None:
    body = b'{"name": "Biscuit",  "status": "pending"}'
    response = client.post(
        "/pets?trace=a%2Fb%20c",
        content=body,
        headers={"Content-Type": "application/json", "X-Request-ID": "req-1"},
    )
    assert response.status_code == 201
    (sent,) = fake_petstore.requests
    assert sent.method == "POST"
    assert sent.target == "/v1/pets?trace=a%2Fb%20c"
    assert (sent.raw_path, sent.path, sent.query) == ("/v1/pets", "/v1/pets", "trace=a%2Fb%20c")
    assert sent.query_params == [("trace", "a/b c")]
    assert sent.headers["x-api-key"] == KEY
    assert sent.headers["content-type"] == "application/json"
    assert sent.headers["x-request-id"] == "req-1"
    assert all(name == name.lower() for name in sent.headers)
    assert sent.body == body
    assert sent.json() == {"name": "Biscuit", "status": "pending"}
    assert sent.status == 201


def test_percent_encoded_path_segment_is_kept_raw_and_decoded_after_splitting(
    fake_petstore: Any, client: httpx.Client
) -> None:
    response = client.get("/users/j%2Fdoe")
    assert response.status_code == 404
    assert response.json() == {"code": 404, "message": "user 'j/doe' not found"}
    (sent,) = fake_petstore.requests
    assert (sent.raw_path, sent.path) == ("/v1/users/j%2Fdoe", "/v1/users/j/doe")


def test_repeated_query_parameters_keep_their_order(
    fake_petstore: Any, client: httpx.Client
) -> None:
    client.get("/pets?status=sold&limit=5&status=pending")
    (sent,) = fake_petstore.requests
    assert sent.query == "status=sold&limit=5&status=pending"
    assert sent.query_params == [("status", "sold"), ("limit", "5"), ("status", "pending")]


def test_chunked_request_body_is_recorded_whole(fake_petstore: Any, client: httpx.Client) -> None:
    parts = [b'{"name": ', b'"Chunky"}']
    response = client.post(
        "/pets", content=iter(parts), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 201
    (sent,) = fake_petstore.requests
    assert sent.headers["transfer-encoding"] == "chunked"
    assert sent.body == b'{"name": "Chunky"}'


def test_clear_forgets_requests_but_keeps_data(fake_petstore: Any, client: httpx.Client) -> None:
    client.post("/pets", json={"name": "Kept"})
    fake_petstore.clear()
    assert fake_petstore.requests == []
    assert client.get("/pets/6").json()["name"] == "Kept"
    assert len(fake_petstore.requests) == 1


def test_concurrent_requests_are_all_recorded(fake_petstore: Any) -> None:
    def worker(number: int) -> None:
        with httpx.Client(base_url=fake_petstore.base_url, headers={"X-API-Key": KEY}) as http:
            for index in range(10):
                assert (
                    http.get("/pets", params={"limit": 1, "n": f"{number}-{index}"}).status_code
                    == 200
                )

    threads = [threading.Thread(target=worker, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    tags = sorted(dict(request.query_params)["n"] for request in fake_petstore.requests)
    assert tags == sorted(f"{number}-{index}" for number in range(8) for index in range(10))


# --- auth and errors ------------------------------------------------------------------------


def test_missing_api_key_is_401_json_and_still_recorded(fake_petstore: Any) -> None:
    response = httpx.get(fake_petstore.base_url + "/pets")
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {"code": 401, "message": "missing X-API-Key header"}
    (sent,) = fake_petstore.requests
    assert "x-api-key" not in sent.headers
    assert sent.status == 401


def test_wrong_api_key_is_401(fake_petstore: Any) -> None:
    response = httpx.get(fake_petstore.base_url + "/pets/1", headers={"X-API-Key": "sk-wrong"})
    assert response.status_code == 401
    assert response.json() == {"code": 401, "message": "invalid API key"}


def test_inventory_is_public(fake_petstore: Any) -> None:
    response = httpx.get(fake_petstore.base_url + "/store/inventory")
    assert response.status_code == 200
    assert response.json() == {"available": 3, "pending": 1, "sold": 1}


def test_api_key_none_turns_auth_off() -> None:
    with fake_upstream.FakePetstore(api_key=None) as fake:
        assert httpx.get(fake.base_url + "/pets/1").json() == REX


def test_missing_pet_is_404_json(client: httpx.Client) -> None:
    response = client.get("/pets/999")
    assert response.status_code == 404
    assert response.json() == {"code": 404, "message": "pet 999 not found"}


def test_unknown_route_is_404_and_wrong_method_is_405_with_allow(client: httpx.Client) -> None:
    assert client.get("/nothing/here").json() == {
        "code": 404,
        "message": "no route for GET /nothing/here",
    }
    response = client.post("/pets/1")
    assert response.status_code == 405
    assert response.headers["allow"] == "DELETE, GET, PATCH, PUT"
    assert httpx.get(client.base_url.copy_with(path="/v2/pets")).status_code == 404


@pytest.mark.parametrize(
    ("body", "headers", "status", "message"),
    [
        (b'{"name": "X", "pet_name": "Y"}', {}, 400, "unknown field 'pet_name' in Pet"),
        (b'{"status": "available"}', {}, 400, "name must be a string of 1 to 100 characters"),
        (
            b'{"name": "X", "status": "lost"}',
            {},
            400,
            "status must be one of available, pending, sold; got 'lost'",
        ),
        (b"{not json", {}, 400, "request body is not valid JSON"),
        (
            b"name=X",
            {"Content-Type": "application/x-www-form-urlencoded"},
            415,
            "Content-Type must be application/json; got 'application/x-www-form-urlencoded'",
        ),
    ],
)
def test_invalid_pet_bodies_are_rejected(
    client: httpx.Client, body: bytes, headers: dict[str, str], status: int, message: str
) -> None:
    response = client.post(
        "/pets", content=body, headers={"Content-Type": "application/json", **headers}
    )
    assert (response.status_code, response.json()) == (status, {"code": status, "message": message})


def test_x_request_id_is_echoed(client: httpx.Client) -> None:
    assert (
        client.get("/pets/1", headers={"X-Request-ID": "trace-7"}).headers["x-request-id"]
        == "trace-7"
    )


# --- data behaviour -------------------------------------------------------------------------


def test_create_get_delete_round_trip(client: httpx.Client) -> None:
    created = client.post("/pets", json={"id": 99, "name": "Biscuit", "tags": [{"name": "demo"}]})
    assert created.status_code == 201
    assert created.headers["location"] == "/v1/pets/6"
    pet = {
        "id": 6,
        "name": "Biscuit",
        "tags": [{"name": "demo"}],
        "status": "available",
        "birthDate": None,
        "notes": None,
        "photoUrls": [],
    }
    assert created.json() == pet  # the read-only id in the body is ignored
    assert client.get("/pets/6").json() == pet
    deleted = client.delete("/pets/6")
    assert (deleted.status_code, deleted.content) == (204, b"")
    assert "content-type" not in deleted.headers
    assert client.get("/pets/6").status_code == 404


def test_put_replaces_and_patch_merges(client: httpx.Client) -> None:
    replaced = client.put("/pets/1", json={"name": "Rex II", "notes": "new owner"})
    assert replaced.json() == {
        "id": 1,
        "name": "Rex II",
        "tags": [],
        "status": "available",
        "birthDate": None,
        "notes": "new owner",
        "photoUrls": [],
    }
    patched = client.patch("/pets/1", json={"status": "sold", "notes": None})
    assert (patched.json()["name"], patched.json()["status"], patched.json()["notes"]) == (
        "Rex II",
        "sold",
        None,
    )
    assert client.patch("/pets/1", json={}).json()["message"].startswith("nothing to update")


def test_list_pets_filters_by_exploded_status_and_limit(client: httpx.Client) -> None:
    assert names(client.get("/pets")) == ["Rex", "Whiskers", "Bubbles", "Tweety", "Luna"]
    assert names(client.get("/pets?status=pending&status=sold")) == ["Bubbles", "Tweety"]
    assert names(client.get("/pets?limit=2")) == ["Rex", "Whiskers"]
    # explode=true means repeated parameters; a comma-joined value is not a status
    assert client.get("/pets?status=pending,sold").status_code == 400
    assert client.get("/pets?limit=101").json() == {
        "code": 400,
        "message": "limit must be at least 1 and at most 100; got 101",
    }
    assert client.get("/pets?limit=two").status_code == 400


def test_find_by_status_and_tags(client: httpx.Client) -> None:
    assert names(client.get("/pets/findByStatus?status=available")) == ["Rex", "Whiskers", "Luna"]
    assert client.get("/pets/findByStatus").status_code == 400
    assert names(client.get("/pets/findByTags?tags=friendly&tags=indoor")) == [
        "Rex",
        "Whiskers",
        "Tweety",
        "Luna",
    ]
    assert names(client.get("/pets/findByTags?tags=friendly&tags=indoor&matchAll=true")) == ["Luna"]
    assert client.get("/pets/findByTags?tags=x&matchAll=yes").status_code == 400


def test_order_lifecycle(client: httpx.Client) -> None:
    placed = client.post("/store/orders", json={"petId": 1, "quantity": 2, "status": "delivered"})
    assert placed.status_code == 201
    assert placed.json() == {
        "id": 3,
        "petId": 1,
        "quantity": 2,
        "shipDate": None,
        "status": "placed",
        "complete": False,
    }
    assert client.post("/store/orders/3/approve").json()["status"] == "approved"
    refused = client.post("/store/orders/3/approve")
    assert (refused.status_code, refused.json()["message"]) == (
        409,
        "order 3 is approved; only placed orders can be approved",
    )
    assert [order["id"] for order in client.get("/pets/1/orders").json()] == [3]
    assert [order["id"] for order in client.get("/store/orders?status=delivered").json()] == [1]
    assert client.post("/store/orders", json={"petId": 42}).status_code == 400
    assert client.delete("/store/orders/3").status_code == 204
    assert client.get("/store/orders/3").status_code == 404


def test_user_lifecycle(client: httpx.Client) -> None:
    user = {"username": "pat", "email": "pat@example.com", "firstName": "Pat"}
    created = client.post("/users", json=user)
    assert (created.status_code, created.json()) == (
        201,
        {
            "id": 3,
            "username": "pat",
            "firstName": "Pat",
            "email": "pat@example.com",
            "phone": None,
            "userStatus": 0,
        },
    )
    assert client.post("/users", json=user).status_code == 409
    assert (
        client.put("/users/pat", json={"username": "other", "email": "o@example.com"}).status_code
        == 400
    )
    updated = client.put(
        "/users/pat", json={"username": "pat", "email": "new@example.com", "userStatus": 1}
    )
    assert updated.json() == {
        "id": 3,
        "username": "pat",
        "email": "new@example.com",
        "phone": None,
        "userStatus": 1,
    }
    many = client.post(
        "/users/createWithList",
        json=[
            {"username": "ann", "email": "a@example.com"},
            {"username": "bob", "email": "b@example.com"},
        ],
    )
    assert [u["id"] for u in many.json()] == [4, 5]
    assert client.delete("/users/pat").status_code == 204
    assert client.get("/users/pat").status_code == 404


# --- HTTP/1.1 -------------------------------------------------------------------------------


def test_keep_alive_serves_many_replies_on_one_connection(fake_petstore: Any) -> None:
    port = int(fake_petstore.base_url.split(":")[2].split("/")[0])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        statuses = []
        sock = None
        for method, path, headers in [
            ("GET", "/v1/pets/1", {"X-API-Key": KEY}),
            ("DELETE", "/v1/pets/2", {"X-API-Key": KEY}),
            ("GET", "/v1/pets/2", {"X-API-Key": KEY}),
            ("GET", "/v1/pets", {}),
            ("POST", "/v1/pets", {"X-API-Key": KEY, "Content-Type": "application/json"}),
        ]:
            body = b'{"name": "Max"}' if method == "POST" else None
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
            assert response.getheader("Connection") is None
            sock = sock or connection.sock
            assert connection.sock is sock  # http.client drops the socket when the server closes
        assert statuses == [200, 204, 404, 401, 201]
    finally:
        connection.close()


def test_stop_closes_idle_keep_alive_connections() -> None:
    fake = fake_upstream.FakePetstore()
    fake.start()
    port = int(fake.base_url.split(":")[2].split("/")[0])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /v1/store/inventory HTTP/1.1\r\nHost: x\r\n\r\n")
        reply = b""
        while not reply.endswith(b"}"):
            reply += sock.recv(4096)
        assert reply.startswith(b"HTTP/1.1 200 OK\r\n")
        assert b"\r\nContent-Length: 41\r\n" in reply
        fake.stop()
        assert sock.recv(1) == b""


def test_standalone_prints_url_first_and_serves(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, str(PETSTORE_DIR / "fake_upstream.py"), "--api-key", "k-123", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
        assert httpx.get(url + "/pets/1", headers={"X-API-Key": "k-123"}).json() == REX
        assert httpx.get(url + "/pets/1", headers={"X-API-Key": KEY}).status_code == 401
    finally:
        process.terminate()
        process.wait(timeout=10)
        assert process.stdout is not None
        process.stdout.close()


# --- the demo client ------------------------------------------------------------------------

STAND_IN_SERVER = '''
"""Stands in for the generated server: the same names, calling the fake upstream with httpx."""
import json, os, sys
import httpx
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

BASE, KEY = os.environ["PETSTORE_BASE_URL"], os.environ["PETSTORE_API_KEY"]
server = MCPServer("petstore-mcp", version="1.0.0", title="Swagger Petstore")

def call(method, path, **kwargs):
    response = httpx.request(method, BASE + path, headers={"X-API-Key": KEY}, **kwargs)
    response.raise_for_status()
    return response.json()

@server.tool(title="List pets", annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True))
def list_pets(limit: int = 20) -> list[dict]:
    return call("GET", "/pets", params={"limit": limit})

if "no-create" not in sys.argv:
    @server.tool(title="Add a pet", annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False))
    def create_pet(body: dict) -> dict:
        return call("POST", "/pets", json=body)

@server.resource("petstore://pets/{petId}", mime_type="application/json")
def get_pet_by_id(petId: str) -> str:
    return json.dumps(call("GET", f"/pets/{petId}"))

server.run()
'''


def run_demo(tmp_path: Path, *server_args: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "stand_in_server.py"
    script.write_text(STAND_IN_SERVER, encoding="utf-8")
    command = shlex.join([sys.executable, str(script), *server_args])
    env = {**os.environ, "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, str(PETSTORE_DIR / "demo.py"), "--server-command", command],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_demo_shows_both_sides_of_each_call(tmp_path: Path) -> None:
    result = run_demo(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "\033[" not in out  # stdout is not a terminal: no colour
    assert "protocol       2026-07-28 (negotiated with server/discover)" in out
    assert "  list_pets   R - I  List pets\n" in out
    assert "  create_pet  - D -  Add a pet\n" in out
    assert '  arguments      {"limit": 3}\n' in out
    assert "    GET /v1/pets?limit=3  → 200\n      x-api-key: sk-…42\n" in out
    # create_pet takes the body as one argument here: the demo adapts to the input schema
    assert (
        '  arguments      {"body": {"name": "Biscuit", "status": "available", "tags": [{"name": "demo"}]}}'
        in out
    )
    assert (
        '    POST /v1/pets  → 201\n      content-type: application/json\n      x-api-key: sk-…42\n      {"name": "Biscuit"'
        in out
    )
    assert "  uri            petstore://pets/6\n" in out
    assert "    GET /v1/pets/6  → 200\n" in out
    assert KEY not in out
    *_, rule, summary = out.splitlines()
    assert rule == "── Summary " + "─" * 89  # COLUMNS=100
    assert (
        summary
        == "  ✓ all 6 steps passed: 2 tools, 0 resources, 1 template, 0 prompts; 3 upstream requests"
    )


def test_demo_exits_1_with_a_clear_message_when_a_tool_is_missing(tmp_path: Path) -> None:
    result = run_demo(tmp_path, "no-create")
    assert result.returncode == 1
    assert "✗ the server has no write tool the demo knows (looked for create_pet)" in result.stdout
    assert "✗ 1 of 6 steps failed: call a write tool" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_demo_exits_1_when_the_server_command_is_missing(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(PETSTORE_DIR / "demo.py"), "--server-command", "no-such-petstore-mcp"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "cannot find the server command 'no-such-petstore-mcp'" in result.stdout
    assert "Traceback" not in result.stderr


def load_demo() -> Any:
    if str(PETSTORE_DIR) not in sys.path:
        sys.path.insert(0, str(PETSTORE_DIR))
    return importlib.import_module("demo")


def test_demo_masks_secrets_and_expands_the_pet_template() -> None:
    demo = load_demo()
    assert demo.mask_secret("sk-demo-petstore-42") == "sk-…42"
    assert demo.mask_secret("short") == "…"
    assert demo._expand("petstore://pets/{petId}{?fields,expand}", 7) == "petstore://pets/7"
    assert demo._is_pet_template("petstore://pets/{pet_id}{?limit}")
    assert not demo._is_pet_template("petstore://pets/{petId}/orders{?limit}")


def test_demo_shapes_arguments_to_the_input_schema() -> None:
    demo = load_demo()
    values = {"name": "Biscuit", "status": "available"}
    flat = Tool(
        name="create_pet",
        input_schema={"type": "object", "properties": {"name": {}, "status": {}, "tags": {}}},
    )
    assert demo._arguments_for(flat, values) == values
    wrapped = Tool(
        name="create_pet",
        input_schema={
            "type": "object",
            "properties": {"X-Request-ID": {"type": "string"}, "pet": {"$ref": "#/$defs/Pet"}},
            "$defs": {"Pet": {"type": "object", "properties": {"name": {}, "status": {}}}},
        },
    )
    assert demo._arguments_for(wrapped, values) == {"pet": values}
    listing = Tool(name="list_pets", input_schema={"type": "object", "properties": {"status": {}}})
    assert demo._arguments_for(listing, {"limit": 3}) == {}


def test_demo_lays_out_json_to_fit_the_width() -> None:
    demo = load_demo()
    pets = [{"id": n, "name": "N" * 40, "status": "available", "notes": None} for n in range(3)]
    lines = demo.pretty_json(pets, max_lines=4, width=50)
    clipped = '  {"id": 0, "name": "' + "N" * 28 + "…"
    assert lines == ["[", clipped, clipped.replace("0", "1"), "… (2 more lines)"]
    assert len(clipped) == 50
    assert demo.pretty_json({"id": 1}, 10, 50) == ['{"id": 1}']
    assert demo.pretty_json("plain text", 10, 50) == ["plain text"]
