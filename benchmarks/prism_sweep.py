"""Every tool of real public APIs called through Prism, which checks each request against the spec.

Stoplight's Prism (`@stoplight/prism-cli`, npm) mocks an API from its own OpenAPI document and
validates every request it receives against that document with its own validator: parameters
(style, explode, types, enums, formats), bodies and their media types, security. Its verdict comes
back in the ``sl-violations`` response header; a recording proxy between the generated server and
Prism keeps it, with the status and the request line.

For each spec: generate the server in-process, start Prism on it (127.0.0.1), start the server over
stdio in full mode pointed at the proxy, and call every tool twice: with the package's own smoke
arguments (the required ones) and with a value for every argument (``--all`` only). Each call is
sorted into:

- ``ok``: the upstream answered 2xx, the tool reported success, Prism found nothing wrong;
- ``rejected``: Prism found the request invalid (each violation is printed, with the request line);
- ``no route``: Prism matched no operation to the method and path sent;
- ``refused``: the server refused its own example arguments without calling the upstream;
- ``inverted``: the upstream answered 2xx and the tool reported a failure, or 4xx/5xx and the
  tool reported success (never acceptable);
- ``drift``: success, with a note that Prism's answer (made from the spec) does not match the
  output schema the server advertises.

Not a test: figures and the violations to read, not assertions. Prism's own limits show up here
too (a spec it cannot load, a route it cannot match); read each before calling it ours.

    python benchmarks/prism_sweep.py [--only github,stripe] [--all] [--limit N] [-v]
"""

from __future__ import annotations

import argparse
import collections
import gzip
import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from openapi2mcp.diagnostics import GenerationError
from openapi2mcp.generate import GenerateOptions, Generation, generate
from openapi2mcp.render.examples import NoExample, example_instance
from openapi2mcp.render.package import _path_values_present

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import realworld  # noqa: E402  (the specs' cache and its installer)

PRISM = "@stoplight/prism-cli@5.16.0"
PRISM_CACHE = HERE / ".cache" / "prism"
SAMPLES = (
    ("petstore", HERE.parent / "samples" / "petstore" / "openapi.yaml"),
    ("petstore-swagger2", HERE.parent / "samples" / "petstore" / "openapi-swagger2.yaml"),
    ("petstore-3.1", HERE.parent / "samples" / "petstore" / "openapi-3.1.yaml"),
    ("bookshop", HERE.parent / "samples" / "bookshop" / "openapi.yaml"),
)
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
# Prism validates a whole document before it listens; some (Stripe's) take it longer than this
PRISM_START_SECONDS = 180
KINDS = ("ok", "rejected", "no route", "refused", "inverted", "drift", "other")


@dataclass
class Exchange:
    method: str
    target: str
    status: int
    violations: list[dict[str, Any]]
    body: bytes
    sent: bytes = b""
    sent_type: str = ""


def _readable(payload: bytes, coding: str) -> bytes:
    """The body as the server meant it (a compressed answer, Unleash's brotli, decoded), for the
    report; the proxy passes on what it received."""
    coding = coding.strip()
    try:
        if coding == "gzip":
            return gzip.decompress(payload)
        if coding == "deflate":
            return zlib.decompress(payload)
        if coding == "br":
            import brotli  # noqa: PLC0415 - only for a server that compresses so

            return bytes(brotli.decompress(payload))
    except (ImportError, OSError, zlib.error, EOFError, ValueError):
        pass
    return payload


class Recorder:
    """A reverse proxy on 127.0.0.1 that forwards to Prism and keeps what each exchange was."""

    def __init__(self, upstream_port: int) -> None:
        self.exchanges: list[Exchange] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
                try:
                    connection.request(self.command, self.path, body=body, headers=headers)
                    response = connection.getresponse()
                    payload = response.read()
                except (OSError, http.client.HTTPException) as exc:
                    # the server behind failed (Prism dies on some documents; a real server may
                    # close the connection on a request it cannot bear): the proxy says so
                    said = f"the server behind the recorder did not answer: {exc}".encode()
                    recorder.exchanges.append(Exchange(self.command, self.path, 0, [], said))
                    self.send_response(502)
                    self.send_header("Content-Length", str(len(said)))
                    self.end_headers()
                    self.wfile.write(said)
                    return
                violations = _violations(response.getheader("sl-violations") or "[]")
                recorder.exchanges.append(
                    Exchange(
                        self.command,
                        self.path,
                        response.status,
                        violations,
                        _readable(payload, response.getheader("Content-Encoding") or ""),
                        body,
                        self.headers.get("Content-Type") or "",
                    )
                )
                self.send_response(response.status)
                for name, value in response.getheaders():
                    hop = {"content-length", "connection", "keep-alive", "transfer-encoding"}
                    if name.lower() not in hop:  # the proxy frames the body itself
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                connection.close()

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_TRACE = (
                _forward
            )

        self.server = _QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


class _QuietServer(ThreadingHTTPServer):
    """The proxy's server; a client that hung up before its answer was written (a call the
    generated server gave up on) is not worth a traceback."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _violations(header: str) -> list[dict[str, Any]]:
    try:
        found = json.loads(header.removeprefix("Too many violations! "))
    except ValueError:  # kept as said, to be read
        where = "request" if '"location":["request"' in header else "response"
        return [{"location": [where], "severity": "Error", "message": f"(raw) {header[:500]}"}]
    return found if isinstance(found, list) else []


def install_prism() -> Path:
    binary = PRISM_CACHE / "node_modules" / ".bin" / "prism"
    if binary.exists():
        return binary
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("npm is needed to install Prism")
    PRISM_CACHE.mkdir(parents=True, exist_ok=True)
    (PRISM_CACHE / "package.json").write_text('{"name": "prism", "private": true}\n')
    subprocess.run(
        [npm, "install", "--silent", "--no-audit", "--no-fund", PRISM], cwd=PRISM_CACHE, check=True
    )
    return binary


def start_prism(
    binary: Path, spec: Path, dynamic: bool = False
) -> tuple[subprocess.Popen[bytes], int] | str:
    """Prism mocking ``spec`` on a free port of 127.0.0.1, or why it did not start; ``dynamic``:
    answers made from the response schemas (json-schema-faker) instead of their examples."""
    for _ in range(5):
        with socket_free_port() as port:
            pass
        process = subprocess.Popen(
            [str(binary), "mock", "-h", "127.0.0.1", "-p", str(port), str(spec)]
            + (["--dynamic"] if dynamic else []),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        lines: list[str] = []
        listening = threading.Event()
        threading.Thread(target=_read, args=(process, lines, listening), daemon=True).start()
        if listening.wait(PRISM_START_SECONDS):
            return process, port
        process.kill()
        process.wait()
        tail = " | ".join(x.strip() for x in lines[-3:])
        if not tail:
            return f"prism did not start in {PRISM_START_SECONDS} s"
        if "EADDRINUSE" not in tail:
            return f"prism did not start: {tail[-300:]}"
    return "prism did not start: no free port"


def _read(process: subprocess.Popen[bytes], lines: list[str], listening: threading.Event) -> None:
    """Prism's output, line by line, until it says it listens; then only drained."""
    assert process.stdout is not None
    for raw in process.stdout:
        if not listening.is_set():
            lines.append(raw.decode(errors="replace"))
            if "is listening on" in lines[-1]:
                listening.set()


class socket_free_port:
    def __enter__(self) -> int:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        port: int = self.sock.getsockname()[1]
        return port

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


class Server:
    """The generated server over stdio (modern era, full mode)."""

    def __init__(self, package: Path, env: dict[str, str]) -> None:
        source = package / "src"
        module = next(p.name for p in source.iterdir() if (p / "__main__.py").exists())
        self.process = subprocess.Popen(
            [sys.executable, "-m", module],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={"PYTHONPATH": str(source), "PATH": os.environ.get("PATH", "/usr/bin"), **env},
        )
        self.next_id = 0

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.next_id += 1
        params = {"_meta": META, "name": tool, "arguments": arguments}
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call", "params": params}
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the server exited ({self.process.poll()})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


@dataclass
class Report:
    label: str
    problem: str = ""
    kinds: collections.Counter[str] = field(default_factory=collections.Counter)
    findings: list[str] = field(default_factory=list)


def all_arguments(generation: Generation) -> dict[str, dict[str, Any]]:
    """For each tool, a value for every one of its arguments (where the schemas admit one)."""
    plan = generation.plan
    found: dict[str, dict[str, Any]] = {}
    for tool in plan.tools:  # what full mode lists (a resource-only operation is no tool)
        schema = _path_values_present(tool, plan.api.input_schemas)
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            continue
        every = {**schema, "required": list(properties)}
        try:
            found[tool.name] = example_instance(every, plan.api.input_schemas)
        except NoExample:
            continue
    return found


def _problem(exchange: Exchange) -> list[dict[str, Any]]:
    """The violations of the problem document Prism answers an invalid request with."""
    if exchange.status != 422 or b"UNPROCESSABLE_ENTITY" not in exchange.body:
        return []
    try:
        found = json.loads(exchange.body).get("validation", [])
    except (ValueError, AttributeError):
        return []
    return [
        {**v, "location": ["request", *v.get("location", [])]} for v in found if isinstance(v, dict)
    ]


@dataclass
class Called:
    """One call still to be judged: what the tool said, whether it failed, the last exchange."""

    text: str
    failed: bool
    last: Exchange
    line: str


def settled(reply: dict[str, Any], exchanges: list[Exchange]) -> tuple[str, str] | Called:
    """The verdicts every sweep shares (a JSON-RPC error, no request sent, the upstream gone), or
    the call to judge further."""
    if "result" not in reply:
        return "other", f"JSON-RPC error {json.dumps(reply.get('error'))[:300]}"
    result = reply["result"]
    text = " ".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")
    failed = bool(result.get("isError"))
    if not exchanges:
        return ("refused", text[:400]) if failed else ("other", "success without a request")
    last = exchanges[-1]
    line = f"{last.method} {last.target[:300]}"
    if last.status == 0:
        return "other", f"{line} -> {last.body.decode()}"
    return Called(text, failed, last, line)


def smoke_cases(package: Path) -> dict[str, Any]:
    """The generated package's smoke cases (its tests' data, gzipped for big APIs)."""
    tests = package / "tests"
    gz = tests / "smoke_cases.json.gz"
    raw = gz.read_bytes() if gz.exists() else (tests / "smoke_cases.json").read_bytes()
    found: dict[str, Any] = json.loads(gzip.decompress(raw) if gz.exists() else raw)
    return found


Sort = Callable[[dict[str, Any], list[Exchange]], tuple[str, str]]


def call_each(
    server: Server,
    recorder: Recorder,
    calls: list[tuple[str, dict[str, Any]]],
    sort: Sort,
    report: Report,
) -> None:
    """Call each tool through ``server``, sorting each call into ``report``."""
    try:
        for tool, arguments in calls:
            before = len(recorder.exchanges)
            reply = server.call(tool, arguments)
            kind, said = sort(reply, recorder.exchanges[before:])
            report.kinds[kind] += 1
            if said:
                report.findings.append(f"[{kind}] {tool}: {said}")
    except RuntimeError as exc:
        report.problem = str(exc)


def sort_call(reply: dict[str, Any], exchanges: list[Exchange]) -> tuple[str, str]:
    """The kind of one call and what to print about it."""
    called = settled(reply, exchanges)
    if not isinstance(called, Called):
        return called
    text, failed, last, line = called.text, called.failed, called.last, called.line
    errors = [v for v in last.violations + _problem(last) if v.get("severity") == "Error"]
    request_errors = [v for v in errors if (v.get("location") or [""])[0] == "request"]
    if request_errors:
        said = "; ".join(
            f"{'.'.join(str(p) for p in v.get('location', [])[1:])}: {v.get('message')}"
            for v in request_errors
        )
        sent = f" [{last.sent_type}: {last.sent[:300]!r}]" if last.sent or last.sent_type else ""
        return "rejected", f"{line}{sent} -> {said}"
    if b"NO_PATH_MATCHED" in last.body or b"NO_METHOD_MATCHED" in last.body:
        return "no route", line
    # a 304 answers a conditional request: the copy the caller has is current (a success)
    upstream_ok = 200 <= last.status < 300 or last.status == 304
    if 300 <= last.status < 400 and not failed and "as this operation documents" in text:
        return "ok", ""  # a redirect the operation documents as its answer
    if upstream_ok == failed:
        return "inverted", f"{line} -> {last.status}, isError={failed}: {text[:400]}"
    if not upstream_ok:
        return "other", f"{line} -> {last.status} {last.body[:200]!r}; the tool said: {text[:300]}"
    if "does not match the documented schema" in text:
        note = text[text.find("does not match") :][:400]
        return "drift", f"{line} -> {note}"
    return "ok", ""


def sweep(
    label: str, spec: Path, prism: Path, use_all: bool, limit: int, dynamic: bool = False
) -> Report:
    report = Report(label)
    try:
        generation = generate(str(spec), GenerateOptions())
    except GenerationError as exc:
        report.problem = f"refused: {exc.diagnostic.code}"
        return report
    started = start_prism(prism, spec, dynamic)
    if isinstance(started, str):
        report.problem = started
        return report
    prism_process, port = started
    recorder = Recorder(port)
    with tempfile.TemporaryDirectory(prefix="prism-sweep-") as tmp:
        package = Path(tmp)
        for name, content in generation.files.items():
            target = package / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")
        cases = smoke_cases(package)
        prefix = generation.plan.env_prefix
        env = {
            f"{prefix}_BASE_URL": recorder.url,
            f"{prefix}_SERVER_URLS": json.dumps(dict.fromkeys(cases["servers"], recorder.url)),
            f"{prefix}_TOOL_MODE": "full",
            **cases["environment"],
            **cases["credentials"],
        }
        calls = [(c["tool"], c["arguments"]) for c in cases["tools"]]
        if use_all:
            calls += [(name, args) for name, args in all_arguments(generation).items()]
        if limit:
            calls = calls[:limit]
        server = Server(package, env)
        try:
            call_each(server, recorder, calls, sort_call, report)
        finally:
            server.close()
            recorder.close()
            prism_process.kill()
            prism_process.wait()
    return report


def print_report(report: Report, kinds: tuple[str, ...], verbose: bool) -> None:
    """One document's (or server's) counts by kind, and its findings (five unless verbose)."""
    counts = ", ".join(f"{k} {report.kinds[k]}" for k in kinds if report.kinds[k])
    print(
        f"{report.label}: {counts}" + (f" ({report.problem})" if report.problem else ""), flush=True
    )
    shown = report.findings if verbose else report.findings[:5]
    for finding in shown:
        print(f"  {finding}", flush=True)
    if len(report.findings) > len(shown):
        print(f"  ... {len(report.findings) - len(shown)} more (-v)", flush=True)


def _drawn(count: int, seed: int) -> list[tuple[str, Path]]:
    """``count`` documents of the APIs.guru collection, drawn at random, none of the public specs."""
    directory = realworld.CACHE / realworld.DIRECTORY
    known = {str(relative) for _, relative in realworld.SPECS}
    every = sorted(
        p for p in directory.rglob("*.json") if str(p.relative_to(realworld.CACHE)) not in known
    )
    chosen = random.Random(seed).sample(every, min(count, len(every)))
    return [(str(p.relative_to(directory)).removesuffix(".json"), p) for p in chosen]


def offline() -> None:
    """Run again inside a network namespace whose only interface is loopback, so that no call (a
    redirect to a spec's example URL, a server of its own, a URL a real server is told to fetch)
    can leave this machine. Run as root, only the network is new (the servers that switch users,
    PostgreSQL's and Slurm's, still can); otherwise root is mapped to the caller."""
    if os.environ.get("SWEEP_OFFLINE") == "1":
        return
    # loopback only; and an address of the documentation range on it too, also loopback's: with
    # no address but 127.0.0.1, getaddrinfo's AI_ADDRCONFIG finds none (Slurm's daemons then cannot
    # bind their ports)
    script = 'ip link set lo up && ip addr add 192.0.2.1/32 dev lo && exec "$0" "$@"'
    users = [] if os.geteuid() == 0 else ["--map-root-user"]
    command = ["unshare", *users, "--net", "sh", "-c", script, sys.executable, *sys.argv]
    os.environ["SWEEP_OFFLINE"] = "1"
    os.environ["PATH"] = "/usr/sbin:" + os.environ.get("PATH", "/usr/bin:/bin")
    sys.exit(subprocess.run(command, check=False).returncode)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated labels")
    parser.add_argument("--all", action="store_true", help="also call with every argument")
    parser.add_argument("--limit", type=int, default=0, help="at most this many calls per spec")
    parser.add_argument(
        "--dynamic",
        action="store_true",
        help="Prism answers from the response schemas, not their examples: every drift is then "
        "a disagreement between two readings of one schema",
    )
    parser.add_argument(
        "--directory",
        type=int,
        default=0,
        metavar="N",
        help="instead of the public specs, N documents drawn at random (--seed) from the APIs.guru "
        "collection: inputs nobody looked at",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true", help="print every finding")
    args = parser.parse_args()
    prism = install_prism()
    realworld.install(realworld.CACHE)
    offline()
    only = {x for x in args.only.split(",") if x}
    specs = [(label, path) for label, path in SAMPLES]
    specs += [(label, realworld.CACHE / relative) for label, relative in realworld.SPECS]
    if args.directory:
        specs = _drawn(args.directory, args.seed)
    totals: collections.Counter[str] = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for label, where in specs:
            if only and label not in only:
                continue
            path = realworld.spec_file(realworld.CACHE, str(where), Path(tmp))
            report = sweep(label, path, prism, args.all, args.limit, args.dynamic)
            totals += report.kinds
            print_report(report, KINDS, args.verbose)
    print("all:", ", ".join(f"{k} {totals[k]}" for k in KINDS if totals[k]))


if __name__ == "__main__":
    main()
