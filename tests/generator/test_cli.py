"""The `openapi2mcp` command line: exit codes, messages, refusal to clobber, drift checks, inspect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main

SPEC = """\
openapi: 3.0.3
info: {title: Tiny API, version: "2.0"}
servers: [{url: "https://tiny.example.com"}]
paths:
  /things:
    get:
      operationId: listThings
      summary: List things
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: string}}
    post:
      operationId: addThing
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {name: {type: string}}, required: [name]}
      responses: {"201": {description: created}}
"""


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(SPEC)
    return path


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


def test_generate_then_check_is_clean_and_drift_is_reported(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = invoke("generate", str(spec), "-o", str(out))
    assert code == 0, output
    assert "Generated tiny-mcp (2 tools, 1 resources" in output
    assert (out / "src/tiny_mcp/catalog.json").is_file()

    code, output = invoke("generate", str(spec), "-o", str(out), "--check")
    assert code == 0, output
    assert "up to date" in output

    (out / "README.md").write_text("edited\n")
    (out / "src/tiny_mcp/extra.py").write_text("x = 1\n")
    code, output = invoke("generate", str(spec), "-o", str(out), "--check")
    assert code == 1
    assert "changed  README.md" in output
    assert "removed  src/tiny_mcp/extra.py" in output
    # --check never writes
    assert (out / "README.md").read_text() == "edited\n"


def test_regenerating_over_own_output_is_allowed(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert invoke("generate", str(spec), "-o", str(out))[0] == 0
    assert invoke("generate", str(spec), "-o", str(out))[0] == 0


def test_refuses_to_overwrite_a_foreign_directory_without_force(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "precious.txt").write_text("keep me")
    code, output = invoke("generate", str(spec), "-o", str(out))
    assert code == 2
    assert "--force" in output
    assert (out / "precious.txt").read_text() == "keep me"
    code, _ = invoke("generate", str(spec), "-o", str(out), "--force")
    assert code == 0
    assert (out / "pyproject.toml").is_file()


def test_spec_from_stdin(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = invoke("generate", "-", "-o", str(out), input=SPEC)
    assert code == 0, output
    assert (out / "pyproject.toml").is_file()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("openapi: 3.0.3\ninfo: [unclosed\n", "line"),
        ('{"openapi": "3.0.3", "info": ', "line"),
        ("just: a mapping\n", "not an OpenAPI document"),
        ('swagger: "1.2"\ninfo: {title: x, version: "1"}\npaths: {}\n', "Swagger 1.2"),
    ],
)
def test_unusable_input_is_one_line_error_with_exit_2(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content)
    code, output = invoke("generate", str(path), "-o", str(tmp_path / "out"))
    assert code == 2
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert message in lines[0]
    assert not (tmp_path / "out").exists()


SWAGGER = """\
swagger: "2.0"
info: {title: Tiny API, version: "2.0"}
basePath: /v2
produces: [application/json]
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - {name: tag, in: query, type: array, items: {type: string}, collectionFormat: pipes}
      responses:
        "200": {description: ok, schema: {type: array, items: {$ref: "#/definitions/Thing"}}}
    post:
      operationId: addThing
      parameters:
        - {name: thing, in: body, required: true, schema: {$ref: "#/definitions/Thing"}}
      responses: {"201": {description: created}}
definitions:
  Thing: {type: object, properties: {name: {type: string}}, required: [name]}
"""


def test_a_swagger_2_document_is_converted_and_generated(tmp_path: Path) -> None:
    path = tmp_path / "swagger.yaml"
    path.write_text(SWAGGER)
    out = tmp_path / "out"
    code, output = invoke("generate", str(path), "-o", str(out))
    assert code == 0, output
    assert output.splitlines()[0] == (
        "warning[swagger-host-missing] at #: no 'host': the server URL is the relative '/v2';"
        " set the base URL when running the server"
    )
    assert "Generated tiny-mcp (2 tools, 1 resources, 0 resource templates" in output
    catalog = json.loads((out / "src/tiny_mcp/catalog.json").read_text())
    assert catalog["operations"]["listThings"]["parameters"][0] == {
        "name": "tag",
        "location": "query",
        "argument": "tag",
        "required": False,
        "style": "pipeDelimited",
        "explode": False,
    }
    assert catalog["operations"]["addThing"]["body"] == {
        "contentType": "application/json",
        "required": True,
        "properties": {"name": "name"},
    }


def test_missing_file_is_exit_2(tmp_path: Path) -> None:
    code, output = invoke("generate", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert "nope.yaml" in output


def test_inspect_prints_kinds_names_hints_and_summary_without_writing(
    spec: Path, tmp_path: Path
) -> None:
    code, output = invoke("inspect", str(spec))
    assert code == 0, output
    assert (
        "GET /things" in output
        and "tool+resource" in output
        and "list_things, tiny://things" in output
    )
    assert "POST /things" in output and "add_thing" in output
    assert "additive  by the additive POST rule: 'add' leads its operationId" in output
    assert (
        "tiny-mcp: 2 tools, 1 resources, 0 resource templates, 1 prompts, 0 skipped; catalog"
        in output
    )
    assert not any(tmp_path.iterdir()) or list(tmp_path.iterdir()) == [spec]


def test_inspect_counts_the_operations_the_documents_reading_left_out(tmp_path: Path) -> None:
    # an operation that cannot be read never reaches the plan: it is skipped all the same
    path = tmp_path / "skips.yaml"
    path.write_text(SPEC.replace("paths:\n", "paths:\n  /broken: {get: 7}\n", 1))
    code, output = invoke("inspect", str(path))
    assert code == 0, output
    assert "warning[op-skipped] at #/paths/~1broken/get" in output
    assert "1 prompts, 1 skipped; catalog" in output


def test_strict_fails_on_warnings(tmp_path: Path) -> None:
    path = tmp_path / "warn.yaml"
    path.write_text(SPEC.replace('servers: [{url: "https://tiny.example.com"}]\n', ""))
    code, output = invoke("generate", str(path), "-o", str(tmp_path / "out"), "--strict")
    assert code == 1
    # one warning for one thing to do: no servers is said where the base URL is
    said = [line for line in output.splitlines() if "server" in line.split(":")[0]]
    assert said == [
        "warning[base-url-missing] at #/servers: no absolute server URL in the spec; set "
        "TINY_BASE_URL when running the server"
    ]


def test_a_relative_server_url_says_where_the_base_url_goes(tmp_path: Path) -> None:
    # FastAPI's root_path: the document's only server is a path on whatever host serves it
    path = tmp_path / "rooted.yaml"
    path.write_text(
        SPEC.replace('servers: [{url: "https://tiny.example.com"}]', 'servers: [{url: "/api"}]')
    )
    code, output = invoke("generate", str(path), "-o", str(tmp_path / "out"))
    assert code == 0
    assert (
        "warning[base-url-missing] at #/servers: no absolute server URL in the spec (only '/api', "
        "relative to where the spec is served); set TINY_BASE_URL when running the server, "
        "e.g. https://<host>/api"
    ) in output
    # the README's table gives no "/api" for a default: it is no URL the server could call
    readme = (tmp_path / "out" / "README.md").read_text()
    assert (
        "| `TINY_BASE_URL` | Base URL of the API (default: none; the spec's '/api' is relative to "
        "where it is served) (required) |"
    ) in readme
