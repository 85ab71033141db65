"""ECDSA keys and signatures for the JWS algorithm ES256 (P-256 with SHA-256).

This module owns the rules a JWS verifier adds on top of ECDSA itself. Keys come from JWK ``x``/``y``
coordinates (RFC 7518 §6.2.1), each exactly 32 octets, below the field prime, and must be a point on
the curve (the cofactor is 1, so any such point has the full group order). A JWS signature is the raw
``r || s`` of RFC 7518 §3.4: exactly 64 octets (DER, or any other length, is refused), with
``1 <= r, s < n``; the mirrored ``s`` (high-s) is valid ECDSA and JWS does not forbid it. The curve
arithmetic and the point check are ``cryptography``'s (OpenSSL), part of the ``http`` extra and
imported when the first key is loaded. Everything malformed is simply "does not verify"; nothing here
raises on hostile input.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ec import EllipticCurvePublicKey

__all__ = ["ALGORITHMS", "CURVES", "EcPublicKey", "verify"]

# NIST P-256 (secp256r1): field prime p and group order n, for the range checks made before OpenSSL
_P: Final = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
_N: Final = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_COORDINATE_BYTES: Final = 32
# prepared keys, by point: loading a key into OpenSSL (with its on-curve check) costs a verification
_KEY_CACHE_SIZE: Final = 128

# JWS "alg" → (JWK "crv", hash); anything else is not accepted here
ALGORITHMS: Final[dict[str, tuple[str, str]]] = {"ES256": ("P-256", "sha256")}
CURVES: Final = frozenset(curve for curve, _ in ALGORITHMS.values())


@dataclass(frozen=True, slots=True)
class EcPublicKey:
    """An elliptic-curve public key: the curve's JWK name and the affine coordinates of the point."""

    crv: str
    x: int
    y: int

    @classmethod
    def from_coordinates(cls, crv: str, x: bytes, y: bytes) -> EcPublicKey:
        """The key from JWK ``x``/``y`` octets; ``ValueError`` unless they are a point of ``crv``."""
        if crv not in CURVES:
            raise ValueError("unsupported curve")
        if len(x) != _COORDINATE_BYTES or len(y) != _COORDINATE_BYTES:
            raise ValueError("a P-256 coordinate is exactly 32 octets")
        key = cls(crv, int.from_bytes(x, "big"), int.from_bytes(y, "big"))
        problem = key.problem()
        if problem is not None:
            raise ValueError(problem)
        return key

    def problem(self) -> str | None:
        """Why this key is unusable (unknown curve, not a point on the curve), or None if it is fine."""
        if self.crv not in CURVES:
            return f"unsupported curve {self.crv!r}"
        if not (0 <= self.x < _P and 0 <= self.y < _P):
            return "a coordinate is not below the field prime"
        if _loaded(self.x, self.y) is None:
            return "the point is not on the P-256 curve"
        return None


def verify(key: EcPublicKey, alg: str, message: bytes, signature: bytes) -> bool:
    """True only if ``signature`` (raw ``r || s``) is a valid ``alg`` signature of ``message``."""
    scheme = ALGORITHMS.get(alg)
    if scheme is None or scheme[0] != key.crv or key.problem() is not None:
        return False
    if len(signature) != 2 * _COORDINATE_BYTES:
        return False
    r = int.from_bytes(signature[:_COORDINATE_BYTES], "big")
    s = int.from_bytes(signature[_COORDINATE_BYTES:], "big")
    if not (0 < r < _N and 0 < s < _N):
        return False
    from cryptography.exceptions import InvalidSignature  # noqa: PLC0415 - http extra, lazily
    from cryptography.hazmat.primitives import hashes  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ec  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric.utils import (  # noqa: PLC0415
        encode_dss_signature,
    )

    public_key = _loaded(key.x, key.y)
    if public_key is None:
        return False
    try:
        public_key.verify(encode_dss_signature(r, s), message, ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return False
    return True


@functools.lru_cache(maxsize=_KEY_CACHE_SIZE)
def _loaded(x: int, y: int) -> EllipticCurvePublicKey | None:
    """The OpenSSL key for a P-256 point, or None when the point is not on the curve."""
    from cryptography.hazmat.primitives.asymmetric import ec  # noqa: PLC0415 - http extra

    try:
        return ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
    except ValueError:
        return None
