"""Golden output: the committed sample packages are exactly what the generator produces today.

Refresh them after an intended change with `pytest tests/e2e/test_golden.py --update-golden`.
"""

from __future__ import annotations

import shutil

import pytest

from openapi2mcp.emit import write_tree
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render import MARKER
from tests.conftest import REPO

SAMPLES = {
    # sample → (spec, options); the bookshop exercises x-mcp + an overlay + openapi2mcp.toml
    "petstore": ("openapi.yaml", GenerateOptions()),
    "bookshop": (
        "openapi.yaml",
        GenerateOptions(overlays=(REPO / "samples/bookshop/overlay.yaml",)),
    ),
}


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_sample_matches_golden(sample: str, request: pytest.FixtureRequest) -> None:
    spec, options = SAMPLES[sample]
    golden = REPO / "samples" / sample / "golden"
    result = generate(str(REPO / "samples" / sample / spec), options)
    if request.config.getoption("--update-golden"):
        if golden.exists():
            shutil.rmtree(golden)
        write_tree(result.files, golden, force=True, marker=MARKER)
    on_disk = {
        p.relative_to(golden).as_posix(): p.read_bytes()
        for p in golden.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert sorted(on_disk) == sorted(result.files), (
        "run with --update-golden after an intended change"
    )
    for path, text in result.files.items():
        assert on_disk[path] == text.encode("utf-8"), f"{path} differs from the golden copy"
