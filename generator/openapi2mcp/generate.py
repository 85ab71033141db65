"""The pipeline in one call: load → IR → plan → render → format, all in memory.

``generate()`` returns the formatted file tree, the plan and the report; it never writes anything.
Writing (or checking against disk) is the caller's business (``emit.write_tree`` / ``emit.check_tree``).
An optional ``progress`` callback hears of each stage as it starts (``progress.Stage``), so that the
command line can show how a very large spec is getting on.

Nothing unexpected ends in a traceback. An exception while planning or rendering one operation (found
in the failing frames: the operation, tool or resource being worked on) skips that operation with an
``op-skipped`` warning, and the stages run again without it (at most :data:`MAX_ISOLATED` times); any
other becomes :class:`InternalError`, which names where it happened as a JSON pointer. A document with
operations of which none becomes a tool is refused (:class:`NothingToGenerate`): an empty server is
never a success.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from .config import find_config, load_config
from .diagnostics import Diagnostic, GenerationError, Report
from .eval import QueryFileError, operation_names, read_queries
from .ir.model import Api, Operation
from .ir.parse import parse_api
from .load.overlay import apply_overlay, parse_overlay
from .load.reading import LoadedDocument, load_source, parse_bytes
from .load.refs import Location
from .plan.build import build_plan, name_choice
from .plan.model import Decision, Resource, ResourceTemplate, ServerPlan, Tool
from .plan.settings import Flags, OutputSchemas, resolve
from .progress import NO_PROGRESS, ProgressSink
from .render.emit import format_tree
from .render.package import PublishOptions, render_package

T = TypeVar("T")
# operations skipped for an internal error before the run gives up (a bug rarely hits only a few)
MAX_ISOLATED = 8
_LONGEST_DETAIL = 240


class InternalError(Exception):
    """An unexpected exception inside the generator, where it happened (a JSON pointer) and what."""

    def __init__(self, pointer: str, cause: BaseException) -> None:
        self.pointer = pointer
        self.cause = cause
        super().__init__(f"internal error at {pointer}: {describe(cause)}; please report")


class NothingToGenerate(GenerationError):
    """The document has operations, but none of them becomes a tool; ``report`` says why."""

    def __init__(self, diagnostic: Diagnostic, report: Report) -> None:
        super().__init__(diagnostic)
        self.report = report


def describe(exc: BaseException) -> str:
    """``KeyError: 'x'``, on one line and bounded."""
    detail = " ".join(str(exc).split())
    text = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return text if len(text) <= _LONGEST_DETAIL else text[: _LONGEST_DETAIL - 1] + "…"


def internal_error(exc: BaseException) -> InternalError:
    """``exc`` as an :class:`InternalError` at the innermost place its frames were working on."""
    return InternalError(_where(exc.__traceback__)[0] or "#", exc)


def _where(trace: TracebackType | None) -> tuple[str | None, str | None]:
    """The innermost JSON pointer the failing frames were at, and the innermost operation's.

    The stages do not know about this guard: what they were working on is read from the local
    variables of the failing frames (an ``Operation``, a tool or resource of one, a ``Location``).
    """
    frames = []
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    place: str | None = None
    for frame in reversed(frames):
        for value in frame.f_locals.values():
            worked_on = (
                value.operation
                if isinstance(value, Tool | Resource | ResourceTemplate | Decision)
                else value
            )
            if isinstance(worked_on, Operation):
                return place or worked_on.pointer, worked_on.pointer
            if place is None and isinstance(worked_on, Location):
                place = worked_on.pointer
    return place, None


def _isolating(api: Api, report: Report, step: Callable[[Api, Report], T]) -> T:
    """``step(api, report)``; an operation it fails on is skipped (reported) and ``step`` re-run."""
    skipped: list[str] = []
    while True:
        attempt = Report(list(report.diagnostics))
        kept = tuple(op for op in api.operations if op.pointer not in skipped)
        try:
            result = step(dataclasses.replace(api, operations=kept), attempt)
        except (GenerationError, InternalError):
            raise
        except Exception as exc:
            operation = _where(exc.__traceback__)[1]
            if operation is None or operation in skipped or len(skipped) >= MAX_ISOLATED:
                raise internal_error(exc) from exc
            skipped.append(operation)
            report.warn(
                "op-skipped",
                operation,
                f"operation skipped: internal error ({describe(exc)}); please report",
            )
            continue
        report.diagnostics[:] = attempt.diagnostics
        return result


def _guarded(step: Callable[[], T]) -> T:
    try:
        return step()
    except (GenerationError, InternalError):
        raise
    except Exception as exc:
        raise internal_error(exc) from exc


@dataclass(frozen=True, slots=True)
class GenerateOptions:
    """CLI-level options; ``None`` means "not given": the config file or the default decides."""

    name: str | None = None
    max_name_length: int | None = None
    include_deprecated: bool | None = None
    # --config; without it, openapi2mcp.toml next to the spec is used when present
    config_path: Path | None = None
    # --overlay, applied in order to the document before parsing
    overlays: tuple[Path, ...] = ()
    # the package version in PEP 440 normal form (see `planning.pep440_version`); None = info.version
    version: str | None = None
    # fetch `$ref`s to http(s) URLs (off by default: generation never touches the network)
    allow_remote_refs: bool = False
    # registry name and CI workflow: they change publishing files only
    publish: PublishOptions = dataclasses.field(default_factory=PublishOptions)
    # auto | full | dynamic | toolsets (planning.TOOL_MODES); None = the config file's (or auto)
    tool_mode: str | None = None
    # toolsets (tag names) exposed in toolsets mode; () = the config file's
    toolsets: tuple[str, ...] = ()
    output_schemas: OutputSchemas = "compact"
    # longest tool or schema description; None = the config file's description_limit
    description_limit: int | None = None
    # the package's SPDX license and authors; None / () = the config file's [package]
    license: str | None = None
    authors: tuple[str, ...] = ()
    # --search-examples: a query file the search learns users' words from; None = the config's
    search_examples: Path | None = None

    def flags(self) -> Flags:
        """The settings this command line gives (``plan.settings.resolve`` lays them over the rest)."""
        return Flags(
            name=self.name,
            max_name_length=self.max_name_length,
            include_deprecated=self.include_deprecated,
            version=self.version,
            tool_mode=self.tool_mode,
            toolsets=self.toolsets,
            output_schemas=self.output_schemas,
            description_limit=self.description_limit,
            license=self.license,
            authors=self.authors,
        )


@dataclass(frozen=True, slots=True)
class Generation:
    # text, or bytes for a data file written compressed (render.COMPRESS_OVER)
    files: dict[str, str | bytes]
    plan: ServerPlan
    report: Report


def plan_from_document(doc: LoadedDocument, options: GenerateOptions, report: Report) -> ServerPlan:
    """Precedence: defaults < x-mcp in the spec < overlays < config file < CLI flags."""
    api, planner = _planner(doc, options, report)
    return _isolating(api, report, planner)


def _planner(
    doc: LoadedDocument, options: GenerateOptions, report: Report
) -> tuple[Api, Callable[[Api, Report], ServerPlan]]:
    """The document's IR, and how to plan any part of it."""
    spec_path = doc.base_dir / doc.name if doc.base_dir is not None else None
    config_path = find_config(spec_path, options.config_path)
    config = load_config(config_path)
    if options.overlays:
        doc = dataclasses.replace(doc, data=_overlaid(doc.data, options.overlays, report))
    api = _guarded(lambda: parse_api(doc, report))
    settings = resolve(options.flags(), config)

    examples = options.search_examples
    if examples is None and config.search_examples is not None and config_path is not None:
        examples = config_path.parent / config.search_examples

    def planner(api: Api, report: Report) -> ServerPlan:
        plan = build_plan(api, settings, report)
        return plan if examples is None else _with_examples(plan, examples)

    return api, planner


def _with_examples(plan: ServerPlan, path: Path) -> ServerPlan:
    """``plan`` with the search examples of the query file at ``path``; a file that cannot be
    used stops the generation, naming the line."""
    try:
        queries = read_queries(path, operation_names(plan))
    except QueryFileError as exc:
        raise GenerationError(
            Diagnostic("search-examples-invalid", "error", "", f"search examples: {exc}")
        ) from None
    examples = tuple((query.query, query.expected) for query in queries)
    return dataclasses.replace(plan, search_examples=examples)


def name_origin(source: str, options: GenerateOptions, plan: ServerPlan) -> str:
    """Where the package's name came from (``--name``, the config file, the title, the host)."""
    spec_path = Path(source).resolve() if source != "-" else None
    config = load_config(find_config(spec_path, options.config_path))
    return name_choice(plan.api, resolve(options.flags(), config)).origin


def nothing_generated(plan: ServerPlan, report: Report) -> str | None:
    """Why a document with operations yields no tool at all; None when it yields one (or has no
    operations at all, which parsing has reported)."""
    if plan.callable_tools:
        return None
    skipped = len({d.pointer for d in report.diagnostics if d.code == "op-skipped"})
    deprecated = sum(1 for d in plan.decisions if d.note == "deprecated")
    excluded = sum(1 for d in plan.decisions if d.note.startswith("excluded by"))
    if not skipped and not plan.decisions:
        return None
    reasons = []
    if skipped:
        reasons.append(f"{_count(skipped, 'operation')} skipped (see the warnings above)")
    if deprecated:
        reasons.append(f"{_count(deprecated, 'deprecated operation')} (--include-deprecated)")
    if excluded:
        reasons.append(f"{_count(excluded, 'operation')} excluded by x-mcp or the config")
    return "no tool can be generated: " + "; ".join(reasons)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _overlaid(data: dict[str, Any], overlays: tuple[Path, ...], report: Report) -> dict[str, Any]:
    for path in overlays:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise GenerationError(
                Diagnostic(
                    "overlay-unreadable",
                    "error",
                    "",
                    f"cannot read overlay {path.name}: {exc.strerror}",
                )
            ) from exc
        errors_before = len(report.errors)
        overlay = parse_overlay(parse_bytes(raw, path.name), report, name=path.name)
        if overlay is not None:
            data = apply_overlay(data, overlay, report)
        if len(report.errors) > errors_before:
            raise GenerationError(report.errors[errors_before])
    if not isinstance(data, dict) or ("paths" not in data and "webhooks" not in data):
        raise GenerationError(
            Diagnostic(
                "overlay-broke-spec", "error", "#", "after the overlays the document has no paths"
            )
        )
    return data


def plan_source(
    source: str,
    options: GenerateOptions,
    *,
    stdin: bytes | None = None,
    progress: ProgressSink = NO_PROGRESS,
) -> tuple[ServerPlan, Report]:
    report = Report()
    progress("load", "reading the spec")
    doc = load_source(source, stdin=stdin, allow_remote_refs=options.allow_remote_refs)
    progress("plan", "parsing and classifying the operations")
    return plan_from_document(doc, options, report), report


def generate(
    source: str,
    options: GenerateOptions,
    *,
    stdin: bytes | None = None,
    progress: ProgressSink = NO_PROGRESS,
) -> Generation:
    """The package for ``source``; :class:`NothingToGenerate` when no operation becomes a tool."""
    report = Report()
    progress("load", "reading the spec")
    doc = load_source(source, stdin=stdin, allow_remote_refs=options.allow_remote_refs)
    progress("plan", "parsing and classifying the operations")
    api, planner = _planner(doc, options, report)

    def generation(api: Api, report: Report) -> Generation:
        plan = planner(api, report)
        problem = nothing_generated(plan, report)
        if problem is not None:
            raise NothingToGenerate(Diagnostic("no-tools", "error", "#", problem), report)
        operations = len(plan.callable_tools)
        progress("render", f"models, typed client and catalog for {operations} operations")
        files = render_package(plan, report, options.publish)
        progress("format", f"formatting {sum(1 for p in files if p.endswith('.py'))} Python files")
        return Generation(format_tree(files), plan, report)

    result = _isolating(api, report, generation)
    return dataclasses.replace(result, report=report)
