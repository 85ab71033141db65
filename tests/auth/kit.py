"""Test kit for inbound auth: RSA keys and JWTs signed with ``cryptography``, a JWKS server on loopback.

The tests sign with ``cryptography`` directly; the runtime verifies with it too (through the ``http``
extra), but adds its own JWS rules on top, so the forgeries here are built by hand (raw private-key
operations, hand-made encodings) rather than by the library that checks them.
"""

from __future__ import annotations

import base64
import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

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


@dataclass
class JwksServer:
    """Serves ``document`` (or ``raw``) at ``/jwks``; counts the requests it answered."""

    document: dict[str, Any] = field(default_factory=lambda: {"keys": []})
    status: int = 200
    raw: bytes | None = None
    requests: int = 0
    url: str = ""
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> JwksServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                with owner._lock:
                    owner.requests += 1
                body = owner.raw if owner.raw is not None else json.dumps(owner.document).encode()
                self.send_response(owner.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/jwks"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.01,), daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None


class FakeMonotonic:
    """A monotonic clock the test moves by hand (cache TTL and refetch intervals)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
