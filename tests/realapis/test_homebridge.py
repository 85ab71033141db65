"""Homebridge's UI server 4.76.0 (npm: NestJS on Fastify; its live OpenAPI 3.0 document,
/swagger-json, written by @nestjs/swagger) driven through a generated MCP server.

Its document says its bearer token comes from an OAuth2 password flow at /api/auth/login (which
takes the form the flow sends, beside its own JSON); its scopes are null, and some of its bodies
are ``$ref: '#/components/schemas/'`` (@nestjs/swagger's writing of an untyped body), read as any
value. Signed in with the user and password its README names, a user is made, changed and deleted,
each checked by signing in as that user directly; a wrong password names the variables to check.
"""

from __future__ import annotations

import json

import httpx
import pytest

from tests.realapis.conftest import LiveApi, content, mcp_client, only_text, whole_result

pytestmark = pytest.mark.realapi


def _sign_in(live: LiveApi, username: str, password: str) -> int:
    """The status of a direct sign-in to Homebridge's UI as ``username``."""
    answer = httpx.post(
        f"{live.base_url}/api/auth/login",
        json={"username": username, "password": password},
        timeout=10,
    )
    return answer.status_code


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_user_is_made_changed_and_deleted(homebridge: LiveApi, mode: str) -> None:
    name, password = f"grace-{mode}", "Realapi-grace-7e2b!"
    async with mcp_client(homebridge.stdio(**homebridge.credentials), mode) as client:
        users = content(await client.call_tool("get_users", {}))
        assert [user["username"] for user in users][:1] == ["admin"]
        made = content(
            await client.call_tool(
                "users_add_user",
                {"name": "Grace", "username": name, "password": password, "admin": False},
            )
        )
        assert (made["username"], made["admin"]) == (name, False)
        assert _sign_in(homebridge, name, password) == 201

        changed = content(
            await client.call_tool(
                "users_update_user",
                {
                    "userId": made["id"],
                    "name": "Grace Hopper",
                    "username": name,
                    "admin": True,
                    "password": password + "2",
                },
            )
        )
        assert (changed["name"], changed["admin"]) == ("Grace Hopper", True)
        assert _sign_in(homebridge, name, password + "2") == 201

        # documented with no schema: the JSON it answers is the text, and no structured content
        config = await client.call_tool("config_editor_get_config", {"_select": "bridge"})
        assert config.structured_content is None
        assert json.loads(only_text(config))["name"] == "Homebridge"

        deleted = await client.call_tool("users_delete_user", {"userId": made["id"]})
        assert not deleted.is_error, deleted
        assert _sign_in(homebridge, name, password + "2") == 403


async def test_a_wrong_password_names_the_variables_to_check(homebridge: LiveApi) -> None:
    wrong = "not-the-Password-9d3e"
    signed = {"BEARER_USERNAME": "admin", "BEARER_PASSWORD": wrong}
    async with mcp_client(homebridge.stdio(**signed), "auto") as client:
        refused = await client.call_tool("get_users", {})
    assert refused.is_error
    assert only_text(refused) == (
        "could not get an access token for 'bearer' from the token endpoint "
        f"{homebridge.root_url}/api/auth/login: HTTP 403 (Forbidden); check "
        "HOMEBRIDGE_BEARER_USERNAME and HOMEBRIDGE_BEARER_PASSWORD"
    )
    assert wrong not in whole_result(refused)
