"""RFC 6570 templates as resource templates use them: expansion, matching, malformed templates."""

from __future__ import annotations

from typing import Any

import pytest

from templates.runtime.protocol.uritemplate import Listed, UriTemplate, query_hint, slash_hint


def test_variables_in_order_without_duplicates() -> None:
    template = UriTemplate("api://{owner}/{repo}/issues{/number}{?state,labels}{&owner}")
    assert template.variables == ("owner", "repo", "number", "state", "labels")


@pytest.mark.parametrize(
    ("template", "values", "expected"),
    [
        ("api://pets/{id}", {"id": 42}, "api://pets/42"),
        ("api://pets/{id}", {"id": "a/b c?#"}, "api://pets/a%2Fb%20c%3F%23"),
        ("api://pets/{id}", {"id": "café"}, "api://pets/caf%C3%A9"),
        ("api://pets/{id}", {}, "api://pets/"),
        ("api://x/{a,b}", {"a": 1, "b": 2}, "api://x/1,2"),
        ("api://x/{a}", {"a": [1, "x y"]}, "api://x/1,x%20y"),
        ("api://x/{a}", {"a": True}, "api://x/true"),
        ("file:///{+path}", {"path": "docs/a b/%41?#"}, "file:///docs/a%20b/%41?#"),
        ("api://x{/a,b}", {"a": "p/q", "b": "r"}, "api://x/p%2Fq/r"),
        ("api://x{/a,b}", {"b": "r"}, "api://x/r"),
        ("api://x{?a,b}", {"a": "1 2", "b": "&="}, "api://x?a=1%202&b=%26%3D"),
        ("api://x{?a,b}", {"b": ""}, "api://x?b="),
        ("api://x{?a,b}", {}, "api://x"),
        ("api://x?fixed=1{&a,b}", {"b": 2}, "api://x?fixed=1&b=2"),
        ("api://x{?a}{&b}", {"a": 1, "b": 2}, "api://x?a=1&b=2"),
    ],
)
def test_expand(template: str, values: dict[str, Any], expected: str) -> None:
    assert UriTemplate(template).expand(values) == expected


def test_match_simple_and_percent_decoding() -> None:
    template = UriTemplate("petstore://pets/{petId}")
    assert template.match("petstore://pets/42") == {"petId": "42"}
    assert template.match("petstore://pets/caf%C3%A9%20x") == {"petId": "café x"}
    assert template.match("petstore://pets/") is None
    assert template.match("petstore://pets/1/2") is None
    assert template.match("petstore://other/1") is None
    assert template.match("petstore://pets/1?x=1") is None


def test_match_reads_an_encoded_slash_as_the_values_own() -> None:
    # pygeoapi's feature "m/x": its URI is what the template expands it to (the upstream request
    # keeps the slash inside its segment, and refuses "..": test_upstream.py)
    template = UriTemplate("api://items/{featureId}{?f}")
    assert template.expand({"featureId": "m/x"}) == "api://items/m%2Fx"
    assert template.match("api://items/m%2Fx") == {"featureId": "m/x"}
    assert template.match("api://items/a%2fb?f=json") == {"featureId": "a/b", "f": "json"}
    assert template.match("api://items/m/x") is None


def test_match_invalid_utf8_does_not_match() -> None:
    assert UriTemplate("api://x/{a}").match("api://x/%FF") is None


def test_round_trip() -> None:
    template = UriTemplate("api://repos/{owner}/{repo}{?state,sort}")
    values = {"owner": "me & you", "repo": "x.y", "state": "open/closed", "sort": "ü"}
    assert template.match(template.expand(values)) == values


def test_match_reserved_allows_slashes() -> None:
    template = UriTemplate("file:///{+path}")
    assert template.match("file:///docs/a%20b.txt") == {"path": "docs/a b.txt"}


def test_match_reserved_with_literal_suffix() -> None:
    template = UriTemplate("file:///{+path}.json")
    assert template.match("file:///a/b.c.json") == {"path": "a/b.c"}


def test_match_path_segments() -> None:
    template = UriTemplate("api://x{/a,b}")
    assert template.match("api://x/1/2") == {"a": "1", "b": "2"}
    assert template.match("api://x/1") is None
    assert template.match("api://x/1/2/3") is None


def test_match_multiple_simple_variables() -> None:
    assert UriTemplate("api://x/{a,b}").match("api://x/1,2") == {"a": "1", "b": "2"}


def test_query_variables_are_optional_and_unordered() -> None:
    template = UriTemplate("petstore://pets{?limit,status}")
    assert template.match("petstore://pets") == {}
    assert template.match("petstore://pets?") == {}
    assert template.match("petstore://pets?status=sold") == {"status": "sold"}
    assert template.match("petstore://pets?status=a%26b&limit=3") == {"status": "a&b", "limit": "3"}
    assert template.match("petstore://pets?limit=") == {"limit": ""}
    assert template.match("petstore://pets?limit") == {"limit": ""}


def test_unknown_query_keys_do_not_match() -> None:
    template = UriTemplate("petstore://pets{?limit}")
    assert template.match("petstore://pets?limit=1&evil=2") is None


def test_a_repeated_query_key_matches_as_the_list_of_its_values() -> None:
    # the form style an API's array parameters take: ?status=a&status=b
    template = UriTemplate("petstore://pets{?limit,status}")
    assert template.match("petstore://pets?status=a&limit=2&status=b%2Cc") == {
        "status": ["a", "b,c"],
        "limit": "2",
    }
    # a fixed pair may not be given twice, and a path variable is not a query's
    assert UriTemplate("api://x?kind=pet{&q}").match("api://x?kind=pet&kind=pet&q=1") is None
    assert UriTemplate("api://x/{id}{?id}").match("api://x/1?id=2&id=3") is None


def test_bare_commas_list_items_and_an_encoded_comma_is_the_values_own() -> None:
    # TiTiler: ?p=5,95 is a list (RFC 6570 expands a list so); rescale=-1000%2C1000 one item
    template = UriTemplate("titiler://cog/statistics{?url,p,rescale}")
    found = template.match("titiler://cog/statistics?p=5,95&rescale=-1000%2C1000&url=a%2Cb.tif")
    assert found == {"p": ["5", "95"], "rescale": "-1000,1000", "url": "a,b.tif"}
    assert found is not None and isinstance(found["p"], Listed)
    assert template.match("titiler://cog/statistics?rescale=0,1&rescale=2%2C3") == {
        "rescale": [Listed(["0", "1"]), "2,3"]
    }
    # a fixed pair is compared as written
    assert UriTemplate("api://x?f=a,b{&q}").match("api://x?f=a,b&q=1") == {"q": "1"}


def test_variables_apart_by_a_literal_comma() -> None:
    # TiTiler's /cog/point/{lon},{lat}, and sub-delimiters a path may hold as literals
    assert UriTemplate("titiler://cog/point/{lon},{lat}").match(
        "titiler://cog/point/-1.5,45.25"
    ) == {"lon": "-1.5", "lat": "45.25"}
    assert UriTemplate("api://a/(x)+y;z=1/{id}").match("api://a/(x)+y;z=1/7") == {"id": "7"}
    assert UriTemplate("api://a/(x)+y;z=1/{id}").expand({"id": "a,b"}) == "api://a/(x)+y;z=1/a%2Cb"


def test_query_after_path_variable() -> None:
    template = UriTemplate("petstore://pets/{id}{?fields}")
    assert template.match("petstore://pets/7?fields=name") == {"id": "7", "fields": "name"}
    assert template.match("petstore://pets/7") == {"id": "7"}


def test_continuation_with_literal_query() -> None:
    template = UriTemplate("api://search?kind=pet{&q,page}")
    assert template.match("api://search?kind=pet&q=rex") == {"q": "rex"}
    assert template.match("api://search?q=rex&kind=pet") == {"q": "rex"}
    assert template.match("api://search?q=rex") is None
    assert template.match("api://search?kind=cat&q=rex") is None
    assert template.match("api://search") is None


def test_query_variable_cannot_override_a_path_variable() -> None:
    template = UriTemplate("api://x/{id}{?id}")
    assert template.match("api://x/1?id=2") is None


def test_literal_characters_are_matched_exactly() -> None:
    template = UriTemplate("api://a.b/(x)/{id}")
    assert template.match("api://a.b/(x)/1") == {"id": "1"}
    assert template.match("api://aXb/(x)/1") is None


@pytest.mark.parametrize(
    ("template", "position", "what"),
    [
        ("api://{id", 6, "unclosed"),
        ("api://id}", 8, "unmatched"),
        ("api://{}", 6, "invalid variable name"),
        ("api://{a b}", 6, "invalid variable name"),
        ("api://x/{#frag}", 8, "not supported"),
        ("api://x/{.ext}", 8, "not supported"),
        ("api://x/{;m}", 8, "not supported"),
        ("api://x/{list*}", 8, "modifier"),
        ("api://x/{name:3}", 8, "modifier"),
        ("api://x/{a{b}", 8, "nested"),
        ("api://x{?q}/more", 7, "must end"),
    ],
)
def test_malformed_templates_name_the_position(template: str, position: int, what: str) -> None:
    with pytest.raises(
        ValueError, match=f"{what}.*position {position}|position {position}.*{what}"
    ):
        UriTemplate(template)


def test_literal_question_mark_must_precede_the_query_expressions() -> None:
    with pytest.raises(ValueError, match="literal '\\?'"):
        UriTemplate("api://x?a=1/{id}{&b}")


def test_no_expressions() -> None:
    template = UriTemplate("api://static")
    assert template.variables == ()
    assert template.expand({}) == "api://static"
    assert template.match("api://static") == {}
    assert template.match("api://static2") is None


def test_a_value_with_a_slash_is_told_where_it_would_fit() -> None:
    # dstack's proxy path ({path:path} in FastAPI): "…/x/some/path" named no resource, and why
    # was not said; "some%2Fpath" reads it
    template = UriTemplate("dstack://proxy/services/{project}/{run}/{path}")
    uri = "dstack://proxy/services/p1/x/some/path"
    assert template.match(uri) is None
    assert template.slashed(uri) == "path"
    assert template.match("dstack://proxy/services/p1/x/some%2Fpath") == {
        "project": "p1",
        "run": "x",
        "path": "some/path",
    }
    assert slash_hint([UriTemplate("petstore://pets/{petId}"), template], uri) == (
        "path: a value of dstack://proxy/services/{project}/{run}/{path} holds no '/'; write one "
        "of its own as %2F"
    )
    assert slash_hint([template], "dstack://elsewhere/a/b") == ""


def test_a_key_a_template_does_not_take_is_named() -> None:
    templates = [UriTemplate("feast://entities/{name}{?project}"), UriTemplate("feast://x{?a}")]
    assert query_hint(templates, "feast://entities/driver?project=repo&bogus=1&bogus=2") == (
        "bogus: not a parameter of feast://entities/{name}{?project} (it takes project)"
    )
    assert query_hint(templates, "feast://entities/driver?project=repo") == ""
    assert query_hint(templates, "feast://other?bogus=1") == ""
