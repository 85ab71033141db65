"""multipart/form-data file parts: described as base64 (or text) arguments, sent as real file parts.

Generated from OpenAPI 3.1 (``format: binary``, ``contentMediaType``, ``encoding``) and from Swagger
2.0 (``formData`` parameters of ``type: file``); each call's body is compared byte for byte with the
expected multipart document and read back with the standard library's MIME parser, so the boundary
and every part header are checked by an independent reader too.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from email import message_from_bytes, policy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from templates.runtime.upstream import bodies as upstream_bodies
from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import META, call_tool, server, texts

# bytes a text encoding would mangle: NUL, CR LF, a lone CR, non-UTF-8, and a fake boundary line
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\rIHDR\xff\xfe\r\n--not-the-boundary\r\n"
CSV = "name,qty\r\nbolt,3\r\nnut,é\r\n"
PDF = b"%PDF-1.7\n\x00\x01"

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Gallery", "version": "1.0.0"},
    "servers": [{"url": "https://gallery.example.com/api"}],
    "components": {
        "schemas": {
            "AvatarUpload": {
                "type": "object",
                "required": ["image"],
                "properties": {
                    "image": {"type": "string", "format": "binary", "description": "The picture"},
                    "notes": {"type": "string", "contentMediaType": "text/csv"},
                    "meta": {"type": "object", "properties": {"alt": {"type": "string"}}},
                    "caption": {"type": "string"},
                    "attachments": {
                        "type": "array",
                        "items": {"type": "string", "format": "binary"},
                    },
                },
            }
        }
    },
    "paths": {
        "/avatars": {
            "post": {
                "operationId": "uploadAvatar",
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {"$ref": "#/components/schemas/AvatarUpload"},
                            "encoding": {
                                "image": {"contentType": "image/png, image/jpeg"},
                                "meta": {"contentType": "application/json"},
                            },
                        }
                    },
                },
                "responses": {"204": {"description": "stored"}},
            }
        },
        "/bundles": {
            "post": {
                "operationId": "uploadBundle",
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            # open-ended: the whole body is one argument, its file part still a file
                            "schema": {
                                "type": "object",
                                "properties": {"archive": {"type": "string", "format": "binary"}},
                                "additionalProperties": {"type": "string"},
                            },
                            "encoding": {"archive": {"contentType": "application/zip"}},
                        }
                    },
                },
                "responses": {"204": {"description": "stored"}},
            }
        },
    },
}

SWAGGER: dict[str, Any] = {
    "swagger": "2.0",
    "info": {"title": "Scanner", "version": "1.0.0"},
    "host": "scanner.example.com",
    "basePath": "/v1",
    "schemes": ["https"],
    "paths": {
        "/scans": {
            "post": {
                "operationId": "scan",
                "consumes": ["multipart/form-data"],
                "parameters": [
                    {"name": "document", "in": "formData", "type": "file", "required": True},
                    {"name": "language", "in": "formData", "type": "string"},
                ],
                "responses": {"204": {"description": "queued"}},
            }
        }
    },
}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("multipart"), SPEC, "gallery-mcp")


@pytest.fixture(scope="module")
def catalog(package: Path) -> dict[str, Any]:
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        yield fake


async def _call(
    catalog: dict[str, Any], upstream: fs.FaultServer, prefix: str, tool: str, args: Any
) -> dict[str, Any]:
    env = {f"{prefix}_BASE_URL": upstream.url + "/api", f"{prefix}_RETRIES": "0"}
    srv = server(catalog, env)  # type: ignore[arg-type]
    try:
        return await call_tool(srv, tool, args)
    finally:
        await srv.aclose()


def _boundary(seen: fs.Seen) -> str:
    media, _, boundary = seen.headers["content-type"].partition("; boundary=")
    assert media == "multipart/form-data" and len(boundary) == 32
    return boundary


def _document(boundary: str, *parts: tuple[str, bytes]) -> bytes:
    """The multipart body: each part's header lines after ``form-data`` and its content."""
    chunks = [
        f"--{boundary}\r\nContent-Disposition: form-data{head}\r\n\r\n".encode() + data + b"\r\n"
        for head, data in parts
    ]
    return b"".join(chunks) + f"--{boundary}--\r\n".encode()


def _mime_parts(seen: fs.Seen) -> list[tuple[str | None, str | None, str, bytes]]:
    """(name, filename, content type, content) of each part, read by the stdlib MIME parser."""
    raw = f"Content-Type: {seen.headers['content-type']}\r\n\r\n".encode() + seen.body
    message = message_from_bytes(raw, policy=policy.HTTP)
    assert message.is_multipart() and not message.defects
    found = []
    for part in message.iter_parts():
        data = part.get_payload(decode=True)
        assert isinstance(data, bytes)
        found.append(
            (
                part.get_param("name", header="content-disposition"),  # type: ignore[arg-type]
                part.get_filename(),
                part.get_content_type(),
                data,
            )
        )
    return found


FILE_NOTE = "File content, base64-encoded or as a data URL (data:<type>;name=<file name>;base64,…)."


def test_file_properties_are_described_as_base64_or_text(catalog: dict[str, Any]) -> None:
    tools = {tool["name"]: tool for tool in catalog["tools"]}
    properties = tools["upload_avatar"]["inputSchema"]["properties"]
    assert properties["image"] == {
        "type": "string",
        "description": "The picture. " + FILE_NOTE,
        "contentMediaType": "image/png",
        "contentEncoding": "base64",
    }
    assert properties["notes"] == {
        "type": "string",
        "contentMediaType": "text/csv",
        "description": "File content, as text.",
    }
    assert properties["attachments"]["items"] == {
        "type": "string",
        "contentMediaType": "application/octet-stream",
        "contentEncoding": "base64",
        "description": FILE_NOTE,
    }
    assert properties["caption"] == {"type": "string"}
    bundle = tools["upload_bundle"]["inputSchema"]["properties"]["body"]
    assert bundle["properties"]["archive"]["contentEncoding"] == "base64"
    assert catalog["operations"]["uploadAvatar"]["body"]["parts"] == {
        "image": {"contentType": "image/png", "file": True, "base64": True},
        "notes": {"contentType": "text/csv", "file": True, "base64": False},
        "meta": {"contentType": "application/json", "file": False, "base64": False},
        "attachments": {"contentType": "application/octet-stream", "file": True, "base64": True},
    }


async def test_files_fields_and_json_parts_on_the_wire(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    arguments = {
        "caption": "me, at the beach",
        "attachments": [
            _b64(b"\x00\x01"),
            # a text file in base64, unnamed: named by its kind, which an upload filter checks
            # (Evidently's dataset upload refused "attachments": "Extension not allowed")
            _b64(CSV.encode()),
            "data:application/pdf;base64," + _b64(PDF),
            # a data URL may name the file (percent-encoded; what climbs out of a folder dropped)
            "data:application/pdf;name=..%2FQ3%20report%20%22final%22.pdf;base64," + _b64(PDF),
            # a folder's file keeps its relative path, as a browser sends it
            "data:text/markdown;name=C:%5C..%5Climerick/./SKILL.md;base64," + _b64(b"# Hi"),
        ],
        "image": _b64(PNG),
        "notes": CSV,
        "meta": {"alt": "a portrait"},
    }
    reply = await _call(catalog, upstream, "GALLERY", "upload_avatar", arguments)
    assert reply["result"].get("isError", False) is False, texts(reply)
    (seen,) = upstream.requests
    assert (seen.method, seen.target) == ("POST", "/api/avatars")
    boundary = _boundary(seen)
    # in the spec's property order, one part per item of a list
    assert seen.body == _document(
        boundary,
        ('; name="image"; filename="image.png"\r\nContent-Type: image/png', PNG),
        ('; name="notes"; filename="notes.csv"\r\nContent-Type: text/csv', CSV.encode()),
        ('; name="meta"\r\nContent-Type: application/json', b'{"alt":"a portrait"}'),
        ('; name="caption"', b"me, at the beach"),
        (
            '; name="attachments"; filename="attachments"\r\n'
            "Content-Type: application/octet-stream",
            b"\x00\x01",
        ),
        (
            '; name="attachments"; filename="attachments.csv"\r\nContent-Type: text/csv',
            CSV.encode(),
        ),
        # a data: URL says what an octet-stream part really holds
        ('; name="attachments"; filename="attachments.pdf"\r\nContent-Type: application/pdf', PDF),
        (
            '; name="attachments"; filename="Q3 report %22final%22.pdf"\r\n'
            "Content-Type: application/pdf",
            PDF,
        ),
        (
            '; name="attachments"; filename="limerick/SKILL.md"\r\nContent-Type: text/markdown',
            b"# Hi",
        ),
    )
    assert int(seen.headers["content-length"]) == len(seen.body)
    assert _mime_parts(seen) == [
        ("image", "image.png", "image/png", PNG),
        ("notes", "notes.csv", "text/csv", CSV.encode()),
        ("meta", None, "application/json", b'{"alt":"a portrait"}'),
        ("caption", None, "text/plain", b"me, at the beach"),
        ("attachments", "attachments", "application/octet-stream", b"\x00\x01"),
        ("attachments", "attachments.csv", "text/csv", CSV.encode()),
        ("attachments", "attachments.pdf", "application/pdf", PDF),
        ("attachments", "Q3 report %22final%22.pdf", "application/pdf", PDF),
        ("attachments", "limerick/SKILL.md", "text/markdown", b"# Hi"),
    ]


async def test_a_whole_body_argument_keeps_its_file_parts(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    body = {"label": "q3", "archive": _b64(b"PK\x03\x04")}
    reply = await _call(catalog, upstream, "GALLERY", "upload_bundle", {"body": body})
    assert reply["result"].get("isError", False) is False, texts(reply)
    (seen,) = upstream.requests
    assert seen.body == _document(
        _boundary(seen),
        ('; name="label"', b"q3"),
        (
            '; name="archive"; filename="archive.zip"\r\nContent-Type: application/zip',
            b"PK\x03\x04",
        ),
    )


async def test_the_boundary_never_occurs_in_a_part(
    catalog: dict[str, Any], upstream: fs.FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = "b" * 32
    candidates = iter([taken, "c" * 32])
    monkeypatch.setattr(
        upstream_bodies, "secrets", SimpleNamespace(token_hex=lambda _: next(candidates))
    )
    arguments = {"image": _b64(b"--" + taken.encode() + b"--\r\n")}
    await _call(catalog, upstream, "GALLERY", "upload_avatar", arguments)
    (seen,) = upstream.requests
    assert _boundary(seen) == "c" * 32
    assert _mime_parts(seen)[0][3] == b"--" + taken.encode() + b"--\r\n"


async def test_a_file_that_is_not_base64_is_refused_before_sending(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    reply = await _call(catalog, upstream, "GALLERY", "upload_avatar", {"image": "not base64!"})
    assert reply["result"]["isError"] is True
    assert texts(reply) == "argument 'image' is not valid base64"
    assert upstream.requests == []


async def test_swagger_formdata_files_become_file_parts(
    tmp_path: Path, upstream: fs.FaultServer
) -> None:
    package = generate_package(tmp_path, SWAGGER, "scanner-mcp")
    catalog = read_catalog(package)
    (tool,) = catalog["tools"]
    assert tool["inputSchema"]["properties"]["document"]["contentEncoding"] == "base64"
    arguments = {"document": _b64(PDF), "language": "de"}
    reply = await _call(catalog, upstream, "SCANNER", "scan", arguments)
    assert reply["result"].get("isError", False) is False, texts(reply)
    (seen,) = upstream.requests
    assert seen.target == "/api/scans"
    assert seen.body == _document(
        _boundary(seen),
        (
            # a PDF's first bytes say what Swagger's type: file does not
            '; name="document"; filename="document.pdf"\r\nContent-Type: application/pdf',
            PDF,
        ),
        ('; name="language"', b"de"),
    )


def test_the_generated_package_uploads_over_stdio(
    package: Path, upstream: fs.FaultServer, tmp_path: Path
) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"_meta": META, "name": "upload_avatar", "arguments": {"image": _b64(PNG)}},
    }
    env = {
        "PYTHONPATH": str(package / "src"),
        "PATH": os.environ.get("PATH", ""),
        "GALLERY_BASE_URL": upstream.url + "/api",
    }
    done = subprocess.run(
        [sys.executable, "-m", "gallery_mcp"],
        input=json.dumps(call).encode() + b"\n",
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["result"].get("isError", False) is False
    (seen,) = upstream.requests
    assert _mime_parts(seen) == [("image", "image.png", "image/png", PNG)]


# FastAPI's optional upload (`file: UploadFile | None = None`) and Strapi's upload, whose object
# field its parser (formidable 2) reads only when the part has no Content-Type of its own
OPTIONAL_FILES: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Flows", "version": "1.0.0"},
    "servers": [{"url": "https://flows.example.com/api"}],
    "paths": {
        "/flows/upload": {
            "post": {
                "operationId": "uploadFlows",
                "requestBody": {
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "file": {
                                        "anyOf": [
                                            {
                                                "type": "string",
                                                "contentMediaType": "application/octet-stream",
                                            },
                                            {"type": "null"},
                                        ],
                                        "title": "File",
                                    },
                                    "meta": {
                                        "type": "object",
                                        "properties": {"name": {"type": "string"}},
                                    },
                                },
                            }
                        }
                    }
                },
                "responses": {"201": {"description": "stored"}},
            }
        }
    },
}


@pytest.mark.parametrize("strapi", [False, True])
async def test_an_optional_file_is_a_file_and_strapi_takes_objects_as_fields(
    tmp_path: Path, upstream: fs.FaultServer, strapi: bool
) -> None:
    spec = (
        {**OPTIONAL_FILES, "x-strapi-config": {"plugins": ["upload"]}} if strapi else OPTIONAL_FILES
    )
    catalog = read_catalog(generate_package(tmp_path, spec, "flows-mcp"))
    (tool,) = catalog["tools"]
    assert tool["inputSchema"]["properties"]["file"] == {
        "anyOf": [
            {
                "type": "string",
                "contentMediaType": "application/octet-stream",
                "contentEncoding": "base64",
                "description": FILE_NOTE,
            },
            {"type": "null"},
        ]
    }
    flow = b'{"name":"echo"}'
    arguments = {"file": "data:application/json;name=flow.json;base64," + _b64(flow)}
    arguments |= {"meta": {"name": "echo"}}
    reply = await _call(catalog, upstream, "FLOWS", "upload_flows", arguments)
    assert reply["result"].get("isError", False) is False, texts(reply)
    meta = ('; name="meta"', b'{"name":"echo"}')
    if not strapi:
        meta = ('; name="meta"\r\nContent-Type: application/json', b'{"name":"echo"}')
    (seen,) = upstream.requests
    assert seen.body == _document(
        _boundary(seen),
        ('; name="file"; filename="flow.json"\r\nContent-Type: application/json', flow),
        meta,
    )
    reply = await _call(catalog, upstream, "FLOWS", "upload_flows", {"file": None})
    assert reply["result"].get("isError", False) is False, texts(reply)
    assert upstream.requests[-1].body == _document(_boundary(upstream.requests[-1]))


# drf-spectacular's bulk-capable create: one object or a list of them, as JSON or multipart
ATTACHMENT = {
    "type": "object",
    "required": ["object_id", "image"],
    "properties": {
        "object_id": {"type": "integer"},
        "name": {"type": "string"},
        "image": {"type": "string", "format": "binary"},
    },
}
UNION = {
    "oneOf": [
        {"$ref": "#/components/schemas/Attachment"},
        {"type": "array", "items": {"$ref": "#/components/schemas/Attachment"}},
    ]
}
BULK: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Inventory", "version": "4.7.3"},
    "servers": [{"url": "https://inventory.example.com/api"}],
    "components": {"schemas": {"Attachment": ATTACHMENT}},
    "paths": {
        "/image-attachments/": {
            "post": {
                "operationId": "image_attachments_create",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": UNION},
                        "multipart/form-data": {"schema": UNION},
                    },
                },
                "responses": {"201": {"description": "made"}},
            }
        }
    },
}


async def test_one_object_of_a_bulk_body_with_its_file_goes_as_multipart(
    tmp_path: Path, upstream: fs.FaultServer
) -> None:
    # NetBox's image attachment: sent as JSON, its image was "not a file" (400)
    catalog = read_catalog(generate_package(tmp_path, BULK, "inventory-mcp"))
    body = {
        "object_id": 1,
        "name": "floor",
        "image": "data:image/png;name=floor.png;base64," + _b64(PNG),
    }
    reply = await _call(catalog, upstream, "INVENTORY", "image_attachments_create", {"body": body})
    assert reply["result"].get("isError", False) is False, texts(reply)
    (seen,) = upstream.requests
    assert seen.body == _document(
        _boundary(seen),
        ('; name="object_id"', b"1"),
        ('; name="name"', b"floor"),
        ('; name="image"; filename="floor.png"\r\nContent-Type: image/png', PNG),
    )
    # a list of them, which a form cannot carry, goes as the JSON beside it
    listed = [{"object_id": 2, "image": "https://example.com/x.png"}]
    reply = await _call(
        catalog, upstream, "INVENTORY", "image_attachments_create", {"body": listed}
    )
    assert upstream.requests[-1].headers["content-type"] == "application/json"
