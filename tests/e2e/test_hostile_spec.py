"""A spec with quotes, triple quotes, backslashes, template syntax, NUL and keywords everywhere
still generates a package that passes ruff, compiles, and whose own smoke tests pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.catalogs import read_catalog

SPEC = Path(__file__).with_name("specs") / "hostile.yaml"
BIN = Path(sys.executable).parent


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


def test_hostile_strings_stay_data(tmp_path: Path) -> None:
    result = generate(str(SPEC), GenerateOptions())
    out = tmp_path / "out"
    write_tree(result.files, out, force=False, marker=MARKER)
    for args in (
        [str(BIN / "ruff"), "check", "--no-cache", "."],
        [str(BIN / "ruff"), "format", "--no-cache", "--check", "."],
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:asyncio"],
    ):
        done = run(args, out)
        assert done.returncode == 0, done.stdout + done.stderr
    catalog = read_catalog(next(out.glob("src/*/catalog.json")))
    tool = next(t for t in catalog["tools"] if t["name"] == "import")
    assert tool["title"] == 'sum"""mary\\'
    assert tool["inputSchema"]["properties"]["class"]["enum"] == ['a"b', "c'''d"]
    # the typed client imports and exposes keyword-safe names
    probe = run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.path.insert(0, 'src'); import {catalog_package(out)}.operations as o; "
            "print(sorted(vars(o)))",
        ],
        out,
    )
    assert probe.returncode == 0, probe.stderr
    assert "'import_'" in probe.stdout and "'none'" in probe.stdout


def catalog_package(out: Path) -> str:
    return next(p.name for p in (out / "src").iterdir() if p.is_dir())
