"""Every request a generated server sends for real specs, checked against the original document.

For each spec (Stripe, GitHub, Kubernetes 1.13 as Swagger 2.0, OpenAI, Twilio, Jira, Slack, a
Swagger 2.0 Petstore, DigitalOcean, Box, and the OpenAPI 3.1 Train Travel API): up to 40
operations spread across verbs and biased to serialization features are selected, a pruned copy
of the document is generated (``tool_mode="full"``), each tool is called in-process with
schema-valid arguments (minimal, rich, partial-body and null variants), every request is captured
at a recorder on 127.0.0.1 and validated with openapi-core against the original document
(Swagger 2.0 converted by swagger2openapi for the validator only). A call fails the spec when the
runtime refused it, it failed though the upstream said 200, openapi-core rejected the request, or
the request does not carry what the arguments said — unless ``allowlist.SPEC_FAULTS`` names the
problem as the document's own fault.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kit.upstream import RecordingUpstream
from tests.realspecs.harness import SpecRun, generate_package, prepare, run
from tests.realspecs.report import SUMMARY, failure_message, judge
from tests.realspecs.sources import SOURCES, Source

pytestmark = [pytest.mark.node, pytest.mark.slow]


@pytest.mark.parametrize("source", SOURCES, ids=[s.label for s in SOURCES])
async def test_requests_match_the_original_document(
    source: Source, realspec_cache: Path, recorder: RecordingUpstream, tmp_path: Path
) -> None:
    prepared = prepare(source, source.load(realspec_cache), tmp_path, recorder.url)
    result = SpecRun(source.label, prepared.selected)
    package = generate_package(prepared, tmp_path / "package", result)
    await run(prepared, package, recorder, result)

    judged = judge(result)
    SUMMARY.add(judged)
    assert result.tools == prepared.selected, result.warnings
    if judged.bad:
        pytest.fail(failure_message(judged), pytrace=False)
