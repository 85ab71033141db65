"""``server.json`` against the MCP registry's published schema, and the ``--registry-name`` option.

The schema is the registry's 2025-12-11 ``server.schema.json``, vendored byte for byte under
``tests/e2e/data`` (see the README there); every generated ``server.json`` must validate against it.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.package import REGISTRY_SCHEMA, PublishOptions
from tests.conftest import PETSTORE_SPEC, REPO

SCHEMA_PATH = Path(__file__).with_name("data") / "server.schema.json"
SCHEMA_SHA256 = "3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0"
HOSTILE_SPEC = Path(__file__).with_name("specs") / "hostile.yaml"

# long title and description, and one security scheme of each kind
VERBOSE_SPEC = """\
openapi: 3.1.0
info:
  title: The Extraordinarily Comprehensive Interplanetary Logistics, Freight and Passenger Booking Platform of the Outer Rim
  version: 3.2.1
  description: >-
    Book freight and passengers between planets, track shipments in transit, manage customs
    declarations and settle invoices, all through one extraordinarily long-winded description.
servers: [{url: "https://api.logistics.example.com"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
    token: {type: http, scheme: bearer}
    login: {type: http, scheme: basic}
security: [{key: []}, {token: []}, {login: []}]
paths:
  /shipments:
    get:
      operationId: listShipments
      responses: {"200": {description: ok}}
"""


@cache
def validator() -> jsonschema.Draft7Validator:
    schema = json.loads(SCHEMA_PATH.read_bytes())
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(
        schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
    )


def problems(entry: Any) -> list[str]:
    return [
        f"{error.json_path}: {error.message}"
        for error in sorted(validator().iter_errors(entry), key=lambda e: e.json_path)
    ]


def server_json(spec: Path, options: GenerateOptions | None = None) -> dict[str, Any]:
    result = generate(str(spec), options or GenerateOptions())
    entry: dict[str, Any] = json.loads(result.files["server.json"])
    return entry


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_vendored_schema_is_the_published_2025_12_11_schema() -> None:
    raw = SCHEMA_PATH.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == SCHEMA_SHA256
    assert json.loads(raw)["$id"] == REGISTRY_SCHEMA


def test_the_validator_rejects_what_the_registry_rejects() -> None:
    entry = server_json(PETSTORE_SPEC)
    broken = {**entry, "name": "petstore-mcp", "description": "x" * 101}
    broken["packages"] = [{**entry["packages"][0], "version": "latest"}]
    assert problems(broken) == [
        "$.description: '" + "x" * 101 + "' is too long",
        "$.name: 'petstore-mcp' does not match '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$'",
        "$.packages[0].version: 'latest' should not be valid under {'const': 'latest'}",
    ]


@pytest.mark.parametrize(
    ("spec", "options"),
    [
        (PETSTORE_SPEC, GenerateOptions()),
        (REPO / "samples/petstore/openapi-swagger2.yaml", GenerateOptions()),
        (
            REPO / "samples/bookshop/openapi.yaml",
            GenerateOptions(overlays=(REPO / "samples/bookshop/overlay.yaml",)),
        ),
        (HOSTILE_SPEC, GenerateOptions()),
        (PETSTORE_SPEC, GenerateOptions(version="2.0.0rc1")),
        (
            PETSTORE_SPEC,
            GenerateOptions(publish=PublishOptions(registry_name="io.github.alice/petstore")),
        ),
    ],
    ids=["petstore", "swagger2", "bookshop", "hostile", "prerelease", "registry-name"],
)
def test_generated_server_json_validates_against_the_registry_schema(
    spec: Path, options: GenerateOptions
) -> None:
    entry = server_json(spec, options)
    assert problems(entry) == []
    assert entry["$schema"] == REGISTRY_SCHEMA


def test_long_texts_are_cut_to_the_registry_limits_and_credentials_are_secret(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "logistics.yaml"
    spec.write_text(VERBOSE_SPEC)
    entry = server_json(spec)
    assert problems(entry) == []
    assert entry["title"] == (
        "The Extraordinarily Comprehensive Interplanetary Logistics, Freight and Passenger "
        "Booking Platform…"
    )
    assert entry["description"] == (
        "MCP server for the Extraordinarily Comprehensive Interplanetary Logistics, Freight and "
        "Passenger…"
    )
    (package,) = entry["packages"]
    assert {k: package[k] for k in ("registryType", "identifier", "version", "transport")} == {
        "registryType": "pypi",
        "identifier": entry["name"].split("/", 1)[1],
        "version": "3.2.1",
        "transport": {"type": "stdio"},
    }
    flags = {v["name"]: (v["isRequired"], v["isSecret"]) for v in package["environmentVariables"]}
    prefix = entry["name"].split("/", 1)[1].removesuffix("-mcp").upper().replace("-", "_")
    assert flags == {
        f"{prefix}_BASE_URL": (False, False),
        f"{prefix}_TIMEOUT": (False, False),
        f"{prefix}_KEY": (False, True),
        f"{prefix}_TOKEN": (False, True),
        f"{prefix}_LOGIN_USERNAME": (False, True),
        f"{prefix}_LOGIN_PASSWORD": (False, True),
        f"{prefix}_HEADERS": (False, True),
    }


def test_registry_name_option_names_the_server_everywhere(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = invoke(
        "generate", str(PETSTORE_SPEC), "-o", str(out), "--registry-name", "io.github.alice/pets"
    )
    assert code == 0, output
    entry = json.loads((out / "server.json").read_text())
    assert entry["name"] == "io.github.alice/pets" and problems(entry) == []
    readme = (out / "README.md").read_text()
    assert readme.splitlines()[1] == "<!-- mcp-name: io.github.alice/pets -->"
    assert "That name is a placeholder" not in readme


def test_without_registry_name_the_placeholder_is_valid_and_the_readme_says_to_replace_it(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    assert invoke("generate", str(PETSTORE_SPEC), "-o", str(out))[0] == 0
    entry = json.loads((out / "server.json").read_text())
    assert entry["name"] == "io.github.your-org/petstore-mcp" and problems(entry) == []
    readme = " ".join((out / "README.md").read_text().split())
    assert (
        "That name is a placeholder: regenerate with `--registry-name io.github.<your GitHub user "
        "or organisation>/petstore-mcp` before publishing." in readme
    )


@pytest.mark.parametrize(
    "name",
    [
        "petstore-mcp",
        "io.github.alice",
        "alice/petstore",
        "io.github.alice/pet store",
        "io.github.alice/pets/extra",
        ".io.github/pets",
        "io..github/pets",
        "io.github.-alice/pets",
        "io.github.alice/" + "p" * 200,
        "io.github.ålice/pets",
    ],
)
def test_invalid_registry_names_are_refused_with_exit_2(tmp_path: Path, name: str) -> None:
    out = tmp_path / "out"
    code, output = invoke("generate", str(PETSTORE_SPEC), "-o", str(out), "--registry-name", name)
    assert code == 2
    assert output == (
        f"error: --registry-name {name!r} is not an MCP registry name like io.github.OWNER/NAME: a "
        "reverse-DNS namespace (io.github.<user or organisation>, or a domain you own reversed), "
        "one '/', then letters, digits, '.', '_' or '-'; at most 200 characters\n"
    )
    assert not out.exists()


@pytest.mark.parametrize(
    "name", ["io.github.alice/petstore-mcp", "com.example/pets", "io.github.a-b.c/x_y.z-1"]
)
def test_valid_registry_names_pass_the_schema(name: str) -> None:
    entry = server_json(PETSTORE_SPEC, GenerateOptions(publish=PublishOptions(registry_name=name)))
    assert entry["name"] == name and problems(entry) == []
