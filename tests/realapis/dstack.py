"""dstack for the `realapi` tests: its server started on a free port with its database (SQLite) and
configuration in a directory of the test session, its administrator signed in with a fixed token.

dstack's server is a FastAPI application (``dstack._internal.server.main:app``) run by uvicorn, as
``dstack server`` runs it; it is started without that command, which first asks get.dstack.ai for a
newer release. ``HOME`` and ``DSTACK_SERVER_DIR`` keep its database, its configuration and the
client configuration it would write out of the user's home; ``DSTACK_SERVER_ADMIN_TOKEN`` gives its
administrator a token of ours. Its background processing (which loads the clouds' offer catalogs
from the internet, and provisions runs and fleets) is off: its API answers without it.

Its API is RPC-style: nearly every operation is a POST with a JSON body, also the reads. What dstack
received is seen through ``Recorder``, a reverse proxy in front of it that keeps each request.
"""

from __future__ import annotations

import contextlib
import http.client
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from tests.realapis.servers import RealServer, free_port, venv_executable

if TYPE_CHECKING:
    from tests.realapis.conftest import LiveApi

ADMIN = "admin"
ADMIN_TOKEN = "realapi-dstack-2f8a61"


@contextlib.contextmanager
def running(realapi_dir: Path) -> Iterator[RealServer]:
    """dstack 0.22's server on a free port of 127.0.0.1, its SQLite database and configuration in
    ``realapi_dir/dstack-home``."""
    uvicorn = venv_executable("dstack", "uvicorn")
    home = realapi_dir / "dstack-home"
    home.mkdir()
    port = free_port()
    env = {
        "HOME": str(home),
        "DSTACK_SERVER_DIR": str(home / ".dstack" / "server"),
        "DSTACK_SERVER_ADMIN_TOKEN": ADMIN_TOKEN,
        # the URL it says it runs at (what `dstack server --host --port` sets)
        "DSTACK_SERVER_HOST": "127.0.0.1",
        "DSTACK_SERVER_PORT": str(port),
        "DSTACK_SERVER_LOG_LEVEL": "INFO",
        "DSTACK_SERVER_BACKGROUND_PROCESSING_DISABLED": "1",
        "DSTACK_DO_NOT_UPDATE_DEFAULT_PROJECT": "1",
    }
    command: list[str | Path] = [
        uvicorn,
        "dstack._internal.server.main:app",
        *("--host", "127.0.0.1", "--port", str(port)),
    ]
    with RealServer(
        "dstack",
        command,
        port=port,
        ready_path="/healthcheck",
        log_dir=realapi_dir,
        cwd=home,
        env=env,
        start_timeout=120,
    ) as server:
        yield server


@dataclass(frozen=True, slots=True)
class Received:
    """One request as dstack received it, and its answer."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes
    status: int
    answer: bytes

    @property
    def path(self) -> str:
        return self.target.partition("?")[0]


class Recorder:
    """A reverse proxy on a free port of 127.0.0.1 that forwards every request to dstack as it came
    and keeps it, with dstack's answer."""

    def __init__(self, upstream_port: int) -> None:
        self.received: list[Received] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
                try:
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    response = upstream.getresponse()
                    payload = response.read()
                finally:
                    upstream.close()
                recorder.received.append(
                    Received(
                        self.command,
                        self.path,
                        {k.lower(): v for k, v in self.headers.items()},
                        body,
                        response.status,
                        payload,
                    )
                )
                self.send_response(response.status)
                hop = {"content-length", "connection", "keep-alive", "transfer-encoding"}
                for name, value in response.getheaders():
                    if name.lower() not in hop:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def take(self) -> list[Received]:
        """What dstack received since the last call."""
        taken, self.received = self.received, []
        return taken

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def run_dstack(realapi_dir: Path) -> Iterator[LiveApi]:
    """dstack 0.22 (FastAPI, SQLite) started by ``running``; its OpenAPI 3.1 document (100
    operations, 85 of them POSTs; no server declared, FastAPI's default title) is fetched from
    ``/openapi.json`` and generated in full mode (96 tools). Signed in with the administrator's
    token (the ``HTTPBearer`` scheme)."""
    # conftest imports this module: what it defines is read once it has been
    from tests.realapis.conftest import LiveApi, _generate_live  # noqa: PLC0415

    with running(realapi_dir) as server:
        package, spec = _generate_live(server, "/openapi.json", {}, realapi_dir, "dstack")
        yield LiveApi(
            server,
            package,
            "dstack_mcp",
            "DSTACK",
            server.root_url,
            spec,
            credentials={"HTTP_BEARER_TOKEN": ADMIN_TOKEN},
        )
