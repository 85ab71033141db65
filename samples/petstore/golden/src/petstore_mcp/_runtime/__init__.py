"""The MCP runtime shipped inside every generated server as ``<pkg>._runtime``.

It is plain, typed Python (stdlib + httpx + pydantic; jsonschema-rs, loaded on the first validation),
copied verbatim by the generator, so modules import each other relatively and this package initialiser
imports nothing: importing a low layer such as ``jsonrpc`` must not drag in httpx or the transports.
The layers, lowest first, are ``jsonrpc``, ``catalog``, ``jsonschema`` and ``uritemplate``;
``upstream`` and ``results``; the protocol core (``protocol`` with ``shaping``, ``pagination``,
``calls``, ``prompts``, ``completion``); inbound ``auth``; then the transports (``stdio``; ``http``
with its ``http_*`` helpers, loaded only when HTTP is served), ``server`` and ``cli``. ``client`` is
the typed-client façade for ``operations.py``.
"""
