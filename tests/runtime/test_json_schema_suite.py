"""The official JSON-Schema-Test-Suite (draft 2020-12, required tests) against the runtime's Validator.

The suite is installed by ``scripts/install_test_suites.sh`` into ``.work/cache/json-schema-test-suite``
(from the ``jsonschema`` sdist on PyPI); nothing is downloaded here. The documents that
``refRemote.json`` and friends name under ``http://localhost:1234/`` are read from the suite's
``remotes`` folder and handed to the Validator as known resources: the runtime never fetches.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from templates.runtime.jsonschema import Validator

SUITE = Path(__file__).resolve().parents[2] / ".work" / "cache" / "json-schema-test-suite"
TESTS = SUITE / "tests" / "draft2020-12"
REMOTES = SUITE / "remotes"
REMOTE_BASE = "http://localhost:1234/"
# remotes written for other drafts: their meta-schemas are not 2020-12's, and no 2020-12 test uses them
OTHER_DRAFTS = frozenset({"draft3", "draft4", "draft6", "draft7", "draft2019-09", "draft-next"})


def _cases() -> list[Any]:
    if not TESTS.is_dir():
        return [pytest.param(None, id="suite-not-installed")]
    cases = []
    for file in sorted(TESTS.glob("*.json")):  # not optional/: only the required tests
        for group in json.loads(file.read_text(encoding="utf-8")):
            for test in group["tests"]:
                case = (group["schema"], test["data"], test["valid"])
                name = f"{file.stem}: {group['description']}: {test['description']}"
                cases.append(pytest.param(case, id=name))
    return cases


@cache
def _remotes() -> dict[str, Any]:
    return {
        REMOTE_BASE + path.relative_to(REMOTES).as_posix(): json.loads(path.read_text("utf-8"))
        for path in REMOTES.rglob("*.json")
        if path.relative_to(REMOTES).parts[0] not in OTHER_DRAFTS
    }


@pytest.mark.parametrize("case", _cases())
def test_required_suite_case(case: tuple[Any, Any, bool] | None) -> None:
    if case is None:
        pytest.fail(
            f"the JSON-Schema-Test-Suite is not installed in {SUITE}: "
            "run scripts/install_test_suites.sh first"
        )
    schema, instance, valid = case
    validator = Validator(schema, resources=_remotes())
    issues = validator.issues(instance)
    assert (not issues) is valid, issues
    assert validator.is_valid(instance) is valid


def test_the_suite_is_complete() -> None:
    """A half-unpacked suite must not pass for a whole one."""
    assert len(_cases()) > 1200
    assert (REMOTES / "draft2020-12" / "metaschema-no-validation.json").is_file()
