"""GNS3 server 3.0.6 (FastAPI; its live OpenAPI 3.1 document, /openapi.json) driven through a
generated MCP server that signs in with a user name and password.

GNS3 declares FastAPI's ``OAuth2PasswordBearer`` (an ``oauth2`` password flow whose ``tokenUrl`` is
``/v3/access/users/login``, a form of ``username`` and ``password``). The generated server signs in
with ``GNS3_OAUTH2_PASSWORD_BEARER_USERNAME`` and ``..._PASSWORD`` and sends the token it gets: the
default administrator builds, renames, draws on and removes a project and adds a user, who then signs in as herself
and is refused what only an administrator may do. A wrong password is a clear error that shows
no password. Every effect is checked with a direct request to GNS3.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import httpx
import pytest
from mcp.types import TextContent, TextResourceContents

from tests.realapis.conftest import LiveApi, content, mcp_client, only_text, whole_result

pytestmark = pytest.mark.realapi

# GNS3's default administrator
ADMIN, ADMIN_PASSWORD = "admin", "admin"
SCHEME = "OAUTH2_PASSWORD_BEARER"


def _signed_in(gns3: LiveApi, user: str, password: str) -> dict[str, str]:
    """The generated server's variables to sign in as ``user``."""
    return {f"{SCHEME}_USERNAME": user, f"{SCHEME}_PASSWORD": password}


@pytest.fixture
def direct(gns3: LiveApi) -> Iterator[httpx.Client]:
    """GNS3 itself, signed in as the administrator."""
    with httpx.Client(base_url=gns3.base_url, timeout=10) as client:
        login = {"username": ADMIN, "password": ADMIN_PASSWORD}
        answer = client.post("/v3/access/users/login", data=login)
        assert answer.status_code == 200, answer.text
        client.headers["Authorization"] = f"Bearer {answer.json()['access_token']}"
        yield client


def test_the_document_declares_a_password_sign_in(gns3: LiveApi) -> None:
    assert gns3.spec["openapi"] == "3.1.0"
    assert gns3.spec["components"]["securitySchemes"] == {
        "OAuth2PasswordBearer": {
            "type": "oauth2",
            "flows": {"password": {"scopes": {}, "tokenUrl": "/v3/access/users/login"}},
        }
    }


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_server_signs_in_and_builds_a_project(
    gns3: LiveApi, direct: httpx.Client, mode: str
) -> None:
    name = f"lab-{mode}-{uuid.uuid4().hex[:6]}"
    stdio = gns3.stdio(TOOL_MODE="full", **_signed_in(gns3, ADMIN, ADMIN_PASSWORD))
    async with mcp_client(stdio, mode) as client:
        me = content(await client.call_tool("get_logged_in_user", {}))
        assert (me["username"], me["is_superadmin"]) == (ADMIN, True)
        made = content(await client.call_tool("create_project", {"name": name}))
        project = direct.get(f"/v3/projects/{made['project_id']}").json()
        assert (project["name"], project["status"]) == (name, "opened")
        listed = content(await client.call_tool("get_projects", {}))
        assert made["project_id"] in [each["project_id"] for each in listed]
        # its update model repeats the path's project_id: the other fields are arguments as usual
        renamed = f"{name}-renamed"
        changes = {"project_id": made["project_id"], "name": renamed, "auto_close": False}
        content(await client.call_tool("update_project", changes))
        project = direct.get(f"/v3/projects/{made['project_id']}").json()
        assert (project["name"], project["auto_close"]) == (renamed, False)
        svg = '<svg height="10" width="20"><rect width="20" height="10"/></svg>'
        drawn = content(
            await client.call_tool(
                "create_drawing", {"project_id": made["project_id"], "svg": svg, "x": 10, "y": 20}
            )
        )
        drawings = direct.get(f"/v3/projects/{made['project_id']}/drawings").json()
        assert [(d["drawing_id"], d["svg"], d["x"], d["y"]) for d in drawings] == [
            (drawn["drawing_id"], svg, 10, 20)
        ]
        closed = await client.call_tool("close_project", {"project_id": made["project_id"]})
        assert not closed.is_error, closed
        assert direct.get(f"/v3/projects/{made['project_id']}").json()["status"] == "closed"
        deleted = await client.call_tool("delete_project", {"project_id": made["project_id"]})
        assert not deleted.is_error, deleted
    assert direct.get(f"/v3/projects/{made['project_id']}").status_code == 404


async def test_a_user_the_administrator_adds_signs_in_as_herself(
    gns3: LiveApi, direct: httpx.Client
) -> None:
    alice, password = f"alice{uuid.uuid4().hex[:6]}", "Alice-pass-8d2e"
    admin = gns3.stdio(TOOL_MODE="full", **_signed_in(gns3, ADMIN, ADMIN_PASSWORD))
    async with mcp_client(admin, "auto") as client:
        added = content(
            await client.call_tool(
                "create_user", {"username": alice, "password": password, "email": f"{alice}@lab.io"}
            )
        )
    assert added["is_superadmin"] is False
    assert password not in str(added)
    try:
        own = gns3.stdio(TOOL_MODE="full", **_signed_in(gns3, alice, password))
        async with mcp_client(own, "auto") as client:
            me = content(await client.call_tool("get_logged_in_user", {}))
            everyone = await client.call_tool("get_users", {})
        assert me["username"] == alice
        assert everyone.is_error
        variables = f"GNS3_{SCHEME}_USERNAME, GNS3_{SCHEME}_PASSWORD"
        assert only_text(everyone) == (
            "Upstream returned 403 Forbidden: "
            '{"message":"Permission denied (privilege User.Audit is required)"}\n'
            # the same credentials had just read the user's own record
            f"The API accepts the credentials of {variables} (or an access token in "
            f"GNS3_{SCHEME}_TOKEN) for other calls and refused them this one: a permission they "
            "lack, or what the API's words above say."
        )
    finally:
        assert direct.delete(f"/v3/access/users/{added['user_id']}").status_code == 204


async def test_a_wrong_password_says_so_and_shows_no_password(gns3: LiveApi) -> None:
    wrong = "not-the-Password-5f1c"
    stdio = gns3.stdio(TOOL_MODE="full", **_signed_in(gns3, ADMIN, wrong))
    async with mcp_client(stdio, "auto") as client:
        refused = await client.call_tool("get_projects", {})
    assert refused.is_error
    assert only_text(refused) == (
        "could not get an access token for 'OAuth2PasswordBearer' from the token endpoint "
        f"{gns3.root_url}/v3/access/users/login: HTTP 401 (Authentication was unsuccessful.); "
        "check GNS3_OAUTH2_PASSWORD_BEARER_USERNAME and GNS3_OAUTH2_PASSWORD_BEARER_PASSWORD"
    )
    assert wrong not in whole_result(refused)


async def test_a_stream_of_notifications_is_what_arrived_not_a_timeout(gns3: LiveApi) -> None:
    # GET /v3/notifications streams JSON lines for as long as the client listens
    stdio = gns3.stdio(TOOL_MODE="full", TIMEOUT="2", **_signed_in(gns3, ADMIN, ADMIN_PASSWORD))
    async with mcp_client(stdio, "auto") as client:
        heard = await client.call_tool("controller_http_notifications", {})
        read = await client.read_resource("gns3://v3/notifications")
    assert not heard.is_error, heard
    note, events = [block.text for block in heard.content if isinstance(block, TextContent)]
    assert note.startswith(
        "The call succeeded (HTTP 200 OK). The API was still sending its application/json after "
        "2 s, as a stream does; this is what had arrived by then ("
    )
    # each event is one JSON line (GNS3 pings with the controller's load every few seconds)
    lines = [json.loads(line) for line in events.splitlines()]
    assert lines and all("action" in line for line in lines)
    (contents,) = read.contents
    assert isinstance(contents, TextResourceContents)
    assert all("action" in json.loads(line) for line in contents.text.splitlines())
