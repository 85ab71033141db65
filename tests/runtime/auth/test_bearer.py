"""The OAuth resource server end to end: tokens signed by ``cryptography``, keys served by a real JWKS
server on 127.0.0.1, and the exact status, challenge and message a client receives."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes, hmac, serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from templates.runtime.auth.bearer import (
    AuthFailure,
    BearerAuthenticator,
    Principal,
    authenticator_from_env,
)

from .kit import (
    ISSUER,
    NOW,
    PREFIX,
    PRM_URL,
    RESOURCE,
    FakeMonotonic,
    JwksServer,
    b64,
    b64json,
    claims,
    jwk,
    make_jwt,
)

SCOPES = "pets:read pets:write"
NO_TOKEN_CHALLENGE = f'Bearer resource_metadata="{PRM_URL}", scope="{SCOPES}"'


def invalid_token(description: str) -> str:
    return (
        f'Bearer error="invalid_token", scope="{SCOPES}", resource_metadata="{PRM_URL}", '
        f'error_description="{description}"'
    )


def build(
    server: JwksServer, monotonic: FakeMonotonic | None = None, **env: str
) -> BearerAuthenticator:
    environ = {
        f"{PREFIX}AUTH_JWKS_URL": server.jwks_url,
        f"{PREFIX}AUTH_ISSUER": ISSUER,
        f"{PREFIX}AUTH_REQUIRED_SCOPES": "pets:read, pets:write",
        **{f"{PREFIX}{k}": v for k, v in env.items()},
    }
    authenticator = authenticator_from_env(
        environ,
        resource_url=RESOURCE,
        prefix=PREFIX,
        clock=lambda: NOW,
        monotonic=monotonic or FakeMonotonic(),
    )
    assert authenticator is not None
    return authenticator


async def refused(
    authenticator: BearerAuthenticator, token: str, *, query: bytes = b""
) -> AuthFailure:
    result = await authenticator.authenticate(f"Bearer {token}", query)
    assert isinstance(result, AuthFailure)
    for secret in (token, *token.split(".")):
        if len(secret) > 8:
            assert secret not in result.message
            assert secret not in result.www_authenticate
    return result


async def test_valid_token_gives_a_principal_with_subject_and_scopes(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    result = await build(jwks_server).authenticate(f"Bearer {make_jwt(claims(), signing_key)}", b"")
    assert result == Principal(
        subject="user-42", scopes=frozenset({"pets:read", "pets:write", "profile"}), issuer=ISSUER
    )


@pytest.mark.parametrize("alg", ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"])
async def test_every_rsa_algorithm_is_accepted(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey, alg: str
) -> None:
    token = make_jwt(claims(scp=["pets:read", "pets:write"], scope=None), signing_key, alg=alg)
    result = await build(jwks_server).authenticate(f"bearer  {token}", b"")
    assert result == Principal(
        subject="user-42", scopes=frozenset({"pets:read", "pets:write"}), issuer=ISSUER
    )


async def test_configured_audience_replaces_the_resource_url(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    authenticator = build(jwks_server, AUTH_AUDIENCE="api://petstore")
    ok = await authenticator.authenticate(
        f"Bearer {make_jwt(claims(aud='api://petstore'), signing_key)}", b""
    )
    assert isinstance(ok, Principal)
    failure = await refused(authenticator, make_jwt(claims(), signing_key))
    assert failure.www_authenticate == invalid_token(
        "the token is not intended for this server (audience)"
    )


@pytest.mark.parametrize(
    ("overrides", "description"),
    [
        (
            {"aud": "https://other.example.com/mcp"},
            "the token is not intended for this server (audience)",
        ),
        (
            {"iss": "https://evil.example.com"},
            "the token was not issued by the accepted authorization server",
        ),
        ({"exp": NOW - 61}, "the token has expired"),
        ({"nbf": NOW + 120}, "the token is not valid yet (nbf)"),
        ({"exp": None}, "the token has no expiry (exp)"),
    ],
)
async def test_claims_that_do_not_fit_give_401_invalid_token(
    jwks_server: JwksServer,
    signing_key: rsa.RSAPrivateKey,
    overrides: dict[str, Any],
    description: str,
) -> None:
    failure = await refused(build(jwks_server), make_jwt(claims(**overrides), signing_key))
    assert failure == AuthFailure(401, invalid_token(description), description)


async def test_missing_scope_gives_403_insufficient_scope_naming_every_required_scope(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    failure = await refused(
        build(jwks_server), make_jwt(claims(scope="pets:read profile"), signing_key)
    )
    assert failure.status == 403
    assert failure.www_authenticate == (
        'Bearer error="insufficient_scope", scope="pets:read pets:write", '
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", '
        'error_description="the token lacks a scope this server requires"'
    )
    assert failure.message == "the token lacks a scope this server requires"


async def test_no_token_gives_401_with_resource_metadata_and_scope(jwks_server: JwksServer) -> None:
    authenticator = build(jwks_server)
    for header in (None, "", "Bearer", "Bearer   "):
        result = await authenticator.authenticate(header, b"")
        assert result == AuthFailure(401, NO_TOKEN_CHALLENGE, "this server requires a bearer token")
    basic = await authenticator.authenticate("Basic dXNlcjpwYXNz", b"")
    assert basic == AuthFailure(
        401, NO_TOKEN_CHALLENGE, "the Authorization header does not carry a Bearer token"
    )
    assert len(jwks_server.requests) == 0


def _hs256_with_public_key_as_secret(key: rsa.RSAPrivateKey) -> str:
    secret = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    signing_input = f"{b64json({'alg': 'HS256', 'typ': 'JWT', 'kid': 'key-1'})}.{b64json(claims())}"
    mac = hmac.HMAC(secret, hashes.SHA256())
    mac.update(signing_input.encode())
    return f"{signing_input}.{b64(mac.finalize())}"


def _tamper_payload(token: str) -> str:
    header, _, signature = token.split(".")
    return f"{header}.{b64json(claims(sub='admin'))}.{signature}"


def _tamper_signature(token: str) -> str:
    head, signature = token.rsplit(".", 1)
    raw = bytearray(signature.encode())
    raw[10] = ord("A") if raw[10] != ord("A") else ord("B")
    return f"{head}.{raw.decode()}"


ALG = "the token's signing algorithm is not accepted (RS256, PS256, ES256 and kin only)"


@pytest.mark.parametrize(
    ("forge", "description"),
    [
        (lambda key: "not-a-jwt-at-all", "the token is not a well-formed JWT"),
        (
            lambda key: make_jwt(claims(), key).rsplit(".", 1)[0],
            "the token is not a well-formed JWT",
        ),
        (lambda key: "e30.e30.%%%", "the bearer token is malformed"),
        (lambda key: "eyJhbGciOiJSUzI1NiJ9.e30+/w.c2ln", "the token is not a well-formed JWT"),
        (lambda key: f"{b64json({'alg': 'none'})}.{b64json(claims())}.", ALG),
        (_hs256_with_public_key_as_secret, ALG),
        (
            lambda key: _tamper_payload(make_jwt(claims(), key)),
            "the token's signature does not verify",
        ),
        (
            lambda key: _tamper_signature(make_jwt(claims(), key)),
            "the token's signature does not verify",
        ),
    ],
    ids=[
        "one-segment",
        "two-segments",
        "not-token68",
        "bad-base64",
        "alg-none",
        "hs256-confusion",
        "tampered-payload",
        "tampered-signature",
    ],
)
async def test_malformed_and_forged_tokens_give_401_invalid_token(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey, forge: Any, description: str
) -> None:
    failure = await refused(build(jwks_server), forge(signing_key))
    assert failure == AuthFailure(401, invalid_token(description), description)


async def test_token_signed_by_another_key_with_the_same_kid_does_not_verify(
    jwks_server: JwksServer, other_key: rsa.RSAPrivateKey
) -> None:
    failure = await refused(build(jwks_server), make_jwt(claims(), other_key, kid="key-1"))
    assert failure.message == "the token's signature does not verify"


async def test_unknown_kid_refetches_the_jwks_once_then_refuses(
    jwks_server: JwksServer, other_key: rsa.RSAPrivateKey, signing_key: rsa.RSAPrivateKey
) -> None:
    clock = FakeMonotonic()
    authenticator = build(jwks_server, clock)
    assert isinstance(
        await authenticator.authenticate(f"Bearer {make_jwt(claims(), signing_key)}", b""),
        Principal,
    )
    assert len(jwks_server.requests) == 1
    clock.advance(31)
    failure = await refused(authenticator, make_jwt(claims(), other_key, kid="key-2"))
    assert failure.message == "the token is signed with a key this server does not know (kid)"
    assert len(jwks_server.requests) == 2
    # more unknown kids right away: no more fetches (minimum interval between refetches)
    for kid in ("key-3", "key-4", "key-5"):
        await refused(authenticator, make_jwt(claims(), other_key, kid=kid))
    assert len(jwks_server.requests) == 2


async def test_key_rotation_is_picked_up_by_the_refetch(
    jwks_server: JwksServer, other_key: rsa.RSAPrivateKey, signing_key: rsa.RSAPrivateKey
) -> None:
    clock = FakeMonotonic()
    authenticator = build(jwks_server, clock)
    assert isinstance(
        await authenticator.authenticate(f"Bearer {make_jwt(claims(), signing_key)}", b""),
        Principal,
    )
    jwks_server.document = {"keys": [jwk(signing_key, "key-1"), jwk(other_key, "key-2")]}
    clock.advance(31)
    result = await authenticator.authenticate(
        f"Bearer {make_jwt(claims(), other_key, kid='key-2')}", b""
    )
    assert result == Principal("user-42", frozenset({"pets:read", "pets:write", "profile"}), ISSUER)
    assert len(jwks_server.requests) == 2


async def test_keys_are_cached_until_the_ttl_runs_out(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    clock = FakeMonotonic()
    authenticator = build(jwks_server, clock)
    header = f"Bearer {make_jwt(claims(), signing_key)}"
    for _ in range(3):
        assert isinstance(await authenticator.authenticate(header, b""), Principal)
    assert len(jwks_server.requests) == 1
    clock.advance(301)
    assert isinstance(await authenticator.authenticate(header, b""), Principal)
    assert len(jwks_server.requests) == 2


async def test_concurrent_requests_on_a_cold_cache_fetch_the_jwks_once(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    authenticator = build(jwks_server)
    header = f"Bearer {make_jwt(claims(), signing_key)}"
    results = await asyncio.gather(*(authenticator.authenticate(header, b"") for _ in range(20)))
    assert all(isinstance(r, Principal) for r in results)
    assert len(jwks_server.requests) == 1


async def test_token_without_kid_is_accepted_only_when_one_key_fits(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey, other_key: rsa.RSAPrivateKey
) -> None:
    token = make_jwt(claims(), signing_key, kid=None)
    assert isinstance(await build(jwks_server).authenticate(f"Bearer {token}", b""), Principal)
    jwks_server.document = {"keys": [jwk(signing_key, "key-1"), jwk(other_key, "key-2")]}
    failure = await refused(build(jwks_server), token)
    assert failure.message == "the token names no key (kid) and the JWKS has no single match"


async def test_key_pinned_to_another_algorithm_is_not_used(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    jwks_server.document = {"keys": [jwk(signing_key, "key-1", alg="PS256")]}
    failure = await refused(build(jwks_server), make_jwt(claims(), signing_key, alg="RS256"))
    assert failure.message == "the token is signed with a key this server does not know (kid)"


@pytest.mark.parametrize(
    "query", [b"access_token=abc", b"x=1&access_token=", b"access%5Ftoken=abc"]
)
async def test_token_in_the_query_string_is_refused_even_with_a_valid_header(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey, query: bytes
) -> None:
    failure = await refused(build(jwks_server), make_jwt(claims(), signing_key), query=query)
    message = (
        "access tokens are not accepted in the query string; send them in the Authorization header"
    )
    assert failure == AuthFailure(
        400,
        f'Bearer error="invalid_request", scope="{SCOPES}", resource_metadata="{PRM_URL}", '
        f'error_description="{message}"',
        message,
    )


async def test_other_query_parameters_do_not_matter(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    header = f"Bearer {make_jwt(claims(), signing_key)}"
    assert isinstance(
        await build(jwks_server).authenticate(header, b"token=1&access_tokens=2"), Principal
    )


async def test_jwks_server_down_gives_401_and_a_warning_without_the_token(
    signing_key: rsa.RSAPrivateKey, caplog: pytest.LogCaptureFixture
) -> None:
    server = JwksServer().start()
    server.stop()  # the port is closed now: connection refused
    clock = FakeMonotonic()
    authenticator = build(server, clock)
    token = make_jwt(claims(), signing_key)
    caplog.set_level(logging.DEBUG)
    description = (
        "the token cannot be verified now: the authorization server's keys are unavailable"
    )
    for _ in range(3):
        failure = await refused(authenticator, token)
        assert failure == AuthFailure(401, invalid_token(description), description)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1  # one attempt per refetch interval, not one per request
    assert (
        warnings[0]
        .getMessage()
        .startswith(f"could not fetch the JWKS from {server.jwks_url}: ConnectError")
    )
    assert warnings[0].getMessage().endswith("(no keys available)")
    assert all(part not in caplog.text for part in token.split("."))


@pytest.mark.parametrize(
    ("status", "raw", "problem"),
    [
        (500, b"{}", "HTTP status 500"),
        (200, b"<html>", "the response is not JSON"),
        (200, b'{"jwks": []}', 'the response is not a JWK set (no "keys" array)'),
        (
            200,
            b'{"keys": [{"kty": "EC"}]}',
            "the JWK set holds no usable signing key (RSA, or EC on P-256)",
        ),
        (200, b" " * (256 * 1024 + 1), "the response is larger than 262144 bytes"),
    ],
)
async def test_unusable_jwks_responses_give_401(
    jwks_server: JwksServer,
    signing_key: rsa.RSAPrivateKey,
    caplog: pytest.LogCaptureFixture,
    status: int,
    raw: bytes,
    problem: str,
) -> None:
    jwks_server.status, jwks_server.raw = status, raw
    failure = await refused(build(jwks_server), make_jwt(claims(), signing_key))
    assert failure.status == 401
    assert (
        f"could not fetch the JWKS from {jwks_server.jwks_url}: {problem} (no keys available)"
        in caplog.text
    )


async def test_keys_fetched_earlier_stay_in_use_when_a_refresh_fails(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeMonotonic()
    authenticator = build(jwks_server, clock)
    header = f"Bearer {make_jwt(claims(), signing_key)}"
    assert isinstance(await authenticator.authenticate(header, b""), Principal)
    jwks_server.status = 503
    clock.advance(301)
    assert isinstance(await authenticator.authenticate(header, b""), Principal)
    assert len(jwks_server.requests) == 2
    assert "HTTP status 503 (keeping the keys fetched earlier)" in caplog.text


async def test_principal_never_carries_the_token(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    token = make_jwt(claims(), signing_key)
    principal = await build(jwks_server).authenticate(f"Bearer {token}", b"")
    assert isinstance(principal, Principal)
    assert token not in json.dumps([principal.subject, sorted(principal.scopes), principal.issuer])
    assert set(Principal.__slots__) == {"subject", "scopes", "issuer"}


async def test_junk_entries_in_the_jwks_are_skipped(
    jwks_server: JwksServer, signing_key: rsa.RSAPrivateKey
) -> None:
    jwks_server.document = {
        "keys": [
            1,
            "x",
            None,
            {"kty": "RSA", "alg": ["RS256"]},
            {"kty": "oct", "k": "c2VjcmV0"},
            jwk(signing_key),
        ]
    }
    result = await build(jwks_server).authenticate(f"Bearer {make_jwt(claims(), signing_key)}", b"")
    assert isinstance(result, Principal)


@pytest.mark.parametrize(
    ("overrides", "status", "description"),
    [
        ({"aud": {"x": 1}}, 401, "the token is not intended for this server (audience)"),
        (
            {"iss": [ISSUER]},
            401,
            "the token was not issued by the accepted authorization server",
        ),
        ({"exp": [1]}, 401, "the token's exp claim is not a number"),
        ({"sub": {"id": 1}}, 401, "the token has no subject (sub)"),
        ({"scope": 5, "scp": {"a": 1}}, 403, "the token lacks a scope this server requires"),
    ],
)
async def test_signed_claims_of_the_wrong_type_are_refused_not_crashed_on(
    jwks_server: JwksServer,
    signing_key: rsa.RSAPrivateKey,
    overrides: dict[str, Any],
    status: int,
    description: str,
) -> None:
    failure = await refused(build(jwks_server), make_jwt(claims(**overrides), signing_key))
    assert (failure.status, failure.message) == (status, description)
