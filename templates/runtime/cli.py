"""The command line of every generated server: ``<api>-mcp [stdio|http] [--host H] [--port N] [--path P]``.

Each generated ``__main__.py`` calls ``run`` with a factory for its ``McpServer``. stdio is the
default transport; ``http`` serves Streamable HTTP on ``http://127.0.0.1:8000/mcp`` by default
(``--port 0`` picks a free port) and announces the endpoint URL in one line on stderr once it accepts
connections. uvicorn is imported only for ``http``. ``login [SCHEME]`` signs the local user in to an
OAuth scheme of the API in the browser and stores the tokens for stdio; ``logout [SCHEME]`` deletes
them (``peruser.login``). Logging goes to stderr only (stdout belongs to MCP messages on stdio); the
level comes from ``MCP_LOG_LEVEL`` (default ``WARNING``). Start-up problems (catalog, settings, a
missing uvicorn, an address in use) are reported in one line on stderr with exit status 1; usage
errors exit with 2.
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


ACCOUNT_COMMANDS = ("login", "logout")


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Run the MCP server.",
        epilog=f"{prog} login [SCHEME] signs you in to the API in your browser (OAuth) so that "
        f"stdio calls carry your own tokens; {prog} logout [SCHEME] forgets them. "
        f"See {prog} login --help.",
    )
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


def _login_parser(prog: str, command: str) -> argparse.ArgumentParser:
    from .peruser.login import DEFAULT_TIMEOUT  # noqa: PLC0415 - login only

    if command == "logout":
        parser = argparse.ArgumentParser(
            prog=f"{prog} logout",
            description="Delete the tokens login stored for SCHEME (every scheme when none given).",
        )
        parser.add_argument("scheme", nargs="?", metavar="SCHEME", help="a security scheme")
        return parser
    parser = argparse.ArgumentParser(
        prog=f"{prog} login",
        description="Sign in to the API in your browser (OAuth authorization code with PKCE) and "
        "store the tokens, so that this server on stdio calls the API as you. The browser comes "
        "back to http://127.0.0.1:<port>/callback: register that redirect URI with the client id "
        "(<PREFIX>_<SCHEME>_CLIENT_ID, and _CLIENT_SECRET for a confidential client). The tokens "
        "are kept encrypted in <PREFIX>_TOKEN_STORE (default: tokens.db in "
        "$XDG_DATA_HOME/<server>, else ~/.local/share/<server>); the key is <PREFIX>_TOKEN_STORE_KEY "
        "or, when unset, a key generated once in store.key next to it, readable by you only "
        "(mode 0600). Expired tokens are refreshed when a call needs them.",
    )
    parser.add_argument(
        "scheme",
        nargs="?",
        metavar="SCHEME",
        help="the OAuth security scheme (needed when the API has several)",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="only print the URL to open, do not open it"
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        help=f"seconds to wait for the sign-in ({DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=0,
        help="port of the redirect listener on 127.0.0.1 (0, the default, picks a free one; set "
        "one when the authorization server wants the exact redirect URI)",
    )
    parser.add_argument(
        "--scope",
        action="append",
        default=[],
        metavar="SCOPE",
        help="a scope to ask for (repeatable; default: the scopes the operations need)",
    )
    return parser


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


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
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ACCOUNT_COMMANDS:
        _account(build_server, prog, argv[0], argv[1:])
        return
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
    except SettingsError as exc:
        parser.exit(1, f"{prog}: {exc}\n")
    except KeyboardInterrupt:
        parser.exit(130)


def _account(
    build_server: Callable[[], McpServer], prog: str, command: str, argv: list[str]
) -> None:
    """``login`` or ``logout``: exits 0 when done, 2 for a usage mistake, 1 otherwise."""
    # the token store and the OAuth client are loaded for these commands only
    from .peruser.login import LoginOptions, Refusal, login, logout  # noqa: PLC0415

    parser = _login_parser(prog, command)
    args = parser.parse_args(argv)
    _configure_logging()
    try:
        server = build_server()
    except (CatalogError, SettingsError) as exc:
        parser.exit(1, f"{prog}: {exc}\n")

    def say(text: str) -> None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    async def account() -> object:
        settings = server.settings
        try:
            if command == "logout":
                return await logout(
                    server.catalog,
                    settings.environ,
                    prefix=settings.env_prefix,
                    scheme=args.scheme,
                    say=say,
                )
            options = LoginOptions(
                scheme=args.scheme,
                browser=None if args.no_browser else _open_browser,
                timeout=args.timeout,
                port=args.port,
                scopes=tuple(args.scope),
            )
            return await login(
                server.catalog,
                settings.environ,
                prefix=settings.env_prefix,
                prog=prog,
                options=options,
                say=say,
            )
        finally:
            await server.aclose()

    try:
        outcome = asyncio.run(account())
    except KeyboardInterrupt:
        parser.exit(130)
    if isinstance(outcome, Refusal):
        parser.exit(outcome.status, f"{prog} {command}: {outcome.message}\n")


def _open_browser(url: str) -> None:
    import webbrowser  # noqa: PLC0415 - login only

    webbrowser.open(url)


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
