"""What a pull or a poll asks (docs/sync.md "Pull"): ``?v=``, the version of the thing the page holds. One form
reads it for every shared thing, so every page answers a bad one alike."""

from __future__ import annotations

from typing import Final

from django import forms
from django.http import HttpRequest

from companion.errors import UserError

BAD_VERSION: Final = "The version (?v=) must be a whole number. Reload the page."


class PullQuery(forms.Form):
    """``v``: ASCII digits, at most nine (no thing reaches a billion versions)."""

    v = forms.RegexField(regex=r"\A[0-9]{1,9}\Z", strip=False)

    def clean_v(self) -> int:
        return int(self.cleaned_data["v"])


def pulled_version(request: HttpRequest) -> int | None:
    """The version the page holds; None without ``?v=`` (the page holds none: it gets everything). A bad or empty
    one is a 400 (:class:`UserError`)."""
    if "v" not in request.GET:
        return None
    query = PullQuery(request.GET)
    if not query.is_valid():
        raise UserError(BAD_VERSION)
    version: int = query.cleaned_data["v"]
    return version
