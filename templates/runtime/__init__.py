"""The MCP runtime shipped inside every generated server as ``<pkg>._runtime``.

It is plain, typed Python (stdlib + httpx + pydantic; jsonschema-rs, loaded on the first validation),
copied verbatim by the generator (the whole tree), so modules import each other relatively and no
package initialiser imports anything: importing a low layer such as ``protocol.jsonrpc`` must not
drag in httpx or the transports. The subpackages, lowest first: ``catalog`` (the API as data),
``upstream`` (the API's HTTP client and the resilience around it), ``protocol`` (JSON-RPC, dispatch,
lists, calls, results), ``ask`` (questions for the user), ``auth`` (inbound tokens) and
``transports`` (stdio; Streamable HTTP, loaded only when HTTP is served); then ``server`` and
``cli``. ``hooks`` is the API of the package's own ``custom.py``; ``typed_client`` the façade of the
generated ``operations.py``; ``jsonschema`` the validator (the generator runs it too: ``shipped.py`` loads
this tree as a package); ``environment`` every environment variable read under the server's prefix;
``peruser`` per-user upstream credentials; ``errors`` every public exception, in one tree its docstring
draws (it imports no runtime module, so every layer may use it).
"""
