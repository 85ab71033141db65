"""Ask the user, not the model: questions before a tool call or a prompt, in both eras.

Before a ``tools/call`` reaches the upstream API (or a ``prompts/get`` is rendered), ``resolve``
works out what the user must still say, in this order: the questions the API owner declared
(``x-mcp: {elicit: [...]}``, in rounds; one is skipped when the model already gave what it maps to),
then one form for required arguments the model left out (only when every one of them is
form-compatible and none is a secret), then the arguments are validated, then a confirmation (a
required yes) when the confirmation policy asks for one. Only what the request's client capabilities
allow is asked; without them the old behaviour holds (a validation error names the missing
arguments), except that a required confirmation cannot be skipped: ``-32021`` on 2026-07-28, a tool
error for legacy clients.

How questions travel depends on the era. A 2026-07-28 request gets ``input_required`` with the
questions and a sealed ``requestState`` (``request_state``) holding the answers so far; its retry
brings ``inputResponses``, which are checked against the questions (malformed ones are ``-32602``,
unknown keys ignored) and the flow resumes. Answers that supply data are taken from a retry without
state too (they are the client's to give either way); a confirmation counts only when the verified
state shows it was asked. A legacy client that declared the capability in ``initialize`` gets each
question as a server-initiated request (``elicitation/create`` etc.) sent by the transport. A
declined or cancelled question ends the call with ``isError``, and nothing is sent upstream.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..catalog.model import AskSpec
from ..errors import AskError as AskError  # noqa: PLC0414 - re-exported
from ..protocol.jsonrpc import (
    INVALID_PARAMS,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    JsonObject,
    JsonRpcError,
)
from ..protocol.request_state import Binding, State, StateError, StateSigner, arguments_digest
from .elicitation import (
    ELICIT,
    ROOTS,
    SAMPLE,
    AnswerError,
    client_supports,
    form_field,
    form_schema,
    parse_answer,
)

if TYPE_CHECKING:
    from ..auth.bearer import InboundToken

MISSING_KEY: Final = "missing_arguments"
CONFIRM_KEY: Final = "confirm"
# per-tool confirmation, after the policy and the overrides are applied
REQUIRED, WHEN_SUPPORTED, OFF = "required", "when-supported", "off"
POLICIES: Final = ("off", "destructive", "all", "when-supported")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.-]*)\}")
_SHOWN_ARGUMENTS = 4
_SHOWN_CHARS = 60

# sends one request to the client and returns its result (legacy server-initiated requests)
Asker = Callable[[str, JsonObject], Awaitable[JsonObject]]
# validates the final arguments: the error text for the model, or None
Check = Callable[[JsonObject], str | None]


def confirmation(policy: str, override: str | None, annotations: Any) -> str:
    """``required``, ``when-supported`` or ``off`` for one tool."""
    if override in (REQUIRED, WHEN_SUPPORTED, OFF):
        return override
    hints = annotations if isinstance(annotations, dict) else {}
    destructive = not hints.get("readOnlyHint", False) and hints.get("destructiveHint", True)
    if policy == "all":
        return REQUIRED
    if policy == "destructive" and destructive:
        return REQUIRED
    if policy == "when-supported" and destructive:
        return WHEN_SUPPORTED
    return OFF


@dataclass(frozen=True, slots=True)
class Target:
    """What is about to run, as the questions need to know it."""

    method: str  # "tools/call" or "prompts/get"
    name: str
    label: str  # e.g. "DELETE /pets/{petId}"
    title: str
    schema: JsonObject  # the arguments' JSON Schema (the root, for $defs)
    asks: tuple[AskSpec, ...] = ()
    confirm: str = OFF
    secrets: frozenset[str] = frozenset()
    # shown first in a confirmation (path parameters: what the call acts on)
    key_arguments: tuple[str, ...] = ()

    @property
    def simple(self) -> bool:
        return not self.asks and self.confirm == OFF


@dataclass(frozen=True, slots=True)
class Question:
    key: str
    method: str
    params: JsonObject
    requested: JsonObject | None = None  # a form's requestedSchema, to check the answer

    def request(self) -> JsonObject:
        return {"method": self.method, "params": self.params}


@dataclass(frozen=True, slots=True)
class Ready:
    arguments: JsonObject


@dataclass(frozen=True, slots=True)
class Stop:
    """Ends the call with ``isError``: declined, or arguments the API would refuse (``invalid``)."""

    message: str
    invalid: bool = False


@dataclass(frozen=True, slots=True)
class InputRequired:
    questions: tuple[Question, ...]
    state: str | None

    def result(self) -> JsonObject:
        result: JsonObject = {
            "resultType": "input_required",
            "inputRequests": {q.key: q.request() for q in self.questions},
        }
        if self.state is not None:
            result["requestState"] = self.state
        return result


@dataclass(frozen=True, slots=True)
class _Ask:
    questions: tuple[Question, ...]


@dataclass(frozen=True, slots=True)
class _Refuse:
    """A confirmation is required and the client cannot be asked."""


Outcome = Ready | Stop | InputRequired


@dataclass(slots=True)
class Interaction:
    """One request's channel to the user; ``NO_INTERACTION`` when there is none."""

    capabilities: Any = None
    modern: bool = True
    signer: StateSigner | None = None
    # what a requestState is bound to: a Binding, or the request it is made from when first needed
    # (the arguments digest costs a JSON dump, which most calls never need)
    binding: Binding | tuple[str, Any, Any, str | None] | None = None
    responses: Any = None
    state: Any = None
    ask: Asker | None = None
    elicit_missing: bool = True
    # per-user mode: who is calling, (issuer, subject), and the request's protocol revision
    caller: tuple[str, str] | None = None
    version: str = ""
    # exchange mode: the caller's bearer token, held out of sight (auth.bearer.InboundToken)
    inbound: InboundToken | None = None
    # a legacy HTTP session's id (Mcp-Session-Id): who an unauthenticated caller is, for as long
    # as the session lasts (the search log pairs a caller's searches and calls by it)
    session_id: str | None = None

    @classmethod
    def for_request(
        cls,
        method: str,
        params: JsonObject,
        capabilities: Any,
        subject: str | None,
        signer: StateSigner,
        elicit_missing: bool = True,
    ) -> Interaction:
        """A 2026-07-28 request's interaction: its answers, its state, what it is bound to."""
        for key in ("inputResponses", "requestState"):
            if key in params and params[key] is None:
                raise JsonRpcError(INVALID_PARAMS, f"{key} must not be null")
        return cls(
            capabilities,
            True,
            signer,
            (method, params.get("name"), params.get("arguments"), subject),
            params.get("inputResponses"),
            params.get("requestState"),
            elicit_missing=elicit_missing,
        )

    def can(self, method: str) -> bool:
        return client_supports(self.capabilities, method)

    async def resolve(self, target: Target, arguments: JsonObject, check: Check) -> Outcome:
        if target.simple and self.responses is None and self.state is None:
            missing = _missing(target.schema, arguments)
            if not missing or not self.elicit_missing or not self.can(ELICIT):
                problem = check(arguments)
                return Stop(problem, invalid=True) if problem is not None else Ready(arguments)
        if self.ask is not None and not self.modern:
            return await self._resolve_by_asking(target, arguments, check)
        return self._resolve_by_rounds(target, arguments, check)

    # -- 2026-07-28: input_required and retries ------------------------------------------------

    def _resolve_by_rounds(self, target: Target, arguments: JsonObject, check: Check) -> Outcome:
        asked: frozenset[str] | None = None
        answers: dict[str, JsonObject] = {}
        if self.state is not None:
            state = self._open_state()
            answers, asked = dict(state.answers), frozenset(state.asked)
        responses = self._responses()
        while True:
            step = self._step(target, arguments, answers, check)
            if not isinstance(step, _Ask):
                return step
            for question in step.questions:
                if question.key in responses and _may_take(question, asked):
                    answers[question.key] = _answer(question, responses[question.key])
            remaining = tuple(q for q in step.questions if q.key not in answers)
            if remaining:
                # ask again for what is still unanswered, keeping what came (sealed in the state)
                return InputRequired(remaining, self._seal(answers, remaining))

    def _open_state(self) -> State:
        binding = self._binding()
        if self.signer is None or binding is None:
            raise JsonRpcError(INVALID_PARAMS, "Invalid requestState: this request takes none")
        try:
            return self.signer.open(self.state, binding)
        except StateError as exc:
            raise JsonRpcError(INVALID_PARAMS, f"Invalid requestState: {exc}") from None

    def _responses(self) -> JsonObject:
        if self.responses is None:
            return {}
        if not isinstance(self.responses, dict):
            raise JsonRpcError(INVALID_PARAMS, "inputResponses must be an object")
        return self.responses

    def _seal(self, answers: Mapping[str, JsonObject], asked: tuple[Question, ...]) -> str | None:
        binding = self._binding()
        if self.signer is None or binding is None:
            return None
        return self.signer.seal(binding, State(answers, tuple(q.key for q in asked)))

    def _binding(self) -> Binding | None:
        if isinstance(self.binding, tuple):
            method, name, arguments, subject = self.binding
            self.binding = Binding(
                method,
                name if isinstance(name, str) else "",
                arguments_digest(arguments if arguments is not None else {}),
                subject,
            )
        return self.binding

    # -- legacy: server-initiated requests -----------------------------------------------------

    async def _resolve_by_asking(
        self, target: Target, arguments: JsonObject, check: Check
    ) -> Outcome:
        assert self.ask is not None
        answers: dict[str, JsonObject] = {}
        while True:
            step = self._step(target, arguments, answers, check)
            if not isinstance(step, _Ask):
                return step
            for question in step.questions:
                try:
                    raw = await self.ask(question.method, question.params)
                    answers[question.key] = parse_answer(question.method, raw, question.requested)
                except (AskError, AnswerError) as exc:
                    return Stop(f"Could not ask the user ({exc}); nothing was sent to the API.")

    # -- the questions -------------------------------------------------------------------------

    def _step(
        self,
        target: Target,
        arguments: JsonObject,
        answers: Mapping[str, JsonObject],
        check: Check,
    ) -> Ready | Stop | _Ask:
        merged = dict(arguments)
        for round_asks in _rounds(target.asks):
            pending: list[Question] = []
            for spec in round_asks:
                outcome = self._declared(target, spec, arguments, merged, answers)
                if isinstance(outcome, Stop):
                    return outcome
                if outcome is not None:
                    pending.append(outcome)
            if pending:
                return _Ask(tuple(pending))
        missing = self._missing_step(target, merged, answers)
        if missing is not None:
            return missing
        problem = check(merged)
        if problem is not None:
            return Stop(problem, invalid=True)
        return self._confirm_step(target, merged, answers)

    def _declared(
        self,
        target: Target,
        spec: AskSpec,
        arguments: JsonObject,
        merged: JsonObject,
        answers: Mapping[str, JsonObject],
    ) -> Question | Stop | None:
        """Apply an answered declared question, or the question still to ask (None: skip it)."""
        method = spec.get("method", ELICIT)
        targets = _targets(spec)
        if targets and all(name in arguments for name in targets):
            return None  # the model gave it: the owner's question is a fallback
        if any(name in target.secrets for name in targets):
            return None
        if not self.can(method):
            if spec.get("needed"):
                return self._cannot_ask(target, method)
            return None
        answer = answers.get(spec["key"])
        if answer is None:
            return _declared_question(spec, merged)
        if answer.get("action") != "accept":
            return Stop(
                f"The user declined to answer ({spec['key']}); nothing was sent to the API."
            )
        _apply(spec, answer, merged, target.schema)
        return None

    def _missing_step(
        self, target: Target, merged: JsonObject, answers: Mapping[str, JsonObject]
    ) -> Stop | _Ask | None:
        answer = answers.get(MISSING_KEY)
        if answer is not None:
            if answer.get("action") != "accept":
                return Stop(
                    f"The user declined to provide the arguments {target.title} needs; "
                    "nothing was sent to the API."
                )
            content = answer.get("content") or {}
            merged.update({k: v for k, v in content.items() if k not in merged})
            return None
        missing = _missing(target.schema, merged)
        if not missing or not self.elicit_missing or not self.can(ELICIT):
            return None
        properties = target.schema.get("properties") or {}
        fields: dict[str, JsonObject] = {}
        for name in missing:
            converted = None
            if name not in target.secrets:
                converted = form_field(properties.get(name), name, target.schema)
            if converted is None:
                return None  # one cannot be asked: the validation error tells the model
            fields[name] = converted
        requested = form_schema(fields, missing)
        titles = ", ".join(f["title"] for f in fields.values())
        message = f"{target.title} ({target.label}) needs: {titles}."
        params = {"message": message, "requestedSchema": requested}
        return _Ask((Question(MISSING_KEY, ELICIT, params, requested),))

    def _confirm_step(
        self, target: Target, merged: JsonObject, answers: Mapping[str, JsonObject]
    ) -> Ready | Stop | _Ask:
        if target.confirm == OFF:
            return Ready(merged)
        if not self.can(ELICIT):
            if target.confirm == WHEN_SUPPORTED:
                return Ready(merged)
            return self._cannot_ask(target, ELICIT)
        answer = answers.get(CONFIRM_KEY)
        if answer is None:
            return _Ask((_confirm_question(target, merged),))
        content = answer.get("content") or {}
        if answer.get("action") == "accept" and content.get("confirm") is True:
            return Ready(merged)
        return Stop(f"The user did not allow {target.title} ({target.label}); nothing was sent.")

    def _cannot_ask(self, target: Target, method: str) -> Stop:
        """The call cannot go on without asking, and this client cannot be asked."""
        capability = _CAPABILITY[method]
        if self.modern:
            raise JsonRpcError(
                MISSING_REQUIRED_CLIENT_CAPABILITY,
                f"Server requires the {capability} capability for {target.name}",
                {"requiredCapabilities": {capability: {}}},
            )
        return Stop(
            f"{target.title} ({target.label}) needs the user's input, and this client cannot be "
            f"asked for it (no {capability} capability); nothing was sent to the API."
        )


NO_INTERACTION = Interaction()
_CAPABILITY = {ELICIT: "elicitation", SAMPLE: "sampling", ROOTS: "roots"}


def _rounds(asks: tuple[AskSpec, ...]) -> list[list[AskSpec]]:
    numbers = sorted({spec.get("round", 1) for spec in asks})
    return [[spec for spec in asks if spec.get("round", 1) == n] for n in numbers]


def _targets(spec: AskSpec) -> tuple[str, ...]:
    if "mapsTo" in spec:
        return (spec["mapsTo"],)
    return tuple(spec.get("fields", {}))


def _declared_question(spec: AskSpec, merged: JsonObject) -> Question:
    method = spec.get("method", ELICIT)
    message = _render(spec.get("message", ""), merged)
    if method == SAMPLE:
        text = _render(spec.get("prompt", ""), merged)
        params: JsonObject = {
            "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
            "maxTokens": spec.get("maxTokens", 256),
        }
        return Question(spec["key"], SAMPLE, params)
    if method == ROOTS:
        return Question(spec["key"], ROOTS, {})
    fields = spec.get("fields", {})
    requested = form_schema(fields, spec.get("required", list(fields)))
    return Question(
        spec["key"], ELICIT, {"message": message, "requestedSchema": requested}, requested
    )


def _apply(spec: AskSpec, answer: JsonObject, merged: JsonObject, schema: JsonObject) -> None:
    """Turn an accepted answer into arguments."""
    target = spec.get("mapsTo")
    if "text" in answer and target:
        merged[target] = answer["text"]
    elif "roots" in answer and target:
        prop = (schema.get("properties") or {}).get(target)
        as_list = isinstance(prop, dict) and prop.get("type") == "array"
        merged[target] = list(answer["roots"]) if as_list else "\n".join(answer["roots"])
    elif "content" in answer:
        content: JsonObject = answer["content"]
        if target and len(spec.get("fields", {})) == 1:
            (only,) = spec.get("fields", {})
            if only in content:
                merged[target] = content[only]
        elif target:
            merged[target] = dict(content)
        else:
            merged.update(content)


def _confirm_question(target: Target, merged: JsonObject) -> Question:
    shown = [n for n in target.key_arguments if n in merged]
    shown += [n for n in merged if n not in shown]
    parts = [f"{name}={_shown(merged[name])}" for name in shown if name not in target.secrets][
        :_SHOWN_ARGUMENTS
    ]
    with_what = f" with {', '.join(parts)}" if parts else ""
    message = f"Allow {target.title} ({target.label}){with_what}?"
    field = {
        "type": "boolean",
        "title": "Allow this call",
        "description": f"Yes sends {target.label} to the API.",
    }
    requested = form_schema({"confirm": field}, ["confirm"])
    return Question(
        CONFIRM_KEY, ELICIT, {"message": message, "requestedSchema": requested}, requested
    )


def _may_take(question: Question, asked: frozenset[str] | None) -> bool:
    if question.key == CONFIRM_KEY:
        return asked is not None and question.key in asked
    return asked is None or question.key in asked


def _answer(question: Question, raw: Any) -> JsonObject:
    try:
        return parse_answer(question.method, raw, question.requested)
    except AnswerError as exc:
        raise JsonRpcError(INVALID_PARAMS, f"inputResponses.{question.key}: {exc}") from None


def _missing(schema: JsonObject, arguments: JsonObject) -> list[str]:
    required = schema.get("required")
    if not isinstance(required, list):
        return []
    return [name for name in required if isinstance(name, str) and name not in arguments]


def _render(template: str, values: Mapping[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        return _shown(values[name]) if name in values else match.group(0)

    return _PLACEHOLDER.sub(value, template)


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"
