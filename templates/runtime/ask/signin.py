"""Sending the user to a sign-in page: a URL-mode elicitation, in the form each era has for it.

Per-user mode (``peruser``) answers a call the caller has no credentials for with a link to a page
of this server. How the client hears of it depends on the request: a 2026-07-28 request whose
client declared ``elicitation.url`` gets ``input_required`` with one URL elicitation (its retry,
once the user is done, goes through); one without gets ``-32021`` naming the capability. A
2025-11-25 client that declared ``elicitation.url`` gets the error ``-32042`` with the elicitation
(its retry goes through the same way); an older client, which cannot open such links, gets a tool
error saying so. The link carries no credential: the page checks who opens it.
"""

from __future__ import annotations

import uuid
from typing import Any, Final, Protocol

from ..protocol.jsonrpc import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    URL_ELICITATION_REQUIRED,
    JsonObject,
    JsonRpcError,
)

SIGNIN_KEY: Final = "signin"
_URL_MODE_SINCE: Final = "2025-11-25"


class Link(Protocol):
    """What per-user mode hands over when the caller must sign in first."""

    @property
    def url(self) -> str: ...

    @property
    def message(self) -> str: ...


def can_open_links(capabilities: Any) -> bool:
    """Whether the client declared URL-mode elicitation (``elicitation: {url: {}}``)."""
    if not isinstance(capabilities, dict):
        return False
    elicitation = capabilities.get("elicitation")
    return isinstance(elicitation, dict) and isinstance(elicitation.get("url"), dict)


def signin_answer(link: Link, *, modern: bool, version: str, capabilities: Any) -> JsonObject:
    """The tool result that sends the user to ``link`` (or raises the era's JSON-RPC error)."""
    params = {"mode": "url", "message": link.message, "url": link.url}
    if modern:
        if not can_open_links(capabilities):
            raise JsonRpcError(
                MISSING_REQUIRED_CLIENT_CAPABILITY,
                "This call needs the user to sign in to the API at a link; the client must "
                "support URL-mode elicitation",
                {"requiredCapabilities": {"elicitation": {"url": {}}}},
            )
        request = {"method": "elicitation/create", "params": params}
        return {"resultType": "input_required", "inputRequests": {SIGNIN_KEY: request}}
    if version >= _URL_MODE_SINCE and can_open_links(capabilities):
        elicitation = {**params, "elicitationId": str(uuid.uuid4())}
        raise JsonRpcError(
            URL_ELICITATION_REQUIRED,
            "This request requires the user to sign in to the API first",
            {"elicitations": [elicitation]},
        )
    return {
        "content": [
            {
                "type": "text",
                "text": f"{link.message} Your MCP client cannot open sign-in links (URL-mode "
                "elicitation); nothing was sent to the API.",
            }
        ],
        "isError": True,
    }
