"""The pipeline in one call: load → IR → plan → render → format, all in memory.

``generate()`` returns the formatted file tree, the plan and the report; it never writes anything.
Writing (or checking against disk) is the caller's business (``emit.write_tree`` / ``emit.check_tree``).
An optional ``progress`` callback hears of each stage as it starts (``progress.Stage``), so that the
command line can show how a very large spec is getting on.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .classify import ClassifyOptions
from .config import Config, find_config, load_config
from .diagnostics import Diagnostic, GenerationError, Report
from .emit import format_tree
from .load import LoadedDocument, load_source, parse_bytes
from .overlay import apply_overlay, parse_overlay
from .parse import parse_api
from .plan import OutputSchemas, ServerPlan
from .planning import PlanOptions, build_plan
from .progress import NO_PROGRESS, ProgressSink
from .render import PublishOptions, render_package


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


@dataclass(frozen=True, slots=True)
class Generation:
    files: dict[str, str]
    plan: ServerPlan
    report: Report


def plan_from_document(doc: LoadedDocument, options: GenerateOptions, report: Report) -> ServerPlan:
    """Precedence: defaults < x-mcp in the spec < overlays < config file < CLI flags."""
    spec_path = doc.base_dir / doc.name if doc.base_dir is not None else None
    config = load_config(find_config(spec_path, options.config_path))
    if options.overlays:
        doc = dataclasses.replace(doc, data=_overlaid(doc.data, options.overlays, report))
    api = parse_api(doc, report)
    classify = ClassifyOptions(
        max_name_length=options.max_name_length or config.max_name_length,
        include_deprecated=(
            config.include_deprecated
            if options.include_deprecated is None
            else options.include_deprecated
        ),
        description_limit=(
            config.description_limit
            if options.description_limit is None
            else options.description_limit
        ),
        config=config,
    )
    tool_mode, toolsets = _tool_mode(options, config)
    plan_options = PlanOptions(
        name=options.name,
        classify=classify,
        version=options.version,
        tool_mode=tool_mode,
        toolsets=toolsets,
        output_schemas=options.output_schemas,
    )
    return _with_auto_threshold(build_plan(api, plan_options, report), tool_mode, config)


def _tool_mode(options: GenerateOptions, config: Config) -> tuple[str, tuple[str, ...]]:
    """The tool mode and toolsets: defaults < config file < CLI flags.

    CLI flags outrank the whole config file: ``--toolsets`` alone selects toolsets mode whatever
    ``tool_mode`` the file names, as it does without a file.
    """
    toolsets = options.toolsets or config.toolsets
    if options.tool_mode is not None:
        return options.tool_mode, toolsets
    if options.toolsets:
        return "toolsets", toolsets
    return config.tool_mode, toolsets


def _with_auto_threshold(plan: ServerPlan, tool_mode: str, config: Config) -> ServerPlan:
    """The plan with the config file's ``auto_threshold`` (planning decides with the default)."""
    exposure = plan.exposure
    if config.auto_threshold == exposure.auto_threshold:
        return plan
    mode = exposure.mode
    if tool_mode == "auto" and mode != "toolsets":
        mode = "dynamic" if len(plan.tools) > config.auto_threshold else "full"
    exposure = dataclasses.replace(exposure, mode=mode, auto_threshold=config.auto_threshold)
    return dataclasses.replace(plan, exposure=exposure)


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
    plan, report = plan_source(source, options, stdin=stdin, progress=progress)
    operations = len(plan.callable_tools)
    progress("render", f"models, typed client and catalog for {operations} operations")
    files = render_package(plan, report, options.publish)
    progress("format", f"formatting {sum(1 for p in files if p.endswith('.py'))} Python files")
    files = format_tree(files)
    return Generation(files, plan, report)
