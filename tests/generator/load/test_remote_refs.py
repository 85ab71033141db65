"""``$ref``s to http(s) URLs with ``--allow-remote-refs``: fetched once, resolved relative to their URL.

The kit's recording upstream on 127.0.0.1 serves the referenced documents and records every request.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from textwrap import dedent

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.diagnostics import Report
from openapi2mcp.ir.model import Api, Parameter
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.load.reading import RemoteFetcher, load_source
from tests.kit.upstream import RecordingUpstream, Reply, Request


class Site(RecordingUpstream):
    """The kit's recording upstream answering ``routes`` (path → status, headers, body), else 404."""

    def __init__(self) -> None:
        super().__init__()
        self.routes: dict[str, tuple[int, dict[str, str], bytes]] = {}
        self.delay = 0.0

    @property
    def paths(self) -> list[str]:
        """The request targets it was asked for, in arrival order."""
        return [request.target for request in self.requests]

    def file(self, path: str, text: str) -> None:
        self.routes[path] = (200, {"Content-Type": "application/yaml"}, dedent(text).encode())

    def answer(self, request: Request) -> Reply:
        if self.delay:
            time.sleep(self.delay)
        status, headers, body = self.routes.get(request.target, (404, {}, b"not found"))
        return Reply(status, body, tuple(headers.items()))


@pytest.fixture
def site() -> Iterator[Site]:
    with Site() as running:
        yield running


HEAD = (
    "openapi: 3.0.3\ninfo: {title: T, version: '1'}\nservers: [{url: 'https://api.example.com'}]\n"
)


def write_spec(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "openapi.yaml"
    path.write_text(HEAD + dedent(body))
    return path


def parse(
    path: Path, *, allow: bool = True, fetcher: RemoteFetcher | None = None
) -> tuple[Api, Report]:
    doc = load_source(str(path), allow_remote_refs=allow)
    if fetcher is not None:
        doc = replace(doc, remote=fetcher)
    report = Report()
    return parse_api(doc, report), report


def where(report: Report) -> list[tuple[str, str, str]]:
    return [(d.code, d.pointer, d.message) for d in report.diagnostics]


def test_remote_documents_are_fetched_once_and_resolved_against_their_url(
    tmp_path: Path, site: Site
) -> None:
    site.file(
        "/specs/schemas/pet.yaml",
        """\
        type: object
        properties:
          tag: {$ref: 'tag.yaml'}
          owner: {$ref: '../common.yaml#/Owner'}
          name: {$ref: '#/Name'}
        Name: {type: string, maxLength: 20}
        """,
    )
    site.file("/specs/schemas/tag.yaml", "{type: string, enum: [a, b]}")
    site.file(
        "/specs/common.yaml",
        """\
        Owner: {type: object, properties: {pet: {$ref: 'schemas/pet.yaml'}}}
        limit: {name: limit, in: query, schema: {$ref: '#/Limit'}}
        Limit: {type: integer, maximum: 10}
        """,
    )
    spec = write_spec(
        tmp_path,
        f"""\
        paths:
          /pets:
            get:
              operationId: listPets
              parameters: [{{$ref: '{site.url}/specs/common.yaml#/limit'}}]
              responses:
                '200':
                  description: ok
                  content:
                    application/json: {{schema: {{$ref: '{site.url}/specs/schemas/pet.yaml'}}}}
          /owners:
            get:
              operationId: listOwners
              responses:
                '200':
                  description: ok
                  content:
                    application/json: {{schema: {{$ref: '{site.url}/specs/common.yaml#/Owner'}}}}
        """,
    )
    api, report = parse(spec)
    assert where(report) == []
    list_pets, list_owners = api.operations
    assert list_pets.parameters == (
        Parameter(
            name="limit",
            location="query",
            required=False,
            schema={"$ref": "#/$defs/Limit"},
            style="form",
            explode=True,
        ),
    )
    assert list_pets.response is not None and list_owners.response is not None
    assert list_pets.response.schema == {"$ref": "#/$defs/pet"}
    assert list_owners.response.schema == {"$ref": "#/$defs/Owner"}
    assert api.output_schemas == {
        "pet": {
            "type": "object",
            "properties": {
                "tag": {"$ref": "#/$defs/tag"},
                "owner": {"$ref": "#/$defs/Owner"},
                "name": {"$ref": "#/$defs/Name"},
            },
        },
        "Owner": {"type": "object", "properties": {"pet": {"$ref": "#/$defs/pet"}}},
        "tag": {"type": "string", "enum": ["a", "b"]},
        "Limit": {"type": "integer", "maximum": 10},
        "Name": {"type": "string", "maxLength": 20},
    }
    assert sorted(site.paths) == [
        "/specs/common.yaml",
        "/specs/schemas/pet.yaml",
        "/specs/schemas/tag.yaml",
    ]


def test_reference_cycles_across_remote_documents_are_detected(tmp_path: Path, site: Site) -> None:
    site.file("/a.yaml", "A: {$ref: 'b.yaml#/B'}\nP: {$ref: 'b.yaml#/Q'}\n")
    site.file("/b.yaml", "B: {$ref: 'a.yaml#/A'}\nQ: {$ref: 'a.yaml#/P'}\n")
    spec = write_spec(
        tmp_path,
        f"""\
        paths:
          /loop:
            get:
              operationId: loop
              parameters: [{{$ref: '{site.url}/a.yaml#/P'}}]
              responses: {{'204': {{description: done}}}}
          /alias:
            post:
              operationId: alias
              requestBody:
                content:
                  application/json: {{schema: {{$ref: '{site.url}/a.yaml#/A'}}}}
              responses: {{'204': {{description: done}}}}
        """,
    )
    api, report = parse(spec)
    assert [(op.key, op.parameters) for op in api.operations] == [("loop", ()), ("alias", ())]
    assert [(code, pointer) for code, pointer, _ in where(report)] == [
        ("ref-cycle", f"{site.url}/b.yaml#/Q"),
        ("param-unresolved", "#/paths/~1loop/get/parameters/0"),
        ("ref-cycle", f"{site.url}/b.yaml#/B"),
    ]
    assert sorted(site.paths) == ["/a.yaml", "/b.yaml"]


def test_failures_are_warnings_and_each_url_is_tried_once(tmp_path: Path, site: Site) -> None:
    site.routes["/moved.yaml"] = (302, {"Location": "/schemas/s.yaml"}, b"")
    site.routes["/away.yaml"] = (302, {"Location": "file:///etc/passwd"}, b"")
    site.routes["/big.yaml"] = (200, {}, b"type: string\n" + b"#" * 2000)
    site.routes["/bad.yaml"] = (200, {}, b"a: [1\n")
    site.file("/schemas/s.yaml", "{type: integer}")
    refs = ["moved", "missing", "away", "big", "bad", "missing"]
    properties = ", ".join(f"p{i}: {{$ref: '{site.url}/{n}.yaml'}}" for i, n in enumerate(refs))
    spec = write_spec(
        tmp_path,
        f"""\
        paths:
          /a:
            post:
              operationId: a
              requestBody:
                content:
                  application/json: {{schema: {{type: object, properties: {{{properties}}}}}}}
              responses: {{'204': {{description: done}}}}
        """,
    )
    api, report = parse(spec, fetcher=RemoteFetcher(max_bytes=1000))
    body = api.operations[0].body
    assert body is not None
    assert body.schema["properties"] == {
        "p0": {"$ref": "#/$defs/moved"},
        "p1": {},
        "p2": {},
        "p3": {},
        "p4": {},
        "p5": {},
    }
    assert api.input_schemas == {"moved": {"type": "integer"}}
    at = "#/paths/~1a/post/requestBody/content/application~1json/schema/properties"
    found = where(report)
    assert found[:4] == [
        (
            "ref-fetch-failed",
            f"{at}/p1",
            f"$ref '{site.url}/missing.yaml': {site.url}/missing.yaml answered HTTP 404",
        ),
        (
            "ref-fetch-failed",
            f"{at}/p2",
            f"$ref '{site.url}/away.yaml': file:///etc/passwd is not an http(s) URL",
        ),
        (
            "ref-fetch-failed",
            f"{at}/p3",
            f"$ref '{site.url}/big.yaml': {site.url}/big.yaml is larger than 1,000 bytes",
        ),
        ("ref-file-invalid", f"{at}/p4", found[3][2]),
    ]
    assert found[3][2].startswith(f"$ref '{site.url}/bad.yaml': {site.url}/bad.yaml is not valid")
    # like an unreadable file, a URL that failed is reported once and not fetched again
    assert len(found) == 4
    assert sorted(site.paths) == [
        "/away.yaml",
        "/bad.yaml",
        "/big.yaml",
        "/missing.yaml",
        "/moved.yaml",
        "/schemas/s.yaml",
    ]


def test_a_slow_server_times_out(tmp_path: Path, site: Site) -> None:
    site.file("/slow.yaml", "{type: string}")
    site.delay = 1.0
    spec = write_spec(
        tmp_path,
        f"""\
        paths:
          /a:
            get:
              operationId: a
              parameters: [{{name: q, in: query, schema: {{$ref: '{site.url}/slow.yaml'}}}}]
              responses: {{'204': {{description: done}}}}
        """,
    )
    api, report = parse(spec, fetcher=RemoteFetcher(timeout=0.1))
    assert api.operations[0].parameters[0].schema == {}
    assert where(report) == [
        (
            "ref-fetch-failed",
            "#/paths/~1a/get/parameters/0/schema",
            f"$ref '{site.url}/slow.yaml': cannot fetch {site.url}/slow.yaml: ReadTimeout",
        )
    ]


def test_other_url_schemes_are_never_fetched(tmp_path: Path, site: Site) -> None:
    spec = write_spec(
        tmp_path,
        """\
        paths:
          /a:
            get:
              operationId: a
              parameters: [{name: q, in: query, schema: {$ref: 'file:///etc/hosts'}}]
              responses: {'204': {description: done}}
        """,
    )
    _, report = parse(spec)
    assert where(report) == [
        (
            "ref-remote",
            "#/paths/~1a/get/parameters/0/schema",
            "$ref 'file:///etc/hosts' is a URL; only http and https can be fetched",
        )
    ]
    assert site.paths == []


def test_a_swagger_document_can_use_remote_definitions(tmp_path: Path, site: Site) -> None:
    site.file(
        "/defs.yaml",
        """\
        definitions:
          Pet: {type: object, properties: {tag: {$ref: '#/definitions/Tag'}}}
          Tag: {type: string, x-nullable: true}
        """,
    )
    (tmp_path / "swagger.yaml").write_text(
        dedent(
            f"""\
            swagger: "2.0"
            info: {{title: T, version: "1"}}
            host: api.example.com
            paths:
              /pets:
                get:
                  operationId: listPets
                  responses:
                    "200": {{description: ok, schema: {{$ref: '{site.url}/defs.yaml#/definitions/Pet'}}}}
            """
        )
    )
    api, report = parse(tmp_path / "swagger.yaml")
    assert where(report) == []
    assert api.output_schemas == {
        "Pet": {"type": "object", "properties": {"tag": {"$ref": "#/$defs/Tag"}}},
        "Tag": {"type": ["string", "null"]},
    }


def test_the_cli_flag_allows_remote_references(tmp_path: Path, site: Site) -> None:
    site.file("/limit.yaml", "{name: limit, in: query, schema: {type: integer}}")
    spec = write_spec(
        tmp_path,
        f"""\
        paths:
          /a:
            get:
              operationId: listA
              parameters: [{{$ref: '{site.url}/limit.yaml'}}]
              responses: {{'204': {{description: done}}}}
        """,
    )
    refused = CliRunner().invoke(main, ["inspect", str(spec)])
    assert refused.exit_code == 0
    assert "warning[ref-remote]" in refused.output and "--allow-remote-refs" in refused.output
    assert site.paths == []

    allowed = CliRunner().invoke(main, ["inspect", str(spec), "--allow-remote-refs"])
    assert allowed.exit_code == 0, allowed.output
    assert "warning" not in allowed.output
    assert "list_a" in allowed.output
    out = tmp_path / "out"
    generated = CliRunner().invoke(
        main, ["generate", str(spec), "-o", str(out), "--allow-remote-refs"]
    )
    assert generated.exit_code == 0, generated.output
    assert '"name":"limit"' in (out / "src/t_mcp/catalog.json").read_text().replace(" ", "")
    assert site.paths == ["/limit.yaml", "/limit.yaml"]
