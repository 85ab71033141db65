"""A boolean query parameter that acts by being there goes as its bare name.

Regression (Netdata 1.37): ``GET /api/v1/alarms`` takes ``all`` and ``active``, booleans that may be
sent empty (``allowEmptyValue``), "If passed, all enabled alarms are returned." Netdata reads the
name alone: ``?all`` lists the 40 enabled alarms, ``?all=true`` (what was sent) the 2 raised ones,
as if nothing was asked (measured on the live server). Such a flag now goes as ``?all`` when true
and not at all when false; a boolean whose words do not say so keeps its value (UniCourt's
``isVisible`` filters parties by it), as does one that may not be sent empty.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Served


def _boolean(name: str, description: str, *, empty: bool = True) -> dict[str, Any]:
    parameter = {"name": name, "in": "query", "description": description}
    parameter["schema"] = {"type": "boolean"}
    if empty:
        parameter["allowEmptyValue"] = True
    return parameter


SPEC: dict[str, Any] = {
    "openapi": "3.0.0",
    "info": {"title": "Alarms", "version": "1"},
    "servers": [{"url": "https://alarms.example/api/v1"}],
    "paths": {
        "/alarms": {
            "get": {
                "operationId": "alarms",
                "parameters": [
                    _boolean("all", "If passed, all enabled alarms are returned."),
                    _boolean("active", "If passed, the raised alarms are returned."),
                    _boolean("isVisible", "Parties whose isVisible flag is the value given."),
                    _boolean("pretty", "If passed, the answer is indented.", empty=False),
                ],
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}


async def test_a_flag_goes_as_its_bare_name_and_false_leaves_it_out(served: Served) -> None:
    result = await served.call("alarms", {"all": True, "active": False})
    assert result.get("isError") is None, result
    [request] = served.api.requests
    assert request.target == "/alarms?all"


async def test_other_booleans_keep_their_values(served: Served) -> None:
    result = await served.call("alarms", {"isVisible": False, "pretty": True})
    assert result.get("isError") is None, result
    [request] = served.api.requests
    assert request.target == "/alarms?isVisible=false&pretty=true"
