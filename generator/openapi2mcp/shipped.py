"""What ships with the generator: the templates folder, and the runtime modules the generator runs.

The templates live inside the wheel (``openapi2mcp/_templates``) or in a source checkout. A few runtime
modules import no sibling (``jsonschema``, ``sensitive``), so the generator loads those very files and
judges schemas and names exactly as the generated servers will.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType


@cache
def templates_root() -> Path:
    packaged = Path(__file__).with_name("_templates")
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "templates"
    if checkout.is_dir():
        return checkout
    raise RuntimeError("openapi2mcp templates not found; the installation is incomplete")


@cache
def runtime_module(name: str) -> ModuleType:
    """``templates/runtime/<name>.py``, loaded as a module of its own (it must import no sibling)."""
    path = templates_root() / "runtime" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"openapi2mcp._runtime_{name}", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load the runtime module {name} from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
