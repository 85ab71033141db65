"""What ships with the generator: the templates folder, and the runtime modules the generator runs.

The templates live inside the wheel (``openapi2mcp/_templates``) or in a source checkout. The generator
loads the runtime's own modules from there (the validator, the secret names, the environment registry,
the security-scheme strategies) and so judges schemas, names and settings exactly as the generated
servers will.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Final


@cache
def templates_root() -> Path:
    packaged = Path(__file__).with_name("_templates")
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "templates"
    if checkout.is_dir():
        return checkout
    raise RuntimeError("openapi2mcp templates not found; the installation is incomplete")


_RUNTIME: Final = "openapi2mcp._runtime"


@cache
def _runtime_package() -> ModuleType:
    """``templates/runtime`` as the package ``openapi2mcp._runtime`` (its initialiser imports
    nothing), so that its modules load with their relative imports, as in a generated server."""
    root = templates_root() / "runtime"
    spec = importlib.util.spec_from_file_location(
        _RUNTIME, root / "__init__.py", submodule_search_locations=[str(root)]
    )
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load the runtime from {root}")
    package = importlib.util.module_from_spec(spec)
    sys.modules[_RUNTIME] = package
    spec.loader.exec_module(package)
    return package


def runtime_module(name: str) -> ModuleType:
    """The runtime's module ``name`` (dotted below the runtime: ``upstream.schemes``), as the
    generated servers run it."""
    _runtime_package()
    return importlib.import_module(f"{_RUNTIME}.{name}")
