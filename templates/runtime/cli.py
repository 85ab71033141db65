"""The command line of every generated server: ``<api>-mcp [stdio|http] [--host H] [--port N] [--path P]``.

Each generated ``__main__.py`` calls ``run`` with a factory for its ``McpServer``. stdio is the
default transport; ``http`` serves Streamable HTTP on ``http://127.0.0.1:8000/mcp`` by default
(``--port 0`` picks a free port) and announces the endpoint URL in one line on stderr once it accepts
connections. uvicorn is imported only for ``http``. Logging goes to stderr only (stdout belongs to MCP
messages on stdio); the level comes from ``MCP_LOG_LEVEL`` (default ``WARNING``). Start-up problems
(catalog, settings, a missing uvicorn, an address in use) are reported in one line on stderr with exit
status 1; usage errors exit with 2.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import logging
import os
import sys
from collections.abc import Callable

from .catalog.model import CatalogError
from .server import McpServer, SettingsError
from .transports.http_responses import DEFAULT_PATH

LOG_LEVEL_ENV = "MCP_LOG_LEVEL"


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Run the MCP server.")
    parser.add_argument(
        "transport",
        nargs="?",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (default): talk MCP on stdin/stdout; http: serve MCP over HTTP",
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (127.0.0.1)")
    parser.add_argument(
        "--port", type=_port, default=8000, help="HTTP port (8000; 0 picks a free one)"
    )
    parser.add_argument(
        "--path", type=_path, default=DEFAULT_PATH, help="HTTP endpoint path (/mcp)"
    )
    return parser


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}")
    return int(text)


def _path(text: str) -> str:
    if not text.startswith("/") or any(c in text for c in "?#") or not text.isprintable():
        raise argparse.ArgumentTypeError(f"not an endpoint path: {text!r}")
    return text


def _configure_logging() -> None:
    level = os.environ.get(LOG_LEVEL_ENV, "WARNING").upper()
    logging.basicConfig(
        stream=sys.stderr,
        level=level if level in logging.getLevelNamesMapping() else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.captureWarnings(True)


def _remember_missing_sniffio() -> None:
    """Make ``import sniffio`` fail at once when it is not installed.

    httpcore tries that import on every upstream request; a failed import is not cached, so each
    attempt searches ``sys.path`` again, about 0.5 ms per tool call. ``None`` in ``sys.modules`` is
    Python's own way to say "not importable".
    """
    if "sniffio" not in sys.modules and importlib.util.find_spec("sniffio") is None:
        sys.modules["sniffio"] = None  # type: ignore[assignment]


def run(build_server: Callable[[], McpServer], prog: str, argv: list[str] | None = None) -> None:
    """Parse ``argv`` (default ``sys.argv[1:]``), build the server and serve until the input ends."""
    parser = _parser(prog)
    args = parser.parse_args(argv)
    _configure_logging()
    _remember_missing_sniffio()
    try:
        server = build_server()
    except (CatalogError, SettingsError) as exc:
        parser.exit(1, f"{prog}: {exc}\n")
    try:
        if args.transport == "http":
            _serve_http(server, args, parser, prog)
        else:
            asyncio.run(server.serve_stdio())
    except KeyboardInterrupt:
        parser.exit(130)


def _serve_http(
    server: McpServer, args: argparse.Namespace, parser: argparse.ArgumentParser, prog: str
) -> None:
    from .transports.http_serve import HttpUnavailable, serve_http  # noqa: PLC0415 - HTTP only

    def announce(url: str) -> None:
        sys.stderr.write(f"{prog}: serving MCP on {url}\n")
        sys.stderr.flush()

    serving = serve_http(server, host=args.host, port=args.port, path=args.path, on_ready=announce)
    try:
        asyncio.run(serving)
    except (HttpUnavailable, SettingsError) as exc:
        parser.exit(1, f"{prog}: {exc}\n")
    except OSError as exc:
        parser.exit(1, f"{prog}: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}\n")
