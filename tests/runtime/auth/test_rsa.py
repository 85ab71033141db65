"""RSA verification (``auth_rsa``) of signatures made by ``cryptography``, and forgeries it must refuse."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from templates.runtime.auth.rsa import ALGORITHMS, RsaPublicKey, verify

from .kit import sign

MESSAGE = b"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0"
SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


def public(key: rsa.RSAPrivateKey) -> RsaPublicKey:
    numbers = key.public_key().public_numbers()
    return RsaPublicKey(n=numbers.n, e=numbers.e)


def raw_sign(key: rsa.RSAPrivateKey, encoded: bytes) -> bytes:
    """The private-key operation on an encoded message of our choosing (for forged structures)."""
    numbers = key.private_numbers()
    n = numbers.public_numbers.n
    k = (n.bit_length() + 7) // 8
    return pow(int.from_bytes(encoded, "big"), numbers.d, n).to_bytes(k, "big")


@pytest.mark.parametrize("bits", [2048, 2049, 3072, 4096])
@pytest.mark.parametrize("alg", sorted(ALGORITHMS))
def test_signatures_made_by_cryptography_verify(
    rsa_keys: dict[int, rsa.RSAPrivateKey], bits: int, alg: str
) -> None:
    key = rsa_keys[bits]
    signature = sign(key, alg, MESSAGE)
    assert verify(public(key), alg, MESSAGE, signature) is True
    assert verify(public(key), alg, MESSAGE + b"x", signature) is False
    flipped = signature[:-1] + bytes([signature[-1] ^ 1])
    assert verify(public(key), alg, MESSAGE, flipped) is False


@pytest.mark.parametrize("bits", [2048, 3072, 4096])
def test_signature_under_another_key_does_not_verify(
    rsa_keys: dict[int, rsa.RSAPrivateKey], other_key: rsa.RSAPrivateKey, bits: int
) -> None:
    assert (
        verify(public(other_key), "RS256", MESSAGE, sign(rsa_keys[bits], "RS256", MESSAGE)) is False
    )


def test_padding_schemes_are_not_interchangeable(signing_key: rsa.RSAPrivateKey) -> None:
    key = public(signing_key)
    assert verify(key, "PS256", MESSAGE, sign(signing_key, "RS256", MESSAGE)) is False
    assert verify(key, "RS256", MESSAGE, sign(signing_key, "PS256", MESSAGE)) is False
    assert verify(key, "RS384", MESSAGE, sign(signing_key, "RS256", MESSAGE)) is False


@pytest.mark.parametrize("alg", ["none", "HS256", "ES256", "rs256", ""])
def test_algorithms_outside_the_rsa_table_never_verify(
    signing_key: rsa.RSAPrivateKey, alg: str
) -> None:
    assert verify(public(signing_key), alg, MESSAGE, sign(signing_key, "RS256", MESSAGE)) is False


def test_signature_of_the_wrong_length_is_refused(signing_key: rsa.RSAPrivateKey) -> None:
    signature = sign(signing_key, "RS256", MESSAGE)
    key = public(signing_key)
    assert verify(key, "RS256", MESSAGE, b"\x00" + signature) is False
    assert verify(key, "RS256", MESSAGE, signature[1:]) is False
    assert verify(key, "RS256", MESSAGE, b"") is False


def test_signature_not_below_the_modulus_is_refused(signing_key: rsa.RSAPrivateKey) -> None:
    key = public(signing_key)
    k = (key.n.bit_length() + 7) // 8
    signature = sign(signing_key, "RS256", MESSAGE)
    # s + n is congruent to s but not a valid representative
    s_plus_n = int.from_bytes(signature, "big") + key.n
    if s_plus_n.bit_length() <= 8 * k:
        assert verify(key, "RS256", MESSAGE, s_plus_n.to_bytes(k, "big")) is False
    assert verify(key, "RS256", MESSAGE, key.n.to_bytes(k, "big")) is False
    assert verify(key, "RS256", MESSAGE, b"\xff" * k) is False


def test_hand_built_pkcs1_encoding_verifies(signing_key: rsa.RSAPrivateKey) -> None:
    """Control for the forgery tests below: the raw construction itself is right."""
    k = 256
    t = SHA256_DIGEST_INFO + hashlib.sha256(MESSAGE).digest()
    encoded = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    assert verify(public(signing_key), "RS256", MESSAGE, raw_sign(signing_key, encoded)) is True


@pytest.mark.parametrize(
    "layout",
    [
        "garbage_after_hash",
        "short_padding",
        "digest_info_without_null",
        "block_type_2",
        "nonzero_separator",
    ],
)
def test_malformed_pkcs1_encodings_are_refused(signing_key: rsa.RSAPrivateKey, layout: str) -> None:
    k = 256
    digest = hashlib.sha256(MESSAGE).digest()
    t = SHA256_DIGEST_INFO + digest
    if layout == "garbage_after_hash":  # Bleichenbacher 2006: a lenient parser stops after the hash
        encoded = b"\x00\x01\xff\xff\xff\xff\xff\xff\xff\xff\x00" + t
        encoded += b"\x42" * (k - len(encoded))
    elif layout == "short_padding":
        encoded = b"\x00\x01" + b"\xff" * 7 + b"\x00" + t
        encoded = encoded + b"\x00" * (k - len(encoded))
    elif layout == "digest_info_without_null":
        t = bytes.fromhex("302f300b0609608648016503040201") + b"\x04\x20" + digest
        encoded = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    elif layout == "block_type_2":
        encoded = b"\x00\x02" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    else:
        encoded = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x01" + t
    assert len(encoded) == k
    assert verify(public(signing_key), "RS256", MESSAGE, raw_sign(signing_key, encoded)) is False


@pytest.mark.parametrize("salt_length", [0, 20, padding.PSS.MAX_LENGTH])
def test_pss_salt_must_be_as_long_as_the_hash(
    signing_key: rsa.RSAPrivateKey, salt_length: int
) -> None:
    # RFC 7518 §3.5 fixes the salt length of PS256 at 32 octets
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=salt_length)
    signature = signing_key.sign(MESSAGE, pss, hashes.SHA256())
    assert verify(public(signing_key), "PS256", MESSAGE, signature) is False


def test_pss_with_another_mgf_hash_is_refused(signing_key: rsa.RSAPrivateKey) -> None:
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA1()), salt_length=32)
    signature = signing_key.sign(MESSAGE, pss, hashes.SHA256())
    assert verify(public(signing_key), "PS256", MESSAGE, signature) is False


def test_keys_below_2048_bits_are_refused_even_with_a_valid_signature() -> None:
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    key = public(small)
    assert key.problem() == "RSA modulus of 1024 bits is below the minimum of 2048"
    assert verify(key, "RS256", MESSAGE, sign(small, "RS256", MESSAGE)) is False


@pytest.mark.parametrize("e", [1, 2, 65536, 2**300 + 1])
def test_unusable_public_exponents_are_refused(signing_key: rsa.RSAPrivateKey, e: int) -> None:
    key = RsaPublicKey(n=public(signing_key).n, e=e)
    assert key.problem() is not None
    assert verify(key, "RS256", MESSAGE, sign(signing_key, "RS256", MESSAGE)) is False
