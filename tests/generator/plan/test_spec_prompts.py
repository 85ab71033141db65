"""Prompts the API owner writes in the spec: ``x-mcp: {prompts: [...]}`` on the document."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.render.catalog import build_catalog

SPEC = dedent(
    """\
    openapi: 3.1.0
    info: {title: Library, version: "1.0"}
    servers: [{url: "https://library.example.com"}]
    x-mcp:
      prompts:
        - name: find_a_book
          description: Find a book by its author
          template: "Find books by {author} with list_books, then summarise them."
          arguments: [{name: author, required: true, values: [Austen, Tolstoy]}]
        - name: broken
          template: "Uses {missing}"
        - name: shared
          template: "The spec's version"
    paths:
      /books:
        get:
          operationId: listBooks
          responses: {"200": {description: ok}}
    """
)


def plan(tmp_path: Path, config: str = "") -> tuple[dict[str, object], list[tuple[str, str]]]:
    source = tmp_path / "openapi.yaml"
    source.write_text(SPEC, encoding="utf-8")
    if config:
        (tmp_path / "openapi2mcp.toml").write_text(config, encoding="utf-8")
    server, report = plan_source(str(source), GenerateOptions())
    notes = [(d.pointer, d.message) for d in report.diagnostics if "x-mcp-prompt" in d.code]
    return build_catalog(server, report), notes


def test_spec_prompts_are_served_like_config_prompts(tmp_path: Path) -> None:
    catalog, notes = plan(tmp_path)
    prompts = {p["name"]: p for p in catalog["prompts"]}  # type: ignore[union-attr]
    assert prompts["find_a_book"]["arguments"] == [{"name": "author", "required": True}]
    assert catalog["completions"]["prompts"]["find_a_book"] == {"author": ["Austen", "Tolstoy"]}  # type: ignore[index]
    assert "broken" not in prompts and "shared" in prompts
    (pointer, message), *_ = notes
    assert pointer == "#/x-mcp/prompts/1"
    assert "missing" in message and message.endswith("prompt left out")


def test_the_config_file_wins_over_a_spec_prompt_of_the_same_name(tmp_path: Path) -> None:
    config = '[[prompts]]\nname = "shared"\ntemplate = "The config\'s version"\n'
    catalog, notes = plan(tmp_path, config)
    shared = [p for p in catalog["prompts"] if p["name"] == "shared"]  # type: ignore[union-attr]
    assert len(shared) == 1
    messages = catalog["promptMessages"]["shared"]  # type: ignore[index]
    assert messages[0]["parts"] == [{"text": "The config's version"}]
    assert (
        "#/x-mcp/prompts/2",
        "prompt 'shared' is also defined by the config file, which wins",
    ) in notes
