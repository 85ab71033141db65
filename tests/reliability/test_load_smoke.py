"""A short run of ``benchmarks/load.py``: concurrent clients, no errors, memory flat across rounds.

The same code as the benchmark (uvicorn subprocess of the generated Petstore, a fast loopback
upstream, raw keep-alive clients), with fewer requests. Throughput and latency are reported in the
closing summary, never asserted; errors and memory growth are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.load import fast_petstore, run_load
from tests.reliability.kit import record

pytestmark = pytest.mark.slow
RSS_GROWTH_LIMIT_KIB = 16 * 1024


def test_concurrent_clients_get_no_errors_and_memory_stays_flat(petstore_package: Path) -> None:
    with fast_petstore() as upstream:
        warm, rounds = run_load(
            petstore_package,
            upstream.base_url,
            upstream.api_key,
            clients=25,
            requests=600,
            rounds=3,
        )
    for index, result in enumerate(rounds, 1):
        record("load smoke (25 clients)", result.line(index))
        assert dict(result.errors) == {}
        assert len(result.latencies) == 600
    growth = rounds[-1].rss_kib - warm
    record("load smoke (25 clients)", f"server RSS after warm-up {warm} KiB, growth {growth} KiB")
    assert growth < RSS_GROWTH_LIMIT_KIB


def test_rate_limit_refuses_tool_calls_with_a_clear_error(petstore_package: Path) -> None:
    with fast_petstore() as upstream:
        _, (result,) = run_load(
            petstore_package,
            upstream.base_url,
            upstream.api_key,
            clients=10,
            requests=200,
            rounds=1,
            env={"PETSTORE_RATE_LIMIT": "1"},
        )
    refused = "rate limit reached: at most 1 upstream calls per second"
    labels = set(result.errors)
    assert labels, "a 1-call-per-second limit refused nothing"
    # tool calls get isError, resource reads a JSON-RPC error; both name the limit
    assert all(label.startswith(("isError: ", "JSON-RPC -32603: ")) for label in labels)
    assert all(refused in label for label in labels)
    record(
        "load smoke (25 clients)",
        f"PETSTORE_RATE_LIMIT=1: {sum(result.errors.values())} of {result.requests} requests "
        "refused with the rate-limit message",
    )
