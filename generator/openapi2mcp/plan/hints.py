"""Tool hints from what an operation does: the HTTP verb, and the read-only POST rule.

``VERB_HINTS`` gives readOnly, destructive and idempotent per verb (DESIGN.md §5; openWorld is always
true). ``read_only_post`` finds the POSTs that only read — search, query, count, render, validate,
preview and the like — from the words of their operationId, summary and path: a read word and no
side-effect word. Being wrong one way costs a confirmation; the other way lets a host run a write
unasked, so the side-effect words are many and veto in any form ("Creates", "saved"), while a read
word counts only where it names the action. ``classify.py`` applies the rule unless ``x-mcp`` or the
config sets hints itself, and reports each decision.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from ..ir.model import Operation
from . import naming

__all__ = [
    "READ_WORDS",
    "SIDE_EFFECT_WORDS",
    "VERB_HINTS",
    "ReadingPost",
    "acting_command",
    "acting_get",
    "dry_run",
    "read_only_post",
]


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# readOnly, destructive, idempotent per HTTP verb (openWorld is always true)
VERB_HINTS: Mapping[str, tuple[bool, bool, bool]] = {
    "GET": (True, False, True),
    "HEAD": (True, False, True),
    "OPTIONS": (True, False, True),
    "TRACE": (True, False, True),
    "PUT": (False, True, True),
    "DELETE": (False, True, True),
    "PATCH": (False, True, False),
    "POST": (False, True, False),
}
# Words that say an operation only reads. Matched exactly (a plural is a collection noun: POST
# /searches or /filters creates one) in the operationId, as the summary's first word (its verb; later
# words are often nouns: "Rerequest a check suite"), and as a path's last literal segment when it is
# one word (`/_search`, `/_validate/query`). Left out on purpose: verify (Stripe's
# verify_microdeposits changes state), match (reconciliation, trading), convert (CRM leads),
# format (disks) and compute (Feast's compute_metrics and auto_compute store what they compute).
READ_WORDS = _word_set(
    "analyse analyze autocomplete calculate check compare count decode describe diff dryrun "
    "estimate evaluate explain fetch filter find get lint list lookup parse poll preview query "
    "render retrieve search simulate suggest translate validate"
)
# Words that veto it anywhere (operationId, summary, path; inflected forms too: "Creates",
# "saved"). A false veto only keeps the verb's cautious hints, so the list is generous; nouns that
# are also verbs (order, book, place, record) are left out because they rarely come with a read
# word except as the thing searched.
SIDE_EFFECT_WORDS = _word_set(
    "abandon abort accept acknowledge acquire activate add apply approve archive assign attach "
    "authenticate authorize block buy cancel capture change charge checkin checkout claim "
    "clear clone close commit complete confirm consume copy create deactivate decline delete "
    "deprecate "
    "deliver deny deploy dequeue destroy detach disable dismiss dispatch drop edit enable "
    "enqueue enroll erase execute export finalize finish flag follow fork grant hide import "
    "insert install invite join kill lease leave like link lock login logout mark merge "
    "migrate mint modify move mute new notify patch pause pay persist pin pop provision publish "
    "purchase purge push put rebase recreate redeliver refresh refund register reject release "
    "remove "
    "rename renew reopen replace replay rerequest rerun resend reserve reset resize restart "
    "restore "
    "resume retry revert revoke rollback rotate run save scale schedule send session set "
    "share signin signout signup star start stop submit subscribe suspend sync terminate "
    "token transfer trigger truncate unarchive unassign unblock uninstall unlink unlock "
    "unmute unpin unpublish unset unstar unsubscribe update upgrade upload upsert vote void "
    "warm wipe write"
)
# side-effect words a preview or dry run takes back: Stripe's POST /v1/invoices/create_preview
# computes an invoice and creates nothing; only when the path ends in that action
_CREATION_WORDS = frozenset({"build", "create", "generate", "make", "new"})
_NO_EFFECT_ACTIONS = frozenset({"preview", "dryrun"})
# two words read as one: "dry-run", "look up", "check in" (a state change, not a check)
_COMPOUNDS = {
    ("dry", "run"): "dryrun",
    ("look", "up"): "lookup",
    ("auto", "complete"): "autocomplete",
    ("check", "in"): "checkin",
    ("check", "out"): "checkout",
    ("log", "in"): "login",
    ("log", "out"): "logout",
    ("sign", "in"): "signin",
    ("sign", "up"): "signup",
    ("sign", "out"): "signout",
}
# objects of a read that are made by asking for them: a token or a session is issued
_ALWAYS_ACTS = frozenset(
    {"token", "session", "login", "logout", "signin", "signup", "signout", "lock", "lease"}
)
# "Run a search" (Elasticsearch's summary of POST /_search) is a search, not a run
_RUN_WORDS = frozenset({"run", "execute", "perform"})
_ARTICLES = frozenset({"a", "an", "the"})
_INFLECTIONS = (
    ("ies", "y"),
    ("es", ""),
    ("s", ""),
    ("ed", ""),
    ("d", ""),
    ("ing", ""),
    ("ing", "e"),
)


@dataclass(frozen=True, slots=True)
class ReadingPost:
    """Why a POST counts as read-only: the read word and where it was found."""

    word: str
    where: Literal["operationId", "summary", "path"]

    def note(self) -> str:
        """The deciding rule as ``inspect`` shows it."""
        return f"by the read-only POST rule: {self.word!r} in its {self.where}"


def read_only_post(op: Operation) -> ReadingPost | None:
    """Does this POST only read? A read word and no side-effect word (module constants).

    The operationId, the summary and the path's literal segments are split into words (camelCase,
    snake_case, kebab-case, dots, slashes). Being wrong one way costs a confirmation; the other way
    lets a host run a write unasked, so everything uncertain stays a write.
    """
    if op.method != "POST":
        return None
    # FastAPI's ids repeat the path after the function's name (get_archive_by_hash_api_files_…);
    # Google's name the service and the resource before the method (compute.networks.
    # switchToCustomMode: "compute" is the API's name, no verb of the call)
    function = naming.function_name(op.operation_id, op.path) if op.operation_id else ""
    dotted = (op.operation_id or "").split(".")
    method = dotted[-1] if len(dotted) >= 3 and all(dotted) else ""
    identifier = _terms(method or function or op.operation_id or "")
    summary = _read_phrase(_terms(op.summary))
    segments = [_terms(s) for s in op.path.split("/") if s and not s.startswith("{")]
    last = segments[-1] if segments else []
    everything = [
        *_acting(_without_objects(identifier), named=True),
        *_acting(summary, named=False),
        *(word for segment in segments for word in _acting(segment, named=True)),
        # what the description says first that keeps something (Feast's compute_metrics: "Submit
        # a DQM job to compute and store metrics", which a read had run unasked); its other
        # verbs tell of more than this call does ("send a POST request", "the token scopes")
        *(
            word
            for word in _acting(_read_phrase(_terms(_first_sentence(op.description))), named=False)
            if word in _KEEPING
            or word.removesuffix("s") in _KEEPING
            or word.removesuffix("es") in _KEEPING
        ),
    ]
    vetoes = {form for word in everything for form in _forms(word)} & SIDE_EFFECT_WORDS
    if last and last[-1] in _NO_EFFECT_ACTIONS:
        vetoes -= _CREATION_WORDS
    if vetoes:
        return None
    if identifier[:1] == ["download"] and _DOWNLOADED & set(identifier[1:]):
        # files the caller gets (Langflow's download_files_batch, a zip of them); a model a
        # server downloads for itself (Ollama's download_model) is no read
        return ReadingPost("download", "operationId")
    # a name led by the method spells its path, where a read word is a noun unless it ends the
    # path's last word (Stripe's PostRadarValueListItems and PostRadarValueListsValueList: a
    # value list, of /value_list_items and /value_lists/{value_list}; PostInvoicesCreatePreview
    # at /invoices/create_preview: a preview)
    named = identifier
    if identifier[:1] == ["post"]:
        named = identifier[-1:] if last[-1:] == identifier[-1:] else []
    found: list[tuple[str, Literal["operationId", "summary", "path"]]] = [
        *((word, "operationId") for word in named),
        *((word, "summary") for word in summary[:1]),
        # a last segment that is one read word, or leads with one (Aim's /metric/get-batch)
        *((word, "path") for word in last[:1]),
    ]
    return next((ReadingPost(w, where) for w, where in found if w in READ_WORDS), None)


def dry_run(op: Operation) -> bool:
    """Whether a change (PUT, PATCH, DELETE) only says what it would do: its path ends in a dry
    run (Airflow 3's ``PATCH …/taskInstances/{task_id}/dry_run`` lists the task instances a
    change of state would touch, and changes none). A POST's is ``read_only_post``'s."""
    last = op.path.rstrip("/").rsplit("/", 1)[-1]
    return op.method in ("PUT", "PATCH", "DELETE") and _terms(last) == ["dryrun"]


# what a description says of a call that keeps what it makes, or replaces what there was
# (Karrio's rates: "Fetch new shipment rates", "Refresh the list of the shipment rates": the
# shipment's earlier rate ids stop working)
_KEEPING = frozenset(
    {"store", "persist", "save", "submit", "write", "insert", "enqueue", "refresh", "replace"}
)


def _first_sentence(text: str) -> str:
    """A description's first sentence (up to its first full stop or blank line), without what it
    quotes as code (dstack's "sorted by `submitted_at`" submits nothing)."""
    first = re.sub(r"`[^`]*`", " ", text.strip().split("\n\n", 1)[0])
    return re.split(r"(?<=[a-z0-9)])[.!?](?:\s|$)", first, maxsplit=1)[0]


# what a POST that downloads hands to its caller (see read_only_post)
_DOWNLOADED = frozenset(
    {"file", "files", "archive", "zip", "attachment", "attachments", "document", "documents",
     "report", "reports", "export", "exports", "backup", "log", "logs"}
)  # fmt: skip

# verbs that say a GET acts when one leads its operationId (or its summary, without one):
# LNbits's GET /admin/api/v1/restart (api_restart_server), Etherpad's deletePadUsingGET, ZAP's
# StopScanPage, GoToTraining's startTraining. Left out: invoke (OData functions are reads), run
# and execute ("Execute an ad-hoc query"), stop (a bus stop), start ("Start here for ...")
# unless a noun follows it in an operationId.
ACTING_VERBS = _word_set(
    "restart reboot shutdown send resend trigger delete remove purge wipe destroy kill "
    "terminate cancel revoke reset start stop logout signout logoff reload reindex rebuild "
    "drain flush confirm unsubscribe"
)
# those a name may say last, as FastAPI functions named by their router do (LiteLLM's
# health_drain: GET /health/drain takes the worker out of rotation), and an OAuth callback, which
# trades the code it is given for a session and signs in or makes an account (Open WebUI's
# oauth_login_callback); a trailing start, stop or trigger is as often a noun (a bus stop, a
# webhook's trigger)
_TRAILING_ACTS = (ACTING_VERBS | {"callback"}) - {"start", "stop", "trigger"}
# a path's last segment that names such an endpoint
_ACTING_ENDPOINTS = frozenset({"callback", "oauth2callback", "unsubscribe"})
# what acts said alone: ZenML's GET /api/v1/logout ("logout"), which a client reading every
# resource it lists would call
_SIGN_OUT = frozenset({"logout", "signout", "logoff"})
# a lead those verbs share with a read (StopPoint_GetByGeoPoint, "Send search terms to receive")
_READ_ANYWHERE = frozenset(
    {"get", "list", "read", "search", "query", "find", "lookup", "fetch", "status", "progress"}
)
_READ_LEADS = frozenset({"return", "show", "read"})
# prefixes FastAPI and others put before the verb (api_restart_server)
_LEADING_NOISE = frozenset({"api", "v1", "v2", "v3", "admin"})


def _name_words(op: Operation) -> list[str]:
    """The words of ``op``'s name: its operationId's (its function's, for FastAPI, whose ids end
    with the path and method: ``api_restart_server_admin_api_v1_restart_get``; its handler's,
    for Litestar, whose ids lead with the path), else its summary's, else its path's last
    segment's, without the prefixes put before the verb (``api_``, ``v1_``)."""
    name = naming.function_name(op.operation_id, op.path) if op.operation_id else ""
    if op.operation_id and not name:
        # Litestar's ids lead with the path: ApiProjectsProjectIdReload + ReloadProjectSnapshots
        said, path = naming.words(op.operation_id), naming.words(op.path)
        rest = said[len(path) :]
        # not springfox's deletePadUsingGET at /deletePad: a path that is the name, and its method
        if len(path) >= 2 and len(rest) >= 2 and said[: len(path)] == path and rest[0] != "using":
            name = " ".join(rest)
    # nothing else, the path's last segment (PostgREST's GET /rpc/reset_stock, a function)
    last = "" if "{" in op.path.rsplit("/", 1)[-1] else op.path.rstrip("/").rsplit("/", 1)[-1]
    words = _terms(name or op.operation_id or op.summary or last)
    while words and words[0] in _LEADING_NOISE:
        words = words[1:]
    return words


def acting_get(op: Operation) -> str | None:
    """The verb that says this GET changes something, when one leads its operationId (or its
    summary, when it has no operationId) or, but for start, stop and trigger, ends it, and
    nothing in it reads: clients preload resources, and a host runs a read-only tool unasked,
    so such a GET must be neither."""
    if op.method != "GET":
        return None
    words = _name_words(op)
    if words[-2:] == ["using", "get"]:
        words = words[:-2]  # springfox names a method by its verb: deletePadUsingGET
    if words[:2] in (["log", "out"], ["sign", "out"], ["log", "off"]):
        words = ["".join(words[:2]), *words[2:]]
    alone = bool(words) and words[0] in _SIGN_OUT
    if len(words) >= 2 and words[0] not in ACTING_VERBS and words[-1] in _TRAILING_ACTS:
        words = [words[-1], *words[:-1]]  # health_drain
    if (
        (len(words) < 2 and not alone)
        or words[0] not in ACTING_VERBS | _TRAILING_ACTS
        or _READ_ANYWHERE & set(words)
    ):
        return None
    # a summary that reads says what a controller's name does not (TfL's StopPoint_Arrivals:
    # "Gets the list of arrival predictions")
    said = _terms(op.summary)[:1]
    if said and _forms(said[0]) & (READ_WORDS | _READ_LEADS):
        return None
    return words[0]


def _acting(words: list[str], *, named: bool) -> list[str]:
    """``words`` that may say an action: not the thing a leading read word reads (dstack's
    ``list_runs``, ``get_archive_by_hash``: the runs and the archive are read), unless it is made
    by asking (a token, a session); in a name or a path (``named``), not a collection's plural
    (``ListWorldExportJobs``, ``/runs/``) either. A later verb still acts: Google's
    ``compute.instances.insert`` and ``translate.…cancel``, Azure's ``ImageLists_Create``."""
    read = bool(words) and words[0] in READ_WORDS
    return [
        word
        for position, word in enumerate(words)
        if not (position == 1 and read and word not in _acts_after(words[0]))
        and not (named and _collection(word))
    ]


# read words that look at what they are given: a token checked or decoded is none issued
# (ArchiveBox's auth_check_api_token, "Validate an API token", was destructive)
_CHECKING = frozenset({"check", "validate", "decode", "parse", "lint", "explain", "describe"})


def _acts_after(read: str) -> frozenset[str]:
    """What still acts when ``read`` reads it: a token or a session asked for is issued."""
    return frozenset() if read in _CHECKING else _ALWAYS_ACTS


# words that end the thing a leading read word reads ("Get file archive by hash"; "List and cancel")
_CONJUNCTIONS = frozenset({"and", "or", "then"})
_PHRASE_ENDS = _CONJUNCTIONS | {"by", "for", "of", "in", "from", "to", "with", "on", "at", "into"}


def _read_phrase(words: list[str]) -> list[str]:
    """A summary's words without the noun phrases its leading read word reads, up to the first
    conjunction: the thing ("Get file archive by hash", Airflow's "Get List Dag Runs Batch") and
    what a preposition adds to it (Letta's "Retrieve stream for run": a run's); what is read is
    no action. A token or a session is made by asking for it."""
    if not words or words[0] not in READ_WORDS:
        return words
    end = next((i for i, w in enumerate(words) if i and w in _CONJUNCTIONS), len(words))
    return [words[0], *(w for w in words[1:end] if w in _acts_after(words[0])), *words[end:]]


def _without_objects(words: list[str]) -> list[str]:
    """A name that leads with a read word without what a preposition adds to the thing read, up
    to a conjunction (Letta's ``retrieve_stream_for_run``: a run's stream, no run made); a later
    verb with no preposition before it still acts (``compute.instances.insert``)."""
    if not words or words[0] not in READ_WORDS:
        return words
    start = next((i for i, w in enumerate(words) if i and w in _PHRASE_ENDS), len(words))
    if start == len(words) or words[start] in _CONJUNCTIONS:
        return words
    end = next((i for i in range(start, len(words)) if words[i] in _CONJUNCTIONS), len(words))
    acting = _acts_after(words[0])
    return [*words[:start], *(w for w in words[start:end] if w in acting), *words[end:]]


def _collection(word: str) -> bool:
    """A path segment's plural noun (``/runs``, ``/exports``): a collection, not its verb."""
    return word.endswith("s") and word not in SIDE_EFFECT_WORDS and word[:-1] in SIDE_EFFECT_WORDS


def _terms(text: str) -> list[str]:
    """Lower-case words, with two-word terms joined ("dry run") and "run a search" a search."""
    words = naming.words(text)
    joined: list[str] = []
    for word in words:
        compound = _COMPOUNDS.get((joined[-1], word)) if joined else None
        if compound:
            joined[-1] = compound
        else:
            joined.append(word)
    out: list[str] = []
    for word in joined:
        if word == "search":
            verb = len(out) - (2 if out and out[-1] in _ARTICLES else 1)
            if verb >= 0 and out[verb] in _RUN_WORDS:
                del out[verb:]
        out.append(word)
    return out


def _forms(word: str) -> set[str]:
    """The word and what it may be an inflection of ("saved" → save, "stopped" → stop)."""
    forms = {word}
    for suffix, ending in _INFLECTIONS:
        stem = word[: -len(suffix)] if word.endswith(suffix) else ""
        if len(stem) >= 2:
            forms.add(stem + ending)
            if len(stem) >= 3 and stem[-1] == stem[-2]:
                forms.add(stem[:-1])
    return forms


# verbs that add: a POST they lead makes something new and changes nothing there was (MCP's
# destructiveHint false: "only additive updates")
_ADDING = frozenset(
    {
        "create", "add", "new", "insert", "register", "invite", "append", "attach", "upload",
        "fork", "clone", "duplicate",
    }
)  # fmt: skip
# words that say more than adding, anywhere in the name (Azure's CreateOrUpdate, an upsert)
_NOT_ONLY_ADDING = frozenset(
    {
        "update", "replace", "overwrite", "upsert", "delete", "remove", "reset", "set", "put",
        "merge", "move", "sync", "restore", "rotate", "revoke", "cancel", "clear", "purge",
        "destroy", "import", "execute", "run", "send", "trigger", "publish", "deploy", "or",
    }
)  # fmt: skip


# verbs that add to what a thing has rather than make a thing; with a plural or a membership
# they may set what is there: dstack's add_project_members gives a member already there the
# role it is sent (a demotion)
_ADDING_TO = frozenset({"add", "attach", "append", "invite", "register"})
_MEMBERSHIP = frozenset(
    {"member", "role", "permission", "collaborator", "grant", "access", "owner", "admin"}
)


def _sets_members(words: list[str]) -> bool:
    """Whether an adding verb's object may already be there with other values."""
    plural = ("s",), ("ss", "us", "is")
    return any(
        _forms(w) & _MEMBERSHIP
        or (len(w) > 3 and w.endswith(plural[0]) and not w.endswith(plural[1]))
        for w in words[1:]
    )


# what a field says of a create that may replace what is there (Feast's register_saved_dataset
# with allow_override: true replaced a dataset of that name, its description and tags lost)
# (a field that is such a word, alone or with these; not force_ssl, IsForced, a2a_card_overrides)
_REPLACING_FIELDS = frozenset({"override", "overwrite", "replace", "upsert", "force"})
_REPLACING_WITH = frozenset({"allow", "existing", "exist", "exists", "if", "ok", "on", "conflict"})


def _replaces(field: str) -> bool:
    """Whether a field a create takes asks it to replace what is there (see above)."""
    words = _terms(field)
    said = {word for word in words if _forms(word) & _REPLACING_FIELDS}
    return bool(said) and all(word in said or word in _REPLACING_WITH for word in words)


def additive_post(op: Operation, fields: Iterable[str] = ()) -> str | None:
    """The verb that says this POST only adds (``create_tag``, ``addPet``, "Create a record"),
    when one leads its operationId (its function's, for FastAPI; its summary without one) and no
    word says more, nor a field it takes (``fields``: its parameters' and body's, which may ask
    it to overwrite): creating a tag is no destructive act, and a client that confirms each
    destructive call had asked before every insert (Mayan's, NocoDB's)."""
    if op.method != "POST":
        return None
    if any(_replaces(field) for field in fields):
        return None
    words = _name_words(op)
    if words[:1] == ["post"]:
        # a function named by its method (Airflow's FastAPI post_variable, "Create a variable."):
        # its description's first word says what it does
        words = [*_terms(_first_sentence(op.description))[:1], *words[1:]]
    if _created_last(op, words):
        words = [words[-1], *words[:-1]]  # Django REST framework's tags_create
    last = op.path.rstrip("/").rsplit("/", 1)[-1]
    if words in (["create"], ["add"]) and _collection(last) is False and last.endswith("s"):
        # a name of the verb alone on a collection (Karrio's $create at /v1/parcels): the
        # collection says what is made
        words = [words[0], *_terms(last)]
    if len(words) < 2 or words[0] not in _ADDING or _NOT_ONLY_ADDING & set(words):
        return None
    if words[0] in _ADDING_TO and _sets_members(words):
        return None
    said = _terms(op.summary)
    if said and _NOT_ONLY_ADDING & set(said):
        return None
    return words[0]


def _created_last(op: Operation, words: list[str]) -> bool:
    """Whether a name says ``create`` last of a POST to a collection, as drf-spectacular names a
    viewset's create (pretalx's ``tags_create`` at ``/api/events/{event}/tags/``), after the
    collection's plural, and nothing before it acts (``submissions_accept_create``, an action on
    one submission, does)."""
    last = op.path.rstrip("/").rsplit("/", 1)[-1]
    # the collection's own words act in no sense (NetBox's custom-links, saved-filters, tokens)
    collection = set(_terms(last))
    return (
        len(words) >= 2
        and words[-1] == "create"
        and not last.startswith("{")
        # what is created, a collection's plural (an action says no plural: webhooks_active)
        and words[-2].endswith("s")
        and not words[-2].endswith("ss")
        and not any(
            _forms(word) & SIDE_EFFECT_WORDS for word in words[:-1] if word not in collection
        )
    )


def acting_endpoint(op: Operation) -> str | None:
    """The last segment of a GET's path when it names an endpoint that acts, whatever the name
    or summary say (Strapi's ``/auth/{provider}/callback``, "Default Callback from provider
    auth"; a mailing list's ``/unsubscribe``)."""
    last = op.path.rstrip("/").rsplit("/", 1)[-1].lower()
    return last if op.method == "GET" and last in _ACTING_ENDPOINTS else None


# a query parameter that names what a GET is to do (Netdata's /manage/health?cmd=DISABLE ALL)
_COMMAND_PARAMETERS = frozenset({"cmd", "command", "action", "op", "operation", "do", "verb"})


def acting_command(op: Operation) -> str | None:
    """``name=value`` when a GET takes a command among whose values one acts, whatever its name
    says: Netdata's ``GET /manage/health`` ("Accesses the health management API") takes ``cmd``,
    one of ``LIST``, ``SILENCE ALL``, ``DISABLE ALL``, ``RESET``; read as a resource, it had
    silenced every alarm notification."""
    words = _name_words(op)
    reads = any(w in READ_WORDS for w in words)
    if op.method != "GET" or (reads and not any(_forms(w) & SIDE_EFFECT_WORDS for w in words)):
        return None  # a list's filter by action (GitHub's issues/list-suggestions, close_issue)
    for param in op.parameters:
        if param.location != "query" or param.name.lower() not in _COMMAND_PARAMETERS:
            continue
        if "filter" in _terms(param.description) or "filter" in _terms(
            str(param.schema.get("description", ""))
        ):
            continue  # "Filter suggestions by the change they propose"
        schema = param.schema
        items = schema.get("items")
        values = (items if isinstance(items, dict) else schema).get("enum")
        for value in values if isinstance(values, list) else ():
            first = _terms(value)[:1] if isinstance(value, str) else []
            if first and _forms(first[0]) & SIDE_EFFECT_WORDS:
                return f"{param.name}={value}"
    return None


def verb_place(op: Operation, verb: str) -> str:
    """Where ``verb`` is in ``op``'s name, as ``inspect`` says it: "leads" or "ends"."""
    words = _name_words(op)
    return "ends" if words and words[0] != verb and words[-1] == verb else "leads"
