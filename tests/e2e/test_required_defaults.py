"""A required query parameter with a documented default is optional, and its default is sent.

Regression (Netdata 1.37): ``GET /data`` declares ``after``, ``points``, ``group`` and ``format``
required, each with a default, and answers 200 to a call without them; ``get_data {"chart":
"system.cpu"}`` was refused before anything was sent ('"after" is a required property'), and so
was reading ``netdata://data?chart=system.cpu``. The tool now leaves them optional and a call
without one sends its default, so the API still receives every parameter it requires.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Served

SPEC: dict[str, Any] = {
    "openapi": "3.0.0",
    "info": {"title": "Metrics", "version": "1"},
    "servers": [{"url": "https://metrics.example/api/v1"}],
    "paths": {
        "/data": {
            "get": {
                "operationId": "getData",
                "parameters": [
                    {"name": "chart", "in": "query", "schema": {"type": "string"}},
                    {
                        "name": "after",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "number", "format": "integer", "default": -600},
                    },
                    {
                        "name": "format",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "enum": ["json", "csv"], "default": "json"},
                    },
                    {"name": "key", "in": "query", "required": True, "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "data"}},
            }
        }
    },
}


async def test_a_required_parameter_with_a_default_is_sent_its_default(served: Served) -> None:
    listed = await served.ask("tools/list", {})
    [tool] = listed["tools"]
    assert tool["inputSchema"]["required"] == ["key"]  # the one without a default
    result = await served.call("get_data", {"chart": "system.cpu", "key": "k"})
    assert result.get("isError") is None, result
    given = await served.call("get_data", {"key": "k", "after": -60, "format": "csv"})
    assert given.get("isError") is None, given
    assert [r.target for r in served.api.requests] == [
        "/data?chart=system.cpu&after=-600&format=json&key=k",
        "/data?after=-60&format=csv&key=k",
    ]
