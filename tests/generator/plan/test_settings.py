"""The settings step: defaults < x-mcp in the spec < overlays < config file < CLI flags.

Each setting is taken through the layers one at a time: the same document is planned with none,
then each higher layer added, and the plan must show the highest layer's value. The layers are
real files (the spec, an overlay, openapi2mcp.toml) and real command-line options, as a user gives
them.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from openapi2mcp.config import Config
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.plan.model import ServerPlan
from openapi2mcp.plan.settings import Flags, Settings, resolve

SPEC = dedent(
    """\
    openapi: 3.1.0
    info: {title: Shelf, version: "1.0"}
    servers: [{url: "https://shelf.example.com"}]
    paths:
      /items:
        get:
          operationId: listItems
          x-mcp: {title: From the spec, strictOutput: true, deepObjectArrays: brackets}
          parameters:
            - {name: filter, in: query, style: deepObject, schema: {type: object}}
          responses:
            "200":
              description: ok
              content: {application/json: {schema: {type: object, properties: {n: {type: integer}}}}}
        delete:
          operationId: clearItems
          x-mcp: {name: wipe_from_spec, confirm: true}
          responses: {"204": {description: gone}}
    """
)
OVERLAY = dedent(
    """\
    overlay: 1.0.0
    info: {title: settings, version: "1"}
    actions:
      - target: $.paths['/items'].get
        update:
          x-mcp: {title: From the overlay, strictOutput: false, deepObjectArrays: repeat}
      - target: $.paths['/items'].delete
        update:
          x-mcp: {name: wipe_from_overlay, confirm: when-supported}
    """
)
CONFIG = dedent(
    """\
    name = "cupboard"
    tool_mode = "dynamic"
    strict_output = ["listItems"]
    deep_object_arrays = "indexed"

    [rename]
    clearItems = "wipe_from_config"

    [annotations.listItems]
    title = "From the config"

    [elicitation.tools]
    clearItems = false

    [package]
    license = "MIT"
    """
)


def _plan(tmp_path: Path, *, overlay: bool, config: bool, **flags: Any) -> ServerPlan:
    (tmp_path / "openapi.yaml").write_text(SPEC)
    overlays: tuple[Path, ...] = ()
    if overlay:
        (tmp_path / "overlay.yaml").write_text(OVERLAY)
        overlays = (tmp_path / "overlay.yaml",)
    config_path = tmp_path / "settings.toml"
    config_path.write_text(CONFIG if config else "")
    options = GenerateOptions(config_path=config_path, overlays=overlays, **flags)
    plan, _ = plan_source(str(tmp_path / "openapi.yaml"), options)
    return plan


def _seen(plan: ServerPlan) -> dict[str, Any]:
    """The settings as a user sees them in the generated server."""
    tools = {tool.operation.operation_id: tool for tool in plan.operation_tools}
    listing, clearing = tools["listItems"], tools["clearItems"]
    return {
        "package": plan.distribution,
        "tool mode": plan.exposure.mode,
        "title": listing.annotations.title,
        "strict output": listing.name in plan.exposure.strict_output,
        "deepObject arrays": listing.settings.deep_object_arrays or plan.deep_object_arrays,
        "delete tool": clearing.name,
        "delete confirmation": (plan.interaction.for_tool(clearing.name) or {}).get("confirm"),
        "license": plan.metadata.license,
    }


def test_defaults(tmp_path: Path) -> None:
    (tmp_path / "openapi.yaml").write_text(SPEC.replace("x-mcp", "x-unused"))
    plan, _ = plan_source(
        str(tmp_path / "openapi.yaml"), GenerateOptions(config_path=_empty(tmp_path))
    )
    assert _seen(plan) == {
        "package": "shelf-mcp",
        "tool mode": "full",
        "title": "List items",
        "strict output": False,
        "deepObject arrays": None,
        "delete tool": "clear_items",
        "delete confirmation": None,
        "license": "",
    }


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.toml"
    path.write_text("")
    return path


def test_x_mcp_over_defaults(tmp_path: Path) -> None:
    assert _seen(_plan(tmp_path, overlay=False, config=False)) == {
        "package": "shelf-mcp",
        "tool mode": "full",
        "title": "From the spec",
        "strict output": True,
        "deepObject arrays": "brackets",
        "delete tool": "wipe_from_spec",
        "delete confirmation": "required",
        "license": "",
    }


def test_overlay_over_x_mcp(tmp_path: Path) -> None:
    assert _seen(_plan(tmp_path, overlay=True, config=False)) == {
        "package": "shelf-mcp",
        "tool mode": "full",
        "title": "From the overlay",
        "strict output": False,
        "deepObject arrays": "repeat",
        "delete tool": "wipe_from_overlay",
        "delete confirmation": "when-supported",
        "license": "",
    }


def test_config_over_overlay(tmp_path: Path) -> None:
    assert _seen(_plan(tmp_path, overlay=True, config=True)) == {
        "package": "cupboard-mcp",
        "tool mode": "dynamic",
        "title": "From the config",
        "strict output": True,
        "deepObject arrays": "indexed",
        "delete tool": "wipe_from_config",
        "delete confirmation": "off",
        "license": "MIT",
    }


def test_cli_over_config(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path, overlay=True, config=True, name="pantry", tool_mode="full", license="Apache-2.0"
    )
    seen = _seen(plan)
    assert (seen["package"], seen["tool mode"], seen["license"]) == (
        "pantry-mcp",
        "full",
        "Apache-2.0",
    )


@pytest.mark.parametrize(
    ("flags", "config", "expected"),
    [
        (Flags(), Config(), ("auto", ())),
        (Flags(), Config(tool_mode="dynamic"), ("dynamic", ())),
        (Flags(toolsets=("a",)), Config(tool_mode="dynamic"), ("toolsets", ("a",))),
        (Flags(tool_mode="full", toolsets=("a",)), Config(toolsets=("b",)), ("full", ("a",))),
        (Flags(), Config(toolsets=("b",)), ("auto", ("b",))),
    ],
)
def test_tool_mode_is_decided_once(
    flags: Flags, config: Config, expected: tuple[str, tuple[str, ...]]
) -> None:
    settings = resolve(flags, config)
    assert (settings.tool_mode, settings.toolsets) == expected


def test_config_defaults_are_the_defaults() -> None:
    assert resolve(Flags(), Config()) == Settings()
