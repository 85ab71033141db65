"""Code mode's ``run_code``: a short Python program calls the API's operations as async functions.

The program runs in the sandbox (``sandbox.py``). Each operation is an external async function named
after its tool (``python_names``: characters outside ``[A-Za-z0-9_]`` become ``_``; a keyword, a
built-in or a module name gets a trailing ``_``). Its keyword arguments (or one dictionary) are the
tool's arguments, and it runs through ``Calls.run_tool``, the path of a tool call: validation,
credentials, confirmation, resilience, redaction and the result budget. What it returns or raises
is ``code_journal``'s business. The result of ``run_code`` is what the program printed, then its
value as compact JSON, then the notes its calls carried (a response cut to the result budget...),
within ``<PREFIX>_CODE_MAX_OUTPUT`` characters; a program that fails (an exception, a syntax error, a
limit) is ``isError`` with Monty's traceback and the calls that had already changed data. Calls run
concurrently when the program gathers them; a call that did not finish when the program stopped is
waited for and accounted for. Progress notifications name each call as it starts.

Confirmation. In a legacy session the user is asked in the middle of the call, as for a tool. On
2026-07-28 a question ends the request with ``input_required`` and the client retries the whole
``tools/call``, so the program runs again from the start and must never repeat a call made in an
earlier round. Every completed call is kept in a journal, in order: its operation, a digest of its
arguments and what the program got. The journal and the call that asked (its place, and the
``requestState`` its own ``Interaction`` issued, bound to the operation and its arguments) travel in
this request's ``requestState``, sealed by the server's signer and bound to the code and the caller.
On the retry, calls at journalled places are answered from the journal without reaching the API, the
call that asked gets the client's ``inputResponses``, and the calls after it run. A program that
makes a different call at a journalled place (it depends on the clock or chance) is stopped, nothing
more sent. A client that sends the same retry twice repeats the call that asked, as it would repeat a
tool call; calls before it are never repeated. Without the elicitation capability a call that needs
the user's yes raises ``PermissionError`` in the program, with nothing sent.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from typing import Any, Final

from ..ask.interaction import Interaction
from ..catalog.model import Catalog
from ..errors import StateError
from .calls import Calls
from .code_journal import Entry, Journal, call_arguments, entry_of, python_names
from .jsonrpc import INVALID_PARAMS, MISSING_REQUIRED_CLIENT_CAPABILITY, JsonObject, JsonRpcError
from .reporting import NO_PROGRESS, Progress, RequestLog
from .request_state import Binding, State, arguments_digest
from .results import tool_error
from .sandbox import CodeLimits, Failed, Finished, Output, jsonable, run_program
from .search_log import SearchLog, caller_of
from .structured import compact, shrink

RUN: Final = "run_code"
_STATE_KEY = "runCode"
_NOTICE_ROOM = 400


class CodeMode:
    """Runs ``run_code`` programs against one server's operations."""

    def __init__(
        self,
        catalog: Catalog,
        calls: Calls,
        limits: CodeLimits,
        search_log: SearchLog | None = None,
    ) -> None:
        self.limits = limits
        self.calls = calls
        self.search_log = search_log
        self._catalog = catalog
        self._names: dict[str, str] | None = None
        self._slots: asyncio.Semaphore | None = None

    @property
    def names(self) -> dict[str, str]:
        """``function name -> tool`` for every operation a program may call (read on first use)."""
        if self._names is None:
            tools = [tool["name"] for tool in self._catalog["tools"]]
            self._names = python_names(t for t in tools if self.calls.tool(t) is not None)
        return self._names

    def function_name(self, tool: str) -> str | None:
        return next((name for name, known in self.names.items() if known == tool), None)

    def listed(self, tool: JsonObject) -> JsonObject:
        """The ``run_code`` tool as listed: its description ends with this server's limits."""
        return {**tool, "description": f"{tool.get('description', '')}\n\n{self.limits.summary()}"}

    async def run(
        self, code: str, interaction: Interaction, progress: Progress, log: RequestLog
    ) -> JsonObject:
        """``run_code``'s result (2026 shape): ``complete``, or ``input_required`` to ask the user."""
        subject = _subject(interaction)
        binding = Binding("tools/call", RUN, arguments_digest({"code": code}), subject)
        journal = self._journal(interaction, binding)
        run = _Run(self, journal, interaction, subject, progress, log)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limits.concurrency)
        try:
            async with asyncio.timeout(self.limits.timeout):
                await self._slots.acquire()
        except TimeoutError:
            return tool_error(
                f"This server is running {self.limits.concurrency} programs already and none "
                f"finished within {self.limits.timeout:g} s; nothing ran. Try again later."
            )
        try:
            await progress.report(0, message="Running the program")
            await log.log("info", f"{RUN}: running a program of {len(code)} characters")
            outcome = await run_program(code, run.functions(), self.limits, run.output, run.stop)
        finally:
            self._slots.release()
        await run.settle()
        return run.result(outcome, binding, interaction)

    def _journal(self, interaction: Interaction, binding: Binding) -> Journal:
        """The calls of earlier rounds, from the retry's ``requestState`` (none on a first try)."""
        if interaction.state is None or not interaction.modern:
            return Journal({})
        if interaction.signer is None:
            raise JsonRpcError(INVALID_PARAMS, "Invalid requestState: this request takes none")
        try:
            state = interaction.signer.open(interaction.state, binding)
            return Journal.from_payload(state.answers.get(_STATE_KEY))
        except StateError as exc:
            raise JsonRpcError(INVALID_PARAMS, f"Invalid requestState: {exc}") from None

    def read_only(self, tool: str) -> bool:
        found = self.calls.tool(tool)
        hints = found.get("annotations") if found is not None else None
        return isinstance(hints, dict) and hints.get("readOnlyHint") is True

    def label(self, tool: str) -> str:
        spec = self.calls.operation(tool)
        return f"{tool} ({spec['method'].upper()} {spec['path']})" if spec is not None else tool


def _subject(interaction: Interaction) -> str | None:
    """The authenticated caller the request (and so its ``requestState``) is bound to."""
    binding = interaction.binding
    if isinstance(binding, Binding):
        return binding.subject
    return binding[3] if isinstance(binding, tuple) else None


class _Run:
    """One run of a program: its calls, what it printed, why it stopped."""

    def __init__(
        self,
        mode: CodeMode,
        journal: Journal,
        interaction: Interaction,
        subject: str | None,
        progress: Progress,
        log: RequestLog,
    ) -> None:
        self.mode = mode
        self.limits = mode.limits
        self.journal = journal
        self.interaction = interaction
        self.subject = subject
        self.progress = progress
        self.log = log
        self.stop = asyncio.Event()
        self.halted = False
        # the sandbox calls print's callback from a thread of its own
        self._loop = asyncio.get_running_loop()
        self.output = Output(self.limits.max_output, self.halt, self.limits.setting("output"))
        self.started = 0
        self.done: dict[int, Entry] = {}
        # calls of this round that ran (not answered from the journal)
        self.ran = 0
        self.tasks: set[asyncio.Future[Entry]] = set()
        # why the program was stopped (an isError), or the call that asks the user
        self.fatal: str | None = None
        self.failure: JsonRpcError | None = None
        self.asked: tuple[int, str, str, JsonObject] | None = None

    def halt(self, message: str | None) -> None:
        """Stop the program: for ``message`` (the first one stands), or to ask the user. Safe to
        call from any thread."""
        if message is not None and self.fatal is None:
            self.fatal = message
        self.halted = True
        self._loop.call_soon_threadsafe(self.stop.set)

    def functions(self) -> dict[str, Any]:
        return {name: self._function(tool) for name, tool in self.mode.names.items()}

    def _function(self, tool: str) -> Any:
        async def operation(*args: Any, **kwargs: Any) -> Any:
            return await self.call(tool, args, kwargs)

        return operation

    async def call(self, tool: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        seq = self.started
        self.started += 1
        if self.halted:
            raise RuntimeError(f"The program is being stopped; {tool} was not called.")
        if self.started > self.limits.max_calls:
            message = (
                f"The program called operations more than {self.limits.max_calls} times (the "
                f"limit, {self.limits.setting('calls')}); it was stopped before call "
                f"{self.started}, {tool}, which was not made."
            )
            self.halt(message)
            raise RuntimeError(message)
        arguments = call_arguments(tool, args, kwargs)
        digest = arguments_digest(arguments)
        expected = self._expected(seq)
        if expected is not None and expected != (tool, digest):
            message = (
                f"Run again with the user's answer, the program made a different call {seq + 1} "
                f"({tool}) than before; a program runs again from the start after each answer, "
                "so it must make the same calls in the same order. Nothing more was sent."
            )
            self.halt(message)
            raise RuntimeError(message)
        known = self.journal.done.get(seq)
        if known is not None and not known.rerun:
            self.done[seq] = known
            return known.deliver()
        task = asyncio.ensure_future(self._execute(seq, tool, arguments, digest))
        task.add_done_callback(_retrieved)
        self.tasks.add(task)
        # a call in flight finishes even if the program stops: its outcome is accounted for
        entry = await asyncio.shield(task)
        return entry.deliver()

    def _expected(self, seq: int) -> tuple[str, str] | None:
        """The call (operation, arguments' digest) an earlier round made at place ``seq``."""
        known = self.journal.done.get(seq)
        if known is not None:
            return known.tool, known.digest
        asked = self.journal.asked
        return (asked[1], asked[2]) if asked is not None and asked[0] == seq else None

    async def _execute(self, seq: int, tool: str, arguments: JsonObject, digest: str) -> Entry:
        await self.progress.report(seq + 1, message=f"Calling {self.mode.label(tool)}")
        interaction = self._interaction(seq, tool, digest)
        try:
            result = await self.mode.calls.run_tool(
                tool, arguments, NO_PROGRESS, self.log, interaction, whole=True
            )
        except JsonRpcError as exc:
            if exc.code != MISSING_REQUIRED_CLIENT_CAPABILITY:
                self.failure = self.failure or exc
                self.halt(exc.message)
                raise RuntimeError(exc.message) from None
            result = tool_error(
                f"{self.mode.label(tool)} needs the user's input, and this client cannot be "
                "asked (it did not declare the elicitation capability); nothing was sent."
            )
        if result is None:  # only operations that exist are functions
            result = tool_error(f"No operation {tool!r}.")
        if result.get("resultType") == "input_required":
            if self.asked is None or seq < self.asked[0]:
                self.asked = (seq, tool, digest, result)
            self.halt(None)
            raise RuntimeError(f"{tool} waits for the user's answer; the program will run again.")
        entry = entry_of(tool, digest, result)
        self.done[seq] = entry
        self.ran += 1
        if self.mode.search_log is not None:
            ok = not result.get("isError", False)
            self.mode.search_log.called(tool, ok, caller_of(self.interaction))
        return entry

    def _interaction(self, seq: int, tool: str, digest: str) -> Interaction:
        """The call's channel to the user: the request's own in a legacy session; on 2026-07-28
        one bound to the call, holding the answers when it is the call that asked."""
        base = self.interaction
        if not base.modern:
            return replace(base, elicit_missing=False)
        binding = Binding(RUN, tool, digest, self.subject)
        asked = self.journal.asked
        if asked is not None and asked[0] == seq:
            return replace(
                base,
                binding=binding,
                state=asked[3],
                responses=base.responses,
                elicit_missing=False,
            )
        return replace(base, binding=binding, state=None, responses=None, elicit_missing=False)

    async def settle(self) -> None:
        """Wait for calls still in flight (the program may have stopped before them)."""
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)

    # -- the result ------------------------------------------------------------------------------

    def result(
        self, outcome: Finished | Failed, binding: Binding, interaction: Interaction
    ) -> JsonObject:
        if self.failure is not None and not self.ran:
            raise self.failure  # nothing new reached the API: the request itself is refused
        if self.fatal is not None:
            return self._failed(self.fatal)
        if self.asked is not None:
            return self._ask(binding, interaction)
        if isinstance(outcome, Failed):
            return self._failed(outcome.message)
        try:
            value = jsonable(outcome.value, "The program's value")
        except ValueError as exc:
            return self._failed(f"{exc}; return JSON data (dicts, lists, text, numbers).")
        return self._finished(value)

    def _ask(self, binding: Binding, interaction: Interaction) -> JsonObject:
        assert self.asked is not None
        seq, tool, digest, asking = self.asked
        state = asking.get("requestState")
        done = {**self.journal.done, **self.done}
        journal = Journal(done, (seq, tool, digest, state if isinstance(state, str) else None))
        read_only = {entry.tool: self.mode.read_only(entry.tool) for entry in done.values()}
        payload = journal.payload(read_only)
        if interaction.signer is None:
            return self._failed(
                f"{self.mode.label(tool)} needs the user's answer, which this request cannot "
                "carry; nothing more was sent."
            )
        if payload is None:
            return self._failed(
                f"{self.mode.label(tool)} needs the user's answer, and the calls the program "
                "made before it are too many to carry over to the retry; nothing more was sent. "
                "Make fewer or smaller calls before it, or call it first."
            )
        # what the API answered is the program's, not the client's: sealed private
        sealed = interaction.signer.seal(binding, State({_STATE_KEY: payload}, ()), private=True)
        return {
            "resultType": "input_required",
            "inputRequests": asking.get("inputRequests", {}),
            "requestState": sealed,
        }

    def _finished(self, value: Any) -> JsonObject:
        printed = self.output.text
        notes = self._notes()
        blocks = [_text(printed)] if printed else []
        if value is not None:
            shown = compact(value)
            room = self.limits.max_output - len(printed) - sum(map(len, notes))
            if len(shown) > room:
                cut, cuts = shrink(value, max(room - _NOTICE_ROOM, 2))
                notes.append(
                    f"[the program's value was cut to fit: it has {len(shown)} characters; "
                    f"shown: {'; '.join(cuts[:3])}. A program hands back at most "
                    f"{self.limits.max_output} characters, printed text included (the limit, "
                    f"{self.limits.setting('output')}): return less, or a summary.]"
                )
                shown = compact(cut)
            blocks.append(_text(shown))
        blocks += [_text(note) for note in notes]
        if not blocks:
            blocks = [_text("The program finished: it printed nothing and returned None.")]
        return {"resultType": "complete", "content": blocks}

    def _failed(self, message: str) -> JsonObject:
        printed = self.output.text
        blocks = [_text(printed)] if printed else []
        blocks.append(_text(self._with_hint(message)))
        changed = [
            self.mode.label(entry.tool)
            for _, entry in sorted({**self.journal.done, **self.done}.items())
            if entry.error is None and not self.mode.read_only(entry.tool)
        ]
        if changed:
            blocks.append(
                _text(
                    "Calls the program made before it stopped, which changed data and are not "
                    f"undone (do not repeat them): {', '.join(changed)}."
                )
            )
        return {"resultType": "complete", "isError": True, "content": blocks}

    def _with_hint(self, message: str) -> str:
        """A ``NameError`` for a missing function names the operations it may have meant."""
        found = re.search(r"NameError: name '([A-Za-z][A-Za-z0-9_]*)' is not defined", message)
        if found is None:
            return message
        import difflib  # noqa: PLC0415 - only for this hint

        near = difflib.get_close_matches(found.group(1), list(self.mode.names), n=3, cutoff=0.7)
        if near:
            return f"{message}\nOperations with a close name: {', '.join(near)}."
        return f"{message}\nsearch_operations finds operations by what they do."

    def _notes(self) -> list[str]:
        """What the calls' results noted (a response cut to the budget...), each note once."""
        notes: dict[str, None] = {}
        for _, entry in sorted({**self.journal.done, **self.done}.items()):
            notes.update((f"{entry.tool}: {note}", None) for note in entry.notes)
        return list(notes)


def _retrieved(task: asyncio.Future[Entry]) -> None:
    """Collects a call's exception when no program waits for it any more (it was cancelled)."""
    if not task.cancelled():
        task.exception()


def _text(text: str) -> JsonObject:
    return {"type": "text", "text": text}
