"""``$ref`` wherever a JSON Reference can stand, as bundlers (redocly, swagger-cli) resolve it.

Regression (issue 15): a multi-file Swagger 2.0 document whose ``info``, ``paths`` and ``definitions``
are each a ``$ref`` to another file produced "0 tools" with warnings, and success. Such references are
now inlined before the document is read (their own references rebased), a schema reached both through
the inlined section and through its file is one definition, and a spec whose operations yield no tool
at all is an error (exit 2) rather than an empty server.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.diagnostics import Report
from openapi2mcp.ir.model import Api
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.load.reading import load_source

SWAGGER_LAYOUT = {
    "swagger.yaml": """\
    swagger: "2.0"
    info: {$ref: info.yaml}
    host: api.example.com
    basePath: /v1
    paths: {$ref: paths/index.yaml}
    definitions: {$ref: definitions.yaml}
    """,
    "info.yaml": "title: Multi File Pets\nversion: 1.0.0\n",
    "paths/index.yaml": "/pets: {$ref: pets.yaml}\n",
    "paths/pets.yaml": """\
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          schema: {type: array, items: {$ref: "../definitions.yaml#/Pet"}}
    post:
      operationId: createPet
      parameters:
        - {name: body, in: body, required: true, schema: {$ref: "../definitions.yaml#/Pet"}}
      responses:
        "201": {description: created, schema: {$ref: "../definitions.yaml#/Pet"}}
    """,
    "definitions.yaml": """\
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        tag: {$ref: "#/Tag"}
    Tag: {type: string}
    """,
}


def _files(tmp_path: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(content))


def _parse(tmp_path: Path, files: dict[str, str], root: str) -> tuple[Api, Report]:
    _files(tmp_path, files)
    report = Report()
    return parse_api(load_source(str(tmp_path / root)), report), report


def _messages(report: Report) -> list[tuple[str, str, str, str]]:
    return [(d.level, d.code, d.pointer, d.message) for d in report.diagnostics]


def test_a_swagger_document_split_into_info_paths_and_definitions_files_has_its_tools(
    tmp_path: Path,
) -> None:
    api, report = _parse(tmp_path, SWAGGER_LAYOUT, "swagger.yaml")
    assert (api.title, api.version, api.servers) == (
        "Multi File Pets",
        "1.0.0",
        ("https://api.example.com/v1",),
    )
    assert [(op.key, op.method, op.path, op.pointer) for op in api.operations] == [
        ("listPets", "GET", "/pets", "#/paths/~1pets/get"),
        ("createPet", "POST", "/pets", "#/paths/~1pets/post"),
    ]
    # one definition per schema, whether reached through `definitions` or through its file
    assert api.input_schemas == {
        "Pet": {
            "type": "object",
            "required": ["name"],
            # an optional property of a Swagger 2.0 document takes null (2.0 cannot say it)
            "properties": {
                "name": {"type": "string"},
                "tag": {"anyOf": [{"$ref": "#/$defs/Tag"}, {"type": "null"}]},
            },
        },
        "Tag": {"type": "string"},
    }
    assert api.operations[1].body is not None
    assert api.operations[1].body.schema == {"$ref": "#/$defs/Pet"}
    assert _messages(report) == [
        (
            "info",
            "swagger2-optional-nullable",
            "#/components/schemas/Pet/properties/tag",
            "Swagger 2.0 cannot say that a value may be null: 1 optional property takes null too "
            "in what tools take, so that a model can clear it ('tag' here)",
        )
    ]


def test_the_split_swagger_document_generates_two_tools_from_the_command_line(
    tmp_path: Path,
) -> None:
    _files(tmp_path, SWAGGER_LAYOUT)
    # ready to publish (license, registry name): no warning, the summary is the last line
    publishing = ["--license", "MIT", "--registry-name", "io.github.acme/multi-file-pets-mcp"]
    result = CliRunner().invoke(
        main, ["generate", str(tmp_path / "swagger.yaml"), "-o", str(tmp_path / "out"), *publishing]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "Generated multi-file-pets-mcp (2 tools, 1 resources, 0 resource templates, 1 prompts)"
        f" in {tmp_path / 'out'}"
    )


OPENAPI_LAYOUT = {
    "openapi.yaml": """\
    openapi: 3.0.3
    info: {$ref: "meta.yaml#/info"}
    servers: {$ref: "meta.yaml#/servers"}
    paths:
      /pets: {$ref: "paths.yaml#/pets"}
      /pets/{id}:
        get: {$ref: "ops/get-pet.yaml"}
    components:
      schemas: {$ref: "schemas.yaml"}
    """,
    "meta.yaml": """\
    info: {title: Pets Three, version: 2.0.0}
    servers: [{url: "https://pets.example.com"}]
    """,
    "paths.yaml": "pets:\n  get: {$ref: ops/list-pets.yaml}\n",
    "ops/list-pets.yaml": 'operationId: listPets\nresponses: {$ref: "../responses.yaml#/PetList"}\n',
    "ops/get-pet.yaml": """\
    operationId: getPet
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    responses:
      "200":
        description: ok
        content: {$ref: "../responses.yaml#/PetContent"}
    """,
    "responses.yaml": """\
    PetList:
      "200":
        description: ok
        content:
          application/json:
            schema: {type: array, items: {$ref: "schemas.yaml#/Pet"}}
    PetContent:
      application/json:
        schema: {$ref: "schemas.yaml#/Pet"}
    """,
    "schemas.yaml": """\
    Pet:
      type: object
      properties:
        id: {type: string}
        owner: {$ref: "#/Owner"}
    Owner: {type: object, properties: {name: {type: string}}}
    """,
}


def test_references_in_every_position_of_every_file_are_resolved(tmp_path: Path) -> None:
    api, report = _parse(tmp_path, OPENAPI_LAYOUT, "openapi.yaml")
    assert (api.title, api.version, api.servers) == (
        "Pets Three",
        "2.0.0",
        ("https://pets.example.com",),
    )
    # the path item stays in its file (the pipeline follows that reference itself); the operation
    # and responses referenced from inside it are inlined there
    assert [(op.key, op.pointer) for op in api.operations] == [
        ("listPets", "paths.yaml#/pets/get"),
        ("getPet", "#/paths/~1pets~1{id}/get"),
    ]
    assert [op.response.schema if op.response else None for op in api.operations] == [
        {"type": "array", "items": {"$ref": "#/$defs/Pet"}},
        {"$ref": "#/$defs/Pet"},
    ]
    assert list(api.input_schemas) == ["Pet", "Owner"]
    assert _messages(report) == []


def test_a_structural_reference_that_cannot_be_read_is_reported_where_it_stands(
    tmp_path: Path,
) -> None:
    _, report = _parse(
        tmp_path,
        {
            "openapi.yaml": """\
            openapi: 3.0.3
            info: {$ref: "missing.yaml"}
            servers: [{url: "https://api.example.com"}]
            paths: {}
            """
        },
        "openapi.yaml",
    )
    assert _messages(report)[:3] == [
        (
            "warning",
            "ref-file-invalid",
            "#/info",
            "$ref 'missing.yaml': cannot read missing.yaml: No such file or directory",
        ),
        ("warning", "title-missing", "#/info", "info.title is missing or empty"),
        ("warning", "version-missing", "#/info", "info.version is missing; using 0.0.0"),
    ]


def test_a_structural_reference_to_itself_is_a_cycle(tmp_path: Path) -> None:
    _, report = _parse(
        tmp_path,
        {
            "openapi.yaml": """\
            openapi: 3.0.3
            info: {title: Loop, version: "1"}
            servers: [{url: "https://api.example.com"}]
            paths: {$ref: "#/paths"}
            """
        },
        "openapi.yaml",
    )
    assert ("warning", "ref-cycle", "#/paths", "$ref '#/paths' closes a cycle of references") in (
        _messages(report)
    )


def test_a_structural_reference_leaving_the_spec_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text("title: Secret\nversion: '1'\n")
    _, report = _parse(
        tmp_path / "spec",
        {
            "openapi.yaml": """\
            openapi: 3.0.3
            info: {$ref: "../outside.yaml"}
            paths: {}
            """
        },
        "openapi.yaml",
    )
    assert _messages(report)[0] == (
        "warning",
        "ref-escape",
        "#/info",
        "$ref '../outside.yaml' leaves the spec's folder; only files inside it are read",
    )


def test_a_spec_whose_operations_yield_no_tool_is_an_error(tmp_path: Path) -> None:
    spec = tmp_path / "old.yaml"
    spec.write_text(
        dedent(
            """\
            openapi: 3.0.3
            info: {title: Old, version: "1"}
            servers: [{url: "https://api.example.com"}]
            paths:
              /a: {get: {operationId: a, deprecated: true, responses: {"204": {description: ok}}}}
              /b: {get: {operationId: b, deprecated: true, responses: {"204": {description: ok}}}}
            """
        )
    )
    result = CliRunner().invoke(main, ["generate", str(spec), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: no tool can be generated: 2 deprecated operations (--include-deprecated)"
    ]
    assert not (tmp_path / "out").exists()


def test_a_spec_whose_operations_are_all_skipped_is_an_error_after_the_warnings(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "broken.yaml"
    spec.write_text(
        dedent(
            """\
            openapi: 3.0.3
            info: {title: Broken, version: "1"}
            servers: [{url: "https://api.example.com"}]
            paths:
              /a: {get: {operationId: a, parameters: [{in: query}], responses: {}}}
            """
        )
    )
    result = CliRunner().invoke(main, ["generate", str(spec), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.splitlines()[-2:] == [
        "warning[op-skipped] at #/paths/~1a/get: operation skipped: parameter"
        " #/paths/~1a/get/parameters/0 has no name",
        "error: no tool can be generated: 1 operation skipped (see the warnings above)",
    ]
