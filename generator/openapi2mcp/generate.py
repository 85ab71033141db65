"""The pipeline in one call: load → IR → plan → render → format, all in memory.

``generate()`` returns the formatted file tree, the plan and the report; it never writes anything.
Writing (or checking against disk) is the caller's business (``emit.write_tree`` / ``emit.check_tree``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .classify import ClassifyOptions
from .diagnostics import Report
from .emit import format_tree
from .load import LoadedDocument, load_source
from .parse import parse_api
from .plan import ServerPlan
from .planning import PlanOptions, build_plan
from .render import render_package


@dataclass(frozen=True, slots=True)
class GenerateOptions:
    name: str | None = None
    max_name_length: int = 64
    include_deprecated: bool = False
    # the package version in PEP 440 normal form (see `planning.pep440_version`); None = info.version
    version: str | None = None
    # fetch `$ref`s to http(s) URLs (off by default: generation never touches the network)
    allow_remote_refs: bool = False


@dataclass(frozen=True, slots=True)
class Generation:
    files: dict[str, str]
    plan: ServerPlan
    report: Report


def plan_from_document(doc: LoadedDocument, options: GenerateOptions, report: Report) -> ServerPlan:
    api = parse_api(doc, report)
    classify = ClassifyOptions(
        max_name_length=options.max_name_length, include_deprecated=options.include_deprecated
    )
    return build_plan(
        api, PlanOptions(name=options.name, classify=classify, version=options.version), report
    )


def plan_source(
    source: str, options: GenerateOptions, *, stdin: bytes | None = None
) -> tuple[ServerPlan, Report]:
    report = Report()
    doc = load_source(source, stdin=stdin, allow_remote_refs=options.allow_remote_refs)
    return plan_from_document(doc, options, report), report


def generate(source: str, options: GenerateOptions, *, stdin: bytes | None = None) -> Generation:
    plan, report = plan_source(source, options, stdin=stdin)
    files = format_tree(render_package(plan, report))
    return Generation(files, plan, report)
