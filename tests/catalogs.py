"""Generated catalogs as the server sees them: ``catalog.json`` with its tools (written to
``catalog.tools.jsonl`` only), its repeated values (``catalog.pool.jsonl``) and its pooled ``$defs``
restored.

The generator writes the component schemas of tool schemas once (``catalog.defs.json``); the runtime
gives each tool its ``$defs`` back (``catalog.complete_tool``) before listing or validating. Tests
that read a generated catalog's tools go through here to see them as ``tools/list`` shows them.
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from templates.runtime.catalog.model import DEFS_SUFFIX, SCHEMA_DEFS, TOOLS_SUFFIX, complete_tool
from templates.runtime.catalog.pool import POOL_SUFFIX, Pool


def pool_from_files(files: Mapping[str, str | bytes], path: str) -> Pool:
    """The pool (``catalog.pool.jsonl``) of the catalog at ``path`` of a generation's ``files``."""
    pool = Pool()
    text = files.get(path.removesuffix(".json") + POOL_SUFFIX, "")
    assert isinstance(text, str)
    for line in text.split("\n"):
        if line:
            pool.values.append(pool.loads(line))
    return pool


def catalog_from_files(files: Mapping[str, str | bytes], path: str) -> dict[str, Any]:
    """The catalog at ``path`` of a generation's ``files``, its tools completed."""
    pool = pool_from_files(files, path)
    raw = files[path] if path in files else gzip.decompress(_bytes(files[path + ".gz"]))
    catalog: dict[str, Any] = pool.loads(raw)
    lines_path = path.removesuffix(".json") + TOOLS_SUFFIX
    if "tools" not in catalog and lines_path in files:  # the tools live in their lines file only
        catalog["tools"] = [pool.loads(line) for line in files[lines_path].split("\n") if line]
    defs_path = path.removesuffix(".json") + DEFS_SUFFIX
    if defs_path in files:
        pools = {k: v for k, v in pool.loads(files[defs_path]).items() if k != "format"}
        catalog[SCHEMA_DEFS] = pools
        catalog["tools"] = [complete_tool(tool, pools) for tool in catalog["tools"]]
    return catalog


def _bytes(content: str | bytes) -> bytes:
    assert isinstance(content, bytes)
    return content


def read_catalog(path: Path) -> dict[str, Any]:
    """The generated catalog at ``path`` (``.../catalog.json``) with its companions, tools completed."""
    files: dict[str, str | bytes] = {
        str(companion): companion.read_text("utf-8")
        for companion in (
            path,
            *(path.with_name(path.stem + s) for s in (TOOLS_SUFFIX, DEFS_SUFFIX, POOL_SUFFIX)),
        )
        if companion.is_file()
    }
    packed = path.with_name(path.name + ".gz")
    if packed.is_file():
        files[str(packed)] = packed.read_bytes()
    return catalog_from_files(files, str(path))
