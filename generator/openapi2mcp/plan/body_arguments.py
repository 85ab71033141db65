"""A tool's arguments for an operation's request body: its properties flattened into arguments
where the body is an object that can be so (renamed where a parameter has the name), else one
argument for the whole body; the body's root constraints lifted into the tool's input schema; and
what an optional, flattened body needs once any of its fields is given."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import Report
from ..ir.bodies import is_encoded_form
from ..ir.model import Api, Operation
from ..ir.operation_parts import base_media_type, is_json_type
from ..ir.schema_utils import json_type, merged_all_of, non_null
from ..render.examples import conforms
from . import naming
from .model import Argument

# a body's root keywords that constrain its properties together (see _body_constraints)
_LIFTABLE = (
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "minProperties",
    "maxProperties",
)
_NOT_LIFTABLE = frozenset(
    {"$ref", "additionalProperties", "unevaluatedProperties", "patternProperties", "$defs"}
)


def body_arguments(
    api: Api, op: Operation, taken: set[str], py_names: naming.Namer, report: Report
) -> list[Argument]:
    body = op.body
    assert body is not None
    resolved = _resolved(api, op)
    properties = resolved.get("properties")
    constraints = _body_constraints(resolved)
    flattenable = (
        json_type(resolved, api.input_schemas) == "object"
        and isinstance(properties, Mapping)
        and properties
        and constraints is not None
        and (body.required or not constraints)
        and not (taken and _counts_beyond_one(constraints))
        and resolved.get("additionalProperties") in (None, False)
    )
    renamed = _renamed_body_properties(resolved, taken, body.required, constraints)
    if flattenable and renamed is not None and isinstance(properties, Mapping):
        required = set(resolved.get("required", ())) if body.required else set()
        arguments: list[Argument] = []
        for prop, schema in properties.items():
            called: str = renamed.get(prop) or prop
            py = py_names.claim(naming.python_identifier(called), seed=prop)
            clashed = renamed.get(prop, prop) != naming.argument_name(prop)
            shown = _as_body_field(schema, prop) if clashed else schema
            arguments.append(Argument(called, py, "body_property", prop, prop in required, shown))
        return arguments + _undefined_required(op, resolved, taken, py_names, report)
    name = "body" if "body" not in taken else "request_body"
    schema = dict(body.schema)
    if body.description and "description" not in schema:
        schema["description"] = body.description
    if is_encoded_form(body) and "description" not in schema:
        schema["description"] = "The form itself, encoded: name=value pairs joined by &."
    py = py_names.claim(naming.python_identifier(name), seed=name)
    needed = body.required and not empty_by_default(op, api.input_schemas)
    return [Argument(name, py, "body", "", needed, schema)]


def _resolved(api: Api, op: Operation) -> Mapping[str, Any]:
    """The body's schema with its ``allOf`` merged, and without the ``null`` a body that may be
    left out admits (FastAPI's optional bodies, ``anyOf: [{$ref: ListUsersRequest}, {type:
    null}]``): flattened like any object, and sent only once a field of it is given."""
    assert op.body is not None
    return merged_all_of(non_null(op.body.schema), api.input_schemas)


def empty_by_default(op: Operation, defs: Mapping[str, Any]) -> bool:
    """Whether the operation's required JSON body may be left out and sent as ``{}``: its schema
    takes an empty object (etcd's empty request messages, ``{type: object}``; AWS's; 64 APIs.guru
    documents, 195 operations), as a flattened body with no field given is sent. Not for a PUT,
    where ``{}`` may replace what is there with nothing."""
    body = op.body
    if body is None or not body.required or op.method == "PUT":
        return False
    is_object = json_type(merged_all_of(body.schema, defs), defs) == "object"
    return is_json_type(body.content_type) and is_object and conforms(body.schema, {}, defs)


def _undefined_required(
    op: Operation,
    resolved: Mapping[str, Any],
    taken: set[str],
    py_names: naming.Namer,
    report: Report,
) -> list[Argument]:
    """Arguments for what a flattened body requires without defining it (Box's token revocation
    requires ``grant_type``, which its properties leave out): the API asks for it, so the tool
    takes it (text in a form, any value but null in JSON). Where the body admits no other
    property (Jira's security-level members), no request can satisfy it; the requirement is left
    out, with a warning."""
    properties = resolved.get("properties") or {}
    required = resolved.get("required")
    if op.body is None or not isinstance(required, list):
        return []
    undefined = [n for n in dict.fromkeys(required) if isinstance(n, str) and n not in properties]
    if not undefined:
        return []
    at = f"{op.pointer}/requestBody"
    shown = ", ".join(repr(name) for name in undefined)
    if resolved.get("additionalProperties") is False or any(n in taken for n in undefined):
        report.warn(
            "body-required-undefined",
            at,
            f"the request body requires {shown}, which its properties do not define and it cannot "
            "carry: no request satisfies the document; the requirement is left out",
        )
        return []
    report.warn(
        "body-required-undefined",
        at,
        f"the request body requires {shown}, which its properties do not define: the tool takes "
        f"{'each' if len(undefined) > 1 else 'it'} as an argument",
    )
    said: dict[str, Any] = {
        "description": "Required by the API; its description says nothing more about it.",
        # a form or multipart field is text; a JSON value anything but null (it is required)
        "type": "string" if _is_form(op.body.content_type) else [*_NOT_NULL],
    }
    return [
        Argument(
            name,
            py_names.claim(naming.python_identifier(name), seed=name),
            "body_property",
            name,
            op.body.required,  # an optional body needs it once any of its fields is given
            dict(said),
        )
        for name in undefined
    ]


_NOT_NULL = ("object", "array", "string", "number", "boolean")


def _is_form(content_type: str) -> bool:
    return base_media_type(content_type) in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    )


def _renamed_body_properties(
    resolved: Mapping[str, Any],
    taken: set[str],
    required_body: bool,
    constraints: Mapping[str, Any] | None,
) -> dict[str, str] | None:
    """The body's properties named as a parameter is (``project_id`` in the path and in the body,
    as FastAPI's update models have it), each with its argument's name (``body_project_id``), and
    those whose names function calling does not take (``input_keys[]`` is ``input_keys``); ``None``
    when the body cannot be flattened so: its root constraints or, in an optional body, its
    ``required`` would name a property by the name it no longer has as an argument."""
    properties = resolved.get("properties")
    names: dict[str, str] = {}
    for prop in properties if isinstance(properties, Mapping) else ():
        portable = naming.argument_name(prop)
        if portable in taken:
            names[prop] = f"body_{portable}"
        elif portable != prop:
            names[prop] = portable  # `input_keys[]` is `input_keys`
    if not names:
        return {}
    needed = resolved.get("required") if not required_body else None
    if constraints or (isinstance(needed, list) and set(needed) & set(names)):
        return None
    given = list(names.values())
    kept = set(properties or ()) - set(names)
    if taken.intersection(given) or kept.intersection(given) or len(set(given)) < len(given):
        return None
    return names


def _as_body_field(schema: Any, prop: str) -> Any:
    """The schema of a body property renamed as an argument, saying which field it sets."""
    if not isinstance(schema, Mapping) or "description" in schema:
        return schema
    return {**schema, "description": f"The request body's {prop!r} (not the parameter {prop!r})"}


def _body_constraints(resolved: Mapping[str, Any]) -> dict[str, Any] | None:
    """A flattened body's own root constraints, which the tool's input schema takes over.

    ``allOf: [{anyOf: [{required: [phone]}, {required: [email]}]}]`` or ``if``/``then``/``else`` about
    the body's properties still hold once those properties are the tool's arguments (they keep their
    names). ``None`` when they cannot move safely: a reference or a property-set keyword inside them
    could say something about the whole body that is false of the whole argument object.
    """
    lifted = {key: resolved[key] for key in _LIFTABLE if key in resolved}
    return None if _mentions(lifted, _NOT_LIFTABLE) else lifted


def _counts_beyond_one(constraints: Mapping[str, Any]) -> bool:
    """Whether the body's root counts its properties in a way the tool's arguments cannot say
    once other arguments (path, query...) stand beside them: a maximum, or a minimum above one (a
    minimum of one becomes "one of these arguments at least", see ``_lifted``)."""
    least = constraints.get("minProperties", 0)
    return "maxProperties" in constraints or not isinstance(least, int) or least > 1


def _mentions(value: Any, keys: frozenset[str]) -> bool:
    if isinstance(value, Mapping):
        return any(k in keys or _mentions(v, keys) for k, v in value.items())
    if isinstance(value, list):
        return any(_mentions(item, keys) for item in value)
    return False


def lifted(api: Api, op: Operation, arguments: tuple[Argument, ...]) -> dict[str, Any]:
    if op.body is None or not any(a.source == "body_property" for a in arguments):
        return {}
    lifted = dict(_body_constraints(_resolved(api, op)) or {})
    if lifted.get("minProperties") == 1 and any(a.source != "body_property" for a in arguments):
        # "at least one field" of a body is at least one of its arguments, not of all the
        # tool's (a PATCH with the path's id and nothing else would send {})
        del lifted["minProperties"]
        fields = [a.name for a in arguments if a.source == "body_property"]
        some = [{"required": [name]} for name in fields]
        if "anyOf" in lifted or "allOf" in lifted:
            lifted["allOf"] = [*lifted.get("allOf", ()), {"anyOf": some}]
        else:
            lifted["anyOf"] = some
    needs = optional_body_requires(api, op, arguments)
    if needs:
        # an optional body is either left out or sent whole: giving any of its fields requires
        # the ones its schema requires (OpenAPI: required applies to the body when it is sent)
        depends = dict(lifted.get("dependentRequired") or {})
        for argument in arguments:
            if argument.source == "body_property":
                others = [name for name in needs if name != argument.name]
                if others:
                    depends[argument.name] = [*depends.get(argument.name, []), *others]
        if depends:
            lifted["dependentRequired"] = depends
    return lifted


def optional_body_requires(
    api: Api, op: Operation, arguments: tuple[Argument, ...]
) -> tuple[str, ...]:
    """The properties an optional, flattened body must have once any of its fields is given."""
    if op.body is None or op.body.required:
        return ()
    flattened = [a.wire_name for a in arguments if a.source == "body_property"]
    if not flattened:
        return ()
    required = _resolved(api, op).get("required")
    if not isinstance(required, list):
        return ()
    return tuple(name for name in required if name in flattened)
