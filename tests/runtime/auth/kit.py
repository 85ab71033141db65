"""Test kit for inbound auth: RSA keys and JWTs signed with ``cryptography``, a JWKS on loopback.

The tests sign with ``cryptography`` directly; the runtime verifies with it too (through the ``http``
extra), but adds its own JWS rules on top, so the forgeries here are built by hand (raw private-key
operations, hand-made encodings) rather than by the library that checks them.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tests.kit.upstream import JSON, RecordingUpstream, Reply, Request

RESOURCE = "https://mcp.example.com/mcp"
PRM_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
ISSUER = "https://auth.example.com"
NOW = 1_800_000_000.0
PREFIX = "PETSTORE_"

_HASHES: dict[str, type[hashes.HashAlgorithm]] = {
    "256": hashes.SHA256,
    "384": hashes.SHA384,
    "512": hashes.SHA512,
}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64json(value: Any) -> str:
    return b64(json.dumps(value, separators=(",", ":")).encode())


def sign(key: rsa.RSAPrivateKey, alg: str, message: bytes) -> bytes:
    digest = _HASHES[alg[2:]]()
    if alg.startswith("RS"):
        return key.sign(message, padding.PKCS1v15(), digest)
    pss = padding.PSS(mgf=padding.MGF1(digest), salt_length=padding.PSS.DIGEST_LENGTH)
    return key.sign(message, pss, digest)


def make_jwt(
    claims: dict[str, Any],
    key: rsa.RSAPrivateKey,
    *,
    alg: str = "RS256",
    kid: str | None = "key-1",
    header: dict[str, Any] | None = None,
) -> str:
    if header is None:
        header = {"alg": alg, "typ": "at+jwt"}
        if kid is not None:
            header["kid"] = kid
    signing_input = f"{b64json(header)}.{b64json(claims)}"
    return f"{signing_input}.{b64(sign(key, alg, signing_input.encode()))}"


def claims(**overrides: Any) -> dict[str, Any]:
    """Claims of a token that the test authenticator accepts, changed by ``overrides`` (None drops)."""
    base: dict[str, Any] = {
        "iss": ISSUER,
        "sub": "user-42",
        "aud": RESOURCE,
        "exp": NOW + 600,
        "iat": NOW - 10,
        "nbf": NOW - 10,
        "scope": "pets:read pets:write profile",
        "client_id": "client-7",
    }
    base.update(overrides)
    return {k: v for k, v in base.items() if v is not None}


def int_b64(value: int) -> str:
    return b64(value.to_bytes((value.bit_length() + 7) // 8, "big"))


def jwk(key: rsa.RSAPrivateKey, kid: str | None = "key-1", **extra: Any) -> dict[str, Any]:
    numbers = key.public_key().public_numbers()
    entry: dict[str, Any] = {
        "kty": "RSA",
        "use": "sig",
        "n": int_b64(numbers.n),
        "e": int_b64(numbers.e),
    }
    if kid is not None:
        entry["kid"] = kid
    entry.update(extra)
    return entry


class JwksServer(RecordingUpstream):
    """The kit's recording upstream serving ``document`` (or ``raw``) as the JWKS at ``jwks_url``."""

    def __init__(
        self, document: dict[str, Any] | None = None, status: int = 200, raw: bytes | None = None
    ) -> None:
        super().__init__()
        self.document = {"keys": []} if document is None else document
        self.status = status
        self.raw = raw

    @property
    def jwks_url(self) -> str:
        return f"{self.url}/jwks"

    def answer(self, request: Request) -> Reply:
        body = self.raw if self.raw is not None else json.dumps(self.document).encode()
        return Reply(self.status, body, JSON)


class FakeMonotonic:
    """A monotonic clock the test moves by hand (cache TTL and refetch intervals)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
