"""The registry of environment variables (``templates/runtime/environment.py``) is complete and true.

Complete: every variable the runtime builds from its prefix goes through ``environment.name`` with a
registered suffix, no module builds one by hand, and every registered variable is read somewhere.
True: the defaults it documents are what the code applies when the variable is unset.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from templates.runtime import environment
from templates.runtime.catalog.model import load_catalog
from templates.runtime.protocol.request_state import DEFAULT_TTL_SECONDS
from templates.runtime.server import Settings
from templates.runtime.upstream.resilience import Policy

RUNTIME = Path(__file__).resolve().parents[2] / "templates" / "runtime"
CATALOG = Path(__file__).resolve().parent / "fixtures" / "catalog.json"
# an f-string that glues an upper-case variable suffix to something: f"{prefix}_RETRIES"
_SUFFIX = re.compile(r"_?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")


def _modules() -> list[tuple[str, ast.Module]]:
    return [
        (str(path.relative_to(RUNTIME)), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(RUNTIME.rglob("*.py"))
        if path.name != "environment.py"
    ]


def _suffixes_read() -> set[str]:
    """The suffixes passed to ``env_name`` (``environment.name``) anywhere in the runtime; an
    f-string suffix (``f"AUTH_{key}"``) is expanded over the literal keys it is iterated with."""
    found: set[str] = set()
    for _, tree in _modules():
        loops: dict[str, list[str]] = {}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.comprehension)
                and isinstance(node.target, ast.Name)
                and isinstance(node.iter, ast.Tuple)
            ):
                keys = [e.value for e in node.iter.elts if isinstance(e, ast.Constant)]
                loops[node.target.id] = [str(k) for k in keys]
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "env_name"
            ):
                continue
            suffix = node.args[1]
            if isinstance(suffix, ast.Constant):
                found.add(str(suffix.value))
            elif isinstance(suffix, ast.JoinedStr):
                head, tail = suffix.values
                assert isinstance(head, ast.Constant) and isinstance(tail, ast.FormattedValue)
                assert isinstance(tail.value, ast.Name)
                found.update(f"{head.value}{key}" for key in loops[tail.value.id])
            else:
                raise AssertionError(
                    f"env_name with a suffix the test cannot read: {ast.dump(suffix)}"
                )
    return found


def test_no_module_builds_a_variable_name_by_hand() -> None:
    built = []
    for where, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr) and len(node.values) == 2:
                head, tail = node.values
                if (
                    isinstance(head, ast.FormattedValue)
                    and isinstance(tail, ast.Constant)
                    and _SUFFIX.fullmatch(str(tail.value))
                ):
                    built.append(f"{where}:{node.lineno}")
    assert built == []


def test_every_variable_read_is_registered_and_every_registered_one_is_read() -> None:
    registered = {variable.suffix for variable in environment.VARIABLES}
    # read through the catalog's baseUrlEnv / timeoutEnv, which the generator names with the
    # registry (plan.build registered_env_var)
    through_catalog = {"BASE_URL", "TIMEOUT"}
    assert _suffixes_read() | through_catalog == registered


def test_names_are_the_prefix_and_the_suffix() -> None:
    assert environment.name("PETSTORE", "RETRIES") == "PETSTORE_RETRIES"
    assert environment.name("PETSTORE_", "AUTH_TOKENS") == "PETSTORE_AUTH_TOKENS"


def test_an_unregistered_suffix_is_refused() -> None:
    try:
        environment.name("PETSTORE", "RETRYS")
    except KeyError as exc:
        assert exc.args == ("RETRYS",)
    else:
        raise AssertionError("an unregistered variable was named")


def _default(suffix: str) -> str:
    return environment.variable(suffix).default


def test_the_documented_resilience_defaults_are_applied() -> None:
    policy = Policy.from_env({}, "PETSTORE")
    applied = {
        "RETRIES": policy.retries,
        "RETRY_BACKOFF": policy.backoff,
        "RETRY_MAX_WAIT": policy.max_wait,
        "CIRCUIT_THRESHOLD": policy.circuit_threshold,
        "CIRCUIT_COOLDOWN": policy.circuit_cooldown,
        "MAX_CONCURRENCY": policy.max_concurrency,
        "RATE_LIMIT": policy.rate_limit,
        "LIMIT_WAIT": policy.limit_wait,
    }
    assert {suffix: float(_default(suffix)) for suffix in applied} == applied


def test_the_documented_server_defaults_are_applied() -> None:
    settings = Settings.from_env(load_catalog(CATALOG), {})
    assert settings.max_line_bytes == int(_default("MAX_LINE_BYTES"))
    assert settings.max_result_chars == int(_default("MAX_RESULT_CHARS"))
    assert settings.max_body_bytes == int(_default("MAX_BODY_BYTES"))
    assert str(settings.elicit_missing).lower() == _default("ELICIT_MISSING")
    # the signer keeps its lifetime to itself; the server gives it this default when unset
    assert float(_default("STATE_TTL")) == DEFAULT_TTL_SECONDS
