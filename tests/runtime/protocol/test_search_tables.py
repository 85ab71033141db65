"""The cue tables (words said together, and what they mean) are read whole: a line the parser
would skip or misread is caught here, not lost in silence."""

from __future__ import annotations

import re

import pytest

from templates.runtime.protocol import search_lexicon
from templates.runtime.protocol.search_query import read_query
from templates.runtime.protocol.search_vocabulary import vocabulary

_RULE = re.compile(
    r"^[a-z]+(?: \+ [a-z]+){1,2}: [a-z_]+(?:\*(?:0\.\d+|1\.0))?(?: [a-z_]+(?:\*(?:0\.\d+|1\.0))?)*$"
)


def _rules(table: str) -> list[str]:
    return [line for line in table.strip().splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("name", ["CUES", "GOALS", "TASKS", "AREAS"])
def test_every_cue_line_is_a_rule(name: str) -> None:
    rules = _rules(getattr(search_lexicon, name))
    assert rules, name
    assert [line for line in rules if not _RULE.match(line)] == []


def test_every_rule_is_read() -> None:
    rules = [
        rule
        for table in (
            search_lexicon.CUES,
            search_lexicon.GOALS,
            search_lexicon.TASKS,
            search_lexicon.AREAS,
        )
        for rule in _rules(table)
    ]
    assert len(vocabulary().cues) == len(rules)


def test_cue_words_match_in_any_order_and_form_and_unweighted_words_count_fully() -> None:
    found = read_query("any requests remaining on my quota today?").cues
    assert found
    assert read_query("what's the remaining quota for requests").cues == found
    # "grow + shrink: autoscaler ...": written without a weight, a word counts as said
    grow = read_query("let it grow and shrink").cues
    assert (("autoscaler",), 1.0) in grow[0]


def test_a_name_given_says_nothing_to_the_cues() -> None:
    said = read_query("make me a new private repo called scratch-notes").said
    assert "repo" in said
    assert "note" not in said
    assert "scratch" not in said
