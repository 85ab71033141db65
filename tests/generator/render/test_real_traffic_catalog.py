"""What the catalog tells the runtime about real traffic: lenient output schemas (and who may opt
into the documented ones), the ``Accept`` each operation documents, and the config file's headers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.diagnostics import GenerationError
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.compact import lenient_output
from tests.catalogs import catalog_from_files

NULL = {"type": "null"}
PET = {
    "type": "object",
    "required": ["id", "name"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "name": {"type": "string", "maxLength": 20, "pattern": "^[a-z]+$"},
        "status": {"type": "string", "enum": ["available", "sold"]},
        "kind": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Kind"}]},
    },
}


def spec(x_mcp: dict[str, Any] | None = None) -> dict[str, Any]:
    ok = {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}
    get: dict[str, Any] = {
        "operationId": "getPet",
        "responses": {
            "200": {
                "description": "ok",
                "content": {
                    **ok,
                    "application/xml": {"schema": {"type": "string"}},
                    "text/csv; charset=utf-8": {"schema": {"type": "string"}},
                },
            },
            "404": {"description": "gone", "content": {"application/problem+json": {}}},
        },
    }
    if x_mcp is not None:
        get["x-mcp"] = x_mcp
    return {
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1"},
        "servers": [{"url": "https://pets.example"}],
        "paths": {
            "/pets/{id}": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "get": get,
                "put": {
                    "operationId": "putPet",
                    "responses": {"200": {"description": "ok", "content": ok}},
                },
                "delete": {"operationId": "deletePet", "responses": {"204": {"description": "x"}}},
            }
        },
        "components": {"schemas": {"Pet": PET}},
    }


def catalog(tmp_path: Path, document: dict[str, Any], config: str | None = None) -> Any:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    config_path = None
    if config is not None:
        config_path = tmp_path / "openapi2mcp.toml"
        config_path.write_text(config, encoding="utf-8")
    files = generate(
        str(path), GenerateOptions(output_schemas="full", config_path=config_path)
    ).files
    return catalog_from_files(files, "src/pets_mcp/catalog.json")


def test_lenient_output_keeps_types_and_drops_what_real_responses_break() -> None:
    relaxed = lenient_output({**PET, "$defs": {"Kind": {"type": "object", "required": ["k"]}}})
    # nullable values spelled portably: anyOf with a null branch (render/portable.py)
    assert relaxed == {
        "type": "object",
        "properties": {
            "id": {"anyOf": [{"type": "integer"}, NULL]},
            "name": {"anyOf": [{"type": "string"}, NULL]},
            "status": {"anyOf": [{"type": "string"}, NULL]},
            "kind": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Kind"}, NULL]},
        },
        "$defs": {"Kind": {"anyOf": [{"type": "object"}, NULL]}},
    }


@pytest.mark.parametrize("kind", ["string", "integer", "number", "boolean"])
def test_a_lenient_root_of_one_value_admits_null(kind: str) -> None:
    """A 204, or an object where a string is documented, then has structured content that
    conforms (null); an object or array root keeps its type (an empty one stands in)."""
    documented = {"type": kind, "description": "The answer.", "enum": ["x"]}
    assert lenient_output(documented) == {
        "anyOf": [{"type": kind}, NULL],
        "description": "The answer.",
    }
    assert lenient_output({"type": "array", "items": {"type": kind}}) == {
        "type": "array",
        "items": {"anyOf": [{"type": kind}, NULL]},
    }


def test_tools_advertise_lenient_schemas_and_keep_the_documented_one_for_strict_mode(
    tmp_path: Path,
) -> None:
    found = catalog(tmp_path, spec())
    tools = {tool["name"]: tool for tool in found["tools"]}
    advertised = tools["get_pet"]["outputSchema"]
    assert "required" not in json.dumps(advertised)
    pet, null = advertised["$defs"]["Pet"]["anyOf"]
    assert (pet["type"], null) == ("object", NULL)
    assert pet["properties"]["id"] == {"anyOf": [{"type": "integer"}, NULL]}
    strict = found["toolBindings"]["get_pet"]["outputSchemas"]["strict"]
    assert strict["$defs"]["Pet"]["required"] == ["id", "name"]
    assert strict["$defs"]["Pet"]["properties"]["status"]["enum"] == ["available", "sold"]
    assert "outputSchemas" not in found["toolBindings"]["delete_pet"]  # no output schema at all


def test_x_mcp_strict_output_advertises_the_documented_schema(tmp_path: Path) -> None:
    found = catalog(tmp_path, spec({"strictOutput": True}))
    tools = {tool["name"]: tool for tool in found["tools"]}
    assert tools["get_pet"]["outputSchema"]["$defs"]["Pet"]["required"] == ["id", "name"]
    lenient = found["toolBindings"]["get_pet"]["outputSchemas"]["lenient"]
    assert "required" not in json.dumps(lenient)
    # only that operation opted in
    assert "required" not in json.dumps(tools["put_pet"]["outputSchema"])


@pytest.mark.parametrize(
    ("setting", "strict_tools"),
    [
        ("strict_output = true", {"get_pet", "put_pet"}),
        # globs add operations; the others keep what their x-mcp says
        ('strict_output = ["put*"]', {"get_pet", "put_pet"}),
        ("strict_output = false", set()),  # the config wins over x-mcp
    ],
)
def test_the_config_file_chooses_strict_output_schemas(
    tmp_path: Path, setting: str, strict_tools: set[str]
) -> None:
    found = catalog(tmp_path, spec({"strictOutput": True}), setting)
    strict = {
        tool["name"]
        for tool in found["tools"]
        if "required" in json.dumps(tool.get("outputSchema", {}))
    }
    assert strict == strict_tools


def test_accept_lists_the_documented_success_media_types_preferred_first(tmp_path: Path) -> None:
    operations = catalog(tmp_path, spec())["operations"]
    assert operations["getPet"]["responseMediaType"] == "application/json"
    assert (
        operations["getPet"]["accept"] == "application/json, application/xml;q=0.9, text/csv;q=0.9"
    )
    assert "accept" not in operations["putPet"]  # one media type: responseMediaType says it
    assert "accept" not in operations["deletePet"]


def test_json_in_a_dialect_accepts_plain_json_before_the_other_types(tmp_path: Path) -> None:
    # pygeoapi answers HTML to "application/geo+json, text/html;q=0.9": it does not know GeoJSON's
    # name, and takes the next type it does
    features = {
        "openapi": "3.0.2",
        "info": {"title": "Pets", "version": "1"},
        "servers": [{"url": "https://geo.example"}],
        "paths": {
            "/collections/lakes/items": {
                "get": {
                    "operationId": "getLakesFeatures",
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/geo+json": {"schema": {"type": "object"}},
                                "application/ld+json": {"schema": {"type": "object"}},
                                "text/html": {"schema": {"type": "string"}},
                            },
                        }
                    },
                }
            }
        },
    }
    operation = catalog(tmp_path, features)["operations"]["getLakesFeatures"]
    assert operation["responseMediaType"] == "application/geo+json"
    # JSON-LD under the same schema is another encoding of it, not asked for
    assert operation["accept"] == "application/geo+json, application/json;q=0.9, text/html;q=0.8"


def slurm_like() -> dict[str, Any]:
    """slurmrestd's shape: every answer in JSON and in YAML under one schema, a user's name and
    token as two API keys sent together."""
    pings = {"$ref": "#/components/schemas/Pings"}
    return {
        "openapi": "3.0.2",
        "info": {"title": "Pets", "version": "1"},
        "servers": [{"url": "https://slurm.example"}],
        "security": [{"user": [], "token": []}],
        "paths": {
            "/ping": {
                "get": {
                    "operationId": "ping",
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {"schema": pings},
                                "application/x-yaml": {"schema": pings},
                                "text/csv": {"schema": {"type": "string"}},
                            },
                        }
                    },
                }
            },
            "/report": {
                "get": {
                    "operationId": "report",
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {"schema": pings},
                                "application/xml": {"schema": pings},
                            },
                        }
                    },
                }
            },
        },
        "components": {
            "schemas": {"Pings": {"type": "object"}},
            "securitySchemes": {
                "user": {"type": "apiKey", "in": "header", "name": "X-SLURM-USER-NAME"},
                "token": {"type": "apiKey", "in": "header", "name": "X-SLURM-USER-TOKEN"},
            },
        },
    }


def test_the_same_data_in_another_encoding_is_not_asked_for(tmp_path: Path) -> None:
    """slurmrestd picks among the types an ``Accept`` lists at random, whatever their weights: YAML
    or XML under the very schema JSON has is the same data, so JSON alone is asked for; a type
    with a schema of its own (a CSV export) may be what the server answers, and stays, weighed
    lower."""
    operations = catalog(tmp_path, slurm_like())["operations"]
    assert operations["ping"]["accept"] == "application/json, text/csv;q=0.9"
    assert "accept" not in operations["report"]
    assert operations["report"]["responseMediaType"] == "application/json"


def test_a_key_that_names_the_user_is_no_secret(tmp_path: Path) -> None:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(slurm_like()), encoding="utf-8")
    files = generate(str(path), GenerateOptions()).files
    schemes = catalog_from_files(files, "src/pets_mcp/catalog.json")["upstream"]["securitySchemes"]
    assert schemes["user"] == {
        "type": "apiKey",
        "location": "header",
        "name": "X-SLURM-USER-NAME",
        "env": "PETS_USER_KEY",
        "identity": True,
    }
    assert "identity" not in schemes["token"]
    readme = str(files["README.md"])
    assert (
        "| `PETS_USER_KEY` | User name or id for 'user' (sent as header 'X-SLURM-USER-NAME') |"
        in readme
    )
    assert (
        "| `PETS_TOKEN_KEY` | API key for 'token' (sent as header 'X-SLURM-USER-TOKEN') (secret) |"
        in readme
    )
    assert '"PETS_USER_KEY": "<pets_user_key>"' in readme  # in the client configuration too


def test_the_redirects_an_operation_documents_go_into_the_catalog(tmp_path: Path) -> None:
    """A redirect documented as an answer (GitHub's downloads: 302 with a Location) is the
    operation's result when it is not followed; 304 is no redirect. Without a 2xx beside it (a
    ``default`` is the errors'), it is the only answer, and is not followed (Strapi's email
    confirmation: a 301 to the site)."""
    document = spec()
    document["paths"]["/pets/{id}"]["delete"]["responses"] = {
        "302": {"description": "the archive", "headers": {"Location": {"schema": {}}}},
        "3XX": {"description": "elsewhere"},
        "304": {"description": "not modified"},
        "404": {"description": "gone"},
        "default": {"description": "an error"},
    }
    document["paths"]["/pets/{id}"]["put"]["responses"]["303"] = {"description": "see the pet"}
    operations = catalog(tmp_path, document)["operations"]
    assert operations["deletePet"]["redirects"] == ["302", "3XX"]
    assert operations["deletePet"]["redirectAnswers"] is True
    assert operations["putPet"]["redirects"] == ["303"]
    assert "redirectAnswers" not in operations["putPet"]
    assert "redirects" not in operations["getPet"]


@pytest.mark.parametrize(
    ("checks", "sentence"),
    [
        # GitHub's code_scanning_update_alert and projects_add_item_for_org
        (
            {"anyOf": [{"required": ["state"]}, {"required": ["assignees"]}]},
            "Give at least one of: state, assignees.",
        ),
        (
            {"oneOf": [{"required": ["id"]}, {"required": ["owner", "repo", "number"]}]},
            "Give exactly one of: id; owner, repo and number.",
        ),
        (
            {"allOf": [{"if": {"required": ["a"]}, "then": {"required": ["b"]}}]},
            "The arguments must also fit together as the API says; the server checks it when "
            "called.",
        ),
    ],
)
def test_root_applicators_are_checked_not_advertised(
    tmp_path: Path, checks: dict[str, Any], sentence: str
) -> None:
    """Anthropic's API refuses a tool with allOf / anyOf / oneOf at its input schema's root (and
    with it every request listing the tool): they move to the binding, and the description says
    what they ask."""
    document = spec()
    put = document["paths"]["/pets/{id}"]["put"]
    put["requestBody"] = {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {
                        k: {"type": "string"}
                        for k in ("a", "b", "state", "assignees", "owner", "repo", "number")
                    },
                    **checks,
                }
            }
        },
    }
    found = catalog(tmp_path, document)
    (tool,) = (t for t in found["tools"] if t["name"] == "put_pet")
    assert not {"allOf", "anyOf", "oneOf"} & set(tool["inputSchema"])
    assert tool["description"].endswith(sentence)
    assert found["toolBindings"]["put_pet"]["inputChecks"] == checks


def test_config_headers_go_into_the_catalog(tmp_path: Path) -> None:
    config = '[upstream.headers]\n"X-Api-Version" = "2024-01-01"\n'
    assert catalog(tmp_path, spec(), config)["upstream"]["headers"] == {
        "X-Api-Version": "2024-01-01"
    }


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('"Bad Name" = "x"', "'Bad Name' is not a valid header name"),
        ('Host = "elsewhere"', "the header Host is set by the server itself"),
        ('"X-Ok" = "a\\nb"', "the value of header X-Ok must be printable ASCII on one line"),
    ],
)
def test_unusable_config_headers_stop_generation(tmp_path: Path, table: str, message: str) -> None:
    with pytest.raises(GenerationError) as info:
        catalog(tmp_path, spec(), f"[upstream.headers]\n{table}\n")
    assert message in str(info.value)
    assert not (tmp_path / "pets-mcp").exists()


def test_an_operation_server_that_is_all_variable_is_not_called_relative(tmp_path: Path) -> None:
    document = spec()
    uploads = {"url": "{uploads}", "variables": {"uploads": {"default": "https://up.example"}}}
    document["paths"]["/pets/{id}"]["put"]["servers"] = [uploads]
    document["paths"]["/pets/{id}"]["delete"]["servers"] = [{"url": "/files"}]
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    report = generate(str(path), GenerateOptions()).report
    relative = [d.pointer for d in report.diagnostics if d.code == "server-relative"]
    assert relative == ["#/paths/~1pets~1{id}/delete/servers"]
