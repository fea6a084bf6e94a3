"""companion.middleware.GZipMiddleware: Django's gzip, with deflate's window sized to the body."""

from __future__ import annotations

import gzip
import re

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import Client, RequestFactory
from django.utils.text import compress_string

from companion.middleware import MIN_LENGTH, GZipMiddleware, compress, memory_level, window_bits
from companion.models.scoresheets import start_sheet

BODY = (
    b'<div id="p0-top" hx-swap-oob="true"><h2 class="sp-head">Ana\xc3\xafs <span>18</span></h2></div>\n' * 200
)


@pytest.mark.parametrize(
    ("length", "bits"), [(1, 10), (762, 10), (763, 11), (3834, 12), (3835, 13), (32506, 15), (10**6, 15)]
)
def test_the_window_is_the_smallest_that_reaches_back_across_the_body(length: int, bits: int) -> None:
    assert window_bits(length) == bits


@pytest.mark.parametrize(("bits", "level"), [(10, 3), (12, 5), (14, 7), (15, 8)])
def test_the_hash_table_is_as_large_as_the_window(bits: int, level: int) -> None:
    assert memory_level(bits) == level


@pytest.mark.parametrize("length", [200, 900, 2800, 4000, 9000, 20000, 40000])
def test_the_compressed_bytes_are_djangos(length: int) -> None:
    """Same level, a window and tables that cover the body: the same deflate stream as
    django.utils.text.compress_string."""
    data = BODY[:length]
    ours = compress(data)
    assert gzip.decompress(ours) == data
    assert ours[10:] == compress_string(data)[10:]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["track", "characters", "fish", "buildings", "firefighting"])
def test_a_real_page_compresses_to_djangos_bytes(client: Client, slug: str) -> None:
    sheet = start_sheet(names=["Anaïs", "David"], colours=["red", "blue"], akebono=True)
    page = client.get(f"/score/{sheet.token}/{slug}/").content
    for data in (page, page[:3000], page[:900]):  # a page, and bodies the size of htmx replies
        assert compress(data)[10:] == compress_string(data)[10:]


def test_a_random_length_name_pads_the_header_against_breach() -> None:
    lengths = set()
    for _ in range(40):
        out = compress(BODY[:3000], max_random_bytes=100)
        assert out[3] & gzip.FNAME
        assert gzip.decompress(out) == BODY[:3000]
        lengths.add(len(out))
    assert len(lengths) > 1


def _through(
    response: HttpResponse | StreamingHttpResponse, accept: str = "gzip, deflate, br"
) -> HttpResponse:
    request = RequestFactory().get("/", HTTP_ACCEPT_ENCODING=accept)
    out = GZipMiddleware(lambda r: response)(request)
    assert isinstance(out, (HttpResponse, StreamingHttpResponse))
    return out  # type: ignore[return-value]


def test_headers_as_django_sets_them() -> None:
    response = HttpResponse(BODY[:3000])
    response["ETag"] = '"v7"'
    out = _through(response)
    assert out["Content-Encoding"] == "gzip"
    assert out["Vary"] == "Accept-Encoding"
    assert out["ETag"] == 'W/"v7"'
    assert int(out["Content-Length"]) == len(out.content) < 3000
    assert gzip.decompress(out.content) == BODY[:3000]


@pytest.mark.parametrize(
    ("body", "accept", "encoding"),
    [
        (BODY[: MIN_LENGTH - 1], "gzip", None),  # too short to be worth it
        (BODY[:3000], "br", None),  # the browser does not take gzip
        (BODY[:3000], "", None),
        (BODY[:3000], "gzip;q=1", "gzip"),
    ],
)
def test_what_is_left_alone(body: bytes, accept: str, encoding: str | None) -> None:
    out = _through(HttpResponse(body), accept)
    assert out.get("Content-Encoding") == encoding


def test_streamed_bodies_go_through_djangos_code() -> None:
    out = _through(StreamingHttpResponse(iter([BODY[:3000], BODY[:3000]])))
    assert out["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(out.streaming_content)) == BODY[:3000] * 2  # type: ignore[arg-type]


@pytest.mark.django_db
def test_a_step_reaches_the_phone_gzipped_and_whole(client: Client) -> None:
    sheet = start_sheet(names=["Anaïs", "David"], colours=["red", "blue"], akebono=True)
    url = f"/score/{sheet.token}/characters/"
    plain = client.get(url).content
    zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert zipped["Content-Encoding"] == "gzip"
    # The same page but for the CSRF token, which Django masks anew for every response.
    assert _unmasked(gzip.decompress(zipped.content)) == _unmasked(plain)
    assert len(zipped.content) * 4 < len(plain)


def _unmasked(page: bytes) -> bytes:
    return re.sub(rb'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', rb"\1", page)
