"""The search's vocabulary: its word tables parsed, its tokenizer and its stemmer.

``search.py`` matches a user's task phrasing ("make a PR for my branch", "kick alice out of the
org") against operations written in an API's own words ("Create a pull request", "Remove an
organization member"). The tables that bridge the two (``search_words.py``) are plain text; this
module parses them once, on first use, with the general lexicon (``search_lexicon.py``: words
an API may not use itself; a lexicon verb takes the kind of its closest API verb), into a
``Vocabulary``, and owns how text becomes words
(``words_of``: split at case changes and punctuation, lower-cased, no digits) and how words become
terms (``stem``: a light Porter stemmer, its first and last steps only: plurals, ``-ed``/``-ing``,
a final ``e``; no derivational suffixes, so ``deployment`` stays apart from ``deploy``).
Stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from . import search_lexicon as lexicon
from . import search_words as words

# intents a query can ask for and an operation can have
CREATE, READ, LIST, UPDATE, DELETE = "create", "read", "list", "update", "delete"

_WORD = re.compile(r"[A-Za-z]+")
# split at case changes, but keep an acronym's plural whole ("PRs", "CSRs", not "P Rs")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z](?!s(?![a-z]))[a-z])")
_VOWELS = frozenset("aeiou")
_SHORT = frozenset(words.SHORT.split())
_SELF = frozenset(words.SELF.split())
_QUESTIONS = frozenset(words.QUESTIONS.split())
_CHECKS = frozenset(words.CHECKS.split())
_PREPOSITIONS = frozenset(words.PREPOSITIONS.split())
_CLAUSES = frozenset(words.CLAUSES.split())
_PARTICLES = frozenset(words.PARTICLES.split())
SELF_TERMS = tuple(words.SELF_TERMS.split())

Phrases = dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]]
Alternatives = tuple[tuple[tuple[str, ...], float], ...]


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The parsed tables (stemmed, except where raw words are said)."""

    # raw words
    stop: frozenset[str]
    # raw word -> raw word
    equivalent: dict[str, str]
    generic: frozenset[str]
    vague: frozenset[str]
    # stems of verbs of their own ("send", "merge")
    actions: frozenset[str]
    # first raw word -> (raw word tuple, raw words it stands for), longest first
    phrases: Phrases
    query_phrases: Phrases
    # stem -> the intents a query verb asks for; stem -> an operation verb's intent
    intent_verbs: dict[str, frozenset[str]]
    operation_verbs: dict[str, str]
    # stem -> ((terms, weight), ...), a term tuple needs every term; verbs' senses apart
    related: dict[str, Alternatives]
    verb_senses: dict[str, Alternatives]
    # the general lexicon's (search_lexicon.py): for words an API does not use itself
    general_related: dict[str, Alternatives]
    general_verbs: dict[str, Alternatives]
    # words that together say what is meant ("grow + shrink": an autoscaler): their stems, and
    # what they find (search_lexicon_cues.py)
    cues: tuple[tuple[frozenset[str], Alternatives], ...] = ()


def words_of(text: str, *, shortest: int = 3) -> list[str]:
    """Lower-case words of ``text``, split at case changes and punctuation; digits and words
    shorter than ``shortest`` are left out (but ``pr``, ``id`` and the like are words)."""
    return list(_words(text, shortest))


@lru_cache(maxsize=16384)
def _words(text: str, shortest: int) -> tuple[str, ...]:
    lowered = (word.lower() for word in _WORD.findall(_CAMEL.sub(" ", text)))
    return tuple(word for word in lowered if len(word) >= shortest or word in _SHORT)


def _consonant(word: str, i: int) -> bool:
    letter = word[i]
    if letter in _VOWELS:
        return False
    if letter == "y":
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant sequences in ``stem``."""
    pattern = "".join("c" if _consonant(stem, i) else "v" for i in range(len(stem)))
    return len(re.findall("v+c+", pattern))


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, i) for i in range(len(stem)))


def _double(word: str) -> bool:
    return len(word) > 1 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    if len(word) < 3 or word[-1] in "wxy":
        return False
    n = len(word)
    return _consonant(word, n - 3) and not _consonant(word, n - 2) and _consonant(word, n - 1)


def _without_suffix(word: str) -> str:
    """Porter's step 1 a and b: plurals, then ``-eed``, ``-ed``, ``-ing``; a word ending in
    ``-us`` keeps its s, as in Porter2 (``status``, ``statuses``: ``status``)."""
    if word.endswith(("sses", "ies")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us")):
        word = word[:-1]
    if word.endswith("eed"):
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        base = word[: -len(suffix)]
        if word.endswith(suffix) and _has_vowel(base):
            if base.endswith(("at", "bl", "iz")):
                return base + "e"
            if _double(base) and base[-1] not in "lsz":
                return base[:-1]
            return base + "e" if _measure(base) == 1 and _cvc(base) else base
    return word


@cache
def stem(word: str) -> str:
    """``word`` reduced by Porter's steps 1 and 5: ``issues``, ``issue`` -> ``issu``;
    ``created``, ``creating``, ``creates`` -> ``creat``; ``starred`` -> ``star``."""
    if len(word) <= 3:
        return word
    word = _without_suffix(word)
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    if word.endswith("e"):
        base = word[:-1]
        if _measure(base) > 1 or (_measure(base) == 1 and not _cvc(base)):
            word = base
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


def _phrases(table: str) -> Phrases:
    pairs: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for item in table.replace("\n", "|").split("|"):
        if "=" in item:
            said, meant = item.split("=", 1)
            pairs.append((tuple(said.split()), tuple(meant.split())))
    pairs.sort(key=lambda pair: -len(pair[0]))
    by_first: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    for said_words, meant_words in pairs:
        by_first.setdefault(said_words[0], []).append((said_words, meant_words))
    return {first: tuple(found) for first, found in by_first.items()}


def rephrased(found: list[str], phrases: Phrases) -> list[str]:
    """``found`` with each phrase of ``phrases`` replaced by what it stands for."""
    if not any(word in phrases for word in found):
        return found
    out: list[str] = []
    position = 0
    while position < len(found):
        for left, right in phrases.get(found[position], ()):
            if tuple(found[position : position + len(left)]) == left:
                out.extend(right)
                position += len(left)
                break
        else:
            out.append(found[position])
            position += 1
    return out


def _related(
    table: str, equivalent: dict[str, str], default: float = 0.7
) -> dict[str, Alternatives]:
    related: dict[str, Alternatives] = {}
    for line in table.strip().splitlines():
        keys, _, alternatives = line.partition(":")
        for said in keys.split():
            key = stem(equivalent.get(said, said))
            related[key] = _alternatives(alternatives, equivalent, default, related.get(key, ()))
    return related


def _alternatives(
    specs: str, equivalent: dict[str, str], default: float, known: Alternatives = ()
) -> Alternatives:
    """``x y*0.4 p_q``: each term tuple with its weight (``default`` when none is written), the
    best weight kept; added to ``known``."""
    found = dict(known)
    for spec in specs.split():
        word, _, weight = spec.partition("*")
        parts = tuple(stem(equivalent.get(p, p)) for p in word.split("_") if p)
        value = float(weight) if weight else default
        if found.get(parts, 0.0) < value:
            found[parts] = value
    return tuple(found.items())


def _cues(
    table: str, equivalent: dict[str, str]
) -> tuple[tuple[frozenset[str], Alternatives], ...]:
    """``a + b: x y*0.4`` lines: the stems of ``a`` and ``b``, and what they find together."""
    found: list[tuple[frozenset[str], Alternatives]] = []
    for line in table.strip().splitlines():
        said, _, meant = line.partition(":")
        if line.startswith("#") or not meant.strip():
            continue
        cue = frozenset(stem(equivalent.get(w, w)) for w in said.replace("+", " ").split())
        # a meant word without a weight is as good as saying it
        found.append((cue, _alternatives(meant, equivalent, 1.0)))
    return tuple(found)


def _lexicon_intents(
    senses: dict[str, Alternatives],
    intent_verbs: dict[str, frozenset[str]],
    actions: set[str],
    known: set[str],
) -> None:
    """A lexicon verb the tables do not know takes the kind of its closest API verb ("nuke":
    delete); one whose closest verb is of no kind is an action of its own ("freeze": lock)."""
    for verb, alternatives in senses.items():
        if verb in intent_verbs or verb in actions or verb in known:
            continue
        closest = max(alternatives, key=lambda alternative: alternative[1])[0]
        intent = intent_verbs.get(closest[0]) if len(closest) == 1 else None
        if intent is not None:
            intent_verbs[verb] = intent
        else:
            actions.add(verb)


@cache
def vocabulary() -> Vocabulary:
    equivalent = dict(pair.split("=", 1) for pair in words.EQUIVALENT.split())
    intent_verbs: dict[str, frozenset[str]] = {}
    for intent, verbs in words.INTENT_VERBS.items():
        for verb in verbs.split():
            intent_verbs[stem(verb)] = intent_verbs.get(stem(verb), frozenset()) | {intent}
    actions = {stem(word) for word in words.ACTION_VERBS.split()}
    general_verbs = _related(lexicon.VERBS, equivalent)
    # a word the tables already read (a noun such as "pull", of "PR") keeps their reading
    known = {stem(word) for word in equivalent.values()} | set(_related(words.RELATED, equivalent))
    _lexicon_intents(general_verbs, intent_verbs, actions, known)
    tuned_phrases = _phrases(words.QUERY_PHRASES)
    said = {phrase for found in tuned_phrases.values() for phrase, _ in found}
    # an API term of several words is written with "_" in the lexicon, as words in a query
    # ("open a pr=create pull_request": "create pull request", as the documents say it)
    general_phrases = "|".join(
        f"{left}={right.replace('_', ' ')}"
        for left, _, right in (line.partition("=") for line in lexicon.PHRASES.split("\n"))
        if right.strip() and tuple(left.split()) not in said
    )
    return Vocabulary(
        stop=frozenset(words.STOP.split()) - _SELF,
        equivalent=equivalent,
        generic=frozenset(stem(word) for word in words.GENERIC.split()),
        vague=frozenset(stem(word) for word in words.VAGUE.split()),
        actions=frozenset(actions),
        phrases=_phrases(words.PHRASES),
        query_phrases=_phrases(words.QUERY_PHRASES + "|" + general_phrases),
        intent_verbs=intent_verbs,
        operation_verbs={
            stem(verb): intent
            for intent, verbs in words.OPERATION_VERBS.items()
            for verb in verbs.split()
        },
        related=_related(words.RELATED, equivalent),
        verb_senses=_related(words.VERB_SENSES, equivalent),
        general_related=_related(lexicon.NOUNS, equivalent),
        general_verbs=general_verbs,
        cues=_cues(
            "\n".join((lexicon.CUES, lexicon.GOALS, lexicon.TASKS, lexicon.AREAS)), equivalent
        ),
    )


def is_question(word: str) -> bool:
    return word in _QUESTIONS


def is_check(word: str) -> bool:
    return word in _CHECKS


def is_self(word: str) -> bool:
    return word in _SELF


def is_short_word(word: str) -> bool:
    return word in _SHORT


def is_preposition(word: str) -> bool:
    return word in _PREPOSITIONS


def is_clause(word: str) -> bool:
    return word in _CLAUSES


def is_particle(word: str) -> bool:
    return word in _PARTICLES
