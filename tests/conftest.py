"""Shared fixtures (the generated Petstore package and its fake upstream) and the suite's lanes.

Markers say what a test needs beyond this checkout's virtual environment (``pyproject.toml`` lists
them): ``node`` (Node.js or npm), ``realapi`` (the real API servers of ``scripts/install_realapis.sh``)
and ``slow`` (package builds, fresh virtual environments, runs of many seconds).
``scripts/test.sh --fast`` leaves all three out and runs the rest in ``--shard``s side by side.
"""

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

# fixtures shared by several folders: the session's real Redis server
pytest_plugins = ("tests.kit.redis_server",)

REPO = Path(__file__).resolve().parents[1]
PETSTORE_DIR = REPO / "samples" / "petstore"
PETSTORE_SPEC = PETSTORE_DIR / "openapi.yaml"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite the committed golden output under samples/ instead of comparing with it.",
    )
    parser.addoption(
        "--shard",
        metavar="K/N",
        help="Run only the K-th of N shares of the selected test files (1 <= K <= N), so that N "
        "pytest processes side by side run each selected test once.",
    )


def _shard(value: str) -> tuple[int, int]:
    number, _, count = value.partition("/")
    if not (number.isdigit() and count.isdigit() and 1 <= int(number) <= int(count)):
        raise pytest.UsageError(f"--shard takes K/N with 1 <= K <= N, not {value!r}")
    return int(number), int(count)


def _dealt(index: int, count: int) -> int:
    turn = index % (2 * count)
    return turn + 1 if turn < count else 2 * count - turn


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected what they will
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # the realapi tests last: scripts/test.sh installs their servers while the others run
    items.sort(key=lambda item: item.get_closest_marker("realapi") is not None)
    value = config.getoption("--shard")
    if value is None:
        return
    number, count = _shard(value)
    # whole files (module fixtures are built once), dealt back and forth (1..N, N..1, ...) so that
    # each folder is spread over the shards and none always gets the first file of a round
    files = list(dict.fromkeys(item.path for item in items))
    mine = {path for index, path in enumerate(files) if _dealt(index, count) == number}
    kept = [item for item in items if item.path in mine]
    config.hook.pytest_deselected(items=[item for item in items if item.path not in mine])
    items[:] = kept


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
