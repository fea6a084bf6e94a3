"""The request the views are handed: Django's, with django-htmx's ``request.htmx`` (its middleware, in
companion/settings.py, sets it on every request)."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A type for annotations only (django-htmx's documented recipe): no request is made of this class, but every
    request has its ``htmx``."""

    htmx: HtmxDetails
