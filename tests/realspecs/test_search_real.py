"""What ``search_operations`` puts first for users' words, on the real documents of GitHub, Stripe
and Jira: each case is one way of reading a query (what the user tells before the request, an item
named by its number, a value's parts, the status of an item, a filter a search takes...) that a
small fixture cannot show, because it lives in how a word weighs among an API's 500 to 1,200
operations. The search is built as ``openapi2mcp generate`` plans it and asked as a generated
server is asked (``openapi2mcp.eval.planned_search``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from openapi2mcp.eval import operation_ids, planned_search
from openapi2mcp.generate import GenerateOptions, plan_source
from tests.realspecs.sources import SOURCES

pytestmark = [pytest.mark.node, pytest.mark.slow]

# (api, query, the operationId that must come first)
CASES = [
    # what a user tells before a request of its own is context
    ("github", "our team moved orgs, hand acme/tool over to the neworg organization", "repos/transfer"),
    ("github", "nightly on acme/api blew up, rerun just the failed jobs from run 9912345", "actions/re-run-workflow-failed-jobs"),
    # ... unless the request names its object by a pronoun
    ("jira", "QA-501 is a duplicate, delete it", "deleteIssue"),
    # a value's parts are no words: "billing@acme.com" is an address, not billing
    ("stripe", "new customer: Acme Corp, billing@acme.com, add them", "PostCustomers"),
    # a cue for another kind of operation does not override a change asked for
    ("stripe", "create a customer for jane@doe.com named Jane Doe", "PostCustomers"),
    # the status of an item a value names is the item
    ("jira", "what's the status of OPS-1021", "getIssue"),
    ("jira", "what's the status, assignee and description of PLAT-77?", "getIssue"),
    # an issue by its number is no verb; "him" is someone; who asks for people
    ("github", "issue #311 in acme/web is fixed by the hotfix, go ahead and close it", "issues/update"),
    ("github", "bob-old left the company, remove him from the acme org", "orgs/remove-member"),
    ("github", "who's in the acme org", "orgs/list-members"),
    # a known verb on one thing asks for an action
    ("github", "tag issue 87 in acme/support-tools with needs-triage and p1", "issues/add-labels"),
    ("github", "assign issue 42 to bob", "issues/add-assignees"),
    # the first word a verb, then an issue's number: "#14" is what it acts on, not a tag's number
    ("github", "tag #14 in acme/web with needs-triage", "issues/add-labels"),
    # a verb that names what the API creates counts as that thing
    ("jira", "attach the crash log to PAY-31", "addAttachment"),
    # things asked for are listed
    ("jira", "show me the dashboards", "getAllDashboards"),
    # an operation whose path takes the kind of value given ("acme/infra": {repo}, "in_1Q": {invoice})
    ("github", "our CI server needs read-only SSH access to acme/infra, add its public key", "repos/create-deploy-key"),
    ("stripe", "void in_1QrS7tUv, it was issued by mistake", "PostInvoicesInvoiceVoid"),
    # ... and of the whole kind the id names ("pi_": a payment intent's {intent}, not a setup intent's)
    ("stripe", "cancel the payment intent pi_3Zz, customer abandoned cart", "PostPaymentIntentsIntentCancel"),
    # a change to a thing is a partial update (PATCH), not a whole replacement (PUT)
    ("kubernetes", "cordon worker-3, I'm about to do maintenance on it", "patchCoreV1Node"),
    # a setting ("LOG_LEVEL=debug") is a value, not the words log and level
    ("kubernetes", "set LOG_LEVEL=debug in configmap api-config in prod", "patchCoreV1NamespacedConfigMap"),
    # a search of the things asked for takes any filter
    ("jira", "all open bugs assigned to me in PAY", "searchForIssuesUsingJql"),
]  # fmt: skip


@pytest.fixture(scope="module")
def searches(
    realspec_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Callable[[str], str]]:
    found: dict[str, Callable[[str], str]] = {}
    for source in SOURCES:
        if source.label not in {api for api, _, _ in CASES}:
            continue
        spec = tmp_path_factory.mktemp(source.label) / f"{source.label}.json"
        spec.write_text(json.dumps(source.load(realspec_cache)), "utf-8")
        plan, _ = plan_source(str(spec), GenerateOptions())
        search, ids = planned_search(plan), operation_ids(plan)

        def first(
            query: str, search: Callable[[str, int], list[str]] = search, ids: dict[str, str] = ids
        ) -> str:
            names = search(query, 1)
            return ids[names[0]] if names else ""

        found[source.label] = first
    return found


@pytest.mark.parametrize(("api", "query", "expected"), CASES, ids=[q for _, q, _ in CASES])
def test_the_operation_a_user_means_comes_first_on_a_real_api(
    searches: dict[str, Callable[[str], str]], api: str, query: str, expected: str
) -> None:
    assert searches[api](query) == expected
