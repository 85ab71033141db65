"""dstack 0.22 (PyPI: its server, FastAPI on SQLite; its live OpenAPI 3.1 document) driven through a
generated MCP server.

dstack's API is RPC-style: nearly every operation is a POST with a JSON body, the reads too, and
its list requests take a body that may be left out (FastAPI documents it as ``anyOf [$ref, null]``).
It signs every call in with a bearer token (``HTTPBearer``); the generated server is given the
administrator's, as a user would configure it. What dstack received is seen through a recording
proxy between the generated server and dstack. Here:

- a project is made, a user made and added to it as a manager, the project read back with that
  member and role, and deleted: each body dstack received is the JSON the tools were given;
- a list request's optional body is its fields as the tool's arguments: a name pattern is sent as
  that field alone and only the matching users answer; no argument sends no body, and dstack
  answers every user;
- the reads that are POSTs (``list_*``, ``get_*``, ``get_archive_by_hash``) are read-only; making a
  project adds without destroying, but adding members is destructive: adding a member already
  there changes its role;
- an error is dstack's own words ("Resource exists"), and a token dstack does not know is refused
  with a 403 that names the variable it came from;
- without ``--name`` the package is not named after FastAPI, whose default title dstack's document
  keeps.

Every effect is checked with a direct request to dstack.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.client.stdio import StdioServerParameters

from openapi2mcp.generate import GenerateOptions, generate
from tests.realapis import dstack
from tests.realapis.conftest import (
    LiveApi,
    every_tool,
    mcp_client,
    result_json,
    texts,
    whole_result,
)

pytestmark = pytest.mark.realapi

JSON = "application/json"


@pytest.fixture(scope="module")
def dstack_api(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from dstack.run_dstack(realapi_dir)


@pytest.fixture
def recorder(dstack_api: LiveApi) -> Iterator[dstack.Recorder]:
    with dstack.Recorder(dstack_api.server.port) as recorder:
        yield recorder


def _through(live: LiveApi, recorder: dstack.Recorder, **credentials: str) -> StdioServerParameters:
    """The generated server talking to dstack through the recorder, signed in with
    ``credentials`` (the administrator's token unless given)."""
    params = live.stdio(BASE_URL=recorder.url)
    assert params.env is not None
    signed = credentials or live.credentials
    params.env.update({f"{live.prefix}_{key}": value for key, value in signed.items()})
    return params


def _direct(live: LiveApi) -> httpx.Client:
    """A client of dstack signed in as the administrator."""
    return httpx.Client(
        base_url=live.root_url,
        headers={"Authorization": f"Bearer {dstack.ADMIN_TOKEN}"},
        timeout=30,
    )


def _post(live: LiveApi, path: str, body: Any = None) -> httpx.Response:
    with _direct(live) as direct:
        return direct.post(path) if body is None else direct.post(path, json=body)


def _sent(recorder: dstack.Recorder) -> list[tuple[str, str, str | None, bytes]]:
    """What dstack received since last asked: method, target, content type, body."""
    return [
        (seen.method, seen.target, seen.headers.get("content-type"), seen.body)
        for seen in recorder.take()
    ]


def _roles(project: dict[str, Any]) -> dict[str, str]:
    return {member["user"]["username"]: member["project_role"] for member in project["members"]}


def _usernames(users: list[dict[str, Any]]) -> list[str]:
    return [user["username"] for user in users]


async def test_a_project_gets_a_member_with_a_role_and_is_deleted(
    dstack_api: LiveApi, recorder: dstack.Recorder
) -> None:
    async with mcp_client(_through(dstack_api, recorder)) as client:
        project = await client.call_tool("create_project", {"project_name": "realapi-team"})
        user = await client.call_tool(
            "create_user",
            {"username": "realapi-carol", "global_role": "user", "email": "carol@example.com"},
        )
        added = await client.call_tool(
            "add_project_members",
            {
                "project_name": "realapi-team",
                "members": [{"username": "realapi-carol", "project_role": "manager"}],
            },
        )
        read = await client.call_tool("get_project", {"project_name": "realapi-team"})
        exchanges = _sent(recorder)
        made = _post(dstack_api, "/api/projects/realapi-team/get").json()
        deleted = await client.call_tool("delete_projects", {"projects_names": ["realapi-team"]})
    for result in (project, user, added, read, deleted):
        assert not result.is_error, texts(result)
    assert exchanges == [
        ("POST", "/api/projects/create", JSON, b'{"project_name":"realapi-team"}'),
        (
            "POST",
            "/api/users/create",
            JSON,
            b'{"username":"realapi-carol","global_role":"user","email":"carol@example.com"}',
        ),
        (
            "POST",
            "/api/projects/realapi-team/add_members",
            JSON,
            b'{"members":[{"username":"realapi-carol","project_role":"manager"}]}',
        ),
        # the project's name is in the path: the read sends no body
        ("POST", "/api/projects/realapi-team/get", None, b""),
    ]
    assert _sent(recorder) == [
        ("POST", "/api/projects/delete", JSON, b'{"projects_names":["realapi-team"]}')
    ]
    made_user = result_json(user)
    assert (made_user["username"], made_user["email"]) == ("realapi-carol", "carol@example.com")
    # the owner stays its admin; the user added is a manager, as read back and as dstack has it
    assert _roles(result_json(added)) == {"admin": "admin", "realapi-carol": "manager"}
    assert result_json(read) == made
    assert _roles(made) == {"admin": "admin", "realapi-carol": "manager"}
    assert result_json(deleted) is None
    gone = _post(dstack_api, "/api/projects/realapi-team/get")
    assert (gone.status_code, gone.json()) == (404, {"detail": {"msg": "Not found", "code": None}})
    users = _post(dstack_api, "/api/users/get_user", {"username": "realapi-carol"})
    assert users.status_code == 200, users.text
    assert users.json()["id"] == made_user["id"]


async def test_an_optional_body_is_its_fields_and_is_left_out_when_none_is_given(
    dstack_api: LiveApi, recorder: dstack.Recorder
) -> None:
    tool, path = "list_users", "/api/users/list"
    operation = dstack_api.spec["paths"][path]["post"]
    assert "required" not in operation["requestBody"]
    assert operation["requestBody"]["content"][JSON]["schema"]["anyOf"] == [
        {"$ref": "#/components/schemas/ListUsersRequest"},
        {"type": "null"},
    ]
    fields = dstack_api.spec["components"]["schemas"]["ListUsersRequest"]["properties"]
    for name in ("realapi-ursula", "realapi-victor"):
        made = _post(dstack_api, "/api/users/create", {"username": name, "global_role": "user"})
        assert made.status_code == 200, made.text
    everyone = _post(dstack_api, path).json()
    async with mcp_client(_through(dstack_api, recorder)) as client:
        tools = await every_tool(client)
        matching = await client.call_tool(tool, {"name_pattern": "ursula"})
        assert _sent(recorder) == [("POST", path, JSON, b'{"name_pattern":"ursula"}')]
        unfiltered = await client.call_tool(tool, {})
        assert _sent(recorder) == [("POST", path, None, b"")]
    # the body's fields are the tool's arguments (beside the generated server's own JMESPath
    # selection), none of them required
    schema = tools[tool].input_schema
    assert sorted(schema["properties"]) == sorted([*fields, "_select"])
    assert schema.get("required", []) == []
    assert not matching.is_error, texts(matching)
    assert _usernames(result_json(matching)) == ["realapi-ursula"]
    assert not unfiltered.is_error, texts(unfiltered)
    assert result_json(unfiltered) == everyone
    assert {"admin", "realapi-ursula", "realapi-victor"} <= set(_usernames(everyone))


async def test_list_projects_takes_its_optional_body_as_arguments(
    dstack_api: LiveApi, recorder: dstack.Recorder
) -> None:
    for name in ("realapi-alpha", "realapi-beta"):
        made = _post(dstack_api, "/api/projects/create", {"project_name": name})
        assert made.status_code == 200, made.text
    async with mcp_client(_through(dstack_api, recorder)) as client:
        tools = await every_tool(client)
        found = await client.call_tool(
            "list_projects", {"return_total_count": True, "name_pattern": "alpha"}
        )
    assert "body" not in tools["list_projects"].input_schema["properties"]
    assert _sent(recorder) == [
        (
            "POST",
            "/api/projects/list",
            JSON,
            b'{"return_total_count":true,"name_pattern":"alpha"}',
        )
    ]
    assert not found.is_error, texts(found)
    page = result_json(found)
    assert page["total_count"] == 1
    assert [project["project_name"] for project in page["projects"]] == ["realapi-alpha"]


async def test_reads_are_read_only_and_adding_members_may_change_a_role(
    dstack_api: LiveApi, recorder: dstack.Recorder
) -> None:
    surface = json.loads((dstack_api.package / "mcp-surface.json").read_text(encoding="utf-8"))
    operations = {
        item["name"]: item["operation"] for item in surface["items"] if "operation" in item
    }
    made = _post(dstack_api, "/api/projects/create", {"project_name": "realapi-roles"})
    assert made.status_code == 200, made.text
    user = _post(
        dstack_api, "/api/users/create", {"username": "realapi-dave", "global_role": "user"}
    )
    assert user.status_code == 200, user.text
    async with mcp_client(_through(dstack_api, recorder)) as client:
        tools = await every_tool(client)
        results = []
        for role in ("manager", "user"):
            results.append(
                await client.call_tool(
                    "add_project_members",
                    {
                        "project_name": "realapi-roles",
                        "members": [{"username": "realapi-dave", "project_role": role}],
                    },
                )
            )
        read = await client.call_tool("get_project", {"project_name": "realapi-roles"})
    # every POST that lists or gets, and the archive read by its hash, is read-only
    reads = sorted(
        name
        for name, operation in operations.items()
        if operation.startswith("POST ") and name.startswith(("list_", "get_"))
    )
    assert {"get_archive_by_hash", "list_users", "list_projects", "get_project"} <= set(reads)
    assert operations["get_archive_by_hash"] == "POST /api/files/get_archive_by_hash"
    for name in reads:
        annotations = tools[name].annotations
        assert annotations is not None
        assert (name, annotations.read_only_hint, annotations.destructive_hint) == (
            name,
            True,
            False,
        )
    create, add = tools["create_project"].annotations, tools["add_project_members"].annotations
    assert create is not None and add is not None
    assert (create.read_only_hint, create.destructive_hint) == (False, False)
    assert (add.read_only_hint, add.destructive_hint) == (False, True)
    # adding the member again with another role replaced the first one
    for result in (*results, read):
        assert not result.is_error, texts(result)
    assert _sent(recorder) == [
        (
            "POST",
            "/api/projects/realapi-roles/add_members",
            JSON,
            b'{"members":[{"username":"realapi-dave","project_role":"%s"}]}' % role.encode(),
        )
        for role in ("manager", "user")
    ] + [("POST", "/api/projects/realapi-roles/get", None, b"")]
    assert [_roles(result_json(result))["realapi-dave"] for result in results] == [
        "manager",
        "user",
    ]
    assert _roles(result_json(read)) == {"admin": "admin", "realapi-dave": "user"}
    direct = _post(dstack_api, "/api/projects/realapi-roles/get").json()
    assert _roles(direct) == {"admin": "admin", "realapi-dave": "user"}


async def test_an_error_is_in_dstacks_own_words(
    dstack_api: LiveApi, recorder: dstack.Recorder
) -> None:
    made = _post(dstack_api, "/api/projects/create", {"project_name": "realapi-taken"})
    assert made.status_code == 200, made.text
    again = _post(dstack_api, "/api/projects/create", {"project_name": "realapi-taken"})
    assert (again.status_code, again.json()) == (
        400,
        {"detail": [{"msg": "Resource exists", "code": "resource_exists"}]},
    )
    async with mcp_client(_through(dstack_api, recorder)) as client:
        refused = await client.call_tool("create_project", {"project_name": "realapi-taken"})
    assert _sent(recorder) == [
        ("POST", "/api/projects/create", JSON, b'{"project_name":"realapi-taken"}')
    ]
    assert refused.is_error
    assert texts(refused) == [f"Upstream returned 400 Bad Request: {again.text}"]


async def test_a_token_it_does_not_know_is_refused_naming_its_variable(
    dstack_api: LiveApi, recorder: dstack.Recorder
) -> None:
    bogus = "not-the-realapi-token"
    with httpx.Client(
        base_url=dstack_api.root_url, headers={"Authorization": f"Bearer {bogus}"}, timeout=30
    ) as direct:
        answer = direct.post("/api/users/list")
    assert (answer.status_code, answer.json()) == (
        403,
        {"detail": {"msg": "Invalid token", "code": None}},
    )
    async with mcp_client(_through(dstack_api, recorder, HTTP_BEARER_TOKEN=bogus)) as client:
        refused = await client.call_tool("list_users", {})
    (seen,) = recorder.take()
    assert (seen.target, seen.headers["authorization"], seen.status) == (
        "/api/users/list",
        f"Bearer {bogus}",
        403,
    )
    assert refused.is_error
    assert texts(refused) == [
        f"Upstream returned 403 Forbidden: {answer.text}\n"
        "The API refused this to the credentials of DSTACK_HTTP_BEARER_TOKEN: they may be "
        "invalid or lack a permission."
    ]
    assert bogus not in whole_result(refused)


def test_without_a_name_the_package_is_not_named_after_fastapi(
    dstack_api: LiveApi, tmp_path: Path
) -> None:
    answer = httpx.get(f"{dstack_api.root_url}/openapi.json", timeout=30)
    assert answer.status_code == 200
    assert answer.json()["info"]["title"] == "FastAPI"
    document = tmp_path / "openapi.json"
    document.write_bytes(answer.content)
    generation = generate(str(document), GenerateOptions(tool_mode="full"))
    assert generation.report.errors == []
    warned = {d.code: d.message for d in generation.report.warnings}
    assert warned["title-names-framework"] == (
        "'FastAPI' is the title its framework gives a document and names no API; the package is "
        "api-mcp: give it a name with --name"
    )
    plan = generation.plan
    assert (plan.distribution, plan.package) == ("api-mcp", "api_mcp")
    assert plan.distribution != "fastapi-mcp"
    assert "src/api_mcp/server.py" in generation.files
    assert not [path for path in generation.files if "fastapi" in path]
