"""RSA keys and signatures for the JWS algorithms RS256/384/512 and PS256/384/512.

This module owns the rules a JWS verifier adds on top of RSA itself: the key policy (a modulus of 2048
to 8192 bits, an odd public exponent between 3 and 2^256), the signature length (exactly as many
octets as the modulus, RFC 8017 §8.2.2 step 1) and value (below the modulus), and the padding each
``alg`` names. The arithmetic is ``cryptography``'s (OpenSSL), part of the ``http`` extra and imported
on the first verification. PKCS#1 v1.5 there is checked by re-encoding the expected ``DigestInfo`` and
comparing whole encodings, which rules out Bleichenbacher-style forgeries with trailing garbage or
missing ``NULL`` parameters; PSS uses MGF1 with the token's hash and, as RFC 7518 §3.5 requires, a salt
exactly as long as the hash. Everything malformed is simply "does not verify"; nothing here raises on
hostile input.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.padding import AsymmetricPadding
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
    from cryptography.hazmat.primitives.hashes import HashAlgorithm

__all__ = ["ALGORITHMS", "MAX_MODULUS_BITS", "MIN_MODULUS_BITS", "RsaPublicKey", "verify"]

# RFC 7518 §3.3: keys of 2048 bits or more MUST be used; the upper bound keeps one verification cheap.
MIN_MODULUS_BITS: Final = 2048
MAX_MODULUS_BITS: Final = 8192
_MAX_EXPONENT_BITS: Final = 256
# prepared keys, by (n, e): loading a key into OpenSSL costs more than verifying with it
_KEY_CACHE_SIZE: Final = 128

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
    # RFC 8017 §8.2.2 step 1 / §8.1.2 step 1: the signature is exactly k octets and s < n
    if len(signature) != (key.n.bit_length() + 7) // 8:
        return False
    if int.from_bytes(signature, "big") >= key.n:
        return False
    from cryptography.exceptions import InvalidSignature  # noqa: PLC0415 - http extra, lazily

    padding, hash_name = scheme
    public_key = _loaded(key.n, key.e)
    if public_key is None:
        return False
    digest = _hash(hash_name)
    try:
        public_key.verify(signature, message, _padding(padding, digest), digest)
    except InvalidSignature:
        return False
    return True


@functools.lru_cache(maxsize=_KEY_CACHE_SIZE)
def _loaded(n: int, e: int) -> RSAPublicKey | None:
    from cryptography.hazmat.primitives.asymmetric import rsa  # noqa: PLC0415 - http extra

    try:
        return rsa.RSAPublicNumbers(e, n).public_key()
    except ValueError:
        return None


def _hash(name: str) -> HashAlgorithm:
    from cryptography.hazmat.primitives import hashes  # noqa: PLC0415 - http extra

    choices: dict[str, type[HashAlgorithm]] = {
        "sha256": hashes.SHA256,
        "sha384": hashes.SHA384,
        "sha512": hashes.SHA512,
    }
    return choices[name]()


def _padding(name: str, digest: HashAlgorithm) -> AsymmetricPadding:
    from cryptography.hazmat.primitives.asymmetric import padding  # noqa: PLC0415 - http extra

    if name == "pkcs1v15":
        return padding.PKCS1v15()
    # RFC 7518 §3.5: MGF1 with the same hash, a salt exactly as long as the hash
    return padding.PSS(mgf=padding.MGF1(digest), salt_length=digest.digest_size)
