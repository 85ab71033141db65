"""An API key in the Authorization header whose scheme says to prepend a quoted word and a space.

Regression (PostgREST 12, ``openapi-security-active``): the scheme
``{type: apiKey, in: header, name: Authorization, description: 'Add the token prepending "Bearer "
(without quotes) to it'}`` was read as "the whole header value", so a JWT set alone went without
its word and PostgREST answered 401. A quoted word with the space inside the quotes, after
"prepend", "prefix" or "precede", is the word the key goes after; a quoted word said otherwise is
not.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.ir.model import ApiKeyScheme
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.load.reading import load_source

POSTGREST = 'Add the token prepending "Bearer " (without quotes) to it'


def _swagger(description: str) -> dict[str, object]:
    return {
        "swagger": "2.0",
        "info": {"title": "PostgREST API", "version": "12.0.2"},
        "host": "127.0.0.1:3300",
        "basePath": "/",
        "schemes": ["http"],
        "paths": {
            "/tags": {"get": {"tags": ["tags"], "responses": {"200": {"description": "OK"}}}}
        },
        "securityDefinitions": {
            "JWT": {
                "description": description,
                "in": "header",
                "name": "Authorization",
                "type": "apiKey",
            }
        },
        "security": [{"JWT": []}],
    }


def _prefix(tmp_path: Path, description: str) -> str:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(_swagger(description)), encoding="utf-8")
    scheme = parse_api(load_source(str(path)), Report()).security_schemes["JWT"]
    assert isinstance(scheme, ApiKeyScheme)
    assert scheme.parameter == "Authorization"
    return scheme.prefix


@pytest.mark.parametrize(
    ("description", "prefix"),
    [
        (POSTGREST, "Bearer"),
        ("Prepend 'Bearer ' to the token.", "Bearer"),
        ("The JWT, prefixed with `Bearer `", "Bearer"),
        ('Prefix the key with "Token " and send it', "Token"),
        ('The token, preceded by "JWT ".', "JWT"),
        # no space inside the quotes: the word may be glued to the key, or be no prefix at all
        ('Add the token prepending "Bearer" to it', ""),
        # a quoted word with a space, but nothing says it goes before the key
        ('Use the "Bearer " scheme of your identity provider', ""),
        ('Tokens look like "eyJ ...": prefixes are explained elsewhere', ""),
        # prepending said of something else, in another sentence
        ('Prepend nothing. The "Bearer " part is added for you', ""),
    ],
)
def test_the_word_a_description_says_to_prepend(
    tmp_path: Path, description: str, prefix: str
) -> None:
    assert _prefix(tmp_path, description) == prefix


def test_the_readme_says_the_key_goes_after_the_word(tmp_path: Path) -> None:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(_swagger(POSTGREST)), encoding="utf-8")
    readme = generate(str(path), GenerateOptions(tool_mode="full")).files["README.md"]
    assert (
        "| `POSTGREST_JWT_KEY` | API key for 'JWT' (sent as header 'Authorization', as "
        "'Bearer \\<key\\>') (secret) |"
    ) in readme
