"""JSON Schema 2020-12 validation of tool arguments and upstream outputs, done by ``jsonschema-rs``.

A ``Validator`` compiles its schema once (the whole of draft 2020-12: ``unevaluated*``,
``$dynamicRef``, ``$id``-relative and anchor refs) and is then asked for ``issues``: each carries a
readable path (``body.tags[0]``, ``""`` for the root), the same path as keys and indexes, and a
message a model can act on, with long values cut short. Patterns are ECMA-262 run by the ``regex``
crate, which matches in linear time and refuses backreferences and lookaround when the schema is
compiled. ``format`` is an annotation, never asserted (as it was before this module used the library). A
schema that cannot be compiled is a ``SchemaError`` naming the keyword at fault, so callers can
refuse rather than let values through unchecked. A ``$ref`` to another document resolves only
among ``resources`` handed in by the caller: this module never fetches anything. The library is
imported on the first compile, so a server that only starts and lists tools never loads it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from .errors import SchemaError as SchemaError  # noqa: PLC0414 - re-exported

if TYPE_CHECKING:
    import jsonschema_rs

__all__ = ["SchemaError", "ValidationIssue", "Validator", "format_path", "json_type"]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# stands for the failing value in the library's messages; replaced by a short rendering of it
_MASK = "\x00\x00"
_SHOWN_CHARS = 60
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)

Path = tuple[str | int, ...]


def _pointer(location: Path) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in location)


@dataclass(frozen=True, slots=True)
class ValidationIssue:
    """One reason a value does not conform: where (``body.tags[0]``) and why; ``location`` is, as
    keys and indexes, the part that breaks the schema as a whole: the same place, or for a value
    that fails inside a nullable one (``ids: [2]`` for an array of strings or null, ``ids[0]``
    shown), the nullable value (``ids``), which null may replace, and ``inner`` the rest (``0``)."""

    path: str
    message: str
    location: Path = ()
    inner: Path = ()
    # the keyword the value breaks ("pattern", "type", ...), where it is known
    keyword: str = ""


def format_path(path: Path) -> str:
    """``("body", "tags", 0)`` → ``body.tags[0]``; odd keys are quoted: ``body["a b"]``."""
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENT.match(part):
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


def _show(value: Any) -> str:
    """The value as short JSON for a message (strings quoted, like the library's own messages)."""
    if isinstance(value, str):
        value = value[: _SHOWN_CHARS + 1]
    text = ""
    try:
        # encoded piece by piece and cut short: a failing body may be megabytes of JSON
        for chunk in _ENCODER.iterencode(value):
            text += chunk
            if len(text) > _SHOWN_CHARS:
                break
    except ValueError:  # a circular structure
        text = type(value).__name__
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


@cache
def _library() -> Any:
    # imported on first use: loading the extension costs start-up time a listing never needs
    import jsonschema_rs  # noqa: PLC0415

    return jsonschema_rs


def _refuse_retrieval(resources: Mapping[str, Any]) -> Callable[[str], Any]:
    def retrieve(uri: str) -> Any:
        document = resources.get(uri, resources.get(uri.rstrip("#")))
        if document is None:
            raise LookupError(f"{uri} is not part of this schema (nothing is ever fetched)")
        return document

    return retrieve


class Validator:
    """Validates JSON values against one schema; compile once, call ``issues`` many times.

    ``resources`` maps the URIs of other schema documents the schema may ``$ref`` to their contents
    (the default: none, every such reference is a ``SchemaError``).
    """

    __slots__ = ("_branches", "_compiled", "_integer_texts", "_resources", "_root")

    def __init__(
        self, schema: Mapping[str, Any] | bool, *, resources: Mapping[str, Any] | None = None
    ) -> None:
        self._root: Any = schema
        self._resources = resources or {}
        self._compiled = _compile(schema, self._resources)
        # validators of the non-null branches of nullable values, by their place in the schema
        self._branches: dict[Path, Validator | None] = {}
        # whether any integer is written as a string here: most schemas have none, and their
        # calls are then never validated twice (``integers_as_text``)
        self._integer_texts = bool(_INTEGER_FORMAT.search(json.dumps(schema, default=str)))

    def issues(self, instance: Any, limit: int = 10) -> list[ValidationIssue]:
        """Up to ``limit`` reasons ``instance`` does not conform ([] when it does)."""
        found: list[ValidationIssue] = []
        try:
            for error in self._compiled.iter_errors(instance):
                location: Path = tuple(error.instance_path)
                inner = self._inside_nullable(error)
                # why from inside the value, where it is; null stands in for the whole value
                for issue in inner:
                    below = (*issue.location, *issue.inner)
                    where = format_path((*location, *below))
                    found.append(
                        ValidationIssue(where, issue.message, location, below, issue.keyword)
                    )
                if not inner:
                    message = self._message(error)
                    keyword = type(error.kind).__name__.lower()
                    found.append(
                        ValidationIssue(format_path(location), message, location, (), keyword)
                    )
                if len(found) >= max(1, limit):
                    break
        except (ValueError, TypeError, RecursionError) as exc:
            # not JSON data at all (a set, an object, a structure nested beyond reason)
            return [ValidationIssue("", f"the value cannot be validated as JSON: {exc}")]
        return found[: max(1, limit)]

    def _inside_nullable(self, error: Any) -> list[ValidationIssue]:
        """Why a value fails the one branch of a union that is of its type, from inside it: a
        nullable schema's other branch (``ids[0]: 2 is not of type "string"``), or the object of
        NocoDB's ``oneOf [record, array of records]`` (``body.Count: "abc" is not of type
        "integer"``), not "not valid under any of the schemas"; [] when the failure is not of
        that kind, or the value's own type is already wrong."""
        failed = error.message in (f"{_MASK}{_ANY_OF_FAILED}", f"{_MASK}{_ONE_OF_FAILED}")
        if not failed or error.instance is None:
            return []
        at: Path = tuple(error.schema_path)[:-1]
        node = _node_at(self._root, at)
        kinds = _nullable_kinds(node)
        if kinds and json_type(error.instance) not in kinds:
            return []  # the message names the types admitted
        tagged = self._tagged(node, error.instance)
        if isinstance(tagged, ValidationIssue):
            return [tagged]
        key = (*at, json_type(error.instance), -1 if tagged is None else tagged)
        if key not in self._branches:
            self._branches[key] = self._branch(node, json_type(error.instance), tagged)
        branch = self._branches[key]
        return [] if branch is None else branch.issues(error.instance, limit=3)

    def _tagged(self, node: Any, instance: Any) -> int | ValidationIssue | None:
        """Of a union whose object branches each fix a property (``type: {enum: [webhook]}``,
        n8n's log stream destinations; a ``const``), the index of the one branch ``instance``
        names by it; an issue naming the values it takes when ``instance`` names none; ``None``
        when the union is no such one."""
        branches = next(
            (node[k] for k in ("anyOf", "oneOf") if isinstance(node, dict) and k in node), None
        )
        if not isinstance(instance, dict) or not isinstance(branches, list):
            return None
        tags = [self._fixed(b) for b in branches if b != {"type": "null"}]
        names = set.intersection(*(set(t) for t in tags)) if len(tags) > 1 else set()
        name = min(names, default=None)  # a property every branch fixes
        if name is None:
            return None
        named = [i for i, t in enumerate(tags) if name in instance and t[name] == instance[name]]
        if len(named) == 1:
            return named[0]
        if named:
            return None  # two branches share the value: its type tells them apart, or nothing
        values = ", ".join(json.dumps(t[name]) for t in tags)
        if name not in instance:
            return ValidationIssue(
                "", f"{json.dumps(name)} is a required property: one of {values}"
            )
        message = f"{_show(instance[name])} is not one of {values}"
        return ValidationIssue(format_path((name,)), message, (name,))

    def _fixed(self, branch: Any, depth: int = 0) -> dict[str, Any]:
        """The properties ``branch`` (its ``allOf`` parts too) fixes to one value."""
        branch = self._local(branch)
        if not isinstance(branch, Mapping) or depth > 4:
            return {}
        fixed: dict[str, Any] = {}
        for part in branch.get("allOf") or ():
            fixed.update(self._fixed(part, depth + 1))
        properties = branch.get("properties")
        for name, written in properties.items() if isinstance(properties, Mapping) else ():
            schema = self._local(written)
            enum = schema.get("enum") if isinstance(schema, Mapping) else None
            if isinstance(schema, Mapping) and "const" in schema:
                fixed[name] = schema["const"]
            elif isinstance(enum, list) and len(enum) == 1:
                fixed[name] = enum[0]
        return fixed

    def _branch(self, node: Any, kind: str, tagged: int | None = None) -> Validator | None:
        """A validator of the one branch of the union ``node`` that admits values of type
        ``kind`` (or the ``tagged`` one, of those not null), the root's definitions beside it
        (its references point there); ``None`` when not exactly one does."""
        branches = next(
            (node[k] for k in ("anyOf", "oneOf") if isinstance(node, dict) and k in node), None
        )
        if not isinstance(branches, list) or not isinstance(self._root, Mapping):
            return None
        # a structure is told from inside its branch; a scalar's alternatives are said in full
        fitting = [
            b
            for b in branches
            if kind in ("object", "array") and isinstance(b, dict) and _admits(self._local(b), kind)
        ]
        if tagged is not None:
            fitting = [[b for b in branches if b != {"type": "null"}][tagged]]
        elif len(fitting) != 1:
            # a nullable value's other branch, whatever it says of its type (an enum, an allOf)
            fitting = [b for b in branches if b != {"type": "null"}]
            if len(fitting) != 1 or len(branches) != 2 or not isinstance(fitting[0], dict):
                return None
        shared = {k: self._root[k] for k in ("$defs", "definitions") if k in self._root}
        try:
            return Validator({**shared, **fitting[0]}, resources=self._resources)
        except SchemaError:
            return None

    def _message(self, error: Any) -> str:
        """The library's message; for a nullable value (an ``anyOf`` of one type and ``null``,
        as portable schemas spell it) the types it admits, as a ``type`` list would say them."""
        shown = _show(error.instance)
        if error.message == f"{_MASK}{_ANY_OF_FAILED}":
            node = _node_at(self._root, tuple(error.schema_path)[:-1])
            kinds = _nullable_kinds(node)
            if kinds and json_type(error.instance) not in kinds:
                return f"{shown} is not of types {', '.join(json.dumps(k) for k in kinds)}"
            groups = required_groups(node.get("anyOf") if isinstance(node, dict) else None)
            if groups and all(len(group) == 1 for group in groups):
                names = ", ".join(json.dumps(name) for (name,) in groups)
                return f"at least one of {names} is required"
        if error.message in (f"{_MASK}{_ANY_OF_FAILED}", f"{_MASK}{_ONE_OF_FAILED}"):
            node = _node_at(self._root, tuple(error.schema_path)[:-1])
            keyword = "anyOf" if error.message.endswith(_ANY_OF_FAILED) else "oneOf"
            branches = node.get(keyword) if isinstance(node, dict) else None
            said = [_said(self._local(b)) for b in branches] if isinstance(branches, list) else []
            if said and all(said):
                return f"{shown} is none of: {'; '.join(said)}"
        return str(error.message).replace(_MASK, shown)

    def integers_as_text(self, instance: Any) -> Any:
        """``instance`` with each integer given where the schema wants one written as a string
        (``type: string, format: int64``: protobuf's 64-bit numbers in JSON, Google's APIs, etcd)
        written so, its decimal text being all that string may hold; ``instance`` itself when
        there is none. A model reads "int64" and writes a number: that is no reason to refuse."""
        if not self._integer_texts or self.is_valid(instance):
            return instance
        places: list[Path] = []
        try:
            for error in self._compiled.iter_errors(instance):
                value = error.instance
                if isinstance(value, bool) or not isinstance(value, int):
                    continue
                node = _node_at(self._root, tuple(error.schema_path)[:-1])
                if any(_integer_text(self._local(branch)) for branch in _alternatives(node)):
                    places.append(tuple(error.instance_path))
        except (ValueError, TypeError, RecursionError):
            return instance
        for place in places:
            instance = _written_at(instance, place)
        return instance

    def numbers_as_booleans(self, instance: Any) -> Any:
        """``instance`` with each 0 or 1 where the schema wants a boolean and no number read as
        false or true: SQLite and MySQL keep booleans as integers, and NocoDB answers a checkbox
        so; ``instance`` itself when there is none."""
        if self.is_valid(instance):
            return instance
        places: list[Path] = []
        try:
            for error in self._compiled.iter_errors(instance):
                value = error.instance
                if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
                    continue
                node = _node_at(self._root, tuple(error.schema_path)[:-1])
                if any(_boolean_only(self._local(branch)) for branch in _alternatives(node)):
                    places.append(tuple(error.instance_path))
        except (ValueError, TypeError, RecursionError):
            return instance
        for place in places:
            instance = _written_at(instance, place, bool)
        return instance

    def fails_at(self, instance: Any, key: str) -> bool:
        """Whether ``instance`` (an object) breaks the schema at its member ``key`` or inside it."""
        try:
            return any(
                tuple(error.instance_path)[:1] == (key,)
                for error in self._compiled.iter_errors(instance)
            )
        except (ValueError, TypeError, RecursionError):
            return True

    def _local(self, node: Any) -> Any:
        """``node``, or what its local ``$ref`` (``#/$defs/Id``) points to."""
        ref = node.get("$ref") if isinstance(node, Mapping) else None
        if isinstance(ref, str) and ref.startswith("#/"):
            steps = (s.replace("~1", "/").replace("~0", "~") for s in ref[2:].split("/"))
            return _node_at(self._root, tuple(steps))
        return node

    def is_valid(self, instance: Any) -> bool:
        try:
            return bool(self._compiled.is_valid(instance))
        except (ValueError, TypeError, RecursionError):
            return False

    @property
    def schema(self) -> Any:
        """The schema this validator checks against, as given."""
        return self._root


_ANY_OF_FAILED = " is not valid under any of the schemas listed in the 'anyOf' keyword"
_ONE_OF_FAILED = " is not valid under any of the schemas listed in the 'oneOf' keyword"
# what a branch may hold and still be said in full by its type and values
_SAID_KEYWORDS = frozenset({"type", "enum", "const", "format", "title", "description", "example"})


def _said(branch: Any) -> str:
    """A branch of an ``anyOf`` said in a few words ("integer", "\"previous\""), when its type
    and values are all it asks; "" when it asks more (its message then stays the library's)."""
    if not isinstance(branch, Mapping) or not branch or not set(branch) <= _SAID_KEYWORDS:
        return ""
    values = [branch["const"]] if "const" in branch else branch.get("enum")
    if isinstance(values, list) and values:
        return " or ".join(_show(value) for value in values[:8]) + (
            " ..." if len(values) > 8 else ""
        )
    kind = branch.get("type")
    kinds = [k for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str)]
    return " or ".join(kinds)


def _admits(branch: Any, kind: str) -> bool:
    """Whether ``branch`` says it takes values of JSON type ``kind`` (an integer is a number)."""
    declared = branch.get("type") if isinstance(branch, Mapping) else None
    kinds = declared if isinstance(declared, list) else [declared]
    return kind in kinds or (kind == "integer" and "number" in kinds)


def _node_at(schema: Any, path: Path) -> Any:
    """The part of ``schema`` at ``path`` (``None`` when there is none)."""
    node = schema
    for step in path:
        if isinstance(node, Mapping) and isinstance(step, str):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            return None
    return node


# the formats of an integer written as a string
_INTEGER_FORMATS = frozenset({"int32", "int64", "uint32", "uint64"})
_INTEGER_FORMAT = re.compile(r'"format": "u?int(?:32|64)"')


def _alternatives(node: Any) -> list[Any]:
    """``node`` and the branches of its ``anyOf``/``oneOf`` (a nullable one, as portable schemas
    spell it)."""
    found = [node]
    for keyword in ("anyOf", "oneOf"):
        branches = node.get(keyword) if isinstance(node, Mapping) else None
        if isinstance(branches, list):
            found += branches
    return found


def _integer_text(node: Any) -> bool:
    if not isinstance(node, Mapping) or node.get("format") not in _INTEGER_FORMATS:
        return False
    kind = node.get("type")
    return kind == "string" or (
        isinstance(kind, list) and "string" in kind and "integer" not in kind
    )


def _written_at(value: Any, place: Path, write: Callable[[Any], Any] = str) -> Any:
    """A copy of ``value`` with what is at ``place`` written anew: an integer as its decimal
    text (``write``: ``bool``, a 0 or 1 as false or true)."""
    if not place:
        return write(value)
    head, rest = place[0], place[1:]
    if isinstance(value, dict) and isinstance(head, str) and head in value:
        return {**value, head: _written_at(value[head], rest, write)}
    if isinstance(value, list) and isinstance(head, int) and 0 <= head < len(value):
        return [*value[:head], _written_at(value[head], rest, write), *value[head + 1 :]]
    return value


def _boolean_only(node: Any) -> bool:
    """Whether ``node`` takes booleans and no number."""
    declared = node.get("type") if isinstance(node, Mapping) else None
    kinds = declared if isinstance(declared, list) else [declared]
    return "boolean" in kinds and not {"integer", "number"} & set(kinds)


def required_groups(branches: Any) -> list[list[str]] | None:
    """``[["id"], ["owner", "repo"]]`` of ``[{required: [id]}, {required: [owner, repo]}]`` (a body
    that needs one field at least, or one of two ways to name a thing); ``None`` when a branch says
    more than which names it needs."""
    if not isinstance(branches, list) or not branches:
        return None
    groups = []
    for branch in branches:
        required = branch.get("required") if isinstance(branch, dict) else None
        if set(branch) != {"required"} or not isinstance(required, list) or not required:
            return None
        groups.append([str(name) for name in required])
    return groups


def _nullable_kinds(schema: Any) -> list[str]:
    """``["null", "integer"]`` for a nullable schema spelled the portable way (``null`` first, as
    the library's own messages list types); [] otherwise."""
    kind = unwrap_nullable(schema).get("type") if isinstance(schema, dict) else None
    if not isinstance(kind, list):
        return []
    return ["null", *(each for each in kind if each != "null")]


def json_type(value: Any) -> str:
    """The JSON Schema type of a JSON value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _compile(schema: Any, resources: Mapping[str, Any]) -> jsonschema_rs.Validator:
    if not isinstance(schema, Mapping | bool):
        raise SchemaError(f"a schema must be an object or a boolean, got {_show(schema)}")
    library = _library()
    retriever = _refuse_retrieval(resources)
    try:
        # known documents go into a registry: that is also where custom meta-schemas must be
        registry = (
            library.Registry(list(resources.items()), retriever=retriever) if resources else None
        )
        return library.Draft202012Validator(  # type: ignore[no-any-return]
            dict(schema) if isinstance(schema, Mapping) else schema,
            validate_formats=False,
            pattern_options=library.RegexOptions(),
            retriever=retriever,
            registry=registry,
            mask=_MASK,
        )
    except library.ValidationError as exc:
        message = exc.message.replace(_MASK, _show(exc.instance))
        # a meta-schema failure says where; a reference that resolves nowhere does not
        location = tuple(exc.instance_path) or _reference_named(schema, message)
    except (library.ReferencingError, ValueError, TypeError, RecursionError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        location = _reference_named(schema, message)
    where = f" (at {_pointer(location)})" if location else ""
    raise SchemaError(f"{message}{where}", location)


def _reference_named(schema: Any, message: str) -> Path:
    """Where the ``$ref`` a reference error names sits in ``schema`` (``()``: none found)."""
    stack: list[tuple[Any, Path]] = [(schema, ())]
    while stack:
        node, at = stack.pop()
        if isinstance(node, Mapping):
            for keyword in ("$ref", "$dynamicRef"):
                ref = node.get(keyword)
                if not isinstance(ref, str) or not ref:
                    continue
                if any(n and n in message for n in (ref, ref.lstrip("#"), ref.split("#")[0])):
                    return (*at, keyword)
            stack.extend((value, (*at, key)) for key, value in node.items())
        elif isinstance(node, list):
            stack.extend((value, (*at, index)) for index, value in enumerate(node))
    return ()


def unwrap_nullable(schema: Any) -> Any:
    """``schema`` read as its type says, when it is spelled the portable way: a schema without a
    ``type`` whose ``anyOf`` is one branch and ``{"type": "null"}`` reads as that branch merged with
    the keywords beside it, its ``type`` a list with ``"null"`` (the generator spells nullable
    values so for every client; the code that asks "what type is this?" reads them here)."""
    if not isinstance(schema, dict) or "type" in schema:
        return schema
    branches = schema.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2 or {"type": "null"} not in branches:
        return schema
    other = branches[0] if branches[1] == {"type": "null"} else branches[1]
    if not isinstance(other, dict) or not isinstance(other.get("type"), str):
        return schema
    merged = {key: value for key, value in schema.items() if key != "anyOf"}
    merged.update(other)
    merged["type"] = [other["type"], "null"]
    return merged
