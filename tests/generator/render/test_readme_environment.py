"""The generated README's tables of environment variables come from the runtime's registry."""

from __future__ import annotations

import json
from pathlib import Path

from openapi2mcp.generate import GenerateOptions, generate
from templates.runtime import environment

REPO = Path(__file__).resolve().parents[3]


def test_every_registered_variable_is_a_row_of_the_readme() -> None:
    readme = generate(str(REPO / "samples/petstore/openapi.yaml"), GenerateOptions()).files[
        "README.md"
    ]
    assert isinstance(readme, str)
    rows = {
        line.split("|")[1].strip(" `"): line.split("|", 2)[2]
        for line in readme.splitlines()
        if line.startswith("| `PETSTORE_")
    }
    for variable in environment.VARIABLES:
        if variable.suffix == "SERVER_URLS":
            continue  # only for APIs with operations of their own server (test_operation_servers)
        row = rows.pop(f"PETSTORE_{variable.suffix}")
        # the md filter escapes Markdown's characters with backslashes
        row = row.replace("\\", "")
        assert row.startswith(f" {variable.meaning}"), variable.suffix
        shown = variable.default
        if variable.default == environment.GENERATED:
            # this server's own where the plan knows it (confirmation: off unless configured)
            known = {
                "BASE_URL": "https://petstore.example.com/v1",
                "TIMEOUT": "30",
                "CONFIRM": "off",
            }
            shown = known.get(variable.suffix, environment.GENERATED)
        assert (f"(default: {shown})" in row) == bool(shown), variable.suffix
        assert ("(secret)" in row) == variable.secret, variable.suffix
    # what is left is the API's own: its security scheme and nothing else
    assert sorted(rows) == ["PETSTORE_API_KEY"]


def test_the_client_configuration_names_what_a_user_sets(tmp_path: Path) -> None:
    # a password sign-in (ZenML's): the user name and password, or a token; not the client id
    # and secret few token endpoints want, of which the example showed the secret alone
    spec = tmp_path / "openapi.json"
    spec.write_text(
        json.dumps(
            {
                "openapi": "3.1.0",
                "info": {"title": "Pipelines", "version": "1"},
                "servers": [{"url": "https://pipelines.example.com"}],
                "components": {
                    "securitySchemes": {
                        "Bearer": {
                            "type": "oauth2",
                            "flows": {"password": {"tokenUrl": "/api/v1/login", "scopes": {}}},
                        }
                    }
                },
                "security": [{"Bearer": []}],
                "paths": {
                    "/health": {
                        "get": {
                            "operationId": "health",
                            "responses": {"200": {"description": "ok"}},
                        }
                    }
                },
            }
        )
    )
    readme = generate(str(spec), GenerateOptions()).files["README.md"]
    assert isinstance(readme, str)
    start = readme.index('"mcpServers"')
    config = json.loads("{" + readme[start : readme.index("\n```", start)])
    assert list(config["mcpServers"]["pipelines-mcp"]["env"]) == [
        "PIPELINES_BEARER_USERNAME",
        "PIPELINES_BEARER_PASSWORD",
        "PIPELINES_BEARER_TOKEN",
        "PIPELINES_HEADERS",
    ]
