"""Publishing a generated server: package version, index metadata, and a wheel that really runs.

The build test makes a wheel and an sdist of the generated Petstore package with ``python -m build``
(no isolation, so nothing is downloaded), installs the wheel into a fresh virtual environment and talks
to its console script over stdio with the official MCP client.
"""

from __future__ import annotations

import email.parser
import json
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from packaging.licenses import canonicalize_license_expression
from packaging.version import Version

from openapi2mcp.cli import main
from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, generate, plan_source
from openapi2mcp.plan.build import _SPDX, _version, pep440_version
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.conftest import PETSTORE_SPEC
from tests.kit.upstream import JSON, RecordingUpstream, Reply, Request

SPEC = """\
openapi: 3.1.0
info:
  title: Weather API
  version: "2023-10-16"
  description: |
    Forecasts and "observations" for any place on Earth,
    updated hourly.

    A second paragraph that stays out of the summary.
  termsOfService: https://weather.example.com/terms
  contact: {name: Team, url: "https://weather.example.com/support"}
  license: {name: Custom, identifier: mit}
externalDocs: {url: "https://docs.weather.example.com"}
servers: [{url: "https://api.weather.example.com/v2"}]
paths:
  /forecast:
    get:
      operationId: getForecast
      responses: {"200": {description: ok}}
"""


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        ("1.0.0", "1.0.0"),
        ("1.0.0-beta.2", "1.0.0b2"),
        ("1.0.0-alpha", "1.0.0a0"),
        ("2.0.0-RC.1", "2.0.0rc1"),
        ("1.0c1", "1.0rc1"),
        ("v2", "2"),
        ("V1.2.3", "1.2.3"),
        ("2.0-10", "2.0.post10"),
        ("1.0-dev3", "1.0.dev3"),
        ("1!2.0", "1!2.0"),
        ("1.0+Ubuntu-1", "1.0+ubuntu.1"),
        ("01.002", "1.2"),
        ("2023-10-16", "2023.10.16"),
        ("2024-06-01", "2024.6.1"),
        ("latest", "0.0.0"),
        ("1.0.0-SNAPSHOT", "0.0.0"),
        ("2.x", "0.0.0"),
        # a version that leads a longer text: NetBox's live document says "4.7.3 (4.7)"
        ("4.7.3 (4.7)", "4.7.3"),
        ("2.1.0 build 5", "2.1.0"),
    ],
)
def test_version_normalisation(declared: str, expected: str) -> None:
    report = Report()
    assert _version(declared, report) == expected
    if expected == "0.0.0":
        (warning,) = report.warnings
        assert warning.render() == (
            f"warning[version-normalised] at #/info/version: {declared!r} is not PEP 440; using 0.0.0"
        )
    else:
        assert not report.warnings
        assert str(Version(expected)) == expected  # what pip itself would call it


def test_pep440_agrees_with_packaging() -> None:
    for raw in ("1.0.0-beta.2", "v2", "1.0-dev3", "2.0-10", "1.0POST2", "1.0.0.RC-1"):
        normal = pep440_version(raw)
        assert normal is not None and normal == str(Version(raw)), raw
    for raw in ("2023-10-16", "1.0.0-SNAPSHOT", "latest", "", "1..0", "1_0"):
        assert pep440_version(raw) is None, raw


def test_spdx_table_only_holds_identifiers_packaging_accepts() -> None:
    for canonical in _SPDX.values():
        assert canonicalize_license_expression(canonical) == canonical


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def pyproject(out: Path) -> dict[str, Any]:
    return tomllib.loads((out / "pyproject.toml").read_text(encoding="utf-8"))


def test_version_option_sets_the_package_version_everywhere(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = invoke("generate", str(PETSTORE_SPEC), "-o", str(out), "--version", "2.1.0-rc.1")
    assert code == 0, output
    assert pyproject(out)["project"]["version"] == "2.1.0rc1"
    assert '"version": "2.1.0rc1"' in (out / "server.json").read_text()
    assert '"version": "2.1.0rc1"' in (out / "mcp-surface.json").read_text()
    assert '"version":"2.1.0rc1"' in (out / "src/petstore_mcp/catalog.json").read_text()

    code, output = invoke("inspect", str(PETSTORE_SPEC), "--version", "v3")
    assert code == 0 and output.startswith("package petstore-mcp==3\n")


@pytest.mark.parametrize("command", ["generate", "inspect"])
def test_invalid_version_option_is_exit_2(tmp_path: Path, command: str) -> None:
    code, output = invoke(command, str(PETSTORE_SPEC), "--version", "next")
    assert code == 2
    assert output == (
        "error: --version 'next' is not a PEP 440 version (for example 1.2.0, 1.2.0rc1, 2.0.post1)\n"
    )
    assert not any(tmp_path.iterdir())


def test_metadata_from_the_spec(tmp_path: Path) -> None:
    spec = tmp_path / "weather.yaml"
    spec.write_text(SPEC)
    out = tmp_path / "out"
    assert invoke("generate", str(spec), "-o", str(out))[0] == 0
    project = pyproject(out)["project"]
    assert project["version"] == "2023.10.16"
    assert project["description"] == (
        'MCP server for the Weather API. Forecasts and "observations" for any place on Earth, '
        "updated hourly."
    )
    # the spec's license (MIT) is the API's, not the package's: no --license, no license
    assert "license" not in project
    readme = " ".join((out / "README.md").read_text().split())
    assert "under MIT: that is the API's license, not this package's." in readme
    assert project["readme"] == "README.md"
    assert project["requires-python"] == ">=3.11"
    assert project["keywords"] == ["mcp", "openapi", "weather"]
    assert "Typing :: Typed" in project["classifiers"]
    assert "Programming Language :: Python :: 3.11" in project["classifiers"]
    assert not [c for c in project["classifiers"] if c.startswith(("Framework", "License"))]
    assert project["urls"] == {
        "Documentation": "https://docs.weather.example.com",
        "Contact": "https://weather.example.com/support",
        "API": "https://api.weather.example.com/v2",
        "Terms of Service": "https://weather.example.com/terms",
    }


def test_license_and_authors_are_the_publishers(tmp_path: Path) -> None:
    spec = tmp_path / "weather.yaml"
    spec.write_text(SPEC)
    out = tmp_path / "out"
    code, output = invoke(
        "generate", str(spec), "-o", str(out), "--license", "apache-2.0 or mit",
        "--author", "Jane Doe <jane@example.com>", "--author", "ACME",
    )  # fmt: skip
    assert code == 0, output
    project = pyproject(out)["project"]
    assert project["license"] == "Apache-2.0 OR MIT"
    assert project["license-files"] == ["LICEN[CS]E*", "src/weather_mcp/_runtime/LICENSE"]
    assert project["authors"] == [
        {"name": "Jane Doe", "email": "jane@example.com"},
        {"name": "ACME"},
    ]
    # a license whose text openapi2mcp does not carry: the publisher adds the file
    assert not (out / "LICENSE").exists()
    assert "warning[license-text-missing]: add the text of Apache-2.0 OR MIT as LICENSE" in output
    assert (out / "src/weather_mcp/_runtime/LICENSE").read_text().startswith("MIT License\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--license", "Proprietary"], "error: --license: 'Proprietary' is not an SPDX license"),
        (["--author", "a <b>"], "error: --author: 'a <b>' is not an author"),
    ],
)
def test_bad_license_or_author_is_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    code, output = invoke("generate", str(PETSTORE_SPEC), "-o", str(tmp_path / "out"), *args)
    assert code == 2 and output.startswith(message), output
    assert not (tmp_path / "out").exists()


def test_without_license_or_registry_name_generation_says_so(tmp_path: Path) -> None:
    spec = tmp_path / "weather.yaml"
    spec.write_text(SPEC)
    code, output = invoke("generate", str(spec), "-o", str(tmp_path / "out"), "--strict")
    assert code == 1
    assert "warning[package-license-missing]: the package declares no license" in output
    assert (
        "warning[registry-name-placeholder]: server.json and the README's mcp-name marker say "
        "'io.github.your-org/weather-mcp', a placeholder" in output
    )
    code, output = invoke(
        "generate", str(spec), "-o", str(tmp_path / "again"), "--strict", "--license", "MIT",
        "--registry-name", "io.github.acme/weather-mcp",
    )  # fmt: skip
    assert code == 0, output
    assert (
        (tmp_path / "again" / "LICENSE")
        .read_text()
        .startswith("MIT License\n\nCopyright (c) the weather-mcp authors\n")
    )


def test_petstore_metadata(petstore_package: Path) -> None:
    project = pyproject(petstore_package)["project"]
    assert project["name"] == "petstore-mcp" and project["version"] == "1.0.0"
    # the sample's openapi2mcp.toml: [package] license, authors, classifiers
    assert project["license"] == "MIT"
    assert project["authors"] == [
        {"name": "The openapi2mcp authors", "email": "maintainers@openapi2mcp.example"}
    ]
    assert project["classifiers"][-1] == "Development Status :: 4 - Beta"
    assert project["urls"] == {
        "API": "https://petstore.example.com/v1",
        "API License": "https://www.apache.org/licenses/LICENSE-2.0.html",
    }
    # "Apache 2.0" is not an SPDX identifier, but it names exactly one license: the API's
    assert (
        "The API itself, as its description declares, is under Apache-2.0"
        in (petstore_package / "README.md").read_text()
    )


@pytest.mark.parametrize(
    ("license_yaml", "expected"),
    [
        ("{name: Proprietary}", "Proprietary"),
        ("{name: MIT}", "MIT"),
        ("{name: x, identifier: apache-2.0 OR mit}", "Apache-2.0 OR MIT"),
        ("{name: x, identifier: Not-A-License}", "x"),
        ("{name: x, identifier: LicenseRef-Acme-1}", "LicenseRef-Acme-1"),
        ('{name: "MIT OR"}', "MIT OR"),
        ("just text", ""),
    ],
)
def test_the_apis_license_is_recorded_as_the_apis(
    tmp_path: Path, license_yaml: str, expected: str
) -> None:
    spec = tmp_path / "s.yaml"
    spec.write_text(SPEC.replace("{name: Custom, identifier: mit}", license_yaml))
    plan, _ = plan_source(str(spec), GenerateOptions())
    assert plan.metadata.api_license == expected
    assert plan.metadata.license == ""


def test_hostile_description_is_one_bounded_line_of_valid_toml(tmp_path: Path) -> None:
    hostile = 'Quotes " and \\ backslash, """triple""", tab\there, {{ jinja }} ' + "long " * 80
    text = SPEC.replace(
        '  description: |\n    Forecasts and "observations" for any place on Earth,\n'
        "    updated hourly.\n\n    A second paragraph that stays out of the summary.\n",
        f"  description: {json.dumps(hostile)}\n",
    ).replace('"https://docs.weather.example.com"', "'javascript:alert(1)'")
    spec = tmp_path / "s.yaml"
    spec.write_text(text)
    files = generate(str(spec), GenerateOptions()).files
    project = tomllib.loads(files["pyproject.toml"])["project"]
    summary = project["description"]
    assert summary.startswith(
        'MCP server for the Weather API. Quotes " and \\ backslash, """triple""", tab here, {{'
    )
    assert len(summary) <= 200 and summary.endswith(" long long...")
    assert "Documentation" not in project["urls"]


def wheel_metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))


@pytest.mark.slow
async def test_built_wheel_installs_and_serves_over_stdio(
    tmp_path: Path, fake_petstore: Any
) -> None:
    out = tmp_path / "petstore-mcp"
    write_tree(
        generate(str(PETSTORE_SPEC), GenerateOptions()).files, out, force=False, marker=MARKER
    )
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr + built.stdout
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    assert wheel.name == "petstore_mcp-1.0.0-py3-none-any.whl"
    with tarfile.open(sdist) as archive:
        names = set(archive.getnames())
    # only what building and installing need: no tests, MCP surface, server.json or Dockerfile
    top = {name.split("/", 2)[1] for name in names if name.count("/") >= 1}
    assert top == {"pyproject.toml", "README.md", "LICENSE", "src", "PKG-INFO"}
    assert "petstore_mcp-1.0.0/src/petstore_mcp/catalog.json" in names
    assert "petstore_mcp-1.0.0/src/petstore_mcp/_runtime/LICENSE" in names
    with zipfile.ZipFile(wheel) as archive:
        licenses = sorted(n for n in archive.namelist() if "LICENSE" in n)
    assert licenses == [
        "petstore_mcp-1.0.0.dist-info/licenses/LICENSE",
        "petstore_mcp-1.0.0.dist-info/licenses/src/petstore_mcp/_runtime/LICENSE",
    ]
    for tool in (["twine", "check", "--strict"], ["check_wheel_contents"], ["pyroma", "-n", "10"]):
        target = (
            [str(wheel), str(sdist)]
            if tool[0] == "twine"
            else [str(wheel if tool[0] != "pyroma" else out)]
        )
        judged = subprocess.run(
            [sys.executable, "-m", *tool, *target], capture_output=True, text=True, check=False
        )
        assert judged.returncode == 0, (tool, judged.stdout + judged.stderr)

    metadata = wheel_metadata(wheel)
    assert metadata["Name"] == "petstore-mcp" and metadata["Version"] == "1.0.0"
    # the sample's config: the publisher's license and author, a development status
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Author-email"] == ("The openapi2mcp authors <maintainers@openapi2mcp.example>")
    assert "Development Status :: 4 - Beta" in metadata.get_all("Classifier", [])
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["Keywords"] == "mcp,openapi,petstore"
    assert "Typing :: Typed" in metadata.get_all("Classifier", [])
    assert "API, https://petstore.example.com/v1" in metadata.get_all("Project-URL", [])
    assert metadata["Summary"].startswith("MCP server for the Swagger Petstore API.")
    assert metadata.get_content_type() == "text/plain"  # the body is the README
    assert metadata.get_payload().lstrip().startswith("<!-- Generated by openapi2mcp")

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index",
         "--no-deps", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    # httpx and pydantic come from this interpreter's site-packages: the test stays offline
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = subprocess.run(
        [str(python), "-c", "import petstore_mcp; print(petstore_mcp.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(env_dir)

    params = StdioServerParameters(
        command=str(env_dir / "bin" / "petstore-mcp"),
        env={
            "PETSTORE_BASE_URL": fake_petstore.base_url,
            "PETSTORE_API_KEY": fake_petstore.api_key,
        },
    )
    async with Client(params, mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_info is not None
        assert (client.server_info.name, client.server_info.version) == ("petstore-mcp", "1.0.0")
        tools = {t.name for t in (await client.list_tools()).tools}
        assert {"list_pets", "create_pet", "get_pet_by_id"} <= tools
        fake_petstore.clear()
        result = await client.call_tool("list_pets", {"limit": 1})
        assert not result.is_error, result
        (sent,) = fake_petstore.requests
        assert (sent.method, sent.raw_path, sent.query) == ("GET", "/v1/pets", "limit=1")
        assert sent.headers["x-api-key"] == fake_petstore.api_key


class _Index(RecordingUpstream):
    """PyPI's JSON API for one existing project, ``taken-mcp``."""

    def answer(self, request: Request) -> Reply:
        if request.target == "/pypi/taken-mcp/json":
            return Reply(200, b'{"info": {"name": "taken-mcp"}}', JSON)
        return Reply(404, b'{"message": "Not Found"}', JSON)


@pytest.mark.parametrize(("name", "taken"), [("taken", True), ("free", False)])
def test_check_name_asks_the_index_whether_the_name_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, taken: bool
) -> None:
    with _Index() as index:
        url = index.url
        monkeypatch.setenv("OPENAPI2MCP_PYPI_URL", url)
        code, output = invoke(
            "generate", str(PETSTORE_SPEC), "-o", str(tmp_path / "out"), "--name", name,
            "--registry-name", f"io.github.acme/{name}-mcp", "--check-name", "--strict",
        )  # fmt: skip
    expected = (
        f"warning[pypi-name]: 'taken-mcp' is already a project on {url} ({url}/pypi/taken-mcp): "
        "choose another name with --name before publishing\n"
    )
    assert (expected in output, code) == ((True, 1) if taken else (False, 0)), output
