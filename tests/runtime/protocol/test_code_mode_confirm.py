"""Code mode and the user's confirmation: a call that needs a yes never reaches the API without it,
and a call that did is never sent twice.

``<PREFIX>_CONFIRM=destructive`` makes every call that is not read-only ask first. On 2026-07-28 a
program that reaches such a call ends with ``input_required``; the test plays the client, answering
and retrying the same ``tools/call`` with the ``requestState``, and the program runs again with the
calls it made before answered from its journal. A legacy session is asked in the middle of the call.
The fake API records every call that reached it.
"""

from __future__ import annotations

import base64
from typing import Any

from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.dispatch import Dispatcher
from templates.runtime.upstream.client import UpstreamResponse
from tests.runtime.protocol.test_code_mode import (
    FORM,
    Api,
    legacy_session,
    pets_catalog,
    request,
    run,
    serve,
    texts,
)

CONFIRM = {"REL_CONFIRM": "destructive"}
DELETES = """\
pets = await list_pets()
answer = await delete_pet(id=pets[-1]["id"])
print("deleted", pets[-1]["name"], "-", answer)
len(await list_pets())
"""


def yes(confirm: bool = True) -> dict[str, Any]:
    return {"confirm": {"action": "accept", "content": {"confirm": confirm}}}


def question(message: str) -> dict[str, Any]:
    """The confirmation ``interaction`` asks for a call (its label is between the parentheses)."""
    label = message[message.index("(") + 1 : message.index(")")]
    field = {
        "type": "boolean",
        "title": "Allow this call",
        "description": f"Yes sends {label} to the API.",
    }
    requested = {"type": "object", "properties": {"confirm": field}, "required": ["confirm"]}
    params = {"message": message, "requestedSchema": requested}
    return {"confirm": {"method": "elicitation/create", "params": params}}


async def answer(
    dispatcher: Dispatcher, code: str, asked: dict[str, Any], responses: dict[str, Any], **opts: Any
) -> dict[str, Any]:
    """The retry of ``asked`` (an ``input_required`` result) with ``responses``."""
    retry = {"inputResponses": responses, "requestState": asked["requestState"]}
    return await run(dispatcher, code, capabilities=FORM, params=retry, **opts)


async def test_the_program_pauses_for_a_yes_and_the_retry_repeats_no_call() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    asked = await run(dispatcher, DELETES, capabilities=FORM)
    assert asked["resultType"] == "input_required"
    assert asked["inputRequests"] == question("Allow delete_pet (DELETE /pets/{id}) with id=2?")
    assert "ttlMs" not in asked and "cacheScope" not in asked
    assert api.calls == [("list_pets", {})]
    done = await answer(dispatcher, DELETES, asked, yes())
    assert done["resultType"] == "complete" and "isError" not in done
    assert texts(done) == ["deleted Tom - HTTP 204 No Content\n", "2"]
    # the first list_pets was answered from the journal: it reached the API once
    assert api.calls == [("list_pets", {}), ("delete_pet", {"id": 2}), ("list_pets", {})]


def _unconfirmed_create() -> Catalog:
    cat = pets_catalog()
    cat["toolBindings"]["create_pet"]["interaction"] = {"confirm": "off"}
    return cat


async def test_a_write_made_before_the_question_is_not_sent_again() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM, _unconfirmed_create())
    code = "kit = await create_pet(name='Kit')\nawait delete_pet(id=1)\nkit['id']"
    asked = await run(dispatcher, code, capabilities=FORM)
    assert asked["resultType"] == "input_required"
    done = await answer(dispatcher, code, asked, yes())
    assert texts(done) == ["3"]
    assert api.calls == [("create_pet", {"name": "Kit"}), ("delete_pet", {"id": 1})]


async def test_each_destructive_call_is_asked_in_its_own_round() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    code = "a = await create_pet(name='Kit')\nb = await delete_pet(id=1)\n[a['name'], b]"
    first = await run(dispatcher, code, capabilities=FORM)
    assert first["inputRequests"] == question("Allow create_pet (POST /pets) with name=Kit?")
    second = await answer(dispatcher, code, first, yes())
    assert second["inputRequests"] == question("Allow delete_pet (DELETE /pets/{id}) with id=1?")
    assert api.calls == [("create_pet", {"name": "Kit"})]
    done = await answer(dispatcher, code, second, yes())
    assert texts(done) == ['["Kit","HTTP 204 No Content"]']
    assert api.calls == [("create_pet", {"name": "Kit"}), ("delete_pet", {"id": 1})]


async def test_calls_gathered_at_once_are_asked_one_after_the_other() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    code = "import asyncio\nawait asyncio.gather(delete_pet(id=1), delete_pet(id=2))"
    first = await run(dispatcher, code, capabilities=FORM)
    assert first["inputRequests"] == question("Allow delete_pet (DELETE /pets/{id}) with id=1?")
    second = await answer(dispatcher, code, first, yes())
    assert second["inputRequests"] == question("Allow delete_pet (DELETE /pets/{id}) with id=2?")
    done = await answer(dispatcher, code, second, yes())
    assert texts(done) == ['["HTTP 204 No Content","HTTP 204 No Content"]']
    assert api.calls == [("delete_pet", {"id": 1}), ("delete_pet", {"id": 2})]


async def test_a_no_raises_permission_error_and_sends_nothing() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    code = (
        "try:\n    await delete_pet(id=1)\nexcept PermissionError as error:\n"
        "    print(error)\n'still here'"
    )
    asked = await run(dispatcher, code, capabilities=FORM)
    done = await answer(dispatcher, code, asked, yes(False))
    assert texts(done) == [
        "delete_pet: The user did not allow delete_pet (DELETE /pets/{id}); nothing was sent.\n",
        '"still here"',
    ]
    assert api.calls == []


async def test_answers_without_the_state_do_not_count() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    asked = await run(dispatcher, DELETES, capabilities=FORM, params={"inputResponses": yes()})
    assert asked["resultType"] == "input_required"
    assert api.calls == [("list_pets", {})]


async def test_a_state_that_does_not_verify_is_refused_with_nothing_sent() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    asked = await run(dispatcher, DELETES, capabilities=FORM, subject="alice")
    state: str = asked["requestState"]
    api.calls.clear()
    cases = [
        (DELETES, state[:-4] + "AAAA", "alice", "requestState failed its integrity check"),
        ("await delete_pet(id=1)", state, "alice", "requestState was issued for other arguments"),
        (DELETES, state, "bob", "requestState was issued to another caller"),
    ]
    for code, sealed, subject, says in cases:
        params = {
            "name": "run_code",
            "arguments": {"code": code},
            "inputResponses": yes(),
            "requestState": sealed,
        }
        reply = await request(dispatcher, "tools/call", params, capabilities=FORM, subject=subject)
        assert reply["error"] == {"code": -32602, "message": f"Invalid requestState: {says}"}
    assert api.calls == []


async def test_a_program_that_calls_differently_when_run_again_is_stopped() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    code = "import random\nawait delete_pet(id=random.randint(1, 10**12))"
    asked = await run(dispatcher, code, capabilities=FORM)
    done = await answer(dispatcher, code, asked, yes())
    assert done["isError"]
    assert texts(done) == [
        "Run again with the user's answer, the program made a different call 1 (delete_pet) "
        "than before; a program runs again from the start after each answer, so it must make "
        "the same calls in the same order. Nothing more was sent."
    ]
    assert api.calls == []


async def test_without_the_elicitation_capability_the_call_is_refused() -> None:
    api = Api()
    result = await run(serve(api, CONFIRM), "await list_pets()\nawait delete_pet(id=1)")
    assert result["isError"]
    assert texts(result)[0].endswith(
        "PermissionError: delete_pet: delete_pet (DELETE /pets/{id}) needs the user's input, "
        "and this client cannot be asked (it did not declare the elicitation capability); "
        "nothing was sent."
    )
    assert api.calls == [("list_pets", {})]


async def test_a_journal_too_big_for_the_state_reads_again_but_never_writes_again() -> None:
    api = Api()
    api.replies["list_pets"] = UpstreamResponse(
        200, "OK", "application/json", b'[{"id":2,"name":"' + b"x" * 60_000 + b'"}]', "u"
    )
    dispatcher = serve(api, CONFIRM, _unconfirmed_create())
    code = "await create_pet(name='Kit')\npets = await list_pets()\nawait delete_pet(id=2)\n'ok'"
    asked = await run(dispatcher, code, capabilities=FORM)
    assert len(asked["requestState"]) < 64 * 1024
    done = await answer(dispatcher, code, asked, yes())
    assert texts(done) == ['"ok"']
    assert api.calls == [
        ("create_pet", {"name": "Kit"}),
        ("list_pets", {}),
        ("list_pets", {}),  # read-only, dropped from the journal: read again
        ("delete_pet", {"id": 2}),
    ]


async def test_a_legacy_session_is_asked_in_the_middle_of_the_call() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    session = await legacy_session(dispatcher, {"elicitation": {}})
    asked: list[tuple[str, Any]] = []

    async def ask(method: str, params: dict[str, Any]) -> dict[str, Any]:
        asked.append((method, params["message"]))
        return {"action": "accept", "content": {"confirm": True}}

    result = await run(dispatcher, DELETES, session=session, ask=ask)
    assert result == {
        "content": [
            {"type": "text", "text": "deleted Tom - HTTP 204 No Content\n"},
            {"type": "text", "text": "2"},
        ]
    }
    assert asked == [("elicitation/create", "Allow delete_pet (DELETE /pets/{id}) with id=2?")]
    assert api.calls == [("list_pets", {}), ("delete_pet", {"id": 2}), ("list_pets", {})]


async def test_the_journal_in_the_state_is_sealed_so_the_client_cannot_read_it() -> None:
    api = Api()
    dispatcher = serve(api, CONFIRM)
    asked = await run(dispatcher, DELETES, capabilities=FORM)
    state: str = asked["requestState"]
    # what list_pets answered (Tom, the pet about to be deleted) is the program's, not the client's
    version, _, body = state.partition(".")
    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    assert version == "v2"
    assert b"Tom" not in raw and b"list_pets" not in raw
    # and the sealed state still carries the journal: the retry does not list the pets again
    done = await answer(dispatcher, DELETES, asked, yes())
    assert texts(done) == ["deleted Tom - HTTP 204 No Content\n", "2"]
    assert api.calls == [("list_pets", {}), ("delete_pet", {"id": 2}), ("list_pets", {})]
