"""The command line of every generated server: ``<api>-mcp [stdio|http] [--host H] [--port N]``.

Each generated ``__main__.py`` calls ``run`` with a factory for its ``McpServer``. stdio is the
default transport. Logging goes to stderr only (stdout belongs to MCP messages); the level comes
from ``MCP_LOG_LEVEL`` (default ``WARNING``). Start-up problems (catalog, settings) are reported in
one line on stderr with exit status 1; usage errors exit with 2.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable

from .catalog import CatalogError
from .server import McpServer, SettingsError

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
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (8000)")
    return parser


def _configure_logging() -> None:
    level = os.environ.get(LOG_LEVEL_ENV, "WARNING").upper()
    logging.basicConfig(
        stream=sys.stderr,
        level=level if level in logging.getLevelNamesMapping() else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.captureWarnings(True)


def run(build_server: Callable[[], McpServer], prog: str, argv: list[str] | None = None) -> None:
    """Parse ``argv`` (default ``sys.argv[1:]``), build the server and serve until the input ends."""
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if args.transport == "http":
        parser.exit(2, f"{prog}: the HTTP transport is not available yet; run `{prog} stdio`\n")
    _configure_logging()
    try:
        server = build_server()
    except (CatalogError, SettingsError) as exc:
        parser.exit(1, f"{prog}: {exc}\n")
    try:
        asyncio.run(server.serve_stdio())
    except KeyboardInterrupt:
        parser.exit(130)
