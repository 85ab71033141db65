"""The generated server's JSON Schema validator, as the generator uses it: one validator on both sides.

Generated servers validate with ``templates/runtime/jsonschema.py`` (jsonschema-rs, draft 2020-12);
this module loads that very file from the templates the generator ships, so its checks can never
disagree with a server's. :func:`validates` says whether a value conforms (the example checker uses
it). :func:`compilable` makes a tool's schema one the runtime can compile, since a server refuses
every call of a tool whose schema does not compile: each keyword the validator refuses is dropped (a
subschema that is no schema at all becomes ``true``), with a ``schema-uncompilable`` warning saying
where; when the fault cannot be located it returns ``None`` and the caller skips the operation.

Big APIs give hundreds of tools the same component schemas (Stripe's closures run to hundreds of
kilobytes per tool), so :func:`compilable` first checks the parts separately: each ``$defs`` member
once per generation (by identity: the normaliser shares them between tools), and the tool's own part
with its references to members answered by ``true``. Only when that fast check fails is the whole
schema compiled, and repaired, as the server would compile it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..diagnostics import Report
from ..ir.model import JsonSchema
from ..ir.schema_utils import def_name, iter_refs
from ..shipped import runtime_module

__all__ = ["compilable", "compiles", "validates", "validator"]

# every uncompilable keyword costs one compile; a schema needing more repairs than this is skipped
_MAX_REPAIRS = 50
# keywords whose value is one subschema, a map of subschemas, a list of subschemas
_SCHEMA = frozenset(
    {"items", "additionalItems", "additionalProperties", "unevaluatedItems", "not", "if", "then"}
    | {"else", "contains", "propertyNames", "unevaluatedProperties"}
)
_SCHEMA_MAP = frozenset({"properties", "patternProperties", "$defs", "definitions"})
_SCHEMA_MAP |= {"dependentSchemas"}
_SCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


def _runtime() -> Any:
    """``templates/runtime/jsonschema.py``, the generated servers' own validator."""
    return runtime_module("jsonschema")


@lru_cache(maxsize=512)
def _validator(text: str) -> Any:
    """The runtime's validator for a schema given as JSON text (``None``: it does not compile)."""
    runtime = _runtime()
    try:
        return runtime.Validator(json.loads(text))
    except runtime.SchemaError:
        return None


def _validator_for(schema: JsonSchema | bool) -> Any:
    try:
        text = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError):
        return None
    return _validator(text)


def validator(schema: JsonSchema | bool) -> Any:
    """The runtime's validator for ``schema``, compiled now and not cached (``None``: it does not
    compile); for a big schema checked once, where :func:`validates`'s cache key would cost more."""
    runtime = _runtime()
    try:
        return runtime.Validator(schema)
    except runtime.SchemaError:
        return None


def compiles(schema: JsonSchema | bool) -> bool:
    """Whether the generated server can compile ``schema``."""
    return _validator_for(schema) is not None


def validates(schema: JsonSchema | bool, value: Any) -> bool:
    """Whether the generated server would accept ``value`` for ``schema`` (``False`` when the schema
    does not compile)."""
    validator = _validator_for(schema)
    return validator is not None and bool(validator.is_valid(value))


def compilable(
    schema: JsonSchema, pointer: str, what: str, report: Report, *, otherwise: str
) -> JsonSchema | None:
    """``schema`` with what the runtime cannot compile dropped and reported (see the module);
    ``None`` when that is not possible. ``what`` names the schema in messages (``input schema of
    tool 'x'``), ``otherwise`` says what then happens; ``pointer`` is the operation's, in the spec."""
    if _compiles_in_parts(schema):
        return schema
    runtime = _runtime()
    current: Any = schema
    for _ in range(_MAX_REPAIRS):
        try:
            runtime.Validator(current)
        except runtime.SchemaError as exc:
            location = tuple(exc.location)
            rewritten = _ecma_rewritten(current, location)
            if rewritten is not None:
                current, written, ecma = rewritten
                report.info(
                    "schema-pattern-rewritten",
                    pointer,
                    f"the {what} has a pattern written for Python's re ('{written}' at "
                    f"{_pointer(location)}); it is published as its ECMA-262 equivalent '{ecma}'",
                )
                continue
            repaired = _without(current, location)
            if repaired is None:
                report.warn(
                    "schema-uncompilable",
                    pointer,
                    f"the {what} cannot be compiled by the JSON Schema validator ({exc}); "
                    f"{otherwise}",
                )
                return None
            current, consequence = repaired
            report.warn(
                "schema-uncompilable",
                pointer,
                f"the {what} cannot be compiled by the JSON Schema validator ({exc}); "
                f"{consequence}",
            )
            continue
        return dict(current)
    report.warn(
        "schema-uncompilable",
        pointer,
        f"the {what} needs more than {_MAX_REPAIRS} repairs to compile; {otherwise}",
    )
    return None


# id(definition) -> (the definition, kept alive so its id stays its own; whether it compiles)
_DEFINITIONS: dict[int, tuple[Any, bool]] = {}
_KEPT_DEFINITIONS = 50_000


def _compiles_in_parts(schema: JsonSchema) -> bool:
    """Whether ``schema`` compiles, checked part by part (see the module docstring); ``False`` also
    when the parts cannot be told apart (a reference into a member, not to one)."""
    defs = schema.get("$defs")
    if defs is None:
        return _compiles_with_stubs(schema)
    if not isinstance(defs, Mapping):
        return False
    if len(_DEFINITIONS) > _KEPT_DEFINITIONS:
        _DEFINITIONS.clear()
    for definition in defs.values():
        known = _DEFINITIONS.get(id(definition))
        if known is None or known[0] is not definition:
            known = _DEFINITIONS[id(definition)] = (definition, _compiles_with_stubs(definition))
        if not known[1]:
            return False
    return _compiles_with_stubs({key: value for key, value in schema.items() if key != "$defs"})


def _compiles_with_stubs(schema: Any) -> bool:
    """Whether ``schema`` compiles with each ``#/$defs/<Name>`` it refers to standing for ``true``."""
    if not isinstance(schema, Mapping):
        return isinstance(schema, bool)
    stubs: dict[str, Any] = {}
    for ref in iter_refs(schema):
        name = def_name(ref)
        if name is None:
            return False  # a reference the stubs cannot answer: compile the whole schema
        stubs[name] = True
    if "$defs" in schema:
        return False
    runtime = _runtime()
    try:
        runtime.Validator({**schema, "$defs": stubs} if stubs else schema)
    except runtime.SchemaError:
        return False
    return True


def _without(schema: Any, location: tuple[str | int, ...]) -> tuple[Any, str] | None:
    """A copy of ``schema`` without the keyword at (or around) ``location``, and what that means."""
    if not location:
        return None
    repaired = copy.deepcopy(schema)
    node: Any = repaired
    at_schema = True  # whether ``node`` is a subschema (else a map or list of subschemas)
    for depth, step in enumerate(location):
        keyword = at_schema and isinstance(node, dict) and isinstance(step, str)
        if keyword and step not in _SCHEMA | _SCHEMA_MAP | _SCHEMA_LIST:
            del node[step]  # a keyword with a value that is not a schema: the offender
            return repaired, f"'{step}' at {_pointer(location[: depth + 1])} {_UNCHECKED}"
        if not _has(node, step):
            return None
        if keyword and step == "patternProperties" and depth == len(location) - 2:
            entries = node[step]
            if isinstance(entries, dict) and isinstance(entries.get(location[-1]), Mapping | bool):
                return _without_pattern_key(repaired, node, location)  # its key is at fault
        parent, node = node, node[step]
        at_schema = not keyword or step in _SCHEMA
        if depth == len(location) - 1 and at_schema and not isinstance(node, Mapping | bool):
            parent[step] = True  # no schema at all where one belongs: accept anything there
            return repaired, f"the subschema at {_pointer(location)} {_UNCHECKED}"
    return None  # a whole subschema is at fault, not one keyword of it


_UNCHECKED = "is left out, so that part is not checked"


def _without_pattern_key(
    repaired: Any, owner: dict[str, Any], location: tuple[str | int, ...]
) -> tuple[Any, str] | None:
    """``repaired`` without the ``patternProperties`` entry ``location`` ends at (its pattern does
    not compile), in ``owner``, the object schema holding it. The names the pattern matched then
    get what ``owner`` gives names no other keyword names, so a closed object
    (``additionalProperties: false``) would refuse what the entry admitted: such a keyword is
    widened to also admit what the entry's schema admits (``false`` becomes that schema), which
    never refuses valid data and still checks the names the pattern matched."""
    entries = owner["patternProperties"]
    if not isinstance(entries, dict) or location[-1] not in entries:
        return None
    admitted = entries.pop(location[-1])
    if not entries:
        del owner["patternProperties"]
    consequence = (
        f"the patternProperties entry at {_pointer(location)} is left out, so names it matched "
        "are no longer checked against its schema"
    )
    # a sibling additionalProperties evaluates every remaining name: unevaluatedProperties is moot
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword not in owner:
            continue
        rest = owner[keyword]
        if rest is not True and rest != {}:
            owner[keyword] = admitted if rest is False else {"anyOf": [rest, admitted]}
            consequence += f"; {keyword} now takes what it admitted"
        break
    return repaired, consequence


def _ecma_rewritten(schema: Any, location: tuple[str | int, ...]) -> tuple[Any, str, str] | None:
    """A copy of ``schema`` with the pattern at ``location`` (a ``pattern`` keyword's value or a
    ``patternProperties`` key) rewritten in ECMA-262 and the pattern before and after, when it is
    written for Python's ``re`` (``\\Z``) and its ECMA-262 form compiles; ``None`` otherwise."""
    if len(location) < 2:
        return None
    owner = _at(schema, location[:-2]) if location[-2] == "patternProperties" else None
    entries = owner.get("patternProperties") if isinstance(owner, dict) else None
    holder = _at(schema, location[:-1])
    if isinstance(entries, dict) and location[-1] in entries:
        written: Any = location[-1]
    elif location[-1] == "pattern" and isinstance(holder, dict):
        written = holder.get("pattern")
    else:
        return None
    ecma = _ecma_pattern(written) if isinstance(written, str) else written
    if ecma == written or not compiles({"type": "string", "pattern": ecma}):
        return None
    repaired = copy.deepcopy(schema)
    if isinstance(entries, dict) and written in entries:
        if ecma in entries:
            return None
        target = _at(repaired, location[:-1])
        renamed = {ecma if key == written else key: value for key, value in target.items()}
        target.clear()
        target.update(renamed)
    else:
        _at(repaired, location[:-1])["pattern"] = ecma
    return repaired, written, ecma


def _ecma_pattern(pattern: str) -> str:
    """``pattern`` with Python's anchors written as ECMA-262's: ``\\A`` → ``^``, ``\\Z`` → ``$``
    (pydantic's patterns end so; ECMA-262 has no ``\\Z``, and ``$`` without the ``m`` flag is
    the same end of input). Escapes and character classes are kept as they are."""
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            pair = pattern[index : index + 2]
            out.append(_PYTHON_ANCHORS.get(pair, pair) if not in_class else pair)
            index += 2
            continue
        if char == "[" and not in_class:
            in_class = True
            out.append(char)
            index += 1
            # a "]" first in the set (after a "^") is one of its members, as Python reads it
            for lead in ("^", "]"):
                if pattern.startswith(lead, index):
                    out.append(lead)
                    index += 1
            continue
        if char == "]" and in_class:
            in_class = False
        out.append(char)
        index += 1
    return "".join(out)


_PYTHON_ANCHORS = {"\\A": "^", "\\Z": "$"}


def _at(schema: Any, location: tuple[str | int, ...]) -> Any:
    node = schema
    for step in location:
        if not _has(node, step):
            return None
        node = node[step]
    return node


def _has(node: Any, step: str | int) -> bool:
    if isinstance(node, dict):
        return step in node
    return isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)


def _pointer(location: tuple[str | int, ...]) -> str:
    return "#" + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in location)
