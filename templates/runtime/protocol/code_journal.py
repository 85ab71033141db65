"""The operations of a ``run_code`` program: their names, what they take and give, and the journal.

``python_names`` names each operation's function: characters outside ``[A-Za-z0-9_]`` become ``_``,
a leading digit gets a ``_`` before it, a keyword, a built-in or a module name gets one after it,
and names that still collide are numbered. ``call_arguments`` takes keyword arguments or one
dictionary, as JSON (``sandbox.jsonable``).

``program_value`` turns a tool's ``CallToolResult`` into what the program gets: the parsed JSON
response (results write a JSON body as compact JSON: that text is parsed, so the program sees the
response as received, not the structured content made to fit a schema), the text of a text response,
other content blocks as they are; notes the result carried (a response cut to the result budget, one
that breaks its documented schema) are kept apart. ``entry_of`` keeps that, or the exception an error
result raises into the program: ``ValueError`` for refused arguments (nothing was sent),
``PermissionError`` when the user did not allow the call, ``RuntimeError`` for the rest (the HTTP
status and the redacted excerpt of the body are in the tool's error text).

``Journal`` is the program's completed calls by place (``codemode.py`` says why a retry needs them)
and the call that asked the user, as ``requestState`` data. It has a size budget, ``JOURNAL_BYTES``:
past it, results of read-only operations are dropped (on replay those calls run again: reading twice
changes nothing), then the others are cut (``structured.shrink``) with a note; a journal that still
does not fit is ``None``, and the program cannot pause. The ``requestState`` is signed, not
encrypted: the client that retries holds the results of the calls its own program made.
"""

from __future__ import annotations

import builtins
import json
import keyword
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..errors import StateError
from .jsonrpc import JsonObject
from .sandbox import jsonable
from .structured import MISSING, compact, shrink

# the journal's share of a requestState (64 KiB at most, base64 of JSON), in bytes of UTF-8
JOURNAL_BYTES: Final = 40_000
_PERMISSION = ("The user did not allow", "The user declined", "needs the user's input")
_NOTICE_ROOM = 400
# names a program may not lose to a function: the modules it imports, and Python's own names
_MODULES = (
    "asyncio", "base64", "bisect", "binascii", "collections", "copy", "csv", "dataclasses",
    "datetime", "decimal", "functools", "hashlib", "itertools", "json", "math", "os",
    "pathlib", "random", "re", "sys", "time", "tomllib", "typing",
)  # fmt: skip
_RESERVED = frozenset(_MODULES) | frozenset(dir(builtins))


def python_names(tools: Iterable[str]) -> dict[str, str]:
    """The function name of each tool in a program (``name -> tool``), in the tools' order."""
    names: dict[str, str] = {}
    for tool in tools:
        base = re.sub(r"\W", "_", tool, flags=re.ASCII) or "_"
        if base[0].isdigit():
            base = "_" + base
        if keyword.iskeyword(base) or base in _RESERVED:
            base += "_"
        candidate, number = base, 2
        while candidate in names:
            candidate, number = f"{base}_{number}", number + 1
        names[candidate] = tool
    return names


def call_arguments(tool: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> JsonObject:
    """A call's arguments as the tool takes them: keyword arguments, or one dictionary."""
    if len(args) > 1 or (args and not isinstance(args[0], dict)):
        raise TypeError(
            f"{tool}() takes its arguments by keyword (or as one dictionary), e.g. "
            f"{tool}(name='value')"
        )
    merged = {**(args[0] if args else {}), **kwargs}
    arguments = jsonable(merged, f"the arguments of {tool}()")
    assert isinstance(arguments, dict)
    return arguments


def program_value(result: JsonObject) -> tuple[Any, list[str]]:
    """What a program gets from a successful ``CallToolResult``, and the notes that came with it:
    the JSON response parsed (the text of the result is the response as compact JSON), the text of
    a text response, other content blocks as they are (a list of them for several)."""
    blocks = [b for b in result.get("content") or [] if isinstance(b, dict)]
    notes: list[str] = []
    if blocks and _text_of(blocks[0]).startswith("The call succeeded ("):
        # a documented JSON body that was not JSON, a stream cut short (nothing came: no value)
        notes.append(_text_of(blocks.pop(0)))
    if not blocks:
        return None, notes
    # (never the structured content: it is made to fit the schema, and stands in for no body)
    parsed = _json_text(_text_of(blocks[0])) if blocks[0].get("type") == "text" else MISSING
    if parsed is not MISSING:
        return parsed, notes + [_text_of(b) for b in blocks[1:]]
    values: list[Any] = []
    for index, block in enumerate(blocks):
        text = _text_of(block) if block.get("type") == "text" else None
        if text is not None and index and text.startswith("["):
            notes.append(text)
        else:
            values.append(text if text is not None else block)
    return (values[0] if len(values) == 1 else values), notes


def _text_of(block: Mapping[str, Any]) -> str:
    text = block.get("text")
    return text if isinstance(text, str) else ""


def _json_text(text: str) -> Any:
    """``text`` parsed, if it is compact JSON (as results write a JSON body); ``MISSING`` if not."""
    try:
        value = json.loads(text)
    except ValueError:
        return MISSING
    return value if compact(value) == text else MISSING


@dataclass(frozen=True, slots=True)
class Entry:
    """One call of a program: its operation, its arguments' digest, and what the program got."""

    tool: str
    digest: str
    value: Any = None
    notes: tuple[str, ...] = ()
    # (exception type, message) when the call raised into the program
    error: tuple[str, str] | None = None
    # journalled without its result (the budget): a read-only call, run again on replay
    rerun: bool = False

    def deliver(self) -> Any:
        if self.error is not None:
            kind, message = self.error
            raise {"ValueError": ValueError, "PermissionError": PermissionError}.get(
                kind, RuntimeError
            )(message)
        return self.value

    def as_json(self) -> list[Any]:
        if self.rerun:
            return [self.tool, self.digest, "r"]
        if self.error is not None:
            return [self.tool, self.digest, "e", list(self.error)]
        return [self.tool, self.digest, "v", self.value, list(self.notes)]

    @classmethod
    def from_json(cls, item: Any) -> Entry:
        tool, digest, kind, *rest = item
        if kind == "r":
            return cls(str(tool), str(digest), rerun=True)
        if kind == "e":
            error_kind, message = rest[0]
            return cls(str(tool), str(digest), error=(str(error_kind), str(message)))
        return cls(str(tool), str(digest), rest[0], tuple(str(n) for n in rest[1]))


def entry_of(tool: str, digest: str, result: JsonObject) -> Entry:
    """The entry of a completed call: its value, or the exception its error result raises."""
    if not result.get("isError"):
        value, notes = program_value(result)
        return Entry(tool, digest, value, tuple(notes))
    text = "\n".join(_text_of(b) for b in result.get("content") or [] if isinstance(b, dict))
    if text.startswith("Invalid arguments for tool"):
        return Entry(tool, digest, error=("ValueError", text))
    kind = "PermissionError" if any(p in text for p in _PERMISSION) else "RuntimeError"
    return Entry(tool, digest, error=(kind, f"{tool}: {text}"))


@dataclass(frozen=True, slots=True)
class Journal:
    """The calls of earlier rounds (by place) and the call that asked the user (``asked``: its
    place, its operation, its arguments' digest, the ``requestState`` its interaction issued)."""

    done: Mapping[int, Entry]
    asked: tuple[int, str, str, str | None] | None = None

    def payload(self, read_only: Mapping[str, bool]) -> JsonObject | None:
        """The journal as ``requestState`` data within ``JOURNAL_BYTES`` (``read_only`` says which
        operations change nothing); ``None``: it cannot fit."""
        done = dict(self.done)
        data = self._data(done)
        if _size(data) > JOURNAL_BYTES:
            for seq, entry in done.items():
                if entry.error is None and read_only.get(entry.tool, False):
                    done[seq] = Entry(entry.tool, entry.digest, rerun=True)
            data = self._data(done)
        if _size(data) > JOURNAL_BYTES:
            kept = [seq for seq, entry in done.items() if entry.error is None and not entry.rerun]
            # shrink counts characters: a quarter of the bytes is room enough for any UTF-8
            room = max(100, JOURNAL_BYTES // 4 // max(1, len(kept)) - _NOTICE_ROOM)
            done.update({seq: _shrunk(done[seq], room) for seq in kept})
            data = self._data(done)
        return data if _size(data) <= JOURNAL_BYTES else None

    def _data(self, done: Mapping[int, Entry]) -> JsonObject:
        return {
            "done": [[seq, *entry.as_json()] for seq, entry in sorted(done.items())],
            "asked": list(self.asked) if self.asked is not None else None,
        }

    @classmethod
    def from_payload(cls, data: Any) -> Journal:
        try:
            done = {int(item[0]): Entry.from_json(item[1:]) for item in data["done"]}
            asked = data["asked"]
            if asked is not None:
                seq, tool, digest, state = asked
                asked = (
                    int(seq),
                    str(tool),
                    str(digest),
                    state if isinstance(state, str) else None,
                )
        except (TypeError, ValueError, KeyError, IndexError):
            raise StateError("requestState failed its integrity check") from None
        return cls(done, asked)


def _size(data: JsonObject) -> int:
    return len(compact(data).encode("utf-8"))


def _shrunk(entry: Entry, room: int) -> Entry:
    value, cuts = shrink(entry.value, room)
    if not cuts:
        return entry
    shown = "; ".join(cuts[:3])
    note = f"[{entry.tool}: the response was cut to carry it over the user's answer: {shown}]"
    return Entry(entry.tool, entry.digest, value, (*entry.notes, note))
