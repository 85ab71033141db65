"""Generated catalogs as the server sees them: ``catalog.json`` with its tools (written to
``catalog.tools.jsonl`` only) and its pooled ``$defs`` restored.

The generator writes the component schemas of tool schemas once (``catalog.defs.json``); the runtime
gives each tool its ``$defs`` back (``catalog.complete_tool``) before listing or validating. Tests
that read a generated catalog's tools go through here to see them as ``tools/list`` shows them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from templates.runtime.catalog import DEFS_SUFFIX, SCHEMA_DEFS, TOOLS_SUFFIX, complete_tool


def catalog_from_files(files: dict[str, str], path: str) -> dict[str, Any]:
    """The catalog at ``path`` of a generation's ``files``, its tools completed."""
    catalog: dict[str, Any] = json.loads(files[path])
    lines_path = path.removesuffix(".json") + TOOLS_SUFFIX
    if "tools" not in catalog and lines_path in files:  # the tools live in their lines file only
        catalog["tools"] = [json.loads(line) for line in files[lines_path].split("\n") if line]
    defs_path = path.removesuffix(".json") + DEFS_SUFFIX
    if defs_path in files:
        pools = {k: v for k, v in json.loads(files[defs_path]).items() if k != "format"}
        catalog[SCHEMA_DEFS] = pools
        catalog["tools"] = [complete_tool(tool, pools) for tool in catalog["tools"]]
    return catalog


def read_catalog(path: Path) -> dict[str, Any]:
    """The generated catalog at ``path`` (``.../catalog.json``) with its companions, tools completed."""
    files = {
        str(companion): companion.read_text("utf-8")
        for companion in (
            path,
            *(path.with_name(path.stem + s) for s in (TOOLS_SUFFIX, DEFS_SUFFIX)),
        )
        if companion.is_file()
    }
    return catalog_from_files(files, str(path))
