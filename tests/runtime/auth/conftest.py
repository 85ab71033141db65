"""Fixtures for the auth tests: RSA keys (generated once per session) and a JWKS server per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from .kit import JwksServer, jwk


def _generate(bits: int) -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=bits)


@pytest.fixture(scope="session")
def rsa_keys() -> dict[int, rsa.RSAPrivateKey]:
    """One key per size; 2049 bits exercises the PSS case where the encoded message is k-1 octets."""
    return {bits: _generate(bits) for bits in (2048, 2049, 3072, 4096)}


@pytest.fixture(scope="session")
def signing_key(rsa_keys: dict[int, rsa.RSAPrivateKey]) -> rsa.RSAPrivateKey:
    return rsa_keys[2048]


@pytest.fixture(scope="session")
def other_key() -> rsa.RSAPrivateKey:
    return _generate(2048)


@pytest.fixture
def jwks_server(signing_key: rsa.RSAPrivateKey) -> Iterator[JwksServer]:
    server = JwksServer(document={"keys": [jwk(signing_key, "key-1")]}).start()
    yield server
    server.stop()
