"""``/sw.js`` (``service-worker``): the service worker (issue 25; docs/sync.md "Offline: the service worker").

Served from the site's root, not from ``/static/``, so that its scope is every page; never cached for long (a new
version must reach the phones at their next load; the file, 3 kB, is read on each request: no cache to grow), and
with the site's ``STATIC_URL`` put in, since it keeps the static files. live.js registers it only in a secure
context; on plain HTTP browsers refuse it (README).
"""

from __future__ import annotations

import json
from typing import Final

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_safe

SOURCE: Final = "companion/sw.js"
PLACEHOLDER: Final = 'const STATIC = "/static/";'


def _source(static_url: str) -> str:
    found = finders.find(SOURCE)
    if not isinstance(found, str):
        raise Http404("No service worker.")
    with open(found, encoding="utf-8") as source:
        text = source.read()
    prefix = "/" + static_url.lstrip("/") if "://" not in static_url else static_url
    return text.replace(PLACEHOLDER, f"const STATIC = {json.dumps(prefix)};", 1)


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_source(settings.STATIC_URL), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns = [path("sw.js", service_worker, name="service-worker")]
