#!/usr/bin/env bash
# Quick-start command 2: set everything up and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"

echo "== lint: ruff + mypy" >&2
.venv/bin/ruff check generator templates/runtime tests samples benchmarks
.venv/bin/ruff format --check generator templates/runtime tests samples benchmarks
.venv/bin/mypy

echo "== Node 22 and the MCP conformance suite (npm)" >&2
bash scripts/install_node.sh >/dev/null

echo "== real API servers for tests/realapis (PyPI)" >&2
bash scripts/install_realapis.sh

echo "== the official JSON-Schema-Test-Suite (PyPI: the jsonschema sdist)" >&2
bash scripts/install_test_suites.sh

echo "== tests" >&2
exec .venv/bin/python -m pytest "$@"
