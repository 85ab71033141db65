"""OpenAPI Overlay 1.0: apply ``update``/``remove`` actions to a raw document before parsing.

Users steer generation without forking a spec they do not own: an Overlay's actions select nodes with
JSONPath and merge objects into them (``update``), append to arrays, or remove them. We implement the
JSONPath subset Overlays use in practice (RFC 9535): ``$``, ``.name``, ``['name']``, ``*``, ``..name``,
``[N]``, and filters ``[?@.key]``, ``[?@.key == literal]``, ``!=``, joined with ``&&`` / ``||``.
A target that selects nothing is a warning, an unusable action an error; neither crashes.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Report

Location = tuple[Any, Any]  # (container, key or index); the root is (None, None)
Step = Callable[[Any], Iterator[Location]]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_COMPARE = re.compile(r"^@((?:\.[A-Za-z_][\w\-]*|\['[^']*'\])+)\s*(==|!=)\s*(.+)$")
_EXISTS = re.compile(r"^@((?:\.[A-Za-z_][\w\-]*|\['[^']*'\])+)$")


class JsonPathError(ValueError):
    """The target is not in the supported JSONPath subset."""


@dataclass(frozen=True, slots=True)
class Overlay:
    title: str
    actions: tuple[dict[str, Any], ...]


def parse_overlay(data: Any, report: Report, *, name: str) -> Overlay | None:
    """Validate an Overlay document's shape; problems are errors naming the overlay file."""
    if not isinstance(data, dict) or not str(data.get("overlay", "")).startswith("1.0"):
        report.error(
            "overlay-invalid", "#", f"{name}: not an Overlay 1.0 document (no 'overlay: 1.0.x')"
        )
        return None
    actions = data.get("actions")
    if not isinstance(actions, list) or not actions:
        report.error("overlay-invalid", "#/actions", f"{name}: 'actions' must be a non-empty list")
        return None
    info = data.get("info")
    title = info.get("title", name) if isinstance(info, dict) else name
    return Overlay(str(title), tuple(a for a in actions if isinstance(a, dict)))


def apply_overlay(document: dict[str, Any], overlay: Overlay, report: Report) -> dict[str, Any]:
    """A new document with the overlay's actions applied in order (the input is not modified)."""
    result = copy.deepcopy(document)
    for index, action in enumerate(overlay.actions):
        where = f"{overlay.title}: actions[{index}]"
        target = action.get("target")
        if not isinstance(target, str):
            report.error("overlay-action-invalid", "#", f"{where} has no string 'target'")
            continue
        try:
            locations = select(result, target)
        except JsonPathError as exc:
            report.error("overlay-target-invalid", "#", f"{where}: {exc}")
            continue
        if not locations:
            report.warn("overlay-target-empty", "#", f"{where}: target {target!r} selects nothing")
            continue
        if action.get("remove") is True:
            _remove(locations)
        elif "update" in action:
            for container, key in locations:
                current = result if container is None else container[key]
                merged = _merge(current, action["update"])
                if container is None:
                    result = merged
                else:
                    container[key] = merged
        else:
            report.warn("overlay-action-empty", "#", f"{where} has neither 'update' nor 'remove'")
    return result


def select(document: Any, path: str) -> list[Location]:
    """Locations selected by a JSONPath expression, in document order, without duplicates."""
    steps = _compile(path)
    locations: list[Location] = [(None, None)]
    for step in steps:
        found: list[Location] = []
        for location in locations:
            found.extend(step(_value(document, location)))
        locations = _unique(found)
    return locations


def _value(document: Any, location: Location) -> Any:
    container, key = location
    return document if container is None else container[key]


def _unique(locations: list[Location]) -> list[Location]:
    seen: set[tuple[int, str]] = set()
    out: list[Location] = []
    for container, key in locations:
        marker = (id(container), repr(key))
        if marker not in seen:
            seen.add(marker)
            out.append((container, key))
    return out


def _compile(path: str) -> list[Step]:
    if not path.startswith("$"):
        raise JsonPathError(f"target {path!r} must start with '$'")
    steps: list[Step] = []
    i = 1
    while i < len(path):
        if path.startswith("..", i):
            i += 2
            name, i = _read_name_or_star(path, i)
            steps.append(_descendants(name))
        elif path[i] == ".":
            name, i = _read_name_or_star(path, i + 1)
            steps.append(_children(name))
        elif path[i] == "[":
            end = _closing_bracket(path, i)
            steps.append(_bracket(path[i + 1 : end].strip(), path))
            i = end + 1
        else:
            raise JsonPathError(f"unexpected {path[i]!r} at position {i} in {path!r}")
    return steps


def _read_name_or_star(path: str, i: int) -> tuple[str | None, int]:
    if path.startswith("*", i):
        return None, i + 1
    match = _NAME.match(path, i)
    if match is None:
        raise JsonPathError(f"expected a name at position {i} in {path!r}")
    return match.group(0), match.end()


def _closing_bracket(path: str, start: int) -> int:
    depth, quote = 0, ""
    for i in range(start, len(path)):
        char = path[i]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i
    raise JsonPathError(f"unclosed '[' at position {start} in {path!r}")


def _bracket(inner: str, path: str) -> Step:
    if inner == "*":
        return _children(None)
    if inner.startswith("?"):
        return _filter(_predicate(inner[1:].strip().removeprefix("(").removesuffix(")")))
    if inner[:1] in "'\"" and inner[-1:] == inner[:1] and len(inner) >= 2:
        return _children(inner[1:-1])
    if re.fullmatch(r"-?\d+", inner):
        index = int(inner)
        return lambda node: iter([(node, index)] if _has_index(node, index) else [])
    raise JsonPathError(f"unsupported selector [{inner}] in {path!r}")


def _has_index(node: Any, index: int) -> bool:
    return isinstance(node, list) and -len(node) <= index < len(node)


def _children(name: str | None) -> Step:
    def step(node: Any) -> Iterator[Location]:
        if isinstance(node, dict):
            keys = list(node) if name is None else [name] if name in node else []
            yield from ((node, k) for k in keys)
        elif isinstance(node, list) and name is None:
            yield from ((node, i) for i in range(len(node)))

    return step


def _descendants(name: str | None) -> Step:
    children = _children(name)

    def step(node: Any) -> Iterator[Location]:
        yield from children(node)
        items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in list(items):
            yield from step(child)

    return step


def _filter(predicate: Callable[[Any], bool]) -> Step:
    def step(node: Any) -> Iterator[Location]:
        for container, key in _children(None)(node):
            if predicate(container[key]):
                yield container, key

    return step


def _predicate(text: str) -> Callable[[Any], bool]:
    if "||" in text:
        parts = [_predicate(p.strip()) for p in text.split("||")]
        return lambda node: any(p(node) for p in parts)
    if "&&" in text:
        parts = [_predicate(p.strip()) for p in text.split("&&")]
        return lambda node: all(p(node) for p in parts)
    if match := _COMPARE.match(text):
        keys, operator, literal = _keys(match.group(1)), match.group(2), _literal(match.group(3))
        if operator == "==":
            return lambda node: _lookup(node, keys) == (True, literal)
        return lambda node: _lookup(node, keys) != (True, literal)
    if match := _EXISTS.match(text):
        keys = _keys(match.group(1))
        return lambda node: _lookup(node, keys)[0]
    raise JsonPathError(f"unsupported filter {text!r}")


def _keys(chain: str) -> list[str]:
    return [a or b for a, b in re.findall(r"\.([A-Za-z_][\w\-]*)|\['([^']*)'\]", chain)]


def _lookup(node: Any, keys: list[str]) -> tuple[bool, Any]:
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            return False, None
        node = node[key]
    return True, node


def _literal(text: str) -> Any:
    text = text.strip()
    if text[:1] == "'" and text[-1:] == "'":
        return text[1:-1]
    try:
        return json.loads(text)
    except ValueError as exc:
        raise JsonPathError(f"unsupported literal {text!r}") from exc


def _merge(target: Any, update: Any) -> Any:
    """Objects merge recursively; an array target gets the update appended; anything else is replaced."""
    if isinstance(target, dict) and isinstance(update, dict):
        merged = dict(target)
        for key, value in update.items():
            merged[key] = _merge(merged[key], value) if key in merged else copy.deepcopy(value)
        return merged
    if isinstance(target, list):
        return target + (
            copy.deepcopy(update) if isinstance(update, list) else [copy.deepcopy(update)]
        )
    return copy.deepcopy(update)


def _remove(locations: list[Location]) -> None:
    # remove list items from the highest index down so earlier removals do not shift later ones
    for container, key in sorted(
        (loc for loc in locations if loc[0] is not None),
        key=lambda loc: loc[1] if isinstance(loc[1], int) else 0,
        reverse=True,
    ):
        del container[key]
