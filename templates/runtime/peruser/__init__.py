"""Per-user upstream credentials: the encrypted store (``store``, sealed by ``sealing``), and (later)
the pages and flows that fill it. Like every package initialiser of the runtime, this one imports
nothing.
"""
