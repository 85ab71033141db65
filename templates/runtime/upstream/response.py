"""What the upstream answered to one call, as the rest of the server reads it.

``UpstreamResponse`` is what ``client.Upstream.call`` returns (and ``client`` re-exports): the
status, the decoded body with every credential masked, and what a result must tell beside it (a
redirect's target and why it was not followed, a content coding left in place, a stream cut at the
timeout, the response headers a result shows). Stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["UpstreamResponse"]


@dataclass(frozen=True, slots=True)
class UpstreamResponse:
    """What the upstream answered; ``url`` carries no credential (apiKey query values removed)."""

    status: int
    reason: str
    content_type: str
    body: bytes
    url: str
    # seconds the upstream asked to wait (``Retry-After``), when it said so
    retry_after: float | None = None
    # the method the caller asked for (a followed 303 ends with a GET)
    method: str = "GET"
    # a redirect's target, resolved against the request URL; and why it was not followed ("" when
    # it is the answer the operation documents)
    location: str = ""
    not_followed: str = ""
    # content codings still applied to ``body`` (one that could not be undone), e.g. "br"
    encoding: str = ""
    # what a 401/403 should tell about credentials (``upstream_credentials``)
    auth_hint: str = ""
    # the response headers a 2xx result shows (``TOLD_HEADERS`` and the documented ones)
    headers: tuple[tuple[str, str], ...] = ()
    # seconds after which a 2xx body still arriving (a stream) was cut; None: it ended. ``body``
    # is then what had arrived, its content coding undone as far as it goes
    cut_after: float | None = None
    # a 2xx body larger than this server reads (``MAX_RESPONSE_BYTES``): ``body`` is its start
    cut_short: bool = False
    # the redirects followed to get this answer ("a 307 redirect to https://…"), "" for none
    followed: str = ""
