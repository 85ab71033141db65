"""A string parameter that holds JSON text takes the object it describes.

Regression (TiTiler 2.4): its ``colormap`` query parameter is a string, "JSON encoded custom
Colormap"; a model passes the colour map itself, an object, and the call was refused as "not of
type string". An object or array given for a parameter whose schema or words say it holds JSON is
now sent as its compact JSON text; JSON text given as a string goes as it is, and an object given
for any other string parameter is still refused.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Served

NULLABLE_STRING = {"anyOf": [{"type": "string"}, {"type": "null"}]}
SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Tiles", "version": "1"},
    "servers": [{"url": "https://tiles.example"}],
    "paths": {
        "/colormap": {
            "get": {
                "operationId": "colormap",
                "parameters": [
                    {
                        "name": "colormap",
                        "in": "query",
                        "schema": {
                            **NULLABLE_STRING,
                            "description": "JSON encoded custom Colormap",
                        },
                    },
                    {
                        "name": "X-Filter",
                        "in": "header",
                        "schema": {"type": "string", "contentMediaType": "application/json"},
                    },
                    {"name": "name", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}


async def test_an_object_goes_as_the_json_text_the_parameter_holds(served: Served) -> None:
    colours = {"0": "#000000", "255": "#ffffff"}
    result = await served.call("colormap", {"colormap": colours, "X-Filter": ["a", "é"]})
    assert result.get("isError") is None, result
    [request] = served.api.requests
    assert request.target == (
        "/colormap?colormap=%7B%220%22%3A%22%23000000%22%2C%22255%22%3A%22%23ffffff%22%7D"
    )
    assert request.header_bytes("X-Filter") == '["a","é"]'.encode()


async def test_json_text_goes_as_it_is(served: Served) -> None:
    result = await served.call("colormap", {"colormap": '{"0": "#000000"}'})
    assert result.get("isError") is None, result
    [request] = served.api.requests
    assert request.query == [("colormap", '{"0": "#000000"}')]


async def test_an_object_for_another_string_is_refused(served: Served) -> None:
    result = await served.call("colormap", {"name": {"first": "a"}})
    assert result["isError"] is True
    assert result["content"][0]["text"] == (
        'Invalid arguments for tool \'colormap\':\n- name: {"first":"a"} is not of type "string"'
    )
    assert served.api.requests == []
