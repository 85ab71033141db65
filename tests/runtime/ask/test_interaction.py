"""Asking the user (issue: multi round-trip elicitation): the dispatcher in process, raw JSON-RPC.

Each test plays a 2026-07-28 client: a ``tools/call`` (or ``prompts/get``) answered ``input_required``,
then the retry with ``inputResponses`` and the echoed ``requestState``; the fake upstream records
what reached the API (nothing, unless the user agreed).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

import pytest

from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.dispatch import Dispatcher, LegacySession
from templates.runtime.protocol.request_state import StateSigner
from templates.runtime.upstream.client import UpstreamResponse
from tests.kit.meta import CLIENT_CAPABILITIES
from tests.runtime.conftest import CATALOG, META

CREATED = UpstreamResponse(201, "Created", "application/json", b'{"id":3,"name":"Kit"}', "u")
DELETED = UpstreamResponse(204, "No Content", "", b"", "u")
FORM = {"elicitation": {}}
SECRET = b"a shared secret of the replicas"


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        self.calls.append((operation, dict(arguments)))
        return DELETED if operation == "deletePet" else CREATED


async def ignore(message: dict[str, Any]) -> None:
    return None


def catalog(**bindings: dict[str, Any]) -> Catalog:
    data = copy.deepcopy(CATALOG)
    for name, interaction in bindings.items():
        data["toolBindings"][name]["interaction"] = interaction
    return data  # type: ignore[no-any-return]


def server(
    recorder: Recorder, data: Catalog | None = None, *, secret: bytes = SECRET, **options: Any
) -> Dispatcher:
    signer = StateSigner(secret)
    return Dispatcher(data or catalog(), recorder, state_signer=signer, **options)


def call(
    name: str,
    arguments: dict[str, Any],
    capabilities: dict[str, Any] | None = None,
    request_id: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    envelope = {**META, CLIENT_CAPABILITIES: capabilities or {}}
    params = {"_meta": envelope, "name": name, "arguments": arguments, **extra}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


async def send(dispatcher: Dispatcher, message: dict[str, Any], subject: str | None = None) -> Any:
    reply = await dispatcher.handle(message, None, ignore, subject=subject)
    assert reply is not None
    return reply


def text(reply: dict[str, Any]) -> str:
    return "".join(block["text"] for block in reply["result"]["content"])


def accept(**content: Any) -> dict[str, Any]:
    return {"action": "accept", "content": content}


# -- missing required arguments ---------------------------------------------------------------


async def test_missing_required_argument_is_asked_for_in_one_form() -> None:
    recorder = Recorder()
    reply = await send(server(recorder), call("create_pet", {"species": "cat"}, FORM))
    result = reply["result"]
    assert result["resultType"] == "input_required"
    assert "ttlMs" not in result and "cacheScope" not in result
    assert result["inputRequests"] == {
        "missing_arguments": {
            "method": "elicitation/create",
            "params": {
                "message": "Create pet (POST /pets) needs: Name.",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"name": {"type": "string", "minLength": 1, "title": "Name"}},
                    "required": ["name"],
                },
            },
        }
    }
    assert isinstance(result["requestState"], str)
    assert recorder.calls == []


async def test_the_retry_merges_the_answer_and_calls_the_api() -> None:
    recorder = Recorder()
    dispatcher = server(recorder)
    first = await send(dispatcher, call("create_pet", {"species": "cat"}, FORM))
    state = first["result"]["requestState"]
    retry = call(
        "create_pet",
        {"species": "cat"},
        FORM,
        request_id=2,
        inputResponses={"missing_arguments": accept(name="Kit")},
        requestState=state,
    )
    reply = await send(dispatcher, retry)
    assert reply["id"] == 2
    assert reply["result"]["resultType"] == "complete"
    assert json.loads(text(reply)) == {"id": 3, "name": "Kit"}
    assert recorder.calls == [("createPet", {"species": "cat", "name": "Kit"})]


@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_declining_ends_the_call_with_an_error_and_nothing_upstream(action: str) -> None:
    recorder = Recorder()
    dispatcher = server(recorder)
    first = await send(dispatcher, call("create_pet", {}, FORM))
    retry = call(
        "create_pet",
        {},
        FORM,
        inputResponses={"missing_arguments": {"action": action}},
        requestState=first["result"]["requestState"],
    )
    reply = await send(dispatcher, retry)
    assert reply["result"]["isError"] is True
    assert "declined" in text(reply)
    assert recorder.calls == []


async def test_without_the_capability_the_validation_error_names_the_argument() -> None:
    recorder = Recorder()
    reply = await send(server(recorder), call("create_pet", {"species": "cat"}, {}))
    assert reply["result"]["isError"] is True
    assert "name" in text(reply) and "required" in text(reply)
    assert recorder.calls == []


async def test_url_only_elicitation_is_not_form_elicitation() -> None:
    reply = await send(server(Recorder()), call("create_pet", {}, {"elicitation": {"url": {}}}))
    assert reply["result"]["isError"] is True


async def test_missing_arguments_can_be_turned_off() -> None:
    reply = await send(server(Recorder(), elicit_missing=False), call("create_pet", {}, FORM))
    assert reply["result"]["isError"] is True


async def test_an_answer_that_breaks_the_form_is_invalid_params_and_nothing_upstream() -> None:
    recorder = Recorder()
    dispatcher = server(recorder)
    first = await send(dispatcher, call("create_pet", {}, FORM))
    retry = call(
        "create_pet",
        {},
        FORM,
        inputResponses={"missing_arguments": accept(name=7)},
        requestState=first["result"]["requestState"],
    )
    reply = await send(dispatcher, retry)
    assert reply["error"]["code"] == -32602
    assert "inputResponses.missing_arguments" in reply["error"]["message"]
    assert recorder.calls == []


@pytest.mark.parametrize("responses", [12345, "yes", ["accept"]])
async def test_malformed_input_responses_are_invalid_params(responses: Any) -> None:
    recorder = Recorder()
    retry = call("create_pet", {}, FORM, inputResponses={"missing_arguments": responses})
    reply = await send(server(recorder), retry)
    assert reply["error"]["code"] == -32602
    null = await send(server(recorder), call("create_pet", {}, FORM, inputResponses=None))
    assert null["error"]["code"] == -32602
    assert recorder.calls == []


async def test_wrong_keys_are_ignored_and_the_question_is_asked_again() -> None:
    retry = call("create_pet", {}, FORM, inputResponses={"other": accept(name="Kit")})
    reply = await send(server(Recorder()), retry)
    assert list(reply["result"]["inputRequests"]) == ["missing_arguments"]


async def test_secrets_are_never_asked_for() -> None:
    data = catalog()
    tool = next(t for t in data["tools"] if t["name"] == "create_pet")
    tool["inputSchema"]["properties"]["password"] = {"type": "string"}
    tool["inputSchema"]["required"] = ["name", "password"]
    recorder = Recorder()
    reply = await send(server(recorder, data), call("create_pet", {}, FORM))
    # one missing argument cannot be asked: no form at all, the model gets the validation error
    assert reply["result"]["isError"] is True
    assert "password" in text(reply)
    assert recorder.calls == []


# -- requestState -----------------------------------------------------------------------------


async def first_state(dispatcher: Dispatcher, subject: str | None = None) -> str:
    reply = await send(dispatcher, call("create_pet", {"species": "cat"}, FORM), subject)
    state: str = reply["result"]["requestState"]
    return state


def retry_with(state: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    return call(
        "create_pet",
        {"species": "cat"} if arguments is None else arguments,
        FORM,
        request_id=2,
        inputResponses={"missing_arguments": accept(name="Kit")},
        requestState=state,
    )


@pytest.mark.parametrize(
    "tamper",
    [
        lambda s: s + "-TAMPERED",
        lambda s: s[:-2] + ("AA" if not s.endswith("AA") else "BB"),
        lambda s: "v1." + s.split(".")[1][:-4] + "AAAA." + s.split(".")[2],
        lambda s: "v2." + s.partition(".")[2],
        lambda s: "garbage",
    ],
)
async def test_tampered_state_is_rejected_and_nothing_reaches_the_api(tamper: Any) -> None:
    recorder = Recorder()
    dispatcher = server(recorder)
    state = await first_state(dispatcher)
    reply = await send(dispatcher, retry_with(tamper(state)))
    assert reply["error"]["code"] == -32602
    assert "requestState" in reply["error"]["message"]
    assert recorder.calls == []


async def test_state_for_other_arguments_is_rejected() -> None:
    recorder = Recorder()
    dispatcher = server(recorder)
    state = await first_state(dispatcher)
    reply = await send(dispatcher, retry_with(state, {"species": "dog"}))
    assert reply["error"] == {
        "code": -32602,
        "message": "Invalid requestState: requestState was issued for other arguments",
    }
    assert recorder.calls == []


async def test_state_of_another_caller_is_rejected() -> None:
    recorder = Recorder()
    dispatcher = server(recorder)
    state = await first_state(dispatcher, subject="alice")
    reply = await send(dispatcher, retry_with(state), subject="mallory")
    assert reply["error"]["message"].endswith("issued to another caller")
    reply = await send(dispatcher, retry_with(state), subject="alice")
    assert reply["result"]["resultType"] == "complete"
    assert len(recorder.calls) == 1


async def test_expired_state_is_rejected() -> None:
    recorder = Recorder()
    now = [1_000_000.0]
    signer = StateSigner(SECRET, ttl_seconds=60, clock=lambda: now[0])
    dispatcher = Dispatcher(catalog(), recorder, state_signer=signer)
    state = await first_state(dispatcher)
    now[0] += 61
    reply = await send(dispatcher, retry_with(state))
    assert "expired" in reply["error"]["message"]
    assert recorder.calls == []


async def test_a_replica_with_the_same_secret_completes_the_retry() -> None:
    recorder = Recorder()
    state = await first_state(server(Recorder()))
    reply = await send(server(recorder), retry_with(state))
    assert reply["result"]["resultType"] == "complete"
    assert recorder.calls == [("createPet", {"species": "cat", "name": "Kit"})]


async def test_a_replica_with_another_secret_rejects_the_state() -> None:
    recorder = Recorder()
    state = await first_state(server(Recorder()))
    other = server(recorder, secret=b"another secret, another replica")
    reply = await send(other, retry_with(state))
    assert "integrity" in reply["error"]["message"]
    assert recorder.calls == []


# -- confirmation -----------------------------------------------------------------------------


async def confirm_round(dispatcher: Dispatcher) -> dict[str, Any]:
    reply = await send(dispatcher, call("delete_pet", {"petId": 42}, FORM))
    result: dict[str, Any] = reply["result"]
    return result


async def test_destructive_policy_asks_for_an_explicit_yes_naming_the_call() -> None:
    recorder = Recorder()
    result = await confirm_round(server(recorder, confirm_policy="destructive"))
    assert result["resultType"] == "input_required"
    request = result["inputRequests"]["confirm"]
    assert request["method"] == "elicitation/create"
    assert request["params"]["message"] == "Allow Delete pet (DELETE /pets/{petId}) with petId=42?"
    assert request["params"]["requestedSchema"]["properties"]["confirm"]["type"] == "boolean"
    assert request["params"]["requestedSchema"]["required"] == ["confirm"]
    assert recorder.calls == []


async def test_yes_calls_the_api_and_no_does_not() -> None:
    for answer, calls in ((True, 1), (False, 0)):
        recorder = Recorder()
        dispatcher = server(recorder, confirm_policy="destructive")
        state = (await confirm_round(dispatcher))["requestState"]
        retry = call(
            "delete_pet",
            {"petId": 42},
            FORM,
            inputResponses={"confirm": accept(confirm=answer)},
            requestState=state,
        )
        reply = await send(dispatcher, retry)
        assert len(recorder.calls) == calls
        assert reply["result"].get("isError", False) is (not answer)


async def test_a_confirmation_without_the_signed_state_does_not_count() -> None:
    recorder = Recorder()
    dispatcher = server(recorder, confirm_policy="destructive")
    forged = call(
        "delete_pet", {"petId": 42}, FORM, inputResponses={"confirm": accept(confirm=True)}
    )
    reply = await send(dispatcher, forged)
    assert reply["result"]["resultType"] == "input_required"
    assert recorder.calls == []


async def test_read_only_tools_are_not_confirmed_under_the_destructive_policy() -> None:
    recorder = Recorder()
    dispatcher = server(recorder, confirm_policy="destructive")
    reply = await send(dispatcher, call("list_pets", {}, FORM))
    assert reply["result"]["resultType"] == "complete"
    reply = await send(server(recorder, confirm_policy="all"), call("list_pets", {}, FORM))
    assert reply["result"]["resultType"] == "input_required"


async def test_required_confirmation_without_the_capability_is_32021() -> None:
    recorder = Recorder()
    dispatcher = server(recorder, confirm_policy="destructive")
    reply = await send(dispatcher, call("delete_pet", {"petId": 42}, {}))
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"] == {"requiredCapabilities": {"elicitation": {}}}
    assert recorder.calls == []


async def test_when_supported_proceeds_for_clients_that_cannot_ask() -> None:
    recorder = Recorder()
    dispatcher = server(recorder, confirm_policy="when-supported")
    reply = await send(dispatcher, call("delete_pet", {"petId": 42}, {}))
    assert reply["result"]["resultType"] == "complete"
    assert recorder.calls == [("deletePet", {"petId": 42})]
    asked = await send(dispatcher, call("delete_pet", {"petId": 42}, FORM))
    assert asked["result"]["resultType"] == "input_required"


async def test_per_tool_override_beats_the_policy() -> None:
    data = catalog(delete_pet={"confirm": "off"}, list_pets={"confirm": "required"})
    dispatcher = server(Recorder(), data, confirm_policy="destructive")
    assert (await confirm_round(dispatcher))["resultType"] == "complete"
    reply = await send(dispatcher, call("list_pets", {}, FORM))
    assert reply["result"]["resultType"] == "input_required"


async def test_invalid_arguments_are_refused_before_asking_for_a_yes() -> None:
    recorder = Recorder()
    dispatcher = server(recorder, confirm_policy="all")
    reply = await send(dispatcher, call("delete_pet", {"petId": "x"}, FORM))
    assert reply["result"]["isError"] is True
    assert recorder.calls == []


# -- declared questions -----------------------------------------------------------------------

NAME_QUESTION = {
    "key": "pet_name",
    "message": "What should the pet be called?",
    "fields": {"name": {"type": "string", "title": "Name"}},
    "mapsTo": "name",
}


async def test_declared_question_fills_its_argument() -> None:
    recorder = Recorder()
    dispatcher = server(recorder, catalog(create_pet={"ask": [NAME_QUESTION]}))
    first = await send(dispatcher, call("create_pet", {}, FORM))
    request = first["result"]["inputRequests"]["pet_name"]
    assert request["params"]["message"] == "What should the pet be called?"
    retry = call(
        "create_pet",
        {},
        FORM,
        inputResponses={"pet_name": accept(name="Kit"), "unrelated": accept(x=1)},
        requestState=first["result"]["requestState"],
    )
    assert (await send(dispatcher, retry))["result"]["resultType"] == "complete"
    assert recorder.calls == [("createPet", {"name": "Kit"})]


async def test_declared_question_is_skipped_when_the_model_gave_the_argument() -> None:
    recorder = Recorder()
    dispatcher = server(recorder, catalog(create_pet={"ask": [NAME_QUESTION]}))
    reply = await send(dispatcher, call("create_pet", {"name": "Rex"}, FORM))
    assert reply["result"]["resultType"] == "complete"


async def test_rounds_sampling_and_roots_follow_the_declaration_and_the_capabilities() -> None:
    asks = [
        {**NAME_QUESTION, "round": 1},
        {"key": "kind", "method": "sampling/createMessage", "prompt": "Species for {name}?",
         "mapsTo": "species", "round": 2},
    ]  # fmt: skip
    recorder = Recorder()
    dispatcher = server(recorder, catalog(create_pet={"ask": asks}))
    everything = {"elicitation": {}, "sampling": {}}
    first = await send(dispatcher, call("create_pet", {}, everything))
    assert list(first["result"]["inputRequests"]) == ["pet_name"]
    second = await send(
        dispatcher,
        call(
            "create_pet",
            {},
            everything,
            inputResponses={"pet_name": accept(name="Kit")},
            requestState=first["result"]["requestState"],
        ),
    )
    sampling = second["result"]["inputRequests"]["kind"]
    assert sampling == {
        "method": "sampling/createMessage",
        "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "Species for Kit?"}}],
            "maxTokens": 256,
        },
    }
    sampled = {"role": "assistant", "content": {"type": "text", "text": "cat"}, "model": "m"}
    third = await send(
        dispatcher,
        call(
            "create_pet",
            {},
            everything,
            inputResponses={"kind": sampled},
            requestState=second["result"]["requestState"],
        ),
    )
    assert third["result"]["resultType"] == "complete"
    assert recorder.calls == [("createPet", {"name": "Kit", "species": "cat"})]
    # a client with sampling only is asked only what sampling can answer
    only_sampling = await send(dispatcher, call("create_pet", {}, {"sampling": {}}))
    assert list(only_sampling["result"]["inputRequests"]) == ["kind"]


# -- prompts and legacy -----------------------------------------------------------------------


async def test_prompts_get_asks_for_missing_required_arguments() -> None:
    dispatcher = server(Recorder())
    envelope = {**META, CLIENT_CAPABILITIES: FORM}
    get = {"jsonrpc": "2.0", "id": 1, "method": "prompts/get"}
    first = await send(dispatcher, {**get, "params": {"_meta": envelope, "name": "adopt_pet"}})
    form = first["result"]["inputRequests"]["missing_arguments"]["params"]["requestedSchema"]
    assert form["required"] == ["species"]
    retry = {
        "_meta": envelope,
        "name": "adopt_pet",
        "inputResponses": {"missing_arguments": accept(species="parrot")},
        "requestState": first["result"]["requestState"],
    }
    reply = await send(dispatcher, {**get, "id": 2, "params": retry})
    assert reply["result"]["resultType"] == "complete"
    assert "parrot" in json.dumps(reply["result"]["messages"])


async def test_legacy_sessions_ask_through_a_server_request() -> None:
    recorder = Recorder()
    dispatcher = server(recorder, confirm_policy="destructive")
    session = LegacySession()
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": FORM, "clientInfo": {}},
    }
    await dispatcher.handle(init, session, ignore)
    asked: list[tuple[str, dict[str, Any]]] = []

    async def ask(method: str, params: dict[str, Any]) -> dict[str, Any]:
        asked.append((method, params))
        return accept(confirm=True)

    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    message["params"] = {"name": "delete_pet", "arguments": {"petId": 42}}
    reply = await dispatcher.handle(message, session, ignore, ask=ask)
    assert reply is not None and "isError" not in reply["result"]
    assert [method for method, _ in asked] == ["elicitation/create"]
    assert recorder.calls == [("deletePet", {"petId": 42})]
    # the transport cannot ask (no `ask`): a required confirmation is a tool error, not -32021
    refused = await dispatcher.handle(message, session, ignore)
    assert refused is not None and refused["result"]["isError"] is True
    assert len(recorder.calls) == 1


async def test_a_needed_question_the_client_cannot_answer_is_32021_naming_the_capability() -> None:
    needed = {"key": "kind", "method": "sampling/createMessage", "prompt": "Species?",
              "mapsTo": "species", "needed": True}  # fmt: skip
    recorder = Recorder()
    dispatcher = server(recorder, catalog(create_pet={"ask": [needed]}))
    reply = await send(dispatcher, call("create_pet", {"name": "Kit"}, FORM))
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"] == {"requiredCapabilities": {"sampling": {}}}
    given = await send(dispatcher, call("create_pet", {"name": "Kit", "species": "cat"}, {}))
    assert given["result"]["resultType"] == "complete"  # the model gave it: nothing to ask
    assert recorder.calls == [("createPet", {"name": "Kit", "species": "cat"})]
