"""`openapi2mcp eval`: top-1 and top-5 of dynamic mode's search over a query file, the misses, the
exit code against the minimums, and bad query files refused naming the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main

SPEC = """\
openapi: 3.0.3
info: {title: Tracker, version: "1.0"}
servers: [{url: "https://tracker.example.com"}]
paths:
  /issues:
    get: {operationId: listIssues, summary: List issues, responses: {"200": {description: ok}}}
    post: {operationId: createIssue, summary: Create an issue, responses: {"201": {description: ok}}}
  /issues/{number}:
    parameters: [{name: number, in: path, required: true, schema: {type: integer}}]
    get: {operationId: getIssue, summary: Get an issue, responses: {"200": {description: ok}}}
    patch: {operationId: updateIssue, summary: Update an issue, responses: {"200": {description: ok}}}
    delete: {operationId: deleteIssue, summary: Delete an issue, responses: {"204": {description: ok}}}
  /issues/{number}/comments:
    parameters: [{name: number, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: listComments
      summary: List the comments of an issue
      responses: {"200": {description: ok}}
    post:
      operationId: createComment
      summary: Comment on an issue
      responses: {"201": {description: ok}}
  /issues/{number}/lock:
    parameters: [{name: number, in: path, required: true, schema: {type: integer}}]
    put: {operationId: lockIssue, summary: Lock an issue, responses: {"204": {description: ok}}}
"""
QUERIES = [
    {"query": "file a bug", "expected": ["createIssue"], "split": "dev"},
    {"query": "show all tickets", "expected": ["listIssues"], "split": "dev"},
    {"query": "reply on ticket 12", "expected": ["createComment"], "split": "test"},
    {"query": "comments on issue 7", "expected": ["createComment"], "split": "test"},
    # tool names are accepted too
    {"query": "tune the xylophone", "expected": ["lockIssue", "delete_issue"], "split": "test"},
]
REPORT = """\
queries.jsonl: 5 queries; top-1 3 (60.0%), top-5 4 (80.0%)
  dev: 2 queries; top-1 2 (100.0%), top-5 2 (100.0%)
  test: 3 queries; top-1 1 (33.3%), top-5 2 (66.7%)
misses (2):
  line 4: 'comments on issue 7' expected createComment (rank 2); first: listComments
  line 5: 'tune the xylophone' expected lockIssue, deleteIssue (not in top 5); first: nothing
"""


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "tracker.yaml"
    path.write_text(SPEC)
    return path


def query_file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "queries.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return path


@pytest.fixture
def queries(tmp_path: Path) -> Path:
    return query_file(tmp_path, [json.dumps(query) for query in QUERIES])


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["eval", *args])
    return result.exit_code, result.stdout, result.stderr


def test_prints_top1_top5_per_split_and_the_misses(spec: Path, queries: Path) -> None:
    assert invoke(str(spec), "--queries", str(queries)) == (0, REPORT, "")


def test_exits_1_below_a_minimum_and_says_which(spec: Path, queries: Path) -> None:
    code, out, err = invoke(str(spec), "--queries", str(queries), "--min-top1", "0.6")
    assert (code, out, err) == (0, REPORT, "")
    code, out, err = invoke(
        str(spec), "--queries", str(queries), "--min-top1", "0.75", "--min-top5", "0.9"
    )
    assert (code, out) == (1, REPORT)
    assert err == ("top-1 60.0% is below --min-top1 75.0%\ntop-5 80.0% is below --min-top5 90.0%\n")


def test_one_split_only(spec: Path, queries: Path) -> None:
    code, out, _ = invoke(str(spec), "--queries", str(queries), "--split", "dev")
    assert code == 0
    assert out == (
        "queries.jsonl: 2 queries; top-1 2 (100.0%), top-5 2 (100.0%)\n"
        "  dev: 2 queries; top-1 2 (100.0%), top-5 2 (100.0%)\n"
    )


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"query": "file a bug", "expected": ["createIssue"]}', "{not json"], "line 2: not JSON"),
        (['["file a bug"]'], "line 1: expected an object with query and expected"),
        (
            ['{"query": " ", "expected": ["createIssue"]}'],
            "line 1: query must be a non-empty string",
        ),
        (
            ['{"query": "file a bug", "expected": []}'],
            "line 1: expected must be an operationId or a non-empty list of them",
        ),
        (
            ["# a comment", "", '{"query": "file a bug", "expected": ["fileBug", "createIssue"]}'],
            "line 3: no operation fileBug among the planned tools",
        ),
        (
            ['{"query": "file a bug", "expected": "createIssue", "split": "a b"}'],
            "line 1: split must be a word (letters, digits, _ . -), got 'a b'",
        ),
        (["# nothing but a comment"], "no queries"),
    ],
)
def test_a_bad_query_file_exits_2_naming_the_line(
    spec: Path, tmp_path: Path, lines: list[str], message: str
) -> None:
    code, out, err = invoke(str(spec), "--queries", str(query_file(tmp_path, lines)))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: queries.jsonl: {message}")


def test_a_missing_query_file_exits_2(spec: Path, tmp_path: Path) -> None:
    code, out, err = invoke(str(spec), "--queries", str(tmp_path / "absent.jsonl"))
    assert (code, out) == (2, "")
    assert err.startswith("error: cannot read ") and "absent.jsonl" in err


EXAMPLES = [
    {"query": "leave comments on issue 3", "expected": ["createComment"]},
    {"query": "comments on issue 7", "expected": ["createComment"]},
]


def test_the_search_learns_from_search_examples_and_says_when_it_asked_them(
    spec: Path, queries: Path, tmp_path: Path
) -> None:
    examples = tmp_path / "examples.jsonl"
    examples.write_text("".join(json.dumps(example) + "\n" for example in EXAMPLES[:1]))
    code, out, err = invoke(
        str(spec), "--queries", str(queries), "--search-examples", str(examples)
    )
    assert (code, err) == (0, "")
    assert out == (
        "queries.jsonl: 5 queries; top-1 4 (80.0%), top-5 4 (80.0%)\n"
        "  dev: 2 queries; top-1 2 (100.0%), top-5 2 (100.0%)\n"
        "  test: 3 queries; top-1 2 (66.7%), top-5 2 (66.7%)\n"
        "misses (1):\n"
        "  line 5: 'tune the xylophone' expected lockIssue, deleteIssue (not in top 5); first: nothing\n"
    )
    examples.write_text("".join(json.dumps(example) + "\n" for example in EXAMPLES))
    code, _, err = invoke(str(spec), "--queries", str(queries), "--search-examples", str(examples))
    assert (code, err) == (
        0,
        "note: the search learned 1 of these 5 phrasings as search examples: figures on them say "
        "nothing of phrasings it has not seen\n",
    )


def test_search_examples_naming_an_unknown_operation_stop_eval_naming_the_line(
    spec: Path, queries: Path, tmp_path: Path
) -> None:
    examples = tmp_path / "examples.jsonl"
    examples.write_text(
        '{"query": "file a bug", "expected": ["createIssue"]}\n{"query": "x", "expected": ["nope"]}\n'
    )
    code, out, err = invoke(
        str(spec), "--queries", str(queries), "--search-examples", str(examples)
    )
    assert (code, out) == (2, "")
    assert (
        "search examples: examples.jsonl: line 2: no operation nope among the planned tools" in err
    )


def test_cross_validation_asks_each_part_learning_from_the_others(
    spec: Path, tmp_path: Path
) -> None:
    queries = tmp_path / "phrasings.jsonl"
    queries.write_text("".join(json.dumps(example) + "\n" for example in EXAMPLES))
    code, out, _ = invoke(str(spec), "--queries", str(queries))
    assert (code, out) == (
        0,
        "phrasings.jsonl: 2 queries; top-1 1 (50.0%), top-5 2 (100.0%)\n"
        "misses (1):\n"
        "  line 2: 'comments on issue 7' expected createComment (rank 2); first: listComments\n",
    )
    # line 2 asked with the search learning from line 1, and line 1 from line 2
    code, out, err = invoke(str(spec), "--queries", str(queries), "--cross-validate", "2")
    assert (code, err) == (0, "")
    assert out == (
        "phrasings.jsonl (each of 2 parts learning from the others): 2 queries; "
        "top-1 2 (100.0%), top-5 2 (100.0%)\n"
    )
    code, out, err = invoke(str(spec), "--queries", str(queries), "--cross-validate", "3")
    assert (code, out) == (2, "")
    assert err.startswith("error: --cross-validate 3 needs at least 3 queries, the file has 2")
