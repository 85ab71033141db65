"""``openapi2mcp diff``: the MCP surface of a package (``mcp-surface.json``), compared between two
versions and judged breaking or compatible, with its reports.
"""
