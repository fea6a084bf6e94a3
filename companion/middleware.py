"""Gzip as Django's ``GZipMiddleware`` does it, with deflate's window sized to the body.

zlib sets up a 32 kB window and the tables that go with it for every response, whatever its size. For the 1-4 kB
htmx replies of the scoring walk-through, a window that just covers the body finds the same matches, so the
compressed bytes are the same as Django's (tests/companion/test_middleware.py), and compressing took from a few
per cent to a third less time on the 2-core machine, the more the busier it was (docs/benchmarks.md).
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


def compress(data: bytes, max_random_bytes: int = 0) -> bytes:
    """``django.utils.text.compress_string``, with the window sized to ``data``: the gzip member, with the
    same random-length file name in its header against BREACH when ``max_random_bytes`` is given."""
    compressed = zlib.compress(data, _LEVEL, 16 + window_bits(len(data)))
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
