from __future__ import annotations

import json
from typing import Final

from django import forms
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import path
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from companion.forms import messages_of
from companion.services.find import find_address


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


urlpatterns = [path("", home, name="home")]


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, asked for by browsers and link previews whatever the page says: the icon of
    ``base.html``'s ``<link rel="icon">``, an SVG (every current phone browser draws one)."""
    response = HttpResponsePermanentRedirect(static("companion/favicon.svg"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


urlpatterns += [path("favicon.ico", favicon, name="favicon")]


#: The installable app's colours (issue 25): the top bar's ink (``--ink`` of app.css) and the page's paper.
THEME_COLOUR: Final = "#1d1b19"
BACKGROUND_COLOUR: Final = "#faf6ef"
#: The icons phones ask for (made from favicon.svg by .ci/icons): 192 and 512 px, and a maskable one for Android's
#: shaped icons. Each byte of the manifest counts: a phone may fetch it with the first page.
ICONS: Final = (
    ("companion/icon-192.png", "192x192", ""),
    ("companion/icon-512.png", "512x512", ""),
    ("companion/icon-maskable-512.png", "512x512", "maskable"),
)
MANIFEST_TYPE: Final = "application/manifest+json"


@require_safe
@xframe_options_exempt  # a manifest is never framed: its header would only cost bytes
def manifest(request: HttpRequest) -> HttpResponse:
    """``/manifest.webmanifest``: the web app manifest every page links (``templates/base.html``), so that a phone
    can install the companion on its home screen. The icons by their plain names (WhiteNoise serves those too, cached
    for a day): shorter than the hashed ones, and the manifest is fetched with the first page."""
    data = {
        "name": "IKI companion",
        "short_name": "IKI",
        "start_url": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {
                "src": settings.STATIC_URL + name,
                "sizes": sizes,
                "type": "image/png",
                **({"purpose": purpose} if purpose else {}),
            }
            for name, sizes, purpose in ICONS
        ],
    }
    response = HttpResponse(json.dumps(data, separators=(",", ":")), content_type=MANIFEST_TYPE)
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def apple_touch_icon(request: HttpRequest) -> HttpResponse:
    """``/apple-touch-icon.png`` (and ``-precomposed``): iOS takes its home-screen icon from this root address,
    not from the manifest, when a page names none."""
    found = finders.find("companion/apple-touch-icon.png")
    if not isinstance(found, str):
        raise Http404("No icon.")
    with open(found, "rb") as icon:
        response = HttpResponse(icon.read(), content_type="image/png")  # 2 KiB
    response["Cache-Control"] = "public, max-age=86400"
    return response


urlpatterns += [
    path("manifest.webmanifest", manifest, name="manifest"),
    path("apple-touch-icon.png", apple_touch_icon, name="apple-touch-icon"),
    path("apple-touch-icon-precomposed.png", apple_touch_icon, name="apple-touch-icon-precomposed"),
]


# --- Find a game by its link or code (issue 25) -----------------------------------------------------------------

FIND_MAX: Final = 300
NOT_FOUND: Final = (
    "Nothing here has this link or code: check it against the link under the QR code (a code is its last part, "
    "24 letters, digits, - and _)."
)


class FindForm(forms.Form):
    q = forms.CharField(
        max_length=FIND_MAX,
        label="Paste a link, or type the code under a QR code",
        error_messages={
            "required": "Paste a link, or type the code under a QR code.",
            "max_length": f"That is longer than any link of this companion ({FIND_MAX} characters at most).",
        },
    )

    def clean_q(self) -> str:
        text = str(self.cleaned_data["q"])
        if any(not ch.isprintable() for ch in text):
            raise forms.ValidationError("That is not a link or a code: paste the link, or type the code.")
        return text


@require_safe
def find(request: HttpRequest) -> HttpResponse:
    """``GET /find/?q=<a link or a code>``: to the game, score sheet, result or group it names (302); the form
    again with a message when it names nothing (404) or is not a link or a code at all (400). Without ``q``, the
    form (the home page has it too). Reads only."""
    if "q" not in request.GET:
        return render(request, "find.html", {"form": FindForm()})
    form = FindForm(request.GET)
    if not form.is_valid():
        return render(request, "find.html", {"form": form, "errors": messages_of(form)}, status=400)
    address = find_address(form.cleaned_data["q"])
    if address is None:
        return render(request, "find.html", {"form": form, "errors": [NOT_FOUND]}, status=404)
    return HttpResponseRedirect(address)


urlpatterns += [path("find/", find, name="find")]
