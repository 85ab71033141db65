"""`openapi2mcp bundle`: the Petstore package as an MCPB desktop bundle, judged by the official tools.

The official MCPB CLI (npm `@anthropic-ai/mcpb`, installed by ``scripts/install_test_suites.sh`` into
``.work/cache/mcpb``) unpacks the bundle and validates its manifest; the same package's
``getMcpConfigForManifest``, the code desktop clients use, substitutes ``${__dirname}`` and the user's
settings into ``mcp_config``. The server is then started from the unpacked bundle exactly as configured,
under a Python that has nothing installed (so all it imports comes from the bundle), and serves the
official MCP client over stdio against the fake Petstore on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from openapi2mcp.bundle import UNSET_AUTHOR, build_bundle
from openapi2mcp.cli import main
from tests.e2e.helpers import generate_package

REPO = Path(__file__).resolve().parents[2]
MCPB = REPO / ".work" / "cache" / "mcpb" / "node_modules"
MCPB_CLI = MCPB / ".bin" / "mcpb"
MCPB_CONFIG_JS = MCPB / "@anthropic-ai" / "mcpb" / "dist" / "shared" / "config.js"
# scripts/install_node.sh puts Node 22 here; any node on PATH runs the CLI too
LOCAL_NODE = REPO / ".tools" / "node" / "node_modules" / ".bin" / "node"
AUTHOR = "Ada Lovelace <ada@example.com>"
PETSTORE_TOOLS = [
    "list_pets",
    "create_pet",
    "find_pets_by_status",
    "find_pets_by_tags",
    "get_pet_by_id",
    "update_pet",
    "delete_pet",
    "patch_pet",
    "list_pet_orders",
    "get_inventory",
    "list_orders",
    "place_order",
    "get_order_by_id",
    "delete_order",
    "approve_order",
    "create_user",
    "create_users_with_list",
    "get_user_by_name",
    "update_user",
    "delete_user",
]
# getMcpConfigForManifest, as a desktop client calls it when it starts an installed bundle
RESOLVE_JS = """
import { readFileSync } from "node:fs";
import { getMcpConfigForManifest } from "CONFIG_JS_URL";
const [manifestPath, extensionPath, userConfig, home] = process.argv.slice(2);
const config = await getMcpConfigForManifest({
  manifest: JSON.parse(readFileSync(manifestPath, "utf-8")),
  extensionPath,
  systemDirs: { HOME: home, DESKTOP: home, DOCUMENTS: home, DOWNLOADS: home },
  userConfig: JSON.parse(userConfig),
  pathSeparator: "/",
});
process.stdout.write(JSON.stringify(config ?? null));
"""


def _node() -> str:
    node = str(LOCAL_NODE) if LOCAL_NODE.exists() else shutil.which("node")
    if node is None or not MCPB_CLI.exists():
        pytest.fail(
            "the MCPB CLI (or node) is missing: run scripts/install_node.sh and "
            "scripts/install_test_suites.sh first"
        )
    return node


def mcpb(*args: str) -> subprocess.CompletedProcess[str]:
    """The official CLI, `mcpb ARGS`, as `npx @anthropic-ai/mcpb ARGS` runs it."""
    return subprocess.run(
        [_node(), str(MCPB_CLI), *args], capture_output=True, text=True, timeout=120, check=False
    )


def bundle_cli(*args: str) -> Any:
    return CliRunner().invoke(main, ["bundle", *args])


@pytest.fixture(scope="module")
def bundled(petstore_package: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Petstore bundle, written by the command line."""
    out = tmp_path_factory.mktemp("bundle") / "petstore-mcp.mcpb"
    result = bundle_cli(str(petstore_package), "-o", str(out), "--author", AUTHOR)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(f"Bundled petstore-mcp 1.0.0 into {out} (")
    return out


@pytest.fixture(scope="module")
def unpacked(bundled: Path) -> Path:
    """The bundle unpacked by the official CLI, as a desktop client installs it."""
    where = bundled.parent / "installed"
    done = mcpb("unpack", str(bundled), str(where))
    assert done.returncode == 0, done.stdout + done.stderr
    return where


@pytest.mark.node
@pytest.mark.slow
def test_the_official_cli_validates_the_manifest(unpacked: Path) -> None:
    done = mcpb("validate", str(unpacked / "manifest.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "Manifest schema validation passes!"


@pytest.mark.node
@pytest.mark.slow
def test_manifest_offers_the_api_settings_with_secrets_masked(
    unpacked: Path, petstore_package: Path
) -> None:
    manifest = json.loads((unpacked / "manifest.json").read_text("utf-8"))
    project = tomllib.loads((petstore_package / "pyproject.toml").read_text("utf-8"))["project"]
    # the vendored pydantic-core is built for this CPython: the bundle says so
    python = f">={sys.version_info[0]}.{sys.version_info[1]},<3.{sys.version_info[1] + 1}"
    assert manifest == {
        "manifest_version": "0.3",
        "name": "petstore-mcp",
        "display_name": "Swagger Petstore",
        "version": "1.0.0",
        "description": project["description"],
        "author": {"name": "Ada Lovelace", "email": "ada@example.com"},
        "server": {
            "type": "python",
            "entry_point": "server/main.py",
            "mcp_config": {
                "command": "python3",
                "args": ["${__dirname}/server/main.py"],
                "env": {
                    "PETSTORE_BASE_URL": "${user_config.base_url}",
                    "PETSTORE_TIMEOUT": "${user_config.timeout}",
                    "PETSTORE_API_KEY": "${user_config.api_key}",
                    "PETSTORE_HEADERS": "${user_config.headers}",
                    "PYTHONPATH": "${__dirname}/server/lib",
                },
                **(
                    {"platform_overrides": {"win32": {"command": "python"}}}
                    if sys.platform == "win32"
                    else {}
                ),
            },
        },
        "tools": [{"name": name} for name in PETSTORE_TOOLS],
        "keywords": ["mcp", "openapi", "petstore"],
        **({"license": project["license"]} if isinstance(project.get("license"), str) else {}),
        "compatibility": {"platforms": [sys.platform], "runtimes": {"python": python}},
        "user_config": {
            "base_url": {
                "type": "string",
                "title": "API base URL",
                "description": "Base URL of the API",
                "required": False,
                "default": "https://petstore.example.com/v1",
            },
            "timeout": {
                "type": "number",
                "title": "Timeout (seconds)",
                "description": "Timeout of one request to the API, in seconds",
                "required": False,
                "default": 30,
            },
            "api_key": {
                "type": "string",
                "title": "API key",
                "description": (
                    "API key for the security scheme 'api_key', sent as header 'X-API-Key'"
                ),
                "sensitive": True,
                "required": False,
                "default": "",
            },
            "headers": {
                "type": "string",
                "title": "Extra headers",
                "description": (
                    "Headers for every call to the API, as a JSON object: "
                    '{"Authorization": "Bearer …"}'
                ),
                "sensitive": True,
                "required": False,
                "default": "",
            },
        },
    }


@pytest.mark.slow
def test_bundle_holds_the_package_and_its_dependencies(
    bundled: Path, petstore_package: Path
) -> None:
    with zipfile.ZipFile(bundled) as archive:
        names = archive.namelist()
        stamps = {info.date_time for info in archive.infolist()}
    assert names == sorted(names) and stamps == {(1980, 1, 1, 0, 0, 0)}
    assert {"manifest.json", "server/main.py", "server/petstore_mcp/__main__.py"} <= set(names)
    assert "server/petstore_mcp/_runtime/transports/stdio.py" in names
    for module in ("httpx", "httpcore", "anyio", "sniffio", "jsonschema_rs", "pydantic_core"):
        assert f"server/lib/{module}/__init__.py" in names, module
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", "/RECORD"))]
    # the licences the package ships travel with it
    licences = {p.name for p in petstore_package.glob("LICENSE*")}
    assert {n for n in names if n.startswith("LICENSE")} == licences
    httpx = f"server/lib/httpx-{metadata.version('httpx')}.dist-info"
    assert {f"{httpx}/METADATA", f"{httpx}/licenses/LICENSE.md"} <= set(names)


@pytest.mark.slow
def test_rebuilding_gives_the_same_bytes(bundled: Path, petstore_package: Path) -> None:
    again = bundled.with_name("again.mcpb")
    result = bundle_cli(str(petstore_package), "-o", str(again), "--author", AUTHOR)
    assert result.exit_code == 0, result.output
    assert again.read_bytes() == bundled.read_bytes()


def _resolved_config(unpacked: Path, user_config: dict[str, Any], home: Path) -> dict[str, Any]:
    script = home / "resolve.mjs"
    script.write_text(RESOLVE_JS.replace("CONFIG_JS_URL", MCPB_CONFIG_JS.as_uri()), "utf-8")
    arguments = [json.dumps(user_config), str(home)]
    done = subprocess.run(
        [_node(), str(script), str(unpacked / "manifest.json"), str(unpacked), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = json.loads(done.stdout)
    return config


@pytest.mark.node
@pytest.mark.slow
async def test_bundled_server_runs_as_a_desktop_client_starts_it(
    unpacked: Path, fake_petstore: Any, tmp_path: Path
) -> None:
    settings = {"api_key": fake_petstore.api_key, "base_url": fake_petstore.base_url}
    config = _resolved_config(unpacked, settings, tmp_path)
    # every optional setting left blank arrives empty, never as a literal ${user_config...}
    assert config == {
        "command": "python3",
        "args": [f"{unpacked}/server/main.py"],
        "env": {
            "PETSTORE_BASE_URL": fake_petstore.base_url,
            "PETSTORE_TIMEOUT": "30",
            "PETSTORE_API_KEY": fake_petstore.api_key,
            "PETSTORE_HEADERS": "",
            "PYTHONPATH": f"{unpacked}/server/lib",
        },
        **({"platform_overrides": config["platform_overrides"]} if sys.platform == "win32" else {}),
    }
    bare = tmp_path / "bare-python"
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(bare)
    bin_dir = bare / ("Scripts" if os.name == "nt" else "bin")
    python = str(bin_dir / "python3")
    lacks = subprocess.run([python, "-c", "import httpx"], capture_output=True, check=False)
    assert lacks.returncode != 0, "the bare Python must not have the dependencies itself"
    # the client finds `python3` on its PATH: here, the bare Python
    env = {**config["env"], "PATH": os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")])}
    params = StdioServerParameters(command=config["command"], args=config["args"], env=env)
    async with Client(params, mode="legacy") as client:
        assert client.server_info is not None and client.server_info.name == "petstore-mcp"
        tools = (await client.list_tools()).tools
        assert [tool.name for tool in tools] == PETSTORE_TOOLS
        fake_petstore.clear()
        result = await client.call_tool("get_pet_by_id", {"petId": 1})
        assert not result.is_error, result
        assert isinstance(result.structured_content, dict) and result.structured_content["id"] == 1
    (sent,) = fake_petstore.requests
    assert (sent.method, sent.raw_path) == ("GET", "/v1/pets/1")
    assert sent.headers["x-api-key"] == fake_petstore.api_key


def _package_with_authors(source: Path, where: Path, authors: str | None) -> Path:
    """A copy of ``source`` whose pyproject declares ``authors`` (a TOML line), or none."""
    package = where / source.name
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__"))
    pyproject = package / "pyproject.toml"
    kept: list[str] = []
    inside = False
    for line in pyproject.read_text("utf-8").splitlines(keepends=True):
        if line.startswith("authors = ["):
            inside = not line.rstrip().endswith("]")
        elif inside:
            inside = line.strip() != "]"
        else:
            kept.append(line)
    text = "".join(kept)
    if authors is not None:
        text = text.replace("[project]\n", f"[project]\n{authors}\n", 1)
    pyproject.write_text(text, "utf-8")
    return package


@pytest.mark.slow
def test_author_comes_from_the_package_metadata(petstore_package: Path, tmp_path: Path) -> None:
    authors = 'authors = [{ email = "ops@example.com" }, { name = "Grace Hopper" }]'
    package = _package_with_authors(petstore_package, tmp_path, authors)
    bundle = build_bundle(package)
    assert bundle.manifest["author"] == {"name": "ops@example.com", "email": "ops@example.com"}
    assert bundle.warnings == ()
    assert build_bundle(package, author="Ada").manifest["author"] == {"name": "Ada"}


@pytest.mark.slow
def test_without_an_author_the_command_warns(petstore_package: Path, tmp_path: Path) -> None:
    package = _package_with_authors(petstore_package, tmp_path, None)
    out = tmp_path / "petstore.mcpb"
    result = bundle_cli(str(package), "-o", str(out))
    assert result.exit_code == 0, result.output
    warning, summary = result.stderr.splitlines()
    assert warning == (
        f"warning: no author: {package / 'pyproject.toml'} names none, so the manifest "
        f"says {UNSET_AUTHOR!r}; pass --author 'Name <email>' (or regenerate the package with an "
        "author)"
    )
    assert summary.startswith(f"Bundled petstore-mcp 1.0.0 into {out} (")
    with zipfile.ZipFile(out) as archive:
        assert json.loads(archive.read("manifest.json"))["author"] == {"name": UNSET_AUTHOR}


def test_refuses_a_directory_openapi2mcp_did_not_generate(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "mine"\nversion = "1"\n', "utf-8")
    result = bundle_cli(str(tmp_path), "-o", str(tmp_path / "mine.mcpb"))
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {tmp_path} is not a package generated by openapi2mcp (no .openapi2mcp file)\n"
    )
    assert not (tmp_path / "mine.mcpb").exists()


def test_refuses_an_author_that_is_not_a_name_and_email(petstore_package: Path) -> None:
    result = bundle_cli(str(petstore_package), "--author", "Ada <not-an-address>")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --author 'Ada <not-an-address>' is not 'Name' or 'Name <email@example.com>'\n"
    )


SECURED_SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Ledger", "version": "2.1.0"},
    "servers": [
        {
            "url": "https://{region}.ledger.example.com/v2",
            "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}},
        }
    ],
    "components": {
        "securitySchemes": {
            "basicAuth": {"type": "http", "scheme": "basic"},
            "token": {"type": "http", "scheme": "bearer"},
        }
    },
    "security": [{"basicAuth": []}, {"token": []}],
    "paths": {
        "/entries": {
            "get": {
                "operationId": "listEntries",
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        }
    },
}


@pytest.mark.node
@pytest.mark.slow
def test_every_credential_is_a_sensitive_setting(tmp_path: Path) -> None:
    package = generate_package(tmp_path, SECURED_SPEC, "ledger-mcp")
    manifest = build_bundle(package, author="Ledger Team").manifest
    config = manifest["user_config"]
    assert {
        key: (o["title"], o.get("sensitive", False), o["required"]) for key, o in config.items()
    } == {
        "base_url": ("API base URL", False, False),
        "timeout": ("Timeout (seconds)", False, False),
        "basic_auth_username": ("User name (basicAuth)", True, False),
        "basic_auth_password": ("Password (basicAuth)", True, False),
        "token": ("Bearer token (token)", True, False),
        "headers": ("Extra headers", True, False),
        "server_region": ("Server region", False, False),
    }
    # a base URL set would replace the server URL and its variables: none is set unless asked
    assert (config["base_url"]["default"], config["base_url"]["description"]) == (
        "",
        "Base URL of the API (default: https://eu.ledger.example.com/v2, with the server "
        "variables below)",
    )
    assert config["server_region"]["default"] == "eu"
    assert config["server_region"]["description"] == (
        "Variable {region} of the server URL https://{region}.ledger.example.com/v2 (one of eu, us)"
    )
    assert manifest["server"]["mcp_config"]["env"]["LEDGER_BASIC_AUTH_PASSWORD"] == (
        "${user_config.basic_auth_password}"
    )
    assert manifest["tools"] == [{"name": "list_entries"}]
    written = tmp_path / "manifest.json"
    written.write_text(json.dumps(manifest), "utf-8")
    done = mcpb("validate", str(written))
    assert done.returncode == 0, done.stdout + done.stderr
