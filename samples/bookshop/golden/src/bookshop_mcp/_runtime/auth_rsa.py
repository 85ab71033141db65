"""RSA signature verification in pure Python, for the JWS algorithms RS256/384/512 and PS256/384/512.

The runtime may not depend on a crypto library, and verifying needs only the public-key operation
(``pow(s, e, n)``) plus a strict check of the encoded message. PKCS#1 v1.5 (RSASSA-PKCS1-v1_5, RFC 8017
§8.2.2) is checked by building the one acceptable encoding (``00 01 FF… 00 DigestInfo hash``, with the
DER ``NULL`` parameters) and comparing whole byte strings, never by parsing what the signature decrypts
to, which is how Bleichenbacher-style forgeries with trailing garbage are ruled out. PSS (RFC 8017
§9.1.2) uses MGF1 with the same hash and, as RFC 7518 §3.5 requires, a salt as long as the hash.
Everything malformed is simply "does not verify"; nothing here raises on hostile input.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Final

# RFC 7518 §3.3: keys of 2048 bits or more MUST be used; the upper bound keeps one pow() cheap.
MIN_MODULUS_BITS: Final = 2048
MAX_MODULUS_BITS: Final = 8192
_MAX_EXPONENT_BITS: Final = 256

# DER DigestInfo prefixes (RFC 8017 §9.2 note 1), parameters given as NULL
_DIGEST_INFO: Final[dict[str, bytes]] = {
    "sha256": bytes.fromhex("3031300d060960864801650304020105000420"),
    "sha384": bytes.fromhex("3041300d060960864801650304020205000430"),
    "sha512": bytes.fromhex("3051300d060960864801650304020305000440"),
}

# JWS "alg" → (padding, hash); anything else (none, HS*, ES*, …) is not accepted
ALGORITHMS: Final[dict[str, tuple[str, str]]] = {
    "RS256": ("pkcs1v15", "sha256"),
    "RS384": ("pkcs1v15", "sha384"),
    "RS512": ("pkcs1v15", "sha512"),
    "PS256": ("pss", "sha256"),
    "PS384": ("pss", "sha384"),
    "PS512": ("pss", "sha512"),
}


@dataclass(frozen=True, slots=True)
class RsaPublicKey:
    """An RSA public key: modulus ``n`` and public exponent ``e``."""

    n: int
    e: int

    def problem(self) -> str | None:
        """Why this key is unusable (too small, too large, odd exponent rules), or None if it is fine."""
        bits = self.n.bit_length()
        if bits < MIN_MODULUS_BITS:
            return f"RSA modulus of {bits} bits is below the minimum of {MIN_MODULUS_BITS}"
        if bits > MAX_MODULUS_BITS:
            return f"RSA modulus of {bits} bits is above the maximum of {MAX_MODULUS_BITS}"
        if self.n % 2 == 0:
            return "RSA modulus is even"
        if (
            self.e < 3
            or self.e % 2 == 0
            or self.e.bit_length() > _MAX_EXPONENT_BITS
            or self.e >= self.n
        ):
            return "RSA public exponent is not an odd number between 3 and 2^256"
        return None


def verify(key: RsaPublicKey, alg: str, message: bytes, signature: bytes) -> bool:
    """True only if ``signature`` is a valid ``alg`` signature of ``message`` under ``key``."""
    scheme = ALGORITHMS.get(alg)
    if scheme is None or key.problem() is not None:
        return False
    padding, hash_name = scheme
    k = (key.n.bit_length() + 7) // 8
    # RFC 8017 §8.2.2 step 1 / §8.1.2 step 1: the signature is exactly k octets and s < n
    if len(signature) != k:
        return False
    s = int.from_bytes(signature, "big")
    if s >= key.n:
        return False
    m = pow(s, key.e, key.n)
    if padding == "pkcs1v15":
        return _pkcs1v15_matches(m, k, hash_name, message)
    return _pss_matches(m, key.n.bit_length() - 1, hash_name, message)


def _pkcs1v15_matches(m: int, k: int, hash_name: str, message: bytes) -> bool:
    t = _DIGEST_INFO[hash_name] + hashlib.new(hash_name, message).digest()
    if k < len(t) + 11:
        return False
    expected = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    return hmac.compare_digest(m.to_bytes(k, "big"), expected)


def _pss_matches(m: int, em_bits: int, hash_name: str, message: bytes) -> bool:
    em_len = (em_bits + 7) // 8
    h_len = hashlib.new(hash_name).digest_size
    s_len = h_len
    # I2OSP(m, emLen) fails when m does not fit; emLen too short cannot hold hash, salt and markers
    if m.bit_length() > 8 * em_len or em_len < h_len + s_len + 2:
        return False
    em = m.to_bytes(em_len, "big")
    db_len = em_len - h_len - 1
    masked_db, h = em[:db_len], em[db_len : db_len + h_len]
    unused_bits = 8 * em_len - em_bits
    top_mask = 0xFF >> unused_bits
    trailer_ok = em[-1] == 0xBC
    top_bits_ok = (masked_db[0] & ~top_mask & 0xFF) == 0
    db_int = int.from_bytes(masked_db, "big") ^ int.from_bytes(_mgf1(h, db_len, hash_name), "big")
    db = bytearray(db_int.to_bytes(db_len, "big"))
    db[0] &= top_mask
    ps_len = em_len - h_len - s_len - 2
    padding_ok = hmac.compare_digest(bytes(db[: ps_len + 1]), b"\x00" * ps_len + b"\x01")
    salt = bytes(db[ps_len + 1 :])
    m_hash = hashlib.new(hash_name, message).digest()
    h_expected = hashlib.new(hash_name, b"\x00" * 8 + m_hash + salt).digest()
    hash_ok = hmac.compare_digest(h, h_expected)
    return trailer_ok & top_bits_ok & padding_ok & hash_ok


def _mgf1(seed: bytes, length: int, hash_name: str) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += hashlib.new(hash_name, seed + counter.to_bytes(4, "big")).digest()
        counter += 1
    return bytes(out[:length])
