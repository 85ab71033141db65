"""What the token store keeps and how it is sealed: ``Credential``, the store key, AES-GCM, row names.

``parse_store_key`` reads ``<PREFIX>_TOKEN_STORE_KEY`` (32 bytes as base64, base64url or hex; messages
name the variable, never the value). ``Sealer`` derives two keys from it with HMAC-SHA256 under fixed
labels and the server's namespace: one for AES-GCM (``cryptography``, the ``http`` extra, imported when
a sealer is made), one for row names. A sealed value is the format version, a fresh 96-bit nonce and
the ciphertext with its tag; the associated data is the format version and the value's context (for a
credential: issuer, subject, scheme), so a value copied to another row does not open. A row name is the
HMAC of such a context, so the store holds no identifier in plaintext. Contexts are encoded as JSON
arrays: unambiguous where joining with a separator is not.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

from ..errors import TokenStoreError

__all__ = [
    "KEY_BYTES",
    "Credential",
    "CredentialKind",
    "Sealer",
    "TokenStoreError",
    "parse_store_key",
]

FORMAT_VERSION: Final = 1
KEY_BYTES: Final = 32
_NONCE_BYTES: Final = 12
_TAG_BYTES: Final = 16

CredentialKind = Literal["oauth2", "apiKey", "bearer", "basic"]
# the secret values each kind cannot do without
_REQUIRED: Final[Mapping[str, frozenset[str]]] = {
    "oauth2": frozenset({"access_token"}),
    "apiKey": frozenset({"value"}),
    "bearer": frozenset({"token"}),
    "basic": frozenset({"username", "password"}),
}


@dataclass(frozen=True, slots=True)
class Credential:
    """One user's credential for one security scheme.

    ``values`` holds the secrets by name: ``access_token`` (and ``refresh_token``, ``token_type``) for
    oauth2, ``value`` for apiKey, ``token`` for bearer, ``username`` and ``password`` for basic. It is
    read-only and left out of ``repr``. ``expires_at`` is a Unix time (the access token's, for oauth2).
    """

    kind: CredentialKind
    values: Mapping[str, str] = field(repr=False)
    expires_at: float | None = None
    scopes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in _REQUIRED:
            raise ValueError(f"unknown credential kind {self.kind!r}")
        values = dict(self.values)
        if not all(isinstance(v, str) for v in values.values()):
            raise ValueError("credential values must be strings")
        if missing := sorted(_REQUIRED[self.kind] - values.keys()):
            raise ValueError(f"{self.kind} credentials need {', '.join(missing)}")
        object.__setattr__(self, "values", MappingProxyType(values))
        object.__setattr__(self, "scopes", tuple(self.scopes))

    def expired(self, now: float) -> bool:
        """Whether ``expires_at`` has passed at ``now`` (a credential without one never expires)."""
        return self.expires_at is not None and now >= self.expires_at

    def to_json(self) -> bytes:
        return json.dumps(
            {
                "kind": self.kind,
                "values": dict(self.values),
                "expires_at": self.expires_at,
                "scopes": list(self.scopes),
            }
        ).encode()

    @classmethod
    def from_json(cls, text: bytes) -> Credential:
        """The credential ``to_json`` wrote; ``ValueError`` for anything else."""
        try:
            data: Any = json.loads(text)
            kind, values, expires_at, scopes = (
                data[k] for k in ("kind", "values", "expires_at", "scopes")
            )
            if not (isinstance(scopes, list) and all(isinstance(s, str) for s in scopes)):
                raise TypeError("scopes")
            if expires_at is not None and not isinstance(expires_at, int | float):
                raise TypeError("expires_at")
            return cls(kind, dict(values), expires_at, tuple(scopes))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError("not a stored credential") from error


def parse_store_key(text: str, variable: str) -> bytes:
    """The 32-byte store key from ``variable``'s text: base64 or base64url (padded or not), or hex."""
    need = (
        f"it must hold {KEY_BYTES} random bytes as base64 or base64url (43 or 44 characters) or as "
        f'64 hex digits, e.g. the output of: python -c "import secrets; print(secrets.token_urlsafe(32))"'
    )
    text = text.strip()
    if not text:
        raise ValueError(f"{variable} is empty; {need}")
    if len(text) == 2 * KEY_BYTES and all(c in "0123456789abcdefABCDEF" for c in text):
        return bytes.fromhex(text)
    standard = text.replace("-", "+").replace("_", "/")
    try:
        key = base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{variable} is neither base64 nor hex; {need}") from None
    if len(key) != KEY_BYTES:
        raise ValueError(f"{variable} decodes to {len(key)} bytes, not {KEY_BYTES}; {need}")
    return key


def _canonical(*parts: str | int) -> bytes:
    return json.dumps(parts, separators=(",", ":")).encode()


class Sealer:
    """AES-GCM sealing and HMAC row names under two keys derived from the store key."""

    def __init__(self, key: bytes, namespace: str) -> None:
        if len(key) != KEY_BYTES:
            raise ValueError(f"the token store key must be {KEY_BYTES} bytes, not {len(key)}")
        try:
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: PLC0415
        except ImportError:
            raise TokenStoreError(
                "the token store encrypts with the cryptography package, which is not installed: "
                "install the server with its http extra (pip install '<server>[http]')"
            ) from None

        def derive(label: str) -> bytes:
            info = _canonical("openapi2mcp token store", FORMAT_VERSION, label, namespace)
            return hmac.new(key, info, hashlib.sha256).digest()

        self._aead = AESGCM(derive("encryption"))
        self._names = derive("row names")

    def name(self, *context: str) -> str:
        """The row name of ``context``: 64 hex digits that reveal nothing of it."""
        return hmac.new(self._names, _canonical(*context), hashlib.sha256).hexdigest()

    def seal(self, plaintext: bytes, *context: str) -> bytes:
        nonce = secrets.token_bytes(_NONCE_BYTES)
        aad = _canonical(FORMAT_VERSION, *context)
        return bytes([FORMAT_VERSION]) + nonce + self._aead.encrypt(nonce, plaintext, aad)

    def open(self, sealed: bytes, *context: str) -> bytes | None:
        """The plaintext, or None when ``sealed`` was not sealed under this key and ``context``."""
        from cryptography.exceptions import InvalidTag  # noqa: PLC0415

        if len(sealed) < 1 + _NONCE_BYTES + _TAG_BYTES or sealed[0] != FORMAT_VERSION:
            return None
        nonce, body = sealed[1 : 1 + _NONCE_BYTES], sealed[1 + _NONCE_BYTES :]
        try:
            return self._aead.decrypt(nonce, body, _canonical(FORMAT_VERSION, *context))
        except InvalidTag:
            return None
