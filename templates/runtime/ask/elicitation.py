"""The pieces of a question to the user: form fields, answers, and what must never be asked.

``form_field`` turns an argument's JSON Schema into the flat primitive a form elicitation allows
(mcp-wire §6: string with an optional email/uri/date/date-time format, number, integer, boolean,
single-select string enum, multi-select array of string enums), keeping title, description, default
and bounds; anything else (objects, composition, non-string enums) is not form-compatible and gives
``None``. ``secret_arguments`` names the arguments that carry credentials (credential headers and
cookies, the parameter an ``apiKey`` scheme names, ``format: password``, names that say password,
secret, token, API key...): they are never put in a form, which the spec forbids for secrets.
``parse_answer`` checks one client answer (an ``ElicitResult``, a ``CreateMessageResult`` or a
``ListRootsResult``) and reduces it to the small normalised form kept in ``requestState``; anything
malformed is ``AnswerError``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from ..catalog.model import OperationSpec, SecurityScheme
from ..errors import AnswerError as AnswerError  # noqa: PLC0414 - re-exported
from ..jsonschema import SchemaError, Validator, unwrap_nullable
from ..protocol.jsonrpc import JsonObject
from ..sensitive import SECRET_HEADERS, secret_argument
from ..upstream.schemes import ApiKey, strategies

ELICIT: Final = "elicitation/create"
SAMPLE: Final = "sampling/createMessage"
ROOTS: Final = "roots/list"
METHODS: Final = (ELICIT, SAMPLE, ROOTS)
ACTIONS: Final = ("accept", "decline", "cancel")

_FORMATS = frozenset({"email", "uri", "date", "date-time"})
_MAX_TEXT = 500
_MAX_ANSWER_CHARS = 64 * 1024


def client_supports(capabilities: Any, method: str) -> bool:
    """Whether ``capabilities`` (a ``ClientCapabilities`` object) lets us send ``method``.

    Form elicitation needs ``elicitation`` with ``form`` or without any mode (``{}`` means form).
    """
    if not isinstance(capabilities, dict):
        return False
    if method == ELICIT:
        elicitation = capabilities.get("elicitation")
        if not isinstance(elicitation, dict):
            return False
        return "form" in elicitation or "url" not in elicitation
    if method == SAMPLE:
        return isinstance(capabilities.get("sampling"), dict)
    if method == ROOTS:
        return isinstance(capabilities.get("roots"), dict)
    return False


def secret_arguments(
    spec: OperationSpec | None,
    schema: Any,
    schemes: Mapping[str, SecurityScheme],
) -> frozenset[str]:
    """The arguments of a tool that carry credentials, and so are never asked for in a form."""
    secret: set[str] = set()
    api_keys = {
        (scheme.scheme["location"], scheme.scheme["name"].lower())
        for scheme in strategies(schemes).values()
        if isinstance(scheme, ApiKey)
    }
    for parameter in spec["parameters"] if spec is not None else []:
        wire = parameter["name"].lower()
        if (
            (parameter["location"] == "header" and wire in SECRET_HEADERS)
            or (parameter["location"], wire) in api_keys
            or secret_argument(parameter["name"])
        ):
            secret.add(parameter["argument"])
    properties = schema.get("properties") if isinstance(schema, dict) else None
    for name, prop in (properties or {}).items():
        if secret_argument(name) or (isinstance(prop, dict) and prop.get("format") == "password"):
            secret.add(name)
    return frozenset(secret)


def resolve_ref(schema: Any, root: Any) -> Any:
    """``schema`` with a local ``#/$defs/...`` reference followed (one level is all forms need)."""
    if not isinstance(schema, dict) or not isinstance(schema.get("$ref"), str):
        return schema
    ref: str = schema["$ref"]
    if not ref.startswith("#/$defs/") or not isinstance(root, dict):
        return schema
    target = (root.get("$defs") or {}).get(ref.removeprefix("#/$defs/"))
    return target if isinstance(target, dict) else schema


def form_field(schema: Any, name: str, root: Any = None) -> JsonObject | None:
    """The primitive form schema for an argument, or ``None`` when it cannot be one."""
    schema = unwrap_nullable(resolve_ref(schema, root))
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    if "enum" in schema and kind in (None, "string"):
        field = _string_enum(schema.get("enum"))
    elif kind == "array":
        field = _multi_select(schema, resolve_ref(schema.get("items"), root))
    elif kind in _PRIMITIVES:
        field = {"type": kind}
        field.update({k: schema[k] for k in _PRIMITIVES[kind] if _bound(schema.get(k))})
        if kind == "string" and schema.get("format") in _FORMATS:
            field["format"] = schema["format"]
    else:
        return None
    if field is None:
        return None
    field["title"] = _text(schema.get("title")) or humanize(name)
    description = _text(schema.get("description"))
    if description:
        field["description"] = description
    if "default" in schema and _fits(schema["default"], field):
        field["default"] = schema["default"]
    return field


# the primitive types a form allows, with the bounds each keeps
_PRIMITIVES: Final = {
    "string": ("minLength", "maxLength"),
    "number": ("minimum", "maximum"),
    "integer": ("minimum", "maximum"),
    "boolean": (),
}


def _bound(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _string_enum(values: Any) -> JsonObject | None:
    """A single-select: only string values (``null`` dropped) can be offered."""
    if not isinstance(values, list):
        return None
    offered = [v for v in values if v is not None]
    if not offered or not all(isinstance(v, str) for v in offered):
        return None
    return {"type": "string", "enum": offered}


def _multi_select(schema: JsonObject, items: Any) -> JsonObject | None:
    values = items.get("enum") if isinstance(items, dict) else None
    if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
        return None
    field: JsonObject = {"type": "array", "items": {"type": "string", "enum": values}}
    field.update({k: schema[k] for k in ("minItems", "maxItems") if isinstance(schema.get(k), int)})
    return field


def humanize(name: str) -> str:
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).replace("_", " ").replace("-", " ")
    text = " ".join(words.split())
    return text[:1].upper() + text[1:] if text else name


def form_schema(fields: Mapping[str, JsonObject], required: Iterable[str]) -> JsonObject:
    """A ``requestedSchema``: flat properties, and the required ones."""
    schema: JsonObject = {"type": "object", "properties": dict(fields)}
    wanted = [name for name in required if name in fields]
    if wanted:
        schema["required"] = wanted
    return schema


def parse_answer(method: str, raw: Any, requested: JsonObject | None = None) -> JsonObject:
    """One answer, checked and normalised: ``{"action", "content"|"text"|"roots"}``."""
    if not isinstance(raw, dict):
        raise AnswerError("must be an object")
    if method == ELICIT:
        return _elicit_answer(raw, requested)
    if method == SAMPLE:
        return {"action": "accept", "text": _sampled_text(raw)}
    roots = raw.get("roots")
    if not isinstance(roots, list):
        raise AnswerError("must be a ListRootsResult with a roots array")
    uris = [root.get("uri") for root in roots if isinstance(root, dict)]
    if len(uris) != len(roots) or not all(isinstance(uri, str) for uri in uris):
        raise AnswerError("every root needs a uri")
    return {"action": "accept", "roots": uris}


def _elicit_answer(raw: JsonObject, requested: JsonObject | None) -> JsonObject:
    action = raw.get("action")
    if action not in ACTIONS:
        raise AnswerError("action must be accept, decline or cancel")
    if action != "accept":
        return {"action": action}
    content = raw.get("content", {})
    if not isinstance(content, dict):
        raise AnswerError("content must be an object")
    if requested is not None:
        try:
            issues = Validator(requested).issues(content, limit=3)
        except SchemaError as exc:
            # an answer we cannot check is not taken as valid
            raise AnswerError(f"the requested form cannot be checked ({exc})") from None
        if issues:
            problems = "; ".join(f"{i.path or 'content'}: {i.message}" for i in issues)
            raise AnswerError(f"content does not match the requested form ({problems})")
    if len(repr(content)) > _MAX_ANSWER_CHARS:
        raise AnswerError("content is too large")
    return {"action": "accept", "content": content}


def _sampled_text(raw: JsonObject) -> str:
    content = raw.get("content")
    blocks = content if isinstance(content, list) else [content]
    texts = [
        block["text"]
        for block in blocks
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]
    if not texts:
        raise AnswerError("must be a CreateMessageResult with text content")
    text = "\n".join(texts)
    if len(text) > _MAX_ANSWER_CHARS:
        raise AnswerError("the sampled text is too large")
    return text


def _text(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    text = " ".join(value.split())
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"


def _fits(value: Any, field: JsonObject) -> bool:
    kind = field["type"]
    if kind == "string":
        return isinstance(value, str) and ("enum" not in field or value in field["enum"])
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, list) and all(v in field["items"]["enum"] for v in value)
