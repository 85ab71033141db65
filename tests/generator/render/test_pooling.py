"""Repeated catalog values written once (``catalog.pool.jsonl``): exact round trips, smaller files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.render.catalog import build_catalog, catalog_files
from openapi2mcp.render.pooling import MIN_BYTES, POOL_FILE, REFERENCE, pool_values
from templates.runtime.catalog import pool as catalog_pool
from templates.runtime.catalog.model import SCHEMA_DEFS, CatalogError, load_catalog
from tests.catalogs import read_catalog

SAMPLES = Path(__file__).resolve().parents[3] / "samples"
LONG = "a description long enough to be written once"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _read_back(documents: list[Any], pool: list[Any]) -> list[Any]:
    reader = catalog_pool.Pool()
    for line in pool:
        reader.values.append(reader.loads(_compact(line)))
    return [reader.loads(_compact(document)) for document in documents]


def test_the_generator_and_the_runtime_agree_on_the_reference_key() -> None:
    assert REFERENCE == catalog_pool.REFERENCE
    assert POOL_FILE == "catalog" + catalog_pool.POOL_SUFFIX


def test_repeated_values_come_back_exactly_and_are_written_once() -> None:
    parameter = {"name": "$select", "location": "query", "style": "form", "explode": False}
    documents: list[Any] = [
        {"operations": {"a": {"parameters": [parameter, {"name": "id"}]}, "b": [parameter]}},
        {"description": LONG, "tags": ["x", "y"], "n": 1, "flag": True, "none": None},
        {"description": LONG, "nested": {"parameters": [parameter, {"name": "x"}]}, "n": 1.0},
    ]
    pooled = pool_values(documents)
    assert pooled is not None
    written, pool = pooled
    assert _read_back(written, pool) == documents
    # the parameter object and the long string, each once; nothing shorter than MIN_BYTES
    assert pool == [parameter, LONG]
    assert written[0]["operations"]["b"] == [{REFERENCE: 0}]
    assert written[2]["nested"] == {"parameters": [{REFERENCE: 0}, {"name": "x"}]}
    assert written[1]["description"] == {REFERENCE: 1}
    assert all(len(_compact(value)) >= MIN_BYTES for value in pool)


def test_a_value_inside_a_pooled_value_is_not_pooled_for_that_alone() -> None:
    inner = {"type": "string", "description": "shared only through its parent object"}
    outer = {"properties": {"a": inner}, "type": "object"}
    pooled = pool_values([{"x": outer}, {"y": outer}])
    assert pooled is not None
    written, pool = pooled
    assert pool == [outer]  # inner occurs once in the written files: inside the pool line
    assert written == [{"x": {REFERENCE: 0}}, {"y": {REFERENCE: 0}}]


def test_pool_lines_refer_only_to_earlier_lines() -> None:
    leaf = {"type": "string", "description": "a leaf repeated in two different parents"}
    documents = [
        {"a": {"items": leaf, "title": "one parent"}, "b": {"items": leaf, "title": "one parent"}},
        {"c": {"items": leaf, "title": "another"}, "d": {"items": leaf, "title": "another"}},
    ]
    pooled = pool_values(documents)
    assert pooled is not None
    written, pool = pooled
    for number, line in enumerate(pool):
        references = [int(n) for n in _numbers(line)]
        assert all(ref < number for ref in references), (number, line)
    assert _read_back(written, pool) == documents


def _numbers(value: Any) -> list[int]:
    if isinstance(value, dict):
        if len(value) == 1 and REFERENCE in value:
            return [value[REFERENCE]]
        return [n for item in value.values() for n in _numbers(item)]
    if isinstance(value, list):
        return [n for item in value for n in _numbers(item)]
    return []


def test_data_holding_a_reference_shaped_object_is_written_without_a_pool() -> None:
    example = {"default": {REFERENCE: 3}, "description": LONG}
    assert pool_values([example, {"description": LONG}]) is None


def test_nothing_repeated_means_no_pool() -> None:
    assert pool_values([{"a": "short"}, {"b": LONG}]) is None


@pytest.mark.parametrize("sample", ["bookshop", "petstore"])
def test_a_generated_catalog_reads_back_as_the_plan_built_it(sample: str, tmp_path: Path) -> None:
    plan, _ = plan_source(str(SAMPLES / sample / "openapi.yaml"), GenerateOptions())
    files = catalog_files(plan, Report())
    assert POOL_FILE in files
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    built = json.loads(_compact(build_catalog(plan, Report())))
    catalog = read_catalog(tmp_path / "catalog.json")
    catalog.pop(SCHEMA_DEFS, None)
    assert catalog == built
    loaded = load_catalog(tmp_path / "catalog.json")  # the runtime's own reading
    assert {key: loaded[key] for key in built if key != "tools"} == {
        key: value for key, value in built.items() if key != "tools"
    }


def test_a_reference_outside_the_pool_is_a_catalog_error_naming_the_file(tmp_path: Path) -> None:
    plan, _ = plan_source(str(SAMPLES / "bookshop" / "openapi.yaml"), GenerateOptions())
    for name, text in catalog_files(plan, Report()).items():
        (tmp_path / name).write_text(text, "utf-8")
    (tmp_path / POOL_FILE).write_text('"only line"\n', "utf-8")
    catalog = load_catalog(tmp_path / "catalog.json")
    with pytest.raises(CatalogError, match=r"cannot read catalog catalog.json: .*not in the pool"):
        catalog["operations"]
