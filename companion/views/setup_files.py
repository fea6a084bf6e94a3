"""The setup as files (issue 3): its share link's QR code, the printable PDF sheet (public draws only) and the
JSON API ``GET /api/v1/setup`` (docs/api.md "Setup": the one place that shows every draw)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_safe

from companion.errors import UserError, json_error
from companion.links import share_url
from companion.pdf.setup_sheet import PAGE_SIZES, setup_sheet_pdf
from companion.qr import qr_svg
from companion.setup_query import (
    game_url,
    house_summary,
    is_table,
    load_setup,
    query_error,
    sentence,
    setup_names,
)
from scoring.errors import quote


@require_safe
def setup_qr(request: HttpRequest) -> HttpResponse:
    """``GET /setup/qr.svg?players=N&...&seed=CODE&table=TOKEN``: the QR code of the page's share link (built from
    the LAN address when the page was opened at a loopback address, companion/links.py). An image of its own, shown
    when asked, so the page's first load stays within its budget. 400 for a bad address; 404 for a link too long
    for a QR code (the page still shows the link)."""
    table = request.GET.get("table", "")
    try:
        options, setup, _ = load_setup(request.GET, seed_required=True)
        if not is_table(table):
            raise query_error("table", "this address has no table code of a setup page (table=)")
    except UserError as exc:
        raise UserError(sentence(str(exc))) from None
    names = setup_names(request.GET)[: options.players]  # the page's names, as its share link carries them
    svg = qr_svg(share_url(request, game_url(options, setup.seed, name=names, table=table)))
    if not svg:
        raise UserError("This link is too long for a QR code.", status=404)
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@require_safe
def setup_sheet(request: HttpRequest) -> HttpResponse:
    """``GET /setup/sheet.pdf?players=N&...&seed=CODE[&size=a4|letter]``: the printable sheet, public draws only."""
    size = request.GET.get("size", "a4").strip().lower() or "a4"
    try:
        _, setup, _ = load_setup(request.GET, seed_required=True)
        if size not in PAGE_SIZES:
            raise query_error("size", f"size must be a4 or letter, not {quote(size)}")
    except UserError as exc:
        raise UserError(sentence(str(exc))) from None
    pdf = setup_sheet_pdf(setup, size=size, house=house_summary(setup.code.house))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="iki-setup-{setup.seed}-{size}.pdf"'
    return response


# --- the JSON API ---------------------------------------------------------------------------------------------


def api_setup(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/setup?players=N&akebono=1&grand_master=1&seed=CODE&ban=ID&require=ID``: 200 the setup,
    400 bad options naming the field (docs/api.md "Setup")."""
    if request.method not in ("GET", "HEAD"):
        response = json_error(
            405, "method-not-allowed", "GET this address with the options in the query string."
        )
        response["Allow"] = "GET, HEAD"
        return response
    try:
        _, setup, given = load_setup(request.GET)
    except UserError as exc:
        return json_error(400, exc.code, exc.message, exc.field)
    response = JsonResponse(setup.to_json(), json_dumps_params={"ensure_ascii": False})
    # A given code always answers the same; a new seed must not be cached.
    if given:
        response["Cache-Control"] = "public, max-age=86400"
    else:
        add_never_cache_headers(response)
    return response


urlpatterns = [
    path("setup/sheet.pdf", setup_sheet, name="setup-sheet"),
    path("setup/qr.svg", setup_qr, name="setup-qr"),
    path("api/v1/setup", api_setup, name="api-setup"),
]
