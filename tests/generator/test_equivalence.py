"""The Petstore sample written as OpenAPI 3.0, OpenAPI 3.1 and Swagger 2.0 gives the same server.

``samples/petstore/openapi.yaml`` (3.0), ``openapi-3.1.yaml`` (type arrays with "null", ``examples``)
and ``openapi-swagger2.yaml`` (``definitions``, body and ``collectionFormat: multi`` parameters,
``x-nullable``) describe the same operations. The 3.1 package is byte-identical to the 3.0 one apart
from the source hash. The Swagger package differs in one documented, unavoidable way: a Swagger
non-body parameter (and its Items Object) cannot ``$ref`` a schema, so the enum schemas ``PetStatus``
and ``OrderStatus`` are written inline there. Once references are inlined, the tools' input schemas
are equal except that the inline ``PetStatus`` items carry no description (Items Objects have none),
and the typed client (``operations.py``) takes ``str`` instead of the enum models for those three
parameters.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.generate import GenerateOptions, Generation, generate
from openapi2mcp.render.package import PUBLISHING_WARNINGS
from tests.catalogs import catalog_from_files

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "petstore"
CATALOG = "src/petstore_mcp/catalog.json"
_SOURCE_HASH = re.compile(r"sha256:[0-9a-f]{64}")
# (tool, argument) whose array items are PetStatus: inline in Swagger, without its description
ITEMS_WITHOUT_DESCRIPTION = {("list_pets", "status"), ("find_pets_by_status", "status")}
PET_STATUS = "Where the pet is in the sales process."


@pytest.fixture(scope="module")
def packages() -> dict[str, Generation]:
    found = {}
    for version, name in (
        ("3.0", "openapi.yaml"),
        ("3.1", "openapi-3.1.yaml"),
        ("2.0", "openapi-swagger2.yaml"),
    ):
        generation = generate(str(SAMPLES / name), GenerateOptions())
        warnings = [w for w in generation.report.warnings if w.code not in PUBLISHING_WARNINGS]
        assert warnings == [], version
        found[version] = generation
    return found


def without_source_hash(files: dict[str, str]) -> dict[str, str]:
    return {path: _SOURCE_HASH.sub("sha256:-", text) for path, text in files.items()}


def catalog(generation: Generation) -> dict[str, Any]:
    return catalog_from_files(generation.files, CATALOG)


def inline(schema: Any, defs: dict[str, Any]) -> Any:
    """``schema`` with every ``#/$defs/X`` replaced by X (siblings of the ``$ref`` win)."""
    if isinstance(schema, list):
        return [inline(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: inline(value, defs) for key, value in schema.items() if key != "$defs"}
    ref = out.pop("$ref", None)
    if ref is not None:
        out = {**inline(defs[ref.removeprefix("#/$defs/")], defs), **out}
    return out


def normalised(tool: dict[str, Any]) -> dict[str, Any]:
    out = dict(tool)
    for key in ("inputSchema", "outputSchema"):
        if key in out:
            out[key] = inline(out[key], out[key].get("$defs", {}))
    return out


def test_openapi_3_1_gives_the_same_package_as_3_0(packages: dict[str, Generation]) -> None:
    assert without_source_hash(packages["3.1"].files) == without_source_hash(packages["3.0"].files)


def test_swagger_2_gives_the_same_surface_and_operations(packages: dict[str, Generation]) -> None:
    openapi, swagger = catalog(packages["3.0"]), catalog(packages["2.0"])
    for key in openapi.keys() - {"tools"}:
        assert swagger[key] == openapi[key], key
    assert swagger.keys() == openapi.keys()
    expected = [normalised(tool) for tool in openapi["tools"]]
    for tool in expected:
        for name, argument in ITEMS_WITHOUT_DESCRIPTION:
            if tool["name"] == name:
                items = tool["inputSchema"]["properties"][argument]["items"]
                assert items.pop("description") == PET_STATUS
    assert [normalised(tool) for tool in swagger["tools"]] == expected


def test_swagger_2_differs_only_where_documented(packages: dict[str, Generation]) -> None:
    openapi = without_source_hash(packages["3.0"].files)
    swagger = without_source_hash(packages["2.0"].files)
    assert swagger.keys() == openapi.keys()
    differing = sorted(path for path in openapi if openapi[path] != swagger[path])
    # the catalog's index, pool and tool lines are catalog.json's companions (byte offsets, the
    # values written once, tools)
    assert differing == [
        "mcp-surface.json",
        "src/petstore_mcp/catalog.index.json",
        "src/petstore_mcp/catalog.pool.jsonl",
        "src/petstore_mcp/catalog.tools.jsonl",
        "src/petstore_mcp/operations.py",
    ]
    changed = [
        (old.strip(), new.strip())
        for old, new in zip(
            openapi["src/petstore_mcp/operations.py"].splitlines(),
            swagger["src/petstore_mcp/operations.py"].splitlines(),
            strict=True,
        )
        if old != new
    ]
    assert changed == [
        ("status: list[models.PetStatus] | None = None,", "status: list[str] | None = None,"),
        ("status: list[models.PetStatus],", "status: list[str],"),
        (
            "status: models.OrderStatus | None = None,",
            "status: str | None = None,",
        ),
    ]
    openapi_surface = json.loads(openapi["mcp-surface.json"])
    swagger_surface = json.loads(swagger["mcp-surface.json"])
    assert len(swagger_surface["items"]) == len(openapi_surface["items"])
    # the input schemas of the three tools with inline enums, and so their hashes
    assert {
        item["name"]
        for item, other in zip(openapi_surface["items"], swagger_surface["items"], strict=True)
        if item != other
    } == {"list_pets", "find_pets_by_status", "list_orders"}
