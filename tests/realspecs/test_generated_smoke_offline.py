"""The generated packages' own tests pass for real specs, with nothing but loopback to reach.

Each real document (GitHub, Stripe and Kubernetes among them) is generated whole, and the package's
``tests/`` (the server over stdio against its local fake upstream, every tool called once) runs as
its generated CI workflow runs it, ``python -m pytest``, inside a new network namespace whose only
interface is loopback (``unshare``): a request for the API's real host, or for an operation's own
server (GitHub's ``uploads.github.com``), cannot leave the machine and would fail the run. The
server's production limits (100 calls per second) are the tests' to switch off, and they do.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.kit.offline import run_package_tests_offline
from tests.realspecs.sources import SOURCES, Source

# tools the documents themselves make uncallable: no input satisfies their schema, so the generator
# writes no smoke case for them (an info diagnostic says so); (spec, tool) -> the document's fault
NO_VALID_INPUT = {
    ("jira", "create_screen_scheme"): "ScreenTypes requires `defaultScreen` but defines no such "
    "property and allows no other (additionalProperties: false)",
}

pytestmark = [pytest.mark.node, pytest.mark.slow]


@pytest.mark.parametrize("source", SOURCES, ids=[s.label for s in SOURCES])
def test_generated_tests_pass_offline(source: Source, realspec_cache: Path, tmp_path: Path) -> None:
    spec = tmp_path / f"{source.label}.json"
    spec.write_text(json.dumps(source.load(realspec_cache)), "utf-8")
    generation = generate(str(spec), GenerateOptions())
    out = tmp_path / "package"
    write_tree(generation.files, out, force=False, marker=MARKER)
    cases = json.loads((out / "tests" / "smoke_cases.json").read_text("utf-8"))
    done = run_package_tests_offline(out, tmp_path)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    # every tool called once, and the listing: nothing skipped, nothing deselected
    assert re.fullmatch(rf"{len(cases['tools']) + 1} passed in [0-9.]+s( \(.*\))?", summary), (
        summary
    )
    covered = {case["tool"] for case in cases["tools"]}
    uncallable = {(source.label, t.name) for t in generation.plan.tools if t.name not in covered}
    assert uncallable == {key for key in NO_VALID_INPUT if key[0] == source.label}
