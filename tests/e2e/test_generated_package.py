"""The generated Petstore package as a user gets it: lint-clean, typed, installable, self-tested."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.kit.meta import meta

BIN = Path(sys.executable).parent
CACHES = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
COMPILE_ALL = (
    "import pathlib, sys\n"
    "for p in sorted(pathlib.Path('.').rglob('*.py')):\n"
    "    compile(p.read_text('utf-8'), str(p), 'exec')\n"
)


def tree(root: Path) -> list[Path]:
    return sorted(
        p.relative_to(root)
        for p in root.rglob("*")
        if p.is_file() and not CACHES.intersection(p.parts)
    )


def run(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, env=env, timeout=600, check=False
    )


def test_generated_code_passes_ruff_and_compiles(petstore_package: Path) -> None:
    check = run([str(BIN / "ruff"), "check", "--no-cache", "."], petstore_package)
    assert check.returncode == 0, check.stdout + check.stderr
    fmt = run([str(BIN / "ruff"), "format", "--no-cache", "--check", "."], petstore_package)
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr
    compiled = run([sys.executable, "-B", "-c", COMPILE_ALL], petstore_package)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


@pytest.mark.slow
def test_generated_code_passes_mypy_strict(petstore_package: Path) -> None:
    result = run([sys.executable, "-m", "mypy", "--cache-dir", os.devnull], petstore_package)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_generated_package_own_tests_pass(petstore_package: Path) -> None:
    result = run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:asyncio"],
        petstore_package,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert " passed" in result.stdout


@pytest.mark.slow
def test_installs_into_a_fresh_venv_and_runs_as_a_command(
    petstore_package: Path, tmp_path: Path
) -> None:
    """`pip install <out>` in a clean venv, then `petstore-mcp` answers over stdio."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            str(petstore_package),
        ],
        tmp_path,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    discover = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}}
    request = json.dumps(discover, separators=(",", ":")) + "\n"
    served = subprocess.run(
        [str(env_dir / "bin" / "petstore-mcp")],
        input=request,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": os.environ.get("PATH", "")},
    )
    assert served.returncode == 0, served.stderr
    lines = served.stdout.splitlines()
    assert len(lines) == 1, served.stdout
    assert '"supportedVersions"' in lines[0] and '"petstore-mcp"' in lines[0]
    # the typed client imports the pydantic models without extra dependencies, and not the server
    probe = (
        "import sys, inspect, petstore_mcp.operations as o; "
        "print(sorted(n for n, f in vars(o).items() if inspect.iscoroutinefunction(f))[:3], "
        "o.ApiError.__name__, 'petstore_mcp.server' in sys.modules)"
    )
    typed = run([str(python), "-c", probe], tmp_path)
    assert typed.returncode == 0, typed.stderr
    assert typed.stdout == "['approve_order', 'create_pet', 'create_user'] ApiError False\n"


@pytest.mark.parametrize("seed", ["1", "12345"])
def test_generation_is_byte_identical_across_hash_seeds(
    seed: str, tmp_path: Path, petstore_package: Path
) -> None:
    out = tmp_path / "again"
    env = {**os.environ, "PYTHONHASHSEED": seed}
    result = run(
        [
            str(BIN / "openapi2mcp"),
            "generate",
            str(REPO / "samples/petstore/openapi.yaml"),
            "-o",
            str(out),
        ],
        tmp_path,
        env,
    )
    assert result.returncode == 0, result.stderr
    produced = tree(out)
    assert produced == tree(petstore_package)
    for rel in produced:
        assert (out / rel).read_bytes() == (petstore_package / rel).read_bytes(), rel
