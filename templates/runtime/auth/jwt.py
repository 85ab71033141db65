"""JWT access tokens as a resource server reads them: compact JWS parsing, JWK keys and claim checks.

Parsing is strict on purpose: exactly three base64url segments in canonical form (no padding, no stray
bits), JSON objects without duplicate keys or ``NaN``, a ``typ`` (if any) that says JWT, no ``crit``
header, and an ``alg`` from the RSA table of ``auth_rsa`` or the ECDSA table of ``auth_ec`` only, so
``none`` and the HMAC algorithms (the classic "public key used as HMAC secret" confusion) never reach
a verifier. JWKS entries become ``Jwk`` keys by ``kty`` (``RSA``, or ``EC`` on a supported ``crv``);
a key verifies only the algorithms of its own family (and only its ``alg``, when the JWKS names one),
and an entry that carries private key material is refused: anyone who read that JWKS could forge
tokens. Claims follow RFC 7519 and RFC 9068: ``iss`` equal to the configured issuer, ``aud`` (string
or list) containing the audience, ``exp`` required, ``nbf``/``iat`` honoured, all with a small leeway.
Scopes come from ``scope`` or ``scp`` and are checked by ``scopes_satisfy``, optionally honouring a
hierarchy (``repo`` grants ``repo:read``). Every failure is a ``JwtError`` whose message is a fixed
sentence, safe to return to the client: it never quotes the token or a claim.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..errors import JwtError as JwtError  # noqa: PLC0414 - re-exported
from . import ec, rsa
from .ec import EcPublicKey
from .rsa import RsaPublicKey

MAX_TOKEN_LENGTH: Final = 8192
LEEWAY_SECONDS: Final = 60.0
_ACCEPTED_TYP: Final = frozenset({"jwt", "at+jwt", "application/jwt", "application/at+jwt"})
_B64URL: Final = re.compile(r"[A-Za-z0-9_-]*")

NOT_A_JWT: Final = "the token is not a well-formed JWT"
# every JWS "alg" a key of some family can verify
ALGORITHMS: Final = frozenset(rsa.ALGORITHMS) | frozenset(ec.ALGORITHMS)
# JWK members holding private key material (RFC 7518 §6.2.2, §6.3.2)
_PRIVATE_MEMBERS: Final = frozenset({"d", "p", "q", "dp", "dq", "qi", "oth"})


@dataclass(frozen=True, slots=True)
class Jws:
    """A parsed compact JWS whose signature has not been checked yet."""

    alg: str
    kid: str | None
    claims: dict[str, Any]
    signing_input: bytes
    signature: bytes


@dataclass(frozen=True, slots=True)
class Jwk:
    """A usable verification key from a JWKS: RSA, or EC on a supported curve."""

    kid: str | None
    alg: str | None  # the only algorithm this key may verify, when the JWKS says so
    key: RsaPublicKey | EcPublicKey

    def accepts(self, alg: str) -> bool:
        """Whether this key may verify an ``alg`` signature (its family, and its own ``alg``)."""
        if self.alg is not None and self.alg != alg:
            return False
        if isinstance(self.key, EcPublicKey):
            return ec.ALGORITHMS.get(alg, ("", ""))[0] == self.key.crv
        return alg in rsa.ALGORITHMS

    def verify(self, alg: str, message: bytes, signature: bytes) -> bool:
        """True only if ``signature`` is a valid ``alg`` signature of ``message`` under this key."""
        if not self.accepts(alg):
            return False
        if isinstance(self.key, EcPublicKey):
            return ec.verify(self.key, alg, message, signature)
        return rsa.verify(self.key, alg, message, signature)


def b64url_decode(segment: str) -> bytes:
    """Decode unpadded base64url, refusing padding, foreign characters and non-canonical encodings."""
    if not _B64URL.fullmatch(segment) or len(segment) % 4 == 1:
        raise ValueError("not base64url")
    raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    # leftover bits must be zero: otherwise several strings decode to the same bytes
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") != segment:
        raise ValueError("not canonical base64url")
    return raw


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("duplicate member")
    return result


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json_object(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(
            raw.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_no_constants
        )
    except (ValueError, RecursionError):
        raise JwtError(NOT_A_JWT) from None
    if not isinstance(value, dict):
        raise JwtError(NOT_A_JWT)
    return value


def parse_jws(token: str) -> Jws:
    """Split and decode a compact JWS; checks structure and header, not the signature or claims."""
    if len(token) > MAX_TOKEN_LENGTH:
        raise JwtError("the token is too long")
    segments = token.split(".")
    if len(segments) != 3:
        raise JwtError(NOT_A_JWT)
    try:
        header_raw, payload_raw, signature = (b64url_decode(part) for part in segments)
    except ValueError:
        raise JwtError(NOT_A_JWT) from None
    header = _json_object(header_raw)
    alg = header.get("alg")
    if not isinstance(alg, str) or alg not in ALGORITHMS:
        raise JwtError(
            "the token's signing algorithm is not accepted (RS256, PS256, ES256 and kin only)"
        )
    typ = header.get("typ")
    if typ is not None and (not isinstance(typ, str) or typ.lower() not in _ACCEPTED_TYP):
        raise JwtError("the token's type is not a JWT access token")
    if "crit" in header:
        raise JwtError("the token uses critical header extensions this server does not know")
    kid = header.get("kid")
    if kid is not None and not isinstance(kid, str):
        raise JwtError(NOT_A_JWT)
    claims = _json_object(payload_raw)
    signing_input = f"{segments[0]}.{segments[1]}".encode("ascii")
    return Jws(alg=alg, kid=kid, claims=claims, signing_input=signing_input, signature=signature)


def _big_integer(value: Any) -> int:
    if not isinstance(value, str):
        raise ValueError("not a string")
    raw = b64url_decode(value)
    if not raw:
        raise ValueError("empty integer")
    return int.from_bytes(raw, "big")


def parse_jwk(jwk: Any) -> Jwk | None:
    """A signature key from one JWKS entry, or None for entries this server cannot use."""
    if not isinstance(jwk, Mapping) or jwk.get("kty") not in ("RSA", "EC"):
        return None
    use, key_ops, alg, kid = jwk.get("use"), jwk.get("key_ops"), jwk.get("alg"), jwk.get("kid")
    if use is not None and use != "sig":
        return None
    if key_ops is not None and (not isinstance(key_ops, list) or "verify" not in key_ops):
        return None
    if alg is not None and (not isinstance(alg, str) or alg not in ALGORITHMS):
        return None
    if kid is not None and not isinstance(kid, str):
        return None
    if _PRIVATE_MEMBERS.intersection(jwk):
        return None
    key = _rsa_key(jwk) if jwk.get("kty") == "RSA" else _ec_key(jwk)
    if key is None:
        return None
    parsed = Jwk(kid=kid, alg=alg, key=key)
    # an alg of the other family (an EC key saying RS256) makes the entry unusable
    return parsed if alg is None or parsed.accepts(alg) else None


def _rsa_key(jwk: Mapping[str, Any]) -> RsaPublicKey | None:
    try:
        key = RsaPublicKey(n=_big_integer(jwk.get("n")), e=_big_integer(jwk.get("e")))
    except ValueError:
        return None
    return key if key.problem() is None else None


def _ec_key(jwk: Mapping[str, Any]) -> EcPublicKey | None:
    crv, x, y = jwk.get("crv"), jwk.get("x"), jwk.get("y")
    if not isinstance(crv, str) or not isinstance(x, str) or not isinstance(y, str):
        return None
    try:
        return EcPublicKey.from_coordinates(crv, b64url_decode(x), b64url_decode(y))
    except ValueError:
        return None


def _number(claims: Mapping[str, Any], name: str) -> float | None:
    value = claims.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise JwtError(f"the token's {name} claim is not a number")
    return float(value)


def check_claims(
    claims: Mapping[str, Any],
    *,
    issuer: str,
    audience: str,
    now: float,
    leeway: float = LEEWAY_SECONDS,
) -> str:
    """Check issuer, audience and time claims; return the subject (``sub``, else ``client_id``)."""
    if claims.get("iss") != issuer:
        raise JwtError("the token was not issued by the accepted authorization server")
    aud = claims.get("aud")
    audiences = [aud] if isinstance(aud, str) else aud if isinstance(aud, list) else []
    if audience not in [a for a in audiences if isinstance(a, str)]:
        raise JwtError("the token is not intended for this server (audience)")
    expires = _number(claims, "exp")
    if expires is None:
        raise JwtError("the token has no expiry (exp)")
    if now >= expires + leeway:
        raise JwtError("the token has expired")
    not_before = _number(claims, "nbf")
    if not_before is not None and now + leeway < not_before:
        raise JwtError("the token is not valid yet (nbf)")
    issued_at = _number(claims, "iat")
    if issued_at is not None and now + leeway < issued_at:
        raise JwtError("the token was issued in the future (iat)")
    # a present sub is authoritative; client_id only stands in for tokens issued to a client itself
    subject = claims["sub"] if "sub" in claims else claims.get("client_id")
    if not isinstance(subject, str) or not subject:
        raise JwtError("the token has no subject (sub)")
    return subject


def token_scopes(claims: Mapping[str, Any]) -> frozenset[str]:
    """Scopes granted by the token: ``scope`` (space-separated) or ``scp`` (list or string)."""
    scopes: set[str] = set()
    for name in ("scope", "scp"):
        value = claims.get(name)
        if isinstance(value, str):
            scopes.update(value.split())
        elif isinstance(value, list):
            scopes.update(item for item in value if isinstance(item, str) and item)
    return frozenset(scopes)


def scopes_satisfy(
    granted: frozenset[str], required: Iterable[str], separator: str | None = None
) -> bool:
    """Whether ``granted`` covers every ``required`` scope.

    With a ``separator`` (e.g. ``":"``) scopes form a hierarchy: ``repo`` covers ``repo:read`` and
    ``repo:read:issues``, but not ``repository`` nor ``repo`` itself from ``repo:read``.
    """
    for scope in required:
        if scope in granted:
            continue
        if separator is None:
            return False
        parts = scope.split(separator)
        ancestors = (separator.join(parts[:size]) for size in range(1, len(parts)))
        if not any(ancestor and ancestor in granted for ancestor in ancestors):
            return False
    return True
