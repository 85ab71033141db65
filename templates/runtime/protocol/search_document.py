"""What the search knows of one operation: its terms by field, its kind, what it is about.

An ``Entry`` (name, summary, method, path, tags, parameter names, description) becomes a
``Document``: the terms of each field (the description's first sentence apart from the rest of
its start, markup removed), the acronyms of runs of its name's words (``pvc`` of persistent volume
claim); its *label*, the terms its name says beyond its verb and leading tag; its *intent* (create,
read, list, update, delete: from the verb its name starts with, or ends with when it starts with
no verb, as RPC-style names do ("conversations.list"), else the verb its description
starts with, else its method and whether its path ends at one item; or none, with the verb of its
own: merge, star); and its *heads*, what it is about: the noun its name ends with before any
preposition, and its path's last collection. ``join_compounds`` adds what the whole API teaches:
name words it also writes as one (``cron job``, ``cronjobs``). Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .search_vocabulary import CREATE, DELETE, LIST, READ, UPDATE, rephrased, stem, vocabulary
from .search_vocabulary import words_of as _words

_MARKUP = re.compile(r"<[^>]*>|\]\([^)]*\)|https?://\S+|`[^`]*`|^>.*$", re.MULTILINE)
_SENTENCE = re.compile(r"(?<=[.!?])\s|\n\s*\n")
# how much of a description is searched: its first words say what the operation does
TEXT_CHARS = 300
# a description that says its operation is deprecated, not one that mentions another's
_DEPRECATED = re.compile(
    r"(?:^|[.(\[]\s*)deprecated\b|\b(?:is|been) deprecated\b|\bdeprecated:", re.IGNORECASE
)
HTTP_METHODS = frozenset({"get", "put", "post", "delete", "patch", "head", "options"})
# a name's head noun comes before these ("create-comment-for-issue")
_NAME_PREPOSITIONS = frozenset(
    {"for", "in", "on", "from", "to", "by", "with", "of", "at", "into", "using", "via"}
)


# verbs after which "for" names what an operation is about ("search for issues")
_SEEKING = frozenset({"search", "find", "look"})
# words a name ends with that name an identifier, not a thing
_IDENTIFIERS = frozenset({"id", "ids", "uuid", "exposed"})
# the fields of a document, in the order ``document`` fills them
FIELDS = ("name", "summary", "lead", "tags", "path", "params", "text", "alias", "about")


@dataclass(frozen=True, slots=True)
class Entry:
    """One operation as the search sees it."""

    name: str
    summary: str
    method: str = ""
    path: str = ""
    tags: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    text: str = ""
    # what the spec says of the resource the operation takes or returns (its schema's description)
    about: str = ""


@dataclass(slots=True)
class Document:
    entry: Entry
    fields: dict[str, set[str]]
    label: frozenset[str] = frozenset()
    # a compound term the name gained (``cronjob``) -> the terms it joins
    compounds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # create, read, list, update, delete; or "" with ``verb`` its own ("merge", "star")
    intent: str = ""
    verb: str = ""
    heads: frozenset[str] = frozenset()
    path_heads: frozenset[str] = frozenset()
    # its description says it is deprecated ("Deprecated: use ... instead")
    deprecated: bool = False


def spelled(words: list[str]) -> list[str]:
    """``words`` with document phrases replaced (``pull request``: ``pull``), one spelling each."""
    vocab = vocabulary()
    return [vocab.equivalent.get(word, word) for word in rephrased(words, vocab.phrases)]


@lru_cache(maxsize=8192)
def _terms(text: str) -> tuple[str, ...]:
    stop = vocabulary().stop
    return tuple(stem(word) for word in spelled(_words(text)) if word not in stop)


def terms(text: str) -> list[str]:
    """The searchable terms of ``text``, in order (stop words dropped)."""
    return list(_terms(text))


def lead_of(description: str) -> tuple[str, str]:
    """The first sentence of a description, and the start of the rest (markup removed)."""
    plain = _MARKUP.sub(" ", description[: TEXT_CHARS * 2]).strip()
    parts = _SENTENCE.split(plain, maxsplit=1)
    return parts[0], (parts[1] if len(parts) > 1 else "")[:TEXT_CHARS]


def document(entry: Entry) -> Document:
    vocab = vocabulary()
    lead, rest = lead_of(entry.text)
    path = " ".join(part for part in entry.path.split("/") if not part.startswith("{"))
    name = spelled(_words(entry.name))
    found = Document(
        entry,
        {
            "name": {stem(w) for w in name if w not in vocab.stop},
            "summary": set(terms(entry.summary)),
            "lead": set(terms(lead)),
            "tags": {t for tag in entry.tags for t in terms(tag)},
            "path": set(terms(path)),
            "params": {t for param in entry.params for t in terms(param)},
            "text": set(terms(rest)),
            "alias": _acronyms(name),
            "about": set(terms(entry.about[: TEXT_CHARS * 3])),
        },
    )
    prefix = _tag_prefix(entry, name)
    said = (w for w in name[prefix:] if w not in HTTP_METHODS and w not in _IDENTIFIERS)
    label = {stem(w) for w in said if w not in vocab.stop}
    # a PATCH's "partial" says how it updates, which its method says (Django REST framework's
    # partial_update): unsaid by a query, it had put the PUT beside it first ("rename a device")
    plain = _PARTIAL if entry.method.upper() == "PATCH" else frozenset()
    found.label = frozenset(t for t in label if t not in vocab.operation_verbs and t not in plain)
    found.intent, found.verb = _intent_of(entry, name[prefix:], lead, name[:prefix])
    found.heads = _name_heads(entry, prefix, found.verb)
    found.path_heads = _path_heads(entry)
    found.deprecated = bool(_DEPRECATED.search(entry.text[:TEXT_CHARS]))
    return found


def document_data(found: Document) -> dict[str, Any]:
    """``found`` as JSON data (what the generator writes; ``document_from_data`` reads it)."""
    data: dict[str, Any] = {
        "fields": {name: " ".join(sorted(terms)) for name, terms in found.fields.items() if terms},
        "label": " ".join(sorted(found.label)),
        "heads": " ".join(sorted(found.heads)),
        "pathHeads": " ".join(sorted(found.path_heads)),
    }
    if found.intent:
        data["intent"] = found.intent
    if found.verb:
        data["verb"] = found.verb
    if found.compounds:
        data["compounds"] = {term: " ".join(parts) for term, parts in found.compounds.items()}
    if found.deprecated:
        data["deprecated"] = True
    return data


def document_from_data(entry: Entry, data: Mapping[str, Any]) -> Document:
    """The ``Document`` of ``entry`` that ``document_data`` wrote (``ValueError`` if malformed)."""
    try:
        fields = {name: set(str(data["fields"].get(name, "")).split()) for name in FIELDS}
        return Document(
            entry,
            fields,
            label=frozenset(str(data["label"]).split()),
            compounds={t: tuple(str(p).split()) for t, p in data.get("compounds", {}).items()},
            intent=str(data.get("intent", "")),
            verb=str(data.get("verb", "")),
            heads=frozenset(str(data["heads"]).split()),
            path_heads=frozenset(str(data["pathHeads"]).split()),
            deprecated=data.get("deprecated") is True,
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"malformed search document for {entry.name!r}: {error}") from error


def join_compounds(document: Document, known: frozenset[str]) -> None:
    """Name words that the API also writes as one (``cron job``, ``cronjobs``) gain that word."""
    words = spelled(_words(document.entry.name))
    for size in (2, 3):
        for start in range(len(words) - size + 1):
            run = words[start : start + size]
            joined = stem("".join(run))
            if joined in known and joined not in document.fields["name"]:
                document.fields["name"].add(joined)
                document.compounds[joined] = tuple(stem(w) for w in run)
                if stem(run[-1]) in document.heads:
                    document.heads |= {joined}


def _tag_prefix(entry: Entry, name: list[str]) -> int:
    """How many words the name starts with that are its tag's (``repos`` in ``repos_get``)."""
    for tag in entry.tags:
        found = spelled(_words(tag))
        if found and name[: len(found)] == found:
            return len(found)
    return 0


def _acronyms(words: list[str]) -> set[str]:
    """Acronyms of runs of two to four name words: ``pvc`` of persistent volume claim."""
    found = set()
    for start in range(len(words)):
        for size in (2, 3, 4):
            run = words[start : start + size]
            if len(run) == size:
                found.add("".join(word[0] for word in run))
    return {acronym for acronym in found if len(acronym) >= 3}


def _name_heads(entry: Entry, prefix: int, verb: str) -> frozenset[str]:
    """The noun a name ends with before any preposition (``comment`` of ``create-comment-for-
    issue``; its tag for ``repos_delete``)."""
    # short words too this time: "list-in-repository-for-user" is about a repository
    name = spelled(_words(entry.name, shortest=2))
    words = [w for w in name[prefix:] if w not in HTTP_METHODS]
    if words and (stem(words[0]) in vocabulary().operation_verbs or stem(words[0]) == verb):
        words = words[1:]
    elif len(words) > 1 and (
        stem(words[-1]) == verb or stem(words[-1]) in _SEEKING or _verb_last(words)
    ):
        # post_payment_intents_intent_confirm, get_customers_search: about the intent, customers
        words = words[:-1]
    seeking = any(stem(w) in _SEEKING for w in name[prefix : prefix + 1])
    if seeking and words[:1] == ["for"]:
        words = words[1:]  # "search-for-issues-using-jql": about issues
    for position, word in enumerate(words):
        if word in _NAME_PREPOSITIONS:
            words = words[:position]
            break
    while len(words) > 1 and (words[-1] in _IDENTIFIERS or words[-1] in _PARTIAL):
        # delete_subscriptions_subscription_exposed_id: a subscription; devices_partial: devices
        words = words[:-1]
    if words:
        return frozenset({stem(words[-1])})
    return frozenset({stem(name[prefix - 1])}) if prefix else frozenset()


_PARTIAL = frozenset({"partial", "partially"})
# words that lead a name to say how an operation is done, not what it is done to
_MODIFIERS = frozenset({"bulk", "batch", "async", "multi", "mass", "legacy", "internal"})


def _path_stems(entry: Entry) -> set[str]:
    """The stems of the literal words of ``entry``'s path."""
    literal = (part for part in entry.path.split("/") if part and not part.startswith("{"))
    return {stem(word) for part in literal for word in _words(part)}


def _lists(entry: Entry, words: list[str]) -> bool:
    """Whether a GET a reading verb names reads a collection: its path ends in no item, and its
    name in a plural (``read_flows``; not ``get_status``, ``read_config``)."""
    last = words[-1] if len(words) > 1 else ""
    plural = last.endswith("s") and not last.endswith(("ss", "us", "is")) and stem(last) != last
    return plural and not entry.path.rstrip("/").endswith("}")


def _verb_last(words: list[str]) -> bool:
    """Whether a name says its verb last, as RPC-style names do ("admin.teams.owners.list",
    "meetingCreate"): its first word is no verb, its last one is one of a kind (create, read,
    list, update, delete)."""
    verbs = vocabulary().operation_verbs
    return len(words) > 1 and stem(words[0]) not in verbs and stem(words[-1]) in verbs


def _path_heads(entry: Entry) -> frozenset[str]:
    """The path's last collection: ``/pulls/{n}/merge`` is about pulls, since a last segment
    after an item that is not a plural (nor a reading) is an action on it."""
    segments = [part for part in entry.path.strip("/").split("/") if part]
    for position in range(len(segments) - 1, -1, -1):
        found = [] if segments[position].startswith("{") else _words(segments[position])
        if not found:
            continue
        after_item = position > 0 and segments[position - 1].startswith("{")
        action = after_item and not found[-1].endswith("s") and entry.method.upper() != "GET"
        verb = stem(found[-1]) in vocabulary().operation_verbs
        if position == len(segments) - 1 and (action or verb):
            continue
        return frozenset({stem("".join(spelled(found)))})
    return frozenset()


def _path_action(entry: Entry) -> str:
    """The stem of the action a path ends with (``/payment_intents/{intent}/confirm``), or ""."""
    segments = [part for part in entry.path.strip("/").split("/") if part]
    if len(segments) < 2 or not segments[-2].startswith("{") or entry.method.upper() == "GET":
        return ""
    found = _words(segments[-1])
    if len(found) != 1 or found[0].endswith("s"):
        return ""
    return stem(found[0])


def _own_verb(lead: str) -> str:
    """The stem of the verb a description starts with when it is not one of the five kinds
    ("Cancels ...": cancel), else ""."""
    vocab = vocabulary()
    words = _words(lead)
    verb = stem(words[0]) if words else ""
    known = verb in vocab.actions or verb in vocab.general_verbs
    return verb if known and verb not in vocab.operation_verbs else ""


def _intent_of(entry: Entry, name: list[str], lead: str, tag: list[str]) -> tuple[str, str]:
    """What kind of operation ``entry`` is (create, read, list, update, delete, or "" when its
    name starts with a verb of its own), and that verb."""
    method = entry.method.upper()
    vocab = vocabulary()
    words = [w for w in name if w not in vocab.stop]
    tag_verb = vocab.operation_verbs.get(stem(tag[-1])) if tag else None
    if tag_verb is not None and method != "DELETE":
        return tag_verb, ""  # "search/issues-and-pull-requests": the tag says what it does
    if _verb_last(words):
        words = [words[-1], *words[:-1]]  # "conversations.list", "meetingCreate"
    # a name that starts with another method than its own says a verb ("getCommentsByIds",
    # a POST that reads), not how it is called
    if words and (words[0] not in HTTP_METHODS or words[0] != method.lower()):
        verb = stem(words[0])
        intent = vocab.operation_verbs.get(verb)
        # the second word a verb as written ("settings" is no "set"), the first no modifier
        # ("bulk get users": a bulk read)
        second = words[1] if len(words) > 1 and not words[1].endswith("s") else ""
        then = vocab.operation_verbs.get(stem(second)) if second else None
        leads = verb not in _MODIFIERS and verb in _path_stems(entry)
        if intent is None and then is not None and leads:
            # a name that leads with the thing its path names, then the verb (Aim's
            # run_search_api at /runs/search/run: a search of runs, not a run)
            return then, ""
        if method == "DELETE":
            return DELETE, "" if intent is not None else verb
        if intent == READ and method == "GET" and _lists(entry, words):
            return LIST, ""  # Langflow's read_flows at /api/v1/flows/: "list my flows"
        return ("", verb) if intent is None else (intent, "")
    if method == "DELETE":
        # "Cancels a customer's subscription": a deletion, by a verb of its own
        return DELETE, _own_verb(lead)
    action = _path_action(entry)
    if action:
        # a name made of its method and path, ending in an action on an item (".../confirm")
        intent = vocab.operation_verbs.get(action)
        return (intent, "") if intent is not None else ("", action)
    # a name made of its method and path (post_customers): its description says
    for word in [w for w in _words(lead) if w not in HTTP_METHODS][:4]:
        verb = stem(vocab.equivalent.get(word, word))
        intent = vocab.operation_verbs.get(verb)
        if intent is not None:
            # a reading verb on a collection lists it ("Returns a list of ...")
            collection = not entry.path.rstrip("/").endswith("}")
            listed = intent == READ and method == "GET" and collection and verb != "get"
            return (LIST if listed else intent), ""
    item = entry.path.rstrip("/").endswith("}")
    if method == "GET":
        return (READ if item else LIST), ""
    if method == "POST":
        return (UPDATE if item else CREATE), ""
    return (UPDATE if method in ("PUT", "PATCH") else ""), ""
