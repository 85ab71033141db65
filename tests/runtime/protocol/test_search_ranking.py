"""Which operation ``search_operations`` puts first for what users type: their verbs, abbreviations,
synonyms and values, against operations named in an API's own words."""

from __future__ import annotations

import pytest

from templates.runtime.protocol.search import Entry, SearchIndex
from templates.runtime.protocol.search_document import document
from templates.runtime.protocol.search_query import CLAUSE, read_query
from templates.runtime.protocol.search_vocabulary import stem

# (name, method, path, summary, tags, parameters, description)
OPERATIONS = [
    ("repos_list_for_authenticated_user", "GET", "/user/repos", "List repositories for the authenticated user", "repos", "", ""),
    ("repos_list_for_user", "GET", "/users/{username}/repos", "List repositories for a user", "repos", "username", ""),
    ("repos_get", "GET", "/repos/{owner}/{repo}", "Get a repository", "repos", "owner repo", ""),
    ("repos_update", "PATCH", "/repos/{owner}/{repo}", "Update a repository", "repos", "owner repo name description archived", ""),
    ("repos_delete", "DELETE", "/repos/{owner}/{repo}", "Delete a repository", "repos", "owner repo", ""),
    ("repos_get_content", "GET", "/repos/{owner}/{repo}/contents/{path}", "Get repository content", "repos", "owner repo path ref", "Gets the contents of a file or directory in a repository."),
    ("repos_list_collaborators", "GET", "/repos/{owner}/{repo}/collaborators", "List repository collaborators", "repos", "owner repo permission", ""),
    ("repos_create_webhook", "POST", "/repos/{owner}/{repo}/hooks", "Create a repository webhook", "repos", "owner repo config events", ""),
    ("repos_list_webhooks", "GET", "/repos/{owner}/{repo}/hooks", "List repository webhooks", "repos", "owner repo", ""),
    ("repos_delete_webhook", "DELETE", "/repos/{owner}/{repo}/hooks/{hook_id}", "Delete a repository webhook", "repos", "owner repo hook_id", ""),
    ("pulls_list", "GET", "/repos/{owner}/{repo}/pulls", "List pull requests", "pulls", "owner repo state head base", ""),
    ("pulls_create", "POST", "/repos/{owner}/{repo}/pulls", "Create a pull request", "pulls", "owner repo title head base body", ""),
    ("pulls_update_branch", "PUT", "/repos/{owner}/{repo}/pulls/{pull_number}/update-branch", "Update a pull request branch", "pulls", "owner repo pull_number", "Updates the pull request branch with the latest upstream changes."),
    ("pulls_merge", "PUT", "/repos/{owner}/{repo}/pulls/{pull_number}/merge", "Merge a pull request", "pulls", "owner repo pull_number", ""),
    ("issues_list_for_repo", "GET", "/repos/{owner}/{repo}/issues", "List repository issues", "issues", "owner repo state labels assignee", ""),
    ("issues_create", "POST", "/repos/{owner}/{repo}/issues", "Create an issue", "issues", "owner repo title body labels", ""),
    ("issues_create_comment", "POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", "Create an issue comment", "issues", "owner repo issue_number body", ""),
    ("issues_list_labels_for_repo", "GET", "/repos/{owner}/{repo}/labels", "List labels for a repository", "issues", "owner repo", ""),
    ("issues_lock", "PUT", "/repos/{owner}/{repo}/issues/{issue_number}/lock", "Lock an issue", "issues", "owner repo issue_number", ""),
    ("activity_star_repo_for_authenticated_user", "PUT", "/user/starred/{owner}/{repo}", "Star a repository for the authenticated user", "activity", "owner repo", ""),
    ("activity_list_repos_starred_by_authenticated_user", "GET", "/user/starred", "List repositories starred by the authenticated user", "activity", "", ""),
    ("orgs_list_members", "GET", "/orgs/{org}/members", "List organization members", "orgs", "org", ""),
    ("orgs_remove_member", "DELETE", "/orgs/{org}/members/{username}", "Remove an organization member", "orgs", "org username", ""),
    ("orgs_delete", "DELETE", "/orgs/{org}", "Delete an organization", "orgs", "org", ""),
    ("get_customers", "GET", "/v1/customers", "Get customers", "", "email limit", "<p>Returns a list of your customers.</p>"),
    ("get_customers_search", "GET", "/v1/customers/search", "Get customers search", "", "query limit", "<p>Search for customers you have previously created.</p>"),
    ("post_customers", "POST", "/v1/customers", "Post customers", "", "email name", "<p>Creates a new customer object.</p>"),
    ("delete_customers_customer", "DELETE", "/v1/customers/{customer}", "Delete customers customer", "", "customer", "<p>Permanently deletes a customer.</p>"),
    ("delete_customers_customer_discount", "DELETE", "/v1/customers/{customer}/discount", "Delete customers customer discount", "", "customer", "<p>Removes the currently applied discount on a customer.</p>"),
    ("post_customers_customer", "POST", "/v1/customers/{customer}", "Post customers customer", "", "customer email name", "<p>Updates the specified customer.</p>"),
    ("list_batch_v1_namespaced_cron_job", "GET", "/apis/batch/v1/namespaces/{namespace}/cronjobs", "List batch v1 namespaced cron job", "batch_v1", "namespace", "list or watch objects of kind CronJob"),
    ("create_core_v1_namespaced_persistent_volume_claim", "POST", "/api/v1/namespaces/{namespace}/persistentvolumeclaims", "Create core v1 namespaced persistent volume claim", "core_v1", "namespace body", "create a PersistentVolumeClaim"),
    ("read_core_v1_namespaced_pod_log", "GET", "/api/v1/namespaces/{namespace}/pods/{name}/log", "Read core v1 namespaced pod log", "core_v1", "namespace name container", "read log of the specified Pod"),
    ("list_core_v1_namespaced_pod", "GET", "/api/v1/namespaces/{namespace}/pods", "List core v1 namespaced pod", "core_v1", "namespace", "list or watch objects of kind Pod"),
    ("watch_core_v1_namespaced_pod_list", "GET", "/api/v1/watch/namespaces/{namespace}/pods", "Watch core v1 namespaced pod list", "core_v1", "namespace labelSelector", "watch individual changes to a list of Pod. deprecated: use the 'watch' parameter with a list operation instead."),
    ("delete_core_v1_collection_namespaced_pod", "DELETE", "/api/v1/namespaces/{namespace}/pods", "Delete core v1 collection namespaced pod", "core_v1", "namespace", "delete collection of Pod"),
    ("patch_core_v1_namespaced_pod", "PATCH", "/api/v1/namespaces/{namespace}/pods/{name}", "Patch core v1 namespaced pod", "core_v1", "namespace name body", "partially update the specified Pod"),
    ("read_core_v1_node", "GET", "/api/v1/nodes/{name}", "Read core v1 node", "core_v1", "name", "read the specified Node"),
    ("post_payment_intents_intent", "POST", "/v1/payment_intents/{intent}", "Post payment intents intent", "", "intent amount", "<p>Updates properties on a PaymentIntent object without confirming.</p>"),
    ("post_payment_intents_intent_confirm", "POST", "/v1/payment_intents/{intent}/confirm", "Post payment intents intent confirm", "", "intent", "<p>Confirm that your customer intends to pay with current or provided payment method.</p>"),
    ("post_transfers_transfer", "POST", "/v1/transfers/{transfer}", "Post transfers transfer", "", "transfer", "<p>Updates the specified transfer.</p>"),
    ("post_transfers_id_reversals", "POST", "/v1/transfers/{id}/reversals", "Post transfers id reversals", "", "id amount", "<p>When you create a new reversal, you must specify a transfer to create it on.</p>"),
    ("post_payouts_payout_reverse", "POST", "/v1/payouts/{payout}/reverse", "Post payouts payout reverse", "", "payout", "<p>Reverses a payout by debiting the destination bank account.</p>"),
    ("get_accounts_account_people", "GET", "/v1/accounts/{account}/people", "Get accounts account people", "", "account", "<p>Returns a list of people associated with the account.</p>"),
    ("get_accounts_account_people_person", "GET", "/v1/accounts/{account}/people/{person}", "Get accounts account people person", "", "account person", "<p>Retrieves an existing person.</p>"),
    ("issues_update", "PATCH", "/repos/{owner}/{repo}/issues/{issue_number}", "Update an issue", "issues", "owner repo issue_number state title", "Issue owners and users with push access can edit an issue."),
    ("issues_add_assignees", "POST", "/repos/{owner}/{repo}/issues/{issue_number}/assignees", "Add assignees to an issue", "issues", "owner repo issue_number assignees", ""),
    ("issues_delete", "DELETE", "/issues/{issueIdOrKey}", "Delete issue", "issues", "issueIdOrKey", "Deletes an issue."),
    ("repos_create_release", "POST", "/repos/{owner}/{repo}/releases", "Create a release", "repos", "owner repo tag_name name body", ""),
    ("repos_get_commit", "GET", "/repos/{owner}/{repo}/commits/{ref}", "Get a commit", "repos", "owner repo ref", ""),
    ("rate_limit_get", "GET", "/rate_limit", "Get rate limit status for the authenticated user", "rate-limit", "", ""),
    ("create_autoscaling_v2_namespaced_horizontal_pod_autoscaler", "POST", "/apis/autoscaling/v2/namespaces/{namespace}/horizontalpodautoscalers", "Create autoscaling v2 namespaced horizontal pod autoscaler", "autoscaling_v2", "namespace body", "create a HorizontalPodAutoscaler"),
    ("post_payment_intents_intent_capture", "POST", "/v1/payment_intents/{intent}/capture", "Post payment intents intent capture", "", "intent amount_to_capture", "<p>Capture the funds of an existing uncaptured PaymentIntent.</p>"),
    ("post_charges_charge_capture", "POST", "/v1/charges/{charge}/capture", "Post charges charge capture", "", "charge amount", "<p>Capture the payment of an existing, uncaptured charge.</p>"),
    ("repos_update_branch_protection", "PUT", "/repos/{owner}/{repo}/branches/{branch}/protection", "Update branch protection", "repos", "owner repo branch required_status_checks", "Protecting a branch requires admin or owner permissions to the repository."),
    ("delete_subscriptions_subscription_exposed_id", "DELETE", "/v1/subscriptions/{subscription_exposed_id}", "Delete subscriptions subscription exposed id", "", "subscription_exposed_id", "<p>Cancels a customer’s subscription immediately.</p>"),
    ("post_subscription_schedules_schedule_cancel", "POST", "/v1/subscription_schedules/{schedule}/cancel", "Post subscription schedules schedule cancel", "", "schedule", "<p>Cancels a subscription schedule and its associated subscription immediately.</p>"),
    ("pulls_create_review", "POST", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", "Create a review for a pull request", "pulls", "owner repo pull_number event body", ""),
    ("actions_approve_workflow_run", "POST", "/repos/{owner}/{repo}/actions/runs/{run_id}/approve", "Approve a workflow run for a fork pull request", "actions", "owner repo run_id", ""),
    ("get_disputes_dispute", "GET", "/v1/disputes/{dispute}", "Get disputes dispute", "", "dispute", "<p>Retrieves the dispute with the given ID.</p>"),
    ("post_disputes_dispute_close", "POST", "/v1/disputes/{dispute}/close", "Post disputes dispute close", "", "dispute", "<p>Closing the dispute for a charge indicates that you do not have any evidence to submit and are essentially dismissing the dispute, acknowledging it as lost.</p>"),
    ("users_get_by_username", "GET", "/users/{username}", "Get a user", "users", "username", "Provides publicly available information about someone with a GitHub account."),
    ("orgs_create_invitation", "POST", "/orgs/{org}/invitations", "Create an organization invitation", "orgs", "org email invitee_id role", "Invite people to an organization by using their GitHub user ID or their email address."),
    ("users_add_email_for_authenticated_user", "POST", "/user/emails", "Add an email address for the authenticated user", "users", "emails", ""),
    ("post_payouts", "POST", "/v1/payouts", "Post payouts", "", "amount currency", "<p>To send funds to your own bank account, create a new payout object.</p>"),
    ("get_payouts", "GET", "/v1/payouts", "Get payouts", "", "status limit", "<p>Returns a list of existing payouts sent to third-party bank accounts or payouts that Stripe sent to you.</p>"),
    ("post_test_helpers_treasury_outbound_payments_id_fail", "POST", "/v1/test_helpers/treasury/outbound_payments/{id}/fail", "Post test helpers treasury outbound payments id fail", "", "id", "<p>Transitions a test mode created OutboundPayment to the failed status.</p>"),
    ("get_payment_intents_search", "GET", "/v1/payment_intents/search", "Get payment intents search", "", "query limit", "<p>Search for PaymentIntents you’ve previously created using Stripe’s Search Query Language.</p>"),
    ("post_refunds", "POST", "/v1/refunds", "Post refunds", "", "charge payment_intent amount", "<p>When you create a new refund, you must specify a Charge or a PaymentIntent object on which to create it.</p>"),
    ("post_charges_charge_refund", "POST", "/v1/charges/{charge}/refund", "Post charges charge refund", "", "charge amount", "<p>When you create a new refund, you must specify a Charge object on which to create it.</p>"),
    ("list_apps_v1_namespaced_daemon_set", "GET", "/apis/apps/v1/namespaces/{namespace}/daemonsets", "List apps v1 namespaced daemon set", "apps_v1", "namespace", "list or watch objects of kind DaemonSet"),
    ("patch_apps_v1_namespaced_daemon_set", "PATCH", "/apis/apps/v1/namespaces/{namespace}/daemonsets/{name}", "Patch apps v1 namespaced daemon set", "apps_v1", "namespace name body", "partially update the specified DaemonSet"),
    ("reactions_create_for_issue", "POST", "/repos/{owner}/{repo}/issues/{issue_number}/reactions", "Create reaction for an issue", "reactions", "owner repo issue_number content", "Create a reaction to an issue, such as a +1 vote."),
    ("get_customers_customer", "GET", "/v1/customers/{customer}", "Get customers customer", "", "customer", "<p>Retrieves a Customer object.</p>"),
]  # fmt: skip


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(
        Entry(
            name=name,
            summary=summary,
            method=method,
            path=path,
            tags=tuple(tags.split()),
            params=tuple(params.split()),
            # descriptions as the catalog has them: some start with the summary, some not
            text=text if text.startswith("<p>") or not text else f"{summary}\n\n{text}",
        )
        for name, method, path, summary, tags, params, text in OPERATIONS
    )


def first(index: SearchIndex, query: str) -> str:
    found = index.search(query, limit=5)
    return found[0].name if found else ""


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # abbreviations and synonyms
        ("make a PR for my branch", "pulls_create"),
        ("open a ticket", "issues_create"),
        ("merge PR 42", "pulls_merge"),
        # a hyphenated verb is a kind of its last part; "#42" after a noun is that thing's number
        ("squash-merge PR #42", "pulls_merge"),
        ("who can access this repo", "repos_list_collaborators"),
        # verbs say which kind of operation: create, read or list, update, delete
        ("rename the repo", "repos_update"),
        ("get rid of the repository", "repos_delete"),
        ("kick alice out of the org", "orgs_remove_member"),
        ("show all labels", "issues_list_labels_for_repo"),
        ("sign up a new customer", "post_customers"),
        ("change the customer's email", "post_customers_customer"),
        # a verb of the operation's own
        ("star this project", "activity_star_repo_for_authenticated_user"),
        ("lock the issue", "issues_lock"),
        # questions read; "open" before a noun is a state, not a verb
        ("which repos did I star", "activity_list_repos_starred_by_authenticated_user"),
        ("open tickets", "issues_list_for_repo"),
        # "my": the authenticated user's
        ("my repos", "repos_list_for_authenticated_user"),
        ("repos of a user", "repos_list_for_user"),
        # values stand for what they are
        ("show me what's in src/app.py", "repos_get_content"),
        # the operation that says no more than was asked
        ("delete a customer", "delete_customers_customer"),
        ("remove the discount of a customer", "delete_customers_customer_discount"),
        # vocabulary learned from the API: compounds its paths spell, acronyms of its names
        ("show cronjobs", "list_batch_v1_namespaced_cron_job"),
        ("request a new pvc", "create_core_v1_namespaced_persistent_volume_claim"),
        ("tail the logs of the api pod", "read_core_v1_namespaced_pod_log"),
        ("what pods are running", "list_core_v1_namespaced_pod"),
        # an acronym's plural is one word ("PRs", not "P" and "Rs", a ReplicaSet)
        ("what PRs are still open on octo/app", "pulls_list"),
        # the API's words of the same family: "reverse" finds reversals
        ("reverse a transfer", "post_transfers_id_reversals"),
        # an action a path ends with is the operation's own verb ("/payment_intents/{i}/confirm")
        ("confirm the payment intent", "post_payment_intents_intent_confirm"),
        # "who" and "people" ask for a list
        ("who are the people on this connected account", "get_accounts_account_people"),
        # "all" says how many, not what: deleting all pods is deleting their collection
        ("delete all pods in the namespace", "delete_core_v1_collection_namespaced_pod"),
        # values: an issue number, a handle, a named thing of a kind, quoted text
        ("close #9, it's a duplicate", "issues_update"),
        ("assign #88 to @maria", "issues_add_assignees"),
        ("is node-2 healthy", "read_core_v1_node"),
        ("rename the repo to 'Customer list for the EU team'", "repos_update"),
        # a verb told later, on what was named first
        ("XYZ-400 is a dupe, nuke it", "issues_delete"),
        # values that say what they are: a version, a commit's sha, an id's prefix
        ("publish v3.0.0 of octo/app", "repos_create_release"),
        ("what's in 9f8e7d1 on octo/app", "repos_get_commit"),
        ("show cus_9s8T", "get_customers_customer"),
        ("capture pi_3AbC9", "post_payment_intents_intent_capture"),
        ("capture ch_3Nx8aB2", "post_charges_charge_capture"),
        # words that say together what neither says alone (the cue tables)
        (
            "have web grow and shrink between 3 and 20 pods",
            "create_autoscaling_v2_namespaced_horizontal_pod_autoscaler",
        ),
        ("how many API calls do I have left", "rate_limit_get"),
        ("nobody should push to main without a review", "repos_update_branch_protection"),
        # "need a": to create; "ns" is not a plural; "drop a note": a comment, nothing deleted
        ("need a pvc for postgres in ns db", "create_core_v1_namespaced_persistent_volume_claim"),
        ("drop a note on #12 that the fix is out", "issues_create_comment"),
        ("tell the folks on #55 that the fix ships in 2.1", "issues_create_comment"),
        # "kick off the build" starts it, "kick bob off the org" removes him; "+1" is a vote
        ("kick alice off the org", "orgs_remove_member"),
        ("+1 #400, we need it too", "reactions_create_for_issue"),
        # what a user tells before asking ("can you", "please") is context, not the request
        ("I'm new to the org, can you show me the webhooks of this repo", "repos_list_webhooks"),
        ("leave a note on #88 saying 'fixed, can you please retest'", "issues_create_comment"),
        # "for me" at the end is on my behalf, not about me
        ("pull up cus_9s8T for me", "get_customers_customer"),
        # a deletion its description calls by a verb of its own ("Cancels a subscription")
        ("cancel sub_1PzQ8k right now", "delete_subscriptions_subscription_exposed_id"),
        # cues for frequent tasks; an id's thing is said too ("dp_88": a dispute)
        ("approve PR 903, looks good to me", "pulls_create_review"),
        ("LGTM, approve acme/web#57", "pulls_create_review"),
        ("not worth fighting dp_88, just concede it", "post_disputes_dispute_close"),
        # someone's ("gaearon's"), an address to invite: people; "pay out" makes a payout
        ("invite sam@example.com to the acme organization", "orgs_create_invitation"),
        ("pay out $500 to our bank account now", "post_payouts"),
        # a verb that names what a create operation makes: "refund" creates a refund
        ("refund pi_3NabcXYZ12 in full", "post_refunds"),
        # things with a property are found by an operation that searches
        ("find all customers with an @acme.com email", "get_customers_search"),
        # operations for tests only come after the others, unless testing is asked for
        ("find failed payments over $1000 from this week", "get_payment_intents_search"),
        (
            "make outbound payment obp_123 fail in test mode",
            "post_test_helpers_treasury_outbound_payments_id_fail",
        ),
        # a query may start with the things it wants, not a verb
        ("daemonsets running in kube-system", "list_apps_v1_namespaced_daemon_set"),
        # words the API never uses, read as people mean them (the general lexicon)
        ("freeze the conversation on #400", "issues_lock"),
        ("nuke the webhook", "repos_delete_webhook"),
        ("scrap that customer", "delete_customers_customer"),
    ],
)
def test_the_operation_a_user_means_comes_first(
    index: SearchIndex, query: str, expected: str
) -> None:
    assert first(index, query) == expected


def test_deleting_is_never_first_unless_asked_for(index: SearchIndex) -> None:
    assert first(index, "webhooks of the repo") == "repos_list_webhooks"
    assert first(index, "the webhook") != "repos_delete_webhook"
    assert first(index, "drop the webhook") == "repos_delete_webhook"


def test_a_word_the_api_does_not_use_finds_what_it_abbreviates(index: SearchIndex) -> None:
    assert first(index, "list collabs") == "repos_list_collaborators"


def test_a_word_written_as_its_consonants_finds_the_word_it_abbreviates() -> None:
    # "mtg": a meeting, though the index keeps "meet" (the stem of "meeting")
    index = SearchIndex(
        [
            Entry("meeting_delete", "Delete a meeting", "DELETE", "/meetings/{meetingId}"),
            Entry("user_delete", "Delete a user", "DELETE", "/users/{userId}"),
            Entry("group_delete", "Delete a group", "DELETE", "/groups/{groupId}"),
            Entry("text_delete", "Delete a text", "DELETE", "/texts/{textId}"),
        ]
    )
    assert first(index, "cancel mtg 83920174652") == "meeting_delete"
    assert first(index, "delete usr 42") == "user_delete"
    assert first(index, "drop grp 7") == "group_delete"
    # a loose likeness is not one: "txn" keeps too little of "text(ing)"
    assert "text_delete" not in [entry.name for entry in index.search("delete txn 9")]


def test_a_reading_verb_named_with_a_plural_on_a_collection_lists_it() -> None:
    # Langflow's FastAPI functions: read_flows lists /api/v1/flows/; "list my flows" had found
    # the flows one component is used in first
    index = SearchIndex(
        [
            Entry(
                "read_flows",
                "Read Flows",
                "GET",
                "/api/v1/flows/",
                text="Retrieve a list of flows.",
            ),
            Entry("read_flow", "Read Flow", "GET", "/api/v1/flows/{flow_id}"),
            Entry(
                "get_component_usage_flows",
                "Get Component Usage Flows",
                "GET",
                "/api/v1/catalog-policy/usage/flows",
                text="Return the flows that would be affected by blocking one component key.",
            ),
            Entry("read_current_user", "Read Current User", "GET", "/api/v1/users/whoami"),
        ]
    )
    assert [document(e).intent for e in index.entries] == ["list", "read", "list", "read"]
    assert first(index, "list my flows") == "read_flows"


def test_a_name_that_leads_with_the_thing_its_path_names_says_its_verb_next() -> None:
    # Aim's run_search_api at /runs/search/run searches runs; it runs nothing
    entries = [
        Entry("run_search_api", "Run Search Api", "GET", "/runs/search/run", params=("q",)),
        Entry("search_api_images", "Search Api", "GET", "/runs/search/images", params=("q",)),
        Entry("search_api_texts", "Search Api", "GET", "/runs/search/texts", params=("q",)),
        Entry("delete_run_api", "Delete Run Api", "DELETE", "/runs/{run_id}"),
        Entry("run_job", "Run Job", "POST", "/jobs/{id}/run"),
    ]
    assert [document(e).intent for e in entries[:1]] == ["list"]
    assert document(entries[-1]).verb == "run"  # running a job: no verb follows "run"
    # DigitalOcean's ids lead with their resource; Jira's "bulk" says how, not what
    assert (
        document(Entry("domains_create_record", "", "POST", "/v2/domains/{d}/records")).intent
        == "create"
    )
    assert document(Entry("bulk_get_users", "", "GET", "/rest/api/3/user/bulk")).intent == ""
    assert first(SearchIndex(entries), "search runs with a query") == "run_search_api"


def test_a_partial_update_is_the_change_and_a_put_the_replacement() -> None:
    # NetBox's (Django REST framework's) update and partial_update of one device
    entries = [
        Entry(
            "dcim_devices_update", "", "PUT", "/api/dcim/devices/{id}/", text="Put a device object."
        ),
        Entry(
            "dcim_devices_partial_update",
            "",
            "PATCH",
            "/api/dcim/devices/{id}/",
            text="Patch a device object.",
        ),
        Entry("dcim_devices_list", "", "GET", "/api/dcim/devices/"),
        Entry("dcim_sites_partial_update", "", "PATCH", "/api/dcim/sites/{id}/"),
    ]
    assert document(entries[1]).heads == frozenset({"devic"})
    index = SearchIndex(entries)
    assert first(index, "rename a device") == "dcim_devices_partial_update"
    assert first(index, "replace the device record") == "dcim_devices_update"


def test_what_an_api_keeps_for_its_own_use_comes_after_its_public_twin() -> None:
    # Letta's template agents, at /v1/_internal_templates/, say "Create a new agent" word for word
    index = SearchIndex(
        [
            Entry(
                "create_internal_template_agent",
                "Create Agent",
                "POST",
                "/v1/_internal_templates/agents",
                text="Create a new agent with template-related fields.",
            ),
            Entry("create_agent", "Create Agent", "POST", "/v1/agents/", text="Create an agent."),
            Entry("list_agents", "List Agents", "GET", "/v1/agents/"),
            Entry("delete_agent", "Delete Agent", "DELETE", "/v1/agents/{agent_id}"),
            Entry("create_block", "Create Block", "POST", "/v1/blocks/"),
            Entry("create_conversation", "Create Conversation", "POST", "/v1/conversations/"),
            Entry("create_identity", "Create Identity", "POST", "/v1/identities/"),
        ]
    )
    assert first(index, "create a new agent") == "create_agent"
    assert first(index, "create an internal template agent") == "create_internal_template_agent"


def test_a_change_to_one_thing_is_not_one_to_its_whole_collection() -> None:
    def pair(kind: str, plural: str) -> list[Entry]:
        """Kubernetes' two deletes of a kind: of its whole collection, of one by name."""
        path = f"/apis/apps/v1/namespaces/{{namespace}}/{plural}"
        name = f"apps_v1_namespaced_{kind}"
        return [
            Entry(
                f"delete_apps_v1_collection_namespaced_{kind}",
                "",
                "DELETE",
                path,
                text=f"delete collection of {kind}",
            ),
            Entry(f"delete_{name}", "", "DELETE", f"{path}/{{name}}", text=f"delete a {kind}"),
        ]

    sets = "/apis/apps/v1/namespaces/{namespace}/daemonsets"
    index = SearchIndex(
        [
            *pair("deployment", "deployments"),
            *pair("replica_set", "replicasets"),
            *pair("stateful_set", "statefulsets"),
            Entry(
                "delete_apps_v1_collection_namespaced_daemon_set",
                "Delete apps v1 collection namespaced daemon set",
                "DELETE",
                sets,
                text="delete collection of DaemonSet",
            ),
            Entry(
                "delete_apps_v1_namespaced_daemon_set",
                "Delete apps v1 namespaced daemon set",
                "DELETE",
                sets + "/{name}",
                text="delete a DaemonSet",
            ),
        ]
    )
    assert first(index, "delete the daemonset 'log-agent' in kube-system, it breaks all nodes") == (
        "delete_apps_v1_namespaced_daemon_set"
    )
    # many of them: the collection ("every daemonset", as "all daemonsets")
    assert first(index, "wipe every daemonset in namespace batch") == (
        "delete_apps_v1_collection_namespaced_daemon_set"
    )
    assert first(index, "delete all daemonsets in ns ci") == (
        "delete_apps_v1_collection_namespaced_daemon_set"
    )
    assert read_query("show all branch of repo acme/shop").plural


def test_a_british_spelling_finds_the_american_word_of_the_api() -> None:
    index = SearchIndex(
        [
            Entry(
                "licenses_get_for_repo",
                "Get the license for a repository",
                "GET",
                "/repos/{owner}/{repo}/license",
            ),
            Entry("repos_get", "Get a repository", "GET", "/repos/{owner}/{repo}"),
            Entry("list_catalog_items", "List catalog items", "GET", "/catalog/items"),
            Entry("list_items", "List items", "GET", "/items"),
            Entry("update_label_color", "Update a label's color", "PATCH", "/labels/{name}/color"),
            Entry("update_label", "Update a label", "PATCH", "/labels/{name}"),
        ]
    )
    assert first(index, "what open-source licence does acme/sdk use") == "licenses_get_for_repo"
    assert first(index, "show the items in our catalogue") == "list_catalog_items"
    assert first(index, "change the colour of label bug") == "update_label_color"


def test_words_the_api_never_uses_find_nothing(index: SearchIndex) -> None:
    assert index.search("tune the xylophone") == []
    assert index.search("please, if you can") == []


def test_a_value_of_things_the_api_does_not_name_finds_the_few_operations_of_its_kind() -> None:
    # Feast's feature server: features (conv_rate) and entities (driver) are its users' data
    feast = SearchIndex(
        [
            Entry("get_online_features", "Get Online Features", "POST", "/get-online-features"),
            Entry("push", "Push", "POST", "/push"),
            Entry("materialize", "Materialize", "POST", "/materialize"),
            Entry(
                "write_to_online_store", "Write To Online Store", "POST", "/write-to-online-store"
            ),
            Entry("health", "Health", "GET", "/health"),
        ]
    )
    found = [entry.name for entry in feast.search("get conv_rate for driver 1001 right now")]
    assert found[0] == "get_online_features"
    # without a value, what it names the API does not have
    assert feast.search("get the xylophone") == []
    # among many operations of the kind, such a list would say nothing
    many = SearchIndex(
        [Entry(f"get_thing{n}", f"Get thing {n}", "GET", f"/things{n}/{{id}}") for n in range(12)]
    )
    assert many.search("get conv_rate for driver 1001", limit=10) == []


def test_a_generic_verb_alone_still_finds_operations(index: SearchIndex) -> None:
    found = index.search("list", limit=3)
    assert len(found) == 3
    assert all(entry.method == "GET" for entry in found)


def test_a_long_query_is_read_up_to_its_first_500_characters(index: SearchIndex) -> None:
    assert first(index, "delete a customer " + "x" * 10_000) == "delete_customers_customer"
    assert first(index, "delete a customer " + "and more " * 2_000) == "delete_customers_customer"
    assert index.search("re" * 5_000) == []


def test_an_operation_its_description_calls_deprecated_comes_after_its_replacement(
    index: SearchIndex,
) -> None:
    names = [entry.name for entry in index.search("pods in the namespace", limit=10)]
    assert names.index("list_core_v1_namespaced_pod") < names.index(
        "watch_core_v1_namespaced_pod_list"
    )


def test_an_owners_repo_is_a_name_and_a_remark_after_a_comma_counts_for_less() -> None:
    read = read_query("archive acme/legacy-portal, nobody uses it anymore")
    importance = {word.word: word.importance for word in read.words}
    assert "acme" not in importance
    assert importance["uses"] == CLAUSE
    assert read.lead == "archiv"


def test_a_name_in_the_possessive_is_someone_and_a_contraction_is_not() -> None:
    assert [w.word for w in read_query("pull up gaearon's profile").words] == [
        "someone",
        "profile",
    ]
    assert "someone" not in [w.word for w in read_query("what's in src/app.py").words]


def test_an_owners_name_hints_a_repository_and_a_key_after_a_preposition_a_project() -> None:
    assert [w.word for w in read_query("store a token on acme/cli").words][-1] == "repo"
    assert [w.word for w in read_query("all open bugs in OPS").words][-1] == "project"
    assert "project" not in [w.word for w in read_query("merge the PR").words]


def test_a_word_ending_in_us_keeps_its_s_so_singular_and_plural_meet() -> None:
    assert stem("status") == stem("statuses") == "status"
    assert stem("issue") == stem("issues") == "issu"


def test_an_address_finds_customers_by_address_the_filtered_list_or_the_search(
    index: SearchIndex,
) -> None:
    # both answer it (GET /v1/customers?email=, or the search); nothing else may come first
    found = [e.name for e in index.search("find the customer whose email is bob@example.com")]
    assert set(found[:2]) == {"get_customers", "get_customers_search"}


def test_a_hyphenated_word_after_a_thing_is_that_things_name() -> None:
    assert [w.word for w in read_query("create namespace team-alpha").words] == ["namespace"]
    # but a hyphenated word of its own is read ("squash-merge PR 42")
    assert read_query("squash-merge PR 42").words[0].stem == "squash-merg"


def test_a_request_that_comes_first_is_not_cut_by_a_later_please() -> None:
    read = read_query("comment on PAY-12: deployed to staging, pls verify")
    assert read.lead == "comment"
    # but what a user tells before asking is still context
    assert read_query("I'm new here, can you show me the webhooks").lead == "show"


def test_an_abbreviations_plural_is_spelled_as_its_word() -> None:
    assert read_query("svcs in kube-system").words[0].stem == "servic"


def test_how_many_and_how_much_count_over_things() -> None:
    assert read_query("how much time has been logged on PAY-12?").plural
    assert not read_query("what's the status of PAY-12?").plural


def test_a_cue_only_a_remark_makes_is_apart_from_the_request() -> None:
    read = read_query("delete pod worker-5b8d, it's stuck in CrashLoopBackOff")
    assert "crash" in read.said
    assert "crash" not in read.asked
    assert "pod" in read.asked


def test_the_status_of_an_item_is_about_the_item() -> None:
    read = read_query("what's the status of PAY-12?")
    assert read.subject == frozenset({"ticket"})
    assert "status" not in {w.stem for w in read.words}  # reading the issue tells it
    read = read_query("what's the status, assignee and description of PLAT-77?")
    assert read.subject == frozenset({"ticket"})
    assert [w.stem for w in read.words] == ["ticket"]
    # without an item named, the status is what is asked about
    assert read_query("list the statuses").subject == frozenset({"status"})


def test_what_a_user_tells_before_a_request_of_its_own_is_context(index: SearchIndex) -> None:
    read = read_query("customer called, cancel sub_1NxA92 right now")
    assert read.lead == "cancel"
    assert {w.stem: w.importance for w in read.words}["customer"] == CLAUSE
    read = read_query("bug 311 is fixed by the hotfix. Close the ticket")
    assert read.lead == "close"
    # the request names its object by a pronoun: what the user told first is the object
    read = read_query("acme/old-site is dead, archive it")
    assert {w.word: w.importance for w in read.words}["repo"] == 0.5  # a hint, at full weight
    # a clause that starts with a participle is no request ("monitoring error rates")
    read = read_query("note on INC-2041: mitigation deployed, monitoring error rates")
    assert read.lead == "note"
    assert first(index, "the customer moved, set the email of cus_Q8w2 to sam@newco.io") == (
        "post_customers_customer"
    )


def test_one_named_thing_is_not_many() -> None:
    # a name before its thing is a name; a plural noun before a thing says which; a plural
    # after where ("in ns payments") says where
    assert [w.word for w in read_query("show me the app-settings configmap").words] == ["configmap"]
    assert not read_query("which image tag is the orders deployment on?").plural
    assert not read_query("what's in secret stripe-key in ns payments").plural
    assert read_query("what pods are running in ns payments").plural
    assert read_query("squash-merge PR 42").words[0].stem == "squash-merg"


def test_a_values_parts_are_no_words() -> None:
    read = read_query("new customer: Acme Corp, billing@acme.com, add them")
    assert "bill" not in read.said  # the address is an e-mail, not billing
    assert "email" in read.said
    assert "deploy" not in read_query("show me what's in config/prod.yaml on acme/deploy").said


def test_an_issue_by_its_number_is_a_thing_not_a_verb() -> None:
    read = read_query("issue #311 in acme/web is fixed by the hotfix, go ahead and close it")
    assert read.intents == frozenset({"update"})  # closing it, not creating one
    assert read_query("issue a refund for ch_3Kx9").intents == frozenset({"create"})


def test_him_or_her_is_someone() -> None:
    read = read_query("bob-old left the company, remove him from the acme org")
    assert "someone" in [w.word for w in read.words]


def test_who_asks_for_people() -> None:
    orgs = SearchIndex(
        Entry(name=name, summary=summary, method="GET", path=path, tags=(name.split("_")[0],))
        for name, path, summary in (
            ("orgs_list_repos", "/orgs/{org}/repos", "List organization repositories"),
            ("orgs_list_members", "/orgs/{org}/members", "List organization members"),
            ("teams_list", "/orgs/{org}/teams", "List teams"),
            ("teams_list_members", "/orgs/{org}/teams/{team_slug}/members", "List team members"),
        )
    )
    assert first(orgs, "who's in the acme org") == "orgs_list_members"
    assert first(orgs, "who's on the sre team") == "teams_list_members"


def test_a_known_verb_on_one_thing_asks_for_an_action() -> None:
    for query in (
        "tag issue 301 with needs-triage",
        "cap ns team-ml at 20 cpu",
        "assign issue 42 to bob",
    ):
        assert read_query(query).intents == frozenset({"action"}), query
    # but an adjective, or a verb before things, does not ("open pull requests", "issue types")
    assert "action" not in read_query("any open pull request on acme/webapp?").intents
    assert "action" not in read_query("issue types in project HR").intents


def test_a_name_that_starts_with_another_method_says_its_verb() -> None:
    def intent(name: str, method: str, path: str) -> str:
        return document(Entry(name=name, summary="", method=method, path=path)).intent

    assert intent("get_comments_by_ids", "POST", "/rest/api/3/comment/list") == "read"
    assert intent("post_customers", "POST", "/v1/customers") == "create"
    assert intent("get_customers", "GET", "/v1/customers") == "list"


def test_a_name_given_to_a_thing_says_no_word_but_a_description_does() -> None:
    # "branch" of a namespace's name is no branch (it would find a git ref)
    assert "branch" not in read_query("tear down the old-feature-branch namespace").said
    assert "onli" in read_query("our CI server needs read-only SSH access").said


def test_a_setting_is_a_value_not_words() -> None:
    read = read_query("set LOG_LEVEL=debug in configmap api-config")
    assert "level" not in read.said
    assert [w.stem for w in read.words if not w.verb][-1] == "configmap"


def test_a_request_framed_as_a_question_asks_for_what_follows() -> None:
    # "can you", "how do I", "is there a way to": not a question, a request
    assert read_query("can you archive acme/api").intents == read_query("archive acme/api").intents
    assert read_query("how do I delete the old webhook").intents == frozenset({"delete"})
    assert read_query("is there a way to merge PR 7?").lead == "merg"
    assert read_query("I'd like to add a member").intents == frozenset({"create"})
    assert not read_query("how do I create a webhook").about_self


def test_a_framed_request_finds_what_it_asks_for(index: SearchIndex) -> None:
    assert first(index, "can you lock issue 12 on acme/api?") == "issues_lock"
    assert first(index, "how do I remove alice from the acme org?") == "orgs_remove_member"


def test_a_channel_named_with_a_hash_is_a_channel_not_words() -> None:
    read = read_query("archive #proj-atlas")
    assert [(w.stem, w.value) for w in read.words if not w.verb] == [("channel", True)]


def test_what_follows_a_colon_is_what_to_write() -> None:
    read = read_query("comment on issue 7: the deploy of the webhook failed")
    request = [w.stem for w in read.words if w.importance >= 0.7]
    assert "hook" not in request and "deploi" not in request


def test_a_word_written_in_parts_is_one_word() -> None:
    # a particle or a prefix joined by a hyphen: one word, not a name or nothing at all
    assert [w.stem for w in read_query("remove the to-do").words] == ["todo"]
    assert [w.stem for w in read_query("add an e-mail address").words] == ["email", "address"]
    assert read_query("re-run the build").lead == "rerun"
    # a name after its thing is still a name
    assert [w.word for w in read_query("create namespace team-a").words] == ["namespace"]


def test_getting_out_of_something_is_leaving_it() -> None:
    read = read_query("how do I get out of #random?")
    assert (read.lead, read.intents) == ("leav", frozenset({"delete"}))


def test_a_request_asked_of_the_user_is_the_request() -> None:
    # what someone asked the user to do is the request; who asked is context
    read = read_query("my manager wants me to archive acme/old-site")
    assert (read.lead, read.intents) == ("archiv", frozenset({"update"}))
    # and a request that only points back at it ("take care of that") reads what was told
    read = read_query(
        "Our director asked me to archive acme/old-site. Could you take care of that?"
    )
    assert (read.lead, read.intents) == ("archiv", frozenset({"update"}))
    assert "care" not in {w.stem for w in read.words}


def test_a_word_finds_the_ship_of_its_family() -> None:
    # "members" of a project: its memberships, when the API calls them so
    index = SearchIndex(
        [
            Entry("get_project", "Get a project", "GET", "/projects/{project_gid}"),
            Entry(
                "add_members_for_project", "Add users", "POST", "/projects/{project_gid}/addMembers"
            ),
            Entry(
                "get_project_memberships",
                "Get memberships from a project",
                "GET",
                "/projects/{project_gid}/project_memberships",
            ),
        ]
    )
    assert first(index, "members of project 7") == "get_project_memberships"
    assert first(index, "show project 7 members") == "get_project_memberships"


def test_a_name_that_says_its_verb_last_is_read_as_rpc_names_are() -> None:
    # "admin.teams.owners.list", "meetingCreate": the verb comes last
    owners = document(Entry("admin_teams_owners_list", "", "GET", "/admin.teams.owners.list"))
    assert (owners.intent, owners.heads) == ("list", frozenset({"owner"}))
    meeting = document(Entry("meeting_create", "Create a meeting", "POST", "/users/{id}/meetings"))
    assert (meeting.intent, meeting.heads) == ("create", frozenset({"meet"}))


def test_an_ip_address_is_an_ip_and_a_chat_id_is_a_value() -> None:
    assert [(w.stem, w.value) for w in read_query("reassign 45.55.96.47").words if not w.verb] == [
        ("ip", True)
    ]
    # capitals with digits: an id, not words ("U04SAMK2" was read as "samk")
    assert [w.stem for w in read_query("make U04SAMK2 a workspace admin").words] == [
        "workspac",
        "admin",
    ]


def test_being_notified_is_subscribing_and_shorthand_is_words() -> None:
    assert read_query("I want to be notified when label bug is added").lead == "subscrib"
    # "w/o" is "without", not an owner's repository
    assert [w.stem for w in read_query("users w/o 2fa").words] == ["user"]
    assert read_query("find repos w/ billing in the name").filtered


# Prefect's variables and flows: one thing reached by its id or by its name (FastAPI CRUD apps)
BY_ID_OR_NAME = [
    ("read_variable", "GET", "/variables/{id}", "Read Variable", "", "id"),
    ("read_variable_by_name", "GET", "/variables/name/{name}", "Read Variable By Name", "", "name"),
    ("update_variable", "PATCH", "/variables/{id}", "Update Variable", "", "id value"),
    ("update_variable_by_name", "PATCH", "/variables/name/{name}", "Update Variable By Name", "", "name value"),
    ("read_deployment", "GET", "/deployments/{id}", "Read Deployment", "", "id"),
    ("read_deployment_by_name", "GET", "/deployments/name/{flow_name}/{deployment_name}", "Read Deployment By Name", "", "flow_name deployment_name"),
    ("read_flows", "POST", "/flows/filter", "Read Flows", "", "limit"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("change the variable slack_channel to #data-alerts", "update_variable_by_name"),
        ("change variable 3f2a9c1e-77b0-4c2d-9d1a-0b5e6f1c2a10 to 5", "update_variable"),
        ("show me variable api_url", "read_variable_by_name"),
        ("show me variable 8f3e11aa", "read_variable"),
        ('pull up the deployment "prod" of flow "nightly-etl"', "read_deployment_by_name"),
        ("pull up deployment 9e1f2a3b", "read_deployment"),
    ],
)
def test_a_name_given_finds_the_thing_by_name_and_an_id_by_id(query: str, expected: str) -> None:
    index = SearchIndex(
        Entry(
            name=name,
            summary=summary,
            method=method,
            path=path,
            tags=(),
            params=tuple(params.split()),
        )
        for name, method, path, summary, _, params in BY_ID_OR_NAME
    )
    assert first(index, query) == expected


# Slack: "calls" are phone calls; the calling user is a user
CALLS_AND_PRESENCE = [
    ("calls_add", "POST", "/calls.add", "Registers a new Call.", "", "external_unique_id join_url"),
    ("calls_end", "POST", "/calls.end", "Ends a Call.", "", "id duration"),
    ("users_conversations", "GET", "/users.conversations", "List conversations the calling user may access.", "", "user types"),
    ("conversations_list", "GET", "/conversations.list", "Lists all channels in a Slack team.", "", "types"),
]  # fmt: skip


def test_the_calling_user_is_a_user_not_a_call() -> None:
    index = SearchIndex(
        Entry(name=name, summary=summary, method=method, path=path, params=tuple(params.split()))
        for name, method, path, summary, _, params in CALLS_AND_PRESENCE
    )
    found = [e.name for e in index.search("which channels am I in?")]
    assert sorted(found) == ["conversations_list", "users_conversations"]


def test_a_particle_far_from_its_verb_before_of_still_makes_the_phrase() -> None:
    assert read_query("take the Morning Brew podcast out of my library").lead == "remov"
    # a particle far away without "of" is the verb's own: "give ... a thumbs up from me"
    assert read_query("give the broken link bug a thumbs up from me").lead == "give"


def test_a_verb_the_api_says_finds_its_operations_when_the_thing_is_named_otherwise() -> None:
    # pretalx says "submission" where its users say "proposal": "accept a proposal" found nothing
    talks = SearchIndex(
        Entry(name=name, summary=summary, method="POST", path=path, tags=("submissions",))
        for name, summary, path in [
            ("submissions_accept_create", "Accept Submission", "/api/submissions/{code}/accept/"),
            ("submissions_reject_create", "Reject Submission", "/api/submissions/{code}/reject/"),
            ("rooms_create", "Create Rooms", "/api/rooms/"),
        ]
    )
    assert first(talks, "accept a proposal") == "submissions_accept_create"
    assert first(talks, "reject a proposal") == "submissions_reject_create"
    # a verb it says only through a kindred word still finds nothing
    assert talks.search("tune the xylophone") == []
