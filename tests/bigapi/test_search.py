"""The ranked search behind ``search_operations``: what a query finds, in which order."""

from __future__ import annotations

from templates.runtime.protocol.search import Entry, SearchIndex, terms
from tests.bigapi.github_like import operations


def github_like_index() -> SearchIndex:
    entries = []
    for operation_id, method, path, summary, tag, body, _ in operations():
        params = [part.strip("{}") for part in path.split("/") if part.startswith("{")]
        params += list((body or {}).get("properties", {}))
        entries.append(
            Entry(
                name=operation_id.replace("/", "_").replace("-", "_"),
                summary=summary,
                method=method.upper(),
                path=path,
                tags=(tag,),
                params=tuple(params),
                text=f"{summary}. See the documentation.",
            )
        )
    return SearchIndex(entries)


def names(found: list[Entry]) -> list[str]:
    return [entry.name for entry in found]


def test_terms_split_words_stem_them_and_spell_them_one_way() -> None:
    assert terms("listPullRequests for the Repository") == ["list", "pull", "repo"]
    assert terms("add_labels-to an issue") == ["add", "label", "issu"]
    assert terms("star-repo-for-authenticated-user") == ["star", "repo", "authenticat", "user"]
    assert terms("Creating deployments") == terms("create deployment") == ["creat", "deployment"]


def test_the_operation_that_says_exactly_what_was_asked_comes_first() -> None:
    index = github_like_index()
    assert names(index.search("create an issue", limit=2)) == [
        "issues_create",
        "issues_create_comment",
    ]
    assert names(index.search("list pull requests", limit=1)) == ["pulls_list"]
    assert names(index.search("new repository for my org", limit=1)) == ["repos_create_in_org"]


def test_the_verb_prefers_operations_with_that_http_method() -> None:
    index = github_like_index()
    assert names(index.search("delete a gist", limit=1)) == ["gists_delete"]
    assert names(index.search("remove a collaborator", limit=1)) == ["repos_remove_collaborator"]
    assert names(index.search("get a gist", limit=1)) == ["gists_get"]


def test_a_tag_filter_keeps_only_that_tag_and_limits_are_honoured() -> None:
    index = github_like_index()
    allowed = [e.name for e in index.entries if e.name.startswith("gists_")]
    found = index.search("star", allowed=allowed, limit=50)
    assert names(found) == ["gists_star"]
    assert len(index.search("list", limit=7)) == 7


def test_no_match_and_stop_words_only_find_nothing() -> None:
    index = github_like_index()
    assert index.search("xylophone") == []
    assert index.search("the of and") == []


def test_equal_scores_keep_catalog_order() -> None:
    index = SearchIndex(
        [Entry("y_thing", "Thing"), Entry("x_thing", "Thing"), Entry("z_other", "Other")]
    )
    assert names(index.search("thing")) == ["y_thing", "x_thing"]
