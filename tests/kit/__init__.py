"""The shared test kit: what many test areas need and would otherwise each write again.

- ``meta``: the 2026-07-28 request ``_meta`` envelope (protocol version, client capabilities and info).
- ``upstream``: one recording fake upstream, a real HTTP server on 127.0.0.1 that keeps each request
  as it arrived and answers what the test says.
- ``stdio``: one stdio peer, a server subprocess driven with raw JSON-RPC lines.
"""
