"""The fields of a body that is one of several shapes, given as the tool's arguments, are its body.

Regression (Arize Phoenix 20): ``POST /v1/annotation_configs`` takes a ``oneOf`` of three
configurations, so the tool takes it whole as one argument, ``body``; a model wrote the fields as
arguments, as every other tool takes them, and the call was refused ("Additional properties are
not allowed … "body" is a required property"). Such fields are now gathered into ``body`` and the
body is judged as it would have been given so; a path parameter stays an argument.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Served

CONTINUOUS = {
    "type": "object",
    "required": ["name", "type"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "type": {"const": "CONTINUOUS"},
        "lower_bound": {"type": "number"},
    },
}
CATEGORICAL = {
    "type": "object",
    "required": ["name", "type", "values"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "type": {"const": "CATEGORICAL"},
        "values": {"type": "array", "items": {"type": "string"}},
    },
}
SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Annotations", "version": "1"},
    "servers": [{"url": "https://annotations.example"}],
    "paths": {
        "/projects/{project}/annotation_configs": {
            "post": {
                "operationId": "createAnnotationConfig",
                "parameters": [
                    {
                        "name": "project",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"oneOf": [CONTINUOUS, CATEGORICAL]}}
                    },
                },
                "responses": {"200": {"description": "made"}},
            }
        }
    },
}


async def test_fields_given_as_arguments_are_the_body(served: Served) -> None:
    arguments = {"project": "chat", "name": "latency_ok", "type": "CONTINUOUS", "lower_bound": 0}
    result = await served.call("create_annotation_config", arguments)
    assert result.get("isError") is None, result
    [request] = served.api.requests
    assert (request.method, request.target, request.body) == (
        "POST",
        "/projects/chat/annotation_configs",
        b'{"name":"latency_ok","type":"CONTINUOUS","lower_bound":0}',
    )


async def test_gathered_fields_are_judged_as_a_body(served: Served) -> None:
    arguments = {"project": "chat", "name": "tone", "type": "CATEGORICAL"}
    result = await served.call("create_annotation_config", arguments)
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith(
        "Invalid arguments for tool 'create_annotation_config':\n- body:"
    )
    assert served.api.requests == []


async def test_a_body_given_whole_goes_as_it_is(served: Served) -> None:
    body = {"name": "tone", "type": "CATEGORICAL", "values": ["calm", "rude"]}
    result = await served.call("create_annotation_config", {"project": "chat", "body": body})
    assert result.get("isError") is None, result
    assert [r.body for r in served.api.requests] == [
        b'{"name":"tone","type":"CATEGORICAL","values":["calm","rude"]}'
    ]
