"""What the generated GitHub workflows run: pinned actions, the registry publisher, the generator.

Every action a generated workflow uses is pinned here to the full commit of a release tag (a tag can
be moved, a commit cannot), with that tag as the version the workflow shows in a comment; updating an
action is one edit of :data:`ACTIONS`. The MCP registry's publisher CLI is a binary from a GitHub
release, so it is pinned by version and checked against the archive's SHA-256. The generator itself
is installed in the regenerate workflow from a pip requirement the user may choose
(``--generator-requirement``); :func:`generator_requirement_problem` keeps that text safe to place in
a workflow's ``env:`` and to hand to ``pip install`` as one argument.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .. import __version__

# the distribution this generator is published as (pyproject.toml, [project] name)
GENERATOR_DISTRIBUTION = "openapi2mcp-gen"
DEFAULT_GENERATOR_REQUIREMENT = f"{GENERATOR_DISTRIBUTION}=={__version__}"
GENERATOR_REQUIREMENT_MAX = 500


@dataclass(frozen=True, slots=True)
class Pin:
    """A release of an action: the commit its tag points to, and the tag."""

    sha: str
    version: str


# the current major release of each action, on a Node runtime GitHub still supports (node24)
ACTIONS: Mapping[str, Pin] = MappingProxyType(
    {
        "actions/checkout": Pin("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
        "actions/setup-python": Pin("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
        "actions/upload-artifact": Pin("bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"),
        "actions/download-artifact": Pin("3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"),
        "peter-evans/create-pull-request": Pin(
            "5f6978faf089d4d20b00c7766989d076bb2fc7f1", "v8.1.1"
        ),
        "pypa/gh-action-pypi-publish": Pin("dc37677b2e1c63e2034f94d8a5b11f265b73ba33", "v1.14.2"),
        "docker/login-action": Pin("4907a6ddec9925e35a0a9e82d7399ccc52663121", "v4.1.0"),
        "docker/metadata-action": Pin("dc802804100637a589fabce1cb79ff13a1411302", "v6.2.0"),
        "docker/build-push-action": Pin("53b7df96c91f9c12dcc8a07bcb9ccacbed38856a", "v7.3.0"),
    }
)


@dataclass(frozen=True, slots=True)
class Download:
    """A release archive a workflow downloads and checks before running what it contains."""

    version: str
    url: str
    sha256: str


# the official MCP registry publisher (modelcontextprotocol/registry releases), for Linux x86-64
MCP_PUBLISHER = Download(
    version="v1.8.1",
    url=(
        "https://github.com/modelcontextprotocol/registry/releases/download/"
        "v1.8.1/mcp-publisher_linux_amd64.tar.gz"
    ),
    sha256="a06c9096dcb9727c13555b6be26c7effa707b01f06a4c561ba7a3635443cf2cc",
)


def uses(action: str) -> str:
    """The ``uses:`` value of ``action``: pinned to its commit, the version in a trailing comment."""
    pin = ACTIONS[action]
    return f"{action}@{pin.sha} # {pin.version}"


def workflow_pins() -> dict[str, str]:
    """The ``uses:`` value of every pinned action, by action name (what the templates look up)."""
    return {action: uses(action) for action in ACTIONS}


# control characters (a newline would end the YAML value), and "${{", which GitHub would evaluate
_UNSAFE_REQUIREMENT = re.compile(r"[\x00-\x1f\x7f]|\$\{\{")


def generator_requirement_problem(requirement: str) -> str | None:
    """Why ``requirement`` cannot be where the workflow installs openapi2mcp from, or ``None``."""
    if not requirement.strip():
        return "is empty: give a pip requirement, a git+https:// URL or a path"
    if len(requirement) > GENERATOR_REQUIREMENT_MAX:
        return f"is longer than {GENERATOR_REQUIREMENT_MAX} characters"
    if _UNSAFE_REQUIREMENT.search(requirement):
        return f"{requirement!r} contains a control character or '${{{{'"
    if requirement.lstrip().startswith("-"):
        # pip would read it as an option, whatever the quoting
        return f"{requirement!r} starts with '-': pip would take it for an option"
    return None
