"""The test environment carries every dependency of a generated server.

``openapi2mcp bundle`` packs a generated server together with its dependencies, taken from the
Python environment the command runs in. CI installs that environment from our ``test`` extra, so a
dependency added to the generated ``pyproject.toml`` and forgotten there breaks the bundle on a
clean machine only (as sniffio once did). These tests hold the two lists together.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _generated_dependencies() -> list[Requirement]:
    template = (ROOT / "templates/package/pyproject.toml.j2").read_text()
    block = re.search(r"^dependencies = \[\n(.*?)^\]", template, re.M | re.S)
    assert block is not None, "the package template lost its dependencies list"
    return [Requirement(r) for r in re.findall(r'^\s*"([^"]+)",', block.group(1), re.M)]


def _generated_extra(name: str) -> list[Requirement]:
    """The requirements of the generated package's optional extra ``name``."""
    template = (ROOT / "templates/package/pyproject.toml.j2").read_text()
    line = re.search(rf"^{name} = \[(.*)\]$", template, re.M)
    assert line is not None, f"the package template lost its {name} extra"
    return [Requirement(r) for r in re.findall(r'"([^"]+)"', line.group(1))]


def _test_extra() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = [Requirement(r) for r in project["optional-dependencies"]["test"]]
    return {canonicalize_name(r.name): r for r in listed}


def test_the_template_lists_what_a_server_imports() -> None:
    names = {canonicalize_name(r.name) for r in _generated_dependencies()}
    assert names == {"httpx", "sniffio", "pydantic", "jsonschema-rs", "jmespath"}


def test_every_generated_dependency_is_in_the_test_extra() -> None:
    extra = _test_extra()
    missing = [str(r) for r in _generated_dependencies() if canonicalize_name(r.name) not in extra]
    assert missing == []


def test_this_environment_satisfies_every_generated_dependency() -> None:
    unmet = []
    for requirement in _generated_dependencies():
        try:
            version = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            unmet.append(f"{requirement} (not installed)")
            continue
        if not requirement.specifier.contains(version, prereleases=True):
            unmet.append(f"{requirement} (installed {version})")
    assert unmet == []


def test_the_code_extra_is_the_sandbox_and_the_test_extra_has_it() -> None:
    """Code mode's sandbox and the cipher of its journal are an extra of the generated server
    (imported in code mode only); the tests run code mode, so the environment they run in has
    both, at versions the extra accepts."""
    sandbox, cipher = _generated_extra("code")
    assert canonicalize_name(sandbox.name) == "pydantic-monty"
    assert str(_test_extra()["pydantic-monty"].specifier) == str(sandbox.specifier)
    assert sandbox.specifier.contains(metadata.version("pydantic-monty"))
    assert canonicalize_name(cipher.name) == "cryptography"
    assert cipher.specifier.contains(metadata.version("cryptography"))
