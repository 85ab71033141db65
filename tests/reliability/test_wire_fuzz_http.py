"""Wire fuzzing over Streamable HTTP: the Petstore server's ASGI app in process, then under uvicorn.

Each POST carries a hostile body (the stdio corpus, hypothesis messages, byte mutations) with the
headers a client would send for it, sometimes mangled. Whatever arrives, the app must answer with
one complete HTTP response: 202 and no body for notifications and a client's responses; otherwise
one well-formed JSON-RPC reply (JSON or the last event of an SSE stream) carrying the request's id,
or no id when the request could not be read. No exception may escape the app (the in-process
transport would raise it). The uvicorn run also measures the server process's memory.
"""

from __future__ import annotations

import asyncio
import copy
import json
import threading
from collections import Counter
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from templates.runtime.catalog.model import load_catalog
from templates.runtime.server import McpServer, Settings
from templates.runtime.transports.http_serve import create_app
from tests.conftest import fake_petstore_module
from tests.kit.meta import PROTOCOL_VERSION
from tests.reliability import wire
from tests.reliability.kit import record, rss_kib
from tests.runtime.transports.kit import ServerProcess, server_env

T = TypeVar("T")
STATUSES = {200, 202, 400, 403, 404, 405, 406, 413, 415}
RSS_GROWTH_LIMIT_KIB = 24 * 1024
_header_text = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=0, max_size=20
)


def request_headers(body: bytes) -> dict[str, str]:
    """What a conforming client sends with ``body``."""
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    ok, message = wire.parse(body)
    params = message.get("params") if ok and isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and isinstance(meta.get(PROTOCOL_VERSION), str):
        headers["mcp-protocol-version"] = meta[PROTOCOL_VERSION]
        if isinstance(message.get("method"), str) and message["method"].isprintable():
            headers["mcp-method"] = message["method"]
        name = params.get("name", params.get("uri"))
        if isinstance(name, str) and name.isascii() and name.isprintable():
            headers["mcp-name"] = name
    return headers


def problems_with(body: bytes, response: httpx.Response) -> list[str]:
    """What is wrong with ``response`` as the answer to ``body`` (``wire`` decides what it owes)."""
    if response.status_code not in STATUSES:
        return [f"unexpected status {response.status_code}"]
    ok, message = wire.parse(body)
    owed = wire.expected_for(message) if ok and not isinstance(message, list) else wire.NO_ID
    if response.status_code == 202:
        if response.content:
            return ["202 with a body"]
        if ok and isinstance(message, list):
            return []  # a batch of notifications (2025-03-26 allows batches over HTTP)
        return [] if owed is None else [f"202 for a message owed {owed!r}"]
    media = response.headers.get("content-type", "").split(";")[0]
    if media == "text/event-stream":
        events = [json.loads(b[6:]) for b in response.text.split("\n\n") if b.startswith("data: ")]
        replies = [e for e in events if not wire.is_notification(e)]
    elif media == "application/json":
        replies = [json.loads(response.content)]
    else:
        return [f"content type {media!r}"]
    if isinstance(replies[0], list):  # a batch's replies
        return [why for reply in replies[0] if (why := wire.check_reply(reply)) is not None]
    if len(replies) != 1:
        return [f"{len(replies)} replies"]
    reply = replies[0]
    why = wire.check_reply(reply)
    if why is not None:
        return [f"malformed reply: {why}: {reply}"]
    if "id" in reply and (owed in (None, wire.NO_ID) or reply["id"] != owed):
        return [f"reply id {reply['id']!r} for a message owed {owed!r}"]
    return []


class LoopThread:
    """An event loop on a thread, so synchronous hypothesis tests can drive the async app."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(work, self.loop)
        return future.result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


class AsgiTarget:
    def __init__(self, package: Path, base_url: str, api_key: str) -> None:
        self.runner = LoopThread()
        self.tried = 0
        self.problems: list[str] = []
        self.statuses: Counter[int] = Counter()
        catalog = copy.deepcopy(load_catalog(package / "src" / "petstore_mcp" / "catalog.json"))
        environ = {
            "PETSTORE_BASE_URL": base_url,
            "PETSTORE_API_KEY": api_key,
            "PETSTORE_RATE_LIMIT": "0",
        }

        async def build() -> tuple[McpServer, httpx.AsyncClient]:
            server = McpServer(catalog, Settings.from_env(catalog, environ))
            app = create_app(server, resource_url="http://127.0.0.1:8000/mcp")
            transport = httpx.ASGITransport(app=app)
            return server, httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")

        self.server, self.client = self.runner.run(build())

    def post(self, body: bytes, headers: dict[str, str]) -> list[str]:
        # as bytes: a header mirroring a non-ASCII method goes out as UTF-8, as a client would
        # send it, instead of failing in httpx before the server sees anything
        raw = {name: value.encode("utf-8") for name, value in headers.items()}

        async def send() -> httpx.Response:
            return await self.client.post("/mcp", content=body, headers=raw, timeout=60)

        self.tried += 1
        response = self.runner.run(send())
        self.statuses[response.status_code] += 1
        found = problems_with(body, response)
        self.problems += found
        return found

    def close(self) -> None:
        async def shut() -> None:
            await self.client.aclose()
            await self.server.aclose()

        self.runner.run(shut())
        self.runner.close()


@pytest.fixture(scope="module")
def petstore_upstream() -> Iterator[Any]:
    with fake_petstore_module().FakePetstore() as fake:
        yield fake


@pytest.fixture(scope="module")
def asgi(petstore_package: Path, petstore_upstream: Any) -> Iterator[AsgiTarget]:
    target = AsgiTarget(petstore_package, petstore_upstream.base_url, petstore_upstream.api_key)
    try:
        yield target
    finally:
        target.close()
        record(
            "wire fuzzing",
            f"HTTP (ASGI in process): {target.tried} POSTs tried, crashes (exceptions out of the "
            f"app) 0, reply problems {len(target.problems)}; statuses {dict(target.statuses)}",
        )


@pytest.mark.parametrize(("name", "body"), wire.CORPUS, ids=[name for name, _ in wire.CORPUS])
def test_corpus_over_asgi(asgi: AsgiTarget, name: str, body: bytes) -> None:
    assert asgi.post(body, request_headers(body)) == []


@settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    body=wire.lines,
    drop=st.just(set())
    | st.sets(st.sampled_from(["content-type", "accept", "mcp-protocol-version", "mcp-method"])),
    junk=st.dictionaries(
        st.sampled_from(["mcp-protocol-version", "mcp-method", "mcp-name", "origin", "accept"]),
        _header_text,
        max_size=2,
    ),
)
def test_property_every_post_gets_one_complete_answer(
    asgi: AsgiTarget, body: bytes, drop: set[str], junk: dict[str, str]
) -> None:
    headers = {k: v for k, v in request_headers(body).items() if k not in drop}
    headers.update(junk)
    assert asgi.post(body, headers) == []


@pytest.mark.slow
def test_uvicorn_run_survives_the_corpus_and_stays_bounded(
    petstore_package: Path, petstore_upstream: Any
) -> None:
    env = server_env(
        petstore_package,
        petstore_upstream.base_url,
        petstore_upstream.api_key,
        PETSTORE_RATE_LIMIT="0",
    )
    live = ServerProcess(env)
    inputs = [body for _, body in wire.CORPUS] + wire.mutations(seed=80, count=6000)
    problems: list[str] = []
    samples: list[int] = []
    try:
        with httpx.Client(timeout=60) as client:
            for index, body in enumerate(inputs):
                response = client.post(live.url, content=body, headers=request_headers(body))
                problems += problems_with(body, response)
                if index % 1000 == 999:
                    samples.append(rss_kib(live.process.pid))
        alive = live.process.poll() is None
    finally:
        live.stop()
    record(
        "wire fuzzing",
        f"HTTP (uvicorn process): {len(inputs)} POSTs tried, crashes {int(not alive)}, reply "
        f"problems {len(problems)}; RSS after 1,000 {samples[0]} KiB, after all {samples[-1]} "
        f"KiB (growth {samples[-1] - samples[0]} KiB)",
    )
    assert problems == []
    assert alive
    assert samples[-1] - samples[0] < RSS_GROWTH_LIMIT_KIB
