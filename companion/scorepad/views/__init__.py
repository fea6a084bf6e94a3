"""The walk-through's views: each parses, calls a service or the presenter, renders (issue 12).

``/score/`` starts a sheet; ``/score/<token>/<step>/?p=<player>`` shows one step for one player (``?v=N``: 204
while the sheet is still at version N, the phones' poll); ``.../entry/`` takes an entry (htmx: only the pieces it
changed, or the whole step when the page was behind; without JavaScript: a redirect back to the entry); the
result and the filled pad, also through the sheet's view-only link, which never leads to a write.
"""

from __future__ import annotations

from django.urls import path

from companion.scorepad.views.result import pad_pdf, result, sheet_view, view_pad_pdf
from companion.scorepad.views.sheets import step_url
from companion.scorepad.views.start import new
from companion.scorepad.views.steps import entry, sheet_start, step

__all__ = ["step_url", "urlpatterns"]

urlpatterns = [
    path("score/", new, name="scorepad-new"),
    path("score/view/<sheet:token>/", sheet_view, name="scorepad-view"),
    path("score/view/<sheet:token>/pad.pdf", view_pad_pdf, name="scorepad-view-pdf"),
    path("score/<sheet:token>/", sheet_start, name="scorepad-sheet"),
    path("score/<sheet:token>/result/", result, name="scorepad-result"),
    path("score/<sheet:token>/pad.pdf", pad_pdf, name="scorepad-pdf"),
    path("score/<sheet:token>/<slug:slug>/", step, name="scorepad-step"),
    path("score/<sheet:token>/<slug:slug>/entry/", entry, name="scorepad-entry"),
]
