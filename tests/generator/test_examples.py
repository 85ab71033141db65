"""``openapi2mcp examples``: search logs become search examples (``examples.py``).

Logs are written here as a server writes them (one JSON object a line); each test says which
phrasings came out, in what order, and what the command told the user.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from openapi2mcp.cli import main
from tests.conftest import PETSTORE_SPEC


def search(at: float, query: str, found: list[str], by: str | None = None) -> dict[str, Any]:
    return {"at": at, "search": query, "found": found} | ({"by": by} if by else {})


def called(at: float, name: str, ok: bool = True, by: str | None = None) -> dict[str, Any]:
    return {"at": at, "called": name, "ok": ok} | ({"by": by} if by else {})


def write_log(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["examples", *args])
    return result.exit_code, result.stdout, result.stderr


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def example(query: str, tool: str, uses: int = 1, rank: int = 1) -> dict[str, Any]:
    return {"query": query, "expected": tool, "split": "usage", "uses": uses, "rank": rank}


def test_a_successful_call_pairs_with_the_search_that_found_it(tmp_path: Path) -> None:
    log = write_log(
        tmp_path / "log",
        [
            search(1, "kick bob out of #ops", ["conversations_members", "conversations_kick"]),
            called(2, "conversations_members"),
            called(3, "conversations_kick"),
            called(4, "conversations_kick"),  # the same search pairs once
            search(5, "who is in #ops", ["conversations_members"]),
            called(6, "conversations_members", ok=False),  # a failure pairs with nothing
            called(7, "users_list"),  # no search found it
            search(8, "zzz", []),
        ],
    )
    code, out, err = invoke(str(log))
    assert code == 0, err
    assert lines(out) == [
        example("kick bob out of #ops", "conversations_members", rank=1),
        example("kick bob out of #ops", "conversations_kick", rank=2),
    ]
    summary = (
        "3 searches (1 found nothing), 5 calls (4 succeeded, 2 after a search that found them): "
        "2 new example phrasing(s)\n"
    )
    assert err == summary
    # what users asked for and did not get: for the owner to write examples of by hand
    code, again, err = invoke(str(log), "--unanswered", "5")
    assert (code, again) == (0, out)
    assert err == summary + (
        "searches no successful call followed, most frequent first:\n"
        "     1  who is in #ops\n"
        "     1  zzz\n"
    )


def test_callers_pair_with_their_own_searches_within_the_window(tmp_path: Path) -> None:
    log = write_log(
        tmp_path / "log",
        [
            search(0, "refund the charge", ["refunds_create", "charges_get"], by="a"),
            search(10, "show the charge", ["charges_get", "refunds_create"], by="b"),
            called(20, "refunds_create", by="a"),  # a's own search, not b's later one
            called(30, "charges_get", by="b"),
            search(100, "list disputes", ["disputes_list"], by="a"),
            called(100 + 31 * 60, "disputes_list", by="a"),  # 31 minutes later: too late
        ],
    )
    code, out, _ = invoke(str(log))
    assert code == 0
    assert lines(out) == [
        example("refund the charge", "refunds_create"),
        example("show the charge", "charges_get"),
    ]
    code, out, _ = invoke(str(log), "--window", "40")
    assert lines(out)[2] == example("list disputes", "disputes_list")


def test_the_same_phrasing_counts_its_uses_and_logs_of_replicas_read_together(
    tmp_path: Path,
) -> None:
    first = write_log(
        tmp_path / "a.log",
        [search(1, "Open a PR", ["pulls_create"]), search(5, "star it", ["x", "star"])],
    )
    second = write_log(
        tmp_path / "b.log",
        [
            called(2, "pulls_create"),
            called(6, "star"),
            search(7, "open  a pr", ["issues_create", "pulls_create"]),
            called(8, "pulls_create"),
        ],
    )
    code, out, _ = invoke(str(first), str(second))
    assert code == 0
    assert lines(out) == [
        example("Open a PR", "pulls_create", uses=2, rank=2),
        example("star it", "star", rank=2),
    ]
    code, out, _ = invoke(str(first), str(second), "--min-uses", "2")
    assert lines(out) == [example("Open a PR", "pulls_create", uses=2, rank=2)]


def test_an_existing_file_keeps_its_bytes_and_gets_only_new_phrasings(tmp_path: Path) -> None:
    log = write_log(
        tmp_path / "log",
        [
            search(1, "open a pr", ["pulls_create"]),
            called(2, "pulls_create"),
            search(3, "merge it", ["pulls_merge"]),
            called(4, "pulls_merge"),
        ],
    )
    kept = '# reviewed\n{"query": "Open a PR",  "expected": ["pulls_create"]}'
    out = tmp_path / "examples.jsonl"
    out.write_text(kept, encoding="utf-8")
    code, stdout, err = invoke(str(log), "-o", str(out))
    assert code == 0 and stdout == ""
    assert (
        out.read_text(encoding="utf-8")
        == kept + "\n" + json.dumps(example("merge it", "pulls_merge")) + "\n"
    )
    assert err.endswith(f"1 new example phrasing(s) to {out}\n")
    code, _, err = invoke(str(log), "-o", str(out))  # again: nothing new
    assert err.endswith(f"0 new example phrasing(s) to {out}\n")
    assert out.read_text(encoding="utf-8").count("\n") == 3


def test_a_bad_line_names_the_file_and_line_and_nothing_is_written(tmp_path: Path) -> None:
    log = tmp_path / "search.log"
    log.write_text(
        json.dumps(search(1, "a", ["x"])) + "\n" + '{"at": 2, "called": "x"}\n', encoding="utf-8"
    )
    out = tmp_path / "examples.jsonl"
    code, _, err = invoke(str(log), "-o", str(out))
    assert code == 2
    assert err == (
        "error: search.log: line 2: not a search log record (neither a search nor a call)\n"
    )
    assert not out.exists()
    log.write_text("not json\n", encoding="utf-8")
    code, _, err = invoke(str(log))
    assert (code, err) == (
        2,
        "error: search.log: line 1: Expecting value: line 1 column 1 (char 0)\n",
    )


def test_the_examples_teach_the_search_of_the_next_generation(tmp_path: Path) -> None:
    """What the command writes is a query file that eval and generate --search-examples take."""
    log = write_log(
        tmp_path / "log",
        [
            search(1, "I want a new puppy in the shop", ["place_order", "create_pet"]),
            called(2, "create_pet"),
        ],
    )
    out = tmp_path / "examples.jsonl"
    assert invoke(str(log), "-o", str(out))[0] == 0
    asked = ["eval", str(PETSTORE_SPEC), "--queries", str(out)]
    before = CliRunner().invoke(main, asked)
    after = CliRunner().invoke(main, [*asked, "--search-examples", str(out)])
    assert (before.exit_code, after.exit_code) == (0, 0), before.output + after.output
    assert before.stdout.splitlines() == [
        "examples.jsonl: 1 queries; top-1 0 (0.0%), top-5 0 (0.0%)",
        "  usage: 1 queries; top-1 0 (0.0%), top-5 0 (0.0%)",
        "misses (1):",
        "  line 1: 'I want a new puppy in the shop' expected createPet (not in top 5); "
        "first: placeOrder",
    ]
    assert after.stdout.splitlines() == [
        "examples.jsonl: 1 queries; top-1 1 (100.0%), top-5 1 (100.0%)",
        "  usage: 1 queries; top-1 1 (100.0%), top-5 1 (100.0%)",
    ]
