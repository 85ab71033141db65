"""What the search learns from users' phrasings its owner gave (``--search-examples``): words the
spec never says find the operation the examples name, operations the words did not find enter
the results, and what the examples do not speak of ranks as before."""

from __future__ import annotations

from templates.runtime.protocol.search import Entry, SearchIndex
from templates.runtime.protocol.search_examples import ExampleIndex

# (name, method, path, summary)
OPERATIONS = [
    ("repos_get", "GET", "/repos/{owner}/{repo}", "Get a repository"),
    ("repos_list_collaborators", "GET", "/repos/{owner}/{repo}/collaborators", "List repository collaborators"),
    ("repos_get_collaborator_permission_level", "GET", "/repos/{owner}/{repo}/collaborators/{username}/permission", "Get repository permissions for a user"),
    ("repos_add_collaborator", "PUT", "/repos/{owner}/{repo}/collaborators/{username}", "Add a repository collaborator"),
    ("repos_list_teams", "GET", "/repos/{owner}/{repo}/teams", "List repository teams"),
    ("issues_create_comment", "POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", "Create an issue comment"),
    ("issues_lock", "PUT", "/repos/{owner}/{repo}/issues/{issue_number}/lock", "Lock an issue"),
    ("issues_update", "PATCH", "/repos/{owner}/{repo}/issues/{issue_number}", "Update an issue"),
    ("pulls_create", "POST", "/repos/{owner}/{repo}/pulls", "Create a pull request"),
]  # fmt: skip
EXAMPLES = [
    ("who has push access to acme/api", ["repos_list_collaborators"]),
    ("everyone who can push to the infra repo", ["repos_list_collaborators"]),
    ("this thread turned into a shouting match, calm it down", ["issues_lock"]),
    ("open a PR from my branch", ["pulls_create"]),
    ("ship my branch for review", ["pulls_create"]),
    ("does jdoe have admin on acme/web", ["repos_get_collaborator_permission_level"]),
    ("reply to issue 7 saying we are on it", ["issues_create_comment"]),
    ("close issue 9 as done", ["issues_update"]),
    ("rename issue 3 to something clearer", ["issues_update"]),
    ("which teams can see acme/api", ["repos_list_teams"]),
]


def entries() -> list[Entry]:
    return [
        Entry(name=name, summary=summary, method=method, path=path)
        for name, method, path, summary in OPERATIONS
    ]


def ranked(index: SearchIndex, query: str, allowed: list[str] | None = None) -> list[str]:
    return [entry.name for entry in index.search(query, limit=5, allowed=allowed)]


def test_words_the_spec_never_says_find_the_operation_the_examples_name() -> None:
    plain, taught = SearchIndex(entries()), SearchIndex(entries(), examples=EXAMPLES)
    query = "who can push to acme/web"
    assert ranked(plain, query)[0] != "repos_list_collaborators"
    assert ranked(taught, query)[0] == "repos_list_collaborators"


def test_an_operation_the_words_did_not_find_enters_the_results() -> None:
    plain, taught = SearchIndex(entries()), SearchIndex(entries(), examples=EXAMPLES)
    query = "calm down this shouting match"
    assert "issues_lock" not in ranked(plain, query)
    assert ranked(taught, query)[0] == "issues_lock"
    # ... but only among the operations the caller may see
    assert "issues_lock" not in ranked(taught, query, allowed=["issues_update", "pulls_create"])


def test_what_no_example_speaks_of_ranks_as_without_examples() -> None:
    plain, taught = SearchIndex(entries()), SearchIndex(entries(), examples=EXAMPLES)
    for query in ("add bob as collaborator", "lock issue 4", "get repository acme/api"):
        assert ranked(taught, query) == ranked(plain, query)


def test_examples_naming_tools_the_index_lacks_are_left_out() -> None:
    query = "calm down this shouting match"
    taught = SearchIndex(entries(), examples=[(query, ["gone_tool", "issues_lock"])])
    assert ranked(taught, query) == ["issues_lock"]
    nothing = SearchIndex(entries(), examples=[(query, ["gone_tool"])])
    assert ranked(nothing, query) == ranked(SearchIndex(entries()), query)


def test_the_nearest_examples_speak_with_their_similarity() -> None:
    examples = ExampleIndex(EXAMPLES)
    near = examples.near("who has push access to acme/api")
    assert near["repos_list_collaborators"] == max(near.values())
    assert round(near["repos_list_collaborators"], 6) == 1.0  # the same phrasing
    assert examples.near("xylophone") == {}


def test_an_example_only_loosely_alike_does_not_push_out_what_the_words_found() -> None:
    taught = SearchIndex(entries(), examples=[("calm down this shouting match", ["issues_lock"])])
    # the user asks to reply; an example about locking shares some words, not the request
    assert ranked(taught, "reply to the shouting match on issue 4")[0] == "issues_create_comment"
    # but the same words as the example find what it names
    assert ranked(taught, "calm down the shouting match on issue 4")[0] == "issues_lock"
