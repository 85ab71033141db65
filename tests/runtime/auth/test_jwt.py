"""JWT parsing, JWK parsing and claim checks: the strict rules, one at a time."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from templates.runtime.auth.jwt import (
    JwtError,
    b64url_decode,
    check_claims,
    parse_jwk,
    parse_jws,
    token_scopes,
)

from .kit import ISSUER, NOW, RESOURCE, b64, b64json, claims, jwk, make_jwt


def test_b64url_accepts_unpadded_canonical_input() -> None:
    assert b64url_decode("aGk") == b"hi"
    assert b64url_decode("-_8") == b"\xfb\xff"
    assert b64url_decode("") == b""


@pytest.mark.parametrize("segment", ["aGk=", "aGk+", "aG/r", "a", "aGk\n", "aG k", "QR"])
def test_b64url_refuses_padding_foreign_characters_and_stray_bits(segment: str) -> None:
    # "QR" would decode to b"A" with non-zero leftover bits: a second spelling of "QQ"
    with pytest.raises(ValueError):
        b64url_decode(segment)


def test_parse_jws_returns_header_fields_claims_and_signing_input(
    signing_key: rsa.RSAPrivateKey,
) -> None:
    token = make_jwt(claims(), signing_key, alg="PS256", kid="key-9")
    jws = parse_jws(token)
    assert (jws.alg, jws.kid) == ("PS256", "key-9")
    assert jws.claims == claims()
    assert jws.signing_input == token.rsplit(".", 1)[0].encode()


def _token(header: Any, payload: Any = None) -> str:
    body = b64json(payload if payload is not None else claims())
    head = header if isinstance(header, str) else b64json(header)
    return f"{head}.{body}.{b64(b'sig')}"


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("a.b", "the token is not a well-formed JWT"),
        ("a.b.c.d", "the token is not a well-formed JWT"),
        ("!!.b.c", "the token is not a well-formed JWT"),
        (_token(b64(b"not json")), "the token is not a well-formed JWT"),
        (_token(b64(b"[1]")), "the token is not a well-formed JWT"),
        (_token(b64(b'{"alg":"RS256","alg":"none"}')), "the token is not a well-formed JWT"),
        (_token({"alg": "RS256"}, [1, 2]), "the token is not a well-formed JWT"),
        (_token({"alg": "RS256", "kid": 7}), "the token is not a well-formed JWT"),
        (
            _token({"typ": "JWT"}),
            "the token's signing algorithm is not accepted (RS256, PS256, ES256 and kin only)",
        ),
        (
            _token({"alg": "none"}),
            "the token's signing algorithm is not accepted (RS256, PS256, ES256 and kin only)",
        ),
        (
            _token({"alg": "HS256"}),
            "the token's signing algorithm is not accepted (RS256, PS256, ES256 and kin only)",
        ),
        (
            _token({"alg": "ES384"}),
            "the token's signing algorithm is not accepted (RS256, PS256, ES256 and kin only)",
        ),
        (_token({"alg": "RS256", "typ": "dpop+jwt"}), "the token's type is not a JWT access token"),
        (
            _token({"alg": "RS256", "crit": ["b64"], "b64": False}),
            "the token uses critical header extensions this server does not know",
        ),
        ("a" * 8193, "the token is too long"),
    ],
)
def test_parse_jws_refuses_malformed_tokens(token: str, message: str) -> None:
    with pytest.raises(JwtError) as caught:
        parse_jws(token)
    assert str(caught.value) == message


def test_parse_jws_refuses_nan_in_claims() -> None:
    raw_payload = b64(b'{"exp": NaN}')
    with pytest.raises(JwtError, match="not a well-formed JWT"):
        parse_jws(f"{b64json({'alg': 'RS256'})}.{raw_payload}.{b64(b'sig')}")


@pytest.mark.parametrize("typ", ["JWT", "at+jwt", "application/at+JWT"])
def test_parse_jws_accepts_access_token_types(typ: str) -> None:
    assert parse_jws(_token({"alg": "RS256", "typ": typ})).alg == "RS256"


def test_parse_jwk_reads_an_rsa_signing_key(signing_key: rsa.RSAPrivateKey) -> None:
    parsed = parse_jwk(jwk(signing_key, "k", alg="RS256"))
    numbers = signing_key.public_key().public_numbers()
    assert parsed is not None
    assert (parsed.kid, parsed.alg, parsed.key.n, parsed.key.e) == (
        "k",
        "RS256",
        numbers.n,
        numbers.e,
    )


@pytest.mark.parametrize(
    "change",
    [
        {"kty": "EC"},
        {"use": "enc"},
        {"alg": "HS256"},
        {"alg": ["RS256"]},
        {"use": ["sig"]},
        {"key_ops": "verify"},
        {"key_ops": ["encrypt"]},
        {"kid": 3},
        {"n": "not base64!"},
        {"e": ""},
        {"n": None},
    ],
)
def test_parse_jwk_skips_keys_it_cannot_use(
    signing_key: rsa.RSAPrivateKey, change: dict[str, Any]
) -> None:
    entry = {**jwk(signing_key), **change}
    entry = {k: v for k, v in entry.items() if v is not None}
    assert parse_jwk(entry) is None


def test_parse_jwk_skips_small_keys() -> None:
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    assert parse_jwk(jwk(small)) is None


def check(**overrides: Any) -> str:
    return check_claims(claims(**overrides), issuer=ISSUER, audience=RESOURCE, now=NOW)


def test_check_claims_returns_the_subject() -> None:
    assert check() == "user-42"
    assert check(sub=None) == "client-7"
    assert check(aud=["https://other.example.com", RESOURCE]) == "user-42"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"iss": "https://evil.example.com"},
            "the token was not issued by the accepted authorization server",
        ),
        ({"iss": None}, "the token was not issued by the accepted authorization server"),
        (
            {"aud": "https://mcp.example.com/mcp/"},
            "the token is not intended for this server (audience)",
        ),
        (
            {"aud": ["https://other.example.com"]},
            "the token is not intended for this server (audience)",
        ),
        ({"aud": None}, "the token is not intended for this server (audience)"),
        ({"exp": None}, "the token has no expiry (exp)"),
        ({"exp": "tomorrow"}, "the token's exp claim is not a number"),
        ({"exp": True}, "the token's exp claim is not a number"),
        ({"exp": NOW - 60}, "the token has expired"),
        ({"nbf": NOW + 61}, "the token is not valid yet (nbf)"),
        ({"iat": NOW + 61}, "the token was issued in the future (iat)"),
        ({"sub": None, "client_id": None}, "the token has no subject (sub)"),
        ({"sub": ""}, "the token has no subject (sub)"),
    ],
)
def test_check_claims_refusals(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(JwtError) as caught:
        check(**overrides)
    assert str(caught.value) == message


def test_time_claims_have_sixty_seconds_of_leeway() -> None:
    assert check(exp=NOW - 59, nbf=NOW + 59, iat=NOW + 59) == "user-42"


def test_token_scopes_from_scope_or_scp() -> None:
    assert token_scopes({"scope": "a  b"}) == frozenset({"a", "b"})
    assert token_scopes({"scp": ["a", "b", 3, ""]}) == frozenset({"a", "b"})
    assert token_scopes({"scp": "a b"}) == frozenset({"a", "b"})
    assert token_scopes({}) == frozenset()
