"""What the publisher declares about a generated package: its license, authors and classifiers.

The package is generated code plus our runtime, so its license is the publisher's choice (an SPDX
expression, ``--license`` or ``[package] license``), never the API description's ``info.license``,
which stays recorded as the API's own. Each value is checked here, with the libraries package
indexes use (``packaging`` for SPDX expressions, ``trove-classifiers`` for classifiers), so a
mistake is an error at generation naming the value, not a refused upload.
"""

from __future__ import annotations

import difflib
import re

import httpx
from packaging.licenses import InvalidLicenseExpression, canonicalize_license_expression
from trove_classifiers import classifiers as known_classifiers

# "Name <email>", "Name", or "<email>" (PEP 621 authors: a name, an email, or both)
_AUTHOR = re.compile(
    r"^\s*(?P<name>[^<>,]*?)\s*(?:<(?P<email>[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+)>)?\s*$"
)


class MetadataError(ValueError):
    """A license, author or classifier a package index would refuse; the message names it."""


def license_expression(text: str) -> str:
    """``text`` as a canonical SPDX license expression (``mit`` -> ``MIT``)."""
    try:
        return str(canonicalize_license_expression(text))
    except InvalidLicenseExpression as exc:
        raise MetadataError(
            f"{text[:80]!r} is not an SPDX license expression (e.g. MIT, Apache-2.0, "
            "MIT OR Apache-2.0; see https://spdx.org/licenses/)"
        ) from exc


def author(text: str) -> tuple[str, str]:
    """``(name, email)`` from ``Name <email>``, ``Name`` or ``<email>`` (one may be empty)."""
    match = _AUTHOR.fullmatch(text)
    if match is None or not (match["name"] or match["email"]) or len(text) > 200:
        raise MetadataError(
            f"{text[:80]!r} is not an author: write 'Name <email@example.com>', 'Name' or "
            "'<email@example.com>'"
        )
    return match["name"], match["email"] or ""


def classifier(text: str) -> str:
    """``text`` if PyPI knows the classifier (PyPI refuses others), else an error naming the
    closest one."""
    if text in known_classifiers:
        return text
    close = difflib.get_close_matches(text, sorted(known_classifiers), n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise MetadataError(f"{text[:120]!r} is not a classifier PyPI accepts{hint}")


# where --check-name asks (PyPI's JSON API); OPENAPI2MCP_PYPI_URL points it elsewhere (a mirror,
# or a test's local server)
PYPI_URL = "https://pypi.org"


def pypi_name_problem(distribution: str, index_url: str = PYPI_URL) -> str | None:
    """Why ``distribution`` cannot be published as a new project on the index, or ``None`` when the
    name is free. Asks the index's JSON API once (the only network use of ``generate``, and only
    with ``--check-name``); an unanswered question is said so, not taken for an answer."""
    url = f"{index_url.rstrip('/')}/pypi/{distribution}/json"
    try:
        response = httpx.get(url, timeout=10.0, follow_redirects=True)
    except httpx.HTTPError as exc:
        return f"could not ask {index_url} whether {distribution!r} is free: {exc}"
    if response.status_code == 404:
        return None
    if response.status_code == 200:
        return (
            f"{distribution!r} is already a project on {index_url} ({url.removesuffix('/json')}): "
            "choose another name with --name before publishing"
        )
    return f"could not tell whether {distribution!r} is free on {index_url}: HTTP {response.status_code}"
