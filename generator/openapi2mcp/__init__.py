"""openapi2mcp: generate standalone, typed Python MCP servers from OpenAPI documents."""

__version__ = "0.1.0"
