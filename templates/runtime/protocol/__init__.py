"""The MCP protocol core, independent of transport: JSON-RPC, era detection and method dispatch,
the list methods and their pages, tool calls and resource reads, results, dynamic-mode search.
"""
