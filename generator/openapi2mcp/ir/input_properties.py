"""What the properties of an object a client sends may leave out, clear with null, or take as default.

This module owns :class:`InputProperties`, which :class:`~openapi2mcp.ir.schemas.SchemaNormaliser`
applies to every object schema it normalises for the ``input`` direction (output schemas keep what
the document says). Four readings, each counted for one summary diagnostic per document:

- a property that is required and has a (non-null) default is optional: the default is what the API
  uses when the value is left out (PostgREST lists every NOT NULL column as required, also
  ``status`` with its default ``'pending'``); a union's discriminator stays required;
- a default that is not a value of its property's schema is not advertised, since a model copying
  it gets the API's 400: PostgREST publishes SQL expressions (``gen_random_uuid()`` for a uuid,
  ``now()`` for a timestamp, ``nextval('...')`` for an integer). The type is checked, and the
  format where it can be (uuid, date, date-time and PostgreSQL's timestamps, an integer written as
  text); a number or boolean written as text is read in its type, as enum members are;
- in a document converted from Swagger 2.0 that says nothing of nulls (no ``x-nullable``), an
  optional property also takes null, spelled as a 3.0 ``nullable: true`` is: 2.0 cannot say a value
  may be null, and an API's nullable fields (PostgREST's nullable columns) are cleared with one.
  Required properties are left alone (PostgREST's NOT NULL columns), also those a default makes
  optional, and so are form fields (a form cannot carry null);
- PostgREST's one-column integer primary key without a default is optional: its document leaves
  out the sequence (``serial``, identity) that fills it (``_sequence_key``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Final

from ..load.refs import Location
from .schema_utils import VALUE_READERS, admits_null, nullable

JsonObject = dict[str, Any]
Say = Callable[[str, Location, str], None]

_UUID: Final = re.compile(r"[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}")
_DATE: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
# RFC 3339, and PostgreSQL's spelling of it (a space for the T, an offset of hours alone)
_DATE_TIME: Final = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?"
)
_INTEGER_TEXT: Final = re.compile(r"[+-]?\d+")
# formats whose strings can be checked here; others (email, text, PostgREST's enum type names)
# are taken as they are
_FORMAT_CHECKS: Final = {
    "uuid": _UUID,
    "date": _DATE,
    "date-time": _DATE_TIME,
    "timestamp": _DATE_TIME,
    "timestamptz": _DATE_TIME,
    "timestamp with time zone": _DATE_TIME,
    "timestamp without time zone": _DATE_TIME,
    "integer": _INTEGER_TEXT,
    "int32": _INTEGER_TEXT,
    "int64": _INTEGER_TEXT,
    "bigint": _INTEGER_TEXT,
    "smallint": _INTEGER_TEXT,
}
_BOOLEAN_TEXT: Final = {"true": True, "false": False}
_FORM_MEDIA: Final = ("application/x-www-form-urlencoded", "multipart/form-data")
_DROPPED: Final = object()


class InputProperties:
    """Relaxes the properties of input object schemas; remembers what it did, by place."""

    def __init__(self, *, optional_nullable: bool = False) -> None:
        self._optional_nullable = optional_nullable
        # pointer -> (place, property name, what it was): each place counted once, however often
        # its schema is normalised
        self._optional: dict[str, tuple[Location, str]] = {}
        self._dropped: dict[str, tuple[Location, Any]] = {}
        self._read: dict[str, tuple[Location, Any]] = {}
        self._nullable: dict[str, tuple[Location, str]] = {}
        self._serial: dict[str, tuple[Location, str]] = {}

    def relax(self, out: JsonObject, value: JsonObject, at: Location) -> None:
        """Apply the readings to ``out``, the input form of the object schema ``value``."""
        properties = out.get("properties")
        if not isinstance(properties, dict):
            return
        required = out.get("required")
        listed: list[str] = required if isinstance(required, list) else []
        optional = self._optional_names(properties, listed, value, at)
        for name, prop in properties.items():
            if isinstance(prop, dict) and prop.get("default") is not None:
                self._check_default(prop, at.child("properties", name))
        if self._optional_nullable and not _in_form(at):
            for name, prop in list(properties.items()):
                if name in listed or not isinstance(prop, dict) or admits_null(prop):
                    continue
                relaxed = nullable(dict(prop))
                if relaxed != prop:  # a schema that constrains nothing takes null already
                    properties[name] = relaxed
                    place = at.child("properties", name)
                    self._nullable.setdefault(place.pointer, (place, name))
        if optional:
            rest = [name for name in listed if name not in optional]
            if rest:
                out["required"] = rest
            else:
                del out["required"]

    def _optional_names(
        self, properties: JsonObject, listed: list[str], value: JsonObject, at: Location
    ) -> list[str]:
        """The required properties that a client may leave out: those with a default (decided
        before defaults are checked: one that is dropped is still the API's to apply) and
        PostgREST's sequence key; each remembered for its diagnostic."""
        kept = _discriminator(value)
        optional = [
            name
            for name in listed
            if name != kept
            and isinstance(properties.get(name), dict)
            and properties[name].get("default") is not None
        ]
        for name in optional:
            place = at.child("properties", name)
            self._optional.setdefault(place.pointer, (place, name))
        serial = _sequence_key(value)
        if serial in listed and serial not in optional and serial != kept:
            optional.append(serial)
            place = at.child("properties", serial)
            self._serial.setdefault(place.pointer, (place, serial))
        return optional

    def summarise(self, say: Say) -> None:
        """One info diagnostic per reading that changed something, at its first place."""
        if self._optional:
            count, (place, name) = len(self._optional), next(iter(self._optional.values()))
            one = count == 1
            say(
                "required-with-default",
                place,
                f"{count} required {'property has' if one else 'properties have'} a default,"
                f" which the API uses when {'it is' if one else 'they are'} left out: optional in"
                f" what tools take {_first(count, repr(name))}",
            )
        if self._dropped:
            count, (place, default) = len(self._dropped), next(iter(self._dropped.values()))
            one = count == 1
            say(
                "default-not-a-value",
                place,
                f"{count} {'default is not a value of its' if one else 'defaults are not values of their'}"
                " property's schema, such as an expression the API computes: not advertised to"
                f" models, which would send {'it' if one else 'them'} {_first(count, _shown(default))}",
            )
        if self._read:
            count, (place, default) = len(self._read), next(iter(self._read.values()))
            one = count == 1
            say(
                "default-read-as-type",
                place,
                f"{count} {'default is' if one else 'defaults are'} written in another type than"
                f" {'its' if one else 'their'} property's: read in that type"
                f" {_first(count, _shown(default))}",
            )
        if self._nullable:
            count, (place, name) = len(self._nullable), next(iter(self._nullable.values()))
            one = count == 1
            say(
                "swagger2-optional-nullable",
                place,
                f"Swagger 2.0 cannot say that a value may be null: {count} optional"
                f" {'property takes' if one else 'properties take'} null too in what tools take,"
                f" so that a model can clear {'it' if one else 'them'} {_first(count, repr(name))}",
            )

        if self._serial:
            count, (place, name) = len(self._serial), next(iter(self._serial.values()))
            one = count == 1
            say(
                "postgrest-sequence-key",
                place,
                f"{count} integer primary {'key' if one else 'keys'} without a default in"
                f" PostgREST's document, which leaves out the"
                f" {'sequence that fills it' if one else 'sequences that fill them'}: optional"
                f" in what tools take {_first(count, repr(name))}",
            )

    def _check_default(self, prop: JsonObject, at: Location) -> None:
        default = prop["default"]
        fixed = _as_value(default, prop)
        if fixed is _DROPPED:
            del prop["default"]
            self._dropped.setdefault(at.pointer, (at, default))
        elif type(fixed) is not type(default) or fixed != default:
            prop["default"] = fixed
            self._read.setdefault(at.pointer, (at, default))


def _as_value(default: Any, prop: JsonObject) -> Any:
    """``default`` as a value of ``prop`` (read in its type where that loses nothing), or
    ``_DROPPED`` when it is none."""
    kinds = _types(prop)
    value = default
    if kinds and not any(_is_of(default, kind) for kind in kinds):
        read = [_read(default, kind) for kind in kinds]
        value = next((item for item in read if item is not None), _DROPPED)
    if isinstance(value, str):
        check = _FORMAT_CHECKS.get(str(_format(prop)).lower())
        if check is not None and not check.fullmatch(value.strip()):
            return _DROPPED
    return value


def _types(prop: JsonObject) -> list[str]:
    """The JSON types ``prop`` allows; ``[]`` when it does not say (no type, or a union of
    branches one of which has none)."""
    kind = prop.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [k for k in kind if isinstance(k, str)]
    branches = prop.get("anyOf")
    if isinstance(branches, list) and branches:
        found = [_types(b) if isinstance(b, dict) else [] for b in branches]
        if all(found):
            return [k for kinds in found for k in kinds]
    return []


def _format(prop: JsonObject) -> Any:
    if "format" in prop:
        return prop["format"]
    branches = prop.get("anyOf")
    formats = [b["format"] for b in branches or () if isinstance(b, dict) and "format" in b]
    return formats[0] if len(formats) == 1 else None


def _is_of(value: Any, kind: str) -> bool:
    match kind:
        case "null":
            return value is None
        case "boolean":
            return isinstance(value, bool)
        case "integer":
            return not isinstance(value, bool) and (
                isinstance(value, int) or (isinstance(value, float) and value.is_integer())
            )
        case "number":
            return not isinstance(value, bool) and isinstance(value, int | float)
        case "string":
            return isinstance(value, str)
        case "array":
            return isinstance(value, list)
        case "object":
            return isinstance(value, dict)
    return True  # a type this module does not know says nothing against the value


def _read(value: Any, kind: str) -> Any:
    if kind == "boolean" and isinstance(value, str):
        return _BOOLEAN_TEXT.get(value.strip().lower())
    reader = VALUE_READERS.get(kind)
    return None if reader is None else reader(value)


def _sequence_key(value: JsonObject) -> str | None:
    """The primary key a sequence fills, in PostgREST's description of a table: its one column
    marked ``<pk/>``, an integer with no default. PostgREST leaves a ``serial`` or identity
    column's default (``nextval(...)``) out of its document, so such a key looks required and
    ``POST /authors {"name": ...}``, which the API answers 201, was refused for want of an id. A
    key of several columns (``book_tags``) is the caller's to give; a key that really has no
    default is refused by the API, which says which column."""
    properties = value.get("properties")
    if not isinstance(properties, dict):
        return None
    keys = [
        name
        for name, prop in properties.items()
        if isinstance(prop, dict) and "<pk/>" in str(prop.get("description", ""))
    ]
    if len(keys) != 1:
        return None
    prop = properties[keys[0]]
    return keys[0] if prop.get("type") == "integer" and "default" not in prop else None


def _discriminator(value: JsonObject) -> str | None:
    """The property a union's discriminator names: it stays required (see ``schemas.py``)."""
    discriminator = value.get("discriminator")
    name = discriminator.get("propertyName") if isinstance(discriminator, dict) else None
    return name if isinstance(name, str) else None


def _in_form(at: Location) -> bool:
    """Whether ``at`` is inside a form body's schema (``.../content/<form type>/schema``)."""
    steps = at.tokens
    return any(
        step == "content" and index + 1 < len(steps) and steps[index + 1].startswith(_FORM_MEDIA)
        for index, step in enumerate(steps)
    )


def _first(count: int, shown: str) -> str:
    """Where the diagnostic points, said in its message."""
    return f"({shown} here)" if count == 1 else f"(the first: {shown} here)"


def _shown(value: Any) -> str:
    """A default as a message shows it: a short string quoted, another value as JSON."""
    shown = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return shown if len(shown) <= 60 else shown[:57] + "..."
