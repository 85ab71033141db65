"""The transports: stdio (newline-delimited JSON-RPC) and Streamable HTTP (an ASGI app with its
headers, origins, sessions and replies, loaded only when HTTP is served).
"""
