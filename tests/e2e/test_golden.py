"""Golden output: the committed sample packages are exactly what the generator produces today.

A golden package holds the API-specific output only. The runtime every package carries
(``src/<pkg>/_runtime/``, a verbatim copy of ``templates/runtime``) is checked by a manifest beside
the golden directory, ``runtime.sha256`` (``sha256sum`` format): one line per file, so a runtime
change shows in review as changed hashes, not as thousands of copied lines.

Refresh them after an intended change with `pytest tests/e2e/test_golden.py --update-golden`.
"""

from __future__ import annotations

import hashlib
import shutil

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.conftest import REPO

SAMPLES = {
    # sample → (spec, options); the bookshop exercises x-mcp + an overlay + openapi2mcp.toml
    "petstore": ("openapi.yaml", GenerateOptions()),
    "bookshop": (
        "openapi.yaml",
        GenerateOptions(overlays=(REPO / "samples/bookshop/overlay.yaml",)),
    ),
}
RUNTIME = REPO / "templates" / "runtime"


def _bytes(content: str | bytes) -> bytes:
    return content if isinstance(content, bytes) else content.encode("utf-8")


def _manifest(files: dict[str, bytes]) -> str:
    return "".join(
        f"{hashlib.sha256(data).hexdigest()}  {path}\n" for path, data in sorted(files.items())
    )


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_sample_matches_golden(sample: str, request: pytest.FixtureRequest) -> None:
    spec, options = SAMPLES[sample]
    golden = REPO / "samples" / sample / "golden"
    manifest = REPO / "samples" / sample / "runtime.sha256"
    result = generate(str(REPO / "samples" / sample / spec), options)
    package = result.plan.package
    prefix = f"src/{package}/_runtime/"
    specific = {p: _bytes(c) for p, c in result.files.items() if not p.startswith(prefix)}
    runtime = {
        p.removeprefix(prefix): _bytes(c) for p, c in result.files.items() if p.startswith(prefix)
    }
    if request.config.getoption("--update-golden"):
        if golden.exists():
            shutil.rmtree(golden)
        write_tree(specific, golden, force=True, marker=MARKER)
        manifest.write_text(_manifest(runtime), "utf-8")
    on_disk = {
        p.relative_to(golden).as_posix(): p.read_bytes()
        for p in golden.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert sorted(on_disk) == sorted(specific), "run with --update-golden after an intended change"
    for path, data in specific.items():
        assert on_disk[path] == data, f"{path} differs from the golden copy"
    assert manifest.read_text("utf-8") == _manifest(runtime), (
        "the runtime changed: run with --update-golden after an intended change"
    )


def test_the_runtime_is_copied_verbatim() -> None:
    """What the manifests vouch for: every package's ``_runtime/`` is ``templates/runtime``."""
    result = generate(str(REPO / "samples" / "petstore" / "openapi.yaml"), GenerateOptions())
    prefix = f"src/{result.plan.package}/_runtime/"
    copied = {
        p.removeprefix(prefix): _bytes(c) for p, c in result.files.items() if p.startswith(prefix)
    }
    source = {
        p.relative_to(RUNTIME).as_posix(): p.read_bytes()
        for p in RUNTIME.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert copied == source
