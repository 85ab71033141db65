"""Golden output: the committed Petstore package is exactly what the generator produces today.

Refresh it after an intended change with `pytest tests/e2e/test_golden.py --update-golden`.
"""

from __future__ import annotations

import shutil

import pytest

from openapi2mcp.emit import write_tree
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render import MARKER
from tests.conftest import PETSTORE_DIR, PETSTORE_SPEC

GOLDEN = PETSTORE_DIR / "golden"


def test_petstore_matches_golden(request: pytest.FixtureRequest) -> None:
    result = generate(str(PETSTORE_SPEC), GenerateOptions())
    if request.config.getoption("--update-golden"):
        if GOLDEN.exists():
            shutil.rmtree(GOLDEN)
        write_tree(result.files, GOLDEN, force=True, marker=MARKER)
    on_disk = {
        p.relative_to(GOLDEN).as_posix(): p.read_bytes()
        for p in GOLDEN.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert sorted(on_disk) == sorted(result.files), (
        "run with --update-golden after an intended change"
    )
    for path, text in result.files.items():
        assert on_disk[path] == text.encode("utf-8"), f"{path} differs from the golden copy"
