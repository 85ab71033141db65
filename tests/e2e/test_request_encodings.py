"""Requests exactly as each API expects them (issue 14): a probe spec with one operation per
serialization rule, generated, served, called, and the exact bytes the API received asserted.

The spec goes through the whole generator (parse, classify, catalog); the generated catalog is served
in process against a recording HTTP server on 127.0.0.1 that keeps each request as it came (raw
target, headers, body bytes). Each test is named after what used to break.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from templates.runtime.server import McpServer, Settings
from tests.catalogs import catalog_from_files
from tests.reliability.kit import META
from tests.runtime.upstream_kit import FakeApi

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
FORM = "application/x-www-form-urlencoded"


def _json(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


OK = {"200": {"description": "ok"}}
STRIPE_LIKE_BODY = {
    "type": "object",
    "properties": {
        "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
        "tags": {"type": "array", "items": {"type": "string"}},
        "expand": {"type": "array", "items": {"type": "string"}},
        "discounts": {
            "type": "array",
            "items": {"type": "object", "properties": {"coupon": {"type": "string"}}},
        },
        "note": {"type": "string"},
        "payload": {"type": "object", "properties": {"k": {"type": "array"}}},
        "callback": {"type": "string"},
        "address": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
STRIPE_LIKE_ENCODING = {
    "metadata": {"style": "deepObject", "explode": True},
    "tags": {"style": "form", "explode": False},
    "expand": {"style": "deepObject", "explode": True},
    "discounts": {"style": "deepObject", "explode": True},
    "payload": {"contentType": "application/json"},
    "callback": {"allowReserved": True},
}


def _form_op(operation_id: str, x_mcp: dict[str, Any] | None = None) -> dict[str, Any]:
    media = {"schema": STRIPE_LIKE_BODY, "encoding": STRIPE_LIKE_ENCODING}
    op: dict[str, Any] = {
        "operationId": operation_id,
        "requestBody": {"required": True, "content": {FORM: media}},
        "responses": OK,
    }
    if x_mcp:
        op["x-mcp"] = x_mcp
    return op


PROBE: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Probe", "version": "1"},
    "servers": [{"url": "https://probe.example"}],
    "components": {
        "schemas": {
            "User": {"type": "object", "properties": {"id": {"type": "integer"}}},
            "Int64": {"type": "string", "format": "int64"},
            "FileContent": {
                "type": "object",
                "properties": {
                    "relative_path": {"type": "string", "minLength": 1},
                    "file": {"type": "string", "format": "binary", "writeOnly": True},
                    "pulp_labels": {
                        "type": "object",
                        "additionalProperties": {"type": "string"},
                    },
                },
                "required": ["relative_path"],
            },
            "ImageRequest": {
                "type": "object",
                "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 10}},
            },
            "ImageEdit": {
                "type": "object",
                "properties": {
                    "image": {"type": "string", "format": "binary"},
                    "n": {"$ref": "#/components/schemas/ImageRequest/properties/n"},
                },
            },
        }
    },
    "paths": {
        "/v1/customers": {"post": _form_op("createCustomer")},
        "/v1/brackets": {"post": _form_op("bracketed", {"deepObjectArrays": "brackets"})},
        "/v1/search": {
            "get": {
                "operationId": "searchCharges",
                "parameters": [
                    {
                        "name": "expand",
                        "in": "query",
                        "style": "deepObject",
                        "explode": True,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {
                        "name": "filter",
                        "in": "query",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    },
                    {"name": "status", "in": "query", "schema": {"type": ["string", "null"]}},
                    {
                        "name": "ids",
                        "in": "header",
                        "schema": {"type": "array", "items": {"type": "integer"}},
                    },
                    {"name": "session", "in": "cookie", "schema": {"type": "string"}},
                ],
                "responses": OK,
            }
        },
        "/apis/{name}": {
            "put": {
                "operationId": "replaceApi",
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "*/*": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "kind": {"type": "string"},
                                    "spec": {"type": "object"},
                                },
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/files": {
            "post": {
                "operationId": "uploadFile",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/octet-stream": {
                            "schema": {"type": "string", "format": "binary"}
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/avatar": {
            "put": {
                "operationId": "putAvatar",
                "requestBody": {"required": True, "content": {"image/*": {}}},
                "responses": OK,
            }
        },
        "/messages": {
            "post": {
                "operationId": "sendMessage",
                "requestBody": _json(
                    {
                        "type": "object",
                        "required": ["to", "text"],
                        "properties": {
                            "to": {"type": "string"},
                            "text": {"type": "string"},
                            "media": {"type": "string"},
                        },
                    },
                    required=False,
                ),
                "responses": OK,
            }
        },
        "/projects": {
            "post": {
                "operationId": "createProject",
                "requestBody": _json(
                    {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string"},
                            "owner": {
                                "allOf": [{"$ref": "#/components/schemas/User"}, {"readOnly": True}]
                            },
                        },
                    }
                ),
                "responses": OK,
            }
        },
        "/oauth2/revoke": {
            "post": {
                "operationId": "revokeToken",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {
                                "type": "object",
                                "properties": {"token": {"type": "string"}},
                                "required": ["grant_type"],
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/tags/{id}": {
            "patch": {
                "operationId": "patchTag",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "requestBody": _json(
                    {
                        "type": "object",
                        "minProperties": 1,
                        "properties": {"label": {"type": "string"}, "color": {"type": "string"}},
                    }
                ),
                "responses": OK,
            }
        },
        "/pets/{id}": {
            "patch": {
                "operationId": "patchPet",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "requestBody": _json(
                    {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string"},
                            "notes": {"type": ["string", "null"]},
                        },
                    }
                ),
                "responses": OK,
            }
        },
        "/colors/{label}/{matrix}": {
            "get": {
                "operationId": "paintColors",
                "parameters": [
                    {
                        "name": "label",
                        "in": "path",
                        "required": True,
                        "style": "label",
                        "explode": True,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {
                        "name": "matrix",
                        "in": "path",
                        "required": True,
                        "style": "matrix",
                        "schema": {"type": "object", "additionalProperties": {"type": "integer"}},
                    },
                ],
                "responses": OK,
            }
        },
        "/config": {
            "patch": {
                "operationId": "patchConfig",
                "requestBody": {
                    "required": True,
                    "content": {"application/merge-patch+json": {"schema": {}}},
                },
                "responses": OK,
            }
        },
        "/pets/find": {
            "get": {
                "operationId": "findPets",
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    }
                ],
                "responses": OK,
            }
        },
        "/images/edits": {
            "post": {
                "operationId": "editImage",
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {"$ref": "#/components/schemas/ImageEdit"}
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/uploads": {
            "post": {
                "operationId": "upload",
                "requestBody": {"required": True, "content": {"*/*": {"schema": {}}}},
                "responses": OK,
            }
        },
        # InfluxDB: header parameters the HTTP client writes itself, and an Accept it enumerates
        "/write": {
            "post": {
                "operationId": "postWrite",
                "parameters": [
                    {"name": "Content-Length", "in": "header", "schema": {"type": "integer"}},
                    {
                        "name": "Content-Encoding",
                        "in": "header",
                        "schema": {"type": "string", "enum": ["gzip", "identity"]},
                    },
                    {
                        "name": "Accept-Encoding",
                        "in": "header",
                        "schema": {"type": "string", "enum": ["gzip", "identity"]},
                    },
                    {
                        "name": "bucket",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                ],
                "requestBody": {
                    "required": True,
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                },
                "responses": {"204": {"description": "written"}},
            }
        },
        # springdoc (Spring Boot): a controller that names no media type answers under */*
        "/owners/{id}": {
            "get": {
                "operationId": "getOwner",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "*/*": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "id": {"type": "integer"},
                                        "name": {"type": "string"},
                                    },
                                }
                            }
                        },
                    }
                },
            }
        },
        # Google Home's local API (and VTEX's): a required Content-Type header parameter on an
        # operation that may go without a body; the server refuses a request that lacks it
        "/assistant/notifications": {
            "post": {
                "operationId": "doNotDisturb",
                "parameters": [
                    {
                        "name": "Content-Type",
                        "in": "header",
                        "required": True,
                        "schema": {"type": "string", "example": "application/json"},
                    }
                ],
                "requestBody": _json(
                    {
                        "type": "object",
                        "properties": {"notifications_enabled": {"type": "boolean"}},
                    },
                    required=False,
                ),
                "responses": OK,
            }
        },
        # Azure's runbook content: Swagger 2.0's `type: file` left as `format: file` on an object
        "/runbooks/{name}/content": {
            "put": {
                "operationId": "replaceRunbookContent",
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "text/powershell": {"schema": {"type": "object", "format": "file"}}
                    },
                },
                "responses": {"202": {"description": "accepted"}},
            }
        },
        # Docker: an object body under octet-stream (a converted document), and a build context
        # whose Content-Type header parameter names application/x-tar
        "/networks/{id}/connect": {
            "post": {
                "operationId": "networkConnect",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/octet-stream": {
                            "schema": {
                                "type": "object",
                                "properties": {"Container": {"type": "string"}},
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/build": {
            "post": {
                "operationId": "imageBuild",
                "parameters": [
                    {
                        "name": "Content-type",
                        "in": "header",
                        "schema": {
                            "type": "string",
                            "enum": ["application/x-tar"],
                            "default": "application/x-tar",
                        },
                    }
                ],
                "requestBody": {
                    "content": {
                        "application/octet-stream": {
                            "schema": {"type": "string", "format": "binary"}
                        }
                    }
                },
                "responses": OK,
            }
        },
        # App Store Connect: a required filter that is a list written with commas (not exploded);
        # Stream: path ids described as JSON content whose schema is a string
        "/salesReports": {
            "get": {
                "operationId": "salesReports",
                "parameters": [
                    {
                        "name": "filter[vendorNumber]",
                        "in": "query",
                        "required": True,
                        "explode": False,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    }
                ],
                "responses": OK,
            }
        },
        "/channels/{type}/{id}/file": {
            "delete": {
                "operationId": "deleteFile",
                "parameters": [
                    {
                        "name": name,
                        "in": "path",
                        "required": True,
                        "content": {"application/json": {"schema": {"type": "string"}}},
                    }
                    for name in ("type", "id")
                ]
                + [
                    {
                        "name": "url",
                        "in": "query",
                        "content": {"application/json": {"schema": {"type": "string"}}},
                    },
                    {
                        "name": "where",
                        "in": "query",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    },
                ],
                "responses": OK,
            }
        },
        # Zeno: a multipart part that is an object behind a $ref (a Spring @RequestPart)
        "/podcasts": {
            "post": {
                "operationId": "createPodcast",
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "required": ["podcast"],
                                "properties": {
                                    "podcast": {"$ref": "#/components/schemas/User"},
                                    "tags": {
                                        "type": "array",
                                        "items": {"$ref": "#/components/schemas/User"},
                                    },
                                    "overwrite": {"type": "boolean"},
                                    "episodes": {"type": "integer", "nullable": True},
                                    "n": {"$ref": "#/components/schemas/ImageRequest/properties/n"},
                                },
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/database/{pk}/upload": {
            "post": {
                "operationId": "uploadTable",
                "parameters": [
                    {"name": "pk", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "required": ["file", "table_name"],
                                "properties": {
                                    "file": {"type": "string", "format": "text/csv"},
                                    "table_name": {"type": "string"},
                                    "when": {"type": "string", "format": "dd/mm"},
                                },
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/telegrafs/{id}": {
            "get": {
                "operationId": "getTelegraf",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {
                        "name": "Accept",
                        "in": "header",
                        "schema": {
                            "type": "string",
                            "default": "application/toml",
                            "enum": [
                                "application/toml",
                                "application/json",
                                "application/octet-stream",
                            ],
                        },
                    },
                ],
                "responses": {
                    "200": {
                        "description": "the configuration",
                        "content": {
                            "application/toml": {"schema": {"type": "string"}},
                            "application/json": {"schema": {"type": "object"}},
                            "application/octet-stream": {"schema": {"type": "string"}},
                        },
                    }
                },
            }
        },
        # etcd's RPCs through grpc-gateway: an empty request message is a required {type: object}
        "/v3/maintenance/status": {
            "post": {
                "operationId": "Status",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"type": "object"}}},
                },
                "responses": OK,
            }
        },
        "/v3/config": {
            "put": {
                "operationId": "ReplaceConfig",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"type": "object"}}},
                },
                "responses": OK,
            }
        },
        "/playlists/{id}/images": {
            "put": {
                "operationId": "uploadCover",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "image/jpeg": {
                            "schema": {
                                "type": "string",
                                "format": "byte",
                                "description": "Base64 encoded JPEG image data.",
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/filter/{id}/columns": {
            "put": {
                "operationId": "setColumns",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "requestBody": {
                    "content": {
                        "multipart/form-data": {
                            "schema": {"type": "array", "items": {"type": "string"}}
                        }
                    }
                },
                "responses": OK,
            }
        },
        "/issue/{key}/attachments": {
            "post": {
                "operationId": "addAttachment",
                "parameters": [
                    {"name": "key", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {"schema": {"type": "string", "format": "binary"}}
                    },
                },
                "responses": OK,
            }
        },
        # changedetection.io: a snapshot's timestamp (an integer, or a word); its history lists
        # them as an object's keys, which are strings
        "/watch/{uuid}/difference/{from_timestamp}/{to_timestamp}": {
            "put": {
                "operationId": "diff",
                "parameters": [
                    {"name": "uuid", "in": "path", "required": True, "schema": {"type": "string"}},
                    *(
                        {
                            "name": name,
                            "in": "path",
                            "required": True,
                            "schema": {
                                "oneOf": [
                                    {"type": "integer"},
                                    {"type": "string", "enum": [word]},
                                ]
                            },
                        }
                        for name, word in (
                            ("from_timestamp", "previous"),
                            ("to_timestamp", "latest"),
                        )
                    ),
                    {"name": "recheck", "in": "query", "schema": {"enum": ["1", "true"]}},
                    {
                        "name": "lines",
                        "in": "query",
                        "schema": {"type": "array", "items": {"type": "integer"}},
                    },
                    {"name": "X-Word-Diff", "in": "header", "schema": {"type": "boolean"}},
                    {"name": "ratio", "in": "query", "schema": {"type": "number"}},
                ],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"context": {"type": "integer"}},
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/v1/refunds": {
            "post": {
                "operationId": "createRefund",
                "requestBody": {
                    "content": {
                        FORM: {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "amount": {"type": "integer"},
                                    "charge": {"type": "string"},
                                    "instant": {"type": "boolean"},
                                    "meta": {"type": "object"},
                                },
                            },
                            "encoding": {"meta": {"contentType": "application/json"}},
                        }
                    }
                },
                "responses": OK,
            }
        },
        # grpc-gateway's 64-bit numbers are strings in JSON (etcd), as Google's APIs write them
        "/v3/kv/range": {
            "post": {
                "operationId": "range",
                "parameters": [
                    {
                        "name": "revision",
                        "in": "query",
                        "schema": {"type": "string", "format": "int64"},
                    }
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "key": {"type": "string"},
                                    "limit": {"type": "string", "format": "int64"},
                                    "leases": {
                                        "type": "array",
                                        "items": {"$ref": "#/components/schemas/Int64"},
                                    },
                                    "min_mod": {
                                        "type": "string",
                                        "format": "uint64",
                                        "nullable": True,
                                    },
                                },
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        # drf-spectacular offers every parser of a view, file or not (Pulp's content upload)
        "/content/file/files/": {
            "post": {
                "operationId": "content_file_files_create",
                "requestBody": {
                    "required": True,
                    "content": {
                        media: {"schema": {"$ref": "#/components/schemas/FileContent"}}
                        for media in (
                            "application/json",
                            "application/x-www-form-urlencoded",
                            "multipart/form-data",
                        )
                    },
                },
                "responses": OK,
            }
        },
        "/documents": {
            "post": {
                "operationId": "postDocument",
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "meta": {
                                        "type": "object",
                                        "properties": {"a": {"type": "integer"}},
                                    },
                                    "file": {"type": "string", "format": "binary"},
                                    "note": {"type": "string"},
                                },
                            },
                            "encoding": {
                                "file": {
                                    "contentType": "image/png",
                                    "headers": {
                                        "X-Origin": {"schema": {"type": "string", "const": "probe"}}
                                    },
                                }
                            },
                        }
                    },
                },
                "responses": OK,
            }
        },
    },
}

SWAGGER: dict[str, Any] = {
    "swagger": "2.0",
    "info": {"title": "Legacy", "version": "1"},
    "host": "legacy.example",
    "paths": {
        "/me": {
            "get": {
                "operationId": "getMe",
                "parameters": [
                    {"name": "Authorization", "in": "header", "type": "string", "required": True}
                ],
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}


class Probe:
    """The probe spec's generated catalog, served against a recording API."""

    def __init__(self, tmp: Path, document: dict[str, Any], api: FakeApi, **env: str) -> None:
        path = tmp / "openapi.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        generation = generate(str(path), GenerateOptions(tool_mode="full"))
        [name] = [f for f in generation.files if f.endswith("/catalog.json")]
        self.catalog: dict[str, Any] = catalog_from_files(generation.files, name)
        self.tools = {tool["name"]: tool for tool in self.catalog["tools"]}
        prefix = self.catalog["upstream"]["baseUrlEnv"].removesuffix("_BASE_URL")
        environ = {f"{prefix}_BASE_URL": api.url, **{f"{prefix}_{k}": v for k, v in env.items()}}
        self.server = McpServer(self.catalog, Settings.from_env(self.catalog, environ))  # type: ignore[arg-type]
        self.api = api

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        async def notify(message: dict[str, Any]) -> None:
            return None

        params = {"_meta": META, "name": name, "arguments": arguments}
        reply = await self.server.dispatcher.handle(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}, None, notify
        )
        assert reply is not None
        result: dict[str, Any] = reply["result"]
        return result


@pytest.fixture
async def probe(tmp_path: Path, api: FakeApi) -> Any:
    served = Probe(tmp_path, PROBE, api)
    yield served
    await served.server.aclose()


FORM_ARGUMENTS = {
    "metadata": {"order": "42"},
    "tags": ["a", "b"],
    "expand": ["customer", "invoice.subscription"],
    "discounts": [{"coupon": "x"}],
    "note": "a b&c",
    "payload": {"k": [1]},
    "callback": "https://x.example/cb?a=1",
    "address": {"city": "Paris"},
}


async def test_form_fields_follow_their_encoding_object(probe: Probe) -> None:
    result = await probe.call("create_customer", FORM_ARGUMENTS)
    assert "isError" not in result, result
    [request] = probe.api.requests
    assert request.header("Content-Type") == FORM
    assert request.body == (
        b"metadata[order]=42&tags=a,b&expand[0]=customer&expand[1]=invoice.subscription"
        b"&discounts[0][coupon]=x&note=a+b%26c&payload=%7B%22k%22%3A%5B1%5D%7D"
        b"&callback=https://x.example/cb?a%3D1&city=Paris"
    )


async def test_arrays_inside_deep_object_can_be_written_with_empty_brackets(probe: Probe) -> None:
    await probe.call("bracketed", {"expand": ["a", "b"], "discounts": [{"coupon": "x"}]})
    assert probe.api.requests[0].body == b"expand[]=a&expand[]=b&discounts[][coupon]=x"


async def test_query_deep_object_arrays_json_content_nulls_header_arrays_and_cookies(
    probe: Probe,
) -> None:
    arguments = {
        "expand": ["data.customer"],
        "filter": {"amount": {"gt": 100}},
        "status": None,
        "ids": [3, 4],
        "session": "s 1",
    }
    assert "isError" not in await probe.call("search_charges", arguments)
    [request] = probe.api.requests
    assert request.target == (
        "/v1/search?expand[0]=data.customer&filter=%7B%22amount%22%3A%7B%22gt%22%3A100%7D%7D"
    )
    assert (request.header("ids"), request.header("Cookie")) == ("3,4", "session=s%201")


async def test_an_object_body_under_a_media_range_is_json(probe: Probe) -> None:
    schema = probe.tools["replace_api"]["inputSchema"]
    assert set(schema["properties"]) == {"name", "kind", "spec"}
    result = await probe.call("replace_api", {"name": "x", "kind": "Deployment", "spec": {"n": 1}})
    assert "isError" not in result, result
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == (
        "application/json",
        b'{"kind":"Deployment","spec":{"n":1}}',
    )


async def test_a_binary_body_is_described_as_base64_and_sent_as_bytes(probe: Probe) -> None:
    body = probe.tools["upload_file"]["inputSchema"]["properties"]["body"]
    assert body == {
        "type": "string",
        "contentMediaType": "application/octet-stream",
        "contentEncoding": "base64",
        "description": "The request body, base64-encoded.",
    }
    await probe.call("upload_file", {"body": base64.b64encode(b"\x00\xffraw").decode()})
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == (
        "application/octet-stream",
        b"\x00\xffraw",
    )


async def test_a_binary_body_under_image_star_is_sent_with_its_sniffed_type(probe: Probe) -> None:
    body = probe.tools["put_avatar"]["inputSchema"]["properties"]["body"]
    assert (body["type"], body["contentEncoding"]) == ("string", "base64")
    await probe.call("put_avatar", {"body": base64.b64encode(PNG).decode()})
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == ("image/png", PNG)


async def test_text_under_any_type_is_sent_as_the_text_it_is(probe: Probe) -> None:
    """base64 of text under ``*/*`` says what it holds; bytes that are not text stay bytes."""
    files = [
        (b'{"rows": [1, 2]}', "application/json"),
        (b"name,qty\nbolt,3\n", "text/csv"),
        ("caf\u00e9 au lait\n".encode(), "text/plain"),
        ("caf\u00e9".encode()[:-1], "application/octet-stream"),
        (b"a\x00b", "application/octet-stream"),
    ]
    for data, _ in files:
        await probe.call("upload", {"body": base64.b64encode(data).decode()})
    sent = [(request.body, request.header("Content-Type")) for request in probe.api.requests]
    assert sent == files


async def test_an_optional_body_needs_its_required_fields_once_any_is_given(probe: Probe) -> None:
    schema = probe.tools["send_message"]["inputSchema"]
    assert "required" not in schema
    assert schema["dependentRequired"] == {"to": ["text"], "text": ["to"], "media": ["to", "text"]}
    partial = await probe.call("send_message", {"media": "https://x/y.png"})
    assert partial["isError"] is True
    assert partial["content"][0]["text"].startswith("Invalid arguments for tool 'send_message':")
    # what two fields given both ask for is said once
    both = await probe.call("send_message", {"media": "https://x/y.png", "text": "hi"})
    assert both["content"][0]["text"] == (
        "Invalid arguments for tool 'send_message':\n- (arguments): \"to\" is a required property"
    )
    assert await probe.call("send_message", {}) and probe.api.requests[0].body == b""
    await probe.call("send_message", {"to": "+331", "text": "hi"})
    assert probe.api.requests[1].body == b'{"to":"+331","text":"hi"}'


async def test_read_only_inside_all_of_is_not_an_input(probe: Probe) -> None:
    assert set(probe.tools["create_project"]["inputSchema"]["properties"]) == {"name"}


async def test_explicit_nulls_reach_json_bodies(probe: Probe) -> None:
    await probe.call("patch_pet", {"id": 7, "notes": None})
    [request] = probe.api.requests
    assert (request.target, request.body) == ("/pets/7", b'{"notes":null}')


async def test_what_a_body_requires_without_defining_it_is_sent(probe: Probe) -> None:
    """Box's token revocation requires ``grant_type``, which its properties leave out: the tool
    takes it and the form carries it."""
    assert probe.tools["revoke_token"]["inputSchema"]["required"] == ["grant_type"]
    await probe.call("revoke_token", {"token": "t1", "grant_type": "refresh_token"})
    [request] = probe.api.requests
    assert request.body == b"token=t1&grant_type=refresh_token"


async def test_a_body_that_needs_a_field_is_not_sent_empty(probe: Probe) -> None:
    """``minProperties: 1`` beside a path id: the id alone is refused here, not sent as ``{}``. The
    rule is checked but not advertised as a root ``anyOf`` (Anthropic's API refuses those); the
    description says it."""
    listed = probe.tools["patch_tag"]
    assert "anyOf" not in listed["inputSchema"]
    assert listed["description"].endswith("Give at least one of: label, color.")
    refused = await probe.call("patch_tag", {"id": 7})
    assert refused["isError"] is True and probe.api.requests == []
    assert refused["content"][0]["text"] == (
        "Invalid arguments for tool 'patch_tag':\n"
        '- (arguments): at least one of "label", "color" is required'
    )
    await probe.call("patch_tag", {"id": 7, "color": "red"})
    [request] = probe.api.requests
    assert (request.target, request.body) == ("/tags/7", b'{"color":"red"}')


async def test_label_and_matrix_paths(probe: Probe) -> None:
    await probe.call("paint_colors", {"label": ["blue", "black"], "matrix": {"r": 1, "g": 2}})
    assert probe.api.requests[0].target == "/colors/.blue.black/;matrix=r,1,g,2"


async def test_a_base64_body_goes_as_the_base64_it_is(probe: Probe) -> None:
    """Spotify's playlist cover: ``image/jpeg`` whose schema is ``format: byte``, "Base64 encoded
    JPEG image data": the API wants the base64 text, which had been decoded to JPEG bytes. The
    argument is said to be base64 (``contentEncoding``, 3.1's spelling of ``format: byte``) and
    goes as it is."""
    cover = base64.b64encode(PNG).decode()
    body = probe.tools["upload_cover"]["inputSchema"]["properties"]["body"]
    assert (body["format"], body["contentEncoding"]) == ("byte", "base64")
    await probe.call("upload_cover", {"id": "p1", "body": cover})
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == ("image/jpeg", cover.encode())


async def test_a_required_body_that_takes_an_empty_object_may_be_left_out(probe: Probe) -> None:
    """etcd's status (an empty request message, a required ``{type: object}``) called with no
    arguments sends ``{}``; a PUT's body, which ``{}`` would replace with nothing, stays required."""
    assert "required" not in probe.tools["status"]["inputSchema"]
    result = await probe.call("status", {})
    assert result.get("isError") is not True, result
    await probe.call("status", {"body": {"verbose": True}})
    assert [(r.target, r.header("Content-Type"), r.body) for r in probe.api.requests] == [
        ("/v3/maintenance/status", "application/json", b"{}"),
        ("/v3/maintenance/status", "application/json", b'{"verbose":true}'),
    ]
    assert probe.tools["replace_config"]["inputSchema"]["required"] == ["body"]
    refused = await probe.call("replace_config", {})
    assert refused["isError"] is True and len(probe.api.requests) == 2
    assert refused["content"][0]["text"] == (
        "Invalid arguments for tool 'replace_config':\n"
        '- (arguments): "body" is a required property'
    )


async def test_headers_the_http_client_writes_are_no_arguments(probe: Probe) -> None:
    """InfluxDB declares ``Content-Length`` (and the codings) as header parameters: as arguments
    the length could contradict the body, and the request could not be sent at all."""
    assert set(probe.tools["post_write"]["inputSchema"]["properties"]) == {"bucket", "body"}
    result = await probe.call("post_write", {"bucket": "b", "body": "cpu load=0.5 1700000000"})
    assert result.get("isError") is not True, result
    [request] = probe.api.requests
    assert request.target == "/write?bucket=b"
    assert request.body == b"cpu load=0.5 1700000000"
    assert request.header("Content-Length") == "23"
    assert request.header("Content-Encoding") is None


async def test_a_file_body_of_a_text_type_is_written_and_sent_as_text(probe: Probe) -> None:
    """A whole body that is a file of a text media type (Azure's PowerShell runbooks, ``format:
    file``) is asked for as text and sent as given: it had been described as base64, which the
    runtime sends undecoded for a text type, and before that as an object, sent as ``{}``."""
    body = probe.tools["replace_runbook_content"]["inputSchema"]["properties"]["body"]
    assert body == {
        "type": "string",
        "contentMediaType": "text/powershell",
        "description": "The request body, as text.",
    }
    script = 'Write-Output "héllo"\n'
    result = await probe.call("replace_runbook_content", {"name": "r1", "body": script})
    assert result.get("isError") is not True, result
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == ("text/powershell", script.encode())


async def test_an_object_body_under_octet_stream_is_json(probe: Probe) -> None:
    """Docker's network connect, as its converted document has it: an object described as
    ``application/octet-stream`` had been refused as "must be a base64 string"."""
    result = await probe.call("network_connect", {"id": "n1", "Container": "c1"})
    assert result.get("isError") is not True, result
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == (
        "application/json",
        b'{"Container":"c1"}',
    )


async def test_bytes_go_with_the_type_a_content_type_parameter_names(probe: Probe) -> None:
    """Docker's build context is declared as octet-stream with a ``Content-type`` header
    parameter that admits only ``application/x-tar``: the bytes go as that."""
    tar = base64.b64encode(b"ustar\x00 context").decode()
    result = await probe.call("image_build", {"body": tar})
    assert result.get("isError") is not True, result
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == (
        "application/x-tar",
        b"ustar\x00 context",
    )


async def test_an_enumerated_accept_is_sent_as_one_of_its_values(probe: Probe) -> None:
    """A server that lists the values of its ``Accept`` header compares it with each (InfluxDB
    answers TOML to anything but exactly ``application/json``): the tool's preferred type goes
    alone, not a list with weights."""
    await probe.call("get_telegraf", {"id": "t1"})
    [request] = probe.api.requests
    assert request.header("Accept") == "application/json"


async def test_structured_data_under_a_media_range_is_asked_for_and_read_as_json(
    probe: Probe,
) -> None:
    """springdoc documents every Spring controller that names no media type as ``*/*``; with
    ``Accept: */*`` Spring answers XML where an XML converter is present. A schema of structured
    data there is JSON: asked for first, and the answer is the tool's structured content."""
    assert set(probe.tools["get_owner"]["outputSchema"]["properties"]) == {"id", "name"}
    probe.api.reply(200, b'{"id":7,"name":"Ada"}', {"Content-Type": "application/json"})
    result = await probe.call("get_owner", {"id": 7})
    [request] = probe.api.requests
    assert request.header("Accept") == "application/json, */*;q=0.9"
    assert (result.get("isError", False), result["structuredContent"]) == (
        False,
        {"id": 7, "name": "Ada"},
    )


async def test_a_required_content_type_goes_also_without_a_body(probe: Probe) -> None:
    """A required ``Content-Type`` header parameter is not an argument (OpenAPI ignores it), but
    the type it names goes with a request sent without a body (Google Home's "an empty-body POST
    returns the current value"; a validator in front of the API refuses it without the header)."""
    await probe.call("do_not_disturb", {})
    await probe.call("do_not_disturb", {"notifications_enabled": False})
    empty, full = probe.api.requests
    assert (empty.header("Content-Type"), empty.body) == ("application/json", b"")
    assert (full.header("Content-Type"), full.body) == (
        "application/json",
        b'{"notifications_enabled":false}',
    )


def _parts(request: Any) -> list[bytes]:
    """The parts of a multipart request, each with its headers, boundaries taken away."""
    content_type = request.header("Content-Type") or ""
    boundary = content_type.removeprefix("multipart/form-data; boundary=").encode()
    assert request.body.endswith(b"--" + boundary + b"--\r\n")
    return [p.strip(b"\r\n") for p in request.body.split(b"--" + boundary)[1:-1]]


async def test_an_unnamed_multipart_body_is_sent_as_one_named_field(probe: Probe) -> None:
    """Jira's multipart bodies that are a list (``PUT /filter/{id}/columns``: "specify each field
    as columns=id") or a file (attachments) name no field: the list goes as repeated fields named
    after the path's last word, the file as the part ``file``; a field with no name ("") is what
    they had been sent as."""
    await probe.call("set_columns", {"id": 3, "columns": ["summary", "status"]})
    await probe.call("add_attachment", {"key": "ABC-1", "file": base64.b64encode(PNG).decode()})
    columns, attachment = probe.api.requests
    assert _parts(columns) == [
        b'Content-Disposition: form-data; name="columns"\r\n\r\nsummary',
        b'Content-Disposition: form-data; name="columns"\r\n\r\nstatus',
    ]
    assert _parts(attachment) == [
        b'Content-Disposition: form-data; name="file"; filename="file.png"\r\n'
        b"Content-Type: image/png\r\n\r\n" + PNG
    ]


async def test_multipart_parts_carry_their_encoding(probe: Probe) -> None:
    file = probe.tools["post_document"]["inputSchema"]["properties"]["file"]
    assert (file["contentMediaType"], file["contentEncoding"]) == ("image/png", "base64")
    arguments = {"meta": {"a": 1}, "file": base64.b64encode(PNG).decode(), "note": "hi"}
    assert "isError" not in await probe.call("post_document", arguments)
    [request] = probe.api.requests
    content_type = request.header("Content-Type") or ""
    boundary = content_type.removeprefix("multipart/form-data; boundary=").encode()
    assert request.body == (
        b"--" + boundary + b'\r\nContent-Disposition: form-data; name="meta"\r\n'
        b'Content-Type: application/json\r\n\r\n{"a":1}\r\n'
        b"--" + boundary + b'\r\nContent-Disposition: form-data; name="file"; '
        b'filename="file.png"\r\nContent-Type: image/png\r\nX-Origin: probe\r\n\r\n' + PNG + b"\r\n"
        b"--" + boundary + b'\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n'
        b"--" + boundary + b"--\r\n"
    )


async def test_an_integer_given_for_a_64_bit_number_written_as_a_string_goes_as_its_text(
    probe: Probe,
) -> None:
    """``type: string, format: int64`` (protobuf's JSON, Google's APIs, etcd): a model reads a
    number and writes one; it had been refused ("10 is not of type 'string'"). Its decimal text
    is what the string holds; any other string still takes no number."""
    arguments = {"revision": 7, "key": "a", "limit": 10, "leases": [1, "2"], "min_mod": 3}
    result = await probe.call("range", arguments)
    assert result.get("isError") is not True, result
    refused = await probe.call("range", {"key": 5, "limit": 1})
    assert refused["isError"] is True
    assert refused["content"][0]["text"] == (
        "Invalid arguments for tool 'range':\n- key: 5 is not of type \"string\""
    )
    [request] = probe.api.requests
    assert (request.target, request.body) == (
        "/v3/kv/range?revision=7",
        b'{"key":"a","limit":"10","leases":["1","2"],"min_mod":"3"}',
    )


async def test_a_parameter_given_as_another_type_of_the_same_text_is_sent_as_that_text(
    probe: Probe,
) -> None:
    """changedetection.io lists a page's snapshots as an object whose keys are their timestamps;
    a model passes one on as "1796389847" where the path takes an integer (or "previous"), and
    ``true`` where the query takes "1" or "true": both had been refused, though the API gets the
    same bytes either way. A parameter's value is taken as the value of another type that is sent
    as the very same text; a body's field is not (there the type is on the wire)."""
    arguments = {
        "uuid": "w1",
        "from_timestamp": "1796389847",
        "to_timestamp": "latest",
        "recheck": True,
        "lines": ["3", 4],
        "X-Word-Diff": "false",
        "ratio": "0.5",
    }
    result = await probe.call("diff", arguments)
    assert result.get("isError") is not True, result["content"]
    [request] = probe.api.requests
    assert request.target == (
        "/watch/w1/difference/1796389847/latest?recheck=true&lines=3&lines=4&ratio=0.5"
    )
    assert request.header("X-Word-Diff") == "false"
    # another text is another value: refused as before, and so is a body's string
    for given, issue in (
        ({"from_timestamp": "017"}, 'from_timestamp: "017" is none of: integer; "previous"'),
        ({"ratio": "1e3"}, 'ratio: "1e3" is not of type "number"'),
        ({"context": "3"}, 'context: "3" is not of type "integer"'),
    ):
        refused = await probe.call(
            "diff", {"uuid": "w1", "from_timestamp": 1, "to_timestamp": 2, **given}
        )
        assert refused.get("isError") is True, given
        assert refused["content"][0]["text"] == f"Invalid arguments for tool 'diff':\n- {issue}"
    assert len(probe.api.requests) == 1


async def test_one_value_where_a_list_is_asked_is_sent_as_the_list_of_it(probe: Probe) -> None:
    """NetBox's filters are exploded lists; a model writes ``"status": "active"``, which goes as
    the very same ``status=active`` as ``["active"]``, and had been refused "not of type array"."""
    arguments = {"uuid": "w1", "from_timestamp": 1, "to_timestamp": 2}
    for given in (3, "3", [3]):
        result = await probe.call("diff", {**arguments, "lines": given})
        assert result.get("isError") is not True, result["content"]
    assert {request.target for request in probe.api.requests} == {
        "/watch/w1/difference/1/2?lines=3"
    }
    assert len(probe.api.requests) == 3


async def test_a_form_field_given_as_another_type_of_the_same_text_is_sent_as_that_text(
    probe: Probe,
) -> None:
    """A form body's fields travel as text too (Stripe's, Twilio's): "500" for an integer amount,
    42 for a string id, "true" for a boolean go as the same bytes they would as the right type."""
    arguments = {"amount": "500", "charge": 42, "instant": "true"}
    result = await probe.call("create_refund", arguments)
    assert result.get("isError") is not True, result["content"]
    [request] = probe.api.requests
    assert request.body == b"amount=500&charge=42&instant=true"
    # a field written as JSON is no text: its type is on the wire
    refused = await probe.call("create_refund", {"meta": "7"})
    assert refused["content"][0]["text"] == (
        'Invalid arguments for tool \'create_refund\':\n- meta: "7" is not of type "object"'
    )


async def test_a_body_with_a_file_goes_as_multipart_where_json_and_a_form_are_offered_too(
    probe: Probe,
) -> None:
    """Pulp's upload offers JSON, a form and multipart (drf-spectacular lists every parser); the
    form, preferred, sent the file as its base64 text: "The submitted data was not a file"."""
    arguments = {"relative_path": "notes/a.txt", "file": base64.b64encode(PNG).decode()}
    assert "isError" not in await probe.call("content_file_files_create", arguments)
    [request] = probe.api.requests
    assert _parts(request) == [
        b'Content-Disposition: form-data; name="relative_path"\r\n\r\nnotes/a.txt',
        b'Content-Disposition: form-data; name="file"; filename="file.png"\r\n'
        b"Content-Type: image/png\r\n\r\n" + PNG,
    ]


async def test_a_body_that_could_carry_a_file_goes_as_json_when_no_file_is_given(
    probe: Probe,
) -> None:
    """Nautobot's device type offers JSON and multipart (for its optional images); without an
    image, multipart sent ``manufacturer: {"name": "Juniper"}`` as a part of JSON, which Django
    REST framework reads as the string it is ("Related object not found ... {'name': '{...}'}")."""
    arguments = {"relative_path": "notes/a.txt", "pulp_labels": {"team": "ops"}}
    assert "isError" not in await probe.call("content_file_files_create", arguments)
    [request] = probe.api.requests
    assert request.header("Content-Type") == "application/json"
    assert request.body == b'{"relative_path":"notes/a.txt","pulp_labels":{"team":"ops"}}'


async def test_an_object_part_behind_a_reference_is_json(probe: Probe) -> None:
    """Zeno's ``podcast`` part is ``$ref: Podcast``, an object: it went with no Content-Type,
    which a Spring ``@RequestPart`` refuses (it parses a part as JSON by its type)."""
    arguments = {"podcast": {"id": 7}, "tags": [{"id": 1}]}
    assert "isError" not in await probe.call("create_podcast", arguments)
    [request] = probe.api.requests
    boundary = (request.header("Content-Type") or "").removeprefix("multipart/form-data; boundary=")
    assert (
        request.body
        == (
            f'--{boundary}\r\nContent-Disposition: form-data; name="podcast"\r\n'
            'Content-Type: application/json\r\n\r\n{"id":7}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="tags"\r\n'
            'Content-Type: application/json\r\n\r\n[{"id":1}]\r\n'
            f"--{boundary}--\r\n"
        ).encode()
    )


async def test_a_number_or_a_boolean_part_is_plain_text(probe: Probe) -> None:
    """OpenAPI's default for a primitive part is text/plain: a boolean, a (nullable) integer or one
    behind a $ref goes as a plain form field, as ``curl -F`` sends it; Superset's dashboard import
    (``overwrite: boolean``) had it labelled JSON, which a server may read as a file."""
    arguments = {"podcast": {"id": 7}, "overwrite": True, "episodes": 12, "n": 3}
    assert "isError" not in await probe.call("create_podcast", arguments)
    [request] = probe.api.requests
    assert _parts(request) == [
        b'Content-Disposition: form-data; name="podcast"\r\n'
        b'Content-Type: application/json\r\n\r\n{"id":7}',
        b'Content-Disposition: form-data; name="overwrite"\r\n\r\ntrue',
        b'Content-Disposition: form-data; name="episodes"\r\n\r\n12',
        b'Content-Disposition: form-data; name="n"\r\n\r\n3',
    ]


async def test_a_string_part_whose_format_is_a_media_type_is_a_file(probe: Probe) -> None:
    """apispec writes a marshmallow file field as ``{type: string, format: text/csv}`` (Superset's
    CSV upload): a file of that type, its text given as is; a format that is no media type
    (``dd/mm``) leaves a part a plain field."""
    schema = probe.tools["upload_table"]["inputSchema"]["properties"]
    assert schema["file"] == {
        "type": "string",
        "contentMediaType": "text/csv",
        "description": "File content, as text.",
    }
    assert schema["when"] == {"type": "string", "format": "dd/mm"}
    arguments = {"pk": 1, "file": "id,name\n1,Rex\n", "table_name": "pets", "when": "03/12"}
    assert "isError" not in await probe.call("upload_table", arguments)
    [request] = probe.api.requests
    boundary = (request.header("Content-Type") or "").removeprefix("multipart/form-data; boundary=")
    assert (
        request.body
        == (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="file.csv"\r\n'
            "Content-Type: text/csv\r\n\r\nid,name\n1,Rex\n\r\n"
            f'--{boundary}\r\nContent-Disposition: form-data; name="table_name"\r\n\r\npets\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="when"\r\n\r\n03/12\r\n'
            f"--{boundary}--\r\n"
        ).encode()
    )


async def test_a_swagger_authorization_header_becomes_a_credential(
    tmp_path: Path, api: FakeApi
) -> None:
    legacy = Probe(tmp_path, SWAGGER, api, AUTHORIZATION_KEY="Token abc123")
    try:
        # no argument but the selection every read tool takes
        assert list(legacy.tools["get_me"]["inputSchema"]["properties"]) == ["_select"]
        assert "isError" not in await legacy.call("get_me", {})
    finally:
        await legacy.server.aclose()
    assert api.requests[0].header("Authorization") == "Token abc123"


@pytest.mark.parametrize("shared", [False, True])
async def test_an_openapi_3_authorization_header_with_no_scheme_is_a_credential(
    tmp_path: Path, api: FakeApi, shared: bool
) -> None:
    """A 3.x document converted from 2.0 (APIs.guru's) or written in its habit declares the header
    as a parameter and no security scheme: 3.x ignores it, which left no way to authenticate; it
    is read as 2.0's is."""
    header = {
        "name": "Authorization",
        "in": "header",
        "required": True,
        "schema": {"type": "string"},
    }
    parameter = {"$ref": "#/components/parameters/Auth"} if shared else header
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Stations", "version": "1"},
        "servers": [{"url": "https://stations.example"}],
        "paths": {
            "/stations": {
                "get": {"operationId": "searchStations", "parameters": [parameter], "responses": OK}
            }
        },
        "components": {"parameters": {"Auth": header}},
    }
    served = Probe(tmp_path, document, api, AUTHORIZATION_KEY="Bearer s3cret")
    try:
        assert list(served.tools["search_stations"]["inputSchema"]["properties"]) == ["_select"]
        assert "isError" not in await served.call("search_stations", {})
    finally:
        await served.server.aclose()
    assert api.requests[0].header("Authorization") == "Bearer s3cret"


async def test_an_explicit_null_whole_json_body_is_sent_as_null(probe: Probe) -> None:
    result = await probe.call("patch_config", {"body": None})
    assert "isError" not in result, result
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == (
        "application/merge-patch+json",
        b"null",
    )


async def test_a_required_exploded_array_needs_an_item(probe: Probe) -> None:
    """An empty exploded array sends no name at all: the required parameter would be missing."""
    status = probe.tools["find_pets"]["inputSchema"]["properties"]["status"]
    assert status["minItems"] == 1
    refused = await probe.call("find_pets", {"status": []})
    assert refused["isError"] is True and probe.api.requests == []


async def test_a_required_list_written_with_commas_needs_an_item_too(probe: Probe) -> None:
    """App Store Connect's required ``filter[vendorNumber]`` (not exploded): an empty list sends
    ``filter[vendorNumber]=``, a filter with no value."""
    schema = probe.tools["sales_reports"]["inputSchema"]["properties"]["filter_vendorNumber"]
    assert schema["minItems"] == 1
    await probe.call("sales_reports", {"filter_vendorNumber": ["8", "9"]})
    [request] = probe.api.requests
    assert request.target == "/salesReports?filter[vendorNumber]=8,9"


async def test_a_string_described_as_json_content_is_sent_unquoted(probe: Probe) -> None:
    """Stream's path ids are JSON content whose schema is a string: as JSON they went quoted
    (``/channels/%22messaging%22/...``); an object stays JSON."""
    arguments = {"type": "messaging", "id": "general", "url": "https://cdn.example/a b.png"}
    await probe.call("delete_file", {**arguments, "where": {"a": 1}})
    [request] = probe.api.requests
    assert request.target == (
        "/channels/messaging/general/file?url=https%3A%2F%2Fcdn.example%2Fa%20b.png"
        "&where=%7B%22a%22%3A1%7D"
    )


async def test_a_multipart_body_behind_a_ref_keeps_no_reference_to_the_spec(probe: Probe) -> None:
    schema = probe.tools["edit_image"]["inputSchema"]
    assert "#/components/" not in json.dumps(schema)
    assert schema["properties"]["n"] == {"type": "integer", "minimum": 1, "maximum": 10}


async def test_a_body_without_schema_under_a_media_range_is_bytes(probe: Probe) -> None:
    body = probe.tools["upload"]["inputSchema"]["properties"]["body"]
    assert body["contentEncoding"] == "base64"
    await probe.call("upload", {"body": base64.b64encode(PNG).decode()})
    [request] = probe.api.requests
    assert (request.header("Content-Type"), request.body) == ("image/png", PNG)


async def test_form_fields_and_files_written_as_in_swagger_2_reach_the_api(
    tmp_path: Path, api: FakeApi
) -> None:
    """Kitsu's Zou (flasgger, OpenAPI 3.0.2) sends a comment's reply and its attachments as
    ``in: formData`` parameters, which 3.0 does not have: both operations had been skipped. They
    go as the form and the multipart body Swagger 2.0 means."""
    task = {"in": "path", "name": "task", "required": True, "type": "string", "format": "uuid"}
    document = {
        "openapi": "3.0.2",
        "info": {"title": "Kitsu", "version": "1"},
        "servers": [{"url": "https://kitsu.example"}],
        "paths": {
            "/tasks/{task}/reply": {
                "post": {
                    "operationId": "reply",
                    "parameters": [task, {"in": "formData", "name": "text", "type": "string"}],
                    "responses": OK,
                }
            },
            "/tasks/{task}/attachments": {
                "post": {
                    "operationId": "attach",
                    "parameters": [
                        task,
                        {"in": "formData", "name": "files", "type": "file", "required": True},
                    ],
                    "responses": OK,
                }
            },
        },
    }
    served = Probe(tmp_path, document, api)
    task_id = "a24a6ea4-ce75-4665-a070-57453082c250"
    try:
        replied = await served.call("reply", {"task": task_id, "text": "On it & done"})
        attached = await served.call(
            "attach", {"task": task_id, "files": base64.b64encode(PNG).decode()}
        )
    finally:
        await served.server.aclose()
    assert "isError" not in replied and "isError" not in attached, (replied, attached)
    reply, attachment = api.requests
    assert (reply.target, reply.header("Content-Type"), reply.body) == (
        f"/tasks/{task_id}/reply",
        "application/x-www-form-urlencoded",
        b"text=On+it+%26+done",
    )
    assert _parts(attachment) == [
        b'Content-Disposition: form-data; name="files"; filename="files.png"\r\n'
        b"Content-Type: image/png\r\n\r\n" + PNG
    ]
