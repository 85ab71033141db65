"""Reading a search query the way a user means it, before it meets any operation.

A query is a task in a user's words: "kick alice out of the org", "open tickets assigned to me",
"show me what's in src/app.py". ``read_query`` turns it into words worth matching, each with an
importance, says which kinds of operation it asks for and what it is about. Only its first 500
characters are read. Values are not words (ids, numbers, ``v2.0``, quoted text, names such as
``data-mysql-0`` or a name after "called"), but an e-mail address stands for ``email``, a file name
for a file's path and content, an issue key (``PAY-12``) or number (``#42``) for a ticket (an
issue), ``#general`` for a chat channel, and a named thing of a kind (``node-3``,
``deploy/frontend``) for its kind; some are hints, worth half a word: ``@maria`` (someone), a URL,
an IP address, a version (``v2.3.0``), a commit's sha, a duration (``2h30m``), an image
(``nginx:1.25``), an SSH key, money (``$120``) and an id's prefix (``cus_9s8T``, which the index
reads against the API's things); a hyphenated name (``app-config``) is one word of several parts,
and a word written in parts (``to-do``, ``e-mail``, ``re-run``) one word. Phrases are replaced by
what they mean, also when a phrasal verb's particle comes later ("take a user out"). A request
framed as a question asks for what follows ("can you archive it", "how do I leave #random", "is
there a way to export this"); what follows a colon after it is what to write ("comment on PAY-12:
fixed, pls check"). A question asks to read; otherwise the first word, when it is a verb, gives the
intent: a verb the vocabulary files under create, read, list, update or delete, or one of its own
("refund", "merge"; any word followed by a determiner: "star this project"), which asks for
anything but reading; else a verb told later on what was named ("XYZ-400 is a dupe, nuke it").
"open" is a verb only before a determiner: "open tickets" are tickets in that state, and things
followed by a participle ("tickets assigned to me") ask for a search. The first noun phrase is the
subject. Words after a preposition ("for my branch") or in a subordinate clause ("so nothing new
gets scheduled") say where or which rather than what, and count for less; so do the verb and
question words, whose work is the intent (a generic verb, "show", "create", counts only as intent).
Words about the user ("my", but not "show me") become one weight. What a user tells before the
request ("customer called, cancel sub_1N"; before "can you") or after it ("..., nobody uses it")
counts for half; what someone asked the user to do ("my manager wants me to archive it") is the
request, and so is what was told when the request only points back at it ("... Could you take care
of that?"). Words of a cue table said together ("calls" and "left") add what they mean (a rate
limit). Stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise

from . import search_words as words
from .search_vocabulary import (
    LIST,
    READ,
    Alternatives,
    is_check,
    is_clause,
    is_particle,
    is_preposition,
    is_question,
    is_self,
    is_short_word,
    rephrased,
    stem,
    vocabulary,
    words_of,
)

_EMAIL = re.compile(r"^\S+@\S+\.\w+$")
_FILE = re.compile(
    r"^[\w./-]*\.(?:py|js|ts|tsx|jsx|go|rb|java|kt|rs|c|h|cpp|cs|php|md|txt|json|ya?ml|toml|ini"
    r"|cfg|html|css|sh|sql|csv|xml|lock)$"
)
_DOMAIN = re.compile(r"^@[\w-]+(?:\.[\w-]+)+$")
_HANDLE = re.compile(r"^@[A-Za-z][\w-]*[,.;:!?]?$")
_NUMBERED = re.compile(r"^(?:[\w.-]+/[\w.-]+)?#\d+[,.;:!?]?$")  # "#42", "acme/api#42"
_CHANNEL = re.compile(r"^#[A-Za-z][\w.-]*[,.;:!?]?$")  # "#general", "#proj-atlas": a chat channel
_ISSUE_KEY = re.compile(r"^[A-Z][A-Z0-9]+-\d+$")
# a quoted value ("rename ABC-12 to 'Checkout fails'"): what to write, not what to do
_QUOTED = re.compile(r"(?:(?<=\s)|^)['\"“‘][^'\"“”‘’]{1,120}['\"”’](?=\s|$|[.,;:!?])")
# a name, not a word: digits joined to letters by - _ / . ("team-1", "release/1.4", "pi_123"),
# or a slash ("acme/api", "deploy/frontend"); and the words a name follows
_NAME_VALUE = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[\w.]+(?:[-/][\w.]+)+$|^\w[\w.-]*/[\w./-]+$")
_NAMING = frozenset({"called", "named", "titled"})
_GIVEN_NAME = re.compile(r"\b(?:called|named|titled)\s+\S+", re.IGNORECASE)
_KIND_AND_NAME = re.compile(r"^([A-Za-z]+)(?:-\d+|/[\w.-]+)$")
# an owner's thing ("acme/api", "facebook/react.js"): a repository, most often
_OWNED = re.compile(r"^[A-Za-z][\w-]*/[A-Za-z][\w.-]*$")
# words that ask for things with a property ("customers with an @acme.com email")
_FILTERS = frozenset(
    {"with", "whose", "where", "mentioning", "containing", "matching", "about", "over", "under"}
)
# what an item has, not what a query is about when it names the item ("the status of PAY-12")
_PROPERTIES = frozenset(
    stem(w)
    for w in [
        "status",
        "state",
        "details",
        "detail",
        "info",
        "progress",
        "summary",
        "assignee",
        "reporter",
        "description",
        "title",
        "priority",
        "owner",
    ]
)
_SOMEONE = stem("someone")
# the first parts of hyphenated words that describe, not name ("read-only", "non-prod")
_DESCRIBING = frozenset(
    [
        "read",
        "write",
        "one",
        "two",
        "single",
        "multi",
        "self",
        "non",
        "long",
        "short",
        "high",
        "low",
        "third",
        "open",
        "built",
        "up",
        "all",
        "full",
        "half",
        "real",
        "auto",
        "pre",
        "post",
        "re",
        "co",
        "cross",
        "per",
    ]
)
# someone the user speaks of ("remove him from the org")
_PERSON_PRONOUNS = frozenset({"him", "her"})
# what a key or a number names ("PAY-12", "#42")
_ITEM = "ticket"
# the words a number names ("issue #311"), not verbs there
_ITEM_NAMES = frozenset({"issue", "ticket", "bug"})
# the words values stand for that name one item
_ITEM_WORDS = frozenset({_ITEM})
# a project's key ("OPS", "WEB2")
_KEY = re.compile(r"^[A-Z][A-Z0-9]{1,9}$")
_HYPHENATED = re.compile(r"^[A-Za-z]+(?:-[A-Za-z]+)+$")
# values that say what kind of thing they are: a hint of it (``HINT``), never a word of their own
_URL = re.compile(r"^(?:https?|wss?|ftp)://\S+$", re.IGNORECASE)
_HOST = re.compile(r"^(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|co|ai|cloud|local|internal)$")
_IP = re.compile(r"^(?:\d{1,3}\.){3}\d{1,3}(?:/\d{1,2})?$")  # "10.0.3.17", "10.0.0.0/16"
_VERSION = re.compile(r"^v\d+(?:\.\d+)*(?:-[\w.]+)?$|^\d+\.\d+(?:\.\d+)+(?:-[\w.]+)?$")
_SHA = re.compile(r"^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}$")
_DURATION = re.compile(r"^(?:\d+(?:\.\d+)?[wdhm]){1,3}$")
_IMAGE = re.compile(r"^[a-z0-9][\w./-]*:[\w.-]*\d[\w.-]*$")
_MONEY = re.compile(r"^[$€£¥]\d[\d,.]*[kKmM]?$|^\d[\d,.]*(?:usd|eur|gbp|jpy|cad|aud)$")
_POSSESSIVE = re.compile(r"^([A-Za-z][\w-]*)['’]s$")
_VOTE = re.compile(r"^[+-]1$|^👍$|^👎$")
_SSH_KEY = re.compile(r"^(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\w+)$")
# a setting: a key and its value ("LOG_LEVEL=debug", "env=prod", "replicas=3")
_SETTING = re.compile(r"^[A-Za-z][\w.-]*=\S*$")
# a run of letters and digits no word has ("AAAAC3NzaC1lZDI1"): a key, a token, an id; and a
# shorter one in capitals with digits ("U04SAMK2", "C024BE91L": a chat's ids)
_OPAQUE = re.compile(r"^(?=.*\d)[A-Za-z0-9+/=]{16,}$|^(?=(?:.*\d){2})(?=.*[A-Z])[A-Z0-9]{6,15}$")
# an id whose prefix says its kind ("cus_9s8T", "pi_3AbC9"): the prefix, for the index to read
_PREFIXED_ID = re.compile(r"^([a-z]{2,6})_(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{1,40}$")
# what a hint marks (``~``), and an id's prefix (``~id:``)
HINT_MARK = "~"
ID_HINT = "id:"
_PUNCTUATION = "\"'()[]{}<>,;:!?.`*"
# what is read of a query: a task fits in far less, and no query may cost much
MAX_QUERY_CHARS = 500
MAX_WORD_CHARS = 40
# a hyphenated word's parts travel as one word, joined by this
JOINER = "-"
# what words count for: a modifier (after a preposition), a subordinate clause, a generic word
MODIFIER = 0.7
CLAUSE = 0.5
WEAK = 0.4
SELF = 0.6
HINT = 0.5
_READ_OR_LIST = frozenset({READ, LIST})
_DETERMINERS = frozenset(
    {"a", "an", "the", "this", "that", "these", "those", "my", "our", "your", "his", "her"}
    | {"their", "its", "some", "each", "every", "another", "it", "them", "all"}
)
# a verb the vocabulary does not know ("refund the charge"): any operation but a reading one
ACTION = "action"
# who a question starting with "have" asks about ("have you seen", "have we paid")
_PERSONS = frozenset({"i", "you", "we", "they", "he", "she", "it", "there", "any", "all"})
# what a later verb acts on: the thing named before it
_PRONOUNS = frozenset({"it", "them"})
# "delete all pods": how many, not what
_QUANTIFIERS = frozenset({"all", "every", "each", "everything", "whole", "entire"})
# before a thing, these make it many ("every pod", "all branch")
_EVERY = frozenset({"all", "every", "each"})
_LISTING = frozenset(["list", "all", "every", "search", "find", "everyth", "each"])


@dataclass(frozen=True, slots=True)
class QueryWord:
    """A word of the query: as spelled, stemmed (parts joined by ``JOINER``), its importance."""

    word: str
    stem: str
    importance: float
    # the query's verb: its verb senses count ("file a bug"), not only its noun senses
    verb: bool = False
    # right after the verb or "is": a word the API does not know there is likely someone's name
    named: bool = False
    # what a value stands for ("acme/api": a repo), not a word the user said
    value: bool = False


@dataclass(frozen=True, slots=True)
class Query:
    words: tuple[QueryWord, ...]
    # create, read, list, update, delete: what the query's verb asks for (empty: no verb)
    intents: frozenset[str]
    # the stem of the first word that is not a stop word (a verb of its own: "merge", "star")
    lead: str
    # whether the query's object is plural ("show pods", not "show the pod")
    plural: bool
    # "my", "me": how much the query is about the authenticated user's (0: not at all)
    about_self: float
    # the stems of what the query is about: its first noun phrase ("the stale feature branch")
    subject: frozenset[str] = frozenset()
    # the stems of every word said (values' hints, context and near words too): for the cues
    said: frozenset[str] = frozenset()
    # things with a property ("tickets assigned to me"): a search
    filtered: bool = False
    # what ``said`` has of the request itself, not of what the user tells around it
    asked: frozenset[str] = frozenset()
    # the things the request names by a key or a number ("PAY-12", "#42": a ticket)
    items: frozenset[str] = frozenset()

    @property
    def cues(self) -> tuple[Alternatives, ...]:
        """What words said together mean ("grow and shrink": an autoscaler)."""
        return tuple(meant for _, meant in cue_rules(self.said))


def tokens(text: str, names: set[str] | None = None) -> list[str]:
    """Lower-case words; values dropped or replaced by what they stand for (and the names of
    things dropped added to ``names``, if given)."""
    found: list[str] = []
    naming = False
    raws = _QUOTED.sub(" ", text[:MAX_QUERY_CHARS]).split()
    for position, raw in enumerate(raws):
        if raw.lower() in _SHORTHAND:
            found.append(_SHORTHAND[raw.lower()])  # "w/", "w/o": words, not an owner's thing
            continue
        token = raw.strip(_PUNCTUATION)
        following = (
            raws[position + 1].strip(_PUNCTUATION).lower() if position + 1 < len(raws) else ""
        )
        if naming:
            naming = False  # "a branch called hotfix-123": a name
            continue
        naming = token.lower() in _NAMING
        said = _hint(raw, token, after=found[-1] if found else "")
        if said is None:
            said = _named(raw, token, found[-1] if found else None, first=len(found) == 1)
        if said is not None:
            found.extend(said)
        elif _HYPHENATED.match(token) and _one_word(token) and not (found and _known(found[-1])):
            found.append(token.lower().replace("-", ""))  # "to-do", "e-mail", "sign-up", "re-run"
        elif _HYPHENATED.match(token) and (
            (found and _known(found[-1]))
            or (_thing(following) and not _verbal(token) and not _describes(token))
        ):
            if names is not None:
                names.add(token.lower())
            continue  # "namespace team-alpha", "the app-settings configmap": the thing's name
        elif _HYPHENATED.match(token):
            parts = words_of(token)
            found.append(JOINER.join(parts) if len(parts) > 1 else "".join(parts))
        else:
            found.extend(words_of(re.sub(r"['’]\w*", "", token), shortest=1))
    return [word for word in found if 0 < len(word) <= MAX_WORD_CHARS]


def _one_word(token: str) -> bool:
    """Whether a hyphenated word is one word written in parts, one of them a particle or a
    prefix ("to-do", "follow-up", "e-mail", "log-in", "re-run"), not a name of several words."""
    return any(len(part) < 3 for part in token.split("-"))


def _describes(token: str) -> bool:
    """Whether a hyphenated word says what a thing is like ("read-only", "one-off",
    "self-serve"), not which it is."""
    return token.lower().split("-", 1)[0] in _DESCRIBING


def _named(raw: str, token: str, before: str | None, first: bool = False) -> tuple[str, ...] | None:
    """What a name or a number stands for (``None``: not one): a thing of a kind ("node-3",
    "deploy/web": its kind), an owner's repository ("acme/api"), nothing ("data-mysql-0"), a
    project by its key ("bugs in OPS"), an issue ("#42", "PAY-12"), a file ("src/app.py")."""
    kind = _KIND_AND_NAME.match(token)
    value = not _ISSUE_KEY.match(token) and not _FILE.match(token.lower())
    if kind is not None and value and _known(kind.group(1).lower()):
        return tuple(words_of(kind.group(1)))
    if _OWNED.match(token) and value:
        return (HINT_MARK + "repo",)
    if _NAME_VALUE.match(token) and value:
        return ()
    if _KEY.match(token) and before and is_preposition(before) and not _known(token.lower()):
        return (HINT_MARK + "project",)
    if _NUMBERED.match(raw):
        # "#42": an issue (or a pull request) by its number; after a noun ("PR #42"), that
        # thing's number
        return ("ticket",) if before is None or not _names_thing(before, first) else ()
    if _FILE.match(token.lower()):
        return ("filepath",)
    if _ISSUE_KEY.match(token):
        return ("ticket",)  # a noun: "issue" could be read as a verb
    return None


def _request(text: str) -> tuple[str, str]:
    """What a user tells besides the request, and the request: what comes before "can you" or
    "please" when they do not start the query, what to write after a colon ("comment on PAY-12:
    fixed"), and a remark after a comma ("archive the repo, nobody uses it")."""
    context, text = _told_first(text)
    colon = _CONTENT.search(text)
    if colon is not None and _intents(_phrased(tokens(text[: colon.start()])))[1] == 0:
        # "comment on 1204: pushed a fix, pls check": what follows is what to write
        context, text = f"{text[colon.end() :]} {context}", text[: colon.start()]
    remark = _REMARK.search(text)
    if remark is not None and words_of(text[: remark.start()]):
        context, text = text[remark.end() :], text[: remark.start()]
    found = next(reversed(list(_ASKING.finditer(text))), None)  # the last one
    if found is None or not text[: found.start()].strip(_PUNCTUATION + " "):
        return context, text
    if _intents(_phrased(tokens(text[: found.start()])))[1] == 0:
        return context, text  # "comment on PAY-12: deployed, pls verify": asked first
    if not words_of(text[found.end() :]):
        return context, text  # "delete the repo, please": the request came first
    return f"{text[: found.start()]} {context}", text[found.end() :]


def _told_first(text: str) -> tuple[str, str]:
    """What a user tells before the request, when the request is a later clause of its own:
    "customer called, cancel sub_1N now", "PR 77 is behind main, bring its branch up to date",
    "OPS-88 won't close, what statuses can it go to?" (a clause that starts with a verb or a
    question); ``("", text)`` when the query starts with its request."""
    clauses = list(_CLAUSE_BREAK.finditer(text))
    if not clauses or _opens_request(text[: clauses[0].start()]):
        return "", text
    for found in clauses:
        request = text[found.end() :]
        if _opens_request(request):
            if _PRONOUNS.intersection(words_of(request, shortest=1)):
                break  # "QA-501 is a dupe, delete it": what it is, the user told first
            return text[: found.start()], request
    return "", text


def _opens_request(clause: str) -> bool:
    """Whether ``clause`` starts with its verb or a question word ("cancel it", "what is")."""
    words = _phrased(tokens(clause))
    intents, at = _intents(words)
    vocab = vocabulary()
    first = next((i for i, w in enumerate(words) if _asks(w) or w not in vocab.stop), -1)
    if not intents or first < 0:
        return False
    if at < 0:
        return _asks(words[first])
    # "monitoring error rates", "deployed to staging": not a request
    return at == first and not words[first].endswith(("ing", "ed"))


def _asks(word: str) -> bool:
    return is_question(word) or is_check(word)


def _hint(raw: str, token: str, after: str) -> tuple[str, ...] | None:
    """The words a value stands for: a person (an e-mail address, ``@maria``), or a hint of its
    kind (a URL, ``v2.3.0``, a commit's sha, ``2h30m``, an image, an SSH key, ``cus_9s8T``'s
    prefix); ``()`` for a value that says nothing, ``None`` for a word."""
    someone = HINT_MARK + "someone"
    if _EMAIL.match(token):
        # someone's, most likely; but "change the email to bob@x.com": the value to write
        return (HINT_MARK + "email",) if after == "to" else (HINT_MARK + "email", someone)
    possessive = _POSSESSIVE.match(token)
    base = possessive.group(1).lower() if possessive is not None else ""
    if base and base not in vocabulary().stop and not is_question(base) and not _known(base):
        return (someone,)  # "gaearon's profile": someone's (not "what's", "it's")
    if _HANDLE.match(raw) or token.lower() in _PERSON_PRONOUNS:
        return (someone,)  # "@maria", "remove him": a person, whom the task is for
    if _DOMAIN.match(token):
        return (HINT_MARK + "email",)  # "@acme.com": addresses at a domain
    if _CHANNEL.match(raw):
        return (HINT_MARK + "channel",)
    kind = _kind(token)
    return kind if not kind else tuple(HINT_MARK + word for word in kind)


def _kind(token: str) -> tuple[str, ...] | None:
    if _URL.match(token):
        return ("url",)
    lowered = token.lower()
    if _SSH_KEY.match(lowered):
        return ("ssh", "key")
    prefixed = _PREFIXED_ID.match(token)
    if prefixed is not None:
        return (ID_HINT + prefixed.group(1),)
    if _VOTE.match(token):
        return ("vote",)  # "+1 FEAT-221"
    for pattern, kind in (
        (_MONEY, "money"),
        (_IP, "ip"),
        (_VERSION, "version"),
        (_SHA, "commit"),
        (_DURATION, "duration"),
        (_IMAGE, "image"),
        (_HOST, "hostname"),
    ):
        if pattern.match(lowered):
            return (kind,)
    if _SETTING.match(token):
        return ()  # "LOG_LEVEL=debug", "env=prod": what to write, not what to do
    return () if _OPAQUE.match(token) else None


def _known(word: str) -> bool:
    """Whether the tables know ``word`` as a thing ("deploy" of ``deploy/web``, not "acme" of
    ``acme/api``, an owner's name)."""
    vocab = vocabulary()
    stemmed = stem(vocab.equivalent.get(word, word))
    return word in vocab.equivalent or stemmed in vocab.related or stemmed in vocab.general_related


def _one_thing(word: str) -> bool:
    """Whether ``word`` names one thing the tables know ("issue", "ns"; not "issues", "at")."""
    vocab = vocabulary()
    plain = word not in vocab.stop and word not in _DETERMINERS and not is_preposition(word)
    return plain and (_known(word) or stem(word) in _named_things()) and not _plural(word)


@cache
def _named_things() -> frozenset[str]:
    """The stems the word tables name things by ("issu", which "ticket" finds)."""
    related = vocabulary().related.values()
    return frozenset(parts[0] for found in related for parts, _ in found if len(parts) == 1)


def _thing(word: str) -> bool:
    """Whether ``word`` is a thing the tables know, not a verb or a participle ("configmap",
    not "failed", "open" or "running")."""
    return _known(word) and not _verbal(word) and _names_thing(word)


def _verbal(word: str) -> bool:
    """Whether ``word`` is a verb or a participle ("open", "failed", "squash-merge")."""
    vocab = vocabulary()
    last = word.lower().split(JOINER)[-1]
    if _plural(last) or word.endswith(("ed", "ing")):
        return not _plural(last)  # "app-settings" are things
    return stem(last) in vocab.intent_verbs or stem(last) in vocab.actions


def _names_thing(word: str, first: bool = False) -> bool:
    """Whether ``word`` names a thing a number could follow ("PR #42", not "close #9"); the
    query's first word, when it can be a verb, is one ("tag #12 with bug", "pin #4")."""
    vocab = vocabulary()
    verb = stem(word) in vocab.intent_verbs or stem(word) in vocab.actions
    if first and not verb:
        verb = stem(word) in vocab.general_verbs or stem(word) in vocab.verb_senses
    return not (verb or word in _DETERMINERS or word in vocab.stop or is_preposition(word))


def _phrased(words: list[str]) -> list[str]:
    """Phrases replaced, also a phrasal verb whose particle comes up to three words later
    ("take a user out")."""
    vocab = vocabulary()
    pending = list(words)
    for position, word in enumerate(pending):
        for left, right in vocab.query_phrases.get(word, ()):
            apart = len(left) == 2 and is_particle(left[1]) and left not in _INSEPARABLE
            at = _particle_at(pending, position, left[1]) if apart else -1
            if at >= 0:
                del pending[at]
                pending[position : position + 1] = list(right)
                break
    pending = rephrased(rephrased(pending, vocab.query_phrases), vocab.phrases)
    return [_spelling(word, vocab.equivalent) for word in pending]


def _particle_at(words: list[str], verb: int, particle: str) -> int:
    """Where ``particle`` of the verb at ``verb`` stands, two or three words later ("take a
    user out"), or later still before "of" ("take the Morning Brew podcast out of my library");
    -1 if it does not."""
    for at in range(verb + 2, min(verb + 7, len(words))):
        if words[at] == particle and (at < verb + 4 or words[at + 1 : at + 2] == ["of"]):
            return at
    return -1


def _spelling(word: str, equivalent: dict[str, str]) -> str:
    """The one spelling of ``word``, also of an abbreviation's plural ("svcs": service)."""
    found = equivalent.get(word)
    if found is None and word.endswith("s") and len(word) > 2:
        found = equivalent.get(word[:-1])
    return found or word


# phrasal verbs that mean something else with their object inside: "kick off the build" starts
# it, "kick bob off the team" removes him
_INSEPARABLE = frozenset({("kick", "off"), ("fire", "off"), ("start", "up"), ("look", "up")})
# where a request starts after what the user tells first ("we just hired bob, can you ...")
_ASKING = re.compile(
    r"\b(?:(?:can|could|would|will) you(?: please)?|please|pls|help me|i need you to"
    r"|i want you to|i'?d like you to"
    r"|(?:asked|told|wants|needs|would like) (?:me|us) to|has asked (?:me|us) to)\b",
    re.IGNORECASE,
)
# how a request may open without being a question: "can you archive it", "how do I leave #random",
# "is there a way to export this", "I'd like to add a member": the request is what follows
_FRAME = re.compile(
    r"^\W*(?:(?:can|could|would|will) you(?: please)?|please|pls|kindly"
    r"|how (?:do|can|could|should|would) (?:i|we)|is there (?:a|any) way (?:for me |for us )?to"
    r"|(?:can|could|may) (?:i|we)|(?:i|we) (?:want|need|would like|wanna) to|(?:i|we)'d like to"
    r"|i'm trying to|help me(?: to)?|let me)\b\W*",
    re.IGNORECASE,
)
# a request that only points back at what the user told ("could you take care of that?")
_VACUOUS = frozenset(words.VACUOUS.split())
# words written short with a slash
_SHORTHAND = {"w/": "with", "w/o": "without", "b/c": "because"}
# what a request asks to write follows a colon ("note on INC-7: mitigated, monitoring")
_CONTENT = re.compile(r":\s+")
# a remark after the request, with a subject of its own: "..., nobody uses it anymore"
_REMARK = re.compile(
    r"[,;]\s*(?:nobody|no one|it|it's|its|they|they're|we|we're|i|i'm|he|she|this|that|"
    r"everyone|because|since|as|(?:the|our|my|their) \w+ (?:is|was|are|were|has|had)\b)\b",
    re.IGNORECASE,
)
# where a clause ends: a comma, a semicolon, a dash between spaces, a sentence's end
_CLAUSE_BREAK = re.compile(r"[,;]\s+|\s[-–—]\s+|[.!?]\s+")
# plurals without an s
_PLURALS = frozenset({"people", "men", "women", "children", "data", "indices"})


def _plural(word: str) -> bool:
    vocab = vocabulary()
    if is_short_word(word) or word.startswith(HINT_MARK):
        return False  # "ns", "os": words of their own; a value is one thing
    return word in _PLURALS or (
        (word.endswith("s") and not word.endswith("ss") and stem(word) != word)
        and word not in vocab.stop
        and stem(word) not in vocab.vague  # "show details of JRA-9": one issue's
        and not is_self(word)
    )


def _intents(words: list[str]) -> tuple[frozenset[str], int]:
    """The kinds of operation asked for, and where the verb is (-1: none). A question asks to
    read; otherwise the first word that is not a stop word says, when it is a verb: one the
    vocabulary knows, or any word followed by a determiner ("refund the charge": an action)."""
    vocab = vocabulary()
    for position, word in enumerate(words):
        following = words[position + 1] if position + 1 < len(words) else ""
        if position == 0 and word == "have" and following not in _PERSONS:
            continue  # "have stripe ping me", "have web scale out": a request, not a question
        if is_question(word) or (position == 0 and is_check(word)):
            return _READ_OR_LIST, -1
        if word in vocab.stop or is_self(word) or (len(word) < 3 and not is_short_word(word)):
            continue
        if _plural(word):
            break  # "comments on this PR": a noun
        if following == "ticket" and word in _ITEM_NAMES:
            break  # "issue #311 is fixed": a thing by its number, not a verb
        verb = stem(word.split(JOINER)[-1])  # "squash-merge": a way to merge
        asked = vocab.intent_verbs.get(verb)
        if word == "open" and following not in _DETERMINERS:
            asked = None  # "open tickets": tickets that are open
        if asked is not None:
            if READ in asked or (LIST in asked and verb not in _LISTING):
                return _READ_OR_LIST, position
            return asked, position
        # "star this repo", "watch PAY-12" (a verb known to take a value), "refund it"
        on_value = following == "ticket" or following.startswith(HINT_MARK)
        known_verb = verb in vocab.general_verbs or verb in vocab.verb_senses
        if following in _DETERMINERS or verb in vocab.actions or (on_value and known_verb):
            return frozenset({ACTION}), position
        # "tag issue 301", "cap ns team-ml": a verb the lexicon knows, on one thing
        if known_verb and word != "open" and _one_thing(following):
            return frozenset({ACTION}), position
        break
    return _later_imperative(words)


def _later_imperative(words: list[str]) -> tuple[frozenset[str], int]:
    """A verb told later, on what was named first: "XYZ-400 is a dupe, nuke it", "BUG-5 blocks
    BUG-9, link them" (a known verb, or one of its own, right before "it" or "them")."""
    vocab = vocabulary()
    for position in range(1, len(words) - 1):
        word = words[position]
        if words[position + 1] not in _PRONOUNS or word in vocab.stop:
            continue
        asked = vocab.intent_verbs.get(stem(word))
        if asked is not None:
            if READ in asked or (LIST in asked and stem(word) not in _LISTING):
                return _READ_OR_LIST, position
            return asked, position
        if stem(word) in vocab.actions:
            return frozenset({ACTION}), position
    return frozenset(), -1


def read_query(text: str) -> Query:
    text = text[:MAX_QUERY_CHARS]
    context, request = _request(_QUOTED.sub(" ", text))
    framed = _FRAME.sub("", request, count=1)
    if words_of(framed):
        request = framed
    if context and _VACUOUS.issuperset(tokens(request)):
        # "our director wants bob on the infra team. Could you take care of that?"
        context, request = _request(context)
    # the object is plural ("show pods"), as typed: before phrases join words ("pull requests")
    typed = tokens(request)
    words = _phrased(typed)
    intents, verb_at = _intents(words)
    reading = _Reading(words, verb_at)
    for position, word in enumerate(words):
        reading.take(position, word)
    _of_the_item(reading)
    read = reading.read
    if context:
        # "I'm new to the team, can you show me the README": the request is what follows
        before = _Reading(_phrased(tokens(context)), -1, weight=CLAUSE)
        for position, word in enumerate(before.words):
            before.take(position, word)
        read += before.read
        reading.about_self = max(reading.about_self, before.about_self)
    if not read and reading.generic is not None:
        read.append(reading.generic)  # "list": nothing else to go by
    # "who starred it", "who can push": people, mostly (but "who am I")
    asks_who = typed[:1] == ["who"] and typed[1:2] != ["am"]
    if asks_who and not any(w.stem == _SOMEONE for w in read):
        read.append(QueryWord("someone", _SOMEONE, HINT))  # the answer is people
    # "how many", "how much": a count over things
    counting = any(pair == ("how", "count") for pair in pairwise(words))
    # the first word is the verb, unless no verb starts the query ("daemonsets running in ...")
    nouns = typed[1:] if verb_at == 0 or intents else typed
    # what is asked for comes before where ("secret stripe-key in ns payments": one secret)
    thing = next((i for i, word in enumerate(nouns) if _thing(word)), len(nouns))
    where = (i for i, w in enumerate(nouns) if i > thing and is_preposition(w) and w != "of")
    nouns = nouns[: next(where, len(nouns))]
    # but not a noun that says which ("the orders deployment")
    plural = (
        asks_who
        or counting
        or bool(_EVERY.intersection(nouns))  # "wipe every pod in ns batch"
        or any(
            _plural(word) and not _thing(following) for word, following in pairwise([*nouns, ""])
        )
    )
    if not intents and reading.filtered and plural:
        intents = frozenset({LIST})  # things with a property: a search
    elif not intents and plural:
        intents = _READ_OR_LIST  # "open tickets", "webhooks of the repo": things to see
    said = _said(text, words)
    return Query(
        tuple(read),
        intents,
        reading.lead,
        plural,
        reading.about_self,
        frozenset(reading.subject),
        said,
        plural and (reading.filtered or bool(_FILTERS.intersection(words))),
        _said(request, words) if context else said,
        frozenset(
            _ITEM
            for raw in request.split()
            if _ISSUE_KEY.match(raw.strip(_PUNCTUATION)) or _NUMBERED.match(raw)
        ),
    )


def _of_the_item(reading: _Reading) -> None:
    """ "the status of PAY-12": a property of the item a value names, so the query is about the
    item (its reading), and the property is no word to match ("status" would find transitions)."""
    if not reading.subject or not set(reading.subject) <= _PROPERTIES:
        return
    items = [w for w in reading.read if w.stem in _ITEM_WORDS or w.stem.startswith(ID_HINT)]
    if not items:
        return
    reading.subject = [items[0].stem]
    # reading the item tells them all: "the status, assignee and description of PLAT-77"
    reading.read = [w for w in reading.read if w.stem not in _PROPERTIES]


def _said(text: str, words: list[str]) -> frozenset[str]:
    """The stems of every word of ``text`` (and ``words``), what its values stand for, and their
    near words; not a name given ("a repo called scratch-notes")."""
    unnamed = _GIVEN_NAME.sub(" ", _QUOTED.sub(" ", text))
    # a value's parts are no words ("billing@acme.com" says neither billing nor acme)
    names: set[str] = set()
    typed = tokens(text, names)
    raw = [
        word
        for token in unnamed.split()
        if not _value(token) and token.strip(_PUNCTUATION).lower() not in names
        for word in words_of(token, shortest=1)
    ]
    said = {stem(word.removeprefix(HINT_MARK)) for word in (*words, *typed, *raw)}
    vocab = vocabulary()
    near = {
        alternative[0]
        for word in said
        for table in (vocab.related, vocab.general_related, vocab.general_verbs)
        for alternative, weight in table.get(word, ())
        if len(alternative) == 1 and weight >= 0.8
    }
    return frozenset(said | near)


def _value(raw: str) -> bool:
    """Whether a token of the query is a value (an address, an id, a name, a number)."""
    token = raw.strip(_PUNCTUATION)
    return _hint(raw, token, after="") is not None or _named(raw, token, None) is not None


def cue_rules(said: frozenset[str]) -> list[tuple[frozenset[str], Alternatives]]:
    """The cue rules whose words were all said (``said``: their stems), and what each means."""
    return [(cue, meant) for cue, meant in vocabulary().cues if cue <= said]


@dataclass(slots=True)
class _Reading:
    """A query read word by word: what each word counts for, and what the query is about."""

    words: list[str]
    verb_at: int
    read: list[QueryWord] = field(default_factory=list)
    weight: float = 1.0
    about_self: float = 0.0
    lead: str = ""
    subject: list[str] = field(default_factory=list)
    subject_done: bool = False
    filtered: bool = False
    generic: QueryWord | None = None

    def take(self, position: int, word: str) -> None:
        vocab = vocabulary()
        if word.startswith(HINT_MARK):
            hint = word[len(HINT_MARK) :]
            stemmed = hint if hint.startswith(ID_HINT) else stem(hint)
            self.read.append(QueryWord(hint, stemmed, self.weight * HINT, value=True))
            return
        if self.subject and (word in vocab.stop or is_preposition(word) or is_clause(word)):
            self.subject_done = True
        asked = position > 0 and is_question(self.words[position - 1])
        if (is_preposition(word) and not asked) or (is_clause(word) and self.read):
            # but "what's in src/app.py", "who's on the team": what the question is about
            self.weight = min(self.weight, MODIFIER if is_preposition(word) else CLAUSE)
        elif is_self(word):
            # "show me", "do it for me": not about me
            for_me = word == "me" and self.words[position - 1 : position] == ["for"]
            last = position == len(self.words) - 1
            if not ((word == "me" and position - 1 == self.verb_at) or (for_me and last)):
                self.about_self = max(self.about_self, self.weight * SELF)
        elif word not in vocab.stop and (len(word) > 2 or is_short_word(word)):
            self._word(position, word)

    def _word(self, position: int, word: str) -> None:
        vocab = vocabulary()
        stemmed = JOINER.join(stem(part) for part in word.split(JOINER))
        verb = position == self.verb_at
        # a hyphenated verb leads with its last part ("squash-merge": merge)
        self.lead = self.lead or (stemmed.split(JOINER)[-1] if verb else stemmed)
        if stemmed in vocab.vague:
            return
        if verb and stemmed in vocab.generic:
            self.generic = QueryWord(word, stemmed, WEAK, verb)
            return  # a generic verb's intent is all it says
        participle = not verb and word.endswith(("ed", "ing")) and stemmed != word
        importance = self.weight
        after = self.words[position - 1] if position else ""
        if (verb and stemmed in vocab.intent_verbs) or is_question(word):
            importance *= WEAK
        elif is_question(after) and stemmed in vocab.intent_verbs:
            importance *= WEAK  # "how count" (how many): the question is the intent
        elif stemmed in vocab.generic or word in _QUANTIFIERS:
            importance *= WEAK  # "allowed to create pods": what is created is the point
        elif participle and self.subject:
            importance *= MODIFIER  # "tickets assigned to me": a filter on the tickets
            self.filtered = True
        if not verb and not self.subject_done and self.weight >= 1.0:
            if (participle and self.subject) or stemmed in vocab.generic:
                self.subject_done = True
            elif not participle and not is_question(word) and word not in _QUANTIFIERS:
                self.subject.append(stemmed)
        # "give bob", "is bob", "hand it to bob": a word the API does not know is likely a name
        named = (self.verb_at >= 0 and position - 1 == self.verb_at) or is_check(after)
        named = named or after == "to"
        self.read.append(QueryWord(word, stemmed, importance, verb, named))
