"""Where a generated server's calls go, as its environment says: the prefix of its variables, the
server URL with its variables filled in (``<PREFIX>_SERVER_URLS`` for an operation's own server)
and the extra headers of every call (``<PREFIX>_HEADERS``). Stdlib only."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from ..catalog.model import ServerSpec, UpstreamInfo
from ..environment import name as env_name
from ..errors import UpstreamError
from .credentials import ExtraHeaders, HeaderError, extra_headers

__all__ = [
    "env_prefix",
    "expand_server",
    "headers_env",
    "server_override",
    "upstream_headers",
    "with_defaults",
]

_BASE_URL_SUFFIX = "_BASE_URL"
_SERVER_VARIABLE = re.compile(r"\{([^{}]+)\}")


def env_prefix(info: UpstreamInfo) -> str:
    """The prefix of the server's environment variables, as in ``<PREFIX>_BASE_URL``."""
    name = info["baseUrlEnv"]
    return name.removesuffix(_BASE_URL_SUFFIX) if name.endswith(_BASE_URL_SUFFIX) else "MCP"


def headers_env(info: UpstreamInfo) -> str:
    """The variable of the extra headers, ``<PREFIX>_HEADERS``."""
    return env_name(env_prefix(info), "HEADERS")


def upstream_headers(info: UpstreamInfo, environ: Mapping[str, str]) -> ExtraHeaders:
    """The extra headers of every call: the catalog's (config file) and ``<PREFIX>_HEADERS``.

    Raises ``UpstreamError`` naming the variable when they are unusable.
    """
    try:
        return extra_headers(environ, headers_env(info), info.get("headers"))
    except HeaderError as exc:
        raise UpstreamError(str(exc)) from None


def server_override(info: UpstreamInfo, environ: Mapping[str, str], declared: str) -> str | None:
    """The URL ``<PREFIX>_SERVER_URLS`` (a JSON object: server URL as declared -> URL) gives an
    operation's own server, else ``None``; ``UpstreamError`` names the variable when unusable."""
    name = env_name(env_prefix(info), "SERVER_URLS")
    raw = (environ.get(name) or "").strip()
    if not raw:
        return None
    try:
        table = json.loads(raw)
    except ValueError:
        table = None
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise UpstreamError(
            f"{name} must be a JSON object of server URLs as the spec declares them to URLs, "
            'e.g. {"https://uploads.example.com": "http://127.0.0.1:8080"}'
        )
    found = table.get(declared)
    return found if isinstance(found, str) else None


def expand_server(server: ServerSpec, environ: Mapping[str, str]) -> str:
    """``server``'s URL with each ``{variable}`` from its environment variable or default.

    ``UpstreamError`` names the variable when it is missing (no default) or not one of its enum.
    """
    variables = server.get("variables", {})

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        spec = variables.get(name)
        if spec is None:
            return match.group(0)
        env = spec["env"]
        raw = (environ.get(env) or "").strip()
        if not raw:
            if "default" in spec:
                return spec["default"]
            raise UpstreamError(
                f"the server URL {server['url']} needs a value for {{{name}}}: set {env}"
            )
        allowed = spec.get("enum")
        if allowed and raw not in allowed:
            raise UpstreamError(
                f"{env} is {raw[:40]!r}, which the server URL {server['url']} does not "
                f"allow for {{{name}}}; allowed values: {', '.join(allowed)}"
            )
        if any(c.isspace() or not c.isprintable() for c in raw):
            raise UpstreamError(f"{env} must not contain spaces or control characters")
        return raw

    return _SERVER_VARIABLE.sub(value, server["url"])


def with_defaults(server: ServerSpec) -> str:
    """The server's URL as the generator wrote it into ``baseUrl``: defaults filled in."""
    variables = server.get("variables", {})

    def default(match: re.Match[str]) -> str:
        spec = variables.get(match.group(1))
        return spec["default"] if spec is not None and "default" in spec else match.group(0)

    return _SERVER_VARIABLE.sub(default, server["url"])
