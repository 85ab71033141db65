"""Generated catalogs as the server sees them: ``catalog.json`` with its pooled ``$defs`` restored.

The generator writes the component schemas of tool schemas once (``catalog.defs.json``); the runtime
gives each tool its ``$defs`` back (``catalog.complete_tool``) before listing or validating. Tests
that read a generated catalog's tools go through here to see them as ``tools/list`` shows them.
"""

from __future__ import annotations

import json
from typing import Any

from templates.runtime.catalog import DEFS_SUFFIX, SCHEMA_DEFS, complete_tool


def catalog_from_files(files: dict[str, str], path: str) -> dict[str, Any]:
    """The catalog at ``path`` of a generation's ``files``, its tools completed."""
    catalog: dict[str, Any] = json.loads(files[path])
    defs_path = path.removesuffix(".json") + DEFS_SUFFIX
    if defs_path in files:
        pools = {k: v for k, v in json.loads(files[defs_path]).items() if k != "format"}
        catalog[SCHEMA_DEFS] = pools
        catalog["tools"] = [complete_tool(tool, pools) for tool in catalog["tools"]]
    return catalog
