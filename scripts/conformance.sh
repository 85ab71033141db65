#!/usr/bin/env bash
# Run the official MCP conformance suite (both revisions, 2026-07-28 and 2025-11-25) against a server
# generated from samples/conformance/openapi.yaml, and print a pass/fail summary per scenario.
# Installs Node 22 and the pinned suite into .tools/node first (scripts/install_node.sh). Uses the
# Python of .venv (created by scripts/test.sh) unless PYTHON names another one; arguments go to the
# runner (--revision REV, --keep DIR to keep the generated server and results, --verbose).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-$root/.venv/bin/python}"
if [[ ! -x "$python" ]]; then
    echo "conformance.sh: $python not found; run scripts/test.sh once or set PYTHON" >&2
    exit 2
fi
bash scripts/install_node.sh >/dev/null
exec "$python" -m tests.conformance.runner "$@"
