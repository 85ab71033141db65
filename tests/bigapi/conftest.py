"""Fixtures: the GitHub-like API generated once per session, its recording upstream, launch helpers."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client.stdio import StdioServerParameters

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER, PUBLISHING_WARNINGS
from tests.bigapi.github_like import spec
from tests.bigapi.recording import GitHubLike
from tests.catalogs import read_catalog

MODULE = "github_like_mcp"
PREFIX = "GITHUB_LIKE"
TOKEN = "ghp-test-token"


@pytest.fixture(scope="session")
def bigapi_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bigapi") / "github-like.json"
    path.write_text(json.dumps(spec()), encoding="utf-8")
    return path


def generate_package(spec_path: Path, out: Path, options: GenerateOptions) -> Path:
    result = generate(str(spec_path), options)
    assert [w for w in result.report.warnings if w.code not in PUBLISHING_WARNINGS] == []
    write_tree(result.files, out, force=False, marker=MARKER)
    return out


@pytest.fixture(scope="session")
def bigapi_package(bigapi_spec: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated with the defaults: 127 tools, so ``auto`` chose dynamic mode."""
    out = tmp_path_factory.mktemp("bigapi-default") / "github-like-mcp"
    return generate_package(bigapi_spec, out, GenerateOptions())


@pytest.fixture
def upstream() -> Iterator[GitHubLike]:
    with GitHubLike() as api:
        yield api


def server_env(package: Path, upstream: GitHubLike, **extra: str) -> dict[str, str]:
    return {
        "PYTHONPATH": str(package / "src"),
        "PATH": os.environ.get("PATH", ""),
        f"{PREFIX}_BASE_URL": upstream.url,
        f"{PREFIX}_BEARER_TOKEN": TOKEN,
        **{f"{PREFIX}_{key}": value for key, value in extra.items()},
    }


def stdio(package: Path, upstream: GitHubLike, **extra: str) -> StdioServerParameters:
    """The generated server over stdio; ``extra`` sets ``GITHUB_LIKE_<KEY>`` variables."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", MODULE],
        env=server_env(package, upstream, **extra),
    )


def catalog_tools(package: Path) -> dict[str, Any]:
    """The tools as catalog.json holds them (what full mode lists), by name."""
    catalog = read_catalog(package / "src" / MODULE / "catalog.json")
    return {tool["name"]: tool for tool in catalog["tools"]}
