"""Asking the user, not the model: form and URL elicitation, confirmations, and the requests this
server sends to its MCP client.
"""
