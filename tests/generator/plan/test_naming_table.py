"""Tool names for operationIds as real APIs write them: GitHub, Stripe, Jira, Box, Kubernetes, Graph.

Every name is readable snake_case, valid for MCP (``[A-Za-z0-9_.-]``, at most 64 characters),
shortened at a word boundary plus a hash of the operationId when too long, the same on every run;
collisions get ``_2``, ``_3`` in document order, and every rename is a diagnostic.
"""

from __future__ import annotations

import re

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.ir.model import Api, Operation
from openapi2mcp.plan import naming
from openapi2mcp.plan.classify import classify_operations
from openapi2mcp.plan.settings import Settings

VALID_TOOL = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
TABLE = [
    # GitHub: tag/kebab-case
    ("issues/list-events-for-timeline", "issues_list_events_for_timeline"),
    ("repos/get-branch-protection", "repos_get_branch_protection"),
    ("actions/list-workflow-runs-for-repo", "actions_list_workflow_runs_for_repo"),
    ("repos/create-or-update-file-contents", "repos_create_or_update_file_contents"),
    (
        "enterprise-admin/remove-org-access-to-self-hosted-runner-group-in-enterprise",
        "enterprise_admin_remove_org_access_to_self_hosted_runner_6153f9",
    ),
    # Stripe: method + path words in PascalCase
    ("GetCustomersCustomer", "get_customers_customer"),
    ("PostCustomers", "post_customers"),
    ("DeleteCustomersCustomerSourcesId", "delete_customers_customer_sources_id"),
    (
        "GetCustomersCustomerBalanceTransactionsTransaction",
        "get_customers_customer_balance_transactions_transaction",
    ),
    ("PostPaymentIntentsIntentConfirm", "post_payment_intents_intent_confirm"),
    (
        "PostTestHelpersTreasuryOutboundTransfersOutboundTransferFail",
        "post_test_helpers_treasury_outbound_transfers_outbound_8de080",
    ),
    # Jira today, and Jira/Confluence's older Java-qualified ids: the method name is what is read
    ("getIssue", "get_issue"),
    ("createIssue", "create_issue"),
    ("doTransition", "do_transition"),
    ("getCreateIssueMeta", "get_create_issue_meta"),
    ("com.atlassian.jira.rest.v2.issue.IssueResource.getIssue_get", "get_issue"),
    ("com.atlassian.jira.rest.v2.issue.IssueResource.notify_post", "notify"),
    (
        "com.atlassian.jira.rest.v2.issue.IssueChangelogResource.getChangeLogs_get",
        "get_change_logs",
    ),
    ("com.atlassian.jira.rest.v2.issue.ComponentResource.updateComponent_put", "update_component"),
    (
        "com.atlassian.confluence.plugins.restapi.resources.UserResource.getCurrentUser_get",
        "get_current_user",
    ),
    # Box: method_path words, `#variant`, and a generated template key kept as one word
    ("get_files_id", "get_files_id"),
    ("Box#get_files_id", "box_get_files_id"),
    ("put_files_id#add_shared_link", "put_files_id_add_shared_link"),
    ("get_folders_id_items", "get_folders_id_items"),
    (
        "get_metadata_templates_enterprise_securityClassification-6VMVochwUWo_schema",
        "get_metadata_templates_enterprise_security_classification_5b90b6",
    ),
    (
        "delete_files_id_metadata_enterprise_securityClassification-6VMVochwUWo",
        "delete_files_id_metadata_enterprise_security_6e409d",
    ),
    # Kubernetes and Microsoft Graph: versions and dotted resource paths stay
    ("readCoreV1NamespacedPod", "read_core_v1_namespaced_pod"),
    ("patchAppsV1NamespacedStatefulSetScale", "patch_apps_v1_namespaced_stateful_set_scale"),
    ("users.user.ListUser", "users_user_list_user"),
    # acronyms, their plurals and brand names stay words
    ("HTTPServerStatus", "http_server_status"),
    ("getURLsForIDs", "get_urls_for_ids"),
    ("getOAuth2Token", "get_oauth2_token"),
    ("listGitHubAppInstallations", "list_github_app_installations"),
]


@pytest.mark.parametrize(("operation_id", "expected"), TABLE)
def test_real_operation_ids_give_readable_tool_names(operation_id: str, expected: str) -> None:
    name = naming.tool_name(operation_id)
    assert name == expected
    assert VALID_TOOL.fullmatch(name)


def test_shortened_names_keep_whole_words_and_differ_by_their_hash() -> None:
    base = "enterprise-admin/remove-org-access-to-self-hosted-runner-group-in-enterprise"
    names = [
        naming.tool_name(base),
        naming.tool_name(base + "s"),
        naming.tool_name(base, max_length=40),
    ]
    assert names == [
        "enterprise_admin_remove_org_access_to_self_hosted_runner_6153f9",
        "enterprise_admin_remove_org_access_to_self_hosted_runner_2a25d7",
        "enterprise_admin_remove_org_6153f9",
    ]
    # a single word longer than the room is cut inside it rather than lost
    assert naming.tool_name("x" * 80) == "x" * 57 + "_" + naming.short_hash("x" * 80)


def op(operation_id: str, path: str) -> Operation:
    pointer = "#/paths/" + path.replace("/", "~1") + "/get"
    return Operation(
        key=operation_id, operation_id=operation_id, method="GET", path=path, pointer=pointer
    )


def test_collisions_are_resolved_in_document_order_and_reported() -> None:
    api = Api(
        title="Jira",
        version="1",
        description="",
        openapi_version="3.0.3",
        servers=("https://jira.example.com",),
        operations=(
            op("getIssue", "/rest/api/3/issue/{id}"),
            op("com.atlassian.jira.rest.v2.issue.IssueResource.getIssue_get", "/rest/api/2/issue"),
            op("get-issue", "/legacy/issue"),
        ),
    )
    runs = []
    for _ in range(2):
        report = Report()
        surface = classify_operations(api, Settings(), "jira", report)
        runs.append(
            (
                [t.name for t in surface.tools],
                [(d.pointer, d.message) for d in report.diagnostics if d.code == "tool-renamed"],
            )
        )
    assert runs[0] == runs[1]
    names, renames = runs[0]
    assert names == ["get_issue", "get_issue_2", "get_issue_3"]
    assert renames == [
        ("#/paths/~1rest~1api~13~1issue~1{id}/get", "operationId 'getIssue' → tool 'get_issue'"),
        (
            "#/paths/~1rest~1api~12~1issue/get",
            "operationId 'com.atlassian.jira.rest.v2.issue.IssueResource.getIssue_get' → tool "
            "'get_issue_2'",
        ),
        ("#/paths/~1legacy~1issue/get", "operationId 'get-issue' → tool 'get_issue_3'"),
    ]


def test_a_collision_of_long_names_is_still_bounded_and_distinct() -> None:
    namer = naming.Namer(max_length=64)
    wanted = naming.tool_name("PostTestHelpersTreasuryOutboundTransfersOutboundTransferFail")
    first = namer.claim(wanted, seed="a")
    second = namer.claim(wanted, seed="b")
    assert first == wanted
    assert second != first and len(second) <= 64 and VALID_TOOL.fullmatch(second)
    assert second.startswith("post_test_helpers_treasury_outbound_transfers_outbound")


# FastAPI's generated operationIds (Prefect 3.9's live document): function, path, method
FASTAPI = [
    ("create_variable_variables__post", "/variables/", "create_variable"),
    (
        "read_variable_by_name_variables_name__name__get",
        "/variables/name/{name}",
        "read_variable_by_name",
    ),
    ("health_check_health_get", "/health", "health_check"),
    ("read_root__get", "/", "read_root"),
    # a route of GET and HEAD is named by its first method, which may be the other operation's
    ("read_items_items__head", "/items/", "read_items"),
    # a path with characters beyond \W's reach of ASCII ("-", ".", ":") turns them into "_" too
    ("get_job_jobs__job_id__logs_tail_json_get", "/jobs/{job-id}/logs:tail.json", "get_job"),
]


@pytest.mark.parametrize(("operation_id", "path", "function"), FASTAPI)
def test_fastapi_operation_ids_give_their_function_name(
    operation_id: str, path: str, function: str
) -> None:
    assert naming.function_name(operation_id, path) == function


@pytest.mark.parametrize(
    ("operation_id", "path"),
    [
        ("getIssue", "/issue"),  # not FastAPI's
        ("issues_get", "/issues"),  # the path alone with a method: nothing before it
        ("create_variable_variables__post", "/variables"),  # another path
        ("list-things_things_get", "/things"),  # no Python function's name before the path
    ],
)
def test_other_operation_ids_have_no_function_name(operation_id: str, path: str) -> None:
    assert naming.function_name(operation_id, path) == ""


def fastapi_op(operation_id: str, method: str, path: str) -> Operation:
    pointer = "#/paths/" + path.replace("/", "~1") + "/" + method.lower()
    return Operation(
        key=f"{method} {path}", operation_id=operation_id, method=method, path=path, pointer=pointer
    )


def test_fastapi_tools_are_named_by_function_and_two_routers_by_what_their_paths_add() -> None:
    api = Api(
        title="Prefect",
        version="3",
        description="",
        openapi_version="3.1.0",
        servers=("/api",),
        operations=(
            fastapi_op("create_variable_variables__post", "POST", "/variables/"),
            fastapi_op("read_variable_variables__id__get", "GET", "/variables/{id}"),
            fastapi_op("create_work_queue_work_queues__post", "POST", "/work_queues/"),
            fastapi_op(
                "create_work_queue_work_pools__work_pool_name__queues_post",
                "POST",
                "/work_pools/{work_pool_name}/queues",
            ),
            # GNS3: a version says nothing, and what both paths say tells neither apart
            fastapi_op(
                "get_file_v3_projects__project_id__files__file_path__get",
                "GET",
                "/v3/projects/{project_id}/files/{file_path}",
            ),
            fastapi_op(
                "get_file_v3_projects__project_id__nodes__node_id__files__file_path__get",
                "GET",
                "/v3/projects/{project_id}/nodes/{node_id}/files/{file_path}",
            ),
            # one function for several methods of one path: each method tells one apart (dstack's
            # service proxy, whose long ids had been cut to the same words and a hash)
            fastapi_op("read_items_items_get", "GET", "/items"),
            fastapi_op("read_items_items_head", "HEAD", "/items"),
            # ZenML: a list of all, and the same list under its owner, whose path says the
            # function's words again: the owner's id tells them apart
            fastapi_op(
                "list_model_versions_api_v1_model_versions_get", "GET", "/api/v1/model_versions"
            ),
            fastapi_op(
                "list_model_versions_api_v1_models__model_name_or_id__model_versions_get",
                "GET",
                "/api/v1/models/{model_name_or_id}/model_versions",
            ),
            # Open WebUI: a function that says its owner already ("by_id") with and without one
            # more path variable
            fastapi_op(
                "get_file_content_by_id_api_v1_files__id__content_get",
                "GET",
                "/api/v1/files/{id}/content",
            ),
            fastapi_op(
                "get_file_content_by_id_api_v1_files__id__content__file_name__get",
                "GET",
                "/api/v1/files/{id}/content/{file_name}",
            ),
            # Open WebUI: one function at an item and its collection of one router, and with and
            # without a version at another: both tell them apart
            fastapi_op("get_models_openai_models__url_idx__get", "GET", "/openai/models/{url_idx}"),
            fastapi_op("get_models_openai_models_get", "GET", "/openai/models"),
            fastapi_op("get_models_api_v1_models_get", "GET", "/api/v1/models"),
            fastapi_op("get_models_api_models_get", "GET", "/api/models"),
            # Glances: a function named only "api" (its _api) is named by its method and path
            fastapi_op("_api_api_4__plugin__get", "GET", "/api/4/{plugin}"),
            # LiteLLM: one route with and without a version
            fastapi_op("model_list_models_get", "GET", "/models"),
            fastapi_op("model_list_v1_models_get", "GET", "/v1/models"),
            # one function for two methods of a path, and another router's: the method tells them apart
            fastapi_op("search_search_post", "POST", "/search"),
            fastapi_op("search_search_get", "GET", "/search"),
            fastapi_op("search_search_tool_search_post", "POST", "/search_tool/search"),
        ),
    )
    report = Report()
    surface = classify_operations(api, Settings(), "prefect", report)
    assert [tool.name for tool in surface.all_tools] == [
        "create_variable",
        "read_variable",
        "create_work_queue",
        "create_work_queue_work_pools",
        "get_file",
        "get_file_nodes",
        "read_items_get",
        "read_items_head",
        "list_model_versions",
        "list_model_versions_by_model_name_or_id",
        "get_file_content_by_id",
        "get_file_content_by_id_and_file_name",
        "get_models_openai_by_url_idx",
        "get_models_openai",
        "get_models_api_v1",
        "get_models_api",
        "get_plugin",
        "model_list",
        "model_list_v1",
        "search_post",
        "search_get",
        "search_search_tool_post",
    ]
    renamed = [d.message for d in report.diagnostics if d.code == "tool-renamed"]
    assert renamed[:4] == [
        "operationId 'create_variable_variables__post' → tool 'create_variable'",
        "operationId 'read_variable_variables__id__get' → tool 'read_variable'",
        "operationId 'create_work_queue_work_queues__post' → tool 'create_work_queue'",
        "operationId 'create_work_queue_work_pools__work_pool_name__queues_post' → tool "
        "'create_work_queue_work_pools'",
    ]
