"""ES256 (ECDSA on P-256) tokens and hierarchical scopes, checked against ``cryptography``'s signatures.

``cryptography`` signs; the runtime verifies with OpenSSL through ``auth_ec``, which adds the JWS rules
(raw 64-octet ``r || s``, ranges of ``r`` and ``s``, 32-octet coordinates on the curve). The RFC 6979
vector and the hand-built bad signatures come from outside the library. Keys reach the authenticator
through a real JWKS server on 127.0.0.1, like in ``test_bearer``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from templates.runtime.auth.bearer import (
    AuthFailure,
    BearerAuthenticator,
    Principal,
    authenticator_from_env,
)
from templates.runtime.auth.config import oauth_settings_from_env
from templates.runtime.auth.ec import EcPublicKey, verify
from templates.runtime.auth.jwt import Jwk, parse_jwk, scopes_satisfy

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

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF


def ec_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


@pytest.fixture(scope="module")
def ec_signing_key() -> ec.EllipticCurvePrivateKey:
    return ec_key()


def public(key: ec.EllipticCurvePrivateKey) -> EcPublicKey:
    numbers = key.public_key().public_numbers()
    return EcPublicKey("P-256", numbers.x, numbers.y)


def raw_signature(key: ec.EllipticCurvePrivateKey, message: bytes) -> bytes:
    r, s = decode_dss_signature(key.sign(message, ec.ECDSA(hashes.SHA256())))
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def split(signature: bytes) -> tuple[int, int]:
    return int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")


def join(r: int, s: int) -> bytes:
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def ec_jwk(
    key: ec.EllipticCurvePrivateKey, kid: str | None = "ec-1", **extra: Any
) -> dict[str, Any]:
    numbers = key.public_key().public_numbers()
    entry: dict[str, Any] = {
        "kty": "EC",
        "crv": "P-256",
        "use": "sig",
        "x": b64(numbers.x.to_bytes(32, "big")),
        "y": b64(numbers.y.to_bytes(32, "big")),
    }
    if kid is not None:
        entry["kid"] = kid
    entry.update(extra)
    return entry


def es256_jwt(
    token_claims: dict[str, Any], key: ec.EllipticCurvePrivateKey, kid: str | None = "ec-1"
) -> str:
    header: dict[str, Any] = {"alg": "ES256", "typ": "at+jwt"}
    if kid is not None:
        header["kid"] = kid
    signing_input = f"{b64json(header)}.{b64json(token_claims)}"
    return f"{signing_input}.{b64(raw_signature(key, signing_input.encode()))}"


# -- the verifier ---------------------------------------------------------------------------------


@pytest.mark.parametrize("message", [b"", b"payload", b"\x00" * 1000, "ünïcode".encode()])
def test_signatures_made_by_cryptography_verify(message: bytes) -> None:
    key = ec_key()
    signature = raw_signature(key, message)
    assert verify(public(key), "ES256", message, signature)
    assert not verify(public(key), "ES256", message + b"!", signature)


def test_rfc6979_p256_sha256_vector_verifies() -> None:
    # RFC 6979 §A.2.5, message "sample" with SHA-256
    key = EcPublicKey(
        "P-256",
        0x60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6,
        0x7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299,
    )
    r = 0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716
    s = 0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8
    assert key.problem() is None
    assert verify(key, "ES256", b"sample", join(r, s))
    assert not verify(key, "ES256", b"test", join(r, s))


def test_rfc6979_vector_through_a_jwks_entry() -> None:
    # the same vector, from a JWK as the JWKS delivers it, through Jwk.verify (what tokens go through)
    x = 0x60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6
    y = 0x7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299
    r = 0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716
    s = 0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8
    entry = {
        "kty": "EC",
        "crv": "P-256",
        "x": b64(x.to_bytes(32, "big")),
        "y": b64(y.to_bytes(32, "big")),
    }
    key = parse_jwk(entry)
    assert key is not None
    assert key.verify("ES256", b"sample", join(r, s))
    assert key.verify("ES256", b"sample", join(r, N - s))
    assert not key.verify("ES256", b"test", join(r, s))
    assert not key.verify("ES256", b"sample", join(r, 0))
    assert not key.verify("ES256", b"sample", join(N, s))
    assert not key.verify("ES256", b"sample", join(r, s)[:-1])
    assert not key.verify("RS256", b"sample", join(r, s))


def test_a_signature_by_another_key_does_not_verify(
    ec_signing_key: ec.EllipticCurvePrivateKey,
) -> None:
    signature = raw_signature(ec_key(), b"m")
    assert not verify(public(ec_signing_key), "ES256", b"m", signature)


def test_r_and_s_out_of_range_are_refused(ec_signing_key: ec.EllipticCurvePrivateKey) -> None:
    key = public(ec_signing_key)
    r, s = split(raw_signature(ec_signing_key, b"m"))
    top = 2**256 - 1
    for bad_r, bad_s in [(0, s), (r, 0), (N, s), (r, N), (top, s), (r, top), (0, 0)]:
        assert not verify(key, "ES256", b"m", join(bad_r, bad_s))
    assert verify(key, "ES256", b"m", join(r, s))


def test_the_mirrored_s_also_verifies_as_ecdsa_allows(
    ec_signing_key: ec.EllipticCurvePrivateKey,
) -> None:
    # JWS does not require low-s; (r, n - s) is a valid signature of the same message
    r, s = split(raw_signature(ec_signing_key, b"m"))
    assert verify(public(ec_signing_key), "ES256", b"m", join(r, N - s))


def test_only_raw_64_octet_signatures_are_accepted(
    ec_signing_key: ec.EllipticCurvePrivateKey,
) -> None:
    key = public(ec_signing_key)
    der = ec_signing_key.sign(b"m", ec.ECDSA(hashes.SHA256()))
    raw = raw_signature(ec_signing_key, b"m")
    assert not verify(key, "ES256", b"m", der)
    assert not verify(key, "ES256", b"m", raw[:-1])
    assert not verify(key, "ES256", b"m", raw + b"\x00")
    assert not verify(key, "ES256", b"m", b"")


@pytest.mark.parametrize("alg", ["ES384", "ES512", "RS256", "PS256", "HS256", "none"])
def test_other_algorithms_never_verify_with_an_ec_key(
    ec_signing_key: ec.EllipticCurvePrivateKey, alg: str
) -> None:
    assert not verify(public(ec_signing_key), alg, b"m", raw_signature(ec_signing_key, b"m"))


def test_a_forged_signature_from_the_message_hash_alone_fails(
    ec_signing_key: ec.EllipticCurvePrivateKey,
) -> None:
    # r = s = hash mod n is a classic naive forgery attempt
    e = int.from_bytes(hashlib.sha256(b"m").digest(), "big") % N
    assert not verify(public(ec_signing_key), "ES256", b"m", join(e, e))


def test_keys_must_be_points_on_p256(ec_signing_key: ec.EllipticCurvePrivateKey) -> None:
    good = public(ec_signing_key)
    x, y = good.x.to_bytes(32, "big"), good.y.to_bytes(32, "big")
    assert EcPublicKey.from_coordinates("P-256", x, y) == good
    problems = [
        ("P-256", x, ((good.y + 1) % P).to_bytes(32, "big"), "not on the P-256 curve"),
        ("P-256", P.to_bytes(32, "big"), y, "not below the field prime"),
        ("P-256", bytes(32), bytes(32), "not on the P-256 curve"),
        ("P-256", x[1:], y, "exactly 32 octets"),
        ("P-256", b"\x00" + x, y, "exactly 32 octets"),
        ("P-384", x, y, "unsupported curve"),
    ]
    for crv, px, py, message in problems:
        with pytest.raises(ValueError, match=message):
            EcPublicKey.from_coordinates(crv, px, py)


def test_an_invalid_key_never_verifies(ec_signing_key: ec.EllipticCurvePrivateKey) -> None:
    good = public(ec_signing_key)
    signature = raw_signature(ec_signing_key, b"m")
    assert not verify(EcPublicKey("P-256", good.x, good.y + 1), "ES256", b"m", signature)
    assert not verify(EcPublicKey("P-256", good.x, good.y + P), "ES256", b"m", signature)


# -- JWKS entries ---------------------------------------------------------------------------------


def test_parse_jwk_reads_an_ec_key(ec_signing_key: ec.EllipticCurvePrivateKey) -> None:
    parsed = parse_jwk(ec_jwk(ec_signing_key, "k", alg="ES256"))
    assert parsed == Jwk(kid="k", alg="ES256", key=public(ec_signing_key))
    assert parsed.accepts("ES256")
    assert not parsed.accepts("RS256")


@pytest.mark.parametrize(
    "change",
    [
        {"crv": "P-384"},
        {"crv": "secp256k1"},
        {"crv": None},
        {"alg": "RS256"},
        {"alg": "ES384"},
        {"use": "enc"},
        {"x": None},
        {"y": "not base64!"},
        {"x": "AAAA"},
        {"d": "AAAA"},
        {"kty": "OKP"},
    ],
)
def test_parse_jwk_skips_ec_keys_it_cannot_use(
    ec_signing_key: ec.EllipticCurvePrivateKey, change: dict[str, Any]
) -> None:
    entry = {**ec_jwk(ec_signing_key), **change}
    entry = {k: v for k, v in entry.items() if v is not None}
    assert parse_jwk(entry) is None


def test_parse_jwk_skips_an_ec_point_off_the_curve(
    ec_signing_key: ec.EllipticCurvePrivateKey,
) -> None:
    numbers = ec_signing_key.public_key().public_numbers()
    entry = {**ec_jwk(ec_signing_key), "y": b64(((numbers.y + 1) % P).to_bytes(32, "big"))}
    assert parse_jwk(entry) is None


def test_parse_jwk_skips_rsa_keys_with_private_parts(signing_key: rsa.RSAPrivateKey) -> None:
    private = signing_key.private_numbers()
    assert parse_jwk(jwk(signing_key, d=b64(private.d.to_bytes(256, "big")))) is None
    rsa_key = parse_jwk(jwk(signing_key))
    assert rsa_key is not None and rsa_key.accepts("PS256") and not rsa_key.accepts("ES256")


# -- end to end through the authenticator ---------------------------------------------------------


@pytest.fixture
def jwks(
    ec_signing_key: ec.EllipticCurvePrivateKey, signing_key: rsa.RSAPrivateKey
) -> Iterator[JwksServer]:
    document = {"keys": [jwk(signing_key, "rsa-1"), ec_jwk(ec_signing_key, "ec-1")]}
    server = JwksServer(document=document).start()
    yield server
    server.stop()


def build(server: JwksServer, **env: str) -> BearerAuthenticator:
    environ = {
        f"{PREFIX}AUTH_JWKS_URL": server.jwks_url,
        f"{PREFIX}AUTH_ISSUER": ISSUER,
        **{f"{PREFIX}{k}": v for k, v in env.items()},
    }
    authenticator = authenticator_from_env(
        environ, resource_url=RESOURCE, prefix=PREFIX, clock=lambda: NOW, monotonic=FakeMonotonic()
    )
    assert authenticator is not None
    return authenticator


def challenge(error: str, description: str, scope: str | None = None) -> str:
    scope_part = f', scope="{scope}"' if scope else ""
    return (
        f'Bearer error="{error}"{scope_part}, resource_metadata="{PRM_URL}", '
        f'error_description="{description}"'
    )


async def test_an_es256_token_from_the_jwks_is_accepted(
    jwks: JwksServer, ec_signing_key: ec.EllipticCurvePrivateKey
) -> None:
    result = await build(jwks).authenticate(f"Bearer {es256_jwt(claims(), ec_signing_key)}", b"")
    assert result == Principal(
        subject="user-42", scopes=frozenset({"pets:read", "pets:write", "profile"}), issuer=ISSUER
    )


async def test_without_kid_the_only_key_of_the_tokens_family_is_used(
    jwks: JwksServer, ec_signing_key: ec.EllipticCurvePrivateKey, signing_key: rsa.RSAPrivateKey
) -> None:
    authenticator = build(jwks)
    es256 = es256_jwt(claims(), ec_signing_key, kid=None)
    rs256 = make_jwt(claims(), signing_key, kid=None)
    assert isinstance(await authenticator.authenticate(f"Bearer {es256}", b""), Principal)
    assert isinstance(await authenticator.authenticate(f"Bearer {rs256}", b""), Principal)


async def test_a_tampered_es256_token_is_refused(
    jwks: JwksServer, ec_signing_key: ec.EllipticCurvePrivateKey
) -> None:
    header, _, signature = es256_jwt(claims(), ec_signing_key).split(".")
    forged = f"{header}.{b64json(claims(sub='admin'))}.{signature}"
    result = await build(jwks).authenticate(f"Bearer {forged}", b"")
    assert result == AuthFailure(
        401,
        challenge("invalid_token", "the token's signature does not verify"),
        "the token's signature does not verify",
    )


async def test_an_es256_token_by_an_unknown_key_is_refused(jwks: JwksServer) -> None:
    result = await build(jwks).authenticate(f"Bearer {es256_jwt(claims(), ec_key())}", b"")
    assert isinstance(result, AuthFailure)
    assert (result.status, result.message) == (401, "the token's signature does not verify")


@pytest.mark.parametrize("kid", ["ec-1", "rsa-1"])
async def test_a_key_is_never_used_for_the_other_family(
    jwks: JwksServer,
    ec_signing_key: ec.EllipticCurvePrivateKey,
    signing_key: rsa.RSAPrivateKey,
    kid: str,
) -> None:
    # an RS256 token naming the EC key, or an ES256 token naming the RSA key, finds no key
    token = (
        make_jwt(claims(), signing_key, kid=kid)
        if kid == "ec-1"
        else es256_jwt(claims(), ec_signing_key, kid=kid)
    )
    result = await build(jwks).authenticate(f"Bearer {token}", b"")
    assert isinstance(result, AuthFailure)
    assert result.message == "the token is signed with a key this server does not know (kid)"


# -- hierarchical scopes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("granted", "required", "separator", "ok"),
    [
        ({"repo"}, ["repo:read"], ":", True),
        ({"repo"}, ["repo:read:issues"], ":", True),
        ({"repo:read"}, ["repo:read:issues"], ":", True),
        ({"repo"}, ["repo:read"], None, False),
        ({"repo:read"}, ["repo"], ":", False),
        ({"repository"}, ["repo:read"], ":", False),
        ({"repo"}, ["repository:read"], ":", False),
        ({"repo", "user"}, ["repo:read", "user:email"], ":", True),
        ({"repo"}, ["repo:read", "user:email"], ":", False),
        ({"files"}, ["files.readonly"], ".", True),
        ({"files"}, ["files:read"], ".", False),
        ({""}, [":read"], ":", False),
        (set(), [], None, True),
    ],
)
def test_scopes_satisfy(
    granted: set[str], required: list[str], separator: str | None, ok: bool
) -> None:
    assert scopes_satisfy(frozenset(granted), required, separator) is ok


@pytest.mark.parametrize(
    ("value", "separator"),
    [
        ("", None),
        ("false", None),
        ("OFF", None),
        ("true", ":"),
        ("Yes", ":"),
        (".", "."),
        ("/", "/"),
    ],
)
def test_the_scope_hierarchy_setting(value: str, separator: str | None) -> None:
    env = {
        f"{PREFIX}AUTH_JWKS_URL": "https://auth.example.com/jwks",
        f"{PREFIX}AUTH_ISSUER": ISSUER,
        f"{PREFIX}AUTH_SCOPE_HIERARCHY": value,
    }
    settings = oauth_settings_from_env(env, resource_url=RESOURCE, prefix=PREFIX)
    assert settings is not None and settings.scope_separator == separator


def test_an_unusable_scope_hierarchy_setting_stops_start_up() -> None:
    env = {
        f"{PREFIX}AUTH_JWKS_URL": "https://auth.example.com/jwks",
        f"{PREFIX}AUTH_ISSUER": ISSUER,
        f"{PREFIX}AUTH_SCOPE_HIERARCHY": "-",
    }
    with pytest.raises(ValueError) as info:
        oauth_settings_from_env(env, resource_url=RESOURCE, prefix=PREFIX)
    assert str(info.value) == (
        f"{PREFIX}AUTH_SCOPE_HIERARCHY must be true, false or one of the separators : . /"
    )
    with pytest.raises(ValueError, match="is set but PETSTORE_AUTH_JWKS_URL is not"):
        oauth_settings_from_env(
            {f"{PREFIX}AUTH_SCOPE_HIERARCHY": "true"}, resource_url=RESOURCE, prefix=PREFIX
        )


async def test_a_broader_granted_scope_covers_a_required_one_when_hierarchical(
    jwks: JwksServer, ec_signing_key: ec.EllipticCurvePrivateKey
) -> None:
    token = es256_jwt(claims(scope="repo profile"), ec_signing_key)
    hierarchical = build(jwks, AUTH_REQUIRED_SCOPES="repo:read", AUTH_SCOPE_HIERARCHY="true")
    result = await hierarchical.authenticate(f"Bearer {token}", b"")
    assert result == Principal(
        subject="user-42", scopes=frozenset({"repo", "profile"}), issuer=ISSUER
    )

    exact = build(jwks, AUTH_REQUIRED_SCOPES="repo:read")
    assert await exact.authenticate(f"Bearer {token}", b"") == AuthFailure(
        403,
        challenge(
            "insufficient_scope", "the token lacks a scope this server requires", "repo:read"
        ),
        "the token lacks a scope this server requires",
    )


async def test_a_narrower_granted_scope_never_covers_a_broader_one(
    jwks: JwksServer, ec_signing_key: ec.EllipticCurvePrivateKey
) -> None:
    token = es256_jwt(claims(scope="repo:read"), ec_signing_key)
    authenticator = build(jwks, AUTH_REQUIRED_SCOPES="repo", AUTH_SCOPE_HIERARCHY=":")
    result = await authenticator.authenticate(f"Bearer {token}", b"")
    assert isinstance(result, AuthFailure) and result.status == 403
