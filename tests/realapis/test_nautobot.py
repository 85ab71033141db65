"""Nautobot 3.2 (PyPI: Django REST framework, drf-spectacular; its live OpenAPI 3.0 document of
1,675 operations, 18 MB) driven through a generated MCP server.

A network is modelled as a user would ask for it, every related object given by name (Nautobot
takes a natural key where its document says an object of ``id``): a manufacturer, a device type
(offered as JSON and as multipart for its optional images: without an image it goes as JSON, which
carries the manufacturer as an object), a location of a type, a role, a device, an interface; the
devices of a location listed and picked from with ``_select``; a list asked for as CSV (Django
REST framework refused ``?format=csv`` with 406 while the Accept header took JSON only); and the
document itself read through its tool, larger than the server reads: its start, a success. Every
effect is checked with a direct request to Nautobot.
"""

from __future__ import annotations

import httpx
import pytest

from tests.realapis.conftest import LiveApi, mcp_client, result_json, texts

pytestmark = pytest.mark.realapi


def _direct(live: LiveApi) -> httpx.Client:
    token = live.credentials["TOKEN_AUTH_KEY"]
    return httpx.Client(
        base_url=live.base_url, headers={"Authorization": f"Token {token}"}, timeout=30
    )


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_device_is_made_from_names_and_found_by_its_location(
    nautobot_api: LiveApi, mode: str
) -> None:
    site, vendor = f"Berlin DC {mode}", f"Juniper {mode}"
    async with mcp_client(nautobot_api.stdio(**nautobot_api.credentials), mode) as client:

        async def made(tool: str, arguments: dict[str, object]) -> dict[str, object]:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, texts(result)
            found: dict[str, object] = result_json(result)
            return found

        maker = await made("dcim_manufacturers_create", {"name": vendor})
        model = await made(
            "dcim_device_types_create",
            {"model": "MX480", "manufacturer": {"name": vendor}, "u_height": 8},
        )
        await made(
            "dcim_location_types_create", {"name": f"Site {mode}", "content_types": ["dcim.device"]}
        )
        location = await made(
            "dcim_locations_create",
            {"name": site, "location_type": {"name": f"Site {mode}"}, "status": {"name": "Active"}},
        )
        await made(
            "extras_roles_create", {"name": f"Edge {mode}", "content_types": ["dcim.device"]}
        )
        device = await made(
            "dcim_devices_create",
            {
                "name": f"edge-r1-{mode}",
                "device_type": {"id": model["id"]},
                "role": {"name": f"Edge {mode}"},
                "location": {"name": site},
                "status": {"name": "Active"},
            },
        )
        port = await made(
            "dcim_interfaces_create",
            {
                "device": {"id": device["id"]},
                "name": "ge-0/0/0",
                "type": "1000base-t",
                "status": {"name": "Active"},
            },
        )
        listed = await client.call_tool(
            "dcim_devices_list",
            {"location": [site], "_select": "results[].{name: name, location: location.id}"},
        )
        assert result_json(listed) == [{"name": f"edge-r1-{mode}", "location": location["id"]}]

    with _direct(nautobot_api) as direct:
        stored = direct.get(f"/dcim/device-types/{model['id']}/").json()
        assert (stored["model"], stored["manufacturer"]["id"]) == ("MX480", maker["id"])
        stored = direct.get(f"/dcim/interfaces/{port['id']}/", params={"depth": 1}).json()
        assert (stored["name"], stored["device"]["name"]) == ("ge-0/0/0", f"edge-r1-{mode}")
        assert stored["device"]["location"]["id"] == location["id"]


async def test_a_list_asked_as_csv_is_the_csv_nautobot_writes(nautobot_api: LiveApi) -> None:
    with _direct(nautobot_api) as direct:
        direct.post("/dcim/manufacturers/", json={"name": "Arista CSV"}).raise_for_status()
    async with mcp_client(nautobot_api.stdio(**nautobot_api.credentials)) as client:
        result = await client.call_tool(
            "dcim_manufacturers_list", {"format": "csv", "name": ["Arista CSV"]}
        )
    assert not result.is_error, texts(result)
    note, csv = texts(result)
    assert note == (
        "The call succeeded (HTTP 200 OK). The API answered with text/csv, not the JSON its "
        "output schema describes; the body follows as it came."
    )
    header, row = csv.strip().splitlines()
    assert header.startswith("name,display,id,")
    assert row.startswith("Arista CSV,Arista CSV,")


async def test_its_18_mb_document_is_read_as_its_start(nautobot_api: LiveApi) -> None:
    async with mcp_client(nautobot_api.stdio(**nautobot_api.credentials)) as client:
        result = await client.call_tool("swagger_json_retrieve", {})
    assert not result.is_error, texts(result)[:1]
    note, start = texts(result)
    assert note.startswith("The call succeeded (HTTP 200 OK). The API's ")
    assert note.endswith(
        " answer is larger than the 10 MiB this server reads; this is its start (10485760 bytes)."
    )
    assert '"openapi": "3.0.3"' in start[:200]
