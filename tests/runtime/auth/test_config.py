"""Configuration from the environment, static bearer tokens, and Protected Resource Metadata (RFC 9728)."""

from __future__ import annotations

import hmac
import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from templates.runtime.auth.bearer import (
    STATIC_ISSUER,
    AuthFailure,
    CryptographyUnavailable,
    Principal,
    authenticator_from_env,
    protected_resource_metadata,
    protected_resource_metadata_paths,
    protected_resource_metadata_url,
    static_subject,
)

from ..transports.kit import TIMEOUT, server_env
from .kit import (
    ISSUER,
    NOW,
    PREFIX,
    PRM_URL,
    RESOURCE,
    FakeMonotonic,
    JwksServer,
    claims,
    jwk,
    make_jwt,
)

TOKEN_1 = "s3cret-token-number-one"
TOKEN_2 = "s3cret-token-number-two"
JWKS = "https://auth.example.com/.well-known/jwks.json"


def env(**values: str) -> dict[str, str]:
    return {f"{PREFIX}{k}": v for k, v in values.items()}


def oauth_env(**values: str) -> dict[str, str]:
    return env(AUTH_JWKS_URL=JWKS, AUTH_ISSUER=ISSUER, **values)


def from_env(environ: dict[str, str]) -> Any:
    return authenticator_from_env(environ, resource_url=RESOURCE, prefix=PREFIX)


def test_oauth_without_cryptography_stops_start_up_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # None in sys.modules is how Python marks a module as not importable
    monkeypatch.setitem(sys.modules, "cryptography", None)
    with pytest.raises(CryptographyUnavailable) as caught:
        from_env(oauth_env())
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == (
        "verifying OAuth access tokens (AUTH_JWKS_URL) needs the 'cryptography' package of the "
        "'http' extra: pip install 'templates[http]'"
    )
    # static bearer tokens need no cryptography
    assert from_env(env(AUTH_TOKENS=TOKEN_1)) is not None


def test_a_server_with_oauth_but_without_cryptography_refuses_to_start(
    petstore_package: Path,
) -> None:
    launch = (
        "import sys\n"
        "sys.modules['cryptography'] = None\n"
        "sys.argv = ['petstore-mcp', 'http', '--port', '0']\n"
        "from petstore_mcp.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", launch],
        input=b"",
        capture_output=True,
        timeout=TIMEOUT,
        env=server_env(
            petstore_package,
            "http://127.0.0.1:9/v1",
            None,
            PETSTORE_AUTH_JWKS_URL=JWKS,
            PETSTORE_AUTH_ISSUER=ISSUER,
        ),
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, b"")
    # the installed distribution's name; when it is only on PYTHONPATH (another test may have
    # installed it), the import name stands in for it
    installed = importlib.metadata.packages_distributions().get("petstore_mcp")
    name = installed[0] if installed else "petstore_mcp"
    assert done.stderr.decode() == (
        "petstore-mcp: verifying OAuth access tokens (AUTH_JWKS_URL) needs the 'cryptography' "
        f"package of the 'http' extra: pip install '{name}[http]'\n"
    )


def test_authentication_is_off_by_default() -> None:
    assert from_env({}) is None
    assert from_env(env(AUTH_TOKENS="  ", AUTH_JWKS_URL="", AUTH_ISSUER="")) is None
    # variables of another server (other prefix) are not ours
    assert from_env({"OTHER_AUTH_TOKENS": TOKEN_1}) is None


async def test_static_tokens_name_the_caller_by_the_token_not_its_position() -> None:
    authenticator = from_env(env(AUTH_TOKENS=f" {TOKEN_1} , {TOKEN_2},"))
    one = await authenticator.authenticate(f"Bearer {TOKEN_1}", b"")
    two = await authenticator.authenticate(f"Bearer {TOKEN_2}", b"")
    assert one == Principal(static_subject(TOKEN_1), frozenset(), STATIC_ISSUER)
    assert two == Principal(static_subject(TOKEN_2), frozenset(), STATIC_ISSUER)
    assert re.fullmatch(r"token-[0-9a-f]{16}", one.subject) and one.subject != two.subject
    # the first token removed: the second still names the same caller
    reordered = from_env(env(AUTH_TOKENS=TOKEN_2))
    assert await reordered.authenticate(f"Bearer {TOKEN_2}", b"") == two


async def test_wrong_or_missing_static_token_gives_401() -> None:
    authenticator = from_env(env(AUTH_TOKENS=TOKEN_1))
    assert await authenticator.authenticate(f"Bearer {TOKEN_1}x", b"") == AuthFailure(
        401,
        'Bearer error="invalid_token", error_description="the bearer token is not accepted"',
        "the bearer token is not accepted",
    )
    assert await authenticator.authenticate(None, b"") == AuthFailure(
        401, "Bearer", "this server requires a bearer token"
    )
    refused = await authenticator.authenticate(
        f"Bearer {TOKEN_1}", b"access_token=" + TOKEN_1.encode()
    )
    assert isinstance(refused, AuthFailure)
    assert refused.status == 400
    assert TOKEN_1 not in refused.www_authenticate + refused.message


async def test_static_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    authenticator = from_env(env(AUTH_TOKENS=f"{TOKEN_1},{TOKEN_2},{'z' * 40}"))
    # a match on the first token still compares with all of them, always equal-length digests
    assert await authenticator.authenticate(f"Bearer {TOKEN_1}", b"") == Principal(
        static_subject(TOKEN_1), frozenset(), STATIC_ISSUER
    )
    assert calls == [(32, 32)] * 3
    calls.clear()
    await authenticator.authenticate("Bearer short", b"")
    assert calls == [(32, 32)] * 3


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (",,", "PETSTORE_AUTH_TOKENS is set but holds no token (expected comma-separated tokens)"),
        ("short", "PETSTORE_AUTH_TOKENS: token 1 is shorter than 16 characters"),
        (
            f"{TOKEN_1},has spaces in it here",
            "PETSTORE_AUTH_TOKENS: token 2 has characters a bearer token cannot carry "
            "(allowed: letters, digits, - . _ ~ + / and trailing =)",
        ),
        (f"{TOKEN_1},{TOKEN_1}", "PETSTORE_AUTH_TOKENS: the same token is listed twice"),
    ],
)
def test_bad_static_tokens_fail_at_start_up(value: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        from_env(env(AUTH_TOKENS=value))
    assert str(caught.value) == message
    assert TOKEN_1 not in str(caught.value)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        (
            env(AUTH_JWKS_URL=JWKS),
            "PETSTORE_AUTH_ISSUER is required when PETSTORE_AUTH_JWKS_URL is set",
        ),
        (
            env(AUTH_ISSUER=ISSUER),
            "PETSTORE_AUTH_ISSUER is set but PETSTORE_AUTH_JWKS_URL is not (OAuth needs both)",
        ),
        (
            env(AUTH_TOKENS=TOKEN_1, AUTH_REQUIRED_SCOPES="pets:read"),
            "PETSTORE_AUTH_REQUIRED_SCOPES is set but PETSTORE_AUTH_JWKS_URL is not (OAuth needs both)",
        ),
        (
            env(AUTH_JWKS_URL="http://auth.example.com/jwks", AUTH_ISSUER=ISSUER),
            "PETSTORE_AUTH_JWKS_URL must be an https:// URL (plain http is allowed only for 127.0.0.1, "
            "::1 and localhost)",
        ),
        (
            env(AUTH_JWKS_URL="file:///etc/jwks.json", AUTH_ISSUER=ISSUER),
            "PETSTORE_AUTH_JWKS_URL must be an https:// URL (plain http is allowed only for 127.0.0.1, "
            "::1 and localhost)",
        ),
        (
            oauth_env(AUTH_REQUIRED_SCOPES="pets:read offline_access"),
            "PETSTORE_AUTH_REQUIRED_SCOPES: offline_access is not a resource scope; remove it",
        ),
        (
            oauth_env(AUTH_REQUIRED_SCOPES='pets:"read"'),
            "PETSTORE_AUTH_REQUIRED_SCOPES: a scope contains '\"' or '\\'",
        ),
        (
            oauth_env(AUTH_AUTHORIZATION_SERVERS="auth.example.com"),
            "PETSTORE_AUTH_AUTHORIZATION_SERVERS must list http(s) issuer URLs",
        ),
        (
            env(AUTH_JWKS_URL=JWKS, AUTH_ISSUER="petstore-issuer"),
            "PETSTORE_AUTH_AUTHORIZATION_SERVERS must list http(s) issuer URLs "
            "(it defaults to PETSTORE_AUTH_ISSUER, which is not a URL)",
        ),
    ],
)
def test_oauth_misconfiguration_fails_at_start_up_naming_the_variable(
    environ: dict[str, str], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        from_env(environ)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "url", ["mcp.example.com/mcp", "https://mcp.example.com/mcp#frag", "ftp://x/mcp"]
)
def test_unusable_resource_url_fails_at_start_up(url: str) -> None:
    with pytest.raises(ValueError, match="the server's resource URL"):
        authenticator_from_env(oauth_env(), resource_url=url, prefix=PREFIX)


@pytest.mark.parametrize(
    "jwks_url", ["http://127.0.0.1:9/jwks", "http://[::1]:9/jwks", "http://localhost/jwks", JWKS]
)
def test_plain_http_jwks_is_allowed_on_loopback_only(jwks_url: str) -> None:
    assert from_env(env(AUTH_JWKS_URL=jwks_url, AUTH_ISSUER=ISSUER)) is not None


def test_protected_resource_metadata_document() -> None:
    authenticator = from_env(oauth_env(AUTH_REQUIRED_SCOPES="pets:read,pets:write pets:read"))
    assert protected_resource_metadata(authenticator) == {
        "resource": "https://mcp.example.com/mcp",
        "authorization_servers": ["https://auth.example.com"],
        "scopes_supported": ["pets:read", "pets:write"],
        "bearer_methods_supported": ["header"],
    }


def test_protected_resource_metadata_from_the_environment_with_listed_servers() -> None:
    environ = oauth_env(AUTH_AUTHORIZATION_SERVERS="https://a.example.com, https://b.example.com")
    assert protected_resource_metadata(environ, resource_url=RESOURCE, prefix=PREFIX) == {
        "resource": "https://mcp.example.com/mcp",
        "authorization_servers": ["https://a.example.com", "https://b.example.com"],
        "bearer_methods_supported": ["header"],
    }


def test_no_protected_resource_metadata_without_oauth() -> None:
    assert protected_resource_metadata(None) is None
    assert protected_resource_metadata(from_env(env(AUTH_TOKENS=TOKEN_1))) is None
    assert (
        protected_resource_metadata(env(AUTH_TOKENS=TOKEN_1), resource_url=RESOURCE, prefix=PREFIX)
        is None
    )


@pytest.mark.parametrize(
    ("endpoint", "paths"),
    [
        (
            "/mcp",
            ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"),
        ),
        (
            "https://mcp.example.com/api/v1/mcp",
            (
                "/.well-known/oauth-protected-resource/api/v1/mcp",
                "/.well-known/oauth-protected-resource",
            ),
        ),
        ("/", ("/.well-known/oauth-protected-resource",)),
    ],
)
def test_well_known_paths_to_serve(endpoint: str, paths: tuple[str, ...]) -> None:
    assert protected_resource_metadata_paths(endpoint) == paths


@pytest.mark.parametrize(
    ("resource", "url"),
    [
        (RESOURCE, PRM_URL),
        (
            "https://mcp.example.com/",
            "https://mcp.example.com/.well-known/oauth-protected-resource",
        ),
        (
            "http://127.0.0.1:8000/mcp",
            "http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp",
        ),
    ],
)
def test_metadata_url_inserts_the_well_known_path_before_the_endpoint_path(
    resource: str, url: str
) -> None:
    assert protected_resource_metadata_url(resource) == url


async def test_static_tokens_and_oauth_together(signing_key: rsa.RSAPrivateKey) -> None:
    server = JwksServer(document={"keys": []}).start()
    try:
        server.document = {"keys": [jwk(signing_key)]}
        authenticator = authenticator_from_env(
            env(
                AUTH_TOKENS=TOKEN_1,
                AUTH_JWKS_URL=server.jwks_url,
                AUTH_ISSUER=ISSUER,
                AUTH_REQUIRED_SCOPES="pets:read",
            ),
            resource_url=RESOURCE,
            prefix=PREFIX,
            clock=lambda: NOW,
            monotonic=FakeMonotonic(),
        )
        assert authenticator is not None
        # a static token stands for full access: it carries the required scopes
        assert await authenticator.authenticate(f"Bearer {TOKEN_1}", b"") == Principal(
            static_subject(TOKEN_1), frozenset({"pets:read"}), STATIC_ISSUER
        )
        jwt = make_jwt(claims(), signing_key)
        assert isinstance(await authenticator.authenticate(f"Bearer {jwt}", b""), Principal)
        assert len(server.requests) == 1
        missing = await authenticator.authenticate(None, b"")
        assert missing == AuthFailure(
            401,
            f'Bearer resource_metadata="{PRM_URL}", scope="pets:read"',
            "this server requires a bearer token",
        )
    finally:
        server.stop()
