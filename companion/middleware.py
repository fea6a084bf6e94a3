"""Gzip as Django's ``GZipMiddleware`` does it, with deflate's window sized to the body.

zlib sets up a 32 kB window and a 32k-entry hash table for every response, whatever its size. For the 1-4 kB
htmx replies of the scoring walk-through, a window that just covers the body, and a hash table no larger than
the window, find the same matches, so the compressed bytes are the same as Django's
(tests/companion/test_middleware.py), and compressing a 3 kB reply inside a request took 96-109 µs instead of
119-131 µs on the 2-core machine (docs/benchmarks.md).
"""

from __future__ import annotations

import gzip
import secrets
import zlib
from typing import Final

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware
from django.middleware.gzip import re_accepts_gzip
from django.utils.cache import patch_vary_headers

#: Django's threshold: shorter bodies are not worth compressing.
MIN_LENGTH: Final = 200
#: Deflate looks back at most the window's size less this many bytes (zlib's MIN_LOOKAHEAD).
_LOOKAHEAD: Final = 262
_LEVEL: Final = 6  # Django's (django.utils.text.compress_string)


def window_bits(length: int) -> int:
    """The smallest window (2**bits bytes, 10 to 15) in which deflate can reach back across ``length`` bytes."""
    for bits in range(10, 15):
        if (1 << bits) - _LOOKAHEAD >= length:
            return bits
    return 15


def memory_level(bits: int) -> int:
    """Deflate's memory level for a window of 2**``bits`` bytes: its hash table (2**(level + 7) heads) as large as
    the window, not 32k heads whatever the body (the same compressed bytes, tests/companion/test_middleware.py)."""
    return min(8, bits - 7)


def compress(data: bytes, max_random_bytes: int = 0) -> bytes:
    """``django.utils.text.compress_string``, with the window and deflate's tables sized to ``data``: the gzip
    member, with the same random-length file name in its header against BREACH when ``max_random_bytes`` is
    given."""
    bits = window_bits(len(data))
    deflate = zlib.compressobj(_LEVEL, zlib.DEFLATED, 16 + bits, memory_level(bits))
    compressed = deflate.compress(data) + deflate.flush()
    if not max_random_bytes:
        return compressed
    header = bytearray(compressed[:10])
    header[3] = gzip.FNAME
    return bytes(header) + b"a" * secrets.randbelow(max_random_bytes) + b"\x00" + compressed[10:]


class GZipMiddleware(DjangoGZipMiddleware):
    """Django's ``GZipMiddleware`` (same headers, same conditions); whole bodies go through :func:`compress`,
    streamed ones through Django's own code."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.streaming:
            return super().process_response(request, response)
        content: bytes = response.content
        if len(content) < MIN_LENGTH or response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        compressed = compress(content, self.max_random_bytes)
        if len(compressed) >= len(content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "gzip"
        return response
