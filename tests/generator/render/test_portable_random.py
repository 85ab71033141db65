"""Portable spellings accept exactly what the schema accepted: random schemas, random instances.

Hypothesis draws schemas (type lists, assertions of every kind, subschemas in every position,
booleans, references into ``$defs``) and instances; the rewritten schema and the original give every
instance the same verdict, under the independent ``jsonschema`` package and under the runtime's own
validator, and the rewritten one passes the Inspector's rules (``test_portable.findings``). The
lenient output schemas keep the verdicts of the relaxation as it was (``test_portable.old_lenient``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openapi2mcp.render.compact import lenient_output
from openapi2mcp.render.portable import portable
from openapi2mcp.render.runtime_schema import validator
from tests.generator.render.test_portable import NAMES, PROBES, TYPES, findings, old_lenient

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, -1.5, 2.0]),
    st.sampled_from(["", "a", "ab", "b", "ba", "2024-01-01"]),
)
instances = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from([*NAMES, "x"]), inner, max_size=3),
    ),
    max_leaves=8,
)
_type_lists = st.lists(st.sampled_from(TYPES), min_size=1, max_size=4, unique=True)
_assertions = {
    "description": st.just("text"),
    "format": st.sampled_from(["date", "int32"]),
    "enum": st.lists(_scalars, min_size=1, max_size=3, unique_by=repr),
    "const": _scalars,
    "minLength": st.integers(0, 2),
    "maxLength": st.integers(0, 2),
    "pattern": st.sampled_from(["^a", "b$"]),
    "minimum": st.integers(-2, 2),
    "exclusiveMaximum": st.integers(-2, 2),
    "multipleOf": st.sampled_from([1, 2, 0.5]),
    "minItems": st.integers(0, 2),
    "maxItems": st.integers(0, 2),
    "uniqueItems": st.booleans(),
    "required": st.lists(st.sampled_from(NAMES), max_size=2, unique=True),
    "maxProperties": st.integers(0, 2),
}


def _some_of(keywords: Mapping[str, st.SearchStrategy[Any]], most: int) -> st.SearchStrategy[Any]:
    """Schemas of a few of ``keywords`` (more would reject nearly every instance)."""
    chosen = st.lists(st.sampled_from(sorted(keywords)), max_size=most, unique=True)
    return chosen.flatmap(lambda keys: st.fixed_dictionaries({k: keywords[k] for k in keys}))


def _typed(others: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``others`` with, most of the time, a ``type`` (a list, more often than not)."""
    kinds = st.one_of(st.none(), st.sampled_from(TYPES), _type_lists, _type_lists)
    return st.tuples(kinds, others).map(
        lambda pair: pair[1] if pair[0] is None else {"type": pair[0], **pair[1]}
    )


_leaf = st.one_of(st.booleans(), st.just({}), _typed(_some_of(_assertions, 3)))
_refs = st.fixed_dictionaries({"$ref": st.sampled_from(["#/$defs/D0", "#/$defs/D1"])})


def _compound(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return _typed(_some_of({**_assertions, **_compound_keywords(children)}, 4))


def _compound_keywords(children: st.SearchStrategy[Any]) -> dict[str, st.SearchStrategy[Any]]:
    some = st.lists(children, min_size=1, max_size=3)
    return {
        "properties": st.dictionaries(st.sampled_from(NAMES), children, max_size=3),
        "patternProperties": st.fixed_dictionaries({"^a": children}),
        "additionalProperties": children,
        "unevaluatedProperties": children,
        "items": children,
        "prefixItems": st.lists(children, min_size=1, max_size=2),
        "unevaluatedItems": children,
        "contains": children,
        "anyOf": some,
        "oneOf": some,
        "allOf": some,
        "not": children,
        "if": children,
        "then": children,
        "else": children,
        "$ref": st.sampled_from(["#/$defs/D0", "#/$defs/D1"]),
    }


schemas = st.builds(
    lambda root, d0, d1: (
        {**root, "$defs": {"D0": d0, "D1": d1}} if isinstance(root, dict) else root
    ),
    st.recursive(st.one_of(_leaf, _refs), _compound, max_leaves=10),
    _leaf,
    _leaf,
)


def verdicts(schema: Any, values: list[Any]) -> list[bool]:
    """Each value's verdict under the ``jsonschema`` package; the runtime's validator must agree."""
    checker = jsonschema.Draft202012Validator(schema)
    runtime = validator(schema)
    assert runtime is not None, schema
    judged = [checker.is_valid(value) for value in values]
    assert judged == [runtime.is_valid(value) for value in values], schema
    return judged


_RANDOM = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_RANDOM
@given(schemas, st.lists(instances, max_size=6))
def test_portable_schemas_accept_exactly_what_the_schema_accepted(
    schema: Any, values: list[Any]
) -> None:
    values = PROBES + values
    rewritten = portable(schema)
    assert findings(rewritten) == []
    assert verdicts(rewritten, values) == verdicts(schema, values)
    assert portable(rewritten) == rewritten


@_RANDOM
@given(_type_lists, _some_of({**_assertions, **_compound_keywords(_compound(_leaf))}, 6))
def test_every_keyword_beside_a_type_list_keeps_its_meaning(
    kinds: list[str], keywords: dict[str, Any]
) -> None:
    schema = {"type": kinds, **keywords, "$defs": {"D0": {"type": "string"}, "D1": False}}
    rewritten = portable(schema)
    assert findings(rewritten) == []
    assert verdicts(rewritten, PROBES) == verdicts(schema, PROBES)


_evaluating = st.fixed_dictionaries(
    {},
    optional={
        "properties": st.dictionaries(st.sampled_from(NAMES), _leaf, min_size=1, max_size=2),
        "prefixItems": st.lists(_leaf, min_size=1, max_size=2),
    },
)


@_RANDOM
@given(
    _type_lists,
    _evaluating,
    _some_of(
        {"allOf": st.lists(_evaluating, min_size=1, max_size=2), "$ref": st.just("#/$defs/D0")}
        | {"anyOf": st.lists(_evaluating, min_size=1, max_size=2)},
        2,
    ),
    st.sampled_from([{"unevaluatedProperties": False}, {"unevaluatedItems": False}]),
)
def test_unevaluated_keywords_see_what_they_saw_before(
    kinds: list[str], own: dict[str, Any], beside: dict[str, Any], closed: dict[str, Any]
) -> None:
    defs = {"D0": {"properties": {"c": {"type": "integer"}}, "prefixItems": [True, True]}}
    schema = {"type": kinds, **own, **beside, **closed, "$defs": defs}
    rewritten = portable(schema)
    assert findings(rewritten) == []
    assert verdicts(rewritten, PROBES) == verdicts(schema, PROBES)


def _both_alternatives(schema: Any) -> bool:
    """Whether a node has both ``anyOf`` and ``oneOf`` (the old relaxation kept only one of them)."""
    if isinstance(schema, list):
        return any(_both_alternatives(item) for item in schema)
    if not isinstance(schema, Mapping):
        return False
    return ("anyOf" in schema and "oneOf" in schema) or any(
        _both_alternatives(value) for value in schema.values()
    )


def _spread_root(schema: Any) -> bool:
    """Whether the root's type is a list of several types without ``null``: spelled portably, it is
    an ``anyOf`` like any other, whose relaxed form also admits ``null`` (documented in compact.py)."""
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    return isinstance(kind, list) and "null" not in kind and len(kind) > 1


@_RANDOM
@given(schemas, st.lists(instances, max_size=6))
def test_lenient_schemas_accept_what_they_accepted_before_portable_spellings(
    schema: Any, values: list[Any]
) -> None:
    values = PROBES + values
    if not isinstance(schema, dict) or _both_alternatives(schema):
        return
    before = verdicts(old_lenient(schema), values)
    relaxed = lenient_output(schema)
    assert findings(relaxed) == []
    assert verdicts(relaxed, values) == before
    # the catalog relaxes the documented schema as advertised, that is, already portable
    advertised = lenient_output(portable(schema))
    assert findings(advertised) == []
    if not _spread_root(schema):
        assert verdicts(advertised, values) == before
