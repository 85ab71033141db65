"""Swagger 2.0 → OpenAPI 3.0.3: the converted document, its diagnostics, and what the parser makes of it."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.ir.model import ApiKeyScheme, HttpBasicScheme, Parameter, RequestBody, Response
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.load.reading import load_source
from openapi2mcp.load.swagger2 import convert_document, convert_fragment, rewrite_ref

HEAD = 'swagger: "2.0"\ninfo: {title: T, version: "1"}\nhost: api.example.com\n'


def convert(tmp_path: Path, body: str, files: dict[str, str] | None = None) -> tuple[Any, Report]:
    for name, content in {"swagger.yaml": HEAD + dedent(body), **(files or {})}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(content) if name != "swagger.yaml" else content)
    report = Report()
    doc = convert_document(load_source(str(tmp_path / "swagger.yaml")), report)
    return doc.data, report


def diagnostics(report: Report) -> list[tuple[str, str, str, str]]:
    return [(d.level, d.code, d.pointer, d.message) for d in report.diagnostics]


def operation(data: Any, path: str, method: str = "get") -> Any:
    return data["paths"][path][method]


# -- document level ------------------------------------------------------------------------------


def test_servers_come_from_host_base_path_and_schemes_https_first(tmp_path: Path) -> None:
    data, report = convert(tmp_path, "basePath: /v2/\nschemes: [ws, http, https]\npaths: {}\n")
    assert data["openapi"] == "3.0.3"
    assert data["servers"] == [
        {"url": "https://api.example.com/v2"},
        {"url": "http://api.example.com/v2"},
    ]
    assert diagnostics(report) == [
        (
            "info",
            "swagger-scheme-dropped",
            "#/schemes",
            "scheme(s) ws dropped: only HTTP APIs are generated",
        )
    ]


def test_schemes_default_to_https(tmp_path: Path) -> None:
    data, report = convert(tmp_path, "paths: {}\n")
    assert data["servers"] == [{"url": "https://api.example.com"}]
    assert report.diagnostics == []


def test_a_missing_host_gives_a_relative_server_and_a_warning(tmp_path: Path) -> None:
    (tmp_path / "swagger.yaml").write_text('swagger: "2.0"\ninfo: {title: T}\nbasePath: /api\n')
    report = Report()
    data = convert_document(load_source(str(tmp_path / "swagger.yaml")), report).data
    assert data["servers"] == [{"url": "/api"}]
    assert diagnostics(report) == [
        (
            "warning",
            "swagger-host-missing",
            "#",
            "no 'host': the server URL is the relative '/api'; set the base URL when running the"
            " server",
        )
    ]


def test_security_definitions_become_security_schemes(tmp_path: Path) -> None:
    data, report = convert(
        tmp_path,
        """\
        paths: {}
        security: [{key: []}]
        securityDefinitions:
          basic: {type: basic, description: user and password}
          key: {type: apiKey, in: header, name: X-Key, x-vendor: 1}
          implicit: {type: oauth2, flow: implicit, authorizationUrl: "https://a/auth", scopes: {r: read}}
          password: {type: oauth2, flow: password, tokenUrl: "https://a/token", scopes: {}}
          app: {type: oauth2, flow: application, tokenUrl: "https://a/token"}
          code:
            type: oauth2
            flow: accessCode
            authorizationUrl: "https://a/auth"
            tokenUrl: "https://a/token"
            scopes: {w: write}
        """,
    )
    assert data["security"] == [{"key": []}]
    assert data["components"]["securitySchemes"] == {
        "basic": {"type": "http", "scheme": "basic", "description": "user and password"},
        "key": {"type": "apiKey", "name": "X-Key", "in": "header", "x-vendor": 1},
        "implicit": {
            "type": "oauth2",
            "flows": {"implicit": {"authorizationUrl": "https://a/auth", "scopes": {"r": "read"}}},
        },
        "password": {
            "type": "oauth2",
            "flows": {"password": {"tokenUrl": "https://a/token", "scopes": {}}},
        },
        "app": {
            "type": "oauth2",
            "flows": {"clientCredentials": {"tokenUrl": "https://a/token", "scopes": {}}},
        },
        "code": {
            "type": "oauth2",
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": "https://a/auth",
                    "tokenUrl": "https://a/token",
                    "scopes": {"w": "write"},
                }
            },
        },
    }
    assert report.diagnostics == []


def test_definitions_become_component_schemas_with_swagger_idioms_converted(tmp_path: Path) -> None:
    data, _ = convert(
        tmp_path,
        """\
        paths: {}
        definitions:
          Pet:
            type: object
            discriminator: kind
            required: [kind]
            properties:
              kind: {type: string}
              owner: {$ref: "#/definitions/Owner", x-nullable: true}
              photo: {type: file}
              tags: {type: array, items: {$ref: "#/definitions/Tag"}}
              extra: {additionalProperties: {$ref: "#/definitions/Tag"}}
            example: {kind: dog, $ref: not-a-reference}
          Owner:
            allOf: [{$ref: "#/definitions/Tag"}, {type: object, x-nullable: false}]
          Tag: {type: string, x-nullable: true, x-vendor: {$ref: "#/definitions/Pet"}}
        """,
    )
    assert data["components"]["schemas"] == {
        "Pet": {
            "type": "object",
            "discriminator": {"propertyName": "kind"},
            "required": ["kind"],
            "properties": {
                "kind": {"type": "string"},
                "owner": {
                    "$ref": "#/components/schemas/Owner",
                    "x-nullable": True,
                    "nullable": True,
                },
                "photo": {"type": "string", "format": "binary"},
                "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}},
                "extra": {"additionalProperties": {"$ref": "#/components/schemas/Tag"}},
            },
            "example": {"kind": "dog", "$ref": "not-a-reference"},
        },
        "Owner": {
            "allOf": [{"$ref": "#/components/schemas/Tag"}, {"type": "object", "x-nullable": False}]
        },
        "Tag": {
            "type": "string",
            "x-nullable": True,
            "x-vendor": {"$ref": "#/definitions/Pet"},
            "nullable": True,
        },
    }


@pytest.mark.parametrize(
    ("ref", "rewritten"),
    [
        ("#/definitions/Pet", "#/components/schemas/Pet"),
        ("#/definitions/Pet/properties/id", "#/components/schemas/Pet/properties/id"),
        ("#/parameters/limit", "#/components/parameters/limit"),
        ("#/responses/NotFound", "#/components/responses/NotFound"),
        ("common.yaml#/definitions/Error", "common.yaml#/components/schemas/Error"),
        ("pet.yaml", "pet.yaml"),
        ("#/paths/~1pets/get", "#/paths/~1pets/get"),
    ],
)
def test_references_are_rewritten(ref: str, rewritten: str) -> None:
    assert rewrite_ref(ref) == rewritten


# -- parameters ----------------------------------------------------------------------------------


def test_value_keywords_move_into_the_schema_and_collection_formats_become_styles(
    tmp_path: Path,
) -> None:
    data, report = convert(
        tmp_path,
        """\
        paths:
          /items/{ids}:
            get:
              parameters:
                - {name: ids, in: path, required: true, type: array, items: {type: integer}}
                - name: limit
                  in: query
                  description: at most this many
                  type: integer
                  format: int32
                  minimum: 1
                  maximum: 100
                  default: 20
                  x-example: 5
                - {name: csv, in: query, type: array, items: {type: string, enum: [a, b]}}
                - {name: ssv, in: query, type: array, items: {type: string}, collectionFormat: ssv}
                - {name: pipes, in: query, type: array, items: {type: string}, collectionFormat: pipes}
                - {name: multi, in: query, type: array, items: {type: string}, collectionFormat: multi}
                - {name: tsv, in: query, type: array, items: {type: string}, collectionFormat: tsv}
                - {name: X-Tags, in: header, type: array, items: {type: string}, collectionFormat: multi}
                - name: grid
                  in: query
                  type: array
                  items: {type: array, items: {type: integer}, collectionFormat: pipes}
              responses: {"204": {description: done}}
        """,
    )
    assert operation(data, "/items/{ids}")["parameters"] == [
        {
            "name": "ids",
            "in": "path",
            "required": True,
            "schema": {"type": "array", "items": {"type": "integer"}},
            "style": "simple",
            "explode": False,
        },
        {
            "name": "limit",
            "in": "query",
            "description": "at most this many",
            "schema": {
                "type": "integer",
                "format": "int32",
                "minimum": 1,
                "maximum": 100,
                "default": 20,
            },
            "x-example": 5,
        },
        {
            "name": "csv",
            "in": "query",
            "schema": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
            "style": "form",
            "explode": False,
        },
        {
            "name": "ssv",
            "in": "query",
            "schema": {"type": "array", "items": {"type": "string"}},
            "style": "spaceDelimited",
            "explode": False,
        },
        {
            "name": "pipes",
            "in": "query",
            "schema": {"type": "array", "items": {"type": "string"}},
            "style": "pipeDelimited",
            "explode": False,
        },
        {
            "name": "multi",
            "in": "query",
            "schema": {"type": "array", "items": {"type": "string"}},
            "style": "form",
            "explode": True,
        },
        {
            "name": "tsv",
            "in": "query",
            "schema": {"type": "array", "items": {"type": "string"}},
            "style": "form",
            "explode": False,
        },
        {
            "name": "X-Tags",
            "in": "header",
            "schema": {"type": "array", "items": {"type": "string"}},
            "style": "simple",
            "explode": False,
        },
        {
            "name": "grid",
            "in": "query",
            "schema": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "style": "form",
            "explode": False,
        },
    ]
    at = "#/paths/~1items~1{ids}/get/parameters"
    assert diagnostics(report) == [
        (
            "warning",
            "swagger-collection-format",
            f"{at}/6/collectionFormat",
            "collectionFormat 'tsv': tab-separated values cannot be described in OpenAPI 3;"
            " values are sent comma-separated (csv)",
        ),
        (
            "warning",
            "swagger-collection-format",
            f"{at}/7/collectionFormat",
            "collectionFormat 'multi': it is not possible for header parameters in OpenAPI 3;"
            " values are sent comma-separated (csv)",
        ),
        (
            "warning",
            "swagger-collection-format",
            f"{at}/8/items/collectionFormat",
            "collectionFormat 'pipes' of nested arrays cannot be described in OpenAPI 3; the"
            " inner values are sent comma-separated",
        ),
    ]


def test_shared_parameters_stay_components_and_path_level_parameters_stay_shared(
    tmp_path: Path,
) -> None:
    data, _ = convert(
        tmp_path,
        """\
        parameters:
          id: {name: id, in: path, required: true, type: string}
          limit: {name: limit, in: query, type: integer}
          pet: {name: pet, in: body, required: true, schema: {$ref: "#/definitions/Pet"}}
          note: {name: note, in: formData, type: string}
        paths:
          /pets/{id}:
            parameters: [{$ref: "#/parameters/id"}]
            get:
              parameters: [{$ref: "#/parameters/limit"}]
              responses: {"204": {description: done}}
        definitions:
          Pet: {type: object}
        """,
    )
    assert data["components"]["parameters"] == {
        "id": {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
        "limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}},
    }
    assert data["components"]["requestBodies"] == {
        "pet": {
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
            "required": True,
        }
    }
    assert data["paths"]["/pets/{id}"]["parameters"] == [{"$ref": "#/components/parameters/id"}]
    assert operation(data, "/pets/{id}")["parameters"] == [
        {"$ref": "#/components/parameters/limit"}
    ]


# -- request bodies ------------------------------------------------------------------------------


def test_a_body_parameter_becomes_the_request_body_with_the_consumed_media_types(
    tmp_path: Path,
) -> None:
    data, _ = convert(
        tmp_path,
        """\
        consumes: [application/xml, application/json]
        parameters:
          pet: {name: pet, in: body, description: the pet, required: true, schema: {type: object}}
        paths:
          /global:
            post:
              parameters: [{$ref: "#/parameters/pet"}]
              responses: {"204": {description: done}}
          /own:
            put:
              consumes: [application/merge-patch+json]
              parameters: [{$ref: "#/parameters/pet"}]
              responses: {"204": {description: done}}
          /inline:
            patch:
              parameters: [{name: body, in: body, schema: {type: array, items: {type: string}}}]
              responses: {"204": {description: done}}
        """,
    )
    assert operation(data, "/global", "post")["requestBody"] == {
        "$ref": "#/components/requestBodies/pet"
    }
    assert data["components"]["requestBodies"]["pet"] == {
        "description": "the pet",
        "content": {
            "application/xml": {"schema": {"type": "object"}},
            "application/json": {"schema": {"type": "object"}},
        },
        "required": True,
    }
    # the operation consumes something else: the shared body is converted for it
    assert operation(data, "/own", "put")["requestBody"] == {
        "description": "the pet",
        "content": {"application/merge-patch+json": {"schema": {"type": "object"}}},
        "required": True,
    }
    assert operation(data, "/inline", "patch") == {
        "parameters": [],
        "requestBody": {
            "content": {
                "application/xml": {"schema": {"type": "array", "items": {"type": "string"}}},
                "application/json": {"schema": {"type": "array", "items": {"type": "string"}}},
            }
        },
        "responses": {"204": {"description": "done"}},
    }


def test_form_data_parameters_become_one_form_body(tmp_path: Path) -> None:
    data, _ = convert(
        tmp_path,
        """\
        parameters:
          note: {name: note, in: formData, type: string, description: a remark}
        paths:
          /form:
            post:
              parameters:
                - {$ref: "#/parameters/note"}
                - {name: name, in: formData, type: string, required: true}
                - {name: tags, in: formData, type: array, items: {type: string}, collectionFormat: multi}
                - {name: q, in: query, type: string}
              responses: {"204": {description: done}}
          /upload:
            post:
              consumes: [multipart/form-data]
              parameters:
                - {name: file, in: formData, type: file, required: true}
              responses: {"204": {description: done}}
        """,
    )
    form = operation(data, "/form", "post")
    assert form["parameters"] == [{"name": "q", "in": "query", "schema": {"type": "string"}}]
    assert form["requestBody"] == {
        "content": {
            "application/x-www-form-urlencoded": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "note": {"type": "string", "description": "a remark"},
                        "name": {"type": "string"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["name"],
                },
                "encoding": {"tags": {"style": "form", "explode": True}},
            }
        },
        "required": True,
    }
    assert "components" not in data  # formData parameters are merged where they are used
    assert operation(data, "/upload", "post")["requestBody"] == {
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {"file": {"type": "string", "format": "binary"}},
                    "required": ["file"],
                }
            }
        },
        "required": True,
    }


def test_path_level_body_applies_to_each_operation_unless_overridden(tmp_path: Path) -> None:
    data, report = convert(
        tmp_path,
        """\
        paths:
          /things:
            parameters: [{name: body, in: body, schema: {type: string}}]
            put:
              responses: {"204": {description: done}}
            post:
              parameters:
                - {name: body, in: body, schema: {type: integer}}
                - {name: other, in: body, schema: {type: boolean}}
                - {name: field, in: formData, type: string}
              responses: {"204": {description: done}}
        """,
    )
    assert data["paths"]["/things"]["parameters"] == []
    assert operation(data, "/things", "put")["requestBody"] == {
        "content": {"application/json": {"schema": {"type": "string"}}}
    }
    assert operation(data, "/things", "post")["requestBody"] == {
        "content": {"application/json": {"schema": {"type": "integer"}}}
    }
    assert [d[1:3] for d in diagnostics(report)] == [
        ("swagger-body-duplicate", "#/paths/~1things/post/parameters"),
        ("swagger-body-and-form", "#/paths/~1things/post/parameters"),
    ]


# -- responses -----------------------------------------------------------------------------------


def test_responses_get_content_per_produced_media_type_with_examples_and_headers(
    tmp_path: Path,
) -> None:
    data, report = convert(
        tmp_path,
        """\
        produces: [application/json, application/xml]
        responses:
          NotFound: {description: missing, schema: {$ref: "#/definitions/Error"}}
        paths:
          /pets:
            get:
              responses:
                "200":
                  description: the pets
                  schema: {type: array, items: {type: string}}
                  headers:
                    X-Total: {type: integer, description: how many}
                    X-Pages: {type: array, items: {type: integer}}
                  examples:
                    application/json: [rex]
                    text/csv: "rex"
                  x-vendor: true
                "404": {$ref: "#/responses/NotFound"}
                default: {description: anything else}
          /text:
            get:
              produces: [text/plain]
              responses:
                "200": {description: text, schema: {type: string}}
                "404": {$ref: "#/responses/NotFound"}
        definitions:
          Error: {type: object}
        """,
    )
    assert operation(data, "/pets")["responses"] == {
        "200": {
            "description": "the pets",
            "headers": {
                "X-Total": {"description": "how many", "schema": {"type": "integer"}},
                "X-Pages": {"schema": {"type": "array", "items": {"type": "integer"}}},
            },
            "content": {
                "application/json": {
                    "schema": {"type": "array", "items": {"type": "string"}},
                    "example": ["rex"],
                },
                "application/xml": {"schema": {"type": "array", "items": {"type": "string"}}},
            },
            "x-vendor": True,
        },
        "404": {"$ref": "#/components/responses/NotFound"},
        "default": {"description": "anything else"},
    }
    error = {"schema": {"$ref": "#/components/schemas/Error"}}
    assert data["components"]["responses"] == {
        "NotFound": {
            "description": "missing",
            "content": {"application/json": error, "application/xml": error},
        }
    }
    # another `produces`: the shared response is converted for the operation
    assert operation(data, "/text")["responses"]["404"] == {
        "description": "missing",
        "content": {"text/plain": error},
    }
    assert diagnostics(report) == [
        (
            "info",
            "swagger-example-dropped",
            "#/paths/~1pets/get/responses/200/examples",
            "examples for media types the response does not produce are dropped: text/csv",
        )
    ]


def test_responses_default_to_json(tmp_path: Path) -> None:
    data, _ = convert(
        tmp_path,
        """\
        paths:
          /a:
            get:
              responses: {"200": {description: ok, schema: {type: file}}}
        """,
    )
    assert operation(data, "/a")["responses"]["200"]["content"] == {
        "application/json": {"schema": {"type": "string", "format": "binary"}}
    }


def test_extensions_are_kept_and_unknown_fields_reported(tmp_path: Path) -> None:
    data, report = convert(
        tmp_path,
        """\
        x-root: 1
        servers: [{url: "https://ignored.example.com"}]
        paths:
          x-paths: 2
          /a:
            x-item: 3
            get:
              x-op: 4
              schemes: [http]
              requestBody: {}
              responses: {"204": {description: done}}
        """,
    )
    assert data["x-root"] == 1
    assert data["servers"] == [{"url": "https://api.example.com"}]
    assert data["paths"]["x-paths"] == 2
    assert data["paths"]["/a"]["x-item"] == 3
    assert operation(data, "/a") == {"responses": {"204": {"description": "done"}}, "x-op": 4}
    assert diagnostics(report) == [
        (
            "info",
            "swagger-schemes-ignored",
            "#/paths/~1a/get/schemes",
            "per-operation schemes are not supported; the API's server URL is used",
        ),
        (
            "info",
            "swagger-field-dropped",
            "#/paths/~1a/get",
            "operation field(s) not in Swagger 2.0 dropped: requestBody",
        ),
        (
            "info",
            "swagger-field-dropped",
            "#",
            "top-level field(s) not in Swagger 2.0 dropped: servers",
        ),
    ]


# -- other files ---------------------------------------------------------------------------------


def test_fragments_move_their_definitions_and_rewrite_their_references() -> None:
    assert convert_fragment(
        {
            "definitions": {
                "Pet": {
                    "type": "object",
                    "properties": {
                        "default": {"$ref": "#/definitions/Tag", "x-nullable": True},
                        "file": {"type": "file"},
                    },
                    "default": {"type": "file"},
                }
            },
            "Tag": {"$ref": "../swagger.yaml#/definitions/Tag"},
        }
    ) == {
        "Tag": {"$ref": "../swagger.yaml#/components/schemas/Tag"},
        "components": {
            "schemas": {
                "Pet": {
                    "type": "object",
                    "properties": {
                        "default": {
                            "$ref": "#/components/schemas/Tag",
                            "x-nullable": True,
                            "nullable": True,
                        },
                        "file": {"type": "string", "format": "binary"},
                    },
                    "default": {"type": "file"},
                }
            }
        },
    }


def test_objects_in_other_files_are_converted_inlined_or_referenced(tmp_path: Path) -> None:
    files = {
        "paths/pets.yaml": """\
        post:
          operationId: addPet
          parameters:
            - {$ref: "../common.yaml#/parameters/trace"}
            - {name: pet, in: body, required: true, schema: {$ref: "../common.yaml#/definitions/Pet"}}
          responses:
            "200": {$ref: "../common.yaml#/responses/Pet"}
        """,
        "common.yaml": """\
        parameters:
          trace: {name: X-Trace, in: header, type: string, format: uuid}
        responses:
          Pet: {description: the pet, schema: {$ref: "#/definitions/Pet"}}
        definitions:
          Pet:
            type: object
            properties:
              name: {type: string, x-nullable: true}
              owner: {$ref: "swagger.yaml#/definitions/Owner"}
        """,
    }
    body = """\
    paths:
      /pets: {$ref: "paths/pets.yaml"}
    definitions:
      Owner: {type: string}
    """
    data, report = convert(tmp_path, body, files)
    assert data["paths"]["/pets"] == {
        "post": {
            "operationId": "addPet",
            "parameters": [
                {"name": "X-Trace", "in": "header", "schema": {"type": "string", "format": "uuid"}}
            ],
            "requestBody": {
                "content": {
                    "application/json": {"schema": {"$ref": "common.yaml#/components/schemas/Pet"}}
                },
                "required": True,
            },
            "responses": {
                "200": {
                    "description": "the pet",
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "common.yaml#/components/schemas/Pet"}
                        }
                    },
                }
            },
        }
    }
    assert report.diagnostics == []

    report = Report()
    api = parse_api(load_source(str(tmp_path / "swagger.yaml")), report)
    (op,) = api.operations
    assert (op.key, op.pointer) == ("addPet", "#/paths/~1pets/post")
    assert op.parameters == (
        Parameter(
            name="X-Trace",
            location="header",
            required=False,
            schema={"type": "string", "format": "uuid"},
        ),
    )
    assert op.body == RequestBody(
        content_type="application/json", required=True, schema={"$ref": "#/$defs/Pet"}
    )
    assert op.response == Response(
        status="200",
        content_type="application/json",
        schema={"$ref": "#/$defs/Pet"},
        description="the pet",
    )
    assert api.input_schemas == {
        "Owner": {"type": "string"},
        "Pet": {
            "type": "object",
            "properties": {
                "name": {"type": ["string", "null"]},
                "owner": {"$ref": "#/$defs/Owner"},
            },
        },
    }
    assert report.diagnostics == []


# -- through the parser --------------------------------------------------------------------------


def test_the_parser_reads_a_converted_document_and_reports_conversion_first(
    tmp_path: Path,
) -> None:
    (tmp_path / "swagger.yaml").write_text(
        dedent(
            """\
            swagger: "2.0"
            info: {title: Pets, version: "1"}
            host: pets.example.com
            basePath: /v1
            schemes: [https]
            securityDefinitions:
              key: {type: apiKey, in: header, name: X-Key}
              basic: {type: basic}
            security: [{key: []}]
            paths:
              /pets:
                get:
                  operationId: listPets
                  security: [{basic: []}]
                  parameters:
                    - {name: tags, in: query, type: array, items: {type: string}, collectionFormat: tsv}
                  responses:
                    "200": {description: ok, schema: {type: array, items: {$ref: "#/definitions/Pet"}}}
              /pets/{id}:
                get:
                  operationId: getPet
                  responses: {"200": {description: ok}}
            definitions:
              Pet: {type: object, properties: {name: {type: string, x-nullable: true}}}
            """
        )
    )
    report = Report()
    api = parse_api(load_source(str(tmp_path / "swagger.yaml")), report)
    assert api.openapi_version == "3.0.3"
    assert api.servers == ("https://pets.example.com/v1",)
    assert api.security_schemes == {
        "key": ApiKeyScheme("key", "header", "X-Key"),
        "basic": HttpBasicScheme("basic"),
    }
    list_pets, get_pet = api.operations
    assert list_pets.security == (("basic",),)
    assert list_pets.parameters == (
        Parameter(
            name="tags",
            location="query",
            required=False,
            schema={"type": "array", "items": {"type": "string"}},
            style="form",
            explode=False,
        ),
    )
    assert list_pets.response == Response(
        status="200",
        content_type="application/json",
        schema={"type": "array", "items": {"$ref": "#/$defs/Pet"}},
        description="ok",
    )
    assert api.output_schemas == {
        "Pet": {"type": "object", "properties": {"name": {"type": ["string", "null"]}}}
    }
    assert [(d.code, d.pointer) for d in report.diagnostics] == [
        ("swagger-collection-format", "#/paths/~1pets/get/parameters/0/collectionFormat"),
        # from here on, pointers are into the converted document
        ("path-param-missing", "#/paths/~1pets~1{id}/get"),
    ]
    assert get_pet.parameters[0].name == "id"


def test_operation_schemes_matching_the_documents_are_not_reported(tmp_path: Path) -> None:
    # regression: every Kubernetes 1.13 operation says `schemes: [https]` while the document
    # declares none (so https): 1,014 needless swagger-schemes-ignored diagnostics
    data, report = convert(
        tmp_path,
        """\
        paths:
          /a:
            get:
              schemes: [https]
              responses: {"204": {description: done}}
            post:
              schemes: [http]
              responses: {"204": {description: done}}
        """,
    )
    assert data["servers"] == [{"url": "https://api.example.com"}]
    assert [d[1:3] for d in diagnostics(report)] == [
        ("swagger-schemes-ignored", "#/paths/~1a/post/schemes")
    ]


def test_the_autorest_file_format_is_a_binary_string(tmp_path: Path) -> None:
    # regression: Azure AutoRest's `{type: object, format: file}` stream bodies became JSON objects
    data, _ = convert(
        tmp_path,
        """\
        paths:
          /upload:
            put:
              consumes: [application/octet-stream]
              produces: [application/octet-stream]
              parameters:
                - {name: body, in: body, required: true, schema: {type: object, format: file}}
              responses:
                "200": {description: the bytes back, schema: {type: file, format: byte}}
        """,
    )
    op = operation(data, "/upload", "put")
    assert op["requestBody"]["content"] == {
        "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
    }
    assert op["responses"]["200"]["content"] == {
        "application/octet-stream": {"schema": {"type": "string", "format": "byte"}}
    }


def test_shared_parameters_and_responses_may_themselves_be_references(tmp_path: Path) -> None:
    data, _ = convert(
        tmp_path,
        """\
        parameters:
          limit: {$ref: "common.yaml#/limit"}
          body: {$ref: "common.yaml#/body"}
        responses:
          Gone: {$ref: "#/responses/NotFound"}
          NotFound: {description: missing}
        paths: {}
        """,
        {
            "common.yaml": """\
            limit: {name: limit, in: query, type: integer}
            body: {name: body, in: body, schema: {$ref: "#/definitions/Pet"}}
            definitions:
              Pet: {type: object}
            """
        },
    )
    assert data["components"] == {
        "parameters": {"limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}},
        "requestBodies": {
            "body": {
                "content": {
                    "application/json": {"schema": {"$ref": "common.yaml#/components/schemas/Pet"}}
                }
            }
        },
        "responses": {
            "Gone": {"$ref": "#/components/responses/NotFound"},
            "NotFound": {"description": "missing"},
        },
    }
