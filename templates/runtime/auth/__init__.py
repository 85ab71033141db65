"""Inbound authentication for the HTTP transport: bearer tokens, OAuth 2.1 access tokens as JWTs
verified against JWKS (RSA and EC keys).
"""
