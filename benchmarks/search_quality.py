"""Benchmark: does dynamic mode's search find the operation a user means, from the words a user uses?

For each API with a query file in ``benchmarks/search_queries/<api>.jsonl`` (task phrasings written
by hand as a user would type them, none copied from the spec; each marked ``dev``, for tuning, or
``test``, held out) and in every folder beside it (``blind/`` to ``blind19/``, ``newapi/`` to
``newapi3/``: each written by a helper who never saw the search's code, its tables or the other
queries; each was measured unseen before its misses were looked at, and
``notes/search-quality.md`` keeps those first figures), the real public
spec is planned as ``openapi2mcp generate`` plans it (in memory), its search is built exactly as the
generated server builds it, and every query is asked through ``search_operations``. Prints per
API and per split: queries, top-1 and top-5 (the right operation first, or among the first five),
then the misses: the query, what was expected, where it ranked and what ranked first. With
``--learn``, each split is asked with the search learning from the other splits of its API as
search examples; with ``--from-log`` too, only from what a search log could give (``openapi2mcp
examples``: the operations the search without examples listed in its first 10). Not a test:
figures, not assertions.

    python benchmarks/search_quality.py [--only github,stripe] [--split dev] [--no-misses]
        [--learn [--from-log]]

The specs come from ``realworld.py``'s npm cache (``benchmarks/.cache/realworld``, installed on
first use); those of real servers run here (``live/``: Prefect, GNS3) from the documents they
serve, which ``live_specs.py`` fetches.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from live_specs import LIVE
from realworld import CACHE, SPECS, install, spec_file

from openapi2mcp.diagnostics import Report
from openapi2mcp.eval import (
    Score,
    catalog_search,
    evaluate,
    miss_lines,
    operation_ids,
    operation_names,
    percent,
    read_queries,
    splits_of,
)
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.render.catalog import build_catalog

HERE = Path(__file__).resolve().parent
QUERIES = HERE / "search_queries"
# what a search lists, so what a search log can pair a call with
LOGGED = 10


def row(label: str, score: Score) -> str:
    n = score.count
    return (
        f"{label:<18} {n:>5}  {score.top1:>4} {percent(score.top1, n):>7}"
        f"  {score.top5:>4} {percent(score.top5, n):>7}"
    )


def _natural(path: Path) -> tuple[str, int]:
    """``blind2`` before ``blind10``."""
    name = path.parent.name
    digits = name.rstrip("0123456789")
    return digits, int(name[len(digits) :] or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", help="comma-separated APIs (default: every query file)")
    parser.add_argument("--split", help="only this split's queries")
    parser.add_argument(
        "--learn",
        action="store_true",
        help="ask each split with the search learning from every other split of its API (one "
        "half from the other, for an API with one split)",
    )
    parser.add_argument(
        "--from-log",
        action="store_true",
        help="with --learn, learn only what a search log could give (openapi2mcp examples): the "
        "operations the search without examples listed in its first 10 results",
    )
    parser.add_argument("--no-misses", action="store_true", help="figures only")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the npm packages go")
    args = parser.parse_args()
    install(args.cache)
    specs = dict(SPECS)
    apis = sorted({f.stem for f in (*QUERIES.glob("*.jsonl"), *QUERIES.glob("*/*.jsonl"))})
    wanted = set(args.only.split(",")) if args.only else None
    rows: list[str] = []
    totals: dict[str, list[Score]] = {}
    for api in apis:
        if wanted is not None and api not in wanted:
            continue
        start = time.perf_counter()
        # the document a real server of ``api`` serves, which ``live_specs.py`` fetches
        live = LIVE / f"{api}.json"
        if api not in specs and not live.is_file():
            print(
                f"{api}: {live} is missing: run `python benchmarks/live_specs.py`", file=sys.stderr
            )
            continue
        with tempfile.TemporaryDirectory() as tmp:
            spec = spec_file(args.cache, specs[api], Path(tmp)) if api in specs else live
            plan, _ = plan_source(str(spec), GenerateOptions())
        names = operation_names(plan)
        files = [QUERIES / f"{api}.jsonl"] if (QUERIES / f"{api}.jsonl").exists() else []
        files += sorted(QUERIES.glob(f"*/{api}.jsonl"), key=_natural)  # blind/ ... newapi/
        queries = [query for file in files for query in read_queries(file, names)]
        catalog: Any = build_catalog(plan, Report())
        score = Score(())
        listed: dict[str, set[str]] = {}
        if args.from_log:
            plain = catalog_search(catalog)
            listed = {q.query: set(plain(q.query, LOGGED)) for q in queries}
        for split in dict.fromkeys(q.split for q in queries):
            if args.split and split != args.split:
                continue
            asked = [q for q in queries if q.split == split]
            others = [q for q in queries if q.split != split]
            # an API with one set only learns from its other half (odd lines, then even ones)
            if others or not args.learn:
                rounds = [(asked, others)]
            else:
                rounds = [(asked[0::2], asked[1::2]), (asked[1::2], asked[0::2])]
            for ask, learn in rounds:
                learned = learn if args.learn else []
                index = dict(catalog["searchIndex"])
                index["examples"] = [
                    {"query": q.query, "tools": tools}
                    for q in learned
                    if (tools := [t for t in q.expected if not listed or t in listed[q.query]])
                ]
                search = catalog_search({**catalog, "searchIndex": index})
                score = Score(score.outcomes + evaluate(search, ask).outcomes)
        seconds = time.perf_counter() - start
        print(f"{api}: {len(plan.callable_tools)} operations, {seconds:.1f} s", file=sys.stderr)
        for split in splits_of(score):
            part = score.only(split)
            rows.append(row(f"{api} {split}", part))
            totals.setdefault(split, []).append(part)
        if not args.no_misses:
            for split in splits_of(score):
                part = score.only(split)
                if part.misses:
                    print(f"{api} {split} misses ({len(part.misses)}):")
                    print("\n".join(miss_lines(part, operation_ids(plan))))
    print(f"\n{'api split':<18} {'count':>5}  {'top-1':>12}  {'top-5':>12}")
    print("\n".join(rows))
    for split, scores in totals.items():
        merged = Score(tuple(o for s in scores for o in s.outcomes))
        print(row(f"all {split}", merged))


if __name__ == "__main__":
    main()
