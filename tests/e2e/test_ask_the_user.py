"""Asking the user, end to end: the official MCP client's elicitation callback against a generated server.

The Petstore sample is generated with an overlay (``specs/petstore-ask-overlay.yaml``) that makes
``delete_pet`` need the user's yes and gives ``list_pets`` the owner's own question. The same client
callback answers in both eras: 2026-07-28 (the client drives ``input_required`` rounds) and 2025-11-25
(the server sends ``elicitation/create`` over stdio, or on the request's SSE stream over HTTP). The
fake Petstore on 127.0.0.1 records what reached the API.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp import Client

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.conftest import PETSTORE_SPEC, fake_petstore_module
from tests.e2e.helpers import server_env, stdio_params
from tests.kit.meta import CLIENT_CAPABILITIES, meta
from tests.runtime.transports import kit as http_kit
from tests.runtime.transports.kit import ServerProcess

OVERLAY = Path(__file__).parent / "specs" / "petstore-ask-overlay.yaml"
ERAS = ["auto", "legacy"]


@pytest.fixture(scope="module")
def asking_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("asking") / "petstore-mcp"
    result = generate(str(PETSTORE_SPEC), GenerateOptions(overlays=(OVERLAY,)))
    write_tree(result.files, out, force=False, marker=MARKER)
    return out


class User:
    """The person behind the client: answers each question from a script, and remembers them."""

    def __init__(self, *answers: types.ElicitResult) -> None:
        self.answers = list(answers)
        self.questions: list[types.ElicitRequestParams] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.questions.append(params)
        return self.answers.pop(0)


def says(action: str = "accept", **content: Any) -> types.ElicitResult:
    return types.ElicitResult(action=action, content=content or None)  # type: ignore[arg-type]


@pytest.fixture
def stdio(asking_package: Path, fake_petstore: Any) -> Any:
    return stdio_params(asking_package, fake_petstore.base_url, fake_petstore.api_key)


@pytest.mark.parametrize("mode", ERAS)
async def test_a_missing_name_is_asked_for_and_sent(
    stdio: Any, fake_petstore: Any, mode: str
) -> None:
    user = User(says(name="Biscuit"))
    async with Client(stdio, mode=mode, elicitation_callback=user) as client:
        fake_petstore.clear()
        result = await client.call_tool("create_pet", {"status": "available"})
    assert not result.is_error, result
    (question,) = user.questions
    assert question.message == "Add a pet (POST /pets) needs: Name."
    schema = question.requested_schema
    assert schema["required"] == ["name"] and schema["properties"]["name"]["type"] == "string"
    (sent,) = fake_petstore.requests
    assert (sent.method, sent.raw_path) == ("POST", "/v1/pets")
    assert sent.json() == {"status": "available", "name": "Biscuit"}


@pytest.mark.parametrize("mode", ERAS)
async def test_a_declined_question_sends_nothing(stdio: Any, fake_petstore: Any, mode: str) -> None:
    user = User(says("decline"))
    async with Client(stdio, mode=mode, elicitation_callback=user) as client:
        fake_petstore.clear()
        result = await client.call_tool("create_pet", {})
    assert result.is_error
    assert "declined" in result.content[0].text  # type: ignore[union-attr]
    assert fake_petstore.requests == []


@pytest.mark.parametrize("mode", ERAS)
async def test_deleting_needs_an_explicit_yes(stdio: Any, fake_petstore: Any, mode: str) -> None:
    user = User(says(confirm=False), says(confirm=True))
    async with Client(stdio, mode=mode, elicitation_callback=user) as client:
        fake_petstore.clear()
        refused = await client.call_tool("delete_pet", {"petId": 1})
        assert refused.is_error and fake_petstore.requests == []
        allowed = await client.call_tool("delete_pet", {"petId": 1})
    assert not allowed.is_error, allowed
    assert [q.message for q in user.questions] == [
        "Allow Delete a pet (DELETE /pets/{petId}) with petId=1?"
    ] * 2
    (sent,) = fake_petstore.requests
    assert (sent.method, sent.raw_path) == ("DELETE", "/v1/pets/1")


@pytest.mark.parametrize("mode", ERAS)
async def test_without_the_capability_deleting_is_refused(
    stdio: Any, fake_petstore: Any, mode: str
) -> None:
    async with Client(stdio, mode=mode) as client:
        fake_petstore.clear()
        if mode == "auto":
            with pytest.raises(Exception, match="elicitation"):
                await client.call_tool("delete_pet", {"petId": 1})
        else:
            result = await client.call_tool("delete_pet", {"petId": 1})
            assert result.is_error
        missing = await client.call_tool("create_pet", {})
    assert missing.is_error and "name" in missing.content[0].text  # type: ignore[union-attr]
    assert fake_petstore.requests == []


@pytest.mark.parametrize("mode", ERAS)
async def test_the_owner_declared_question_fills_the_filter(
    stdio: Any, fake_petstore: Any, mode: str
) -> None:
    user = User(says(status=["sold", "pending"]))
    async with Client(stdio, mode=mode, elicitation_callback=user) as client:
        fake_petstore.clear()
        result = await client.call_tool("list_pets", {})
        assert not result.is_error, result
        given = await client.call_tool("list_pets", {"status": ["available"]})
        assert not given.is_error
    (question,) = user.questions  # asked once: the second call named its status itself
    assert question.message == "Which pets do you want to see?"
    first, second = fake_petstore.requests
    assert first.query_params == [("status", "sold"), ("status", "pending")]
    assert second.query_params == [("status", "available")]


@pytest.fixture(scope="module")
def http_server(asking_package: Path) -> Iterator[tuple[ServerProcess, Any]]:
    with fake_petstore_module().FakePetstore() as fake:
        env = server_env(asking_package, fake.base_url, fake.api_key)
        server = ServerProcess(env)
        yield server, fake
        server.stop()


@pytest.mark.parametrize("mode", ERAS)
async def test_over_http_both_eras_ask_the_user(
    http_server: tuple[ServerProcess, Any], mode: str
) -> None:
    server, fake = http_server
    pet = ERAS.index(mode) + 2  # the fake lives for the module: each era deletes its own pet
    user = User(says(confirm=True))
    async with Client(server.url, mode=mode, elicitation_callback=user) as client:
        fake.clear()
        result = await client.call_tool("delete_pet", {"petId": pet})
    assert not result.is_error, result
    assert len(user.questions) == 1
    (sent,) = fake.requests
    assert (sent.method, sent.raw_path) == ("DELETE", f"/v1/pets/{pet}")


SECRET = "replicas-share-this-state-secret"
TOKENS = "alice-token-0123456789,bob-token-0123456789ab"
FORM = {"elicitation": {}}


def ask_call(request_id: int, **extra: Any) -> dict[str, Any]:
    envelope = meta("http-test", **{CLIENT_CAPABILITIES: FORM})
    params = {"_meta": envelope, "name": "create_pet", "arguments": {"status": "sold"}, **extra}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


async def post(url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = http_kit.modern_headers("tools/call", "create_pet")
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    async with httpx.AsyncClient(timeout=20) as client:
        response = await client.post(url, json=body, headers=headers)
    return response.json()


@pytest.fixture(scope="module")
def replicas(asking_package: Path) -> Iterator[tuple[list[ServerProcess], Any]]:
    """Three server processes on one fake Petstore: two share the secret, the third has its own."""
    with fake_petstore_module().FakePetstore() as fake:
        secrets = [SECRET, SECRET, "another-replica-another-secret"]
        servers = []
        try:
            for secret in secrets:
                env = http_kit.server_env(
                    asking_package,
                    fake.base_url,
                    fake.api_key,
                    PETSTORE_STATE_SECRET=secret,
                    PETSTORE_AUTH_TOKENS=TOKENS,
                )
                servers.append(ServerProcess(env))
            yield servers, fake
        finally:
            for server in servers:
                server.stop()


async def test_a_retry_served_by_another_process_completes(
    replicas: tuple[list[ServerProcess], Any],
) -> None:
    (first, second, stranger), fake = replicas
    alice, bob = TOKENS.split(",")
    asked = await post(first.url, ask_call(1), alice)
    state = asked["result"]["requestState"]
    answer = {"missing_arguments": {"action": "accept", "content": {"name": "Nova"}}}
    fake.clear()
    # another secret: the state does not verify; another caller: it was not issued to them
    refused = await post(
        stranger.url, ask_call(2, inputResponses=answer, requestState=state), alice
    )
    assert refused["error"]["code"] == -32602
    stolen = await post(second.url, ask_call(3, inputResponses=answer, requestState=state), bob)
    assert stolen["error"]["message"].endswith("issued to another caller")
    assert fake.requests == []
    done = await post(second.url, ask_call(4, inputResponses=answer, requestState=state), alice)
    assert done["result"]["resultType"] == "complete" and "isError" not in done["result"]
    (sent,) = fake.requests
    assert sent.json() == {"status": "sold", "name": "Nova"}
