"""A path or query value that breaks only its document's pattern is the API's to judge.

Regression (Signal K 2.32): its documents give a resource's id the pattern
``^urn:mrn:signalk:uuid:…`` while the API issues, lists and takes plain UUIDs (and refuses a
``urn:`` id in a PUT): every read, change and delete of a route by the id the API gave was refused
before anything was sent. Such a value is now sent as given, and the result says that it breaks
the pattern; a body's field, or a value of the wrong type, is still refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.helpers import Served
from tests.runtime.upstream_kit import FakeApi

URN = "^urn:mrn:signalk:uuid:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$"
ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "pattern": URN}}
NAME = {"type": "string", "pattern": "^[a-z]+$"}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Routes", "version": "1"},
    "servers": [{"url": "https://routes.example"}],
    "paths": {
        "/resources/routes/{id}": {
            "put": {
                "operationId": "putRoute",
                "parameters": [ID, {"name": "provider", "in": "query", "schema": NAME}],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"name": NAME, "points": {"type": "integer"}},
                            }
                        }
                    },
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}
UUID = "eaa098b5-3b5c-4c9b-9f62-2d3f1a7c9e10"


def _texts(result: dict[str, Any]) -> list[str]:
    return [block["text"] for block in result["content"] if block["type"] == "text"]


async def test_an_id_the_api_gave_is_sent_though_it_breaks_the_documents_pattern(
    served: Served,
) -> None:
    result = await served.call("put_route", {"id": UUID, "provider": "Default", "points": 3})
    assert "isError" not in result, result
    [sent] = served.api.requests
    assert (sent.method, sent.target) == ("PUT", f"/resources/routes/{UUID}?provider=Default")
    assert json.loads(sent.body) == {"points": 3}
    assert _texts(result)[-1] == (
        f'[Sent as given, though its document\'s pattern says otherwise (id: "{UUID}" does not'
        f' match "{URN}"; provider: "Default" does not match "^[a-z]+$"); the API judges the'
        " values it takes.]"
    )


async def test_a_body_field_or_a_wrong_type_is_still_refused(served: Served) -> None:
    refused = await served.call("put_route", {"id": UUID, "name": "Harbour Run"})
    assert refused["isError"] is True
    assert _texts(refused) == [
        'Invalid arguments for tool \'put_route\':\n- name: "Harbour Run" does not match "^[a-z]+$"'
    ]
    typed = await served.call("put_route", {"id": 7})
    assert typed["isError"] is True
    assert _texts(typed) == [
        "Invalid arguments for tool 'put_route':\n- id: 7 is not of type \"string\""
    ]
    assert served.api.requests == []


def _get(operation_id: str, *parameters: dict[str, Any]) -> dict[str, Any]:
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": {}}}}}
    return {"get": {"operationId": operation_id, "parameters": list(parameters), "responses": ok}}


async def test_of_two_templates_a_uri_fits_the_more_literal_one_reads_it(
    tmp_path: Path, api: FakeApi
) -> None:
    # Signal K: /resources/routes/_providers lists the providers of routes; it fits the route
    # template /resources/routes/{id} too, listed first, and was read as the route "_providers"
    kind = {"name": "resourceType", "in": "path", "required": True, "schema": {"type": "string"}}
    plain = {**ID, "schema": {"type": "string"}}
    # what tells the two apart here: a route is read in a format the read must name
    fmt = {"name": "format", "in": "query", "required": True, "schema": {"type": "string"}}
    document = {
        **SPEC,
        "paths": {
            "/resources/routes/{id}": _get("getRoute", plain, fmt),
            "/resources/{resourceType}/_providers": _get("getProviders", kind),
        },
    }
    served = Served(tmp_path, api, document)
    try:
        read = await served.ask("resources/read", {"uri": "routes://resources/routes/_providers"})
        assert "error" not in read, read
        other = await served.ask(
            "resources/read", {"uri": "routes://resources/routes/r1?format=json"}
        )
        assert "error" not in other, other
    finally:
        await served.server.aclose()
    assert [r.target for r in api.requests] == [
        "/resources/routes/_providers",
        "/resources/routes/r1?format=json",
    ]
    assert read["contents"][0]["uri"] == "routes://resources/routes/_providers"
