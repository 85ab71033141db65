"""Every tool of real API servers called against the servers themselves, from their live documents.

The servers the ``realapi`` tests launch (``tests/realapis/conftest.py``: ``RUNNERS``; installed
by ``scripts/install_realapis.sh``: httpbin, Kinto, Jupyter Server, PowerDNS, Alertmanager,
LoopBack's two examples, Prefect, GNS3, Label Studio, Chroma, Unleash, Superset, Platformatic DB,
Airflow, Directus, etcd, WireMock, Homebridge's UI, Pulp, Zou, Slurm, changedetection.io, ZenML,
dstack, PostgREST) are started on 127.0.0.1 with their data in a temporary directory, in a network namespace
whose only interface is loopback (a URL a server is told to fetch goes nowhere); each one's live
OpenAPI document is generated into a package, and the package's server (stdio, full mode, signed in
where the API needs it) calls every tool with its smoke arguments and (``--all``) with a value for
every argument, through a recording proxy. FastAPI and Fastify answer a request that does not match
their own document with a 4xx naming the field, so the server is the judge of what we send, and its
real responses the judge of how we read them. Each call is sorted into:

- ``ok``: 2xx, reported as success, with no drift note;
- ``invalid``: 400 or 422, the API saying the request does not match what it accepts (printed
  with the bytes sent: ours to read, or the document's, or the example arguments');
- ``not found`` / ``refused by the API`` (401, 403, 409 ...): expected of made-up ids and states;
- ``server error``: 5xx (printed: a request can crash an API, and it may be ours);
- ``inverted``: 2xx reported as a failure, or 4xx/5xx as a success (never acceptable);
- ``drift``: success, with a note that the real response does not match the documented schema;
- ``refused``: the generated server refused its own example arguments without calling the API.

Not a test: figures and findings to read. Operations that stop or restart the API are not called.

    python benchmarks/live_sweep.py [--only kinto,prefect] [--all] [-v]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from openapi2mcp.generate import GenerateOptions, generate

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from prism_sweep import (  # noqa: E402
    Called,
    Exchange,
    Recorder,
    Report,
    Server,
    all_arguments,
    call_each,
    offline,
    print_report,
    settled,
    smoke_cases,
)

from tests.realapis.conftest import JUPYTER_TOKEN, POWERDNS_API_KEY, RUNNERS  # noqa: E402
from tests.realapis.servers import LABEL_STUDIO_TOKEN  # noqa: E402

KINDS = (
    "ok",
    "invalid",
    "not found",
    "refused by the API",
    "server error",
    "inverted",
    "drift",
    "refused",
    "other",
)
# what each API needs to be driven: its generated server's variables (after the prefix) and the
# operations not to call (they stop or restart the server the sweep is talking to)
SETUP: dict[str, dict[str, Any]] = {
    "httpbin": {"env": {}, "skip": r"^/(delay|drip|stream|stream-bytes|range)/"},
    "kinto": {"env": {}, "skip": r"^$"},
    "jupyter": {
        "env": {"HEADERS": json.dumps({"Authorization": f"token {JUPYTER_TOKEN}"})},
        "skip": r"/api/shutdown$",
    },
    "powerdns": {"env": {"API_KEY_HEADER_KEY": POWERDNS_API_KEY}, "skip": r"^$"},
    "alertmanager": {"env": {}, "skip": r"^$"},
    "loopback": {"env": {}, "skip": r"^$"},
    "loopback-files": {"env": {}, "skip": r"^$"},
    "prefect": {"env": {}, "skip": r"^$"},
    "gns3": {
        "env": {
            "OAUTH2_PASSWORD_BEARER_USERNAME": "admin",
            "OAUTH2_PASSWORD_BEARER_PASSWORD": "admin",
        },
        "skip": r"/v3/(shutdown|reload)$|/notifications$",
    },
    # not the calls that replace the token the sweep signs in with, or turn such tokens off
    "label-studio": {
        "env": {"TOKEN_KEY": LABEL_STUDIO_TOKEN},
        "skip": r"/api/current-user/reset-token/$|/api/jwt/settings$",
    },
    "chroma": {"env": {}, "skip": r"^$"},
    # signed in as the administrator (the runner's personal token); not maintenance mode, which
    # would refuse every change after it, nor a segment by a made-up id, on which Unleash 7.5.1
    # exits (its RBAC middleware's "no segment" is an unhandled rejection)
    "superset": {"env": {}, "skip": r"^$"},
    "platformatic": {"env": {}, "skip": r"^$"},
    "airflow": {"env": {}, "skip": r"^$"},
    "directus": {"env": {}, "skip": r"^$"},
    # not the streams (a watch and a snapshot answer until the client goes), nor the member's
    # removal or a change of leader, after which it serves no more
    "etcd": {
        "env": {},
        "skip": r"^/v3/(watch|lease/keepalive|cluster/member/remove|maintenance/"
        r"(snapshot|transfer-leadership))$",
    },
    # not its shutdown
    "wiremock": {"env": {}, "skip": r"^/__admin/shutdown$"},
    "pulp": {"env": {}, "skip": r"^$"},
    # its logout revokes the sweep's token; its TOTP and password changes would lock it out
    "zou": {"env": {}, "skip": r"^/auth/"},
    "slurm": {"env": {}, "skip": r"^$"},
    "changedetection": {"env": {}, "skip": r"^$"},
    # signed in as the first user (the runner's); not what restarts or stops it or its host,
    # replaces the user the sweep signs in as, or resets its storage
    "homebridge": {
        "env": {},
        "skip": r"^/api/(server/(restart|reset-homebridge-accessory)|platform-tools/(linux|docker)/|"
        r"users/|backup/|platform-tools/hb-service/set-full-service-restart-flag)",
    },
    "unleash": {"env": {}, "skip": r"/api/admin/maintenance$|/api/admin/segments/\{id\}$"},
    "nautobot": {"env": {}, "skip": r"^$"},
    "pygeoapi": {"env": {}, "skip": r"^$"},
    # signed in with the first wallet's admin key and the super user's token (the runner's); not
    # its restart, nor its settings (their DELETE resets them and restarts it; a PUT or PATCH of
    # made-up values could replace the funding source and sign-in methods it runs on), its
    # logout, a password change, or a reset of a wallet's keys
    "lnbits": {
        "env": {},
        "skip": r"^/admin/api/v1/(restart|settings)$|^/api/v1/auth/(logout|password)$|"
        r"^/api/v1/wallet/reset/",
    },
    # signed in as the default user (the runner's password); not its logout, a run's event
    # stream (it answers until the client goes), a change of that user's own account (its
    # password among it), or the activation that would set it again
    "zenml": {
        "env": {},
        "skip": r"^/api/v1/(logout|runs/\{pipeline_run_id\}/events/stream|current-user|activate)$",
    },
    # signed in as the administrator (the runner's token); the example arguments name no user of
    # its, so no call replaces that token or demotes it
    "dstack": {"env": {}, "skip": r"^$"},
    "postgrest": {"env": {}, "skip": r"^$"},
}


def sort_call(reply: dict[str, Any], exchanges: list[Exchange]) -> tuple[str, str]:
    """The kind of one call and what to print about it."""
    called = settled(reply, exchanges)
    if not isinstance(called, Called):
        return called
    text, failed, last, line = called.text, called.failed, called.last, called.line
    # a 304 answers a conditional request: the copy the caller has is current (a success)
    upstream_ok = 200 <= last.status < 300 or last.status == 304
    documented_redirect = 300 <= last.status < 400 and "as this operation documents" in text
    if documented_redirect and not failed:
        return "ok", ""
    if upstream_ok == failed:
        return "inverted", f"{line} -> {last.status}, isError={failed}: {text[:400]}"
    sent = f" [{last.sent_type}: {last.sent[:300]!r}]" if last.sent or last.sent_type else ""
    answer = last.body[:400].decode(errors="replace")
    if last.status in (400, 422):
        return "invalid", f"{line}{sent} -> {last.status} {answer}"
    if last.status == 404:
        return "not found", ""
    if 400 <= last.status < 500:
        return "refused by the API", f"{line} -> {last.status} {answer[:200]}"
    if last.status >= 500:
        return "server error", f"{line}{sent} -> {last.status} {answer}"
    if "does not match the documented schema" in text:
        return "drift", f"{line} -> {text[text.find('does not match') :][:400]}"
    return "ok", ""


def sweep(label: str, use_all: bool, home: Path) -> Report:
    report = Report(label)
    setup = SETUP[label]
    with contextlib.contextmanager(RUNNERS[label])(home) as live:
        document = home / f"{label}-live.json"
        document.write_text(json.dumps(live.spec), encoding="utf-8")
        generation = generate(str(document), GenerateOptions(name=label, tool_mode="full"))
        cases = smoke_cases(live.package)
        skip = re.compile(setup["skip"])
        paths = {tool.name: tool.operation.path for tool in generation.plan.tools}
        recorder = Recorder(live.server.port)
        base_path = live.base_url.removeprefix(live.root_url)
        env = {
            f"{live.prefix}_BASE_URL": recorder.url + base_path,
            f"{live.prefix}_TOOL_MODE": "full",
            **{
                f"{live.prefix}_{key}": value
                for key, value in {**live.credentials, **setup["env"]}.items()
            },
        }
        calls = [(c["tool"], c["arguments"]) for c in cases["tools"]]
        if use_all:
            calls += list(all_arguments(generation).items())
        calls = [
            (tool, arguments) for tool, arguments in calls if not skip.search(paths.get(tool, ""))
        ]
        server = Server(live.package, env)
        try:
            call_each(server, recorder, calls, sort_call, report)
        finally:
            server.close()
            recorder.close()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated names")
    parser.add_argument("--all", action="store_true", help="also call with every argument")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every finding")
    args = parser.parse_args()
    offline()
    only = {x for x in args.only.split(",") if x}
    totals: collections.Counter[str] = collections.Counter()
    for label in SETUP:
        if only and label not in only:
            continue
        with tempfile.TemporaryDirectory(prefix=f"live-sweep-{label}-") as home:
            report = sweep(label, args.all, Path(home))
        totals += report.kinds
        print_report(report, KINDS, args.verbose)
    print("all:", ", ".join(f"{k} {totals[k]}" for k in KINDS if totals[k]))


if __name__ == "__main__":
    main()
