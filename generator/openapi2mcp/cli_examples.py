"""``openapi2mcp examples LOG...``: search examples from servers' search logs (``examples.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .cli_support import fail, no_traceback
from .eval import QueryFileError
from .examples import (
    DEFAULT_WINDOW_SECONDS,
    SearchLogError,
    added_examples,
    append_atomically,
    example_lines,
    known_pairs,
    read_log,
    usage,
)


@click.command("examples")
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Query file to write, or to add the new phrasings to if it exists (default: stdout).",
)
@click.option(
    "--window",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_WINDOW_SECONDS / 60,
    show_default=True,
    help="Minutes a search may come before the call it led to.",
)
@click.option(
    "--min-uses",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Keep a phrasing only when this many searches with it led to the operation.",
)
@click.option(
    "--unanswered",
    type=click.IntRange(min=0),
    default=0,
    metavar="N",
    help="Also show the N most frequent searches no successful call followed.",
)
@no_traceback
def examples_command(
    logs: tuple[Path, ...], output: Path | None, window: float, min_uses: int, unanswered: int
) -> None:
    """Turn the search logs of generated servers (<PREFIX>_SEARCH_LOG) into search examples: each
    phrasing that found an operation the model then called with success. Review them, then give
    the file to generate --search-examples so that the next server finds those operations first."""
    try:
        records = [record for log in logs for record in read_log(log)]
    except SearchLogError as exc:
        fail(str(exc))
    found = usage(records, window * 60)
    examples = [e for e in found.examples if e.uses >= min_uses]
    text = ""
    if output is not None and output.exists():
        try:
            text = output.read_text(encoding="utf-8")
            examples = added_examples(examples, known_pairs(text, output.name))
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read {output}: {exc}")
        except QueryFileError as exc:
            fail(str(exc))
    lines = example_lines(examples)
    if output is None:
        for line in lines:
            click.echo(line)
    else:
        try:
            append_atomically(output, text, lines)
        except OSError as exc:
            fail(f"cannot write {output}: {exc}")
    where = f" to {output}" if output is not None else ""
    click.echo(
        f"{found.searches} searches ({found.found_nothing} found nothing), {found.calls} calls "
        f"({found.succeeded} succeeded, {found.paired} after a search that found them): "
        f"{len(examples)} new example phrasing(s){where}",
        err=True,
    )
    if unanswered and found.unanswered:
        click.echo("searches no successful call followed, most frequent first:", err=True)
        for query, count in found.unanswered[:unanswered]:
            click.echo(f"  {count:>4}  {query}", err=True)
    sys.stdout.flush()
