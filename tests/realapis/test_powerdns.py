"""PowerDNS Authoritative 4.7 (Debian's pdns-server; its live Swagger 2.0 document, /api/docs)
driven through a generated MCP server that sends its API key.

PowerDNS is a C++ server with a hand-written Swagger 2.0 document, and its answers drift from it
where users look first: rectifying a zone documents a string and answers ``{"result":
"Rectified"}``, exporting one documents a string and answers ``{"zone": "..."}`` to a JSON request.
Those calls succeed for the official client in both eras, with the answer as it came and a note;
zones, records, DNSSEC keys and TSIG keys are made and removed, each effect checked with a direct
request to PowerDNS.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.realapis.conftest import (
    POWERDNS_API_KEY,
    LiveApi,
    mcp_client,
    only_text,
    structured,
    texts,
)

pytestmark = pytest.mark.realapi

SERVER = {"server_id": "localhost"}
KEY = {"API_KEY_HEADER_KEY": POWERDNS_API_KEY}


@pytest.fixture
def direct(powerdns: LiveApi) -> Iterator[httpx.Client]:
    """PowerDNS itself, with the API key."""
    base = powerdns.base_url + "/servers/localhost"
    headers = {"X-API-Key": POWERDNS_API_KEY}
    with httpx.Client(base_url=base, headers=headers, timeout=10) as client:
        yield client


@pytest.fixture
def zone(direct: httpx.Client) -> Iterator[str]:
    """A fresh zone name; the zone is removed afterwards if a test left it."""
    name = f"z{uuid.uuid4().hex[:8]}.example."
    yield name
    direct.delete(f"/zones/{name}")


def test_the_document_is_swagger_2_with_an_api_key_header(powerdns: LiveApi) -> None:
    assert powerdns.spec["swagger"] == "2.0"
    assert powerdns.spec["basePath"] == "/api/v1"
    assert powerdns.spec["securityDefinitions"] == {
        "APIKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    }


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_zone_is_made_given_a_record_exported_and_removed(
    powerdns: LiveApi, direct: httpx.Client, zone: str, mode: str
) -> None:
    async with mcp_client(powerdns.stdio(**KEY), mode) as client:
        made = await client.call_tool(
            "create_zone",
            {**SERVER, "name": zone, "kind": "Native", "nameservers": [f"ns1.{zone}"]},
        )
        assert structured(made, mode)["id"] == zone
        assert direct.get(f"/zones/{zone}").json()["kind"] == "Native"

        record = {"content": "192.0.2.7", "disabled": False}
        www = {"name": f"www.{zone}", "type": "A", "ttl": 300, "changetype": "REPLACE"}
        patched = await client.call_tool(
            "patch_zone", {**SERVER, "zone_id": zone, "rrsets": [{**www, "records": [record]}]}
        )
        assert (patched.is_error, only_text(patched)) == (False, "HTTP 204 No Content")
        rrsets = direct.get(f"/zones/{zone}").json()["rrsets"]
        assert [each["records"] for each in rrsets if each["name"] == f"www.{zone}"] == [[record]]

        # PowerDNS searches names without their last dot
        query = {**SERVER, "q": f"www.{zone.rstrip('.')}", "max": 5}
        found = await client.call_tool("search_data", query)
        assert [(hit["name"], hit["content"]) for hit in structured(found, mode)] == [
            (f"www.{zone}", "192.0.2.7")
        ]

        # documented as a string, answered as {"zone": "..."}: a success with the zone file
        exported = await client.call_tool("axfr_export_zone", {**SERVER, "zone_id": zone})
        body, note = texts(exported)
        assert f"www.{zone}\t300\tIN\tA\t192.0.2.7\n" in json.loads(body)["zone"]
        assert note.startswith("The call succeeded (HTTP 200 OK). Its response does not match")
        assert note.endswith("the structured content is null.")
        assert structured(exported, mode) is None

        removed = await client.call_tool("delete_zone", {**SERVER, "zone_id": zone})
        assert (removed.is_error, only_text(removed)) == (False, "HTTP 204 No Content")
        assert direct.get(f"/zones/{zone}").status_code == 404
        again = await client.call_tool("delete_zone", {**SERVER, "zone_id": zone})
        assert again.is_error
        assert only_text(again).startswith("Upstream returned 404 Not Found")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_zone_is_signed_and_rectified(
    powerdns: LiveApi, direct: httpx.Client, zone: str, mode: str
) -> None:
    created = direct.post("/zones", json={"name": zone, "kind": "Native", "nameservers": []})
    assert created.status_code == 201, created.text
    async with mcp_client(powerdns.stdio(**KEY), mode) as client:
        signed = await client.call_tool(
            "create_cryptokey", {**SERVER, "zone_id": zone, "keytype": "csk", "active": True}
        )
        key = structured(signed, mode)
        assert (key["keytype"], key["active"], key["dnskey"][:8]) == ("csk", True, "257 3 13")
        assert direct.get(f"/zones/{zone}").json()["dnssec"] is True

        # documented as a string, answered as {"result": "Rectified"}: the official client
        # accepts the result (it checks the structured content against the output schema)
        rectified = await client.call_tool("rectify_zone", {**SERVER, "zone_id": zone})
        body, note = texts(rectified)
        assert body == '{"result":"Rectified"}'
        assert note == (
            "The call succeeded (HTTP 200 OK): the change was made, so do not repeat it. Its "
            "response does not match the documented schema:\n"
            '- (root): {"result":"Rectified"} is not of types "null", "string"\n'
            "The text above is the response as received; the structured content is null."
        )
        assert structured(rectified, mode) is None


async def test_a_tsig_key_is_made_listed_and_removed(
    powerdns: LiveApi, direct: httpx.Client
) -> None:
    name = f"k{uuid.uuid4().hex[:8]}"
    async with mcp_client(powerdns.stdio(**KEY)) as client:
        made = await client.call_tool(
            "create_tsig_key", {**SERVER, "name": name, "algorithm": "hmac-sha256"}
        )
        key = structured(made, "auto")
        assert (key["id"], key["algorithm"]) == (f"{name}.", "hmac-sha256")
        assert direct.get(f"/tsigkeys/{name}.").json()["key"] == key["key"]
        removed = await client.call_tool("delete_tsig_key", {**SERVER, "tsigkey_id": f"{name}."})
        assert not removed.is_error, removed
        assert direct.get(f"/tsigkeys/{name}.").status_code == 404


async def test_refusals_come_back_as_powerdns_words_them(powerdns: LiveApi, zone: str) -> None:
    async with mcp_client(powerdns.stdio()) as client:
        unsent = await client.call_tool("list_zones", SERVER)
        assert unsent.is_error
        assert only_text(unsent) == (
            'Upstream returned 401 Unauthorized: {"error":"Unauthorized"}\n'
            "It was sent without credentials; to send them, set the environment variable "
            "POWERDNS_API_KEY_HEADER_KEY."
        )
    async with mcp_client(powerdns.stdio(**KEY)) as client:
        # a zone name must end with a dot: PowerDNS says so with a 422
        name = zone.rstrip(".")
        undotted = await client.call_tool("create_zone", {**SERVER, "name": name, "kind": "Native"})
        assert undotted.is_error
        assert only_text(undotted) == (
            f'Upstream returned 422 Unprocessable Entity: {{"error":"DNS Name \'{name}\' is not '
            'canonical"}'
        )


async def test_statistics_of_three_kinds_come_back_as_they_are(powerdns: LiveApi) -> None:
    """The document lists the kinds of its statistics as `items: [A, B, C]`: items of any of them."""
    async with mcp_client(powerdns.stdio(**KEY)) as client:
        stats = await client.call_tool("get_stats", {**SERVER, "includerings": False})
    (body,) = texts(stats)  # no note: the answer matches the document
    assert not stats.is_error
    items = json.loads(body)
    assert {"name": "uptime", "type": "StatisticItem"}.items() <= next(
        each for each in items if each["name"] == "uptime"
    ).items()
    assert {each["type"] for each in items} >= {"StatisticItem", "MapStatisticItem"}
    assert stats.structured_content == items
