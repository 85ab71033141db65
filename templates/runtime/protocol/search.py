"""Ranked search over a catalog's operations, for the search tool of dynamic mode.

Each operation is a document (``search_document.py``) with weighted fields: its name, summary,
the first sentence of its description and the rest of its start, tags, path, parameter names, and
what the API teaches about its own words: the compounds its paths spell (``cronjobs`` for a name's
"cron job") and the acronyms of its names (``pvc`` for PersistentVolumeClaim). Words are split at
case changes and punctuation, lower-cased, spelled one way (``repository`` is ``repo``) and
stemmed (``search_vocabulary.py``). Scores are BM25F: each field's weight times the word's
presence, normalised by the field's length, saturated, times how rare the word is in this API.

A query is read as the user means it (``search_query.py``). Each of its words also finds near
words for less (``ticket`` finds ``issue``), and a word the API never uses finds the API's words it
abbreviates (``collabs``: ``collaborator``) or the two it joins, and what people mean by it in
general (``search_lexicon.py``: "nuke" deletes, "freeze" locks); words said together add what
they mean together (the cue tables: "grow" and "shrink", an autoscaler); an id's prefix finds
the API's thing it shortens (``cus_``: customer, ``pi_``: payment intent); a query whose every
named thing is unknown to the API finds nothing. Then, in turn: an operation that
matches more of the query ranks higher (a word only in a parameter name or deep in a description
counts for half, a word no operation says clearly counts for nothing); one of the kind the query's
verb asks for (create, read, list, update, delete), or whose own verb the query starts with
("merge", "star"), is preferred, and one that deletes is never first unless asked for; one about
what the query is about (its name's noun, else its path's) is preferred ("list namespaces": the
namespaces, not their events), and one whose path takes the kind of value the query gives
(``acme/infra``: a ``{repo}``; ``PAY-12``: an ``{issueIdOrKey}``); things with a property ("open
bugs assigned to me") are found by the operation that searches them, which takes any filter; a
whole replacement (PUT) comes after a partial update (PATCH) of the same path unless a replacement
is asked for; and of two that match, the one whose name says less that was not
asked for comes first ("delete a customer" is the customer, not the customer's discount). When
the API's owner gave search examples (users' phrasings and the operations that serve them,
``search_examples.py``), the operations the examples most like the query name rise, and those its
words missed are added. Equal scores keep catalog order, so results are stable. Building the
index reads every operation once (about 0.1 s for 1,200); a query touches only the operations that
share a term with it. Stdlib only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import pairwise

from .search_addressing import addressing, given_value, gives_value
from .search_document import Document, document, join_compounds, spelled
from .search_document import Entry as Entry  # noqa: PLC0414 - re-exported
from .search_document import terms as terms  # noqa: PLC0414 - re-exported
from .search_examples import ALIKE, ExampleIndex
from .search_query import (
    ACTION,
    CLAUSE,
    ID_HINT,
    JOINER,
    Query,
    QueryWord,
    cue_rules,
    read_query,
)
from .search_vocabulary import (
    CREATE,
    DELETE,
    LIST,
    READ,
    SELF_TERMS,
    UPDATE,
    Alternatives,
    stem,
    vocabulary,
    words_of,
)

FIELD_WEIGHTS = {
    "name": 3.0,
    "summary": 2.5,
    "lead": 2.0,
    "tags": 1.0,
    "path": 1.2,
    "params": 0.6,
    "text": 0.5,
    "alias": 1.5,
    "about": 0.5,
}
_K1 = 1.2
_B = 0.75
# a match in these fields says the word clearly; elsewhere it covers the word by half
_STRONG_FIELDS = ("name", "summary", "lead", "tags", "path", "alias")
_WEAK_FIELD = 0.5
# the kind of operation: asked for, own verb not asked, another kind, a conflicting change,
# a deletion unasked; an action verb ("refund the charge") and no verb at all (reading, likely)
_INTENT_MATCH = 1.5
_OWN_VERB = 0.6
_INTENT_OTHER = 0.6
_INTENT_CONFLICT = 0.6
# "add a label to the pod" updates the pod, "set a price" may create one: after these verbs the
# two are close
_CREATE_OR_UPDATE = 0.7
_CREATE_OR_UPDATE_VERBS = frozenset(
    stem(v) for v in ("add", "put", "set", "attach", "apply", "tag")
)
# an operation its own description calls deprecated ("deprecated: use ... instead")
_DEPRECATED = 0.6
# things with a property ("tickets assigned to me") are found by an operation that searches
_SEARCH_FILTERED = 1.3
_SEARCH = stem("search")
# an operation for tests only, unless the query speaks of testing
_TESTING = 0.6
_TESTING_PATH = re.compile(
    # and what an API keeps for its own use (Letta's /v1/_internal_templates/agents, whose
    # "Create a new agent" came before /v1/agents/'s "Create an agent")
    r"/(?:test[_-]?helpers?|testing|sandbox|simulat\w*|_internal\w*|_private\w*)(?:/|$)",
    re.I,
)
_TEST_WORDS = frozenset(
    stem(w) for w in ("test", "testing", "simulate", "sandbox", "fake", "internal", "private")
)
_UNASKED_DELETE = 0.5
_ACTION_MATCH = 1.2
_NO_VERB_READ = 1.1
_PLURAL_LIST = 1.25
_CHANGES = frozenset({CREATE, UPDATE, DELETE})
# about what the query is about: by its name, or only by its path ("/pulls/{n}/update-branch"
# is about a branch, of a pull request)
_SUBJECT_MATCH = 1.5
# an operation whose path takes a value of the kind the query gives ("acme/api": {repo})
_TAKES_VALUE = 1.5
# of two operations that reach one thing by its id or by its name, the one a value given says
_ADDRESSED = 1.4
# a whole replacement (PUT) where a partial update (PATCH) of the same path exists, unless asked
_REPLACE = 0.85
_REPLACE_WORDS = frozenset(stem(w) for w in ("replace", "overwrite", "swap"))
# a change to a whole collection where the API changes its items one by one too, when one
# thing was asked for ("delete the daemonset log-agent", not "delete every daemonset")
_BULK_FOR_ONE = 0.7
_CHANGE_METHODS = frozenset({"DELETE", "PATCH", "PUT"})
_SUBJECT_PATH = 1.25
# how far an operation whose name says more than was asked falls
_SPECIFICITY = 0.6
# a word the API never uses, taken for the API's longer words it starts, or the two it joins
_ABBREVIATION = 0.6
# British spellings and their American ones, which most APIs use
_BRITISH = tuple(
    (re.compile(british), american)
    for british, american in (
        (r"our(?=[a-z]{0,4}$)", "or"),  # colour, behaviour, favourites
        (r"is(?=(?:e|ed|es|ing|ation|ations|er|ers)$)", "iz"),  # authorise, organisation
        (r"ys(?=(?:e|ed|es|ing|er)$)", "yz"),  # analyse
        (r"ence(?=s?$)", "ense"),  # licence, defence
        (r"tre(?=s?$)", "ter"),  # centre, metre
        (r"ogue(?=s?$)", "og"),  # catalogue, dialogue
    )
)
# a word written as its first letter and some of its consonants ("mtg", "qty", "grp")
_SKELETON = re.compile(r"[a-z][b-df-hj-np-tv-z]{2,4}")
_SKELETON_TERMS = 3
# an abbreviation keeps more than this share of its word's consonants
_SKELETON_CLOSE = 0.5
_CONSONANTS = re.compile(r"[b-df-hj-np-tv-z]")
# what the stemmer cut off a word ("meeting": "meet"), for the abbreviation to spell
_CUT_ENDINGS = ("", "ing", "e")
_JOINED = 0.9
# the last part of a hyphenated word alone: what the whole is a kind of
_HEAD_PART = 0.6
# a word of the same family ("reversal" for "reverse"), and the suffixes that make one
_KIN = 0.75
_DERIVATIONS = ("al", "ion", "ation", "ment", "er", "or", "ance", "ence", "ing", "ure", "ship")
# a word the API does not know right after the verb ("give bob"): someone, probably
_NAMED = 0.3
# what words said together mean ("grow and shrink": an autoscaler) counts as much as this word
_CUE = 1.0
# what an id's prefix is read as: the start of a thing's name ("cus_": customer), or the
# initials of a two-word one ("pi_": payment intent), when few things fit
_ID_KIND = 0.8
_ID_KINDS = 3
# saying the first says the others: "my repos" are the "authenticated user"'s
_SAID_WITH = (("authenticat", ("user",)), ("current", ("user",)), ("call", ("user",)))
# an operation the examples most like the query name rises by up to this much (``_rise``); one
# the query's words did not find enters at the best score times how alike to this power: first
# when an example says nearly the same, else after what the words found (examples about other
# operations than the one asked must not push out what they found)
_EXAMPLE = 24.0
_ADDED_POWER = 4

# per document: the score of a concept's best alternative, how much it covers, its terms
Match = dict[int, tuple[float, float, tuple[str, ...]]]


def build_documents(entries: Iterable[Entry]) -> list[Document]:
    """Each entry's ``Document``, with the compounds the whole API teaches."""
    documents = [document(entry) for entry in entries]
    known = frozenset(t for d in documents for found in d.fields.values() for t in found)
    for each in documents:
        join_compounds(each, known)
    return documents


class SearchIndex:
    """BM25F over ``Entry`` fields, read with a user's intent; build once, query many times."""

    def __init__(
        self,
        entries: Iterable[Entry],
        *,
        documents: Sequence[Document] | None = None,
        examples: Iterable[tuple[str, Sequence[str]]] = (),
    ) -> None:
        """Index ``entries``, or ``documents`` built before (``build_documents``, at generation);
        ``examples``: users' phrasings and the tools that serve them (``search_examples.py``)."""
        self._documents = list(documents) if documents is not None else build_documents(entries)
        self._positions = {each.entry.name: p for p, each in enumerate(self._documents)}
        known = [(text, [t for t in tools if t in self._positions]) for text, tools in examples]
        self._examples = ExampleIndex(known)
        count = max(len(self._documents), 1)
        frequency: dict[str, int] = {}
        totals = dict.fromkeys(FIELD_WEIGHTS, 0)
        for each in self._documents:
            for name, found in each.fields.items():
                totals[name] += len(found)
            for term in set().union(*each.fields.values()):
                frequency[term] = frequency.get(term, 0) + 1
        self._vocabulary = frozenset(frequency)
        average = {name: max(total / count, 1.0) for name, total in totals.items()}
        self._idf = {
            t: math.log(1 + (count - df + 0.5) / (df + 0.5)) for t, df in frequency.items()
        }
        self._postings: dict[str, dict[int, float]] = {}
        # the terms each document has only in weak fields
        self._weak: list[frozenset[str]] = []
        for position, each in enumerate(self._documents):
            weighted: dict[str, float] = {}
            for name, found in each.fields.items():
                norm = FIELD_WEIGHTS[name] / (1 - _B + _B * len(found) / average[name])
                for term in found:
                    weighted[term] = weighted.get(term, 0.0) + norm
            for term, x in weighted.items():
                self._postings.setdefault(term, {})[position] = self._idf[term] * x / (_K1 + x)
            strong = set().union(*(each.fields[name] for name in _STRONG_FIELDS))
            self._weak.append(frozenset(weighted) - strong)
        self._label_weights = [sum(self._idf[t] for t in d.label) for d in self._documents]
        # the API's things (one or two words) and how many operations are about each
        self._kinds: dict[tuple[str, ...], int] | None = None
        # what the API's create operations make (their names' nouns), as read once
        self._made: frozenset[str] | None = None
        # an id's prefix -> the things it stands for (``_id_kinds``), as read once
        self._prefixes: dict[str, list[tuple[str, ...]]] = {}
        # a word the API never uses -> the API's words it abbreviates (``_abbreviated``), read once
        self._abbreviations: dict[str, dict[tuple[str, ...], float]] = {}
        # operations for tests only ("/v1/test_helpers/...", "/sandbox/...")
        self._testing = [bool(_TESTING_PATH.search(d.entry.path)) for d in self._documents]
        # operations that search ("/search/issues", "GET /v1/customers/search")
        self._searching = [_SEARCH in d.fields["name"] for d in self._documents]
        # a replacement whose path also has a partial update (Kubernetes' PUT and PATCH)
        patched = {d.entry.path for d in self._documents if d.entry.method == "PATCH"}
        self._replacing = [
            d.entry.method == "PUT" and d.entry.path in patched for d in self._documents
        ]
        # a change to a whole collection whose items the API also changes one by one
        # (Kubernetes' "delete collection of Pod" beside "delete a Pod")
        items = {
            (d.entry.method, d.entry.path.rstrip("/").rsplit("/", 1)[0])
            for d in self._documents
            if d.entry.path.rstrip("/").endswith("}")
        }
        self._bulk = [
            d.entry.method in _CHANGE_METHODS
            and (d.entry.method, d.entry.path.rstrip("/")) in items
            for d in self._documents
        ]
        # "id" or "name": one of two operations reaching one thing by its id or by its name
        self._addressed = addressing([d.entry for d in self._documents])
        # what each operation's path takes ("/repos/{owner}/{repo}/hooks": owner, repo)
        self._takes = [
            frozenset(
                stem(w)
                for part in d.entry.path.split("/")
                if part.startswith("{")
                for w in words_of(part, shortest=2)
            )
            for d in self._documents
        ]

    def __len__(self) -> int:
        return len(self._documents)

    @property
    def entries(self) -> list[Entry]:
        return [each.entry for each in self._documents]

    def search(
        self, query: str, *, limit: int = 10, allowed: Sequence[str] | None = None
    ) -> list[Entry]:
        """The best ``limit`` entries for ``query``, best first; only ``allowed`` names if given."""
        read = read_query(query)
        concepts = self._concepts(read)
        total = 0.0
        value: dict[int, float] = {}
        covered: dict[int, float] = {}
        said: dict[int, set[str]] = {}
        for alternatives, importance in concepts:
            matches = self._match(alternatives)
            # a word no operation says clearly cannot tell them apart: it does not count
            total += importance * max((cover for _, cover, _ in matches.values()), default=0.0)
            for position, (score, cover, parts) in matches.items():
                value[position] = value.get(position, 0.0) + importance * score
                covered[position] = covered.get(position, 0.0) + importance * cover
                said.setdefault(position, set()).update(parts)
        given = given_value(query)
        verbs = self._lead_verbs(read)
        # what the query's verb makes: "refund" a refund, "deploy" a deployment
        made = {read.lead, *self._kin(read.lead)}
        subject = self._subject(read)
        values = self._values(read)
        permitted = set(allowed) if allowed is not None else None
        scored: list[tuple[float, int]] = []
        # when nothing covers enough of the query, what covers any of it ("accept a proposal",
        # where no operation says "proposal" but two accept): better than nothing to look at
        for floor in (min(0.5, total) - 1e-9, 0.0):
            for position, matched in value.items():
                each = self._documents[position]
                if permitted is not None and each.entry.name not in permitted:
                    continue
                if total <= 0 or covered[position] <= floor:
                    continue  # only a near word of a generic word matched
                found, cover = matched, covered[position]
                if read.filtered and self._searching[position] and subject & each.heads:
                    # a search of the things asked for takes any filter ("bugs assigned to me")
                    found, cover = found * total / cover, total
                score = found * cover / total * _intent_factor(each, read, verbs, made)
                score *= self._fit(position, read, subject, values)
                if given and self._addressed[position] == given:
                    score *= _ADDRESSED  # "the variable slack_channel": by its name, not its id
                # a name given says "by name" (read_variable_by_name), an id "by id"
                spoken = said[position] | ({stem(given)} if given else set())
                scored.append((-score / self._unsaid(position, spoken), position))
            if scored:
                break
        if not scored and read.intents and gives_value(query):
            scored = self._of_the_kind(read, verbs, made, permitted, limit)
        if len(self._examples):
            scored = self._as_examples_say(query, scored, permitted)
        scored.sort()
        return [self._documents[position].entry for _, position in scored[:limit]]

    def _of_the_kind(
        self,
        read: Query,
        verbs: set[str],
        made: set[str],
        permitted: set[str] | None,
        limit: int,
    ) -> list[tuple[float, int]]:
        """When no word of a query that gives a value is the API's, the operations of the kind it
        asks for if there are no more than it lists: Feast's features and entities are its
        users' data ("get conv_rate for driver 1001" had found nothing among 12 operations);
        among many, such a list would say nothing, and nothing is listed, as for a query that
        names only what the API does not have ("tune the xylophone")."""
        fits = [
            (_intent_factor(each, read, verbs, made), position)
            for position, each in enumerate(self._documents)
            if permitted is None or each.entry.name in permitted
        ]
        best = max((fit for fit, _ in fits), default=0.0)
        kind = [(-fit, position) for fit, position in fits if fit >= best]
        return kind if best >= _INTENT_MATCH and len(kind) <= limit else []

    def _as_examples_say(
        self, query: str, scored: list[tuple[float, int]], permitted: set[str] | None
    ) -> list[tuple[float, int]]:
        """``scored`` (negated scores) with the operations the examples most like ``query`` name
        risen, and those of them the query's words did not find added (all there is, when its
        words found nothing: "calm this shouting match down", where an example says it)."""
        near = self._examples.near(query)
        if not near:
            return scored
        risen = [
            (score * _rise(near.get(self._documents[p].entry.name, 0.0)), p) for score, p in scored
        ]
        best = min((score for score, _ in scored), default=-1.0)
        found = {p for _, p in scored}
        for name, alike in near.items():
            position = self._positions[name]
            if position not in found and (permitted is None or name in permitted):
                risen.append((best * alike**_ADDED_POWER * _rise(alike), position))
        return risen

    def _given_kinds(self, read: Query) -> list[tuple[str, ...]]:
        """The things the query's ids are of ("dp_1Oa": a dispute, "pi_3Ab": a payment intent)."""
        return [
            kind
            for word in read.words
            if word.stem.startswith(ID_HINT)
            for kind in self._id_kinds(word.stem[len(ID_HINT) :])
        ]

    def _values(self, read: Query) -> set[tuple[str, ...]]:
        """The kinds of the values given: what a value stands for ("acme/api": a repo), an id's
        thing ("cus_9s": a customer), an item named by key ("PAY-12": a ticket, an issue)."""
        found: set[tuple[str, ...]] = {
            (w.stem,) for w in read.words if w.value and not w.stem.startswith(ID_HINT)
        }
        found.update(self._given_kinds(read))
        # "PAY-12": an issue's key, which the path of an issue's operations takes
        for item in map(stem, read.items):
            found.add((item,))
            related = vocabulary().related.get(item, ())
            found.update(alternative for alternative, weight in related if weight >= 0.8)
        return found

    def _fit(
        self, position: int, read: Query, subject: set[str], values: set[tuple[str, ...]]
    ) -> float:
        """How an operation fits beyond its words: what it is about, what it takes, whether it
        searches, replaces, is deprecated or is for tests only."""
        each = self._documents[position]
        factor = _DEPRECATED if each.deprecated else 1.0
        if self._testing[position] and not read.said & _TEST_WORDS:
            factor *= _TESTING
        if read.filtered and self._searching[position]:
            factor *= _SEARCH_FILTERED
        if self._bulk[position] and not read.plural:
            factor *= _BULK_FOR_ONE
        if self._replacing[position] and read.lead not in _REPLACE_WORDS:
            factor *= _REPLACE  # "cordon worker-3": a change to it, not a new whole
        name = each.fields["name"]
        # "pi_3Ab": a payment intent's {intent}, not a setup intent's
        takes = self._takes[position]
        if any(kind[-1] in takes and name.issuperset(kind[:-1]) for kind in values):
            factor *= _TAKES_VALUE
        if subject & each.heads:
            factor *= _SUBJECT_MATCH
        elif subject & each.path_heads:
            factor *= _SUBJECT_PATH
        return factor

    def _unsaid(self, position: int, said: set[str]) -> float:
        """How much an operation's name says that the query did not (1: nothing)."""
        weight = self._label_weights[position]
        if weight <= 0:
            return 1.0
        each = self._documents[position]
        spoken = said | {
            part
            for term, parts in (*each.compounds.items(), *_SAID_WITH)
            if term in said
            for part in parts
        }
        unsaid = sum(self._idf[t] for t in each.label if t not in spoken)
        return 1 + _SPECIFICITY * unsaid / weight

    def _concepts(self, read: Query) -> list[tuple[Alternatives, float]]:
        """Per query word: the term tuples that find it with their weights, and its importance."""
        concepts: list[tuple[Alternatives, float]] = []
        seen: set[str] = set()
        named, unknown = 0, 0
        for word in read.words:
            if word.stem not in seen:
                seen.add(word.stem)
                # "attach a file": an attachment, "comment on PAY-12": a comment; the verb
                # is the thing, not only the intent
                thing = word.verb and self._makes_thing(word.stem)
                concept = self._concept(replace(word, importance=1.0) if thing else word)
                if concept is not None:
                    concepts.append(concept)
                if not word.verb:
                    named += 1
                    unknown += concept is None
        if named and unknown == named:
            # "tune the xylophone": what it names, the API does not have; but a verb the API
            # says itself finds its operations ("accept a proposal", where pretalx says
            # submission and accepts one), rather than nothing at all
            said = any(w.verb and w.stem in self._vocabulary for w in read.words)
            return concepts if said else []
        # an id says what it is of: "concede dp_1Oa" speaks of a dispute
        kinds = {term for kind in self._given_kinds(read) for term in kind}
        words = {word.stem for word in read.words}
        asked = read.asked | kinds
        # a query that asks for a change takes no other kind of operation from a cue: "create
        # a customer for jane@doe.com" does not search customers by e-mail
        changes = read.intents & _CHANGES
        kinds_of = vocabulary().operation_verbs
        for cue, meant in cue_rules(read.said | kinds):
            # what the query says itself counts once, as its word ("close + ticket": close)
            usable = tuple(
                (alt, w)
                for alt, w in meant
                if all(t in self._vocabulary for t in alt)
                and not set(alt) <= words
                and not (changes and any(t in kinds_of and kinds_of[t] not in changes for t in alt))
            )
            if usable:
                # a cue only the user's remarks make ("..., it's stuck in CrashLoopBackOff")
                concepts.append((usable, _CUE if cue <= asked else _CUE * CLAUSE))
        # "the authenticated user", "the calling user": a user, not the API's calls
        mine = tuple(
            (parts, 1.0)
            for parts in map(_self_terms, SELF_TERMS)
            if all(part in self._vocabulary for part in parts)
        )
        if read.about_self and mine:
            concepts.append((mine, read.about_self))
        return concepts

    def _concept(self, word: QueryWord) -> tuple[Alternatives, float] | None:
        vocab = vocabulary()
        if word.stem.startswith(ID_HINT):
            kinds = self._id_kinds(word.stem[len(ID_HINT) :])
            return (tuple((kind, _ID_KIND) for kind in kinds), word.importance) if kinds else None
        word = self._as_spelled_here(word)
        found: dict[tuple[str, ...], float] = {}
        parts = tuple(word.stem.split(JOINER))
        if len(parts) > 1:
            joined = stem("".join(word.word.split(JOINER)))
            if joined in self._vocabulary:
                found[(joined,)] = 1.0
            if all(part in self._vocabulary for part in parts):
                found[parts] = _JOINED
            if parts[-1] in self._vocabulary:
                found.setdefault((parts[-1],), _HEAD_PART)  # "squash-merge" is a merge
        elif word.stem in self._vocabulary:
            found[(word.stem,)] = 1.0
        senses = self._senses(word)
        for alternative, weight in senses:
            usable = all(t in self._vocabulary for t in alternative)
            if usable and found.get(alternative, 0.0) < weight:
                found[alternative] = weight
        if not found:
            found = self._learned(word.stem)
        for kin in self._kin(word.stem):
            found.setdefault((kin,), _KIN)
        if found:
            return tuple(found.items()), word.importance
        if word.named:  # "kick alice out": most likely a person
            someone = vocab.related.get(stem("someone"), ())
            known = tuple((alt, w) for alt, w in someone if alt[0] in self._vocabulary)
            return (known, _NAMED) if known else None
        return None

    def _as_spelled_here(self, word: QueryWord) -> QueryWord:
        """``word`` in the American spelling the API or the tables use, when they do not know
        it as written ("licence": "license", "colour": "color", "catalogue": "catalog")."""
        vocab = vocabulary()
        if word.stem in self._vocabulary or word.stem in vocab.related or JOINER in word.stem:
            return word
        for british, american in _BRITISH:
            spelled = british.sub(american, word.word)
            if spelled != word.word:
                stemmed = stem(spelled)
                if stemmed in self._vocabulary or stemmed in vocab.related:
                    return replace(word, word=spelled, stem=stemmed)
        return word

    def _makes_thing(self, stemmed: str) -> bool:
        """Whether a verb names a thing the API creates, itself or by a word of its family."""
        if self._made is None:
            self._made = frozenset(
                head for d in self._documents if d.intent == CREATE for head in d.heads
            )
        return any(term in self._made for term in (stemmed, *self._kin(stemmed)))

    def _id_kinds(self, prefix: str) -> list[tuple[str, ...]]:
        """The things an id's prefix may stand for ("cus": customer, "pi": payment intent,
        "acct": account): of the API's things (what its operations are about), those whose
        name has the prefix's letters in order from its first, or whose two-word name has the
        prefix as initials; the ones most operations are about, when few are."""
        if prefix in self._prefixes:
            return self._prefixes[prefix]
        if self._kinds is None:
            self._kinds = _kinds(self._documents)
        counts = self._kinds
        # initials first ("pi": payment intent, not price), else a shortened name
        fits: dict[tuple[str, ...], int] = {
            k: n for k, n in counts.items() if len(k) == 2 and prefix == k[0][0] + k[1][0]
        }
        if not fits:
            fits = {k: n for k, n in counts.items() if len(k) == 1 and _spells(prefix, k[0])}
        most = max(fits.values(), default=0)
        found = [kind for kind, count in fits.items() if 2 * count >= most]
        self._prefixes[prefix] = found if len(found) <= _ID_KINDS else []
        return self._prefixes[prefix]

    def _kin(self, stemmed: str) -> list[str]:
        """The API's words made from the same word by a derivational suffix ("reverse":
        "reversal"; "approve": "approval"; "deployment": "deploy")."""
        if len(stemmed) < 4 or JOINER in stemmed:
            return []
        found = [stemmed + end for end in _DERIVATIONS if stemmed + end in self._vocabulary]
        base = stemmed.rstrip("e")
        found += [base + end for end in _DERIVATIONS if base + end in self._vocabulary]
        for end in _DERIVATIONS:
            root = stemmed[: -len(end)] if stemmed.endswith(end) else ""
            if len(root) >= 4:
                found += [t for t in (root, stem(root + "e")) if t in self._vocabulary]
        return [term for term in dict.fromkeys(found) if term != stemmed]

    def _senses(self, word: QueryWord) -> Alternatives:
        """What else ``word`` finds: the tables' near words (and its verb senses as the query's
        verb); for a word the API never uses, also what people mean by it in general."""
        vocab = vocabulary()
        senses = vocab.related.get(word.stem, ())
        if word.verb:
            senses += vocab.verb_senses.get(word.stem, ())
        if word.stem not in self._vocabulary:
            senses += vocab.general_related.get(word.stem, ())
            if word.verb:
                senses += vocab.general_verbs.get(word.stem, ())
        return senses

    def _learned(self, stemmed: str) -> dict[tuple[str, ...], float]:
        """For a word the API never uses: the API's words it abbreviates, or the two it joins."""
        if len(stemmed) >= 3:
            longer = sorted(term for term in self._vocabulary if term.startswith(stemmed))
            if 0 < len(longer) <= 4:
                return {(term,): _ABBREVIATION for term in longer}
        if _SKELETON.fullmatch(stemmed):
            if stemmed not in self._abbreviations:
                self._abbreviations[stemmed] = self._abbreviated(stemmed)
            if self._abbreviations[stemmed]:
                return self._abbreviations[stemmed]
        for cut in range(3, len(stemmed) - 2):
            left, right = stem(stemmed[:cut]), stemmed[cut:]
            if left in self._vocabulary and right in self._vocabulary:
                return {(left, right): _JOINED}
        return {}

    def _abbreviated(self, skeleton: str) -> dict[tuple[str, ...], float]:
        """The API's words ``skeleton`` writes as their first letter and consonants, in order
        ("mtg", "qty", "grp"): the closest, if close enough and few."""
        closeness = {
            t: _abbreviation_of(skeleton, t) for t in self._vocabulary if t[0] == skeleton[0]
        }
        best = max(closeness.values(), default=0.0)
        spelled = [t for t, close in closeness.items() if close == best]
        if best > _SKELETON_CLOSE and len(spelled) <= _SKELETON_TERMS:
            return {(term,): _ABBREVIATION for term in sorted(spelled)}
        return {}

    def _lead_verbs(self, read: Query) -> set[str]:
        """The query's first word and what it also means: an operation's own verb among them
        is what the query starts with ("merge PR 42")."""
        vocab = vocabulary()
        found = {read.lead}
        senses = vocab.related.get(read.lead, ()) + vocab.verb_senses.get(read.lead, ())
        if read.lead not in self._vocabulary:  # "kill the run": cancel it, stop it
            senses += vocab.general_verbs.get(read.lead, ())
        found.update(parts[0] for parts, _ in senses if len(parts) == 1)
        return found

    def _subject(self, read: Query) -> set[str]:
        """The terms that say what the query is about (its subject and its close words, the
        things its ids are of: "cancel sub_1P" is about a subscription)."""
        found = set(read.subject)
        found.update(term for kind in self._given_kinds(read) for term in (kind[-1], "".join(kind)))
        for word in read.subject:
            for alternative, weight in vocabulary().related.get(word, ()):
                if len(alternative) == 1 and weight >= 0.7:
                    found.add(alternative[0])
        return found

    def _match(self, alternatives: Alternatives) -> Match:
        """Per document: the best alternative's score, how much it covers and its terms."""
        best: Match = {}
        for parts, weight in alternatives:
            postings = [self._postings.get(part, {}) for part in parts]
            for position, first in postings[0].items():
                values = [first] + [p[position] for p in postings[1:] if position in p]
                if len(values) < len(parts):
                    continue
                score = weight * sum(values) / len(parts)
                weak = any(part in self._weak[position] for part in parts)
                cover = weight * (_WEAK_FIELD if weak else 1.0)
                # the best alternative by what it adds in the end: its score times its cover
                held = best.get(position)
                if held is None or score * cover > held[0] * held[1]:
                    best[position] = (score, cover, parts)
        return best


def _self_terms(word: str) -> tuple[str, ...]:
    return (stem(word),) if word in _SELF_ALONE else (stem(word), stem("user"))


_SELF_ALONE = frozenset({"me", "my", "mine", "myself", "viewer"})


def _kinds(documents: Sequence[Document]) -> dict[tuple[str, ...], int]:
    """The API's things, of one word or two ("payment intent"), and how many operations are
    about each (what their names end with, or their paths)."""
    counts: dict[tuple[str, ...], int] = {}
    verbs = vocabulary().operation_verbs
    for each in documents:
        words = [stem(w) for w in spelled(words_of(each.entry.name))]
        heads = each.heads | each.path_heads
        pairs = [(a, b) for a, b in pairwise(words) if b in heads - {"id", a} and a not in verbs]
        for kind in (*pairs, *((head,) for head in heads - each.compounds.keys())):
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def _spells(prefix: str, word: str) -> bool:
    """Whether ``prefix`` is ``word`` shortened: its first letter, then others of it in order."""
    if len(prefix) < 2 or prefix[0] != word[0] or prefix == word:
        return prefix == word
    rest = iter(word[1:])
    return all(letter in rest for letter in prefix[1:])


def _abbreviation_of(short: str, term: str) -> float:
    """How closely ``short`` writes ``term`` (a stem) as its first letter and consonants, taking
    back what the stemmer cut ("mtg": "meet", as in "meeting"): the share of the word's later
    consonants it keeps (0: it does not spell it)."""
    if len(term) <= len(short):
        return 0.0
    return max(
        (
            (len(short) - 1) / len(_CONSONANTS.findall(word, 1))
            for word in (term + end for end in _CUT_ENDINGS)
            if _spells(short, word)
        ),
        default=0.0,
    )


def _rise(alike: float) -> float:
    """How much an operation rises when the most alike example naming it is ``alike`` (0 to 1):
    from nothing at the least likeness that counts (``ALIKE``) to ``_EXAMPLE`` times."""
    return 1 + _EXAMPLE * max(0.0, alike - ALIKE) / (1 - ALIKE)


def _intent_factor(each: Document, read: Query, lead_verbs: set[str], made: set[str]) -> float:
    """How the kind of operation fits the kind the query asks for."""
    asked = read.intents
    if each.verb and each.verb in lead_verbs:
        return _INTENT_MATCH
    if each.intent == CREATE and made & each.heads and asked & {ACTION, CREATE}:
        return _INTENT_MATCH  # "refund the payment": create a refund
    if asked == {ACTION}:
        if each.intent in (READ, LIST):
            return _INTENT_OTHER
        return _UNASKED_DELETE if each.intent == DELETE else _ACTION_MATCH
    if not asked:
        if each.intent in (READ, LIST):
            return _NO_VERB_READ
        return _UNASKED_DELETE if each.intent == DELETE else 1.0
    if not each.intent:
        if not asked & _CHANGES:
            return _INTENT_OTHER  # "merge" when reading was asked
        return _OWN_VERB  # "lock" when "create" was asked: likely something else
    if each.intent in asked:
        if asked == {READ, LIST} and (each.intent == LIST) == read.plural:
            return _INTENT_MATCH * _PLURAL_LIST
        return _INTENT_MATCH
    if each.intent == DELETE:
        return _UNASKED_DELETE
    if {each.intent} | asked == {CREATE, UPDATE} and read.lead in _CREATE_OR_UPDATE_VERBS:
        return _CREATE_OR_UPDATE
    # asked to change something, offered another change (or a reading): unlikely
    return _INTENT_CONFLICT if asked & _CHANGES else _INTENT_OTHER
