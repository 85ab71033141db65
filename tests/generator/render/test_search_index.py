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
