"""What an OAuth token endpoint answers, read the same way by every flow that asks one.

The client-credentials grant (``oauth.py``), the per-user authorization-code flow
(``peruser/oauth_code.py``) and token exchange (``peruser/exchange.py``) all post to a token
endpoint and read a small JSON answer. Here is how that answer is read: at most
``MAX_TOKEN_RESPONSE_BYTES`` (a token answer is small; what came before the cut is enough to tell an
error), as a JSON object or nothing, its token only if it can go into a header, its ``expires_in``
only if it is a usable number of seconds, and its RFC 6749 §5.2 error as one short printable
phrase with every secret in play, and anything that looks like a token, masked before it is cut
(a cut first could leave part of a secret behind).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import httpx

MAX_TOKEN_RESPONSE_BYTES: Final = 64 * 1024
_MAX_DETAIL: Final = 200
# a JWT or another dotted token an error description might echo
_TOKEN_LIKE: Final = re.compile(r"[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?")


async def read_bounded(response: httpx.Response) -> bytes:
    """The answer's body, up to ``MAX_TOKEN_RESPONSE_BYTES``."""
    chunks: list[bytes] = []
    room = MAX_TOKEN_RESPONSE_BYTES
    async for chunk in response.aiter_bytes():
        chunks.append(chunk[:room])
        room -= len(chunks[-1])
        if room <= 0:
            break
    return b"".join(chunks)


def json_object(body: bytes) -> dict[str, Any] | None:
    """The body as a JSON object, or ``None``."""
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def usable_token(value: object) -> str | None:
    """A token string that can go into a header (no line break, no NUL), stripped; or ``None``."""
    if not isinstance(value, str) or not value.strip() or any(c in value for c in "\r\n\0"):
        return None
    return value.strip()


def lifetime(value: object) -> float | None:
    """``expires_in`` in seconds (a number, or digits in a string as some servers send it; 0: it
    has expired already); ``None`` when absent, negative or not a number."""
    if isinstance(value, str) and value.strip().isdigit():
        value = float(value)
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value) if value >= 0 else None
    return None


def error_detail(answer: Mapping[str, Any] | None, hidden: Sequence[str] = ()) -> str:
    """`` invalid_grant (PKCE verification failed)``: the answer's error and description, secrets
    in ``hidden`` and token-like words masked, each cut short and printable; "" without one.

    An answer without an OAuth error that says why in a ``detail`` or ``message`` (FastAPI's
    ``HTTPException``, GNS3's login: "Authentication was unsuccessful.") gives that, in
    parentheses."""
    words: list[str] = []
    for key in ("error", "error_description"):
        text = (answer or {}).get(key)
        if isinstance(text, str) and text.strip():
            words.append(_shown(text, hidden))
    if not words:
        said = [(answer or {}).get(key) for key in ("detail", "message")]
        reason = next((text for text in said if isinstance(text, str) and text.strip()), None)
        if reason is None:
            reason = _first_invalid((answer or {}).get("detail"))
        return "" if reason is None else f" ({_shown(reason, hidden)})"
    return " " + words[0] + (f" ({words[1]})" if len(words) > 1 else "")


def _first_invalid(detail: Any) -> str | None:
    """The first complaint of a FastAPI validation error (``{"detail": [{"loc": ["body"], "msg":
    "value is not a valid dict"}]}``) as "body: value is not a valid dict"; None otherwise."""
    first = detail[0] if isinstance(detail, list) and detail else None
    message = first.get("msg") if isinstance(first, Mapping) else None
    if not isinstance(message, str):
        return None
    where = first.get("loc") if isinstance(first, Mapping) else None
    place = ".".join(str(step) for step in where) if isinstance(where, list) else ""
    return f"{place}: {message}" if place else message


def malformed(answer: Mapping[str, Any] | None) -> bool:
    """Whether a token endpoint's refusal says the request was not one it reads (an OAuth
    ``invalid_request``, a FastAPI validation error), not that the credentials in it were wrong."""
    return (answer or {}).get("error") == "invalid_request" or isinstance(
        (answer or {}).get("detail"), list
    )


def _shown(text: str, hidden: Sequence[str]) -> str:
    """``text`` with the secrets in ``hidden`` and token-like words masked, cut short, printable."""
    for secret in sorted(filter(None, hidden), key=len, reverse=True):
        text = text.replace(secret, "***")
    text = _TOKEN_LIKE.sub("***", text)
    return "".join(c if c.isprintable() else " " for c in text[:_MAX_DETAIL])
