"""Fixtures of the end-to-end tests: ``api``, a recording fake API on 127.0.0.1, and ``served``,
the test module's ``SPEC`` generated and served in process in front of it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.helpers import Served
from tests.runtime.upstream_kit import FakeApi, api  # noqa: F401 - the fixture


@pytest.fixture
async def served(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    api: FakeApi,  # noqa: F811 - the fixture imported above
) -> AsyncIterator[Served]:
    it = Served(tmp_path, api, request.module.SPEC)
    yield it
    await it.server.aclose()
