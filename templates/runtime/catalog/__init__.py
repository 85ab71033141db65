"""The catalog: everything a generated server knows about its API, as plain JSON data, and the pool of
values its files write once.
"""
