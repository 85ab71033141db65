"""OAuth2 password sign-in for the upstream (FastAPI's ``OAuth2PasswordBearer``): the token request,
caching, signing in again, failures, secrecy.

A spec whose ``oauth2`` scheme has a ``password`` flow with a relative ``tokenUrl`` (``token``, as
FastAPI's tutorial writes it) is generated; its catalog drives a server in process against a
recording upstream on 127.0.0.1 that is both the API and the token endpoint. Every test asserts what
went over the wire. ``tests/realapis/test_gns3.py`` signs in to a real GNS3 server the same way.
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import call_tools, texts

USER = "ada@example.com"
PASSWORD = "p@ss word&=1"  # characters a form must encode
TOKEN_PATH = "/api/token"
TOK1, TOK2 = "lab-token-1", "lab-token-2"
SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Lab", "version": "1.0.0"},
    "servers": [{"url": "https://lab.example.com/api"}],
    "components": {
        "securitySchemes": {
            "OAuth2PasswordBearer": {
                "type": "oauth2",
                "flows": {"password": {"tokenUrl": "token", "scopes": {"me": "read me"}}},
            }
        }
    },
    "security": [{"OAuth2PasswordBearer": []}],
    "paths": {
        "/users/me": {
            "get": {
                "operationId": "read_me_users_me_get",
                "security": [{"OAuth2PasswordBearer": ["me"]}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
        "/token": {
            "post": {
                "operationId": "login_token_post",
                "security": [],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "username": {"type": "string"},
                                    "password": {"type": "string", "format": "password"},
                                },
                                "required": ["username", "password"],
                            }
                        }
                    },
                },
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
    },
}
FORM = b"grant_type=password&username=ada%40example.com&password=p%40ss+word%26%3D1&scope=me"


def _token(n: int) -> str:
    return f"lab-token-{n}"


def _issue(x: fs.Exchange) -> None:
    """A token endpoint: ``_token(n)`` for its n-th request, as FastAPI's tutorial answers."""
    x.json(200, {"access_token": _token(x.count), "token_type": "bearer"})


def _accept(*tokens: str) -> fs.Behaviour:
    """The API: 200 for the given bearer tokens, 401 for anything else."""

    def run(x: fs.Exchange) -> None:
        sent = x.request.headers.get("authorization", "")
        if sent.removeprefix("Bearer ") in tokens:
            x.json(200, {"username": USER})
        else:
            x.json(401, {"detail": "Could not validate credentials"})

    return run


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("password"), SPEC, "lab-mcp")


@pytest.fixture(scope="module")
def catalog(package: Path) -> dict[str, Any]:
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        fake.script[TOKEN_PATH] = _issue
        fake.script["/api/users/me"] = _accept(TOK1)
        yield fake


def _env(fake: fs.FaultServer, **extra: str) -> dict[str, str]:
    return {
        "LAB_BASE_URL": fake.url + "/api",
        "LAB_OAUTH2_PASSWORD_BEARER_USERNAME": USER,
        "LAB_OAUTH2_PASSWORD_BEARER_PASSWORD": PASSWORD,
        "LAB_RETRIES": "0",
        **extra,
    }


def test_the_catalog_and_readme_describe_the_sign_in(
    package: Path, catalog: dict[str, Any]
) -> None:
    stem = "LAB_OAUTH2_PASSWORD_BEARER"
    assert catalog["upstream"]["securitySchemes"]["OAuth2PasswordBearer"] == {
        "type": "oauth2Password",
        "tokenUrl": "token",
        "usernameEnv": f"{stem}_USERNAME",
        "passwordEnv": f"{stem}_PASSWORD",
        "clientIdEnv": f"{stem}_CLIENT_ID",
        "clientSecretEnv": f"{stem}_CLIENT_SECRET",
        "env": f"{stem}_TOKEN",
    }
    assert catalog["operations"]["read_me_users_me_get"]["scopes"] == {
        "OAuth2PasswordBearer": ["me"]
    }
    readme = (package / "README.md").read_text()
    for suffix in ("USERNAME", "PASSWORD", "CLIENT_ID", "CLIENT_SECRET", "TOKEN"):
        assert f"| `{stem}_{suffix}` |" in readme


async def test_the_server_signs_in_at_the_relative_token_url_and_sends_the_token(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    replies = await call_tools(catalog, _env(upstream), ("read_me", {}), ("read_me", {}))
    assert [json.loads(texts(r)) for r in replies] == [{"username": USER}] * 2
    sign_in, first, second = upstream.requests
    # "token" is relative to the base URL (…/api), as the document's servers are
    assert (sign_in.method, sign_in.target) == ("POST", TOKEN_PATH)
    assert sign_in.body == FORM
    assert sign_in.headers["content-type"] == "application/x-www-form-urlencoded"
    assert sign_in.headers["accept"] == "application/json"
    assert "authorization" not in sign_in.headers  # no client id: no client authentication
    # the token is kept: the second call signs in no more
    for api_request in (first, second):
        assert (api_request.method, api_request.target) == ("GET", "/api/users/me")
        assert api_request.headers["authorization"] == f"Bearer {TOK1}"


async def test_a_client_id_authenticates_the_client_too(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    env = _env(
        upstream,
        LAB_OAUTH2_PASSWORD_BEARER_CLIENT_ID="lab-cli",
        LAB_OAUTH2_PASSWORD_BEARER_CLIENT_SECRET="cli:secret",
    )
    await call_tools(catalog, env, ("read_me", {}))
    sign_in = upstream.requests[0]
    assert sign_in.body == FORM
    basic = base64.b64encode(b"lab-cli:cli%3Asecret").decode()
    assert sign_in.headers["authorization"] == f"Basic {basic}"


async def test_a_token_given_beforehand_wins(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    upstream.script["/api/users/me"] = _accept("from-the-login-page")
    env = _env(upstream, LAB_OAUTH2_PASSWORD_BEARER_TOKEN="from-the-login-page")
    (reply,) = await call_tools(catalog, env, ("read_me", {}))
    assert reply["result"].get("isError", False) is False
    assert upstream.hits(TOKEN_PATH) == 0


async def test_a_401_signs_in_again_once(catalog: dict[str, Any], upstream: fs.FaultServer) -> None:
    upstream.script["/api/users/me"] = _accept(TOK2)  # the first token expired
    (reply,) = await call_tools(catalog, _env(upstream), ("read_me", {}))
    assert json.loads(texts(reply)) == {"username": USER}
    assert [(r.path, r.headers.get("authorization")) for r in upstream.requests] == [
        (TOKEN_PATH, None),
        ("/api/users/me", f"Bearer {TOK1}"),
        (TOKEN_PATH, None),
        ("/api/users/me", f"Bearer {TOK2}"),
    ]


async def test_a_refused_sign_in_says_why_and_never_shows_the_password(
    catalog: dict[str, Any], upstream: fs.FaultServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    def refuse(x: fs.Exchange) -> None:
        # FastAPI's HTTPException, echoing what it was sent
        x.json(401, {"detail": f"Incorrect username or password: {PASSWORD}"})

    upstream.script[TOKEN_PATH] = refuse
    replies = await call_tools(catalog, _env(upstream), ("read_me", {}), ("read_me", {}))
    assert replies[0]["result"]["isError"] is True
    assert texts(replies[0]) == (
        "could not get an access token for 'OAuth2PasswordBearer' from the token endpoint "
        f"{upstream.url}{TOKEN_PATH}: HTTP 401 (Incorrect username or password: ***); check "
        "LAB_OAUTH2_PASSWORD_BEARER_USERNAME and LAB_OAUTH2_PASSWORD_BEARER_PASSWORD"
    )
    # a refusal is not kept: the next call signs in again; the API itself is never called
    assert [r.path for r in upstream.requests] == [TOKEN_PATH, TOKEN_PATH]
    everything = json.dumps(replies) + "\n".join(r.getMessage() for r in caplog.records)
    assert PASSWORD not in everything


async def test_the_password_and_tokens_stay_out_of_results_and_logs(
    catalog: dict[str, Any], upstream: fs.FaultServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    upstream.script["/api/users/me"] = fs.echo_headers(401)  # echoes the bearer token
    replies = await call_tools(catalog, _env(upstream), ("read_me", {}))
    assert upstream.requests[1].headers["authorization"] == f"Bearer {TOK1}"
    everything = json.dumps(replies) + "\n".join(r.getMessage() for r in caplog.records)
    for secret in (PASSWORD, TOK1, TOK2):
        assert secret not in everything
    assert "Bearer ***" in everything


async def test_without_a_password_the_call_goes_out_without_credentials_and_says_what_to_set(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    env = {
        "LAB_BASE_URL": upstream.url + "/api",
        "LAB_OAUTH2_PASSWORD_BEARER_USERNAME": USER,
    }
    (reply,) = await call_tools(catalog, env, ("read_me", {}))
    assert texts(reply) == (
        'Upstream returned 401 Unauthorized: {"detail":"Could not validate credentials"}\n'
        # the user name is set: what is still to set
        "It was sent without credentials; to send them, set the environment variable "
        "LAB_OAUTH2_PASSWORD_BEARER_PASSWORD (or an access token in "
        "LAB_OAUTH2_PASSWORD_BEARER_TOKEN)."
    )
    [request] = upstream.requests
    assert (request.target, request.headers.get("authorization")) == ("/api/users/me", None)


# LNbits: its password flow's endpoint reads JSON, and a bearer token is another way in
TWO_WAYS: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Wallets", "version": "1.0.0"},
    "servers": [{"url": "https://wallets.example.com"}],
    "components": {
        "securitySchemes": {
            "OAuth2PasswordBearer": {
                "type": "oauth2",
                "flows": {"password": {"tokenUrl": "api/v1/auth", "scopes": {}}},
            },
            "HTTPBearer": {"type": "http", "scheme": "bearer"},
        }
    },
    "paths": {
        "/api/v1/auth": {
            "get": {
                "operationId": "get_auth_user",
                "security": [{"OAuth2PasswordBearer": []}, {"HTTPBearer": []}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        }
    },
}


def _reads_json_only(x: fs.Exchange) -> None:
    """LNbits's sign-in: FastAPI reads a JSON body, and refuses a form."""
    detail = [{"loc": ["body"], "msg": "value is not a valid dict", "type": "type_error.dict"}]
    if x.request.method == "POST":
        x.json(400, {"detail": detail})
    elif x.request.headers.get("authorization") == "Bearer jwt-1":
        x.json(200, {"username": "admin"})
    else:
        x.json(401, {"detail": "Missing user ID or access token."})


async def test_a_sign_in_that_fails_gives_way_to_a_token_set_beside_it(tmp_path: Path) -> None:
    catalog = read_catalog(generate_package(tmp_path, TWO_WAYS, "wallets-mcp"))
    with fs.FaultServer() as upstream:
        upstream.script["/api/v1/auth"] = _reads_json_only
        env = {
            "WALLETS_BASE_URL": upstream.url,
            "WALLETS_OAUTH2_PASSWORD_BEARER_USERNAME": "admin",
            "WALLETS_OAUTH2_PASSWORD_BEARER_PASSWORD": "secret1234",
            "WALLETS_HTTP_BEARER_TOKEN": "jwt-1",
            "WALLETS_RETRIES": "0",
        }
        (reply,) = await call_tools(catalog, env, ("get_auth_user", {}))
        assert json.loads(texts(reply)) == {"username": "admin"}
        sign_in, call = upstream.requests
        assert (sign_in.method, sign_in.body) == (
            "POST",
            b"grant_type=password&username=admin&password=secret1234",
        )
        assert (call.method, call.headers["authorization"]) == ("GET", "Bearer jwt-1")
        # without the token, the failure says the endpoint did not read the request, and why
        del env["WALLETS_HTTP_BEARER_TOKEN"]
        (reply,) = await call_tools(catalog, env, ("get_auth_user", {}))
    assert reply["result"]["isError"] is True
    assert texts(reply) == (
        "could not get an access token for 'OAuth2PasswordBearer' from the token endpoint "
        f"{upstream.url}/api/v1/auth: HTTP 400 (body: value is not a valid dict); the endpoint "
        "did not read the form an OAuth 2.0 token request is, so the credentials were not checked"
    )


# ZenML's shape: a password scheme some operations require, and operations that say nothing of
# security (the health check, the sign-in itself), which take the credentials set or go without
UNSAID: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Pipelines", "version": "1.0.0"},
    "servers": [{"url": "https://pipelines.example.com"}],
    "components": {
        "securitySchemes": {
            "CookieOAuth2TokenBearer": {
                "type": "oauth2",
                "flows": {"password": {"tokenUrl": "/api/v1/login", "scopes": {}}},
            }
        }
    },
    "paths": {
        "/health": {
            "get": {
                "operationId": "health",
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
        "/api/v1/login": {
            "post": {
                "operationId": "token",
                "requestBody": {
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "username": {"type": "string"},
                                    "password": {"type": "string"},
                                },
                            }
                        }
                    }
                },
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
        "/api/v1/current-user": {
            "get": {
                "operationId": "get_current_user",
                "security": [{"CookieOAuth2TokenBearer": []}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {}}}},
            }
        },
    },
}


def _zenml(x: fs.Exchange) -> None:
    """Signs in ``default`` with ``right-pass`` only; the health check needs nobody."""
    if x.request.path == "/health":
        x.json(200, "OK")
    elif x.request.path == "/api/v1/login":
        if x.request.body == b"username=default&password=right-pass":
            x.json(200, {"access_token": "tok-1", "token_type": "bearer"})
        else:
            x.json(401, {"detail": ["AuthorizationException", "Authentication error"]})
    elif x.request.headers.get("authorization") == "Bearer tok-1":
        x.json(200, {"name": "default"})
    else:
        x.json(401, {"detail": ["AuthorizationException", "Not authenticated"]})


async def test_a_sign_in_that_fails_leaves_what_needs_no_credentials_working(
    tmp_path: Path,
) -> None:
    catalog = read_catalog(generate_package(tmp_path, UNSAID, "pipelines-mcp"))
    prefix = "PIPELINES_COOKIE_OAUTH2_TOKEN_BEARER"
    with fs.FaultServer() as upstream:
        for path in ("/health", "/api/v1/login", "/api/v1/current-user"):
            upstream.script[path] = _zenml
        env = {
            "PIPELINES_BASE_URL": upstream.url,
            f"{prefix}_USERNAME": "default",
            f"{prefix}_PASSWORD": "wrong-pass",
            "PIPELINES_RETRIES": "0",
        }
        health, login, me = await call_tools(
            catalog,
            env,
            ("health", {}),
            ("token", {"username": "default", "password": "right-pass"}),
            ("get_current_user", {}),
        )
        sent = [
            (r.method, r.path, r.body, r.headers.get("authorization")) for r in upstream.requests
        ]
    # the health check: the sign-in refused, then the call without credentials
    assert json.loads(texts(health)) == "OK"
    assert health["result"].get("isError") is not True
    # the sign-in the tool does is sent as given, once, without signing in first
    assert json.loads(texts(login)) == {"access_token": "tok-1", "token_type": "bearer"}
    # what requires the credentials still fails on them
    assert me["result"]["isError"] is True
    assert "could not get an access token for 'CookieOAuth2TokenBearer'" in texts(me)
    refused = b"grant_type=password&username=default&password=wrong-pass"
    assert sent == [
        ("POST", "/api/v1/login", refused, None),
        ("GET", "/health", b"", None),
        ("POST", "/api/v1/login", b"username=default&password=right-pass", None),
        ("POST", "/api/v1/login", refused, None),
    ]


async def test_a_refused_token_is_named_as_what_was_sent(tmp_path: Path) -> None:
    # ZenML's 401 to a bad token in ..._TOKEN named the user name and password, never sent
    catalog = read_catalog(generate_package(tmp_path, UNSAID, "pipelines-mcp"))
    prefix = "PIPELINES_COOKIE_OAUTH2_TOKEN_BEARER"
    with fs.FaultServer() as upstream:
        upstream.script["/api/v1/current-user"] = _zenml
        env = {
            "PIPELINES_BASE_URL": upstream.url,
            f"{prefix}_TOKEN": "bogus-token-123",
            "PIPELINES_RETRIES": "0",
        }
        (me,) = await call_tools(catalog, env, ("get_current_user", {}))
        (sent,) = upstream.requests
    assert sent.headers["authorization"] == "Bearer bogus-token-123"
    assert me["result"]["isError"] is True
    assert texts(me) == (
        'Upstream returned 401 Unauthorized: {"detail":["AuthorizationException","Not '
        f'authenticated"]}}\nThe API did not accept the credentials of {prefix}_TOKEN.'
    )


async def test_a_sign_in_refused_to_its_own_form_says_no_credential_to_set(tmp_path: Path) -> None:
    # the token endpoint's operation carries its credentials in its form: a 401 to them is no
    # reason to set a header (the server said "set PIPELINES_HEADERS" there)
    catalog = read_catalog(generate_package(tmp_path, UNSAID, "pipelines-mcp"))
    with fs.FaultServer() as upstream:
        upstream.script["/api/v1/login"] = _zenml
        env = {"PIPELINES_BASE_URL": upstream.url, "PIPELINES_RETRIES": "0"}
        (login,) = await call_tools(
            catalog, env, ("token", {"username": "default", "password": "wrong"})
        )
    assert login["result"]["isError"] is True
    assert texts(login) == (
        'Upstream returned 401 Unauthorized: {"detail":["AuthorizationException",'
        '"Authentication error"]}'
    )
