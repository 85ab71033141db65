#!/usr/bin/env bash
# Install Node 22 and the pinned MCP conformance suite into .tools/node (ignored by git), for
# tests/conformance. Both come from the npm registry: Node as the npm package `node` (its binary in
# node_modules/.bin/node), the suite as @modelcontextprotocol/conformance, at the exact versions of
# tests/conformance/package.json and its lockfile (`npm ci`). Needs `npm` on PATH (any Node will do
# to run npm itself). Fast when nothing changed: a copy of the installed lockfile is kept and
# compared, so scripts/test.sh can call this on every run. Prints the tools' bin directory on stdout.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
spec="$root/tests/conformance"
tools="$root/.tools"
dest="$tools/node"
bin="$dest/node_modules/.bin"
stamp="$dest/.installed-lock.json"

step() { printf '==> %s\n' "$*" >&2; }

installed() {
    [[ -x "$bin/node" && -e "$bin/conformance" && -f "$stamp" ]] &&
        cmp -s "$stamp" "$spec/package-lock.json"
}

mkdir -p "$tools"
# the whole folder is local tooling: keep it out of git without touching the top-level .gitignore
[[ -f "$tools/.gitignore" ]] || printf '*\n' >"$tools/.gitignore"

if installed; then
    step "Node and the MCP conformance suite are up to date in .tools/node"
else
    if ! command -v npm >/dev/null 2>&1; then
        echo "install_node.sh: npm is required (e.g. the Debian package npm) to install Node 22" >&2
        exit 1
    fi
    step "installing Node 22 and @modelcontextprotocol/conformance into .tools/node (npm ci)"
    rm -rf "$dest"
    mkdir -p "$dest"
    cp "$spec/package.json" "$spec/package-lock.json" "$dest/"
    npm ci --prefix "$dest" --no-audit --no-fund --loglevel=error >&2
    cp "$spec/package-lock.json" "$stamp"
fi

node_version="$("$bin/node" --version)"
major="${node_version#v}"
major="${major%%.*}"
if ((major < 22)); then
    echo "install_node.sh: expected Node >= 22 in $bin, found $node_version" >&2
    exit 1
fi
suite_version="$(PATH="$bin:$PATH" "$bin/conformance" --version)"
step "node $node_version, conformance $suite_version"
printf '%s\n' "$bin"
