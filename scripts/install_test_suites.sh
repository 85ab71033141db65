#!/usr/bin/env bash
# Install the test suites and tools that tests read from .work/cache/ (ignored by git):
#
# - the official JSON-Schema-Test-Suite (draft 2020-12 and the documents its remote refs name) into
#   .work/cache/json-schema-test-suite/, for tests/runtime/test_json_schema_suite.py. The suite ships
#   inside the `jsonschema` source distribution on PyPI (under json/): pip downloads that sdist and the
#   two folders are unpacked from it, keeping the suite's own layout (tests/draft2020-12/, remotes/).
# - the official MCPB CLI, the npm package @anthropic-ai/mcpb at an exact version, into
#   .work/cache/mcpb/ (its `mcpb` in node_modules/.bin), for tests/e2e/test_bundle.py: it validates and
#   unpacks the bundles `openapi2mcp bundle` writes. Needs `npm` on PATH.
#
# Idempotent: a stamp file per item records its version; a matching stamp means nothing to do. Uses
# .venv/bin/python when present, else $PYTHON (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=.work/cache
if [[ -x .venv/bin/python ]]; then PYTHON=.venv/bin/python; else PYTHON=${PYTHON:-python3}; fi
staging=""
trap 'if [[ -n "$staging" ]]; then rm -rf "$staging"; fi' EXIT

install_json_schema_test_suite() {
    local version=4.25.1
    local sdists="$CACHE/jsonschema-sdist"
    local dest="$CACHE/json-schema-test-suite"
    local stamp="$dest/.installed"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "jsonschema==$version" ]]; then
        return 0
    fi
    echo "== JSON-Schema-Test-Suite from the jsonschema $version sdist (PyPI)" >&2
    mkdir -p "$sdists"
    local archive="$sdists/jsonschema-$version.tar.gz"
    if [[ ! -f "$archive" ]]; then
        "$PYTHON" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
            "jsonschema==$version" -d "$sdists"
    fi
    staging="$(mktemp -d "$CACHE/suite.XXXXXX")"
    tar -xzf "$archive" -C "$staging" \
        "jsonschema-$version/json/tests/draft2020-12" "jsonschema-$version/json/remotes"
    rm -rf "$dest"
    mkdir -p "$dest/tests"
    mv "$staging/jsonschema-$version/json/tests/draft2020-12" "$dest/tests/"
    mv "$staging/jsonschema-$version/json/remotes" "$dest/"
    printf 'jsonschema==%s\n' "$version" >"$stamp"
}

install_mcpb_cli() {
    local package="@anthropic-ai/mcpb@2.1.2"
    local dest="$CACHE/mcpb"
    local stamp="$dest/.installed"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$package" && -e "$dest/node_modules/.bin/mcpb" ]]; then
        return 0
    fi
    if ! command -v npm >/dev/null 2>&1; then
        echo "install_test_suites.sh: npm is required to install the MCPB CLI ($package)" >&2
        exit 1
    fi
    echo "== MCPB CLI $package (npm)" >&2
    rm -rf "$dest"
    mkdir -p "$dest"
    npm install --prefix "$dest" --save-exact --no-audit --no-fund --loglevel=error "$package" >&2
    printf '%s\n' "$package" >"$stamp"
}

install_json_schema_test_suite
install_mcpb_cli
