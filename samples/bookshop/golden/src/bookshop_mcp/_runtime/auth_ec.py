"""ECDSA signature verification in pure Python for the JWS algorithm ES256 (P-256 with SHA-256).

The runtime may not depend on a crypto library, and verifying needs only public data, so plain
integer arithmetic is enough: points on the NIST P-256 curve (FIPS 186-4 §D.1.2.3) in Jacobian
coordinates, ``u1·G + u2·Q`` computed in one pass (Shamir's trick), and the check of SEC 1 §4.1.4.
Constant time does not matter here: the key, the message and the signature are all public. Keys come
from JWK ``x``/``y`` coordinates (RFC 7518 §6.2.1), each exactly 32 octets, and must be a point on the
curve (the cofactor is 1, so any such point has the full group order); a JWS signature is the raw
``r || s`` of RFC 7518 §3.4, 64 octets, with ``1 <= r, s < n``. Everything malformed is simply "does
not verify"; nothing here raises on hostile input.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

__all__ = ["ALGORITHMS", "CURVES", "EcPublicKey", "verify"]

# NIST P-256 (secp256r1): y^2 = x^3 - 3x + b over GF(p), base point G of prime order n
_P: Final = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
_B: Final = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
_N: Final = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_GX: Final = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
_GY: Final = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5
_COORDINATE_BYTES: Final = 32

# JWS "alg" → (JWK "crv", hash); anything else is not accepted here
ALGORITHMS: Final[dict[str, tuple[str, str]]] = {"ES256": ("P-256", "sha256")}
CURVES: Final = frozenset(curve for curve, _ in ALGORITHMS.values())

# a point in Jacobian coordinates (X, Y, Z) stands for (X/Z^2, Y/Z^3); Z == 0 is the point at infinity
_Jacobian = tuple[int, int, int]
_INFINITY: Final[_Jacobian] = (1, 1, 0)


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
        if not _on_curve(self.x, self.y):
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
    # the hash is as long as n, so no leftmost-bits truncation is needed (SEC 1 §4.1.4 step 5)
    e = int.from_bytes(hashlib.new(scheme[1], message).digest(), "big")
    w = pow(s, -1, _N)
    point = _twin_multiply(e * w % _N, (_GX, _GY), r * w % _N, (key.x, key.y))
    if point[2] == 0:
        return False
    x, _ = _affine(point)
    return x % _N == r


def _on_curve(x: int, y: int) -> bool:
    return (y * y - (x * x * x - 3 * x + _B)) % _P == 0


def _affine(point: _Jacobian) -> tuple[int, int]:
    x, y, z = point
    z_inv = pow(z, -1, _P)
    z_inv2 = z_inv * z_inv % _P
    return x * z_inv2 % _P, y * z_inv2 * z_inv % _P


def _double(point: _Jacobian) -> _Jacobian:
    x, y, z = point
    if z == 0 or y == 0:
        return _INFINITY
    # dbl-2001-b, for curves with a = -3
    delta = z * z % _P
    gamma = y * y % _P
    beta = x * gamma % _P
    alpha = 3 * (x - delta) * (x + delta) % _P
    x3 = (alpha * alpha - 8 * beta) % _P
    z3 = ((y + z) * (y + z) - gamma - delta) % _P
    y3 = (alpha * (4 * beta - x3) - 8 * gamma * gamma) % _P
    return x3, y3, z3


def _add(p1: _Jacobian, p2: _Jacobian) -> _Jacobian:
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    if z1 == 0:
        return p2
    if z2 == 0:
        return p1
    z1z1 = z1 * z1 % _P
    z2z2 = z2 * z2 % _P
    u1 = x1 * z2z2 % _P
    u2 = x2 * z1z1 % _P
    s1 = y1 * z2 * z2z2 % _P
    s2 = y2 * z1 * z1z1 % _P
    h = (u2 - u1) % _P
    r = (s2 - s1) % _P
    if h == 0:
        return _double(p1) if r == 0 else _INFINITY
    hh = h * h % _P
    hhh = h * hh % _P
    v = u1 * hh % _P
    x3 = (r * r - hhh - 2 * v) % _P
    y3 = (r * (v - x3) - s1 * hhh) % _P
    z3 = h * z1 * z2 % _P
    return x3, y3, z3


def _twin_multiply(a: int, p: tuple[int, int], b: int, q: tuple[int, int]) -> _Jacobian:
    """``a·P + b·Q`` with one shared chain of doublings."""
    jp: _Jacobian = (p[0], p[1], 1)
    jq: _Jacobian = (q[0], q[1], 1)
    both = _add(jp, jq)
    result = _INFINITY
    for bit in range(max(a.bit_length(), b.bit_length()) - 1, -1, -1):
        result = _double(result)
        pick = ((a >> bit) & 1, (b >> bit) & 1)
        if pick == (1, 1):
            result = _add(result, both)
        elif pick == (1, 0):
            result = _add(result, jp)
        elif pick == (0, 1):
            result = _add(result, jq)
    return result
