"""Prometheus Alertmanager 0.25 (Debian's prometheus-alertmanager; the Swagger 2.0 document
go-swagger compiled into it) driven through a generated MCP server.

Its document is Go's idiom: repeated query parameters (``filter=a&filter=b``, collectionFormat
multi), an array as the body of ``POST /alerts``, and a silence to create that extends the stored
one with ``allOf`` (``postableSilence``: ``allOf [silence, {id}]``), which the tool takes as flat
arguments. Alerts are raised, filtered by two matchers at once, silenced and unsilenced; each
effect is checked with a direct request to Alertmanager.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.realapis.conftest import LiveApi, mcp_client, only_text, structured

pytestmark = pytest.mark.realapi


def _at(delta: timedelta = timedelta()) -> str:
    return (datetime.now(UTC) + delta).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def direct(alertmanager: LiveApi) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=alertmanager.base_url, timeout=10) as client:
        yield client


def test_the_document_is_go_swaggers_with_a_silence_that_extends_another(
    alertmanager: LiveApi,
) -> None:
    spec = alertmanager.spec
    assert (spec["swagger"], spec["basePath"]) == ("2.0", "/api/v2/")
    assert spec["definitions"]["postableSilence"]["allOf"] == [
        {"type": "object", "properties": {"id": {"type": "string"}}},
        {"$ref": "#/definitions/silence"},
    ]
    parameters = spec["paths"]["/alerts"]["get"]["parameters"]
    (matchers,) = [each for each in parameters if each["name"] == "filter"]
    assert (matchers["type"], matchers["collectionFormat"]) == ("array", "multi")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_alerts_are_raised_filtered_silenced_and_unsilenced(
    alertmanager: LiveApi, direct: httpx.Client, mode: str
) -> None:
    run = uuid.uuid4().hex[:10]
    alerts = [
        {"labels": {"alertname": "DiskFull", "severity": "critical", "run": run}},
        {"labels": {"alertname": "HighLoad", "severity": "warning", "run": run}},
    ]
    async with mcp_client(alertmanager.stdio(), mode) as client:
        # the body is an array: the tool's one `body` argument
        raised = await client.call_tool("post_alerts", {"body": alerts})
        assert (raised.is_error, only_text(raised)) == (False, "HTTP 200 OK")
        stored = direct.get("/alerts", params={"filter": f"run={run}"}).json()
        assert sorted(each["labels"]["alertname"] for each in stored) == ["DiskFull", "HighLoad"]

        # two matchers, sent as filter=...&filter=...: only what both match
        both = {"filter": [f"run={run}", "severity=critical"]}
        critical = structured(await client.call_tool("get_alerts", both), mode)
        assert [each["labels"]["alertname"] for each in critical] == ["DiskFull"]

        # postableSilence extends silence with allOf: its fields are the tool's arguments
        silence = {
            "matchers": [
                {"name": "run", "value": run, "isRegex": False},
                {"name": "alertname", "value": "DiskFull", "isRegex": False},
            ],
            "startsAt": _at(),
            "endsAt": _at(timedelta(hours=1)),
            "createdBy": "on-call",
            "comment": f"disk replaced ({mode})",
        }
        made = structured(await client.call_tool("post_silences", silence), mode)
        kept = direct.get(f"/silence/{made['silenceID']}").json()
        assert (kept["status"]["state"], kept["comment"]) == ("active", silence["comment"])
        assert kept["matchers"] == [{**each, "isEqual": True} for each in silence["matchers"]]

        loud = {"filter": [f"run={run}"], "silenced": False}
        unsilenced = structured(await client.call_tool("get_alerts", loud), mode)
        assert [each["labels"]["alertname"] for each in unsilenced] == ["HighLoad"]

        lifted = await client.call_tool("delete_silence", {"silenceID": made["silenceID"]})
        assert (lifted.is_error, only_text(lifted)) == (False, "HTTP 200 OK")
        assert direct.get(f"/silence/{made['silenceID']}").json()["status"]["state"] == "expired"
        again = structured(await client.call_tool("get_alerts", loud), mode)
        assert sorted(each["labels"]["alertname"] for each in again) == ["DiskFull", "HighLoad"]


async def test_a_matcher_alertmanager_cannot_read_is_its_own_400(alertmanager: LiveApi) -> None:
    async with mcp_client(alertmanager.stdio()) as client:
        refused = await client.call_tool("get_alerts", {"filter": ["severity=~("]})
    assert refused.is_error
    assert only_text(refused) == (
        'Upstream returned 400 Bad Request: "error parsing regexp: missing closing ): `^(?:()$`"'
    )
