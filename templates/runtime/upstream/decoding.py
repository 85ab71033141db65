"""Content codings of upstream responses: what the server advertises, and bounded decoding.

The upstream client reads bodies as they came over the wire and decodes them here, so that
``Accept-Encoding`` names exactly the codings this process can undo (``gzip`` and ``deflate`` from the
standard library, ``br`` when the ``brotli`` package is installed, ``zstd`` with ``zstandard``), a
coding the server applied anyway is reported instead of being passed on as garbled text, and a small
compressed body can never expand past the response size limit (each decoder is driven with an output
bound, so a decompression bomb costs at most that much memory). Stdlib only, the two compression
packages imported lazily when present.
"""

from __future__ import annotations

import importlib
import io
import zlib
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from ..errors import TooLarge

if TYPE_CHECKING:
    import httpx

__all__ = ["Decoded", "TooLarge", "accept_encoding", "decode_body", "decode_start", "read_raw"]

# gzip, zlib or raw deflate, told apart by their headers (the +32 of wbits: gzip or zlib)
_GZIP_WBITS = zlib.MAX_WBITS | 32
_STEP = 64 * 1024


class Decoded:
    """A decoded body, and the codings still applied to it (``""`` when none is left).

    ``undecoded`` names what could not be undone, e.g. ``"br"`` when no brotli decoder is installed
    or ``"gzip"`` when the data is not valid gzip; ``body`` is then the bytes as they were before it.
    """

    __slots__ = ("body", "undecoded")

    def __init__(self, body: bytes, undecoded: str = "") -> None:
        self.body = body
        self.undecoded = undecoded


def _optional(module: str) -> Any | None:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


@cache
def _decoders() -> dict[str, Callable[[bytes, int], bytes]]:
    decoders: dict[str, Callable[[bytes, int], bytes]] = {
        "gzip": _inflate,
        "x-gzip": _inflate,
        "deflate": _deflate,
    }
    brotli = _optional("brotli")
    # brotli before 1.2 cannot bound its output: a bomb would be unbounded, so it is not offered
    if brotli is not None and hasattr(brotli.Decompressor(), "can_accept_more_data"):
        decoders["br"] = lambda data, limit: _unbrotli(brotli, data, limit)
    zstandard = _optional("zstandard")
    if zstandard is not None:
        decoders["zstd"] = lambda data, limit: _unzstd(zstandard, data, limit)
    return decoders


def accept_encoding() -> str:
    """The ``Accept-Encoding`` header value: the codings ``decode_body`` can undo."""
    return ", ".join(name for name in _decoders() if name != "x-gzip")


def decode_body(body: bytes, content_encoding: str, limit: int) -> Decoded:
    """``body`` with the codings of ``content_encoding`` undone, last applied first.

    Raises ``TooLarge`` when the result would be larger than ``limit`` bytes.
    """
    codings = [c.strip().lower() for c in content_encoding.split(",")]
    codings = [c for c in codings if c and c != "identity"]
    decoders = _decoders()
    while codings:
        decoder = decoders.get(codings[-1])
        if decoder is None:
            return Decoded(body, ", ".join(codings))
        try:
            body = decoder(body, limit)
        except TooLarge:
            raise
        except Exception:  # corrupt data: whatever the decoder raises, the bytes stay as they came
            return Decoded(body, ", ".join(codings))
        codings.pop()
    return Decoded(body)


def decode_start(body: bytes, content_encoding: str, limit: int) -> Decoded:
    """The first ``limit`` bytes ``body`` decodes to, from a body cut short or one that decodes to
    more than ``limit``: what its decoder gives up to there. One coding at most (gzip, deflate, br
    or zstd); otherwise, or when the start does not decode, the bytes as they came."""
    codings = [c.strip().lower() for c in content_encoding.split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if not codings:
        return Decoded(body[:limit])
    coding = codings[0] if len(codings) == 1 else ""
    try:
        if coding in ("gzip", "x-gzip", "deflate"):
            wbits = _GZIP_WBITS if coding != "deflate" or body[:1] == b"\x78" else -zlib.MAX_WBITS
            return Decoded(zlib.decompressobj(wbits).decompress(body, limit))
        if coding in _decoders() and coding in ("br", "zstd"):
            return Decoded(_start_of(coding, body, limit))
    except Exception:  # noqa: S110 - corrupt data: the bytes stay as they came
        pass
    return Decoded(body, ", ".join(codings))


def _start_of(coding: str, body: bytes, limit: int) -> bytes:
    """Up to ``limit`` bytes of ``body`` undone from br or zstd, however it ends."""
    if coding == "br":
        decompressor = _optional("brotli").Decompressor()  # type: ignore[union-attr]
        return bytes(decompressor.process(body, output_buffer_limit=limit))[:limit]
    module = _optional("zstandard")
    assert module is not None
    reader = module.ZstdDecompressor().stream_reader(io.BytesIO(body), read_across_frames=True)
    out = bytearray()
    try:
        while len(out) < limit and (chunk := reader.read(min(_STEP, limit - len(out)))):
            out += chunk
    except module.ZstdError:
        pass  # cut short: what came before the cut
    return bytes(out)


def _drain(decompressor: Any, data: bytes, limit: int) -> bytes:
    out = bytearray()
    pending = data
    while True:
        out += decompressor.decompress(pending, _STEP)
        if len(out) > limit:
            raise TooLarge
        pending = decompressor.unconsumed_tail
        if not pending:
            break
    out += decompressor.flush()
    if len(out) > limit:
        raise TooLarge
    if not decompressor.eof:
        raise ValueError("truncated data")
    return bytes(out)


def _inflate(data: bytes, limit: int) -> bytes:
    return _drain(zlib.decompressobj(_GZIP_WBITS), data, limit)


def _deflate(data: bytes, limit: int) -> bytes:
    # "deflate" is zlib-wrapped (RFC 9110), but some servers send raw deflate
    try:
        return _drain(zlib.decompressobj(zlib.MAX_WBITS), data, limit)
    except zlib.error:
        return _drain(zlib.decompressobj(-zlib.MAX_WBITS), data, limit)


def _unbrotli(brotli: Any, data: bytes, limit: int) -> bytes:
    decompressor = brotli.Decompressor()
    out = bytearray(decompressor.process(data, output_buffer_limit=_STEP))
    while not decompressor.can_accept_more_data():
        if len(out) > limit:
            raise TooLarge
        out += decompressor.process(b"", output_buffer_limit=_STEP)
    if len(out) > limit:
        raise TooLarge
    if not decompressor.is_finished():
        raise ValueError("truncated data")
    return bytes(out)


def _unzstd(zstandard: Any, data: bytes, limit: int) -> bytes:
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True)
    out = bytearray()
    while chunk := reader.read(_STEP):
        out += chunk
        if len(out) > limit:
            raise TooLarge
    return bytes(out)


async def read_raw(response: httpx.Response, chunks: list[bytes], limit: int) -> tuple[bytes, str]:
    """A streamed response's body as it came over the wire, into ``chunks`` as it comes (what
    arrived is there if the read is cut short), and its content codings, to decode afterwards
    with their own bound; ``TooLarge`` past ``limit`` bytes, with the first ``limit`` in ``chunks``.
    A response built in memory (a test transport) is already decoded."""
    if response.is_stream_consumed:
        if len(response.content) > limit:
            chunks.append(response.content[:limit])
            raise TooLarge
        return response.content, ""
    size = 0
    async for chunk in response.aiter_raw():
        size += len(chunk)
        if size > limit:
            chunks.append(chunk[: len(chunk) - (size - limit)])  # the first ``limit`` bytes
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks), response.headers.get("content-encoding", "")
