"""pygeoapi 0.21 (PyPI: Flask; OGC API Features and Processes; its live OpenAPI 3.0 document, which
its CLI writes from its configuration) driven through a generated MCP server.

pygeoapi answers each request in the format its ``f`` parameter or the Accept header asks for, and
HTML to a browser: the features of a collection read through their tool, with a bounding box and a
limit, must come back as the GeoJSON pygeoapi holds. Its document points at OGC's schemas online
for the feature id of every item path and for most responses; the package is generated offline
(those operations had been skipped whole), the id taken as a string, so a single feature is read
through its resource template, an id with a "/" in it percent-encoded in the URI. (Generated with
those schemas fetched, the items document GeoJSON and HTML: that Accept header is
``test_real_traffic_catalog.py``'s.)
Notes, an editable TinyDB collection (OGC API Features part 4), are created, replaced and deleted
through their tools (0.21 offers its POST as ``application/geo+json`` only: there is no CQL2 search
by POST to tell apart), and the hello-world process runs synchronously through its tool. Every
effect is checked with a direct request to pygeoapi.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from mcp.types import TextResourceContents

from tests.realapis.conftest import LiveApi, mcp_client, result_json, structured, texts
from tests.realapis.pygeoapi import lake

pytestmark = pytest.mark.realapi

NOTES_TEMPLATE = "pygeoapi://collections/notes/items/{featureId}{?crs,f,lang}"


def _direct(live: LiveApi) -> httpx.Client:
    return httpx.Client(base_url=live.root_url, timeout=30)


def _note(ident: str, title: str, lon: float, lat: float) -> dict[str, Any]:
    return {
        "type": "Feature",
        "id": ident,
        "geometry": {"type": "Point", "coordinates": [lon, lat]},
        "properties": {"title": title, "category": "test", "datetime": "2024-05-01T00:00:00Z"},
    }


def _stored(direct: httpx.Client, ident: str) -> httpx.Response:
    """The note ``ident`` as pygeoapi answers it in JSON."""
    return direct.get(f"/collections/notes/items/{quote(ident, safe='')}", params={"f": "json"})


def _made_directly(direct: httpx.Client, note: dict[str, Any]) -> None:
    made = direct.post(
        "/collections/notes/items",
        content=json.dumps(note),
        headers={"Content-Type": "application/geo+json"},
    )
    assert made.status_code == 201, made.text


def _without(found: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in found.items() if key not in keys}


async def test_generated_from_the_live_document(pygeoapi_api: LiveApi) -> None:
    spec = pygeoapi_api.spec
    assert spec["openapi"] == "3.0.2"
    assert spec["servers"][0]["url"] == pygeoapi_api.root_url
    # a new feature goes as GeoJSON only; 0.21 has no CQL2 search by POST beside it
    adding = spec["paths"]["/collections/notes/items"]["post"]
    assert list(adding["requestBody"]["content"]) == ["application/geo+json"]
    posts = [path for path, item in spec["paths"].items() if "post" in item]
    assert posts == ["/collections/notes/items", "/processes/hello-world/execution"]
    # the feature id is OGC's parameter online, left out: its path variable is a string
    feature_id = spec["paths"]["/collections/notes/items/{featureId}"]["get"]["parameters"][0]
    assert feature_id["$ref"].startswith("https://schemas.opengis.net/ogcapi/features/part1/")
    async with mcp_client(pygeoapi_api.stdio()) as client:
        assert client.server_info is not None and client.server_info.name == "pygeoapi-mcp"
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        templates = (await client.list_resource_templates()).resource_templates
    assert NOTES_TEMPLATE in [template.uri_template for template in templates]
    writes = {
        name
        for name, tool in tools.items()
        if not (tool.annotations and tool.annotations.read_only_hint)
    }
    assert writes == {
        "add_notes_features",
        "update_notes_features",
        "delete_notes_features",
        "execute_hello_world_job",
        "delete_job",
    }
    reading = tools["get_notes_feature"].input_schema
    assert reading["properties"]["featureId"]["type"] == "string"
    assert "featureId" in reading["required"]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_features_in_a_bounding_box_come_back_as_the_geojson_pygeoapi_holds(
    pygeoapi_api: LiveApi, mode: str
) -> None:
    box = [-90, 30, -70, 50]  # Lake Alpha (Canada) and Lake Beta (United States)
    async with mcp_client(pygeoapi_api.stdio(), mode) as client:
        first = await client.call_tool("get_lakes_features", {"bbox": box, "limit": 1})
        both = await client.call_tool("get_lakes_features", {"bbox": box})
    for result in (first, both):
        assert not result.is_error, texts(result)
        assert len(texts(result)) == 1, texts(result)  # the GeoJSON alone, no note about HTML
    page, whole = result_json(first), result_json(both)
    assert page["type"] == "FeatureCollection"
    assert page["features"] == [lake(1)]
    assert (page["numberMatched"], page["numberReturned"]) == (2, 1)
    assert [feature["id"] for feature in whole["features"]] == [1, 2]
    assert whole["features"] == [lake(1), lake(2)]
    following = [link["href"] for link in page["links"] if link["rel"] == "next"]
    assert following == [
        f"{pygeoapi_api.root_url}/collections/lakes/items?offset=1&bbox=-90,30,-70,50&limit=1"
    ]
    with _direct(pygeoapi_api) as direct:
        held = direct.get(
            "/collections/lakes/items", params={"f": "json", "bbox": "-90,30,-70,50", "limit": 1}
        ).json()
    assert _without(page, "links", "timeStamp") == _without(held, "links", "timeStamp")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_feature_is_read_through_its_resource_template(
    pygeoapi_api: LiveApi, mode: str
) -> None:
    ident = f"m/x-{mode}"
    with _direct(pygeoapi_api) as direct:
        _made_directly(direct, _note(ident, "A slash in its id", 3, 4))
        held = _stored(direct, ident).json()
    assert held["id"] == ident
    uri = f"pygeoapi://collections/notes/items/m%2Fx-{mode}"
    async with mcp_client(pygeoapi_api.stdio(), mode) as client:
        templates = (await client.list_resource_templates()).resource_templates
        assert NOTES_TEMPLATE in [template.uri_template for template in templates]
        note = (await client.read_resource(uri)).contents
        lake_three = (await client.read_resource("pygeoapi://collections/lakes/items/3")).contents
    (content,) = note
    assert isinstance(content, TextResourceContents)
    assert (str(content.uri), content.mime_type) == (uri, "application/json")
    assert json.loads(content.text) == held
    (content,) = lake_three
    assert isinstance(content, TextResourceContents)
    assert _without(json.loads(content.text), "links") == lake(3)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_note_is_created_through_its_tool(pygeoapi_api: LiveApi, mode: str) -> None:
    ident = f"made-{mode}"
    note = _note(ident, "Made through MCP", 5, 6)
    async with mcp_client(pygeoapi_api.stdio(), mode) as client:
        made = await client.call_tool("add_notes_features", {"body": note})
    assert not made.is_error, texts(made)
    where = f"{pygeoapi_api.root_url}/collections/notes/items/{ident}"
    assert texts(made) == [f"HTTP 201 CREATED; Location: {where}"]
    with _direct(pygeoapi_api) as direct:
        stored = _stored(direct, ident)
    assert stored.status_code == 200, stored.text
    assert _without(stored.json(), "links") == note


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_note_is_replaced_then_deleted_through_its_tools(
    pygeoapi_api: LiveApi, mode: str
) -> None:
    ident = f"edit-{mode}"
    with _direct(pygeoapi_api) as direct:
        _made_directly(direct, _note(ident, "Before", 1, 2))
        replacement = _note(ident, "Replaced through MCP", 7, 8)
        async with mcp_client(pygeoapi_api.stdio(), mode) as client:
            replaced = await client.call_tool(
                "update_notes_features", {"featureId": ident, "body": replacement}
            )
            assert not replaced.is_error, texts(replaced)
            assert texts(replaced) == ["HTTP 204 NO CONTENT"]
            assert _without(_stored(direct, ident).json(), "links") == replacement

            deleted = await client.call_tool("delete_notes_features", {"featureId": ident})
            assert not deleted.is_error, texts(deleted)
            assert texts(deleted) == ["HTTP 200 OK"]
            assert _stored(direct, ident).status_code == 404

            # 0.21 answers a delete of a missing id 200 too: the read is what tells it is gone
            gone = await client.call_tool("get_notes_feature", {"featureId": ident})
    assert gone.is_error
    assert texts(gone) == [
        "Upstream returned 404 NOT FOUND: "
        '{"code":"NotFound","type":"NotFound","description":"identifier not found"}'
    ]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_hello_world_runs_synchronously_through_its_tool(
    pygeoapi_api: LiveApi, mode: str
) -> None:
    inputs = {"name": f"MCP {mode}", "message": "from a tool"}
    output = {"id": "echo", "value": f"Hello MCP {mode}! from a tool"}
    with _direct(pygeoapi_api) as direct:

        def jobs() -> dict[str, dict[str, Any]]:
            listed = direct.get("/jobs", params={"f": "json", "limit": 50}).json()
            return {job["jobID"]: job for job in listed["jobs"]}

        before = jobs()
        async with mcp_client(pygeoapi_api.stdio(), mode) as client:
            ran = await client.call_tool("execute_hello_world_job", {"body": {"inputs": inputs}})
        assert not ran.is_error, texts(ran)
        assert result_json(ran) == output
        assert structured(ran, mode) == output
        after = jobs()
        (job,) = (after[ident] for ident in after.keys() - before.keys())
        assert (job["processID"], job["status"]) == ("hello-world", "successful")
        results = direct.get(f"/jobs/{job['jobID']}/results", params={"f": "json"})
        assert results.json() == output
        # what pygeoapi answers a client of its own
        answer = direct.post("/processes/hello-world/execution", json={"inputs": inputs})
        assert answer.json() == output
