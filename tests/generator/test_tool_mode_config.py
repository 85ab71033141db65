"""Tool mode, toolsets and the auto threshold from openapi2mcp.toml: defaults < config file < CLI flags."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.config import CONFIG_NAME, Config, parse_config
from openapi2mcp.diagnostics import GenerationError
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.plan.settings import AUTO_THRESHOLD

# five operations, two tags: five tools
SPEC = """\
openapi: 3.0.3
info: {title: Shop API, version: "1.0"}
servers: [{url: "https://shop.example.com"}]
tags: [{name: pets}, {name: stores}]
paths:
  /pets:
    get: {operationId: listPets, tags: [pets], responses: {"200": {description: ok}}}
    post: {operationId: createPet, tags: [pets], responses: {"201": {description: created}}}
  /pets/{petId}:
    get:
      operationId: getPet
      tags: [pets]
      parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]
      responses: {"200": {description: ok}}
  /stores:
    get: {operationId: listStores, tags: [stores], responses: {"200": {description: ok}}}
    post: {operationId: createStore, tags: [stores], responses: {"201": {description: created}}}
"""


def shop(tmp_path: Path, config: str | None = None) -> Path:
    spec = tmp_path / "shop.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    if config is not None:
        (tmp_path / CONFIG_NAME).write_text(config, encoding="utf-8")
    return spec


def exposure(
    tmp_path: Path, config: str | None, **options: Any
) -> tuple[str, tuple[str, ...], int]:
    plan, _ = plan_source(str(shop(tmp_path, config)), GenerateOptions(**options))
    return plan.exposure.mode, plan.exposure.default_toolsets, plan.exposure.auto_threshold


def test_the_defaults_are_the_command_line_defaults() -> None:
    config = Config()
    assert (config.tool_mode, config.toolsets, config.auto_threshold) == (
        "auto",
        (),
        AUTO_THRESHOLD,
    )


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"tool_mode": "fast"},
            "tool_mode: Input should be 'auto', 'full', 'dynamic', 'toolsets' or 'code'",
        ),
        ({"tool_modes": "full"}, "unknown key 'tool_modes'; did you mean 'tool_mode'?"),
        ({"toolset": ["pets"]}, "unknown key 'toolset'; did you mean 'toolsets'?"),
        ({"toolsets": "pets"}, "toolsets: Input should be a valid tuple"),
        ({"auto_threshold": 0}, "auto_threshold: Input should be greater than or equal to 1"),
        ({"auto_threshold": "many"}, "auto_threshold: Input should be a valid integer"),
    ],
)
def test_invalid_settings_name_the_key(data: dict[str, object], expected: str) -> None:
    with pytest.raises(GenerationError) as info:
        parse_config(data)
    assert expected in info.value.diagnostic.message


@pytest.mark.parametrize(
    ("config", "options", "expected"),
    [
        (None, {}, ("full", (), 60)),
        ('tool_mode = "dynamic"', {}, ("dynamic", (), 60)),
        ('tool_mode = "dynamic"', {"tool_mode": "full"}, ("full", (), 60)),
        ('toolsets = ["pets"]', {}, ("toolsets", ("pets",), 60)),
        ('tool_mode = "full"\ntoolsets = ["pets"]', {}, ("full", ("pets",), 60)),
        (
            'tool_mode = "toolsets"\ntoolsets = ["pets"]',
            {"toolsets": ("stores",)},
            ("toolsets", ("stores",), 60),
        ),
        # --toolsets alone selects toolsets mode, whatever mode the file names
        ('tool_mode = "dynamic"', {"toolsets": ("stores",)}, ("toolsets", ("stores",), 60)),
        ('toolsets = ["pets"]', {"tool_mode": "dynamic"}, ("dynamic", ("pets",), 60)),
        ("auto_threshold = 4", {}, ("dynamic", (), 4)),
        ("auto_threshold = 5", {}, ("full", (), 5)),
        ('auto_threshold = 4\ntool_mode = "full"', {}, ("full", (), 4)),
        ("auto_threshold = 4", {"tool_mode": "full"}, ("full", (), 4)),
        ('auto_threshold = 4\ntoolsets = ["pets"]', {}, ("toolsets", ("pets",), 4)),
    ],
)
def test_precedence(
    tmp_path: Path,
    config: str | None,
    options: dict[str, Any],
    expected: tuple[str, tuple[str, ...], int],
) -> None:
    assert exposure(tmp_path, config, **options) == expected


@pytest.mark.parametrize(
    ("config", "code"),
    [
        ('tool_mode = "toolsets"', "toolsets-missing"),
        ('toolsets = ["birds"]', "toolset-unknown"),
    ],
)
def test_unusable_settings_from_the_file_fail_like_the_flags(
    tmp_path: Path, config: str, code: str
) -> None:
    with pytest.raises(GenerationError) as info:
        exposure(tmp_path, config)
    assert info.value.diagnostic.code == code


def test_the_generated_catalog_carries_the_file_settings(tmp_path: Path) -> None:
    spec = shop(tmp_path, 'auto_threshold = 3\ntoolsets = ["stores"]\ntool_mode = "auto"')
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["generate", str(spec), "-o", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    index = json.loads((out / "src" / "shop_mcp" / "catalog.index.json").read_text("utf-8"))
    assert index["toolMode"] == {"mode": "toolsets", "toolsets": ["stores"], "autoThreshold": 3}

    flags = ["--tool-mode", "full", "--force", "--no-progress"]
    result = CliRunner().invoke(main, ["generate", str(spec), "-o", str(out), *flags])
    assert result.exit_code == 0, result.output
    index = json.loads((out / "src" / "shop_mcp" / "catalog.index.json").read_text("utf-8"))
    # the flag wins; the file's toolsets and threshold still serve a run-time choice of mode
    assert index["toolMode"] == {"mode": "full", "toolsets": ["stores"], "autoThreshold": 3}
