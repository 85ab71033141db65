"""A generated package used as a typed client: a redirect the operation documents is its answer.

GitHub's archive downloads, Bitbucket's and Discourse's document a ``302`` whose ``Location`` is
the thing asked for; the MCP tool reports it as a success, and the typed function of
``operations.py`` returns where it points (its return type says it may) instead of raising
``ApiError``. A redirect the operation does not document still raises.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from textwrap import dedent

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER

SPEC = """\
openapi: 3.0.3
info: {title: Archives, version: "1.0"}
servers: [{url: "https://api.example.com"}]
paths:
  /archives/{id}:
    get:
      operationId: getArchive
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: the archive's record
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Archive"}
        "302": {description: the archive itself, at a download link}
  /reports/{id}:
    get:
      operationId: getReport
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: the report
          content: {application/json: {schema: {type: object}}}
components:
  schemas:
    Archive:
      type: object
      required: [id]
      properties: {id: {type: integer}, name: {type: string}}
"""

SCRIPT = """\
import asyncio

import httpx

from archives_mcp import operations
from archives_mcp.server import load


def handler(request):
    if request.url.path == "/archives/1":
        return httpx.Response(200, json={"id": 1, "name": "logs"})
    # to a private address from a public API: never followed
    return httpx.Response(302, headers={"Location": "http://10.1.2.3/a.tar.gz"})


async def main():
    client = operations.ApiClient.from_catalog(
        load(),
        environ={"ARCHIVES_BASE_URL": "https://api.example.com"},
        transport=httpx.MockTransport(handler),
    )
    async with client:
        print(repr(await operations.get_archive(client, id_=1)))
        print(repr(await operations.get_archive(client, id_=2)))
        try:
            await operations.get_report(client, id_=3)
        except operations.ApiError as exc:
            print("ApiError", exc.status)


asyncio.run(main())
"""


def test_a_documented_redirect_is_the_typed_function_s_answer(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(dedent(SPEC))
    result = generate(str(spec), GenerateOptions(name="archives"))
    out = tmp_path / "out"
    write_tree(result.files, out, force=False, marker=MARKER)
    operations = (out / "src" / "archives_mcp" / "operations.py").read_text()
    assert ") -> models.Archive | str:" in operations
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(out / "src")},
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Archive(id=1, name='logs')",
        "'http://10.1.2.3/a.tar.gz'",
        "ApiError 302",
    ]
