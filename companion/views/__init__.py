"""Views of the IKI companion: thin function views that parse, call the pure core, render."""

from django.http import HttpRequest


def is_htmx(request: HttpRequest) -> bool:
    """Whether htmx made the request: ``bool(request.htmx)`` of django-htmx, read straight from the WSGI
    environ. django-htmx reads it through ``request.headers``, which builds a dict of every header first: about
    5% of a scoring tap's time under the profiler, paid again on every poll of a game."""
    return request.META.get("HTTP_HX_REQUEST") == "true"


__all__ = ["is_htmx"]
