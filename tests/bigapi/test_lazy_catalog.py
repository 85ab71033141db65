"""``LazyCatalog``: the index in memory, the rest of catalog.json read once, on first use."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from templates.runtime.catalog.model import (
    CatalogError,
    LazyCatalog,
    catalog_counts,
    catalog_part,
    load_catalog,
)
from templates.runtime.catalog.pool import read_pool
from templates.runtime.protocol.pagination import FileTools, tool_source
from tests.bigapi.conftest import MODULE
from tests.catalogs import read_catalog


def lazy(package: Path) -> LazyCatalog:
    catalog = load_catalog(package / "src" / MODULE / "catalog.json")
    assert isinstance(catalog, LazyCatalog)
    return catalog


def test_index_keys_never_load_the_rest(bigapi_package: Path) -> None:
    catalog = lazy(bigapi_package)
    assert catalog["server"]["name"] == "github-like-mcp"
    assert "127 operations" in catalog.get("instructions", "")
    assert catalog["toolMode"]["mode"] == "dynamic"
    assert catalog_counts(catalog)["tools"] == 127
    operations = catalog_part(catalog, "operations")
    assert not catalog.loaded
    assert operations["issues/create"]["method"] == "POST"
    assert catalog.loaded


def test_any_other_use_reads_the_whole_catalog(bigapi_package: Path) -> None:
    source = bigapi_package / "src" / MODULE
    pool = read_pool(source / "catalog.json")
    assert pool.values  # big APIs repeat values: each is written once
    whole = pool.loads((source / "catalog.json").read_text("utf-8"))
    assert "tools" not in whole  # written once, in the lines file
    lines = (source / "catalog.tools.jsonl").read_text("utf-8").split("\n")
    whole["tools"] = [pool.loads(line) for line in lines if line]
    assert dict(lazy(bigapi_package)) == whole
    assert {**lazy(bigapi_package)} == whole
    assert lazy(bigapi_package) == whole
    assert "promptMessages" in lazy(bigapi_package)
    copied = copy.deepcopy(lazy(bigapi_package))
    assert type(copied) is dict and copied == whole
    assert lazy(bigapi_package).copy() == whole
    assert json.loads(json.dumps(lazy(bigapi_package))) == whole


def test_tool_lines_serve_any_selection(bigapi_package: Path) -> None:
    catalog = lazy(bigapi_package)
    source = tool_source(catalog)
    assert isinstance(source, FileTools)
    whole = read_catalog(bigapi_package / "src" / MODULE / "catalog.json")
    assert source.pick([0, 1, 2, 50, 126]) == [whole["tools"][i] for i in (0, 1, 2, 50, 126)]
    assert source.pick([]) == []
    assert list(source.names) == [tool["name"] for tool in whole["tools"]]
    assert not catalog.loaded


def test_without_an_index_the_catalog_is_read_whole(bigapi_package: Path, tmp_path: Path) -> None:
    for name in ("catalog.json", "catalog.tools.jsonl", "catalog.pool.jsonl"):
        (tmp_path / name).write_bytes((bigapi_package / "src" / MODULE / name).read_bytes())
    catalog = load_catalog(tmp_path / "catalog.json")
    assert type(catalog) is dict and len(catalog["tools"]) == 127
    assert catalog == read_catalog(bigapi_package / "src" / MODULE / "catalog.json")


def test_a_truncated_tool_file_is_a_catalog_error(bigapi_package: Path, tmp_path: Path) -> None:
    source = bigapi_package / "src" / MODULE
    for name in ("catalog.json", "catalog.index.json", "catalog.tools.jsonl", "catalog.pool.jsonl"):
        (tmp_path / name).write_bytes((source / name).read_bytes())
    lines = tmp_path / "catalog.tools.jsonl"
    lines.write_bytes(lines.read_bytes()[:1000])
    tools = tool_source(load_catalog(tmp_path / "catalog.json"))
    with pytest.raises(CatalogError):
        tools.pick(list(range(127)))
