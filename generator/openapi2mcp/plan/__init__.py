"""Planning: every decision about the MCP surface (tools, resources, prompts, names, hints, questions,
tool modes), made from the IR and the settings, as a typed ``ServerPlan``.
"""
