"""An API key sent in the Authorization header with the word its scheme says before it: Django
REST framework's TokenAuthentication wants ``Authorization: Token <key>``, and drf-spectacular says
so in the scheme's description ('required prefix "Token"'). The operator sets the key alone; a
value that already has its word is sent as it is; the README says which form goes over the wire."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import call_tools

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Labels", "version": "1.0.0"},
    "servers": [{"url": "https://labels.example.com"}],
    "paths": {
        "/api/projects/": {
            "get": {
                "operationId": "api_projects_list",
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
        "/api/projects/{id}/": {
            "delete": {
                "operationId": "api_projects_destroy",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "responses": {"204": {"description": "gone"}},
            }
        },
    },
    "components": {
        "securitySchemes": {
            "tokenAuth": {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": 'Token-based authentication with required prefix "Token"',
            }
        }
    },
    "security": [{"tokenAuth": []}],
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("token"), SPEC, "labels-mcp")


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        fake.script["/api/projects/"] = fs.content(b"[]", "application/json")
        yield fake


def test_the_tools_lose_the_api_word_every_operation_begins_with(package: Path) -> None:
    names = sorted(tool["name"] for tool in read_catalog(package)["tools"])
    assert names == ["projects_destroy", "projects_list"]


def test_the_readme_says_the_word_goes_before_the_key(package: Path) -> None:
    readme = (package / "README.md").read_text(encoding="utf-8")
    assert (
        "| `LABELS_TOKEN_AUTH_KEY` | API key for 'tokenAuth' (sent as header 'Authorization', "
        "as 'Token \\<key\\>') (secret) |"
    ) in readme


def test_a_scheme_that_says_no_word_is_sent_whole_and_the_readme_says_so(
    tmp_path: Path,
) -> None:
    """Unleash's and Directus's schemes say nothing of a word; Directus wants "Bearer <key>"."""
    bare = {
        **SPEC,
        "components": {
            "securitySchemes": {
                "tokenAuth": {"type": "apiKey", "in": "header", "name": "Authorization"}
            }
        },
    }
    readme = (generate_package(tmp_path, bare, "labels-mcp") / "README.md").read_text("utf-8")
    assert (
        "| `LABELS_TOKEN_AUTH_KEY` | API key for 'tokenAuth' (sent as header 'Authorization', "
        "whole: with its word if the API wants one, e.g. 'Bearer \\<key\\>') (secret) |"
    ) in readme


@pytest.mark.parametrize(
    ("key", "sent"),
    [
        (
            "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
            "Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
        ),
        ("Token 9944b09199c62bcf", "Token 9944b09199c62bcf"),
    ],
)
async def test_the_key_goes_after_its_word(
    package: Path, upstream: fs.FaultServer, key: str, sent: str
) -> None:
    environ = {"LABELS_BASE_URL": upstream.url, "LABELS_TOKEN_AUTH_KEY": key}
    (reply,) = await call_tools(read_catalog(package), environ, ("projects_list", {}))
    assert reply["result"].get("isError", False) is False, reply
    (request,) = upstream.requests
    assert request.headers["authorization"] == sent
