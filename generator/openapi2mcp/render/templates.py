"""Where the templates live: inside the wheel (``openapi2mcp/_templates``) or in a source checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def templates_root() -> Path:
    packaged = Path(__file__).parents[1] / "_templates"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[3] / "templates"
    if checkout.is_dir():
        return checkout
    raise RuntimeError("openapi2mcp templates not found; the installation is incomplete")
