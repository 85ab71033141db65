#!/usr/bin/env bash
# Install the official JSON-Schema-Test-Suite (draft 2020-12 and the documents its remote refs name)
# into .work/cache/json-schema-test-suite/ (ignored by git), for tests/runtime/test_json_schema_suite.py.
# The suite ships inside the `jsonschema` source distribution on PyPI (under json/): pip downloads
# that sdist and the two folders are unpacked from it, keeping the suite's own layout
# (tests/draft2020-12/, remotes/). Idempotent: a stamp file records the version; a matching stamp
# means nothing to do. Uses .venv/bin/python when present, else $PYTHON (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=4.25.1
CACHE=.work/cache
SDISTS="$CACHE/jsonschema-sdist"
DEST="$CACHE/json-schema-test-suite"
STAMP="$DEST/.installed"
if [[ -x .venv/bin/python ]]; then PYTHON=.venv/bin/python; else PYTHON=${PYTHON:-python3}; fi

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "jsonschema==$VERSION" ]]; then
    exit 0
fi
echo "== JSON-Schema-Test-Suite from the jsonschema $VERSION sdist (PyPI)" >&2
mkdir -p "$SDISTS"
archive="$SDISTS/jsonschema-$VERSION.tar.gz"
if [[ ! -f "$archive" ]]; then
    "$PYTHON" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
        "jsonschema==$VERSION" -d "$SDISTS"
fi
staging="$(mktemp -d "$CACHE/suite.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
tar -xzf "$archive" -C "$staging" \
    "jsonschema-$VERSION/json/tests/draft2020-12" "jsonschema-$VERSION/json/remotes"
rm -rf "$DEST"
mkdir -p "$DEST/tests"
mv "$staging/jsonschema-$VERSION/json/tests/draft2020-12" "$DEST/tests/"
mv "$staging/jsonschema-$VERSION/json/remotes" "$DEST/"
printf 'jsonschema==%s\n' "$VERSION" >"$STAMP"
