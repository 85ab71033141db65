"""RFC 6570 URI templates, as MCP resource templates use them: expansion and matching.

Supported expressions are the ones a generated server advertises: simple ``{var}``, reserved
``{+var}``, path segments ``{/var}``, query ``{?a,b}`` and query continuation ``{&a,b}``; several
variables may share an expression. Other operators and the ``*`` / ``:n`` modifiers are rejected
with a ``ValueError`` that names the position, as are malformed templates. Matching turns a concrete
URI back into percent-decoded variables: ``{var}`` and ``{/var}`` values are non-empty and never
contain ``/``; query variables are optional, may come in any order, and an unknown query key means
no match. A query key given more than once (``?tag=a&tag=b``, the form style an API's arrays take)
matches as the list of its values, in order. A value written with bare commas (``?p=5,95``) is the
list RFC 6570 expands a list to, kept as :class:`Listed` (its decoded items); an encoded comma
(``%2C``) is a character of the value (TiTiler's ``rescale=-1000%2C1000`` is one item). Query
expressions must therefore end the template. Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

__all__ = ["Listed", "Matched", "UriTemplate", "query_hint", "slash_hint"]

_VARNAME = re.compile(
    r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*\Z"
)
_UNRESERVED = "-._~"
# reserved characters RFC 6570 lets through in {+var} (gen-delims and sub-delims)
_RESERVED = _UNRESERVED + ":/?#[]@!$&'()*+,;="
_OPERATORS = {"": "", "+": "+", "/": "/", "?": "?", "&": "&"}
_UNSUPPORTED = set("#.;=,!@|")


class Listed(list[str]):
    """A matched value written with bare commas, as its decoded items: a list where the
    variable's schema takes one, else one value with its commas (see the module)."""


# what a variable matched: its text, the items written with bare commas, or a query key's values
Matched = str | list[str] | list[str | Listed]


@dataclass(frozen=True, slots=True)
class _Expression:
    operator: str  # "", "+", "/", "?" or "&"
    names: tuple[str, ...]
    position: int


def _text(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _encode(text: str, reserved: bool) -> str:
    if reserved:
        # keep existing %XX triplets and reserved characters as they are (RFC 6570 §3.2.3)
        parts = re.split(r"(%[0-9A-Fa-f]{2})", text)
        return "".join(p if i % 2 else quote(p, safe=_RESERVED) for i, p in enumerate(parts))
    return quote(text, safe=_UNRESERVED)


def _parse(template: str) -> list[str | _Expression]:
    parts: list[str | _Expression] = []
    literal_start = 0
    i = 0
    while i < len(template):
        char = template[i]
        if char == "}":
            raise ValueError(f"unmatched '}}' at position {i} in URI template {template!r}")
        if char != "{":
            i += 1
            continue
        end = template.find("}", i)
        if end < 0:
            raise ValueError(f"unclosed '{{' at position {i} in URI template {template!r}")
        if i > literal_start:
            parts.append(template[literal_start:i])
        parts.append(_expression(template, i, template[i + 1 : end]))
        i = literal_start = end + 1
    if literal_start < len(template):
        parts.append(template[literal_start:])
    return parts


def _expression(template: str, position: int, body: str) -> _Expression:
    where = f"at position {position} in URI template {template!r}"
    operator = body[:1] if body[:1] in _OPERATORS or body[:1] in _UNSUPPORTED else ""
    if operator in _UNSUPPORTED:
        raise ValueError(f"operator {operator!r} {where} is not supported")
    names = body[len(operator) :].split(",")
    for name in names:
        if "{" in name:
            raise ValueError(f"nested '{{' {where}")
        if name.endswith("*") or ":" in name:
            raise ValueError(f"modifier in {name!r} {where} is not supported")
        if not _VARNAME.match(name):
            raise ValueError(f"invalid variable name {name!r} {where}")
    return _Expression(operator, tuple(names), position)


class UriTemplate:
    """One RFC 6570 template: ``expand`` values into a URI, ``match`` a URI back into values."""

    def __init__(self, template: str) -> None:
        self.template = template
        self._parts = _parse(template)
        expressions = [p for p in self._parts if isinstance(p, _Expression)]
        self.variables: tuple[str, ...] = tuple(
            dict.fromkeys(n for e in expressions for n in e.names)
        )
        self._reserved = {n for e in expressions if e.operator == "+" for n in e.names}
        self._query: list[str] = []
        path_parts = list(self._parts)
        while path_parts:
            last = path_parts[-1]
            if not isinstance(last, _Expression) or last.operator not in ("?", "&"):
                break
            self._query[:0] = last.names
            path_parts.pop()
        self._fixed_query: dict[str, str] = {}
        tail = path_parts[-1] if path_parts else None
        if self._query and isinstance(tail, str) and "?" in tail:
            # a literal "?k=v" before {&...}: those pairs must be present in a matching URI
            path_parts.pop()
            literal, _, fixed = tail.partition("?")
            path_parts.append(literal)
            for pair in filter(None, fixed.split("&")):
                key, _, value = pair.partition("=")
                self._fixed_query[unquote(key)] = unquote(value)
        position = 0
        for part in path_parts:
            if isinstance(part, _Expression):
                position = part.position
                if part.operator in ("?", "&"):
                    raise ValueError(
                        f"query expression at position {position} must end the URI template "
                        f"{template!r}"
                    )
            elif self._query and "?" in part:
                raise ValueError(
                    f"literal '?' after position {position} must directly precede the query "
                    f"expressions in URI template {template!r}"
                )
        self._regex, self._groups = _compile(path_parts)
        self._path_parts = path_parts

    def __repr__(self) -> str:
        return f"UriTemplate({self.template!r})"

    # -- expansion -----------------------------------------------------------------------------

    def expand(self, values: Mapping[str, Any]) -> str:
        """RFC 6570 expansion; ``None`` and missing values are undefined (left out)."""
        out: list[str] = []
        for part in self._parts:
            if isinstance(part, str):
                out.append(part)
            else:
                out.append(self._expand(part, values))
        return "".join(out)

    def _expand(self, expression: _Expression, values: Mapping[str, Any]) -> str:
        reserved = expression.operator == "+"
        pieces: list[str] = []
        for name in expression.names:
            value = values.get(name)
            if value is None or (isinstance(value, list | tuple | dict) and not value):
                continue
            if isinstance(value, dict):
                items = [_text(x) for pair in value.items() for x in pair]
            elif isinstance(value, list | tuple):
                items = [_text(x) for x in value]
            else:
                items = [_text(value)]
            text = ",".join(_encode(item, reserved) for item in items)
            if expression.operator in ("?", "&"):
                text = f"{name}={text}"
            pieces.append(text)
        if not pieces:
            return ""
        if expression.operator == "/":
            return "/" + "/".join(pieces)
        if expression.operator in ("?", "&"):
            return expression.operator + "&".join(pieces)
        return ",".join(pieces)

    @property
    def literal_length(self) -> int:
        """How much of the template's path is literal text: of two a URI fits, the one saying
        more of it literally is the more specific."""
        return sum(len(part) for part in self._path_parts if isinstance(part, str))

    # -- matching ------------------------------------------------------------------------------

    def match(self, uri: str) -> dict[str, Matched] | None:
        """The variables that expand to ``uri`` (percent-decoded), or None when it does not fit;
        a query key given more than once, as the list of its values."""
        path, sep, query = uri.partition("?") if self._query else (uri, "", "")
        found = self._regex.fullmatch(path)
        if found is None:
            return None
        result: dict[str, Matched] = {}
        for index, name in enumerate(self._groups):
            # an encoded slash is the value's own (an id "m/x" expands to "m%2Fx"): the upstream
            # request keeps it inside its path segment, and refuses dot segments
            decoded = _decode_value(found.group(f"g{index}"))
            if decoded is None:
                return None
            if result.setdefault(name, decoded) != decoded:
                return None
        if sep and not self._match_query(query, result):
            return None
        if not sep and self._fixed_query:
            return None
        return result

    def slashed(self, uri: str) -> str | None:
        """The variable that would hold a ``/`` were ``uri`` to fit this template (FastAPI's
        ``{path:path}``: ``…/files/a/b.txt`` for ``…/files/{path}``), or None."""
        path = uri.partition("?")[0] if self._query else uri
        regex, groups = _compile(self._path_parts, slashes=True)
        found = regex.fullmatch(path)
        if found is None:
            return None
        return next((n for i, n in enumerate(groups) if "/" in found.group(f"g{i}")), None)

    def _match_query(self, query: str, result: dict[str, Matched]) -> bool:
        fixed = dict(self._fixed_query)
        given: dict[str, list[str | Listed]] = {}
        for pair in query.split("&") if query else []:
            raw_key, _, raw_value = pair.partition("=")
            key, value = _decode(raw_key), _decode_value(raw_value)
            if key is None or value is None:
                return False
            if key in fixed:
                if key in given or fixed[key] != _joined(value):
                    return False
                given[key] = [_joined(value)]
            elif key in self._query and key not in result:
                given.setdefault(key, []).append(value)
            else:
                return False
        for key, values in given.items():
            if key not in fixed:
                result[key] = values[0] if len(values) == 1 else values
        return given.keys() >= fixed.keys()


def _compile(
    parts: list[str | _Expression], *, slashes: bool = False
) -> tuple[re.Pattern[str], list[str]]:
    pattern: list[str] = []
    groups: list[str] = []
    for part in parts:
        if isinstance(part, str):
            pattern.append(re.escape(part))
            continue
        segment = {"": "[^/?#,]+", "+": "[^?#]+", "/": "[^/?#]+"}[part.operator]
        if len(part.names) == 1 and part.operator == "":
            segment = "[^?#]+?" if slashes else "[^/?#]+"
        captures = []
        for name in part.names:
            captures.append(f"(?P<g{len(groups)}>{segment})")
            groups.append(name)
        if part.operator == "/":
            pattern.append("/" + "/".join(captures))
        else:
            pattern.append(",".join(captures))
    return re.compile("".join(pattern), re.DOTALL), groups


def _decode(raw: str) -> str | None:
    try:
        return unquote(raw, errors="strict")
    except UnicodeDecodeError:
        return None


def _joined(value: str | Listed) -> str:
    return ",".join(value) if isinstance(value, Listed) else value


def _decode_value(raw: str) -> str | Listed | None:
    """A value as decoded text, or as :class:`Listed` items where bare commas separate them."""
    if "," not in raw:
        return _decode(raw)
    items = [_decode(part) for part in raw.split(",")]
    return None if None in items else Listed(item for item in items if item is not None)


def slash_hint(templates: Iterable[UriTemplate], uri: str) -> str:
    """Why ``uri`` fits none of ``templates`` when it would fit one but for a ``/`` in a value
    (``""`` otherwise): a value's own slash is written ``%2F``."""
    for template in templates:
        name = template.slashed(uri)
        if name is not None:
            return (
                f"{name}: a value of {template.template} holds no '/'; write one of its own as %2F"
            )
    return ""


def query_hint(templates: Iterable[UriTemplate], uri: str) -> str:
    """Why ``uri`` fits none of ``templates`` when its path fits one whose query does not take a
    key it gives (``""`` otherwise): Feast's ``…/entities?project=repo&bogus=1``."""
    path, sep, query = uri.partition("?")
    if not sep:
        return ""
    for template in templates:
        if template._regex.fullmatch(path) is None:
            continue
        keys = [_decode(pair.partition("=")[0]) for pair in query.split("&") if pair]
        taken = set(template._query) | set(template._fixed_query)
        unknown = [key for key in dict.fromkeys(keys) if key is not None and key not in taken]
        if unknown:
            takes = ", ".join(template._query) or "no query"
            return (
                f"{', '.join(unknown)}: not a parameter of {template.template} (it takes {takes})"
            )
    return ""
