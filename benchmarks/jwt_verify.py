"""Inbound JWT verification throughput: verifications per second for ES256, RS256 and PS256.

Each verification is what the authenticator does per token once the JWKS is cached: ``parse_jws``
(strict base64url, JSON and header checks) and ``Jwk.verify`` (the JWS rules of ``auth_ec`` /
``auth_rsa`` plus the signature itself, done by ``cryptography``). Claims are not checked (that is a
few dictionary lookups). Keys are fresh per run: P-256 for ES256, RSA-2048 (e = 65537) for RS256
and PS256. One core, best of ``--rounds`` one-second rounds; figures, not assertions.

    python benchmarks/jwt_verify.py [--rounds 3] [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from templates.runtime.auth.jwt import Jwk, parse_jwk, parse_jws  # noqa: E402


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64int(value: int) -> str:
    return b64(value.to_bytes((value.bit_length() + 7) // 8, "big"))


def token(alg: str, sign: Callable[[bytes], bytes]) -> str:
    header = b64(json.dumps({"alg": alg, "typ": "at+jwt", "kid": "k"}).encode())
    claims = {"iss": "https://auth.example.com", "sub": "user-42", "exp": 1_800_000_000}
    signing_input = f"{header}.{b64(json.dumps(claims).encode())}"
    return f"{signing_input}.{b64(sign(signing_input.encode()))}"


def cases() -> list[tuple[str, Jwk, str]]:
    ec_key = ec.generate_private_key(ec.SECP256R1())
    point = ec_key.public_key().public_numbers()
    ec_jwk = parse_jwk(
        {
            "kty": "EC",
            "crv": "P-256",
            "kid": "k",
            "x": b64(point.x.to_bytes(32, "big")),
            "y": b64(point.y.to_bytes(32, "big")),
        }
    )

    def es256(message: bytes) -> bytes:
        r, s = decode_dss_signature(ec_key.sign(message, ec.ECDSA(hashes.SHA256())))
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")

    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    numbers = rsa_key.public_key().public_numbers()
    rsa_jwk = parse_jwk({"kty": "RSA", "kid": "k", "n": b64int(numbers.n), "e": b64int(numbers.e)})
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32)
    assert ec_jwk is not None and rsa_jwk is not None
    return [
        ("ES256", ec_jwk, token("ES256", es256)),
        (
            "RS256",
            rsa_jwk,
            token("RS256", lambda m: rsa_key.sign(m, padding.PKCS1v15(), hashes.SHA256())),
        ),
        ("PS256", rsa_jwk, token("PS256", lambda m: rsa_key.sign(m, pss, hashes.SHA256()))),
    ]


def rate(key: Jwk, compact: str, rounds: int, seconds: float) -> float:
    def once() -> None:
        jws = parse_jws(compact)
        if not key.verify(jws.alg, jws.signing_input, jws.signature):
            raise SystemExit("a valid token did not verify")

    once()  # the first call loads cryptography and the key
    best = 0.0
    for _ in range(rounds):
        count = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            once()
            count += 1
        best = max(best, count / elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    print(f"{'alg':<6} {'verifications/s':>16} {'µs each':>9}")
    for alg, key, compact in cases():
        per_second = rate(key, compact, args.rounds, args.seconds)
        print(f"{alg:<6} {per_second:>16,.0f} {1e6 / per_second:>9.1f}")


if __name__ == "__main__":
    main()
