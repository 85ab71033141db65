"""Why a call's arguments are refused, and what is only said of them.

A value that breaks its schema is refused before anything is sent, with every reason, except one
kind: a parameter sent as text in the path or the query whose value breaks only the ``pattern``
its document gives. The API reads that text itself and is the judge of it, and documents' patterns
are often not what their APIs take: Signal K's documents give its resource ids the pattern
``^urn:mrn:signalk:uuid:…`` while the API issues, lists and takes plain UUIDs (and refuses a
``urn:`` id in a PUT), so no route, waypoint or note could be read, changed or deleted by the id
the API itself gave. Such a value is sent as given, and the result says it breaks the pattern. A
body's fields and a header's value keep every check. Stdlib only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..catalog.model import OperationSpec
from ..jsonschema import ValidationIssue

__all__ = ["format_issues", "pattern_note", "split_issues"]

# where a parameter's value is text the API parses itself
_TEXT_PLACES = frozenset({"path", "query"})


def format_issues(tool: str, issues: Iterable[ValidationIssue]) -> str:
    """The refusal of a call, each reason once."""
    said = (f"- {issue.path or '(arguments)'}: {issue.message}" for issue in issues)
    # each once: a body's required fields are said by every branch of its union alike
    return "\n".join([f"Invalid arguments for tool {tool!r}:", *dict.fromkeys(said)])


def split_issues(
    issues: list[ValidationIssue], spec: OperationSpec | None
) -> tuple[list[ValidationIssue], list[ValidationIssue]]:
    """``issues`` as (those that refuse the call, those only said: see the module)."""
    texts = _text_arguments(spec)
    said = [
        issue
        for issue in issues
        if issue.keyword == "pattern" and issue.location[:1] and issue.location[0] in texts
    ]
    return [issue for issue in issues if issue not in said], said


def pattern_note(said: list[ValidationIssue]) -> dict[str, Any] | None:
    """The text block that says which values were sent although they break their pattern."""
    if not said:
        return None
    what = "; ".join(dict.fromkeys(f"{issue.path}: {issue.message}" for issue in said))
    return {
        "type": "text",
        "text": f"[Sent as given, though its document's pattern says otherwise ({what}); the "
        "API judges the values it takes.]",
    }


def _text_arguments(spec: OperationSpec | None) -> set[Any]:
    parameters: Iterable[Mapping[str, Any]] = spec["parameters"] if spec is not None else ()
    return {p["argument"] for p in parameters if p["location"] in _TEXT_PLACES}
