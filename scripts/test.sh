#!/usr/bin/env bash
# Quick-start command 2: set everything up and run the whole test suite.
#
# scripts/test.sh --fast [PYTEST ARGS]: the quick lane for working on the code. Lint, types and
# every test that needs nothing beyond .venv, the JSON-Schema-Test-Suite and a Redis server: no
# Node, no real API servers, no package builds or fresh virtual environments, no runs of many
# seconds (the markers node, realapi and slow in pyproject.toml). It reuses .venv when it exists,
# fetches the suite (PyPI) and redis-server (Debian) once when they are missing, and runs the
# tests in four pytest processes side by side (tests/conftest.py's --shard). Anything else runs
# everything: the real API servers install in the background, and the realapi tests, in a pytest
# process of their own beside two shards of the others, wait for that install.
set -euo pipefail
cd "$(dirname "$0")/.."

fast=false
if [[ "${1:-}" == "--fast" ]]; then
    fast=true
    shift
fi

if ! $fast || [[ ! -x .venv/bin/python ]]; then
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"
fi

# the Redis token-store tests start a real Redis server (tests/runtime/peruser)
if ! command -v redis-server >/dev/null; then
    echo "== redis-server (Debian)" >&2
    apt-get update -qq && apt-get install -y -qq redis-server >/dev/null
fi
if $fast; then
    # tests/runtime/test_json_schema_suite.py reads the official suite (a stamp skips it when there)
    bash scripts/install_test_suites.sh >/dev/null
fi

echo "== lint: ruff + mypy" >&2
.venv/bin/ruff check generator templates/runtime tests samples benchmarks
.venv/bin/ruff format --check generator templates/runtime tests samples benchmarks
.venv/bin/mypy

if ! $fast; then
    # the generated tests of real specs run in a network namespace with only loopback (unshare, ip)
    if ! command -v ip >/dev/null || ! command -v unshare >/dev/null; then
        echo "== iproute2 and util-linux (Debian)" >&2
        apt-get update -qq && apt-get install -y -qq iproute2 util-linux >/dev/null
    fi
    # the credential pages' tests drive a real Chromium with Playwright (tests/runtime/peruser)
    if [[ ! -x /usr/bin/chromium ]]; then
        echo "== chromium and chromium-driver (Debian)" >&2
        apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null
    fi

    # The real API servers install while the other tests run; it marks each part in "ready/" as
    # it is in place, and each realapi test module waits for the parts its servers need
    # (tests/realapis/conftest.py). It is the only apt-get from here on, so it never waits on
    # Debian's lock.
    echo "== real API servers for tests/realapis (PyPI, npm, Debian), in the background" >&2
    realapis="$(mktemp -d)"
    mkdir "$realapis/ready"
    touch "$realapis/start"
    export REALAPIS_READY="$realapis/ready"
    (
        code=0
        bash scripts/install_realapis.sh >"$realapis/log" 2>&1 || code=$?
        echo "$code" >"$realapis/status"
    ) &
    installing=$!
    export REALAPIS_INSTALL_LOG="$realapis/log" REALAPIS_INSTALL_STATUS="$realapis/status"

    echo "== Node 22 and the MCP conformance suite (npm)" >&2
    bash scripts/install_node.sh >/dev/null

    echo "== the official JSON-Schema-Test-Suite (PyPI: the jsonschema sdist)" >&2
    bash scripts/install_test_suites.sh

    # Three pytest processes side by side: the realapi tests (each module waits for its part of
    # the install, then drives a server that mostly works on its own) and the others in two
    # shards (they mostly wait on the servers and subprocesses they start). The first shard's output comes as it
    # runs, the others' after it; each names its slowest tests.
    echo "== tests (three pytest processes: two shards of the others, then the realapi ones)" >&2
    durations=(--durations=15 --durations-min=5)
    .venv/bin/python -m pytest "$@" "${durations[@]}" -m "not realapi" --shard 2/2 \
        >"$realapis/shard2" 2>&1 &
    testing_shard2=$!
    .venv/bin/python -m pytest "$@" "${durations[@]}" -m realapi >"$realapis/tests" 2>&1 &
    testing_realapis=$!
    code=0
    .venv/bin/python -m pytest "$@" "${durations[@]}" -m "not realapi" --shard 1/2 || code=$?
    shard2_code=0
    wait "$testing_shard2" || shard2_code=$?
    realapi_code=0
    wait "$testing_realapis" || realapi_code=$?
    # 5: every test of a process was deselected (tests given that are all of one kind)
    for each in "$code" "$shard2_code" "$realapi_code"; do
        if ((each != 0 && each != 5)); then
            code=1
        fi
    done
    if ((code == 5)); then
        code=0
    fi
    # an install still running (pytest was given tests without realapi ones) is let finish:
    # stopped halfway, apt-get would leave Debian's lock and packages half-configured
    wait "$installing" || true
    if [[ "$(cat "$realapis/status")" != 0 ]]; then
        echo "-- the real API servers' install failed:" >&2
        cat "$realapis/log" >&2
        code=1
    fi
    echo "== the other tests' second shard (exit $shard2_code)"
    cat "$realapis/shard2"
    echo "== the realapi tests (exit $realapi_code)"
    cat "$realapis/tests"
    # when each part of the install was in place (tests/realapis/conftest.py's NEEDS follows it)
    begun=$(stat -c %Y "$realapis/start")
    parts=""
    for part in "$realapis"/ready/*; do
        if [[ -e "$part" ]]; then
            parts+="$(($(stat -c %Y "$part") - begun)) s ${part##*/}"$'\n'
        fi
    done
    if [[ -n "$parts" ]]; then
        echo "== installed after: $(sort -n <<<"${parts%$'\n'}" | paste -sd, - | sed 's/,/, /g')"
    fi
    rm -rf "$realapis"
    exit "$code"
fi

# bytecode caches (git-ignored) spare every server subprocess the tests start from compiling the
# runtime again, and pytest from rewriting the test modules' asserts on each run
unset PYTHONDONTWRITEBYTECODE
lane=(-m "not slow and not realapi and not node")
# four processes side by side, whatever the CPUs: the tests mostly wait on the servers they start
# (two CPUs: 88 s with four, 124 s with two), and each shard builds the session fixtures again, so
# more would not pay for itself
shards=4

echo "== tests (fast lane: $shards pytest processes side by side)" >&2
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
pids=()
for ((shard = 1; shard <= shards; shard++)); do
    .venv/bin/python -m pytest "${lane[@]}" --shard "$shard/$shards" "$@" \
        >"$logs/$shard.log" 2>&1 &
    pids+=("$!")
done
status=0
for ((shard = 1; shard <= shards; shard++)); do
    code=0
    wait "${pids[shard - 1]}" || code=$?
    echo "-- shard $shard/$shards (exit $code)"
    cat "$logs/$shard.log"
    # 5: every test of the shard was deselected, which is no failure
    if ((code != 0 && code != 5)); then
        status=1
    fi
done
exit "$status"
