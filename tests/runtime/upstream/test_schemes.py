"""Security schemes as strategies (``upstream/schemes.py``): one per kind, an unknown kind refused."""

from __future__ import annotations

from typing import Any

import pytest

from templates.runtime.catalog.model import UpstreamInfo
from templates.runtime.errors import CatalogError
from templates.runtime.upstream.client import Upstream
from templates.runtime.upstream.credentials import RequestParts
from templates.runtime.upstream.schemes import Setting, describe, strategies
from tests.runtime.upstream_kit import INFO, PASSWORD_SCHEME

SCHEMES: dict[str, Any] = {
    "key": {"type": "apiKey", "location": "query", "name": "api_key", "env": "P_KEY"},
    "token": {"type": "bearer", "env": "P_TOKEN"},
    # Django REST framework's TokenAuthentication: "Authorization: Token <key>"
    "drf": {
        "type": "apiKey",
        "location": "header",
        "name": "Authorization",
        "env": "P_DRF_KEY",
        "prefix": "Token",
    },
    # Unleash's and Directus's: the variable is the whole header (Directus wants "Bearer <key>")
    "whole": {"type": "apiKey", "location": "header", "name": "Authorization", "env": "P_AUTH"},
    "login": {"type": "basic", "usernameEnv": "P_USER", "passwordEnv": "P_PASSWORD"},
    "machine": {
        "type": "oauth2ClientCredentials",
        "tokenUrl": "https://auth.example.com/token",
        "clientIdEnv": "P_CLIENT_ID",
        "clientSecretEnv": "P_CLIENT_SECRET",
        "env": "P_ACCESS_TOKEN",
    },
    "signin": PASSWORD_SCHEME,
}


def test_each_kind_names_its_variables_and_how_it_is_sent() -> None:
    found = {
        name: (list(scheme.environment()), describe(scheme))
        for name, scheme in strategies(SCHEMES).items()
    }
    assert found == {
        "key": ([Setting("P_KEY", "API key")], "sent as query 'api_key'"),
        "token": ([Setting("P_TOKEN", "Bearer token")], "sent as Authorization: Bearer"),
        "drf": (
            [Setting("P_DRF_KEY", "API key")],
            "sent as header 'Authorization', as 'Token <key>'",
        ),
        "whole": (
            [Setting("P_AUTH", "API key")],
            "sent as header 'Authorization', whole: with its word if the API wants one, "
            "e.g. 'Bearer <key>'",
        ),
        "login": (
            [Setting("P_USER", "User name"), Setting("P_PASSWORD", "Password")],
            "sent as Authorization: Basic",
        ),
        "machine": (
            [
                Setting("P_CLIENT_ID", "OAuth client id"),
                Setting("P_CLIENT_SECRET", "OAuth client secret"),
                Setting("P_ACCESS_TOKEN", "Access token"),
            ],
            "tokens from https://auth.example.com/token",
        ),
        "signin": (
            [
                Setting("P_SIGNIN_USERNAME", "User name"),
                Setting("P_SIGNIN_PASSWORD", "Password"),
                Setting("P_SIGNIN_CLIENT_ID", "OAuth client id (optional)"),
                Setting("P_SIGNIN_CLIENT_SECRET", "OAuth client secret (optional)"),
                Setting("P_SIGNIN_TOKEN", "Access token"),
            ],
            "tokens from token, signed in with a password",
        ),
    }


class _Env:
    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def get(self, env: str) -> str:
        return self.values.get(env, "")

    def given(self, env: str) -> bool:
        return env in self.values

    def secret(self, env: str, parts: RequestParts) -> str:
        parts.secrets.append(self.values[env])
        return self.values[env]


@pytest.mark.parametrize(
    ("name", "environ", "placed"),
    [
        ("key", {"P_KEY": "k"}, {"secret_query": ["api_key=k"]}),
        ("token", {"P_TOKEN": "t"}, {"headers": [("Authorization", "Bearer t")]}),
        ("drf", {"P_DRF_KEY": "9944b0"}, {"headers": [("Authorization", "Token 9944b0")]}),
        # a value that already says its scheme word is sent as it is
        ("drf", {"P_DRF_KEY": "Token 9944b0"}, {"headers": [("Authorization", "Token 9944b0")]}),
        ("drf", {"P_DRF_KEY": "Bearer e.y.j"}, {"headers": [("Authorization", "Bearer e.y.j")]}),
        (
            "login",
            {"P_USER": "u", "P_PASSWORD": "p"},
            {"headers": [("Authorization", "Basic dTpw")]},
        ),
        ("machine", {"P_ACCESS_TOKEN": "a"}, {"headers": [("Authorization", "Bearer a")]}),
        ("machine", {"P_CLIENT_ID": "i", "P_CLIENT_SECRET": "s"}, {"oauth": ["machine"]}),
        ("signin", {"P_SIGNIN_TOKEN": "a"}, {"headers": [("Authorization", "Bearer a")]}),
        (
            "signin",
            {"P_SIGNIN_USERNAME": "u", "P_SIGNIN_PASSWORD": "p"},
            {"oauth": ["signin"]},
        ),
    ],
)
def test_a_satisfied_scheme_places_its_credential(
    name: str, environ: dict[str, str], placed: dict[str, Any]
) -> None:
    scheme = strategies(SCHEMES)[name]
    env = _Env(environ)
    assert scheme.satisfied(env)
    parts = RequestParts()
    scheme.apply(env, parts)
    assert {key: getattr(parts, key) for key in placed} == placed


def test_a_half_configured_scheme_is_not_satisfied() -> None:
    schemes = strategies(SCHEMES)
    assert not schemes["login"].satisfied(_Env({"P_USER": "u"}))
    assert not schemes["machine"].satisfied(_Env({"P_CLIENT_ID": "i"}))
    # a password set to nothing is one: the user name goes alone (Stripe's and Karrio's keys)
    assert schemes["login"].satisfied(_Env({"P_USER": "u", "P_PASSWORD": ""}))
    assert not schemes["login"].satisfied(_Env({"P_USER": "", "P_PASSWORD": ""}))


def test_an_unknown_kind_is_refused_when_the_client_is_made_not_at_a_call() -> None:
    info: UpstreamInfo = {
        **INFO,
        "securitySchemes": {"digest": {"type": "digest", "env": "P_DIGEST"}},  # type: ignore[typeddict-item]
    }
    with pytest.raises(CatalogError) as caught:
        Upstream(info, {}, environ={}, user_agent="test")
    assert str(caught.value) == "security scheme 'digest' has an unknown type 'digest'"
