"""POST operations that only read (search, count, validate, render, preview, ...) get a GET's hints.

A host that confirms destructive tools must not ask before every search. The rule reads the
operationId, the summary's first word and a one-word last path segment; any side-effect word
vetoes it; hints set in ``x-mcp`` or the config file win (the rule does not run); each decision is
an info diagnostic and ``inspect`` names the word that decided.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from textwrap import dedent

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.config import CONFIG_NAME
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.ir.model import Operation, Parameter
from openapi2mcp.plan.hints import (
    ReadingPost,
    acting_command,
    acting_endpoint,
    acting_get,
    additive_post,
    dry_run,
    read_only_post,
)

OK = '{"200": {description: ok, content: {application/json: {schema: {type: object}}}}}'
SPEC = dedent(
    f"""\
    openapi: 3.1.0
    info: {{title: Mixed, version: "1.0"}}
    servers: [{{url: "https://api.example.com"}}]
    paths:
      /markdown:
        post:
          operationId: markdown/render
          summary: Render a Markdown document
          responses: {OK}
      /{{index}}/_search:
        parameters: [{{name: index, in: path, required: true, schema: {{type: string}}}}]
        post:
          summary: Run a search
          responses: {OK}
      /_validate/query:
        post:
          responses: {OK}
      /v1/invoices/create_preview:
        post:
          operationId: PostInvoicesCreatePreview
          summary: Create a preview invoice
          responses: {OK}
      /apis/authorization.k8s.io/v1/selfsubjectaccessreviews:
        post:
          operationId: createAuthorizationV1SelfSubjectAccessReview
          summary: create a SelfSubjectAccessReview
          responses: {OK}
      /repos/{{owner}}/{{repo}}/check-suites/{{check_suite_id}}/rerequest:
        parameters:
          - {{name: owner, in: path, required: true, schema: {{type: string}}}}
          - {{name: repo, in: path, required: true, schema: {{type: string}}}}
          - {{name: check_suite_id, in: path, required: true, schema: {{type: integer}}}}
        post:
          operationId: checks/rerequest-suite
          summary: Rerequest a check suite
          responses: {OK}
      /filters:
        post:
          operationId: postFilters
          summary: Filters
          responses: {OK}
      /items/search:
        post:
          operationId: searchItems
          x-mcp: {{annotations: {{readOnlyHint: false}}}}
          responses: {OK}
      /orders/search:
        post:
          operationId: searchOrders
          responses: {OK}
      /things/search:
        put:
          operationId: searchThings
          responses: {OK}
    """
)
CONFIG = '[annotations.searchOrders]\ntitle = "Find orders"\ndestructive = true\n'


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "openapi.yaml"
    path.write_text(SPEC, encoding="utf-8")
    (tmp_path / CONFIG_NAME).write_text(CONFIG, encoding="utf-8")
    return path


def test_read_only_posts_get_the_hints_of_a_read(spec: Path) -> None:
    plan, _ = plan_source(str(spec), GenerateOptions())
    hints = {
        t.name: (t.annotations.read_only, t.annotations.destructive, t.annotations.idempotent)
        for t in plan.tools
    }
    assert hints == {
        "markdown_render": (True, False, True),
        "post_index_search": (True, False, True),
        "post_validate_query": (True, False, True),
        "post_invoices_create_preview": (True, False, True),
        # a review object is created: kept as the verb says, which only adds
        "create_authorization_v1_self_subject_access_review": (False, False, False),
        # "check" is a noun here; rerequest is the verb
        "checks_rerequest_suite": (False, True, False),
        # a plural is a collection: POST /filters creates one
        "post_filters": (False, True, False),
        # explicit hints win, from x-mcp and from the config file
        "search_items": (False, True, False),
        "search_orders": (False, True, False),
        # only POST is concerned
        "search_things": (False, True, True),
    }
    assert {t.name: t.annotations.title for t in plan.tools}["search_orders"] == "Find orders"


def test_each_decision_is_an_info_diagnostic_naming_the_word(spec: Path) -> None:
    _, report = plan_source(str(spec), GenerateOptions())
    decided = [d.render() for d in report.diagnostics if d.code == "post-read-only"]
    tail = (
        "and no side-effect word; set its hints in x-mcp annotations or "
        "[annotations.<operationId>] to change this"
    )
    assert decided == [
        "info[post-read-only] at #/paths/~1markdown/post: POST /markdown is read-only, "
        f"non-destructive and idempotent: 'render' in its operationId {tail}",
        "info[post-read-only] at #/paths/~1{index}~1_search/post: POST /{index}/_search is "
        f"read-only, non-destructive and idempotent: 'search' in its summary {tail}",
        "info[post-read-only] at #/paths/~1_validate~1query/post: POST /_validate/query is "
        f"read-only, non-destructive and idempotent: 'query' in its path {tail}",
        "info[post-read-only] at #/paths/~1v1~1invoices~1create_preview/post: POST "
        "/v1/invoices/create_preview is read-only, non-destructive and idempotent: 'preview' in "
        f"its operationId {tail}",
    ]


def test_inspect_shows_the_deciding_rule(spec: Path) -> None:
    result = CliRunner().invoke(main, ["inspect", str(spec)])
    assert result.exit_code == 0, result.output
    rows = {line.split()[1]: line for line in result.output.splitlines() if " tool" in line}
    assert rows["/markdown"].endswith(
        "read-only  by the read-only POST rule: 'render' in its operationId"
    )
    assert rows["/_validate/query"].endswith(
        "read-only  by the read-only POST rule: 'query' in its path"
    )
    assert rows["/filters"].split()[-1] == "destructive"
    assert rows["/items/search"].split()[-1] == "destructive"


# real APIs' POSTs: (operationId, path, summary) -> the deciding word and where, or None
@pytest.mark.parametrize(
    ("operation_id", "path", "summary", "expected"),
    [
        ("markdown/render-raw", "/markdown/raw", "", ReadingPost("render", "operationId")),
        ("count-1", "/_count", "Count search results", ReadingPost("count", "operationId")),
        ("", "/{index}/_search", "", ReadingPost("search", "path")),
        (
            "orgs/list-attestations-bulk",
            "/orgs/{org}/attestations/bulk-list",
            "List attestations by bulk subject digests",
            ReadingPost("list", "operationId"),
        ),
        ("files/list_folder", "/2/files/list_folder", "", ReadingPost("list", "operationId")),
        ("", "/plan/dry-run", "Dry run a plan", ReadingPost("dryrun", "summary")),
        ("", "/places/lookup", "Look up a place", ReadingPost("lookup", "summary")),
        # Stripe changes state when it "verifies" microdeposits
        (
            "PostPaymentIntentsIntentVerifyMicrodeposits",
            "/v1/payment_intents/{intent}/verify_microdeposits",
            "Verify microdeposits on a PaymentIntent",
            None,
        ),
        ("getOrCreateUser", "/users/get_or_create", "", None),
        ("fetchAndLock", "/external-task/fetchAndLock", "Fetch and Lock", None),
        ("getAccessToken", "/oauth/token", "Get an access token", None),
        ("deleteByQuery", "/{index}/_delete_by_query", "", None),
        ("savedSearch", "/saved/search", "Saved search", None),
        ("checkIn", "/bookings/{id}/check-in", "Check in a guest", None),
        ("findAndUpdate", "/things/find", "Finds things and updates them", None),
        # a preview excuses "create" only when the path ends in the preview action
        ("createPreviewEnvironment", "/preview-environments", "", None),
        ("deployDryRun", "/deployments/dry-run", "", None),
        ("searchIndex", "/searches", "", ReadingPost("search", "operationId")),
        # dstack's RPC-style API: what a read reads is no action, nor a collection in the path
        (
            "list_runs",
            "/api/project/{project_name}/runs/list",
            "List Runs",
            ReadingPost("list", "operationId"),
        ),
        (
            "get_archive_by_hash",
            "/api/project/{p}/files/get_archive_by_hash",
            "Get Archive By Hash",
            ReadingPost("get", "operationId"),
        ),
        (
            "list_exports",
            "/api/project/{p}/exports/list",
            "List Exports",
            ReadingPost("list", "operationId"),
        ),
        (
            "poll_logs",
            "/api/project/{p}/logs/poll",
            "Poll Logs",
            ReadingPost("poll", "operationId"),
        ),
        # a token or a session read is issued; a second action after "and" is one
        ("get_token", "/oauth/get_token", "Get Token", None),
        ("get_or_create_user", "/users/ensure", "", None),
        ("stop_runs", "/api/project/{p}/runs/stop", "Stop Runs", None),
        # a later verb still acts: Google's insert after the compute service's name
        ("compute.instances.insert", "/projects/{project}/zones/{zone}/instances", "", None),
        ("ListManagementImageLists_Create", "/contentmoderator/lists/v1.0/imagelists", "", None),
        ("ListImports", "/ListImports", "", ReadingPost("list", "operationId")),
        # LNbits decodes a Lightning invoice
        (
            "api_payments_decode",
            "/api/v1/payments/decode",
            "Api Payments Decode",
            ReadingPost("decode", "operationId"),
        ),
        ("", "/searches", "Searches", None),
        # what a leading read word reads is no action, up to a preposition: dstack's id and
        # summary as its FastAPI document has them; Airflow's FastAPI summary
        (
            "get_archive_by_hash_api_files_get_archive_by_hash_post",
            "/api/files/get_archive_by_hash",
            "Get file archive by hash",
            ReadingPost("get", "operationId"),
        ),
        (
            "",
            "/api/v2/dags/{dag_id}/dagRuns/list",
            "Get List Dag Runs Batch",
            ReadingPost("get", "summary"),
        ),
        ("", "/things/find", "Get things and delete them", None),
        ("", "/users/ensure", "Get or create a user", None),
        # Letta: what a preposition adds to the thing read is read too (a run's stream); a cache
        # warmed is no read, whatever it is of
        (
            "retrieve_stream_for_run",
            "/v1/runs/{run_id}/stream",
            "Retrieve Stream For Run",
            ReadingPost("retrieve", "operationId"),
        ),
        ("get_token_for_session", "/auth/token", "", None),
        ("warm_internal_search_cache", "/v1/_internal_search/warm", "Warm Search Cache", None),
        # a download of files is the caller's; of a model, the server's own (Open WebUI's Ollama)
        (
            "download_files_batch_api_v2_files_batch__post",
            "/api/v2/files/batch/",
            "Download Files Batch",
            ReadingPost("download", "operationId"),
        ),
        ("download_model_ollama_models_download_post", "/ollama/models/download", "", None),
        # Aim's reads by POST, said by the path's last segment
        (
            "sequence_batch_api_texts",
            "/runs/{run_id}/texts/get-batch",
            "Sequence Batch Api",
            ReadingPost("get", "path"),
        ),
        ("archive_runs_batch_api", "/runs/archive-batch", "Archive Runs Batch Api", None),
        # Google's ids name the service and the resource first: "compute" is the API's name
        (
            "compute.networks.switchToCustomMode",
            "/projects/{project}/global/networks/{network}/switchToCustomMode",
            "",
            None,
        ),
        (
            "compute.urlMaps.validate",
            "/projects/{project}/global/urlMaps/{urlMap}/validate",
            "",
            ReadingPost("validate", "operationId"),
        ),
        # Stripe's names spell the method and the path: a value list is no listing
        ("PostRadarValueListItems", "/v1/radar/value_list_items", "", None),
        ("PostRadarValueListsValueList", "/v1/radar/value_lists/{value_list}", "", None),
        (
            "PostInvoicesCreatePreview",
            "/v1/invoices/create_preview",
            "",
            ReadingPost("preview", "operationId"),
        ),
        # Feast stores the metrics it computes
        ("compute_metrics_monitoring_compute_post", "/monitoring/compute", "Compute Metrics", None),
    ],
)
def test_the_rule_on_real_apis_operations(
    operation_id: str, path: str, summary: str, expected: ReadingPost | None
) -> None:
    operation = Operation(
        key=operation_id or path,
        operation_id=operation_id or None,
        method="POST",
        path=path,
        pointer="#",
        summary=summary,
    )
    assert read_only_post(operation) == expected
    assert read_only_post(dataclasses.replace(operation, method="PATCH")) is None


@pytest.mark.parametrize(
    ("operation_id", "path", "summary", "expected"),
    [
        # LNbits (FastAPI), Etherpad, ZAP, GoToTraining: GETs that act
        ("api_restart_server", "/admin/api/v1/restart", "Api Restart Server", "restart"),
        # as FastAPI writes it, the path and method after the function's name
        ("api_restart_server_admin_api_v1_restart_get", "/admin/api/v1/restart", "Api Restart Server", "restart"),
        ("deletePadUsingGET", "/deletePad", "deletes a pad", "delete"),
        ("StopScanPage", "/stop/{scanId}", "Stop a scan", "stop"),
        ("startTraining", "/trainings/{trainingKey}/start", "Start Training", "start"),
        ("", "/users/resendWelcomeSms", "Resend Welcome SMS to the user", "resend"),
        # a verb a name says last: LiteLLM's drain takes the worker out of rotation; Slack's
        ("health_drain_health_drain_get", "/health/drain", "Health Drain", "drain"),
        ("auth_revoke", "/auth.revoke", "", "revoke"),
        ("bus_stop", "/stops/{id}", "", None),  # a noun, as often as a verb
        ("webhook_trigger", "/webhooks/{id}/trigger", "", None),
        # reads whose first word is such a verb
        ("StopPoint_GetByGeoPoint", "/StopPoint", "Gets a list of StopPoints", None),
        ("StopPoint_Arrivals", "/StopPoint/{id}/Arrivals", "Gets the list of arrival predictions", None),
        ("", "/search", "Send search terms to receive the most relevant companies", None),
        ("run.projects.locations.jobs.list", "/v2/{parent}/jobs", "", None),
        ("applications.delta", "/applications/microsoft.graph.delta()", "Invoke function delta", None),
        ("listProgrammes", "/programmes", "Start here for programmes metadata", None),
        ("restart", "/restart", "", None),  # one word: a noun as often (a restart policy)
        ("api_reset_settings", "/admin/api/v1/settings/default", "", "reset"),
        # ZenML's sign-out (FastAPI), alone in its name; and written in two words
        ("logout_api_v1_logout_get", "/api/v1/logout", "Logout", "logout"),
        ("logOut", "/session/logout", "", "logout"),
        ("", "/auth/signout", "Sign out", "signout"),
        ("getLogoutUrl", "/logout-url", "", None),
        # Evidently (Litestar): a GET that reloads a project's snapshots from disk
        ("ApiProjectsProjectIdReloadReloadProjectSnapshots", "/api/projects/{project_id}/reload", "", "reload"),
        ("reload_project_snapshots", "/api/projects/{project_id}/reload", "", "reload"),
        ("reindexStatus", "/admin/reindex", "", None),  # the status of one: a read
        # Strapi's email confirmation link, named by its summary alone; Open WebUI's OAuth
        # callbacks, which sign in or make an account
        ("", "/auth/email-confirmation", "Confirm user email", "confirm"),
        ("oauth_login_callback_oauth__provider__login_callback_get", "/oauth/{provider}/login/callback", "Oauth Login Callback", "callback"),
        ("getCallbackUrl", "/settings/callback-url", "", None),
        # PostgREST's functions, named by nothing but their path
        ("", "/rpc/reset_stock", "", "reset"),
        ("", "/rpc/tag_counts", "", None),
    ],
)  # fmt: skip
def test_a_get_that_acts_is_told_by_the_verb_leading_its_name(
    operation_id: str, path: str, summary: str, expected: str | None
) -> None:
    operation = Operation(
        key=operation_id or path,
        operation_id=operation_id or None,
        method="GET",
        path=path,
        pointer="#",
        summary=summary,
    )
    assert acting_get(operation) == expected
    assert acting_get(dataclasses.replace(operation, method="POST")) is None


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (
            "/auth/{provider}/callback",
            "callback",
        ),  # Strapi's, "Default Callback from provider auth"
        ("/lists/{id}/unsubscribe/", "unsubscribe"),
        ("/oauth2callback", "oauth2callback"),
        ("/callbacks", None),
        ("/callback/{id}", None),
    ],
)
def test_a_get_whose_path_names_an_acting_endpoint_acts(path: str, expected: str | None) -> None:
    operation = Operation(key=path, operation_id=None, method="GET", path=path, pointer="#")
    assert acting_endpoint(operation) == expected
    assert acting_endpoint(dataclasses.replace(operation, method="POST")) is None


def test_a_get_that_acts_is_a_tool_that_asks_and_no_resource(tmp_path: Path) -> None:
    # clients read every listed resource: LNbits restarted when one read its restart
    spec = tmp_path / "openapi.yaml"
    spec.write_text(
        dedent(
            f"""\
            openapi: 3.1.0
            info: {{title: Wallets, version: "1.0"}}
            servers: [{{url: "https://api.example.com"}}]
            paths:
              /admin/api/v1/restart:
                get: {{operationId: api_restart_server, responses: {OK}}}
              /admin/api/v1/settings:
                get: {{operationId: api_get_settings, responses: {OK}}}
            """
        )
    )
    plan, report = plan_source(str(spec), GenerateOptions())
    tools = {tool.name: tool for tool in plan.tools}
    # every name leads with "api", which says nothing of any: left out
    restart = tools["restart_server"].annotations
    assert (restart.read_only, restart.destructive, restart.idempotent) == (False, True, False)
    assert tools["get_settings"].annotations.read_only
    assert [resource.uri for resource in plan.resources] == ["wallets://admin/api/v1/settings"]
    (told,) = [d for d in report.diagnostics if d.code == "get-acts"]
    assert told.message == (
        "GET /admin/api/v1/restart acts ('restart' leads its operationId): it is a tool that is "
        "not read-only, and no resource; set its hints in x-mcp annotations or "
        "[annotations.<operationId>] to change this"
    )


def test_a_description_that_says_the_call_keeps_what_it_makes_is_no_read() -> None:
    # Feast's: "Submit a DQM job to compute and store metrics" (found by a read word otherwise)
    operation = Operation(
        key="k",
        operation_id="get_metrics_report",
        method="POST",
        path="/monitoring/report",
        pointer="#",
        description="Submit a job to compute and store metrics. Returns job_id.",
    )
    assert read_only_post(operation) is None
    # Karrio's rates: what it fetches replaces the shipment's rates (earlier rate ids die)
    rates = Operation(
        key="r",
        operation_id="$$$$$rates",
        method="POST",
        path="/v1/shipments/{id}/rates",
        pointer="#",
        summary="Fetch new shipment rates",
        description="Refresh the list of the shipment rates",
    )
    assert read_only_post(rates) is None
    assert read_only_post(dataclasses.replace(rates, description="")) == ReadingPost(
        "fetch", "summary"
    )
    # dstack's list_runs: a field it quotes, or a participle, keeps nothing
    for said in (
        "Returns all runs visible to user sorted by descending `submitted_at`.",
        "Returns the runs submitted by the user.",
    ):
        listed = dataclasses.replace(operation, description=said)
        assert read_only_post(listed) == ReadingPost("get", "operationId"), said
    # what it says after its first sentence, or of what a read reads, does not count
    said_later = "Get the metrics of a run.\n\nTheir store is kept for 30 days; save them."
    described = dataclasses.replace(operation, description=said_later)
    assert read_only_post(described) == ReadingPost("get", "operationId")
    # nor does sending the request it describes (DigitalOcean's "send a POST request to")
    asked = dataclasses.replace(operation, description="To get a report, send a POST request.")
    assert read_only_post(asked) == ReadingPost("get", "operationId")


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        # Feast's register_saved_dataset replaced a dataset of that name with allow_override
        (("name", "allow_override"), None),
        (("name", "allowOverwrite"), None),
        (("name", "overwrite"), None),
        (("name", "replace_existing"), None),
        # fields that only mention such a word say nothing of the create
        (("name", "force_ssl", "IsForced", "a2a_card_overrides"), "create"),
        (("name", "overrideSharePermissions"), "create"),
    ],
)
def test_a_create_that_may_overwrite_is_not_only_adding(
    fields: tuple[str, ...], expected: str | None
) -> None:
    operation = Operation(
        key="k", operation_id="create_dataset", method="POST", path="/datasets", pointer="#"
    )
    assert additive_post(operation, fields) == expected


@pytest.mark.parametrize(
    ("operation_id", "path", "summary", "expected"),
    [
        # Mayan's and NocoDB's creates: they add, and change nothing there was
        # Django REST framework's viewsets say create last, after the collection (Mayan's,
        # pretalx's); an action on one item does not only add, nor does one saying no plural
        ("v4_tags_create", "/api/v4/tags/", "", "create"),
        ("tags_create", "/api/events/{event}/tags/", "Create Tags", "create"),
        ("submissions_accept_create", "/api/events/{e}/submissions/{code}/accept/", "", None),
        ("webhooks_active_create", "/webhooks/{id}/active/", "", None),
        ("tags_create", "/api/tags/{id}/", "", None),
        # NetBox's: the collection's own words (link, set, saved, token) act in no sense
        ("extras_custom_links_create", "/api/extras/custom-links/", "", "create"),
        ("extras_custom_field_choice_sets_create", "/api/extras/custom-field-choice-sets/", "", "create"),
        ("users_tokens_create", "/api/users/tokens/", "", "create"),
        ("core_data_sources_sync_create", "/api/core/data-sources/sync/", "", None),
        ("create_tag_api_v1_tags_post", "/api/v1/tags", "Create Tag", "create"),
        ("addPet", "/pets", "Add a pet", "add"),
        ("", "/records", "Create a record", "create"),
        ("inviteUser", "/users/invite", "", "invite"),
        # more than adding: Azure's, an upsert, an import, a create that sends
        ("WebApps_CreateOrUpdate", "/sites/{name}", "", None),
        ("createOrReplaceSecret", "/secrets/{name}", "", None),
        ("addOrUpdateTag", "/tags", "", None),
        ("createAndSendInvoice", "/invoices", "", None),
        ("createImport", "/imports", "Create an import that replaces the data", None),
        # one word: what its collection says is made (Karrio's $create at /v1/parcels), else
        # nothing is said of what
        ("create", "/v1/parcels", "", "create"),
        ("create", "/things/{id}", "", None),
        ("create", "/imports", "", None),
        # adding members or many may set what is there: dstack's gives a member already there the
        # role sent (a demotion); AWS's AddTags overwrites a key's value
        ("add_project_members_api_projects__project_name__add_members_post", "/api/projects/{project_name}/add_members", "Add members", None),
        ("add_member", "/groups/{id}/members", "", None),
        ("AddTags", "/#X-Amz-Target=ElasticMapReduce.AddTags", "", None),
        ("attachVolume", "/volumes/{id}/attach", "", "attach"),
        ("addComment", "/issues/{id}/comments", "Add a comment", "add"),
        # Langflow's and Open WebUI's: an upload, a fork or a clone makes something new
        ("upload_user_file_api_v2_files_post", "/api/v2/files", "Upload User File", "upload"),
        ("fork_flow_api_v1_flows__flow_id__fork_post", "/api/v1/flows/{flow_id}/fork", "Fork Flow", "fork"),
        ("clone_chat_by_id_api_v1_chats__id__clone_post", "/api/v1/chats/{id}/clone", "Clone Chat By Id", "clone"),
        # Litestar's ids lead with the path, however short (Evidently's /api/projects)
        ("ApiProjectsAddProject", "/api/projects", "", "add"),
        ("ApiV2ProjectsAddProject", "/api/v2/projects", "", "add"),
        ("ApiArtifactsAddArtifact", "/api/artifacts", "", "add"),
        ("ProjectsAdd", "/projects", "", None),  # nothing but the path and one word
    ],
)  # fmt: skip
def test_a_post_that_only_adds_is_told_by_the_verb_leading_its_name(
    operation_id: str, path: str, summary: str, expected: str | None
) -> None:
    operation = Operation(
        key=operation_id or path,
        operation_id=operation_id or None,
        method="POST",
        path=path,
        pointer="#",
        summary=summary,
    )
    assert additive_post(operation) == expected
    assert additive_post(dataclasses.replace(operation, method="PUT")) is None


@pytest.mark.parametrize(
    ("operation_id", "description", "expected"),
    [
        # Airflow 3's FastAPI functions are named by their method: the description says the verb
        ("post_variable", "Create a variable.", "create"),
        ("post_pool", "Create a Pool.", "create"),
        ("post_clear_task_instances", "Clear task instances.", None),
        ("post_variable", "", None),
    ],
)
def test_a_post_named_by_its_method_is_told_by_its_description(
    operation_id: str, description: str, expected: str | None
) -> None:
    operation = Operation(
        key=operation_id,
        operation_id=operation_id,
        method="POST",
        path="/api/v2/things",
        pointer="#",
        summary=" ".join(w.title() for w in operation_id.split("_")),  # FastAPI's own
        description=description,
    )
    assert additive_post(operation) == expected


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        # Airflow 3 lists the task instances a change of state would touch, and changes none
        ("PATCH", "/dags/{dag_id}/dagRuns/{run}/taskInstances/{task_id}/dry_run", True),
        ("PUT", "/things/{id}/dry-run", True),
        ("DELETE", "/things/{id}/dryRun", True),
        ("PATCH", "/dags/{dag_id}/dagRuns/{run}/taskInstances/{task_id}", False),
        ("PATCH", "/dry_run/{id}", False),  # a thing named so, changed
        ("POST", "/backfills/dry_run", False),  # read_only_post's to say
    ],
)
def test_a_change_whose_path_ends_in_a_dry_run_only_reads(
    method: str, path: str, expected: bool
) -> None:
    operation = Operation(key=path, operation_id=None, method=method, path=path, pointer="#")
    assert dry_run(operation) is expected


@pytest.mark.parametrize(
    ("name", "values", "expected"),
    [
        # Netdata's /manage/health: read as a resource, it had silenced every alarm notification
        ("cmd", ["LIST", "SILENCE ALL", "DISABLE ALL", "RESET"], "cmd=DISABLE ALL"),
        ("action", ["show", "delete"], "action=delete"),
        ("cmd", ["LIST", "STATUS"], None),  # commands that only read
        # GitHub's list-suggestions filters by the change a suggestion proposes
        ("action", ["set_type", "add_label", "close_issue"], None),
        ("format", ["json", "csv"], None),  # no command
    ],
)
def test_a_get_that_takes_a_command_that_acts_acts(
    name: str, values: list[str], expected: str | None
) -> None:
    said = "Filter suggestions by the change they propose." if "add_label" in values else ""
    param = Parameter(name, "query", False, {"type": "string", "enum": values}, said)
    operation = Operation(
        key="k", operation_id=None, method="GET", path="/manage/health", pointer="#",
        parameters=(param,),
    )  # fmt: skip
    assert acting_command(operation) == expected
    assert acting_command(dataclasses.replace(operation, method="POST")) is None
    # a list's parameter is a filter, whatever it is named
    listing = dataclasses.replace(operation, operation_id="issues/list-suggestions")
    assert acting_command(dataclasses.replace(listing, parameters=(
        Parameter(name, "query", False, {"type": "string", "enum": values}),
    ))) is None  # fmt: skip
