"""Shared fixtures: the generated Petstore package and its fake upstream."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER

REPO = Path(__file__).resolve().parents[1]
PETSTORE_DIR = REPO / "samples" / "petstore"
PETSTORE_SPEC = PETSTORE_DIR / "openapi.yaml"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite the committed golden output under samples/ instead of comparing with it.",
    )


def _load_module(name: str, path: Path) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def fake_petstore_module() -> ModuleType:
    return _load_module("petstore_fake_upstream", PETSTORE_DIR / "fake_upstream.py")


@pytest.fixture(scope="session")
def petstore_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Petstore sample generated once per session into a temporary directory."""
    out = tmp_path_factory.mktemp("generated") / "petstore-mcp"
    result = generate(str(PETSTORE_SPEC), GenerateOptions())
    write_tree(result.files, out, force=False, marker=MARKER)
    return out


@pytest.fixture
def fake_petstore() -> Iterator[object]:
    module = fake_petstore_module()
    with module.FakePetstore() as fake:
        yield fake
