"""``openapi2mcp diff``: what changed in the MCP surface between two versions, and does it break clients.

This module owns reading either side (an OpenAPI document, planned in memory with default options;
an ``mcp-surface.json``, told apart by content, plain or gzip-compressed; or a generated package),
matching items (by kind and name; a removed and an added item of one kind behind the same
operationId, or failing that the same ``METHOD /path``, is a rename), and judging each difference
as breaking or compatible (schema rules live in ``schemadiff.py``); ``diffreport.py`` renders the
result. It never prints.
"""

from __future__ import annotations

import json
import sys
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..generate import GenerateOptions, plan_source
from ..load.reading import parse_bytes
from .schemas import Finding, Severity, compare_schemas, quote
from .surface import KINDS, READABLE_FORMATS, standalone, surface

Category = Literal["added", "removed", "renamed", "changed"]
FailOn = Literal["breaking", "any", "never"]
# the value of each tool hint that makes a call riskier for the user
_RISKIER = (
    ("readOnlyHint", False),
    ("destructiveHint", True),
    ("idempotentHint", False),
    ("openWorldHint", True),
)


SURFACE_FILE = "mcp-surface.json"
_GZIP_MAGIC = b"\x1f\x8b"
# a surface bigger than this is not one we wrote (Microsoft Graph's, 11,412 tools: 22 MB)
_MAX_SURFACE_BYTES = 1 << 30


class DiffInputError(Exception):
    """One side of the diff cannot be read or is not a spec or surface file we understand."""


@dataclass(frozen=True, slots=True)
class Change:
    severity: Severity
    category: Category
    kind: str
    name: str
    message: str
    old_name: str = ""
    shared: str = ""  # the change inside a shared schema definition, worded alike for every item


@dataclass(frozen=True, slots=True)
class SurfaceDiff:
    old: Mapping[str, Any]  # {"server", "version"} of each side
    new: Mapping[str, Any]
    changes: tuple[Change, ...]

    @property
    def breaking(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.severity == "breaking")

    @property
    def compatible(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.severity == "compatible")

    def counts(self) -> dict[str, int]:
        """Changes by severity, items by category (an item with several changes counts once)."""
        items: dict[Category, set[tuple[str, str]]] = {
            "added": set(),
            "removed": set(),
            "renamed": set(),
            "changed": set(),
        }
        for change in self.changes:
            items[change.category].add((change.kind, change.name))
        items["changed"] -= items["renamed"]
        counts = {"breaking": len(self.breaking), "compatible": len(self.compatible)}
        return counts | {category: len(keys) for category, keys in items.items()}

    def fails(self, fail_on: FailOn) -> bool:
        if fail_on == "breaking":
            return bool(self.breaking)
        return fail_on == "any" and bool(self.changes)


def load_surface(source: str, *, name: str | None = None, stdin: bytes | None = None) -> Any:
    """``source`` (a path, or "-" for ``stdin``) as a surface document: read, or planned from a spec.

    A directory stands for the generated package in it (its ``mcp-surface.json``, or the
    ``mcp-surface.json.gz`` a big API gets); a gzip-compressed file reads as its content.
    """
    if source == "-":
        raw = stdin if stdin is not None else sys.stdin.buffer.read()
        label = "<stdin>"
    else:
        path = Path(source)
        if path.is_dir():
            path = _surface_in(path)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DiffInputError(f"cannot read {source}: {exc.strerror or exc}") from exc
        label = path.name
    if raw.startswith(_GZIP_MAGIC):
        raw = _gunzipped(raw, label)
        label = label.removesuffix(".gz")
    data = parse_bytes(raw, label)
    if isinstance(data, dict) and "items" in data and not {"openapi", "swagger"} & data.keys():
        return _checked_surface(data, label)
    plan, _ = plan_source(source, GenerateOptions(name=name), stdin=raw)
    return standalone(surface(plan))


def _surface_in(directory: Path) -> Path:
    for candidate in (SURFACE_FILE, SURFACE_FILE + ".gz"):
        if (directory / candidate).is_file():
            return directory / candidate
    raise DiffInputError(
        f"{directory} has no {SURFACE_FILE} (nor {SURFACE_FILE}.gz): is it a generated package?"
    )


def _gunzipped(raw: bytes, label: str) -> bytes:
    """``raw`` decompressed, refusing more than :data:`_MAX_SURFACE_BYTES` (a decompression bomb)."""
    inflater = zlib.decompressobj(wbits=31)  # gzip framing
    try:
        data = inflater.decompress(raw, _MAX_SURFACE_BYTES)
        if inflater.unconsumed_tail:
            raise DiffInputError(
                f"{label} decompresses to more than {_MAX_SURFACE_BYTES:,} bytes; not a surface"
            )
        if not inflater.eof:
            raise DiffInputError(f"{label} is a truncated gzip file")
    except zlib.error as exc:
        raise DiffInputError(f"{label} is not a valid gzip file: {exc}") from exc
    return data


def _checked_surface(data: dict[str, Any], label: str) -> dict[str, Any]:
    if data.get("format") not in READABLE_FORMATS:
        raise DiffInputError(
            f"{label} is an MCP surface file of format {data.get('format', 1)}; only formats "
            f"{' and '.join(map(str, READABLE_FORMATS))} can be compared: regenerate the package "
            "with this openapi2mcp"
        )
    items = data["items"]
    if not isinstance(items, list) or not all(
        isinstance(i, dict) and i.get("kind") in KINDS and isinstance(i.get("name"), str)
        for i in items
    ):
        raise DiffInputError(f"{label} is not a valid MCP surface file (bad 'items')")
    return standalone(data)


def diff_sources(old: str, new: str, *, name: str | None = None) -> SurfaceDiff:
    """Compare two sides given on the command line; at most one of them may be "-"."""
    stdin = sys.stdin.buffer.read() if "-" in (old, new) else None
    return diff_surfaces(
        load_surface(old, name=name, stdin=stdin), load_surface(new, name=name, stdin=stdin)
    )


def diff_surfaces(old: Mapping[str, Any], new: Mapping[str, Any]) -> SurfaceDiff:
    old_items = {(i["kind"], i["name"]): i for i in old["items"]}
    new_items = {(i["kind"], i["name"]): i for i in new["items"]}
    removed = [key for key in old_items if key not in new_items]
    added = [key for key in new_items if key not in old_items]
    renames = _renames(removed, added, old_items, new_items)
    changes: list[Change] = []
    for key in removed:
        if key not in renames:
            changes.append(Change("breaking", "removed", key[0], key[1], "removed"))
    for key in added:
        if key not in renames.values():
            changes.append(Change("compatible", "added", key[0], key[1], "added"))
    pairs = [(key, key) for key in old_items if key in new_items] + list(renames.items())
    for old_key, new_key in pairs:
        kind, name = new_key
        if old_key != new_key:
            message = f"renamed from {quote(old_key[1])}"
            changes.append(Change("breaking", "renamed", kind, name, message, old_key[1]))
        for finding in _compare_item(old_items[old_key], new_items[new_key]):
            changes.append(
                Change(finding.severity, "changed", kind, name, finding.message, "", finding.shared)
            )
    order = {kind: index for index, kind in enumerate(KINDS)}
    changes.sort(key=lambda c: (c.severity != "breaking", order[c.kind], c.name))
    return SurfaceDiff(_side(old), _side(new), tuple(changes))


def _side(document: Mapping[str, Any]) -> dict[str, str]:
    return {"server": str(document.get("server", "")), "version": str(document.get("version", ""))}


Key = tuple[str, str]


def _renames(
    removed: list[Key], added: list[Key], old: Mapping[Key, Any], new: Mapping[Key, Any]
) -> dict[Key, Key]:
    """Old key → new key for items that only changed their name (one candidate on each side)."""
    renames: dict[Key, Key] = {}
    for field in ("operationId", "operation"):
        gone = _group(removed, old, field, set(renames))
        came = _group(added, new, field, set(renames.values()))
        for ident, keys in gone.items():
            if len(keys) == 1 and len(came.get(ident, ())) == 1:
                renames[keys[0]] = came[ident][0]
    return renames


def _group(
    keys: list[Key], items: Mapping[Key, Any], field: str, taken: set[Key]
) -> dict[tuple[str, str], list[Key]]:
    """Keys by (kind, value of ``field``), leaving out taken keys and items without the field."""
    grouped: dict[tuple[str, str], list[Key]] = {}
    for key in keys:
        value = items[key].get(field)
        if key not in taken and isinstance(value, str):
            grouped.setdefault((key[0], value), []).append(key)
    return grouped


def _compare_item(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Finding]:
    findings: list[Finding] = []
    if old.get("title") != new.get("title"):
        change = f"title {show_text(old.get('title'))} → {show_text(new.get('title'))}"
        findings.append(Finding("compatible", change))
    if old.get("description") != new.get("description"):
        findings.append(Finding("compatible", "description changed"))
    match new["kind"]:
        case "tool":
            findings += _compare_tool(old, new)
        case "resource":
            for field, label in (("uri", "URI"), ("mimeType", "MIME type")):
                if old.get(field) != new.get(field):
                    change = f"{label} {show_text(old.get(field))} → {show_text(new.get(field))}"
                    findings.append(Finding("breaking", change))
        case "resource_template":
            findings += _compare_template(old, new)
        case "prompt":
            findings += _compare_prompt(old, new)
    return findings


def _compare_tool(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Finding]:
    findings: list[Finding] = []
    old_hints, new_hints = old.get("annotations") or {}, new.get("annotations") or {}
    for hint, riskier in _RISKIER:
        before, after = old_hints.get(hint), new_hints.get(hint)
        if before != after:
            severity: Severity = "breaking" if after is riskier else "compatible"
            findings.append(Finding(severity, f"{hint} {show_json(before)} → {show_json(after)}"))
    findings += compare_schemas(old.get("inputSchema"), new.get("inputSchema"), "input")
    if "outputSchema" in old and "outputSchema" not in new:
        findings.append(Finding("breaking", "output schema removed (no structured output)"))
    elif "outputSchema" not in old and "outputSchema" in new:
        findings.append(Finding("compatible", "output schema added"))
    elif "outputSchema" in old:
        findings += compare_schemas(old["outputSchema"], new["outputSchema"], "output")
    return findings


def _compare_template(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Finding]:
    findings: list[Finding] = []
    before, after = str(old.get("uriTemplate", "")), str(new.get("uriTemplate", ""))
    if before != after:
        (old_base, old_query), (new_base, new_query) = (
            _split_template(before),
            _split_template(after),
        )
        change = f"URI template {quote(before)} → {quote(after)}"
        # optional query variables may come and go at the end; anything else moves the URIs
        compatible = old_base == new_base and set(old_query) <= set(new_query)
        findings.append(Finding("compatible" if compatible else "breaking", change))
    if old.get("mimeType") != new.get("mimeType"):
        change = f"MIME type {show_text(old.get('mimeType'))} → {show_text(new.get('mimeType'))}"
        findings.append(Finding("breaking", change))
    return findings


def _split_template(template: str) -> tuple[str, list[str]]:
    start = template.find("{?")
    if start < 0 or not template.endswith("}"):
        return template, []
    return template[:start], template[start + 2 : -1].split(",")


def _compare_prompt(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Finding]:
    findings: list[Finding] = []
    old_args = {a.get("name"): a for a in old.get("arguments") or () if isinstance(a, dict)}
    new_args = {a.get("name"): a for a in new.get("arguments") or () if isinstance(a, dict)}
    for name in old_args:
        if name not in new_args:
            findings.append(Finding("breaking", f"argument {quote(str(name))} removed"))
    for name, argument in new_args.items():
        label = quote(str(name))
        required = bool(argument.get("required"))
        if name not in old_args:
            kind = "required" if required else "optional"
            severity: Severity = "breaking" if required else "compatible"
            findings.append(Finding(severity, f"new {kind} argument {label}"))
            continue
        was_required = bool(old_args[name].get("required"))
        if required != was_required:
            severity = "breaking" if required else "compatible"
            state = "required" if required else "optional"
            findings.append(Finding(severity, f"argument {label} is now {state}"))
        if old_args[name].get("description") != argument.get("description"):
            findings.append(Finding("compatible", f"argument {label}: description changed"))
    return findings


def show_text(value: Any) -> str:
    return quote(value, limit=60) if isinstance(value, str) and value else "none"


def show_json(value: Any) -> str:
    return "unset" if value is None else json.dumps(value)
