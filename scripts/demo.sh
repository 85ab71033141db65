#!/usr/bin/env bash
# Quick start, command 1: build the generator from this checkout, generate the Petstore MCP server
# from samples/petstore/openapi.yaml, install it, and drive it with the official MCP client against a
# local fake Petstore API (samples/petstore/demo.py). Works from any directory; everything it creates
# stays in the repository: the virtual environment in .venv/ and the generated server in .work/.
# Set PYTHON to choose the interpreter that creates the virtual environment (default: python3).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

venv="$root/.venv"
out=".work/petstore-mcp"
# the demo client; keep in step with the mcp pin of the "test" extra in pyproject.toml
demo_requirements=("mcp==2.3.*")

step() { printf '==> %s\n' "$*" >&2; }

if [[ -x "$venv/bin/python" ]]; then
    step "reusing the virtual environment .venv"
else
    step "creating a virtual environment in .venv"
    "${PYTHON:-python3}" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)

step "installing openapi2mcp from this checkout"
# editable, as scripts/test.sh installs it: the two share .venv, and a plain install here would
# leave the tests running a copy of the generator instead of the checkout
"${pip[@]}" -e "$root" "${demo_requirements[@]}"

step "generating the Petstore MCP server into $out"
"$venv/bin/openapi2mcp" generate samples/petstore/openapi.yaml -o "$out" --force

step "installing the generated server (petstore-mcp)"
# pip rebuilds and reinstalls a local directory on every run, so regenerated code always shows
"${pip[@]}" "$out"

step "running the demo: MCP client -> petstore-mcp -> fake Petstore API"
export PATH="$venv/bin:$PATH"
exec "$venv/bin/python" samples/petstore/demo.py --server-command petstore-mcp "$@"
