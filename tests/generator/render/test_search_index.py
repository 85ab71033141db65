"""The search index is built when the package is generated (``searchIndex`` in the catalog).

A generated server reads its operations' search documents from the catalog instead of tokenizing
and stemming its API on the first search; what the spec says of the resource an operation takes or
returns (its schema's description) is in them, and the ranking is the one the server would build
by itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.generate import GenerateOptions, generate
from templates.runtime.protocol import search_catalog, search_document
from templates.runtime.protocol.search import SearchIndex
from tests.bigapi.github_like import spec as github_like_spec
from tests.catalogs import catalog_from_files

QUERIES = (
    "make a PR for my branch",
    "close issue 7",
    "who starred the repo",
    "rerun the failed jobs",
    "delete the webhook",
    "my repos",
)


def _catalog(tmp_path: Path, document: dict[str, Any]) -> Any:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(document), "utf-8")
    generation = generate(str(path), GenerateOptions())
    [name] = [f for f in generation.files if f.endswith("/catalog.json")]
    return catalog_from_files(generation.files, name)


def _names(index: SearchIndex, query: str) -> list[str]:
    return [entry.name for entry in index.search(query, limit=5)]


def test_the_catalog_carries_a_document_for_every_operation_tool(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, github_like_spec())
    index = catalog["searchIndex"]
    assert index["format"] == search_catalog.INDEX_FORMAT
    assert set(index["documents"]) == set(catalog["toolBindings"])
    assert index["documents"]["issues_create"]["intent"] == "create"


def test_the_written_index_ranks_as_one_built_at_run_time(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, github_like_spec())
    written = search_catalog.index_of(catalog)
    built = SearchIndex(search_catalog.catalog_entries(catalog))
    for query in QUERIES:
        assert _names(written, query) == _names(built, query), query


def test_reading_the_written_index_builds_no_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = _catalog(tmp_path, github_like_spec())

    def refuse(entry: object) -> None:
        raise AssertionError("a document was built at run time")

    monkeypatch.setattr("templates.runtime.protocol.search.document", refuse)
    assert _names(search_catalog.index_of(catalog), "close issue 7")[0] == "issues_update"


def test_an_index_of_another_format_or_missing_a_tool_is_built_again(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, github_like_spec())
    expected = _names(search_catalog.index_of(catalog), "delete the webhook")
    other = {**catalog, "searchIndex": {**catalog["searchIndex"], "format": 99}}
    documents = dict(catalog["searchIndex"]["documents"])
    documents.pop("repos_delete_webhook")
    missing = {**catalog, "searchIndex": {"format": 1, "documents": documents}}
    broken = {**catalog, "searchIndex": {"format": 1, "documents": dict.fromkeys(documents, 7)}}
    for variant in (other, missing, broken):
        assert _names(search_catalog.index_of(variant), "delete the webhook") == expected


KUBE_LIKE: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Cluster", "version": "1"},
    "servers": [{"url": "https://cluster.example"}],
    "components": {
        "schemas": {
            "LimitRange": {
                "type": "object",
                "description": "LimitRange sets default memory and cpu limits for containers.",
                "properties": {"spec": {"$ref": "#/components/schemas/LimitRangeSpec"}},
            },
            "LimitRangeSpec": {
                "type": "object",
                "description": "The minimum and maximum usage a container may ask for.",
            },
            "Quota": {
                "type": "object",
                "description": "A Quota caps what a namespace may consume in total.",
            },
        }
    },
    "paths": {
        "/namespaces/{namespace}/limitranges": {
            "post": {
                "operationId": "createNamespacedLimitRange",
                "description": "create a LimitRange",
                "parameters": [
                    {
                        "name": "namespace",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/LimitRange"}}
                    },
                },
                "responses": {"201": {"description": "created"}},
            }
        },
        "/namespaces/{namespace}/quotas": {
            "post": {
                "operationId": "createNamespacedQuota",
                "description": "create a Quota",
                "parameters": [
                    {
                        "name": "namespace",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Quota"}}
                    },
                },
                "responses": {"201": {"description": "created"}},
            }
        },
    },
}


def test_what_the_spec_says_of_the_resource_is_searched(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, KUBE_LIKE)
    about = catalog["searchIndex"]["documents"]["create_namespaced_limit_range"]["fields"]["about"]
    # the body's description, and its spec's (through $ref), stemmed
    assert {"memori", "container", "minimum", "maximum"} <= set(about.split())
    index = search_catalog.index_of(catalog)
    assert _names(index, "default memory limits for containers")[0] == (
        "create_namespaced_limit_range"
    )


def test_a_document_reads_back_as_written() -> None:
    entry = search_document.Entry(
        name="post_payment_intents_intent_confirm",
        summary="Post payment intents intent confirm",
        method="POST",
        path="/v1/payment_intents/{intent}/confirm",
        text="Confirm that your customer intends to pay. Deprecated: use the new flow.",
        about="A PaymentIntent guides you through collecting a payment.",
    )
    built = search_document.document(entry)
    read = search_document.document_from_data(entry, search_document.document_data(built))
    assert read == built
    assert (read.verb, read.deprecated) == ("confirm", True)


EXAMPLES = [
    {"query": "who has the keys to acme/api", "expected": ["repos/list-collaborators"]},
    {"query": "everyone that can push to the infra repo", "expected": ["repos_list_collaborators"]},
]


def _examples_file(path: Path, examples: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(example) + "\n" for example in examples), "utf-8")
    return path


def test_search_examples_are_written_with_tool_names_and_the_server_learns_from_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(github_like_spec()), "utf-8")
    examples = _examples_file(tmp_path / "examples.jsonl", EXAMPLES)
    generation = generate(str(path), GenerateOptions(search_examples=examples))
    [name] = [f for f in generation.files if f.endswith("/catalog.json")]
    catalog = catalog_from_files(generation.files, name)
    assert catalog["searchIndex"]["examples"] == [
        {"query": "who has the keys to acme/api", "tools": ["repos_list_collaborators"]},
        {
            "query": "everyone that can push to the infra repo",
            "tools": ["repos_list_collaborators"],
        },
    ]
    query = "who has the keys to acme/web"
    assert _names(search_catalog.index_of(catalog), query)[0] == "repos_list_collaborators"
    plain = _catalog(tmp_path, github_like_spec())
    assert _names(search_catalog.index_of(plain), query)[0] != "repos_list_collaborators"


def test_the_config_file_names_the_search_examples_relative_to_itself(tmp_path: Path) -> None:
    (tmp_path / "api").mkdir()
    spec = tmp_path / "api" / "openapi.json"
    spec.write_text(json.dumps(github_like_spec()), "utf-8")
    (tmp_path / "api" / "openapi2mcp.toml").write_text(
        'search_examples = "search/phrasings.jsonl"\n'
    )
    _examples_file(tmp_path / "api" / "search" / "phrasings.jsonl", EXAMPLES[:1])
    generation = generate(str(spec), GenerateOptions())
    [name] = [f for f in generation.files if f.endswith("/catalog.json")]
    examples = catalog_from_files(generation.files, name)["searchIndex"]["examples"]
    assert examples == [
        {"query": "who has the keys to acme/api", "tools": ["repos_list_collaborators"]}
    ]


def test_unusable_search_examples_stop_the_generation_naming_the_line_and_write_nothing(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(github_like_spec()), "utf-8")
    examples = _examples_file(
        tmp_path / "examples.jsonl",
        [EXAMPLES[0], {"query": "merge it", "expected": ["pulls/merge-it"]}],
    )
    out = tmp_path / "out"
    args = ["generate", str(spec), "-o", str(out), "--search-examples", str(examples)]
    result = CliRunner().invoke(main, [*args, "--no-progress"])
    assert result.exit_code == 2
    assert (
        "search examples: examples.jsonl: line 2: no operation pulls/merge-it among the planned "
        "tools" in result.stderr
    )
    assert not out.exists()


def test_the_kinds_of_action_a_body_takes_say_what_the_operation_does(tmp_path: Path) -> None:
    action = {
        "type": "object",
        "properties": {"type": {"type": "string", "enum": ["reboot", "power_cycle", "rebuild"]}},
    }
    snapshot = {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["snapshot"]},
            "name": {"type": "string"},
        },
    }
    ok = {"200": {"description": "ok"}}
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Cloud", "version": "1"},
        "paths": {
            "/servers/{id}": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "get": {"operationId": "getServer", "summary": "Get a server", "responses": ok},
                "delete": {
                    "operationId": "deleteServer",
                    "summary": "Delete a server",
                    "responses": ok,
                },
            },
            "/servers/{id}/actions": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "post": {
                    "operationId": "postServerAction",
                    "summary": "Initiate a server action",
                    "requestBody": {
                        "content": {"application/json": {"schema": {"oneOf": [action, snapshot]}}}
                    },
                    "responses": ok,
                },
            },
        },
    }
    catalog = _catalog(tmp_path, document)
    about = catalog["searchIndex"]["documents"]["post_server_action"]["fields"]["about"]
    assert {"power", "cycl", "rebuild", "snapshot"} <= set(about.split())
    index = search_catalog.index_of(catalog)
    assert _names(index, "power cycle server 7")[0] == "post_server_action"
    assert _names(index, "rebuild server 7")[0] == "post_server_action"


def test_generate_says_how_many_examples_its_search_learned(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(github_like_spec()), "utf-8")
    examples = _examples_file(tmp_path / "examples.jsonl", EXAMPLES)
    out = tmp_path / "out"
    args = ["generate", str(spec), "-o", str(out), "--search-examples", str(examples)]
    result = CliRunner().invoke(main, [*args, "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "; its search learned 2 example phrasings) in " in result.stderr
    written = json.loads(next(out.glob("src/*/catalog.json")).read_text("utf-8"))
    assert len(written["searchIndex"]["examples"]) == 2


def _versioned_api() -> dict[str, Any]:
    """Ten operations, each taking the API-version header a FastAPI app such as Prefect's puts on
    every route; one of them tells the server's version."""
    header = {"name": "x-api-version", "in": "header", "schema": {"type": "string"}}
    thing = {"type": "object", "properties": {"id": {"type": "string"}}}
    paths: dict[str, Any] = {
        "/version": {
            "get": {
                "operationId": "server_version",
                "summary": "Server Version",
                "parameters": [header],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"schema": {"type": "string"}}},
                    }
                },
            }
        }
    }
    for kind in ("flow", "run", "pool", "queue", "block", "artifact", "variable", "log", "event"):
        paths[f"/{kind}s/{{{kind}_id}}"] = {
            "get": {
                "operationId": f"read_{kind}",
                "summary": f"Read {kind.title()}",
                "parameters": [
                    header,
                    {
                        "name": f"{kind}_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                ],
                "responses": {
                    "200": {"description": "ok", "content": {"application/json": {"schema": thing}}}
                },
            }
        }
    return {"openapi": "3.1.0", "info": {"title": "Flows", "version": "1"}, "paths": paths}


def test_a_parameter_every_operation_takes_and_the_selection_argument_are_not_searched(
    tmp_path: Path,
) -> None:
    catalog = _catalog(tmp_path, _versioned_api())
    assert catalog["selectArgument"] == "_select"
    tools = {tool["name"]: tool for tool in catalog["tools"]}
    assert {"x-api-version", "_select"} <= set(tools["read_flow"]["inputSchema"]["properties"])
    entries = {entry.name: entry for entry in search_catalog.catalog_entries(catalog)}
    # the header is on every operation, the selection argument is the server's own
    assert entries["read_flow"].params == ("flow_id",)
    assert entries["server_version"].params == ()
    # so is the line of description about the selection
    assert tools["read_flow"]["description"].startswith("Read Flow\n\n")
    assert "JMESPath" in tools["read_flow"]["description"]
    assert entries["read_flow"].text == "Read Flow"
    # "version", a word of every operation's header, would have told none of them apart
    index = search_catalog.index_of(catalog)
    assert _names(index, "what version is the server running")[0] == "server_version"
