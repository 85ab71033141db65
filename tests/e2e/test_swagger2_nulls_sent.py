"""A null given for an optional property of a Swagger 2.0 document reaches the API.

Regression (PostgREST 12): a nullable column could not be cleared (``price: null`` was refused
locally, Swagger 2.0 having no way to say null is allowed). The tool now takes null for an optional
property, and the null is sent in the JSON body, flattened or whole; a property left out is still
left out.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_request_encodings import Probe
from tests.runtime.upstream_kit import FakeApi

BOOK: dict[str, Any] = {
    "required": ["id", "title"],
    "properties": {
        "id": {"format": "integer", "type": "integer"},
        "title": {"format": "text", "type": "string"},
        "price": {"format": "numeric", "type": "number"},
        "gift": {"format": "boolean", "type": "boolean"},
    },
    "type": "object",
}
BODY = {"name": "books", "in": "body", "required": False, "schema": {"$ref": "#/definitions/books"}}
SWAGGER: dict[str, Any] = {
    "swagger": "2.0",
    "info": {"title": "PostgREST API", "version": "12.0.2"},
    "host": "db.example",
    "basePath": "/",
    "schemes": ["https"],
    "consumes": ["application/json"],
    "produces": ["application/json"],
    "paths": {
        "/books": {
            "post": {
                "tags": ["books"],
                "parameters": [BODY],
                "responses": {"201": {"description": "Created"}},
            },
            "patch": {
                "tags": ["books"],
                "parameters": [
                    {"name": "id", "in": "query", "required": False, "type": "string"},
                    BODY,
                ],
                "responses": {"204": {"description": "No Content"}},
            },
        }
    },
    "definitions": {"books": BOOK},
}


@pytest.fixture
async def probe(tmp_path: Path, api: FakeApi) -> AsyncIterator[Probe]:
    served = Probe(tmp_path, SWAGGER, api)
    yield served
    await served.server.aclose()


async def test_a_null_for_a_flattened_property_is_sent(probe: Probe) -> None:
    result = await probe.call("post_books", {"id": 1, "title": "Dune", "price": None})
    assert "isError" not in result, result
    [request] = probe.api.requests
    assert request.body == b'{"id":1,"title":"Dune","price":null}'


async def test_a_null_in_a_patch_body_is_sent(probe: Probe) -> None:
    # the PATCH takes the POST's definition: flattened, its id named apart from the row filter's
    fields = {"body_id": 1, "title": "Dune", "price": None, "gift": None}
    result = await probe.call("patch_books", {"id": "eq.1", **fields})
    assert "isError" not in result, result
    [request] = probe.api.requests
    assert (request.target, request.body) == (
        "/books?id=eq.1",
        b'{"id":1,"title":"Dune","price":null,"gift":null}',
    )


async def test_a_required_property_still_refuses_null(probe: Probe) -> None:
    result = await probe.call("post_books", {"id": 1, "title": None})
    assert result["isError"] is True
    assert not probe.api.requests
