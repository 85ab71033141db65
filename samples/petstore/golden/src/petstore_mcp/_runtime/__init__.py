"""The MCP runtime shipped inside every generated server as ``<pkg>._runtime``.

It is plain, typed Python (stdlib + httpx + pydantic), copied verbatim by the generator, so modules
import each other relatively and this package initialiser imports nothing: importing a low layer such
as ``jsonrpc`` must not drag in httpx or the transports. The layers, lowest first, are ``jsonrpc``,
``catalog``, ``jsonschema`` and ``uritemplate``; ``upstream`` and ``results``; the protocol core
(``protocol`` with ``shaping``, ``pagination``, ``calls``, ``prompts``, ``completion``); then the
transports (``stdio``), ``server`` and ``cli``.
"""
