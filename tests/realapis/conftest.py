"""Fixtures of the `realapi` lane: real API servers, their live OpenAPI documents, generated packages.

Each server (httpbin, kinto, jupyter-server, prefect, gns3-server, label-studio, chroma; PowerDNS,
Alertmanager, etcd and Slurm's slurmrestd from Debian, Slurm with a one-node cluster of its own,
``slurm.py``; LoopBack's examples, Unleash, Platformatic DB, Directus, WireMock and Homebridge's
UI from npm; Unleash, Pulp and Zou with a PostgreSQL cluster of their own, ``postgres.py``;
Superset, Airflow, Pulp, Zou, changedetection.io, Nautobot, ZenML and dstack from PyPI; Nautobot's
database restored from the migrated dump the install keeps, ``nautobot.py``) is installed by
``scripts/install_realapis.sh`` (the Python ones into a venv each under ``.work/realapis/``,
LoopBack there too) and started once per session on a free port of 127.0.0.1. Its OpenAPI
document is fetched from the running server over HTTP, as a user of the generator would get it
(Alertmanager's and etcd's, which they do not serve, from the source Alertmanager is compiled from
and the documentation etcd ships), and generated once per session (name given explicitly, tool
mode ``full``). Tests open MCP sessions on the generated server over stdio with ``LiveApi.stdio``.
A missing install fails the fixture with the command to run; it never skips.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult, TextContent, Tool

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.kit.redis_server import running_redis
from tests.realapis import lnbits, nautobot, postgres, postgrest, pygeoapi, slurm
from tests.realapis.dstack import run_dstack
from tests.realapis.servers import (
    INSTALL_HINT,
    LAUNCHES,
    VENVS,
    RealServer,
    background,
    free_port,
    venv_executable,
)
from tests.realapis.zenml import run_zenml

JUPYTER_TOKEN = "realapi-jupyter-token-7f3a9c"


@dataclass(frozen=True, slots=True)
class LiveApi:
    """A real API server and the MCP server package generated from its live OpenAPI document."""

    server: RealServer
    package: Path
    module: str
    prefix: str
    base_url: str
    spec: dict[str, Any]
    # credentials made when the server started, as the generated server's variables (after the
    # prefix): what a test or the sweep signs in with
    credentials: Mapping[str, str] = field(default_factory=dict)
    # a directory the server's work shares with tests (Slurm's jobs write their output there;
    # changedetection.io watches the pages tests write there)
    files: Path | None = None

    @property
    def root_url(self) -> str:
        return self.server.root_url

    def env(self, *, shadow: Path | None = None, **extra: str) -> dict[str, str]:
        """The generated server's environment; ``extra`` sets ``<PREFIX>_<KEY>`` variables.

        Modules in ``shadow`` are found before installed ones (to hide an optional package).
        """
        path = [str(shadow)] if shadow is not None else []
        return {
            "PYTHONPATH": os.pathsep.join([*path, str(self.package / "src")]),
            "PATH": os.environ.get("PATH", ""),
            f"{self.prefix}_BASE_URL": self.base_url,
            **{f"{self.prefix}_{key}": value for key, value in extra.items()},
        }

    def stdio(self, *, shadow: Path | None = None, **extra: str) -> StdioServerParameters:
        return StdioServerParameters(
            command=sys.executable, args=["-m", self.module], env=self.env(shadow=shadow, **extra)
        )


def headers_env(headers: Mapping[str, str]) -> str:
    """The value of ``<PREFIX>_HEADERS``: a JSON object of headers for every upstream call."""
    return json.dumps(dict(headers))


def _generate_live(
    server: RealServer,
    spec_path: str,
    headers: Mapping[str, str],
    where: Path,
    name: str,
    *,
    timeout: float = 10,
) -> tuple[Path, dict[str, Any]]:
    """The live document fetched from ``server`` and generated into ``where/<name>-mcp``."""
    answer = httpx.get(server.root_url + spec_path, headers=dict(headers), timeout=timeout)
    assert answer.status_code == 200, f"{server.name} {spec_path}: {answer.status_code}"
    return _generate_from(answer.content, where, name)


def _generate_from(content: bytes, where: Path, name: str) -> tuple[Path, dict[str, Any]]:
    """The document ``content`` generated into ``where/<name>-mcp``, and the document as data."""
    # PowerDNS serves its YAML as text/plain: the body says which it is
    suffix = ".json" if content.lstrip()[:1] in (b"{", b"[") else ".yaml"
    document = where / f"{name}-openapi{suffix}"
    document.write_bytes(content)
    generation = generate(str(document), GenerateOptions(name=name, tool_mode="full"))
    assert generation.report.errors == [], [d.render() for d in generation.report.errors]
    out = where / f"{name}-mcp"
    write_tree(generation.files, out, force=False, marker=MARKER)
    spec: dict[str, Any] = yaml.safe_load(content)
    return out, spec


# scripts/test.sh installs the servers while the other tests run, and says where it reports: the
# install's exit status when it ends, its log, and a directory where it marks each part it has put
# in place (scripts/install_realapis.sh, REALAPIS_READY)
INSTALL_STATUS = "REALAPIS_INSTALL_STATUS"
INSTALL_LOG = "REALAPIS_INSTALL_LOG"
INSTALL_READY = "REALAPIS_READY"
INSTALL_TIMEOUT = 45 * 60.0
# the parts of the install each test module's servers need, the modules in the order their parts
# are mostly in place (Debian's first, the Python venvs that take longest and Nautobot's migrated
# database last): each module waits for its own, so the realapi tests run while the rest installs
NEEDS: dict[str, tuple[str, ...]] = {
    "powerdns": ("powerdns",),
    "alertmanager": ("alertmanager",),
    "etcd": ("etcd",),
    "slurm": ("slurm",),
    "httpbin": ("httpbin",),
    "kinto": ("kinto",),
    "search_log": ("kinto",),
    "jupyter": ("jupyter-server",),
    "pygeoapi": ("pygeoapi",),
    "loopback": ("loopback",),
    "loopback_files": ("loopback",),
    "postgrest": ("postgresql", "postgrest"),
    "unleash": ("postgresql", "unleash"),
    "platformatic": ("platformatic",),
    "wiremock": ("java", "wiremock"),
    "lnbits": ("lnbits",),
    "gns3": ("gns3-server",),
    "changedetection": ("changedetection",),
    "zou": ("zou",),
    "dstack": ("dstack",),
    "prefect": ("prefect",),
    "zenml": ("zenml",),
    "chroma": ("chroma",),
    "pulp": ("pulp",),
    "label_studio": ("label-studio",),
    "airflow": ("airflow",),
    "superset": ("superset",),
    "directus": ("directus",),
    "homebridge": ("homebridge",),
    "nautobot": ("nautobot", "nautobot-db"),
}


def _module_name(path: Path) -> str:
    """The name ``NEEDS`` gives a test module."""
    return path.stem.removeprefix("test_")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The realapi tests in the order of ``NEEDS``, each module's tests together and in their own
    order; every other test keeps its place."""
    order = {name: rank for rank, name in enumerate(NEEDS)}
    here = Path(__file__).parent
    places = [i for i, item in enumerate(items) if item.path.parent == here]
    ranked = sorted(places, key=lambda i: (order.get(_module_name(items[i].path), len(order)), i))
    moved = [items[i] for i in ranked]
    for place, item in zip(places, moved, strict=True):
        items[place] = item


def wait_for_install(parts: tuple[str, ...]) -> None:
    """Until the install that scripts/test.sh runs beside the other tests has put ``parts`` in
    place; its log when it failed first. Without that script (a realapi test run by hand) the
    servers are taken as installed, and a missing one fails its fixture with the command to run."""
    status, ready = os.environ.get(INSTALL_STATUS), os.environ.get(INSTALL_READY)
    if not status or not ready:
        return
    deadline = time.monotonic() + INSTALL_TIMEOUT
    while not all((Path(ready) / part).is_file() for part in parts):
        if Path(status).is_file():
            code = Path(status).read_text().strip()
            if code != "0":
                log = Path(os.environ.get(INSTALL_LOG, "")).read_text(errors="replace")
                pytest.fail(f"the real API servers' install failed:\n{log[-4000:]}")
            missing = [part for part in parts if not (Path(ready) / part).is_file()]
            pytest.fail(f"the install ended without marking {missing} (install_realapis.sh)")
        if time.monotonic() > deadline:
            pytest.fail(f"{parts} were not installed within {INSTALL_TIMEOUT:.0f} s")
        time.sleep(1.0)


@pytest.fixture(scope="module", autouse=True)
def _installed(request: pytest.FixtureRequest) -> None:
    """The parts of the install this module's servers need (module fixtures come after it)."""
    wait_for_install(NEEDS.get(_module_name(request.path), ()))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing test that used a real server which has exited says so, with the end of its log:
    "connection refused" alone does not tell a crash from a fault of ours, and a CI run's logs
    are gone with its temporary directory."""
    report = yield
    if report.failed:
        for value in getattr(item, "funcargs", {}).values():
            server = value.server if isinstance(value, LiveApi) else value
            if isinstance(server, RealServer) and (status := server.exit_status()) is not None:
                report.sections.append(
                    (f"{server.name} exited with status {status}", server.log_tail(60))
                )
    return report


@pytest.fixture(scope="session")
def realapi_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("realapis")


def run_httpbin(realapi_dir: Path) -> Iterator[LiveApi]:
    python = venv_executable("httpbin", "python")
    port = free_port()
    command: list[str | Path] = [python, "-m", "httpbin.core", "--port", str(port)]
    with RealServer(
        "httpbin", command, port=port, ready_path="/get", log_dir=realapi_dir
    ) as server:
        package, spec = _generate_live(server, "/spec.json", {}, realapi_dir, "httpbin")
        # the document names httpbin.org: the base URL points the server at the local one
        yield LiveApi(server, package, "httpbin_mcp", "HTTPBIN", server.root_url, spec)


def run_kinto(realapi_dir: Path) -> Iterator[LiveApi]:
    # a directory of its own for each start (test_kinto and test_search_log each start one)
    realapi_dir = Path(tempfile.mkdtemp(prefix="kinto-", dir=realapi_dir))
    executable = venv_executable("kinto", "kinto")
    ini = realapi_dir / "kinto.ini"
    backends = ["--backend", "memory", "--cache-backend", "memory"]
    subprocess.run(
        [executable, "init", "--ini", ini, *backends, "--host", "127.0.0.1"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    # any account may create buckets (kinto's default reserves that to account:admin), so that
    # each scenario signs up its own user and works in its own bucket
    settings = ini.read_text(encoding="utf-8")
    assert "kinto.bucket_create_principals = account:admin" in settings
    ini.write_text(
        settings.replace(
            "kinto.bucket_create_principals = account:admin",
            "kinto.bucket_create_principals = system.Authenticated",
        ),
        encoding="utf-8",
    )
    port = free_port()
    command: list[str | Path] = [executable, "start", "--ini", ini, "--port", str(port)]
    with RealServer(
        "kinto", command, port=port, ready_path="/v1/__heartbeat__", log_dir=realapi_dir
    ) as server:
        package, spec = _generate_live(server, "/v1/__api__", {}, realapi_dir, "kinto")
        yield LiveApi(server, package, "kinto_mcp", "KINTO", server.root_url + "/v1", spec)


@pytest.fixture(scope="session")
def jupyter_root(realapi_dir: Path) -> Path:
    root = realapi_dir / "jupyter-root"
    root.mkdir()
    return root


def run_jupyter(realapi_dir: Path, jupyter_root: Path) -> Iterator[LiveApi]:
    executable = venv_executable("jupyter-server", "jupyter-server")
    port = free_port()
    command: list[str | Path] = [
        executable,
        "--allow-root",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={JUPYTER_TOKEN}",
        f"--ServerApp.root_dir={jupyter_root}",
    ]
    auth = {"Authorization": f"token {JUPYTER_TOKEN}"}
    # its runtime and config files stay inside the test's directory, not the user's home
    env = {
        "JUPYTER_RUNTIME_DIR": str(realapi_dir / "jupyter-runtime"),
        "JUPYTER_CONFIG_DIR": str(realapi_dir / "jupyter-config"),
        "JUPYTER_DATA_DIR": str(realapi_dir / "jupyter-data"),
    }
    with RealServer(
        "jupyter-server",
        command,
        port=port,
        ready_path="/api/status",
        ready_headers=auth,
        log_dir=realapi_dir,
        cwd=realapi_dir,
        env=env,
    ) as server:
        package, spec = _generate_live(server, "/api/spec.yaml", auth, realapi_dir, "jupyter")
        yield LiveApi(server, package, "jupyter_mcp", "JUPYTER", server.root_url, spec)


# PowerDNS Authoritative (Debian's pdns-server, a C++ server): its API key and where Debian puts
# the schema of its SQLite backend (pdns-backend-sqlite3)
POWERDNS_API_KEY = "realapi-pdns-key-5b1e9d"
POWERDNS_SQLITE_SCHEMA = Path("/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql")


def run_powerdns(realapi_dir: Path) -> Iterator[LiveApi]:
    """PowerDNS with its HTTP API on a free port, zones in SQLite with DNSSEC, and DNS itself on
    another free port of 127.0.0.1; its Swagger 2.0 document is served at /api/docs."""
    executable = shutil.which("pdns_server") or "/usr/sbin/pdns_server"
    if not Path(executable).is_file() or not POWERDNS_SQLITE_SCHEMA.is_file():
        pytest.fail(f"PowerDNS is not installed: {INSTALL_HINT}")
    home = realapi_dir / "powerdns-home"
    home.mkdir()
    database = home / "pdns.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as connection:
        connection.executescript(POWERDNS_SQLITE_SCHEMA.read_text(encoding="utf-8"))
    port = free_port()
    settings = {
        "launch": "gsqlite3",
        "gsqlite3-database": database,
        "gsqlite3-dnssec": "yes",
        "local-address": "127.0.0.1",
        "local-port": free_port(),
        "api": "yes",
        "api-key": POWERDNS_API_KEY,
        "webserver": "yes",
        "webserver-address": "127.0.0.1",
        "webserver-port": port,
        "webserver-allow-from": "127.0.0.0/8",
        "socket-dir": home,
        "guardian": "no",
        "daemon": "no",
        "disable-syslog": "yes",
    }
    config = "".join(f"{key}={value}\n" for key, value in settings.items())
    (home / "pdns.conf").write_text(config, encoding="utf-8")
    key = {"X-API-Key": POWERDNS_API_KEY}
    command: list[str | Path] = [executable, f"--config-dir={home}"]
    with RealServer(
        "powerdns",
        command,
        port=port,
        ready_path="/api/v1/servers",
        ready_headers=key,
        log_dir=realapi_dir,
        cwd=home,
    ) as server:
        package, spec = _generate_live(server, "/api/docs", key, realapi_dir, "powerdns")
        # the document's basePath (/api/v1) and no host: the base URL says where it is
        yield LiveApi(
            server, package, "powerdns_mcp", "POWERDNS", server.root_url + "/api/v1", spec
        )


# Prometheus Alertmanager 0.25 (Debian's prometheus-alertmanager, a Go server built with
# go-swagger): it does not serve its Swagger 2.0 document, but compiles it in from the generated
# source Debian ships as golang-github-prometheus-alertmanager-dev; that is the document used
ALERTMANAGER_SPEC_SOURCE = Path(
    "/usr/share/gocode/src/github.com/prometheus/alertmanager/api/v2/restapi/embedded_spec.go"
)
_EMBEDDED_SPEC = re.compile(r"SwaggerJSON = json\.RawMessage\(\[\]byte\(`(.*?)`\)\)", re.S)


def run_alertmanager(realapi_dir: Path) -> Iterator[LiveApi]:
    """Alertmanager on a free port of 127.0.0.1, one receiver, no cluster, its data in the test's
    directory; the package is generated from the document compiled into it."""
    executable = shutil.which("prometheus-alertmanager") or "/usr/bin/prometheus-alertmanager"
    if not Path(executable).is_file() or not ALERTMANAGER_SPEC_SOURCE.is_file():
        pytest.fail(f"Alertmanager is not installed: {INSTALL_HINT}")
    found = _EMBEDDED_SPEC.search(ALERTMANAGER_SPEC_SOURCE.read_text(encoding="utf-8"))
    assert found is not None, f"no SwaggerJSON in {ALERTMANAGER_SPEC_SOURCE}"
    home = realapi_dir / "alertmanager-home"
    home.mkdir()
    config = home / "alertmanager.yml"
    config.write_text("route:\n  receiver: team\nreceivers:\n  - name: team\n", encoding="utf-8")
    port = free_port()
    command: list[str | Path] = [
        executable,
        f"--config.file={config}",
        f"--storage.path={home / 'data'}",
        f"--web.listen-address=127.0.0.1:{port}",
        "--cluster.listen-address=",  # no gossip with peers
    ]
    with RealServer(
        "alertmanager", command, port=port, ready_path="/-/ready", log_dir=realapi_dir, cwd=home
    ) as server:
        package, spec = _generate_from(found.group(1).encode("utf-8"), realapi_dir, "alertmanager")
        base_url = server.root_url + "/api/v2"
        yield LiveApi(server, package, "alertmanager_mcp", "ALERTMANAGER", base_url, spec)


ETCD_SPEC = Path("/usr/share/doc/etcd-server/dev-guide/apispec/swagger/rpc.swagger.json.gz")


def run_etcd(realapi_dir: Path) -> Iterator[LiveApi]:
    """etcd 3.4 (Debian) as a single member on free ports of 127.0.0.1, its data in the test's
    directory. Its JSON API is grpc-gateway's translation of its gRPC services: every call a POST,
    keys and values base64 (``format: byte``), 64-bit numbers as strings; the package is generated
    from the Swagger 2.0 document protoc-gen-swagger writes from them, which Debian ships with its
    documentation (etcd does not serve it)."""
    executable = shutil.which("etcd") or "/usr/bin/etcd"
    if not Path(executable).is_file() or not ETCD_SPEC.is_file():
        pytest.fail(f"etcd is not installed: {INSTALL_HINT}")
    home = realapi_dir / "etcd-home"
    home.mkdir()
    port, peer = free_port(), free_port()
    client_url, peer_url = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{peer}"
    command: list[str | Path] = [
        executable,
        "--name=realapi",
        f"--data-dir={home / 'data'}",
        f"--listen-client-urls={client_url}",
        f"--advertise-client-urls={client_url}",
        f"--listen-peer-urls={peer_url}",
        f"--initial-advertise-peer-urls={peer_url}",
        f"--initial-cluster=realapi={peer_url}",
        "--log-level=warn",
    ]
    with RealServer(
        "etcd", command, port=port, ready_path="/health", log_dir=realapi_dir, cwd=home
    ) as server:
        package, spec = _generate_from(gzip.decompress(ETCD_SPEC.read_bytes()), realapi_dir, "etcd")
        yield LiveApi(server, package, "etcd_mcp", "ETCD", server.root_url, spec)


def run_wiremock(realapi_dir: Path) -> Iterator[LiveApi]:
    """WireMock 3 (npm: the standalone jar, run on the machine's Java) on a free port of 127.0.0.1,
    its mappings and files in the test's directory. Its admin API (Jetty, a hand-written OpenAPI
    3.0 document served at /__admin/docs/swagger) manages the stubs it answers with: a stub made
    through it is then asked of WireMock itself."""
    jar = (
        VENVS
        / "wiremock"
        / "node_modules"
        / "wiremock"
        / "build"
        / "wiremock-standalone-3.13.2.jar"
    )
    java = shutil.which("java")
    if java is None or not jar.is_file():
        pytest.fail(f"WireMock (or java) is missing: {INSTALL_HINT}")
    home = realapi_dir / "wiremock-home"
    home.mkdir()
    port = free_port()
    command: list[str | Path] = [
        java,
        "-jar",
        jar,
        "--bind-address=127.0.0.1",
        f"--port={port}",
        f"--root-dir={home}",
        "--disable-banner",
    ]
    with RealServer(
        "wiremock",
        command,
        port=port,
        ready_path="/__admin/health",
        log_dir=realapi_dir,
        cwd=home,
    ) as server:
        package, spec = _generate_live(server, "/__admin/docs/swagger", {}, realapi_dir, "wiremock")
        yield LiveApi(server, package, "wiremock_mcp", "WIREMOCK", server.root_url, spec)


HOMEBRIDGE_PASSWORD = "Realapi-homebridge-5c1a!"


def run_homebridge(realapi_dir: Path) -> Iterator[LiveApi]:
    """Homebridge's UI server 4.76 (npm: NestJS on Fastify, its OpenAPI 3.0 document written by
    @nestjs/swagger and served at /swagger-json) on a free port of 127.0.0.1, without Homebridge
    itself running, its storage in the test's directory. Its document says the bearer token comes
    from an OAuth2 password flow at /api/auth/login; the first user is made through its setup
    wizard. What it would fetch from the internet (npm, GitHub, nodejs.org) goes to a proxy that
    is no one (a closed port of 127.0.0.1)."""
    app = VENVS / "homebridge" / "node_modules" / "homebridge-config-ui-x" / "dist" / "bin"
    node = shutil.which("node")
    if node is None or not (app / "standalone.js").is_file():
        pytest.fail(f"Homebridge's UI (or node) is missing: {INSTALL_HINT}")
    home = realapi_dir / "homebridge-home"
    home.mkdir()
    port = free_port()
    ui = {"platform": "config", "name": "Config", "port": port, "host": "127.0.0.1", "auth": "form"}
    config = {
        "bridge": {"name": "Homebridge", "username": "0E:11:22:33:44:55", "pin": "031-45-154"},
        "accessories": [],
        "platforms": [ui],
    }
    (home / "config.json").write_text(json.dumps(config), encoding="utf-8")
    nowhere = f"http://127.0.0.1:{free_port()}"
    env = {
        "UIX_STORAGE_PATH": str(home),
        "HTTP_PROXY": nowhere,
        "HTTPS_PROXY": nowhere,
        "NO_PROXY": "127.0.0.1,localhost",
    }
    command: list[str | Path] = [node, app / "standalone.js", "-U", home]
    with RealServer(
        "homebridge",
        command,
        port=port,
        ready_path="/api/auth/settings",
        log_dir=realapi_dir,
        cwd=home,
        env=env,
    ) as server:
        wizard = httpx.get(server.root_url + "/api/setup-wizard/get-setup-wizard-token", timeout=10)
        signed = {"Authorization": f"Bearer {wizard.json()['access_token']}"}
        first = {"name": "Ada", "username": "admin", "password": HOMEBRIDGE_PASSWORD, "admin": True}
        made = httpx.post(
            server.root_url + "/api/setup-wizard/create-first-user",
            json=first,
            headers=signed,
            timeout=10,
        )
        assert made.status_code == 201, made.text
        package, spec = _generate_live(server, "/swagger-json", {}, realapi_dir, "homebridge")
        yield LiveApi(
            server,
            package,
            "homebridge_mcp",
            "HOMEBRIDGE",
            server.root_url,
            spec,
            credentials={"BEARER_USERNAME": "admin", "BEARER_PASSWORD": HOMEBRIDGE_PASSWORD},
        )


def _loopback(example: str, realapi_dir: Path, module: str) -> Iterator[LiveApi]:
    """One of LoopBack 4's examples (npm) on a free port, its data in ``realapi_dir`` (the todo
    example's seeded from a copy of its own); its OpenAPI 3.0 document is served at /openapi.json."""
    app = VENVS / "loopback" / "node_modules" / "@loopback" / f"example-{example}"
    node = shutil.which("node")
    if node is None or not (app / "dist" / "index.js").is_file():
        pytest.fail(f"LoopBack's {example} example (or node) is missing: {INSTALL_HINT}")
    home = realapi_dir / f"loopback-{example}"
    (home / "data").mkdir(parents=True)
    if (app / "data" / "db.json").is_file():
        shutil.copy(app / "data" / "db.json", home / "data" / "db.json")
    port = free_port()
    with RealServer(
        f"loopback-{example}",
        [node, app / "dist" / "index.js"],
        port=port,
        ready_path="/openapi.json",
        log_dir=realapi_dir,
        cwd=home,
        env={"PORT": str(port), "HOST": "127.0.0.1"},
    ) as server:
        package, spec = _generate_live(server, "/openapi.json", {}, realapi_dir, module)
        yield LiveApi(server, package, f"{module}_mcp", module.upper(), server.root_url, spec)


@pytest.fixture(scope="module")
def loopback(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_loopback(realapi_dir)


@pytest.fixture(scope="module")
def loopback_files(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_loopback_files(realapi_dir)


def _launched(name: str, module: str, realapi_dir: Path) -> Iterator[LiveApi]:
    """One of ``LAUNCHES`` started with its data under ``realapi_dir``, and its generated package."""
    launch = LAUNCHES[name]
    home = realapi_dir / f"{name}-home"
    home.mkdir()
    with launch.server(name, home, realapi_dir) as server:
        headers = launch.document_headers
        package, spec = _generate_live(server, launch.document_path, headers, realapi_dir, name)
        base_url = server.root_url + launch.api_path
        prefix = name.upper().replace("-", "_")
        yield LiveApi(server, package, module, prefix, base_url, spec)


@pytest.fixture(scope="module")
def prefect(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_prefect(realapi_dir)


@pytest.fixture(scope="module")
def gns3(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_gns3(realapi_dir)


@pytest.fixture(scope="module")
def label_studio(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_label_studio(realapi_dir)


@pytest.fixture(scope="module")
def chroma(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_chroma(realapi_dir)


# Unleash (npm: an Express server; its OpenAPI 3.0 document is written from its JSON schemas) with
# its data in a PostgreSQL cluster of its own and nothing sent anywhere (no version check, no
# telemetry). Its administrator signs in once to make a personal access token, which the tests use:
# an admin API token (made at start-up too) is no user, and the calls about "me" refuse it.
UNLEASH_ADMIN_TOKEN = "*:*.realapi-unleash-admin-6e0d2b"
UNLEASH_PASSWORD = "Realapi-unleash-4f2a!"


def run_unleash(realapi_dir: Path) -> Iterator[LiveApi]:
    app = VENVS / "unleash" / "node_modules" / "unleash-server"
    node = shutil.which("node")
    if node is None or not (app / "dist" / "server.js").is_file():
        pytest.fail(f"Unleash (or node) is missing: {INSTALL_HINT}")
    home = realapi_dir / "unleash-home"
    home.mkdir()
    with postgres.cluster(("unleash",), realapi_dir) as database:
        port = free_port()
        env = {
            "TZ": "UTC",
            "DATABASE_URL": f"{database}/unleash",
            "DATABASE_SSL": "false",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_PORT": str(port),
            "ENABLE_OAS": "true",
            "INIT_ADMIN_API_TOKENS": UNLEASH_ADMIN_TOKEN,
            "UNLEASH_DEFAULT_ADMIN_USERNAME": "admin",
            "UNLEASH_DEFAULT_ADMIN_PASSWORD": UNLEASH_PASSWORD,
            "CHECK_VERSION": "false",
            "SEND_TELEMETRY": "false",
            "LOG_LEVEL": "warn",
        }
        command: list[str | Path] = [node, app / "dist" / "server.js"]
        with RealServer(
            "unleash",
            command,
            port=port,
            ready_path="/health",
            log_dir=realapi_dir,
            cwd=home,
            env=env,
        ) as server:
            package, spec = _generate_live(server, "/docs/openapi.json", {}, realapi_dir, "unleash")
            token = _unleash_personal_token(server.root_url)
            yield LiveApi(
                server,
                package,
                "unleash_mcp",
                "UNLEASH",
                server.root_url,
                spec,
                credentials={"API_KEY": token},
            )


def _unleash_personal_token(root_url: str) -> str:
    """The administrator's personal access token, made through a signed-in session."""
    with httpx.Client(base_url=root_url, timeout=30) as session:
        login = {"username": "admin", "password": UNLEASH_PASSWORD}
        session.post("/auth/simple/login", json=login).raise_for_status()
        made = session.post(
            "/api/admin/user/tokens",
            json={"description": "realapi tests", "expiresAt": "2099-01-01T00:00:00Z"},
        )
        made.raise_for_status()
        secret: str = made.json()["secret"]
        return secret


def _prepare(
    executable: Path, steps: tuple[list[str], ...], env: Mapping[str, str], home: Path
) -> None:
    """Run a server's set-up commands (its database, its administrator) before it starts."""
    for step in steps:
        done = subprocess.run(
            [executable, *step],
            env={**os.environ, **env},
            cwd=home,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            output = (done.stdout + done.stderr)[-3000:]
            pytest.fail(
                f"{executable.name} {' '.join(step[:2])} failed ({done.returncode}):\n{output}"
            )


# Apache Superset (Flask-AppBuilder: its OpenAPI 3.0 document is written by apispec from marshmallow
# schemas; list filters go as one `q` query parameter): its metadata in SQLite in ``home``, an
# administrator who signs in for a JWT, no CSRF token asked of API calls made with one, and SQLite
# databases allowed as data sources (the test registers one)
SUPERSET_PASSWORD = "Realapi-superset-8b3d!"
SUPERSET_CONFIG = """\
from datetime import timedelta

SECRET_KEY = "realapi-superset-7d41c2a9e8b05f36"
SQLALCHEMY_DATABASE_URI = "sqlite:///{home}/superset.db"
JWT_ACCESS_TOKEN_EXPIRES = timedelta(hours=4)
WTF_CSRF_ENABLED = False
TALISMAN_ENABLED = False
PREVENT_UNSAFE_DB_CONNECTIONS = False
SCARF_ANALYTICS = False
"""


def run_superset(realapi_dir: Path) -> Iterator[LiveApi]:
    superset = venv_executable("superset", "superset")
    home = realapi_dir / "superset-home"
    home.mkdir()
    config = home / "superset_config.py"
    config.write_text(SUPERSET_CONFIG.format(home=home), encoding="utf-8")
    env = {"SUPERSET_CONFIG_PATH": str(config), "SUPERSET_HOME": str(home)}
    admin = ["--username", "admin", "--firstname", "Ada", "--lastname", "Admin"]
    admin += ["--email", "admin@example.com", "--password", SUPERSET_PASSWORD]
    _prepare(superset, (["db", "upgrade"], ["fab", "create-admin", *admin], ["init"]), env, home)
    port = free_port()
    command: list[str | Path] = [superset, "run", "-h", "127.0.0.1", "-p", str(port)]
    with RealServer(
        "superset",
        [*command, "--with-threads"],
        port=port,
        ready_path="/health",
        log_dir=realapi_dir,
        cwd=home,
        env=env,
    ) as server:
        login = {"username": "admin", "password": SUPERSET_PASSWORD, "provider": "db"}
        answer = httpx.post(server.root_url + "/api/v1/security/login", json=login, timeout=30)
        answer.raise_for_status()
        token: str = answer.json()["access_token"]
        bearer = {"Authorization": f"Bearer {token}"}
        package, spec = _generate_live(server, "/api/v1/_openapi", bearer, realapi_dir, "superset")
        yield LiveApi(
            server,
            package,
            "superset_mcp",
            "SUPERSET",
            server.root_url,
            spec,
            credentials={"JWT_TOKEN": token},
        )


# Platformatic DB (npm: a Fastify server that exposes a SQL database as REST; its OpenAPI 3.0
# document, written by @fastify/swagger from the tables, filters through query parameters named
# `where.<column>.<operator>`; Fastify refuses with a 400 naming the field any request that breaks
# it): two related tables of SQLite in ``home``, made by the migration below when it starts
PLATFORMATIC_MIGRATION = """\
CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE);
CREATE TABLE pets (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  born DATE,
  weight REAL,
  vaccinated BOOLEAN DEFAULT 0,
  owner_id INTEGER REFERENCES owners(id),
  notes TEXT
);
"""


def run_platformatic(realapi_dir: Path) -> Iterator[LiveApi]:
    app = VENVS / "platformatic" / "node_modules" / "@platformatic" / "db" / "db.mjs"
    node = shutil.which("node")
    if node is None or not app.is_file():
        pytest.fail(f"Platformatic DB (or node) is missing: {INSTALL_HINT}")
    home = realapi_dir / "platformatic-home"
    (home / "migrations").mkdir(parents=True)
    (home / "migrations" / "001.do.sql").write_text(PLATFORMATIC_MIGRATION, encoding="utf-8")
    port = free_port()
    config = {
        "server": {"hostname": "127.0.0.1", "port": port, "logger": {"level": "warn"}},
        "db": {"connectionString": "sqlite://./db.sqlite", "openapi": True, "graphql": False},
        "migrations": {"dir": "./migrations", "autoApply": True},
    }
    (home / "platformatic.db.json").write_text(json.dumps(config), encoding="utf-8")
    command: list[str | Path] = [node, app, "start", "-c", "platformatic.db.json"]
    with RealServer(
        "platformatic",
        command,
        port=port,
        ready_path="/documentation/json",
        log_dir=realapi_dir,
        cwd=home,
    ) as server:
        package, spec = _generate_live(
            server, "/documentation/json", {}, realapi_dir, "platformatic"
        )
        yield LiveApi(server, package, "platformatic_mcp", "PLATFORMATIC", server.root_url, spec)


# Directus 10.13 (npm: a headless CMS on Express whose OpenAPI 3.0 document is written at run time
# from the project's collections): its data in SQLite in ``home``, an administrator with a static
# token made at bootstrap, and one collection of articles defined before the document is read, as
# a project would have. Started without its command-line wrapper, which asks the npm registry for
# a newer release; telemetry off.
DIRECTUS_TOKEN = "realapi-directus-admin-93c1f0"
DIRECTUS_ARTICLES = {
    "collection": "articles",
    "meta": {"note": "News articles"},
    "schema": {},
    "fields": [
        {
            "field": "id",
            "type": "integer",
            "meta": {"hidden": True},
            "schema": {"is_primary_key": True, "has_auto_increment": True},
        },
        {"field": "title", "type": "string", "meta": {"required": True}, "schema": {}},
        {"field": "body", "type": "text", "schema": {}},
        {"field": "status", "type": "string", "schema": {"default_value": "draft"}},
        {"field": "published_on", "type": "date", "schema": {}},
        {"field": "views", "type": "integer", "schema": {"default_value": 0}},
        {"field": "tags", "type": "json", "meta": {"special": ["cast-json"]}, "schema": {}},
    ],
}


def run_directus(realapi_dir: Path) -> Iterator[LiveApi]:
    api = VENVS / "directus" / "node_modules" / "@directus" / "api" / "dist" / "cli" / "run.js"
    node = shutil.which("node")
    if node is None or not api.is_file():
        pytest.fail(f"Directus (or node) is missing: {INSTALL_HINT}")
    home = realapi_dir / "directus-home"
    for folder in ("uploads", "extensions"):
        (home / folder).mkdir(parents=True)
    # the project's own package file, where Directus looks for extensions installed with npm
    (home / "package.json").write_text('{"private": true}', encoding="utf-8")
    port = free_port()
    env = {
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
        "DB_CLIENT": "sqlite3",
        "DB_FILENAME": str(home / "data.db"),
        "KEY": "realapi-directus-key",
        "SECRET": "realapi-directus-secret",
        "ADMIN_EMAIL": "admin@example.com",
        "ADMIN_PASSWORD": "Realapi-directus-7d2e!",
        "ADMIN_TOKEN": DIRECTUS_TOKEN,
        "STORAGE_LOCATIONS": "local",
        "STORAGE_LOCAL_ROOT": str(home / "uploads"),
        "EXTENSIONS_PATH": str(home / "extensions"),
        "TELEMETRY": "false",
        "CACHE_ENABLED": "false",
        "RATE_LIMITER_ENABLED": "false",
        "LOG_LEVEL": "warn",
    }
    _prepare(Path(node), ([str(api), "bootstrap"],), env, home)
    command: list[str | Path] = [node, api, "start"]
    with RealServer(
        "directus",
        command,
        port=port,
        ready_path="/server/ping",
        log_dir=realapi_dir,
        cwd=home,
        env=env,
    ) as server:
        signed = {"Authorization": f"Bearer {DIRECTUS_TOKEN}"}
        made = httpx.post(
            server.root_url + "/collections", json=DIRECTUS_ARTICLES, headers=signed, timeout=30
        )
        assert made.status_code == 200, made.text
        package, spec = _generate_live(server, "/server/specs/oas", signed, realapi_dir, "directus")
        yield LiveApi(
            server,
            package,
            "directus_mcp",
            "DIRECTUS",
            server.root_url,
            spec,
            credentials={"AUTH_KEY": f"Bearer {DIRECTUS_TOKEN}"},
        )


# Apache Airflow 2.10 (its REST API served by Connexion from a hand-written OpenAPI 3.0 document,
# which checks every request against it; the document declares Basic and requires nothing, since
# the deployment chooses how to sign in: here with a user and password): its metadata in SQLite
# in ``home``, one DAG, no examples, one web worker
AIRFLOW_PASSWORD = "Realapi-airflow-2c7e!"
AIRFLOW_DAG = """\
from datetime import datetime

from airflow import DAG
from airflow.operators.empty import EmptyOperator

with DAG("hello", start_date=datetime(2026, 1, 1), schedule=None, catchup=False, tags=["demo"]):
    EmptyOperator(task_id="start") >> EmptyOperator(task_id="finish")
"""


def run_airflow(realapi_dir: Path) -> Iterator[LiveApi]:
    airflow = venv_executable("airflow", "airflow")
    home = realapi_dir / "airflow-home"
    (home / "dags").mkdir(parents=True)
    (home / "dags" / "hello.py").write_text(AIRFLOW_DAG, encoding="utf-8")
    env = {
        "AIRFLOW_HOME": str(home),
        "AIRFLOW__CORE__DAGS_FOLDER": str(home / "dags"),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__API__AUTH_BACKENDS": "airflow.api.auth.backend.basic_auth",
        "AIRFLOW__WEBSERVER__SECRET_KEY": "realapi-airflow-5e19d7c3",
        "AIRFLOW__WEBSERVER__WORKERS": "1",
    }
    admin = ["-u", "admin", "-p", AIRFLOW_PASSWORD, "-f", "Ada", "-l", "Admin", "-r", "Admin"]
    steps = (["db", "migrate"], ["users", "create", *admin, "-e", "admin@example.com"])
    _prepare(airflow, (*steps, ["dags", "reserialize"]), env, home)
    port = free_port()
    command: list[str | Path] = [airflow, "webserver", "-H", "127.0.0.1", "-p", str(port)]
    with RealServer(
        "airflow", command, port=port, ready_path="/health", log_dir=realapi_dir, cwd=home, env=env
    ) as server:
        pair = base64.b64encode(f"admin:{AIRFLOW_PASSWORD}".encode()).decode()
        signed = {"Authorization": f"Basic {pair}"}
        package, spec = _generate_live(
            server, "/api/v1/openapi.yaml", signed, realapi_dir, "airflow"
        )
        yield LiveApi(
            server,
            package,
            "airflow_mcp",
            "AIRFLOW",
            server.root_url + "/api/v1",
            spec,
            credentials={"BASIC_USERNAME": "admin", "BASIC_PASSWORD": AIRFLOW_PASSWORD},
        )


PULP_PASSWORD = "realapi-pulp-2b7e91"
PULP_SETTINGS = """\
SECRET_KEY = "realapi-pulp-secret-key-1f0c9e7a5b3d2e4f6a8c0b1d3e5f7a9c"
CONTENT_ORIGIN = "http://127.0.0.1:{content_port}"
DATABASES = {{"default": {{"ENGINE": "django.db.backends.postgresql", "NAME": "pulp",
    "USER": "{user}", "HOST": "127.0.0.1", "PORT": {port}}}}}
DB_ENCRYPTION_KEY = "{home}/database_fields.symmetric.key"
MEDIA_ROOT = "{home}/media"
STATIC_ROOT = "{home}/static"
WORKING_DIRECTORY = "{home}/tmp"
FILE_UPLOAD_TEMP_DIR = "{home}/tmp"
ANALYTICS = False
"""


def run_pulp(realapi_dir: Path) -> Iterator[LiveApi]:
    """Pulp 3 (pulpcore with its file plugin): Django REST framework and drf-spectacular, on a
    PostgreSQL cluster of its own; an API server and the worker that runs its tasks. Its analytics
    (a daily report to pulpproject.org) are off."""
    manager = venv_executable("pulp", "pulpcore-manager")
    home = realapi_dir / "pulp-home"
    for directory in ("media", "static", "tmp"):
        (home / directory).mkdir(parents=True)
    # a Fernet key: 32 random bytes, URL-safe base64
    (home / "database_fields.symmetric.key").write_bytes(base64.urlsafe_b64encode(os.urandom(32)))
    with postgres.cluster(("pulp",), realapi_dir) as database:
        settings = PULP_SETTINGS.format(
            content_port=free_port(), user=postgres.ROLE, port=database.rsplit(":", 1)[1], home=home
        )
        (home / "settings.py").write_text(settings, encoding="utf-8")
        env = {"PULP_SETTINGS": str(home / "settings.py")}
        steps = (["migrate", "--noinput"], ["reset-admin-password", "--password", PULP_PASSWORD])
        _prepare(manager, steps, env, home)
        port = free_port()
        api: list[str | Path] = [
            venv_executable("pulp", "pulpcore-api"),
            *("--bind", f"127.0.0.1:{port}", "--workers", "1"),
        ]
        with (
            RealServer(
                "pulp",
                api,
                port=port,
                ready_path="/pulp/api/v3/status/",
                log_dir=realapi_dir,
                cwd=home,
                env=env,
            ) as server,
            background(
                "pulp-worker",
                [venv_executable("pulp", "pulpcore-worker")],
                realapi_dir,
                env=env,
                cwd=home,
            ),
        ):
            package, spec = _generate_live(
                server, "/pulp/api/v3/docs/api.json", {}, realapi_dir, "pulp"
            )
            _wait_for_pulp_worker(server.root_url)
            yield LiveApi(
                server,
                package,
                "pulp_mcp",
                "PULP",
                server.root_url,
                spec,
                credentials={"BASIC_AUTH_USERNAME": "admin", "BASIC_AUTH_PASSWORD": PULP_PASSWORD},
            )


def _wait_for_pulp_worker(root_url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = httpx.get(f"{root_url}/pulp/api/v3/status/", timeout=10).json()
        if status["online_workers"]:
            return
        time.sleep(0.2)
    pytest.fail(f"no Pulp worker came online within {timeout:.0f} s")


ZOU_ADMIN = "admin@example.com"
ZOU_PASSWORD = "Realapi-zou-5c2e8a"


def run_zou(realapi_dir: Path) -> Iterator[LiveApi]:
    """Kitsu's Zou (Flask-RESTful; the OpenAPI 3.0.2 document flasgger writes from docstrings that
    keep Swagger 2.0's habits) on a PostgreSQL cluster and a Redis server of its own; its search
    index (Meilisearch) is a closed port of 127.0.0.1, which it does without."""
    zou = venv_executable("zou", "zou")
    home = realapi_dir / "zou-home"
    for directory in ("previews", "tmp"):
        (home / directory).mkdir(parents=True)
    with (
        postgres.cluster(("zoudb",), realapi_dir) as database,
        running_redis(realapi_dir) as redis_port,
    ):
        env = {
            "DB_HOST": "127.0.0.1",
            "DB_PORT": database.rsplit(":", 1)[1],
            "DB_USERNAME": postgres.ROLE,
            "DB_PASSWORD": "",
            "DB_DATABASE": "zoudb",
            "KV_HOST": "127.0.0.1",
            "KV_PORT": str(redis_port),
            "SECRET_KEY": "realapi-zou-secret-3f9b1d7e5a2c4e6f",
            "PREVIEW_FOLDER": str(home / "previews"),
            "TMP_DIR": str(home / "tmp"),
            "INDEXER_HOST": "127.0.0.1",
            "INDEXER_PORT": str(free_port()),
        }
        admin = ["create-admin", ZOU_ADMIN, "--password", ZOU_PASSWORD]
        _prepare(zou, (["init-db"], ["init-data"], admin), env, home)
        port = free_port()
        command: list[str | Path] = [
            venv_executable("zou", "gunicorn"),
            *("--bind", f"127.0.0.1:{port}", "--workers", "1", "zou.app:app"),
        ]
        with RealServer(
            "zou", command, port=port, ready_path="/", log_dir=realapi_dir, cwd=home, env=env
        ) as server:
            package, spec = _generate_live(server, "/openapi.json", {}, realapi_dir, "zou")
            signed = httpx.post(
                f"{server.root_url}/auth/login",
                json={"email": ZOU_ADMIN, "password": ZOU_PASSWORD},
                timeout=30,
            )
            signed.raise_for_status()
            token = signed.json()["access_token"]
            yield LiveApi(
                server,
                package,
                "zou_mcp",
                "ZOU",
                server.root_url,
                spec,
                credentials={"JWT_AUTHORIZATION_KEY": token},
            )


def run_slurm(realapi_dir: Path) -> Iterator[LiveApi]:
    """slurmrestd (Debian's Slurm 22.05: a C server that writes its own OpenAPI 3.0 document, with
    every answer in JSON or YAML) over a one-node cluster of 127.0.0.1 (``slurm.py``). Its document
    is served only to a signed-in user; the package is generated from it as served."""
    with slurm.cluster(realapi_dir) as cluster:
        port = free_port()
        token = cluster.token()
        headers = {"X-SLURM-USER-NAME": slurm.USER, "X-SLURM-USER-TOKEN": token}
        with RealServer(
            "slurmrestd",
            slurm.rest_command(port),
            port=port,
            ready_path="/openapi/v3",
            log_dir=realapi_dir,
            env={**cluster.env, "SLURM_JWT": "daemon"},
        ) as server:
            package, spec = _generate_live(server, "/openapi/v3", headers, realapi_dir, "slurm")
            yield LiveApi(
                server,
                package,
                "slurm_mcp",
                "SLURM",
                server.root_url,
                spec,
                credentials={"USER_KEY": slurm.USER, "TOKEN_KEY": token},
                files=cluster.home / "jobs",
            )


def run_changedetection(realapi_dir: Path) -> Iterator[LiveApi]:
    """changedetection.io (Flask-RESTful; it serves its OpenAPI 3.1 document as YAML and checks
    every API request against it with openapi-core), watching pages that a static server of
    127.0.0.1 serves from ``files``. Its API key is made on first start and read from its data;
    it reaches no other host (no example watches: it starts with one of ours; no version check)."""
    pages = realapi_dir / "changedetection-pages"
    pages.mkdir()
    (pages / "index.html").write_text("<html><body><p>Watched pages</p></body></html>")
    home = realapi_dir / "changedetection-home"
    page_port, port = free_port(), free_port()
    page_server: list[str | Path] = [
        sys.executable,
        *("-m", "http.server", str(page_port), "--bind", "127.0.0.1", "--directory", pages),
    ]
    command: list[str | Path] = [
        venv_executable("changedetection", "changedetection.io"),
        *("-d", home, "-C", "-h", "127.0.0.1", "-p", str(port), "-l", "INFO"),
        *("-u", f"http://127.0.0.1:{page_port}/"),
    ]
    # its fetches refuse private addresses unless told; the watched pages are on 127.0.0.1
    env = {"ALLOW_IANA_RESTRICTED_ADDRESSES": "true", "DISABLE_VERSION_CHECK": "true"}
    with (
        RealServer(
            "changedetection-pages",
            page_server,
            port=page_port,
            ready_path="/",
            log_dir=realapi_dir,
        ),
        RealServer(
            "changedetection",
            command,
            port=port,
            ready_path="/api/v1/systeminfo",
            log_dir=realapi_dir,
            env=env,
        ) as server,
    ):
        settings = json.loads((home / "changedetection.json").read_text(encoding="utf-8"))
        key = settings["settings"]["application"]["api_access_token"]
        package, spec = _generate_live(
            server, "/api/v1/full-spec", {"x-api-key": key}, realapi_dir, "changedetection"
        )
        yield LiveApi(
            server,
            package,
            "changedetection_mcp",
            "CHANGEDETECTION",
            server.root_url + "/api/v1",
            spec,
            credentials={"API_KEY_AUTH_KEY": key},
            files=pages,
        )


NAUTOBOT_ADMIN = "admin"
NAUTOBOT_PASSWORD = "realapi-nautobot-9c4e"


def run_nautobot(realapi_dir: Path) -> Iterator[LiveApi]:
    """Nautobot (Django REST framework and drf-spectacular: an OpenAPI 3.0 document of 1,675
    operations, 18 MB, served at /api/swagger.json) on a PostgreSQL cluster restored from the
    migrated dump the install made, with a Redis of its own; signed in with a token made for a
    superuser by its own API (basic authentication)."""
    server_program = venv_executable("nautobot", "nautobot-server")
    dump = VENVS / "nautobot" / "migrated.dump"
    if not dump.is_file():
        pytest.fail(f"Nautobot's migrated database is missing ({dump}): {INSTALL_HINT}")
    home = realapi_dir / "nautobot-home"
    with (
        postgres.cluster((nautobot.DATABASE,), realapi_dir) as database,
        running_redis(realapi_dir) as redis_port,
    ):
        nautobot.restore(dump, database)
        env = nautobot.environment(database, redis_port, home)
        nautobot.configure(env)
        admin = [server_program, "createsuperuser", "--no-input", "--username", NAUTOBOT_ADMIN]
        subprocess.run(
            [*admin, "--email", "admin@example.com"],
            check=True,
            capture_output=True,
            cwd=home,
            env={**os.environ, **env, "DJANGO_SUPERUSER_PASSWORD": NAUTOBOT_PASSWORD},
        )
        port = free_port()
        command: list[str | Path] = [server_program, "runserver", f"127.0.0.1:{port}", "--noreload"]
        with RealServer(
            "nautobot",
            command,
            port=port,
            ready_path="/api/",
            log_dir=realapi_dir,
            cwd=home,
            env=env,
            start_timeout=120,
        ) as server:
            made = httpx.post(
                f"{server.root_url}/api/users/tokens/",
                auth=(NAUTOBOT_ADMIN, NAUTOBOT_PASSWORD),
                json={"description": "realapi"},
                timeout=30,
            )
            made.raise_for_status()
            token = made.json()["key"]
            # drf-spectacular writes its 18 MB document when asked: some seconds
            package, spec = _generate_live(
                server,
                "/api/swagger.json",
                {"Authorization": f"Token {token}"},
                realapi_dir,
                "nautobot",
                timeout=120,
            )
            yield LiveApi(
                server,
                package,
                "nautobot_mcp",
                "NAUTOBOT",
                server.root_url + "/api",
                spec,
                credentials={"TOKEN_AUTH_KEY": token},
            )


def run_loopback(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from _loopback("todo", realapi_dir, "loopback")


def run_loopback_files(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from _loopback("file-transfer", realapi_dir, "files")


def run_jupyter_in(realapi_dir: Path) -> Iterator[LiveApi]:
    root = realapi_dir / "jupyter-root"
    root.mkdir()
    yield from run_jupyter(realapi_dir, root)


def run_prefect(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from _launched("prefect", "prefect_mcp", realapi_dir)


def run_gns3(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from _launched("gns3", "gns3_mcp", realapi_dir)


def run_label_studio(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from _launched("label-studio", "label_studio_mcp", realapi_dir)


def run_chroma(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from _launched("chroma", "chroma_mcp", realapi_dir)


# each real API server with its generated package, started with its data in a directory (the
# fixtures below, and benchmarks/live_sweep.py)
def run_pygeoapi(realapi_dir: Path) -> Iterator[LiveApi]:
    """pygeoapi 0.21 (Flask: OGC API Features and Processes) over the collections and process
    ``pygeoapi.py`` configures; its OpenAPI 3.0 document, which its CLI wrote before it started,
    is fetched from ``/openapi?f=json``. That document points at OGC's schemas online for many
    responses and parameters: they are not fetched (the generator leaves out what it cannot
    resolve, with a warning)."""
    with pygeoapi.running(realapi_dir) as server:
        package, spec = _generate_live(server, "/openapi?f=json", {}, realapi_dir, "pygeoapi")
        yield LiveApi(server, package, "pygeoapi_mcp", "PYGEOAPI", server.root_url, spec)


def run_lnbits(realapi_dir: Path) -> Iterator[LiveApi]:
    """LNbits 1.6 (FastAPI, SQLite, the FakeWallet funding source) started by ``lnbits.py``, its
    super user made by the first-install call; its OpenAPI 3.1 document, which declares no server,
    is fetched from ``/openapi.json``. Signed in with the first wallet's admin key (the API key
    header) and the super user's access token (the bearer token): the wallet's calls take the one,
    the account's and the administrator's the other."""
    with lnbits.running(realapi_dir) as server:
        keys = lnbits.first_install(server.root_url)
        package, spec = _generate_live(server, "/openapi.json", {}, realapi_dir, "lnbits")
        yield LiveApi(
            server,
            package,
            "lnbits_mcp",
            "LNBITS",
            server.root_url,
            spec,
            credentials={"API_KEY_HEADER_KEY": keys.adminkey, "HTTP_BEARER_TOKEN": keys.token},
        )


def run_postgrest(realapi_dir: Path) -> Iterator[LiveApi]:
    """PostgREST 12 (a Haskell server, npm's static binary) over the bookshop schema
    ``postgrest.py`` loads; its Swagger 2.0 document, written from the database's catalogue, is
    fetched from ``/``. Anonymous: the database role it runs as owns the schema."""
    with postgrest.running(realapi_dir) as server:
        package, spec = _generate_live(server, "/", {}, realapi_dir, "postgrest")
        yield LiveApi(server, package, "postgrest_mcp", "POSTGREST", server.root_url, spec)


RUNNERS: dict[str, Callable[[Path], Iterator[LiveApi]]] = {
    "httpbin": run_httpbin,
    "kinto": run_kinto,
    "jupyter": run_jupyter_in,
    "powerdns": run_powerdns,
    "alertmanager": run_alertmanager,
    "loopback": run_loopback,
    "loopback-files": run_loopback_files,
    "prefect": run_prefect,
    "gns3": run_gns3,
    "label-studio": run_label_studio,
    "chroma": run_chroma,
    "unleash": run_unleash,
    "superset": run_superset,
    "platformatic": run_platformatic,
    "airflow": run_airflow,
    "directus": run_directus,
    "etcd": run_etcd,
    "wiremock": run_wiremock,
    "homebridge": run_homebridge,
    "pulp": run_pulp,
    "zou": run_zou,
    "slurm": run_slurm,
    "changedetection": run_changedetection,
    "nautobot": run_nautobot,
    "pygeoapi": run_pygeoapi,
    "lnbits": run_lnbits,
    "zenml": run_zenml,
    "dstack": run_dstack,
    "postgrest": run_postgrest,
}


@pytest.fixture(scope="module")
def postgrest_api(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_postgrest(realapi_dir)


@pytest.fixture(scope="module")
def unleash(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_unleash(realapi_dir)


@pytest.fixture(scope="module")
def superset(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_superset(realapi_dir)


@pytest.fixture(scope="module")
def platformatic(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_platformatic(realapi_dir)


@pytest.fixture(scope="module")
def airflow(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_airflow(realapi_dir)


@pytest.fixture(scope="module")
def homebridge(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_homebridge(realapi_dir)


@pytest.fixture(scope="module")
def wiremock(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_wiremock(realapi_dir)


@pytest.fixture(scope="module")
def zou(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_zou(realapi_dir)


@pytest.fixture(scope="module")
def slurm_api(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_slurm(realapi_dir)


@pytest.fixture(scope="module")
def changedetection(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_changedetection(realapi_dir)


@pytest.fixture(scope="module")
def nautobot_api(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_nautobot(realapi_dir)


@pytest.fixture(scope="module")
def pygeoapi_api(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_pygeoapi(realapi_dir)


@pytest.fixture(scope="module")
def lnbits_api(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_lnbits(realapi_dir)


@pytest.fixture(scope="module")
def pulp(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_pulp(realapi_dir)


@pytest.fixture(scope="module")
def etcd(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_etcd(realapi_dir)


@pytest.fixture(scope="module")
def directus(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_directus(realapi_dir)


@pytest.fixture(scope="module")
def httpbin(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_httpbin(realapi_dir)


@pytest.fixture(scope="module")
def kinto(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_kinto(realapi_dir)


@pytest.fixture(scope="module")
def jupyter(realapi_dir: Path, jupyter_root: Path) -> Iterator[LiveApi]:
    yield from run_jupyter(realapi_dir, jupyter_root)


@pytest.fixture(scope="module")
def powerdns(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_powerdns(realapi_dir)


@pytest.fixture(scope="module")
def alertmanager(realapi_dir: Path) -> Iterator[LiveApi]:
    yield from run_alertmanager(realapi_dir)


@contextlib.asynccontextmanager
async def mcp_client(params: StdioServerParameters, mode: str = "auto") -> AsyncIterator[Client]:
    """An MCP session on the generated server; a lone failure inside it is raised as itself.

    The SDK's task groups wrap an assertion failing inside ``async with Client(...)`` in nested
    exception groups; unwrapped, the failing step of a scenario reads like any other assertion.
    """
    try:
        async with Client(params, mode=mode) as client:
            yield client
    except BaseExceptionGroup as group:
        leaf: BaseException = group
        while isinstance(leaf, BaseExceptionGroup) and len(leaf.exceptions) == 1:
            leaf = leaf.exceptions[0]
        if leaf is group:
            raise
        raise leaf from None


async def every_tool(client: Client) -> dict[str, Tool]:
    """Every page of ``tools/list``, by name: the client then knows each tool's output schema."""
    tools: dict[str, Tool] = {}
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools.update((tool.name, tool) for tool in page.tools)
        cursor = page.next_cursor
        if cursor is None:
            return tools


def texts(result: CallToolResult) -> list[str]:
    """The text blocks of a tool result, in order."""
    return [block.text for block in result.content if isinstance(block, TextContent)]


def only_text(result: CallToolResult) -> str:
    (text,) = texts(result)
    return text


def result_json(result: CallToolResult) -> Any:
    """The JSON value a successful tool result carries in its first text block: the response as
    received. A later block may only be the runtime's note that the call succeeded although the
    response drifts from the documented schema, or the response headers it shows."""
    body, *notes = texts(result)
    for note in notes:
        assert note.startswith(("The call succeeded (HTTP 2", "[response headers] ")), note
    return json.loads(body)


def structured(result: CallToolResult, mode: str = "auto") -> Any:
    """A successful result's structured content; in the 2025 revisions (``mode="legacy"``) a value
    that is no object comes wrapped as ``{"result": ...}``, and is unwrapped here."""
    assert not result.is_error, result
    content = result.structured_content
    if mode == "legacy" and isinstance(content, dict) and set(content) == {"result"}:
        return content["result"]
    return content


def content(result: CallToolResult) -> Any:
    """The structured content of a successful result, whatever the revision: before 2026-07-28
    structured content is an object, and an array or a scalar comes wrapped as ``{"result": ...}``
    (unwrapped here)."""
    assert not result.is_error, result
    found = result.structured_content
    assert found is not None, result
    if isinstance(found, dict) and set(found) == {"result"}:
        return found["result"]
    return found


def whole_result(result: CallToolResult) -> str:
    """Everything the model sees of a result, as one string (to look for leaked values)."""
    return result.model_dump_json(by_alias=True)
