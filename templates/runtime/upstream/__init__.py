"""The HTTP client side of a generated server: from tool arguments to one upstream request (bodies,
encodings, credentials, OAuth), its HTTP/1.1 transport, and the resilience around it.
"""
