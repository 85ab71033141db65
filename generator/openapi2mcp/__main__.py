"""``python -m openapi2mcp``: the same as the ``openapi2mcp`` command."""

from .cli import main

main()
