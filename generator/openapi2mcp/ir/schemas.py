"""Schema normalisation: OpenAPI 3.0/3.1 Schema Objects → JSON Schema 2020-12, per direction.

This module owns :class:`SchemaNormaliser`. It rewrites one schema for the ``input`` direction (what
a client sends: ``readOnly`` properties removed, and what its objects' properties may leave out or
clear relaxed by ``input_properties.py``) or the ``output`` direction (what the API returns:
``writeOnly`` properties removed), turns 3.0 idioms into 2020-12 (``nullable``, boolean exclusive
bounds, ``example``), reads ``oneOf`` as ``anyOf`` (outside ``not``, and where its branches do more
than require fields: a value that fits two branches is the API's to judge), keeps only JSON Schema
keywords, and never makes a schema stricter, with one exception: a schema without ``type`` that uses
object keywords (``properties``, ``additionalProperties``, ``patternProperties``, ``required``) is
read as ``type: object``, and one with ``items`` or ``prefixItems`` as ``type: array``, which is
what Swagger 2.0 definitions and hand-written specs mean (``required`` alone, the usual fragment
inside ``anyOf`` or ``not``, counts only outside such applicators; a schema with ``anyOf`` or
``oneOf`` beside them, whose branches may have other types, keeps no type). Boolean subschemas
(legal anywhere in 3.1) become their object forms (``true`` → ``{}``, ``false`` → ``{"not": {}}``; a
``true`` member of ``allOf`` is dropped) except where a boolean is the idiom
(``additionalProperties``, ``unevaluatedProperties``, ``unevaluatedItems``), so that nothing
downstream meets a bare boolean; a property whose schema is ``false`` may never be present and is
dropped with a diagnostic. A list under ``items`` (draft-04's tuple form, which no OpenAPI version
allows) is read, with a warning, as items of any of its schemas, which is what such writers mean.
References to component schemas, and to schemas in other files, stay references to
``#/$defs/<Name>``; the referenced schemas are collected (deterministically named) and normalised
once per direction by :meth:`SchemaNormaliser.definitions`, which also breaks reference cycles that
would make a validator loop forever (``A`` is ``allOf: [B]`` and ``B`` is ``allOf: [A]``). Other
local references are inlined. ``$schema`` and ``$id`` are dropped everywhere (a spec's dialect URI,
e.g. draft-04 or the OAS 3.1 dialect, would be wrong inside a tool's 2020-12 schema). A component's
own ``$anchor`` is kept on its ``$defs`` entry, which appears once per tool schema; an anchor name
two components claim stays with the first, and anchors anywhere else are dropped, since inlined
copies would repeat them. A same-document ``$ref`` to such an anchor (``#addressDef``) is a
reference to that component.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any, Final, Literal
from urllib.parse import unquote, urlsplit

from ..load.refs import ROOT, ROOT_DOC, Location, Resolver, defs_ref, is_url
from .input_properties import InputProperties
from .schema_utils import VALUE_READERS, nullable

Direction = Literal["input", "output"]
JsonObject = dict[str, Any]

JSON_TYPES: Final = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})
_SCHEMA_MAPS: Final = ("properties", "patternProperties", "dependentSchemas")
_SCHEMA_LISTS: Final = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_SINGLE: Final = (
    "additionalProperties",
    "propertyNames",
    "items",
    "contains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
)
# where a boolean subschema stays a boolean (the idiom every reader of 3.0 already handles)
_BOOLEAN_KEPT: Final = frozenset(
    {"additionalProperties", "unevaluatedProperties", "unevaluatedItems"}
)
# subschemas that only add constraints to the instance their parent describes: a `required` list
# alone there is a fragment (`anyOf: [{required: [phone]}, {required: [email]}]`), not an object type
_APPLICATOR_KEYWORDS: Final = frozenset(
    {"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"}
)
_OBJECT_KEYWORDS: Final = ("properties", "additionalProperties", "patternProperties")
_ARRAY_KEYWORDS: Final = ("items", "prefixItems")
# a schema with one of these defines its values itself, or admits alternatives whose types may
# differ (`anyOf: [{type: string}, {type: object}]` beside `properties`): no type is inferred for it
_TYPE_DEFINED_BY: Final = ("type", "$ref", "enum", "const", "anyOf", "oneOf")
# kept verbatim; every other keyword not handled below (x-*, xml, externalDocs, discriminator,
# deprecated, $id, $schema, nested $defs, ...) is dropped
_VALUE_KEYWORDS: Final = frozenset(
    {
        "title",
        "description",
        "default",
        "enum",
        "const",
        "format",
        "pattern",
        "multipleOf",
        "maximum",
        "minimum",
        "maxLength",
        "minLength",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxContains",
        "minContains",
        "maxProperties",
        "minProperties",
        "dependentRequired",
        "contentEncoding",
        "contentMediaType",
        "$comment",
    }
)
_HIDDEN_BY: Final[dict[Direction, str]] = {"input": "readOnly", "output": "writeOnly"}
_MAX_REF_HOPS: Final = 32
# JSON Schema 2020-12 §8.2.2: an anchor is an XML NCName-like plain name
_ANCHOR: Final = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*")


# what documents written by hand or by a web framework's generator say instead of a JSON type
_TYPE_ALIASES: Final = {
    "int": "integer",
    "int32": "integer",
    "int64": "integer",
    "long": "integer",
    "short": "integer",
    "float": "number",
    "double": "number",
    "decimal": "number",
    "bool": "boolean",
    "str": "string",
    "dict": "object",
    "map": "object",
    "list": "array",
}


class SchemaNormaliser:
    """Normalises schemas of one document and collects the ``$defs`` they refer to."""

    def __init__(self, resolver: Resolver, *, optional_nullable: bool = False) -> None:
        self._resolver = resolver
        # what input objects' properties may leave out or clear (``input_properties.py``)
        self._inputs = InputProperties(optional_nullable=optional_nullable)
        self._names: dict[Location, str] = {}
        self._by_ref: dict[str, str] = {}
        self._taken: set[str] = set()
        self._queue: list[tuple[str, Location]] = []
        # anchor name -> the component (root document) whose schema declares it, first one wins;
        # what same-document "#name" references resolve to
        self._component_anchors: dict[str, Location] = {}
        # anchor name -> the definition that keeps it (each name once across all $defs)
        self._kept_anchors: dict[str, Location] = {}
        # the definition being normalised by definitions(): only its root may keep an $anchor
        self._anchor_root: Location | None = None
        _, components = resolver.lookup(ROOT.child("components", "schemas"))
        if isinstance(components, dict):
            for name, schema in components.items():
                loc = ROOT.child("components", "schemas", name)
                self._register(str(name), loc)
                anchor = schema.get("$anchor") if isinstance(schema, dict) else None
                if isinstance(anchor, str) and _ANCHOR.fullmatch(anchor):
                    self._component_anchors.setdefault(anchor, loc)

    def normalise(self, value: Any, at: Location, direction: Direction) -> JsonObject:
        """The 2020-12 form of the schema ``value`` found at ``at``, for ``direction``."""
        try:
            result = self._schema(value, at, direction, ())
        except RecursionError:
            self._resolver.warn("schema-too-deep", at, "schema nested too deeply; replaced by {}")
            return {}
        if isinstance(result, bool):
            return {} if result else {"not": {}}
        return result

    def definitions(self) -> tuple[dict[str, JsonObject], dict[str, JsonObject]]:
        """Every referenced schema normalised for input and for output, by ``$defs`` name."""
        inputs: dict[str, JsonObject] = {}
        outputs: dict[str, JsonObject] = {}
        index = 0
        while index < len(self._queue):  # normalising may discover further definitions
            name, loc = self._queue[index]
            index += 1
            _, raw = self._resolver.lookup(loc)
            self._anchor_root = loc
            try:
                inputs[name] = self.normalise(raw, loc, "input")
                outputs[name] = self.normalise(raw, loc, "output")
            finally:
                self._anchor_root = None
        locations = {name: loc for loc, name in self._names.items()}
        for defs in (inputs, outputs):
            self._break_cycles(defs, locations)
        self._inputs.summarise(self._resolver.info)
        return inputs, outputs

    # -- definitions -------------------------------------------------------------------------

    def _register(self, base: str, loc: Location) -> str:
        name, suffix = base, 2
        while name in self._taken:
            name, suffix = f"{base}_{suffix}", suffix + 1
        self._taken.add(name)
        self._names[loc] = name
        self._by_ref[defs_ref(name)] = name
        self._queue.append((name, loc))
        return name

    def _definition(self, target: Location, stack: tuple[Location, ...]) -> str | None:
        """The ``$defs`` name for ``target`` if it is (or must become) a definition."""
        if target in self._names:
            return self._names[target]
        if target.doc == ROOT_DOC and target not in stack:
            return None  # a local schema that is not a component: inlined
        base = target.tokens[-1] if target.tokens else _document_stem(target.doc)
        return self._register(base, target)

    def _break_cycles(self, defs: dict[str, JsonObject], locations: dict[str, Location]) -> None:
        state: dict[str, bool] = {}  # False while on the DFS stack, True when finished
        for root, schema in defs.items():
            if root in state:
                continue
            state[root] = False
            stack = [(root, _in_place_refs(schema))]
            while stack:
                name, refs = stack[-1]
                step = next(refs, None)
                if step is None:
                    state[name] = True
                    stack.pop()
                    continue
                node, ref = step
                target = self._by_ref.get(ref)
                if target is None or target not in defs:
                    continue
                if state.get(target) is False:
                    del node["$ref"]
                    self._resolver.warn(
                        "ref-cycle",
                        locations[name],
                        f"schema '{name}' refers to '{target}', which leads back to it without"
                        " nesting (validators would loop forever); that reference is replaced by {}",
                    )
                elif target not in state:
                    state[target] = False
                    stack.append((target, _in_place_refs(defs[target])))

    # -- one schema ----------------------------------------------------------------------------

    def _schema(
        self,
        value: Any,
        at: Location,
        direction: Direction,
        stack: tuple[Location, ...],
        *,
        fragment: bool = False,
    ) -> JsonObject | bool:
        if isinstance(value, bool):
            return value
        if not isinstance(value, dict):
            self._resolver.warn("schema-invalid", at, "a schema must be an object; replaced by {}")
            return {}
        out: JsonObject = {}
        hidden: set[str] = set()
        for key, item in value.items():
            self._keyword(out, key, item, at, direction, stack, hidden)
        if "$anchor" in value and at == self._anchor_root and not stack:
            self._keep_anchor(out, value["$anchor"], at)
        _exclusive_bounds(out, value)
        if "example" in value and "examples" not in out:
            out["examples"] = [value["example"]]
        if "examples" in out:
            self._drop_reference_examples(out, at)
        self._settle_required(out, value, at, hidden)
        if direction == "input":
            self._inputs.relax(out, value, at)
            _discriminator_required(out, value)
            if value.get("deprecated") is True and at.tokens[-2:-1] == ("properties",):
                # a deprecated field, said, as the keyword is not kept: a model uses what it is
                # shown (Letta's 167 deprecated body fields)
                _deprecated(out)
        if "oneOf" in out and not _under_not(at) and not _fields_one_of(out["oneOf"]):
            _one_of_as_any_of(out)
        _infer_type(out, value, fragment=fragment)
        kinds = out.get("type")
        if out.get("format") == "byte" and "string" in (
            kinds if isinstance(kinds, list) else [kinds]
        ):
            # OpenAPI 3.0's base64 string, which 3.1 spells contentEncoding (4.8.24.4): what a model
            # reads to encode a key (etcd, Google's APIs) where "bytes" alone says nothing
            out.setdefault("contentEncoding", "base64")
        self._enum_of_type(out, at)
        if "$ref" in value:
            out = self._with_ref(out, value["$ref"], at, direction, stack)
        if value.get("nullable") is True:
            out = nullable(out)
        return out

    def _enum_of_type(self, out: JsonObject, at: Location) -> None:
        """Enum values written in another type than the schema's (``type: string, enum: [1, 2]``,
        which no value satisfies) are read in its type when that loses nothing, with a warning."""
        kind, values = out.get("type"), out.get("enum")
        if not isinstance(kind, str) or kind not in VALUE_READERS or not isinstance(values, list):
            return
        read: list[Any] = []
        changed: list[Any] = []
        for member in values:
            fixed = VALUE_READERS[kind](member)
            if fixed is None:  # null, or a value no reading keeps whole ("abc" as an integer)
                read.append(member)
                continue
            if type(fixed) is not type(member) or fixed != member:
                changed.append(member)
            read.append(fixed)
        if changed:
            out["enum"] = list(dict.fromkeys(read))
            shown = ", ".join(_show(member) for member in changed[:5])
            self._resolver.warn(
                "enum-type-mismatch",
                at.child("enum"),
                f"enum values {shown} are not of type {kind}; read as {kind} values",
            )

    def _items_list(self, out: JsonObject, members: list[Any], at: Location) -> None:
        """``items: [A, B]``, which no OpenAPI version allows (it was draft-04's tuple): the items
        are any of those kinds, as the writer means ("a list of statistic items" of three kinds,
        PowerDNS), not the first an A and the second a B."""
        self._resolver.warn(
            "schema-items-list",
            at.child("items"),
            "'items' is a list of schemas, which OpenAPI does not allow; read as items of any of "
            "those schemas (anyOf)",
        )
        if len(members) == 1:
            out["items"] = members[0]
        elif members:
            out["items"] = {"anyOf": members}

    def _keyword(
        self,
        out: JsonObject,
        key: str,
        item: Any,
        at: Location,
        direction: Direction,
        stack: tuple[Location, ...],
        hidden: set[str],
    ) -> None:
        """Copy or convert one keyword into ``out`` (unknown keywords are left out)."""
        if key in _SCHEMA_MAPS:
            self._schema_map(out, key, item, at, direction, stack, hidden)
        elif key in _SCHEMA_LISTS or (key == "items" and isinstance(item, list)):
            if isinstance(item, list):
                members = [
                    self._subschema(key, sub, at.child(key, i), direction, stack)
                    for i, sub in enumerate(item)
                    if not (key == "allOf" and sub is True)  # true adds nothing to allOf
                ]
                if key == "items":
                    self._items_list(out, members, at)
                elif members or key != "allOf":
                    out[key] = members
            else:
                self._resolver.warn("schema-invalid", at.child(key), f"'{key}' must be a list")
        elif key in _SCHEMA_SINGLE:
            out[key] = self._subschema(key, item, at.child(key), direction, stack)
        elif key in _VALUE_KEYWORDS:
            out[key] = item
        elif key == "type":
            types = self._type(item, at.child("type"))
            if types is not None:
                out["type"] = types
        elif key == "required":
            self._required(out, item, at)
        elif key == "examples" and isinstance(item, list):
            out["examples"] = item

    def _subschema(
        self,
        key: str,
        value: Any,
        at: Location,
        direction: Direction,
        stack: tuple[Location, ...],
    ) -> JsonObject | bool:
        """The subschema under ``key``, a boolean only where a boolean is the idiom."""
        result = self._schema(value, at, direction, stack, fragment=key in _APPLICATOR_KEYWORDS)
        if isinstance(result, bool) and key not in _BOOLEAN_KEPT:
            return _object_form(result)
        return result

    def _settle_required(
        self, out: JsonObject, value: JsonObject, at: Location, hidden: set[str]
    ) -> None:
        """Draft 3's ``required: true`` on a property (flasgger's docstrings) joins its object's
        list; a property hidden in this direction (read-only in an input) leaves it."""
        flagged = _required_flags(value)
        if flagged:
            out["required"] = list(dict.fromkeys([*out.get("required", []), *flagged]))
        if hidden and "required" in out:
            self._forbidden_required(out["required"], value, at)
            out["required"] = [name for name in out["required"] if name not in hidden]
            if not out["required"]:
                del out["required"]

    def _forbidden_required(self, required: list[str], value: JsonObject, at: Location) -> None:
        """A required property whose schema is ``false``: no instance can satisfy the schema."""
        properties = value.get("properties")
        for name in required:
            if isinstance(properties, dict) and properties.get(name) is False:
                self._resolver.warn(
                    "property-forbidden-required",
                    at.child("properties", name),
                    f"property '{name}' is required, but its schema is false (it may never be"
                    " present); it is not required here",
                )

    def _keep_anchor(self, out: JsonObject, anchor: Any, at: Location) -> None:
        """Keep a definition's ``$anchor`` unless it is malformed or another definition owns it."""
        if not isinstance(anchor, str) or not _ANCHOR.fullmatch(anchor):
            self._resolver.warn("schema-invalid", at.child("$anchor"), "invalid $anchor dropped")
            return
        owner = self._kept_anchors.setdefault(anchor, self._component_anchors.get(anchor, at))
        if owner != at:
            self._resolver.warn(
                "anchor-duplicate",
                at.child("$anchor"),
                f"$anchor '{anchor}' is already declared by another schema; dropped here",
            )
            return
        out["$anchor"] = anchor

    def _enclosing_definition(self, target: Location, at: Location) -> Location | None:
        """For a ``#/$defs/<name>`` the document lacks, the ``$defs`` entry of that name of a
        schema around ``at``: pydantic's JSON Schema of a model, set inline in a FastAPI document
        (Langflow's workflow statuses), refers to its own ``$defs`` from its root."""
        tokens = target.tokens
        if target.doc != at.doc or len(tokens) != 2 or tokens[0] != "$defs":
            return None
        for end in range(len(at.tokens) - 1, 0, -1):
            around = Location(at.doc, at.tokens[:end]).child("$defs", tokens[1])
            if self._resolver.lookup(around)[0]:
                return around
        return None

    def _target(self, ref: Any, at: Location) -> Location | None:
        """Where ``ref`` points: a component's ``$anchor`` (``#name``) or a JSON pointer."""
        if isinstance(ref, str) and ref.startswith("#") and at.doc == ROOT_DOC:
            anchored = self._component_anchors.get(ref[1:])
            if anchored is not None and _ANCHOR.fullmatch(ref[1:]):
                return anchored
        return self._resolver.target(ref, at)

    def _drop_reference_examples(self, out: JsonObject, at: Location) -> None:
        """Examples are literal values; one that is a ``$ref`` object is a mistake in the spec."""
        kept = [e for e in out["examples"] if not (isinstance(e, dict) and "$ref" in e)]
        if len(kept) < len(out["examples"]):
            self._resolver.info(
                "example-dropped", at, "an example that is a $ref object (not a value) is dropped"
            )
            out["examples"] = kept
            if not kept:
                del out["examples"]

    def _schema_map(
        self,
        out: JsonObject,
        key: str,
        item: Any,
        at: Location,
        direction: Direction,
        stack: tuple[Location, ...],
        hidden: set[str],
    ) -> None:
        if not isinstance(item, dict):
            self._resolver.warn("schema-invalid", at.child(key), f"'{key}' must be an object")
            return
        result: JsonObject = {}
        for name, sub in item.items():
            if key == "properties" and sub is False:
                hidden.add(name)
                self._resolver.info(
                    "property-forbidden",
                    at.child(key, name),
                    f"property '{name}' has the schema false (it may never be sent or received);"
                    " dropped",
                )
                continue
            if key == "properties" and self._is_hidden(sub, at.child(key, name), direction):
                hidden.add(name)
                continue
            result[name] = self._subschema(key, sub, at.child(key, name), direction, stack)
        out[key] = result

    def _is_hidden(self, value: Any, at: Location, direction: Direction, depth: int = 0) -> bool:
        """A property marked readOnly (for input) or writeOnly (for output), also through ``$ref``
        and composition: any branch of ``allOf`` (they all apply), every branch of ``anyOf`` or
        ``oneOf`` (``owner: {allOf: [{$ref: User}, {readOnly: true}]}`` is read-only)."""
        flag = _HIDDEN_BY[direction]
        for _ in range(_MAX_REF_HOPS):
            if not isinstance(value, dict) or depth > _MAX_REF_HOPS:
                return False
            if flag in value:
                return value.get(flag) is True
            if "$ref" not in value:
                return self._hidden_by_composition(value, at, direction, depth)
            target = self._target(value["$ref"], at)
            if target is None:
                return False
            found, value = self._resolver.lookup(target)
            if not found:
                return False
            at = target
        return False

    def _hidden_by_composition(
        self, value: dict[str, Any], at: Location, direction: Direction, depth: int
    ) -> bool:
        def hidden(keyword: str) -> list[bool]:
            branches = value.get(keyword)
            if not isinstance(branches, list):
                return []
            return [
                self._is_hidden(branch, at.child(keyword, index), direction, depth + 1)
                for index, branch in enumerate(branches)
            ]

        every = [*hidden("anyOf"), *hidden("oneOf")]
        return any(hidden("allOf")) or (bool(every) and all(every))

    def _type(self, item: Any, at: Location) -> str | list[str] | None:
        names = item if isinstance(item, list) else [item]
        known: list[str] = []
        for name in names:
            meant = _TYPE_ALIASES.get(name.lower()) if isinstance(name, str) else None
            if isinstance(name, str) and name in JSON_TYPES:
                if name not in known:
                    known.append(name)
            elif meant is not None:
                # a programming language's name for a type (flasgger's `int`): what it says
                self._resolver.warn(
                    "schema-type-unknown", at, f"unknown type {_show(name)} read as {meant!r}"
                )
                if meant not in known:
                    known.append(meant)
            else:
                self._resolver.warn(
                    "schema-type-unknown", at, f"unknown type {_show(name)} dropped"
                )
        if not known:
            return None
        return known if isinstance(item, list) else known[0]

    def _required(self, out: JsonObject, item: Any, at: Location) -> None:
        if isinstance(item, bool):
            said = "its object requires the property" if item else "it says nothing"
            self._resolver.info(
                "schema-required-flag",
                at.child("required"),
                f"'required: {str(item).lower()}' is JSON Schema draft 3's: {said}",
            )
            return
        if not isinstance(item, list) or not all(isinstance(n, str) for n in item):
            self._resolver.warn(
                "schema-invalid",
                at.child("required"),
                "'required' must be a list of names; dropped",
            )
            return
        out["required"] = list(dict.fromkeys(item))

    def _with_ref(
        self,
        out: JsonObject,
        ref: Any,
        at: Location,
        direction: Direction,
        stack: tuple[Location, ...],
    ) -> JsonObject:
        """Combine the schema ``ref`` points to with the sibling keywords already in ``out``."""
        target = self._target(ref, at)
        if target is None:
            return out  # the resolver has warned; the reference counts as {}
        found, raw = self._resolver.lookup(target)
        if not found:
            target = self._enclosing_definition(target, at) or target
            found, raw = self._resolver.lookup(target)
        if not found:
            self._resolver.warn(
                "ref-missing", at, f"$ref '{ref}' points to nothing; replaced by {{}}"
            )
            return out
        name = self._definition(target, stack)
        if name is not None:
            return {"$ref": defs_ref(name), **out}
        inlined = self._schema(raw, target, direction, (*stack, target))
        if inlined is True:
            return out
        inlined = _object_form(inlined) if isinstance(inlined, bool) else inlined
        if not inlined.keys() & out.keys():
            return {**inlined, **out}
        rest = {key: item for key, item in out.items() if key != "allOf"}
        return {"allOf": [inlined, *out.get("allOf", [])], **rest}


def _under_not(at: Location) -> bool:
    """Whether ``at`` lies under a ``not`` (where reading ``oneOf`` as ``anyOf`` would make the
    schema stricter, not looser)."""
    path = at.tokens
    return any(
        step == "not" and (index == 0 or path[index - 1] not in _SCHEMA_MAPS)
        for index, step in enumerate(path)
    )


def _fields_one_of(members: list[Any]) -> bool:
    """Branches that each only require fields (GitHub's ``oneOf: [{required: [id]}, {required:
    [owner, repo, number]}]``): "exactly one of these ways" is what they mean, and they overlap only
    where a value gives both."""
    return all(
        isinstance(member, dict) and set(member) - {"title", "description"} == {"required"}
        for member in members
    )


def _discriminator_required(out: JsonObject, value: dict[str, Any]) -> None:
    """A union's discriminator is required of the value sent: OpenAPI says the property MUST be
    there, and pydantic's tagged unions refuse a value without it even where each branch gives it
    a default (ZenML's triggers: ``type``, "schedule" by default, answered 422 "Unable to extract
    tag using discriminator 'type'" when a model left it out)."""
    discriminator = value.get("discriminator")
    name = discriminator.get("propertyName") if isinstance(discriminator, dict) else None
    if isinstance(name, str) and name and ("oneOf" in out or "anyOf" in out):
        required = out.get("required")
        listed = required if isinstance(required, list) else []
        if name not in listed:
            out["required"] = [*listed, name]


def _one_of_as_any_of(out: JsonObject) -> None:
    """``oneOf`` read as ``anyOf``: a value may fit more than one branch, and the API, not us,
    decides which it is. Kept as "exactly one", it refused values the API takes wherever branches
    overlap: Chroma's metadata value is ``oneOf: [integer, number, ...]`` (3 is both), and object
    variants without a discriminator both fit a value that has what each requires. Beside an
    ``anyOf`` of its own, the branches go into ``allOf``."""
    members = out.pop("oneOf")
    if "anyOf" in out:
        out["allOf"] = [*out.get("allOf", []), {"anyOf": members}]
    else:
        out["anyOf"] = members


def _object_form(value: bool) -> JsonObject:
    """The object schema equal to a boolean schema: ``true`` is ``{}``, ``false`` ``{"not": {}}``."""
    return {} if value else {"not": {}}


def _infer_type(out: JsonObject, value: JsonObject, *, fragment: bool) -> None:
    """Give an untyped schema the type its keywords imply (see the module docstring)."""
    if any(key in value for key in _TYPE_DEFINED_BY) or "type" in out:
        return
    objectish = any(key in out for key in _OBJECT_KEYWORDS) or ("required" in out and not fragment)
    arrayish = any(key in out for key in _ARRAY_KEYWORDS)
    if objectish != arrayish:
        out["type"] = "object" if objectish else "array"


def _required_flags(value: JsonObject) -> list[str]:
    """The properties whose schema says ``required: true`` (JSON Schema draft 3)."""
    properties = value.get("properties")
    if not isinstance(properties, dict):
        return []
    return [
        name
        for name, prop in properties.items()
        if isinstance(name, str) and isinstance(prop, dict) and prop.get("required") is True
    ]


def _exclusive_bounds(out: JsonObject, value: JsonObject) -> None:
    """3.0's boolean ``exclusiveMinimum/Maximum`` modify ``minimum/maximum``; 3.1's are numbers."""
    for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        flag = value.get(exclusive)
        if isinstance(flag, bool):
            if flag and bound in out:
                out[exclusive] = out.pop(bound)
        elif isinstance(flag, int | float):
            out[exclusive] = flag


def _in_place_refs(schema: Any) -> Iterator[tuple[JsonObject, str]]:
    """``$ref``s that apply to the same instance (not through properties or items)."""
    if not isinstance(schema, dict):
        return
    if isinstance(schema.get("$ref"), str):
        yield schema, schema["$ref"]
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key) or ():
            yield from _in_place_refs(sub)
    for key in ("not", "if", "then", "else"):
        yield from _in_place_refs(schema.get(key))
    dependent = schema.get("dependentSchemas")
    if isinstance(dependent, dict):
        for sub in dependent.values():
            yield from _in_place_refs(sub)


def _document_stem(doc: str) -> str:
    """``pet`` for ``schemas/pet.yaml`` or ``https://host/schemas/pet.yaml?v=2``."""
    path = unquote(urlsplit(doc).path) if is_url(doc) else doc
    return PurePosixPath(path).stem or "schema"


def _show(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else type(value).__name__


def _deprecated(out: JsonObject) -> None:
    """A deprecated input value's description says so (see ``_schema``)."""
    said = str(out.get("description", "")).rstrip()
    if "deprecated" in said.lower():
        return
    stop = "" if not said or said.endswith((".", "!", "?", ":")) else "."
    out["description"] = f"{said}{stop} Deprecated: leave it out unless the task needs it.".lstrip()
