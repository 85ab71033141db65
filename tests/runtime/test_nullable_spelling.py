"""Code that asks "what type is this?" reads the portable nullable spelling as it read type lists.

The generator spells a nullable value ``anyOf: [X, {"type": "null"}]`` (render/portable.py); the
runtime's template-variable conversion, form fields and structured fallbacks must treat it exactly
as they treated ``type: [X, "null"]``.
"""

from __future__ import annotations

from templates.runtime.ask.elicitation import form_field
from templates.runtime.jsonschema import unwrap_nullable
from templates.runtime.protocol.calls import convert_variable

PORTABLE_BOOL = {"anyOf": [{"type": "boolean"}, {"type": "null"}], "description": "Enforce"}
LIST_BOOL = {"type": ["boolean", "null"], "description": "Enforce"}


def test_a_nullable_branch_reads_as_a_type_list() -> None:
    assert unwrap_nullable(PORTABLE_BOOL) == LIST_BOOL
    # anything else is left as it is
    other = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert unwrap_nullable(other) is other
    assert unwrap_nullable({"type": "string"}) == {"type": "string"}


def test_template_variables_convert_through_the_portable_spelling() -> None:
    number = {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert convert_variable("42", number) == convert_variable("42", {"type": ["integer", "null"]})
    assert convert_variable("42", number) == 42


def test_a_nullable_boolean_is_still_a_form_field() -> None:
    assert form_field(PORTABLE_BOOL, "enforce_admins") == form_field(LIST_BOOL, "enforce_admins")
    assert form_field(PORTABLE_BOOL, "enforce_admins") is not None
