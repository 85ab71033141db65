"""Names users will see: tool names, identifiers, packages, environment variables."""

from __future__ import annotations

import keyword
import re
from pathlib import Path

import pytest

from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.plan import naming

VALID_TOOL = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@pytest.mark.parametrize(
    ("operation_id", "expected"),
    [
        ("getPetById", "get_pet_by_id"),
        ("issues/list-events-for-timeline", "issues_list_events_for_timeline"),
        ("Box#get_files_id", "box_get_files_id"),
        ("HTTPServerStatus", "http_server_status"),
        ("list pets", "list_pets"),
        ("Café.Crème", "cafe_creme"),
        ("get /pets/{petId}", "get_pets_pet_id"),
        ("!!!", "operation"),
        # LoopBack's and NestJS's class-and-method ids: "Controller" says nothing
        ("TodoController.findById", "todo_find_by_id"),
        ("TodoController_findAll", "todo_find_all"),
        ("FileDownloadController.downloadFile", "download_file"),
        ("FileDownloadController.listFiles", "file_download_list_files"),
        ("getController", "get_controller"),
        ("UserControllerV2.create", "user_controller_v2_create"),
    ],
)
def test_tool_names_are_readable_snake_case(operation_id: str, expected: str) -> None:
    assert naming.tool_name(operation_id) == expected


def test_long_names_are_shortened_deterministically_with_a_hash() -> None:
    long_id = "repos/get-branch-protection-required-status-checks-contexts-for-organization-admins"
    name = naming.tool_name(long_id)
    assert len(name) <= 64
    assert VALID_TOOL.match(name)
    assert name.startswith("repos_get_branch_protection")
    assert name == naming.tool_name(long_id)
    other = naming.tool_name(long_id + "-x")
    assert other != name


def test_namer_resolves_collisions_in_offer_order() -> None:
    namer = naming.Namer(max_length=64)
    assert namer.claim("list_pets", seed="a") == "list_pets"
    assert namer.claim("list_pets", seed="b") == "list_pets_2"
    assert namer.claim("list_pets", seed="c") == "list_pets_3"


@pytest.mark.parametrize("text", ["class", "import", "type", "match", "123abc", "", "None"])
def test_python_identifiers_never_keywords_or_digits_first(text: str) -> None:
    ident = naming.python_identifier(text)
    assert ident.isidentifier()
    assert not keyword.iskeyword(ident)
    assert not keyword.issoftkeyword(ident)


def test_distribution_package_and_env_names() -> None:
    dist = naming.distribution_name("petstore")
    assert dist == "petstore-mcp"
    assert naming.package_name(dist) == "petstore_mcp"
    assert naming.env_prefix("petstore") == "PETSTORE"
    assert naming.env_name("PETSTORE", "api_key") == "PETSTORE_API_KEY"
    assert naming.uri_scheme("9 lives") == "api9lives"


def test_a_prefix_with_digits_is_kept_in_every_variable(tmp_path: Path) -> None:
    """n8n's credentials were N8N_BASE_URL beside N8_N_API_KEY_AUTH_KEY: the prefix split again
    at its digit (K8S_, I18N_ alike), and the variable a user set by the others was not read."""
    spec = tmp_path / "n8n.yaml"
    spec.write_text(
        "openapi: 3.0.0\n"
        "info: {title: n8n Public API, version: 1.1.1}\n"
        "servers: [{url: 'https://{host}/api/v1', variables: {host: {default: n8n.example.com}}}]\n"
        "components:\n"
        "  securitySchemes:\n"
        "    ApiKeyAuth: {type: apiKey, in: header, name: X-N8N-API-KEY}\n"
        "security: [{ApiKeyAuth: []}]\n"
        "paths:\n"
        "  /tags: {get: {operationId: getTags, responses: {'200': {description: ok}}}}\n"
    )
    plan, _ = plan_source(str(spec), GenerateOptions())
    names = {env.name for env in plan.env_vars}
    assert {"N8N_BASE_URL", "N8N_API_KEY_AUTH_KEY", "N8N_SERVER_HOST"} <= names
    assert not [name for name in names if name.startswith("N8_N")]


@pytest.mark.parametrize(
    ("wire", "argument"),
    [
        ("limit", "limit"),
        ("where.title.eq", "where.title.eq"),  # Platformatic's: portable as it is
        ("_ordering", "_ordering"),
        ("$filter", "filter"),  # OData: 61,522 parameters of APIs.guru's documents
        ("$.xgafv", "xgafv"),  # Google's
        ("ids[]", "ids"),
        ("filter[status]", "filter_status"),
        ("@odata.count", "odata.count"),
        ("$", "argument"),
    ],
)
def test_an_argument_name_every_function_calling_dialect_takes(wire: str, argument: str) -> None:
    assert naming.argument_name(wire) == argument
    assert re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", naming.argument_name(wire + "x" * 80))
