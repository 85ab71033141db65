"""ZenML 0.98 (PyPI: its server, FastAPI on SQLite; its live OpenAPI 3.1 document) driven through a
generated MCP server.

ZenML signs every call but its health and version in with a bearer token (``CookieOAuth2TokenBearer``:
OAuth 2.0's password flow at ``/api/v1/login``, a form). The generated server is given the default
user's name and password, as a user would configure it, and signs in on the first call that needs
it. Its list filters are unions (a string, an array of strings, or null), its pages are asked for
with ``page`` and ``size``. Here:

- a wrong password fails the calls that need a token, saying it could not get one, and no other:
  the health check answers, and the login itself, a tool like any other, sends what it is given;
- a tag made through a tool is listed back through a name filter, and nulls for the optional
  ``size`` and ``page`` are left out (ZenML's defaults answer);
- a resource template whose query takes such a union reads one API key of a service account by
  its name; a size that is no integer is refused with the reason in the error's data;
- the logout, a GET, is a tool that acts, not a resource a client would read unasked;
- a token ZenML cannot decode is refused in ZenML's own words;
- a page of flavors longer than the result budget is cut, with advice to page.

Every effect is checked with a direct request to ZenML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import TextResourceContents

from tests.realapis import zenml
from tests.realapis.conftest import (
    LiveApi,
    every_tool,
    mcp_client,
    result_json,
    structured,
    texts,
    whole_result,
)

pytestmark = pytest.mark.realapi


@pytest.fixture(scope="module")
def zenml_api(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from zenml.run_zenml(realapi_dir)


def _direct(live: LiveApi) -> httpx.Client:
    """A client of ZenML signed in as the default user (a token of its own)."""
    token = zenml.login(live.root_url)
    return httpx.Client(
        base_url=live.root_url, headers={"Authorization": f"Bearer {token}"}, timeout=30
    )


async def _resources(client: Client) -> tuple[list[str], list[str]]:
    """Every page of ``resources/list`` and ``resources/templates/list``: URIs, templates."""
    uris: list[str] = []
    cursor: str | None = None
    while True:
        page = await client.list_resources(cursor=cursor)
        uris += [str(resource.uri) for resource in page.resources]
        if (cursor := page.next_cursor) is None:
            break
    templates: list[str] = []
    while True:
        listed = await client.list_resource_templates(cursor=cursor)
        templates += [template.uri_template for template in listed.resource_templates]
        if (cursor := listed.next_cursor) is None:
            return uris, templates


def _names(page: dict[str, Any]) -> list[str]:
    return [item["name"] for item in page["items"]]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_wrong_password_fails_only_the_calls_that_sign_in(
    zenml_api: LiveApi, mode: str
) -> None:
    login = zenml_api.spec["paths"]["/api/v1/login"]["post"]
    assert "application/x-www-form-urlencoded" in login["requestBody"]["content"]
    assert "security" not in zenml_api.spec["paths"]["/health"]["get"]
    wrong = {
        "COOKIE_OAUTH2_TOKEN_BEARER_USERNAME": zenml.ADMIN,
        "COOKIE_OAUTH2_TOKEN_BEARER_PASSWORD": "not-the-password",
    }
    async with mcp_client(zenml_api.stdio(**wrong), mode) as client:
        health = await client.call_tool("health", {})
        signed = await client.call_tool(
            "token", {"username": zenml.ADMIN, "password": zenml.PASSWORD}
        )
        refused = await client.call_tool("get_current_user", {})
    # the health check needs no token: ZenML's answer (plain text, though the document says
    # JSON), although no token could be had
    with httpx.Client(base_url=zenml_api.root_url, timeout=30) as direct:
        answer = direct.get("/health")
    assert (answer.status_code, answer.headers["content-type"], answer.text) == (
        200,
        "text/plain; charset=utf-8",
        "ok",
    )
    assert not health.is_error, texts(health)
    assert texts(health) == ["ok"]
    assert structured(health, mode) == "ok"
    # the login sends the form it is given, without signing in first (which would have failed)
    assert not signed.is_error, texts(signed)
    token = result_json(signed)
    assert token["token_type"] == "bearer"
    with httpx.Client(
        base_url=zenml_api.root_url,
        headers={"Authorization": f"Bearer {token['access_token']}"},
        timeout=30,
    ) as direct:
        me = direct.get("/api/v1/current-user")
    assert me.status_code == 200, me.text
    assert me.json()["name"] == zenml.ADMIN
    assert refused.is_error
    assert texts(refused) == [
        "could not get an access token for 'CookieOAuth2TokenBearer' from the token endpoint "
        f"{zenml_api.root_url}/api/v1/login: HTTP 401; check "
        "ZENML_COOKIE_OAUTH2_TOKEN_BEARER_USERNAME and ZENML_COOKIE_OAUTH2_TOKEN_BEARER_PASSWORD"
    ]
    assert "not-the-password" not in whole_result(refused)


async def test_a_tag_made_is_listed_back_by_its_name_and_nulls_are_left_out(
    zenml_api: LiveApi,
) -> None:
    async with mcp_client(zenml_api.stdio(**zenml_api.credentials)) as client:
        made = [
            await client.call_tool("create_tag", {"name": name, "color": color})
            for name, color in (("realapi-red", "red"), ("realapi-blue", "blue"))
        ]
        for result in made:
            assert not result.is_error, texts(result)
        filtered = await client.call_tool("list_tags", {"name": "realapi-red"})
        nulls = await client.call_tool(
            "list_tags", {"name": "realapi-blue", "size": None, "page": None}
        )
    red, blue = (result_json(result) for result in made)
    assert (red["name"], red["body"]["color"]) == ("realapi-red", "red")
    with _direct(zenml_api) as direct:
        tags = direct.get("/api/v1/tags", params={"name": "contains:realapi-"}).json()
    assert {item["id"]: item["name"] for item in tags["items"]} == {
        red["id"]: "realapi-red",
        blue["id"]: "realapi-blue",
    }
    assert not filtered.is_error, texts(filtered)
    page = result_json(filtered)
    assert (page["total"], _names(page), page["items"][0]["id"]) == (1, ["realapi-red"], red["id"])
    # null is no value for size or page: they are not sent, and ZenML's defaults answer
    assert not nulls.is_error, texts(nulls)
    page = result_json(nulls)
    assert (page["index"], page["max_size"], page["total"]) == (1, 20, 1)
    assert [item["id"] for item in page["items"]] == [blue["id"]]


async def test_a_template_reads_an_api_key_by_its_name_and_a_bad_size_says_why(
    zenml_api: LiveApi,
) -> None:
    name_filter = zenml_api.spec["paths"]["/api/v1/service_accounts/{service_account_id}/api_keys"]
    (parameter,) = [p for p in name_filter["get"]["parameters"] if p["name"] == "name"]
    assert [branch["type"] for branch in parameter["schema"]["anyOf"]] == [
        "string",
        "array",
        "null",
    ]
    async with mcp_client(zenml_api.stdio(**zenml_api.credentials)) as client:
        _, templates = await _resources(client)
        account = await client.call_tool(
            "create_service_account", {"name": "realapi-robot", "active": True}
        )
        assert not account.is_error, texts(account)
        robot = result_json(account)["id"]
        keys = {}
        for name in ("deploy-key", "backup-key"):
            made = await client.call_tool(
                "create_api_key", {"service_account_id": robot, "name": name}
            )
            assert not made.is_error, texts(made)
            keys[name] = result_json(made)["id"]
        base = f"zenml://api/v1/service_accounts/{robot}/api_keys"
        read = await client.read_resource(f"{base}?name=deploy-key")
        with pytest.raises(MCPError) as raised:
            await client.read_resource(f"{base}?size=abc")
    (template,) = [t for t in templates if "/service_accounts/{service_account_id}/api_keys{" in t]
    assert re.search(r"[?,]name[,}]", template), template
    with _direct(zenml_api) as direct:
        listed = direct.get(f"/api/v1/service_accounts/{robot}/api_keys").json()
    assert {item["id"]: item["name"] for item in listed["items"]} == {
        key: name for name, key in keys.items()
    }
    (contents,) = read.contents
    assert isinstance(contents, TextResourceContents)
    assert contents.mime_type == "application/json"
    page = json.loads(contents.text)
    assert (page["total"], _names(page)) == (1, ["deploy-key"])
    assert page["items"][0]["id"] == keys["deploy-key"]
    assert raised.value.data == {
        "uri": f"{base}?size=abc",
        "detail": "size: 'abc' is not an integer",
    }


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_its_logout_is_a_tool_that_acts_and_no_resource(
    zenml_api: LiveApi, mode: str
) -> None:
    logout = zenml_api.spec["paths"]["/api/v1/logout"]
    assert list(logout) == ["get"]
    assert logout["get"]["operationId"] == "logout_api_v1_logout_get"
    async with mcp_client(zenml_api.stdio(**zenml_api.credentials), mode) as client:
        uris, templates = await _resources(client)
        tools = await every_tool(client)
    # reads stay resources; the logout is not read by a client that preloads every resource
    assert {"zenml://health", "zenml://api/v1/current-user", "zenml://api/v1/tags"} <= set(uris)
    assert [uri for uri in uris if uri.endswith("/logout")] == []
    assert [template for template in templates if "logout" in template] == []
    annotations = tools["logout"].annotations
    assert annotations is not None
    assert annotations.read_only_hint is False
    assert tools["get_current_user"].annotations is not None
    assert tools["get_current_user"].annotations.read_only_hint is True


async def test_a_token_it_cannot_decode_is_refused_in_its_own_words(zenml_api: LiveApi) -> None:
    bogus = "bogus-token-123"
    with httpx.Client(
        base_url=zenml_api.root_url, headers={"Authorization": f"Bearer {bogus}"}, timeout=30
    ) as direct:
        answer = direct.get("/api/v1/current-user")
    assert answer.status_code == 401
    assert answer.json() == {
        "detail": [
            "CredentialsNotValid",
            "Authentication error: error decoding access token: Invalid JWT token: "
            "Not enough segments.",
        ]
    }
    async with mcp_client(zenml_api.stdio(COOKIE_OAUTH2_TOKEN_BEARER_TOKEN=bogus)) as client:
        refused = await client.call_tool("get_current_user", {})
    assert refused.is_error
    assert texts(refused) == [
        f"Upstream returned 401 Unauthorized: {answer.text}\n"
        "The API did not accept the credentials of ZENML_COOKIE_OAUTH2_TOKEN_BEARER_TOKEN."
    ]
    assert "access token: Invalid JWT token: Not enough segments." in texts(refused)[0]
    assert bogus not in whole_result(refused)


async def test_a_page_over_the_result_budget_is_cut_with_advice_to_page(
    zenml_api: LiveApi,
) -> None:
    with _direct(zenml_api) as direct:
        answer = direct.get("/api/v1/flavors", params={"size": 50})
    whole = answer.json()
    assert (whole["total"] > 50, len(whole["items"])) == (True, 50)
    budget = zenml_api.stdio(**zenml_api.credentials, MAX_RESULT_CHARS="2000")
    async with mcp_client(budget) as client:
        cut = await client.call_tool("list_flavors", {"size": 50})
    assert not cut.is_error, texts(cut)
    body, note = texts(cut)
    shown = json.loads(body)
    count = len(shown["items"])
    assert 0 < count < 50
    assert shown["items"] == whole["items"][:count]
    assert (shown["total"], shown["max_size"]) == (whole["total"], 50)
    assert note == (
        f"[cut to fit: the response has {len(answer.text)} characters; shown: the first {count} "
        "of 50 items of items. This server returns at most 2000 characters per result (its "
        "operator can raise that with ZENML_MAX_RESULT_CHARS). To get the rest, call again for "
        "fewer at a time (size) and page on with page: a next page starts after what this call "
        "asked for, not after what is shown.]"
    )
