"""The ``openapi2mcp`` command line; the only module that prints.

Exit codes: 0 success; 1 drift found by ``--check`` (or warnings under ``--strict``), changes found
by ``diff`` as selected by ``--fail-on``, or search quality below ``eval``'s minimum; 2 the input
or the output directory is unusable (or the spec's operations yield no tool); 3 an internal
error, printed as one line naming where it happened (never a traceback).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from . import __version__
from .cli_examples import examples_command
from .cli_support import EXIT_DRIFT
from .cli_support import fail as _fail
from .cli_support import no_traceback as _no_traceback
from .diagnostics import GenerationError, Report
from .diff.compare import DiffInputError, FailOn, diff_sources
from .diff.report import FULL_REPORT, MARKDOWN_LIMIT, render
from .eval import (
    QueryFileError,
    cross_validated,
    evaluate,
    operation_ids,
    operation_names,
    percent,
    planned_search,
    read_queries,
    report_lines,
)
from .generate import (
    GenerateOptions,
    Generation,
    NothingToGenerate,
    generate,
    name_origin,
    plan_source,
)
from .plan.build import pep440_version
from .plan.model import ServerPlan
from .plan.settings import AUTO_THRESHOLD, OUTPUT_SCHEMAS, TOOL_MODES, OutputSchemas
from .progress import NO_PROGRESS, ProgressSink, StageLog
from .render.actions import DEFAULT_GENERATOR_REQUIREMENT, generator_requirement_problem
from .render.catalog import build_catalog, mode_sizes
from .render.emit import OutputExists, check_tree, write_tree
from .render.package import (
    MARKER,
    PublishOptions,
    kept_paths,
    registry_name_problem,
    spec_url_problem,
)
from .render.publishing import (
    PYPI_URL,
    MetadataError,
    author,
    license_expression,
    pypi_name_problem,
)

T = TypeVar("T")
# without a terminal, progress lines are shown for specs at least this big (or with --progress)
PROGRESS_SPEC_BYTES = 1_000_000


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="openapi2mcp")
def main() -> None:
    """Generate standalone, typed Python MCP servers from OpenAPI documents."""


main.add_command(examples_command)


def _options(f: click.decorators.FC) -> click.decorators.FC:
    f = click.option("--name", help="API name for the package (default: from info.title).")(f)
    f = click.option(
        "--max-name-length", type=int, default=None, help="Longest tool name (default: 64)."
    )(f)
    f = click.option(
        "--config",
        "config_path",
        type=click.Path(path_type=Path, dir_okay=False),
        help="Config file (default: openapi2mcp.toml next to the spec).",
    )(f)
    f = click.option(
        "--overlay",
        "overlays",
        multiple=True,
        type=click.Path(path_type=Path, dir_okay=False),
        help="OpenAPI Overlay 1.0 document applied before parsing (repeatable, in order).",
    )(f)
    f = click.option(
        "--version",
        "package_version",
        metavar="VERSION",
        help="Package version, PEP 440 (default: from info.version).",
    )(f)
    f = click.option(
        "--tool-mode",
        type=click.Choice(TOOL_MODES),
        default=None,
        help=f"How tools/list presents the operations: one tool each (full), three meta tools "
        f"(dynamic), only the --toolsets tags (toolsets), search and describe plus run_code, which "
        f"runs a Python program calling the operations (code; the package's code extra); auto: "
        f"full up to {AUTO_THRESHOLD} tools (the config file's auto_threshold), dynamic beyond. "
        "Default: the config file's tool_mode, else auto. <PREFIX>_TOOL_MODE overrides it at run "
        "time.",
    )(f)
    f = click.option(
        "--toolsets",
        metavar="TAG,...",
        default=None,
        help="Toolsets (tags, e.g. repos,issues) exposed in toolsets mode; alone it selects that mode. "
        "Default: the config file's toolsets.",
    )(f)
    f = click.option(
        "--output-schemas",
        type=click.Choice(OUTPUT_SCHEMAS),
        default="compact",
        show_default=True,
        help="Tools' outputSchema: as the spec says, top-level shape only, or none.",
    )(f)
    f = click.option(
        "--description-limit",
        type=click.IntRange(min=0),
        default=None,
        help="Longest tool or schema description kept, in characters (default 1024; 0: no limit).",
    )(f)
    return click.option(
        "--include-deprecated/--exclude-deprecated",
        default=None,
        help="Expose deprecated operations (default: excluded).",
    )(f)


def _metadata_args(package_license: str | None, authors: tuple[str, ...]) -> list[str]:
    """``--license``/``--author`` checked (exit 2 naming the value), as the workflow repeats them."""
    args: list[str] = []
    if package_license is not None:
        try:
            args += ["--license", license_expression(package_license)]
        except MetadataError as exc:
            _fail(f"--license: {exc}")
    for text in authors:
        try:
            author(text)
        except MetadataError as exc:
            _fail(f"--author: {exc}")
        args += ["--author", text]
    return args


def _toolsets(raw: str | None) -> tuple[str, ...]:
    return tuple(name.strip() for name in (raw or "").split(",") if name.strip())


def _package_version(raw: str | None) -> str | None:
    if raw is None:
        return None
    version = pep440_version(raw)
    if version is None:
        _fail(
            f"--version {raw!r} is not a PEP 440 version (for example 1.2.0, 1.2.0rc1, 2.0.post1)"
        )
    return version


_remote_refs = click.option(
    "--allow-remote-refs",
    is_flag=True,
    help="Fetch $refs to http(s) URLs (off: never use the network).",
)
_search_examples = click.option(
    "--search-examples",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A query file of users' task phrasings, each with the operations that serve it (as eval "
    "reads): the search learns users' words from them (default: the config's search_examples).",
)


@main.command("generate")
@click.argument("spec")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Output directory.")
@_options
@click.option("--force", is_flag=True, help="Overwrite a directory openapi2mcp did not generate.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the output would change.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) when there are warnings.")
@click.option("-v", "--verbose", is_flag=True, help="Show informational diagnostics and diffs.")
@_remote_refs
@_search_examples
@click.option(
    "--registry-name",
    metavar="io.github.OWNER/NAME",
    help="The server's name in the MCP registry (server.json, README marker).",
)
@click.option(
    "--ci-workflow",
    is_flag=True,
    help="Also write .github/workflows/regenerate.yml (created once, then yours).",
)
@click.option("--spec-url", metavar="URL", help="Where the CI workflow downloads the spec.")
@click.option(
    "--generator-requirement",
    metavar="TEXT",
    help="What the CI workflow installs openapi2mcp from: a pip requirement, a git+https:// URL "
    f"or a path (default: {DEFAULT_GENERATOR_REQUIREMENT}).",
)
@click.option(
    "--publish-workflow",
    is_flag=True,
    help="Also write .github/workflows/publish.yml: PyPI, GHCR and the MCP registry on a v* tag "
    "(created once, then yours).",
)
@click.option(
    "--license",
    "package_license",
    metavar="SPDX",
    help="The package's license, an SPDX expression such as MIT or Apache-2.0 (default: the config "
    "file's [package] license). Not the API's: that one is recorded as the API's.",
)
@click.option(
    "--author",
    "authors",
    metavar="'NAME <EMAIL>'",
    multiple=True,
    help="A package author (repeatable; default: the config file's [package] authors).",
)
@click.option(
    "--check-name",
    is_flag=True,
    help="Ask PyPI whether the package name is free (a warning when it is taken; the only network "
    "use of generate). OPENAPI2MCP_PYPI_URL names another index.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show progress on stderr (default: on a terminal, or for specs over 1 MB).",
)
@_no_traceback
def generate_command(
    spec: str,
    output: Path | None,
    name: str | None,
    max_name_length: int | None,
    config_path: Path | None,
    overlays: tuple[Path, ...],
    package_version: str | None,
    include_deprecated: bool | None,
    force: bool,
    check: bool,
    strict: bool,
    verbose: bool,
    allow_remote_refs: bool,
    search_examples: Path | None,
    registry_name: str | None,
    ci_workflow: bool,
    spec_url: str | None,
    generator_requirement: str | None,
    publish_workflow: bool,
    tool_mode: str | None,
    toolsets: str | None,
    output_schemas: str,
    description_limit: int | None,
    package_license: str | None,
    authors: tuple[str, ...],
    check_name: bool,
    progress: bool | None,
) -> None:
    """Generate an MCP server package from SPEC (a YAML/JSON file, or - for stdin)."""
    exposure_args = _exposure_args(tool_mode, toolsets, output_schemas, description_limit)
    exposure_args += _metadata_args(package_license, authors)
    options = GenerateOptions(
        name,
        max_name_length,
        include_deprecated,
        config_path=config_path,
        overlays=overlays,
        version=_package_version(package_version),
        allow_remote_refs=allow_remote_refs,
        publish=_publish_options(
            registry_name,
            ci_workflow,
            spec_url,
            generator_requirement=generator_requirement,
            publish_workflow=publish_workflow,
            max_name_length=max_name_length,
            include_deprecated=include_deprecated,
            allow_remote_refs=allow_remote_refs,
            extra=exposure_args,
        ),
        tool_mode=tool_mode,
        toolsets=_toolsets(toolsets),
        output_schemas=cast(OutputSchemas, output_schemas),  # click.Choice admits only these
        description_limit=description_limit,
        license=package_license,
        authors=authors,
        search_examples=search_examples,
    )
    stages = _progress(spec, progress)
    try:
        result = _run(
            lambda: generate(spec, options, stdin=_stdin(spec), progress=stages), verbose=verbose
        )
        out = output or Path(result.plan.distribution)
        keep = kept_paths(result.plan)
        if not check:
            stages("write", f"{len(result.files)} files to {out}")
            try:
                write_tree(result.files, out, force=force, marker=MARKER, keep=keep)
            except OutputExists as exc:
                _fail(str(exc))
            except OSError as exc:
                _fail(f"cannot write {out}: {exc.strerror or exc}")
    finally:
        if isinstance(stages, StageLog):
            stages.close()
    if check_name:
        _check_name(result)
    _print_report(result.report, verbose=verbose)
    if check:
        drift = check_tree(result.files, out, keep=keep)
        if drift:
            click.echo(f"{out}: {len(drift)} file(s) out of date:", err=True)
            for item in drift:
                click.echo(f"  {item.kind:8} {item.path}", err=True)
                if verbose and item.diff:
                    click.echo(item.diff, err=True)
            sys.exit(EXIT_DRIFT)
        click.echo(f"{out}: up to date ({len(result.files)} files)", err=True)
    else:
        click.echo(_summary(result, out), err=True)
    if strict and result.report.warnings:
        sys.exit(EXIT_DRIFT)


def _check_name(result: Generation) -> None:
    """``--check-name``: a warning when the package's name is taken on PyPI (or cannot be checked)."""
    index = os.environ.get("OPENAPI2MCP_PYPI_URL") or PYPI_URL
    if problem := pypi_name_problem(result.plan.distribution, index):
        result.report.warn("pypi-name", "", problem)


def _publish_options(
    registry_name: str | None,
    ci_workflow: bool,
    spec_url: str | None,
    *,
    generator_requirement: str | None,
    publish_workflow: bool,
    max_name_length: int | None,
    include_deprecated: bool | None,
    allow_remote_refs: bool,
    extra: list[str],
) -> PublishOptions:
    if registry_name is not None and (problem := registry_name_problem(registry_name)):
        _fail(f"--registry-name {problem}")
    if spec_url is not None:
        if not ci_workflow:
            _fail("--spec-url is for the CI workflow: add --ci-workflow")
        if problem := spec_url_problem(spec_url):
            _fail(f"--spec-url {problem}")
    if generator_requirement is not None:
        if not ci_workflow:
            _fail("--generator-requirement is for the CI workflow: add --ci-workflow")
        if problem := generator_requirement_problem(generator_requirement):
            _fail(f"--generator-requirement {problem}")
    # the options a regeneration in CI must repeat to produce the same package
    args: list[str] = []
    if max_name_length is not None:
        args += ["--max-name-length", str(max_name_length)]
    if include_deprecated is not None:
        args.append("--include-deprecated" if include_deprecated else "--exclude-deprecated")
    if allow_remote_refs:
        args.append("--allow-remote-refs")
    if publish_workflow:
        # the README describes the publish workflow only while generation is asked for it
        args.append("--publish-workflow")
    return PublishOptions(
        registry_name,
        ci_workflow,
        spec_url,
        tuple(args + extra),
        generator_requirement=generator_requirement or DEFAULT_GENERATOR_REQUIREMENT,
        publish_workflow=publish_workflow,
    )


def _exposure_args(
    tool_mode: str | None, toolsets: str | None, output_schemas: str, limit: int | None
) -> list[str]:
    """The tool-exposure options as a regeneration must repeat them."""
    args: list[str] = []
    if tool_mode is not None:
        args += ["--tool-mode", tool_mode]
    if _toolsets(toolsets):
        args += ["--toolsets", ",".join(_toolsets(toolsets))]
    if output_schemas != "compact":
        args += ["--output-schemas", output_schemas]
    if limit is not None:
        args += ["--description-limit", str(limit)]
    return args


def _progress(spec: str, wanted: bool | None) -> ProgressSink:
    """A redrawn bar on a terminal; plain lines in CI or a pipe, for big specs; else nothing."""
    if wanted is False:
        return NO_PROGRESS
    terminal = sys.stderr.isatty() and not os.environ.get("CI")
    if wanted is None and not terminal:
        try:
            big = spec != "-" and Path(spec).stat().st_size >= PROGRESS_SPEC_BYTES
        except OSError:
            big = False
        if not big:
            return NO_PROGRESS
    return StageLog(sys.stderr, bar=terminal)


@main.command("inspect")
@click.argument("spec")
@_options
@click.option("-v", "--verbose", is_flag=True, help="Show informational diagnostics.")
@_remote_refs
@_no_traceback
def inspect_command(
    spec: str,
    name: str | None,
    max_name_length: int | None,
    config_path: Path | None,
    overlays: tuple[Path, ...],
    package_version: str | None,
    include_deprecated: bool | None,
    verbose: bool,
    allow_remote_refs: bool,
    tool_mode: str | None,
    toolsets: str | None,
    output_schemas: str,
    description_limit: int | None,
) -> None:
    """Show what would be generated from SPEC, without writing anything."""
    options = GenerateOptions(
        name,
        max_name_length,
        include_deprecated,
        config_path=config_path,
        overlays=overlays,
        version=_package_version(package_version),
        allow_remote_refs=allow_remote_refs,
        tool_mode=tool_mode,
        toolsets=_toolsets(toolsets),
        output_schemas=cast(OutputSchemas, output_schemas),  # click.Choice admits only these
        description_limit=description_limit,
    )
    plan, report = _run(lambda: plan_source(spec, options, stdin=_stdin(spec)))
    _print_report(report, verbose=verbose)
    click.echo(f"package {plan.distribution}=={plan.version}")
    origin = name_origin(spec, options, plan)
    click.echo(f"name {plan.distribution.removesuffix('-mcp')}: from {origin}")
    rows = [("OPERATION", "KIND", "MCP NAME", "HINTS")]
    for decision in plan.decisions:
        op = decision.operation
        hints = _hint_marks(decision.annotations) if decision.annotations else ""
        hints = "  ".join(h for h in (hints, decision.note) if h)
        rows.append(
            (
                f"{op.method} {op.path}",
                "+".join(decision.kinds),
                ", ".join(decision.names) or "-",
                hints,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        click.echo(
            "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3]
        )
    for prompt in plan.prompts:
        click.echo(f"prompt  {prompt.name}  ({prompt.title})")
    catalog_bytes = len(_catalog_json(plan))
    click.echo(
        f"{plan.distribution}: {len(plan.tools)} tools, {len(plan.resources)} resources, "
        f"{len(plan.resource_templates)} resource templates, {len(plan.prompts)} prompts, "
        f"{_skipped(plan, report)} skipped; "
        f"catalog {catalog_bytes:,} bytes"
    )
    _print_mode_sizes(plan)


def _skipped(plan: ServerPlan, report: Report) -> int:
    """Operations left out: those the plan skipped and those the document's reading did
    (``op-skipped``, which the plan never sees)."""
    read = {d.pointer for d in report.diagnostics if d.code == "op-skipped"}
    planned = {d.operation.pointer for d in plan.decisions if "skipped" in d.kinds}
    return len(read | planned)


def _print_mode_sizes(plan: ServerPlan) -> None:
    """tools/list per tool mode; tokens are an offline estimate (``catalog.estimate_tokens``)."""
    click.echo(
        f"tools/list by tool mode (generated as {plan.exposure.mode}; "
        "tokens estimated, not counted by a tokenizer):"
    )
    sizes = mode_sizes(plan, Report())
    width = max(len(size.mode) for size in sizes)
    for size in sizes:
        click.echo(
            f"  {size.mode.ljust(width)}  {size.tools:>6,} tools  {size.bytes:>12,} bytes"
            f"  ~{size.tokens:>10,} tokens"
        )


@main.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--name", help="API name used when a side is a spec (default: from info.title).")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="Report format (markdown suits a pull-request comment).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["breaking", "any", "never"]),
    default="breaking",
    show_default=True,
    help="Exit 1 when there are breaking changes, any changes, or never.",
)
@click.option(
    "--max-length",
    type=click.IntRange(min=0),
    default=MARKDOWN_LIMIT,
    show_default=True,
    help="Markdown: shorten the report to this many characters (0: never shorten).",
)
@click.option(
    "--full-report",
    metavar="TEXT",
    default=FULL_REPORT,
    help="Markdown: where the full report is, named when the report is shortened.",
)
@_no_traceback
def diff_command(
    old: str,
    new: str,
    name: str | None,
    output_format: str,
    fail_on: str,
    max_length: int,
    full_report: str,
) -> None:
    """Compare the MCP surfaces of OLD and NEW (OpenAPI documents, mcp-surface.json files, plain or
    .gz, or generated package directories)."""
    if old == new == "-":
        _fail("only one side can be read from standard input")
    try:
        result = _run(lambda: diff_sources(old, new, name=name))
    except DiffInputError as exc:
        _fail(str(exc))
    report = render(result, output_format, limit=max_length or None, full_report=full_report)
    click.echo(report, nl=False)
    if result.fails(cast(FailOn, fail_on)):  # click.Choice admits only these values
        sys.exit(EXIT_DRIFT)


@main.command("eval")
@click.argument("spec")
@click.option(
    "--queries",
    "queries_path",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help='JSON Lines, one query a line: {"query": "make a PR for my branch", "expected": '
    '["pulls/create"]} (operationIds or tool names; optional "split": "dev" or "test").',
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Config file (default: openapi2mcp.toml next to the spec).",
)
@click.option(
    "--overlay",
    "overlays",
    multiple=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="OpenAPI Overlay 1.0 document applied before parsing (repeatable, in order).",
)
@click.option(
    "--include-deprecated/--exclude-deprecated",
    default=None,
    help="Search deprecated operations too (default: excluded, as generated).",
)
@_remote_refs
@_search_examples
@click.option("--split", help="Only the queries of this split.")
@click.option(
    "--cross-validate",
    "folds",
    type=click.IntRange(2, 20),
    default=None,
    metavar="N",
    help="Ask each of N parts of the queries with the search learning from the other parts as "
    "search examples: what learning from the file gives on phrasings it has not seen.",
)
@click.option(
    "--min-top1",
    type=click.FloatRange(0, 1),
    default=None,
    help="Exit 1 when fewer queries than this share (0-1) find their operation first.",
)
@click.option(
    "--min-top5",
    type=click.FloatRange(0, 1),
    default=None,
    help="Exit 1 when fewer queries than this share (0-1) find their operation in the top five.",
)
@_no_traceback
def eval_command(
    spec: str,
    queries_path: Path,
    config_path: Path | None,
    overlays: tuple[Path, ...],
    include_deprecated: bool | None,
    allow_remote_refs: bool,
    search_examples: Path | None,
    split: str | None,
    folds: int | None,
    min_top1: float | None,
    min_top5: float | None,
) -> None:
    """Measure how well the search of dynamic mode finds operations for the task phrasings in a
    query file: top-1 and top-5 over SPEC, planned as generate plans it, and the misses."""
    options = GenerateOptions(
        include_deprecated=include_deprecated,
        config_path=config_path,
        overlays=overlays,
        allow_remote_refs=allow_remote_refs,
        search_examples=search_examples,
    )
    plan, report = _run(lambda: plan_source(spec, options, stdin=_stdin(spec)))
    _print_report(report, verbose=False)
    try:
        queries = read_queries(queries_path, operation_names(plan))
    except QueryFileError as exc:
        _fail(str(exc))
    if split is not None:
        queries = [query for query in queries if query.split == split]
        if not queries:
            _fail(f"{queries_path.name}: no queries of split {split}")
    if folds is not None and len(queries) < folds:
        _fail(
            f"--cross-validate {folds} needs at least {folds} queries, the file has {len(queries)}"
        )
    if folds is None:
        score, label = evaluate(planned_search(plan), queries), queries_path.name
    else:
        score = cross_validated(plan, queries, folds)
        label = f"{queries_path.name} (each of {folds} parts learning from the others)"
    for line in report_lines(label, score, operation_ids(plan), misses=True):
        click.echo(line)
    learned = {text for text, _ in plan.search_examples}
    if seen := sum(1 for query in queries if query.query in learned):
        click.echo(
            f"note: the search learned {seen} of these {len(queries)} phrasings as search "
            "examples: figures on them say nothing of phrasings it has not seen",
            err=True,
        )
    below = [
        f"{name} {percent(found, score.count)} is below --min-{name} {minimum:.1%}"
        for name, found, minimum in (("top1", score.top1, min_top1), ("top5", score.top5, min_top5))
        if minimum is not None and found < minimum * score.count
    ]
    for line in below:
        click.echo(line.replace("top1 ", "top-1 ", 1).replace("top5 ", "top-5 ", 1), err=True)
    if below:
        sys.exit(EXIT_DRIFT)


@main.command("bundle")
@click.argument("package_dir", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The .mcpb file to write (default: <name>-<version>.mcpb in the current directory).",
)
@click.option(
    "--author",
    metavar="'NAME [<EMAIL>]'",
    help="The bundle's author (default: the first of the package's authors).",
)
@_no_traceback
def bundle_command(package_dir: Path, output: Path | None, author: str | None) -> None:
    """Pack the generated package in PACKAGE_DIR into an MCPB desktop bundle (.mcpb), with the
    dependencies installed next to openapi2mcp."""
    from .bundle import BundleError, build_bundle, write_bundle  # noqa: PLC0415 - this command only

    try:
        bundle = build_bundle(package_dir, author=author)
        out = output or Path(bundle.file_name)
        size = write_bundle(bundle, out)
    except BundleError as exc:
        _fail(str(exc))
    for warning in bundle.warnings:
        click.echo(f"warning: {warning}", err=True)
    runtime = bundle.manifest.get("compatibility", {})
    pythons = [f"Python {v}" for v in runtime.get("runtimes", {}).values()]
    where = ", ".join([*runtime.get("platforms", []), *pythons])
    click.echo(
        f"Bundled {bundle.name} {bundle.version} into {out} ({len(bundle.files) + 1} files, "
        f"{size:,} bytes{'; for ' + where if where else ''})",
        err=True,
    )


def _catalog_json(plan: ServerPlan) -> bytes:
    catalog = build_catalog(plan, Report())
    return json.dumps(catalog, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _hint_marks(annotations: Any) -> str:
    read_only = getattr(annotations, "read_only", False)
    if read_only:
        return "read-only"
    marks = ["destructive" if getattr(annotations, "destructive", True) else "additive"]
    if getattr(annotations, "idempotent", False):
        marks.append("idempotent")
    return ",".join(marks)


def _stdin(spec: str) -> bytes | None:
    return sys.stdin.buffer.read() if spec == "-" else None


def _run(step: Callable[[], T], *, verbose: bool = False) -> T:
    try:
        return step()
    except NothingToGenerate as exc:
        _print_report(exc.report, verbose=verbose)  # the warnings say why
        _fail(exc.diagnostic.message)
    except GenerationError as exc:
        _fail(exc.diagnostic.message)


def _print_report(report: Report, *, verbose: bool) -> None:
    for diagnostic in report.diagnostics:
        if diagnostic.level != "info" or verbose:
            click.echo(diagnostic.render(), err=True)


def _summary(result: Generation, out: Path) -> str:
    plan = result.plan
    counts = (
        f"{len(plan.tools)} tools, {len(plan.resources)} resources, "
        f"{len(plan.resource_templates)} resource templates, {len(plan.prompts)} prompts"
    )
    if plan.search_examples:
        counts += f"; its search learned {len(plan.search_examples)} example phrasings"
    warnings = len(result.report.warnings)
    tail = f"; {warnings} warning(s)" if warnings else ""
    return f"Generated {plan.distribution} ({counts}) in {out}{tail}"
