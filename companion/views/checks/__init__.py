"""``/check/``: check a paper score pad in a minute (issue 14).

The table types the numbers it wrote, one player at a time; the rules core (:func:`scoring.padcheck.check_pad`)
says which cannot be right and why. The page is a GET form, so the URL holds the whole pad: without JavaScript
"Check" reloads the page; with htmx each change swaps in the verdict and every line's message (out of band),
leaving the field being typed in alone. A line in doubt opens the walk-through (a normal score sheet, started
from the pad's players) at the step that line comes from, with the typed number as the target.

The package: ``editions`` (the one table of the pads' editions), ``forms`` (the query read as forms), ``common``
(what both pads share: tabs, rows, verdict), ``pad`` (the 2022 pad) and ``pad_2015`` (the 2015 pad, its
calculator). The markup is ``templates/check*.html`` with ``_check_parts.html``.
"""

from __future__ import annotations

from django.urls import path

from companion.views.checks.common import player_rows
from companion.views.checks.pad import LINE_STEPS, check_page, keep, walk, walk_target
from companion.views.checks.pad_2015 import check_2015, keep_2015, work_2015
from scoring.padcheck import LINE_WORDS

__all__ = [
    "LINE_STEPS",
    "LINE_WORDS",
    "check_2015",
    "check_page",
    "keep",
    "keep_2015",
    "player_rows",
    "walk",
    "walk_target",
    "work_2015",
]

urlpatterns = [
    path("check/", check_page, name="check"),
    path("check/2015/", check_2015, name="check-2015"),
    path("check/2015/work/", work_2015, name="check-2015-work"),
    path("check/walk/", walk, name="check-walk"),
    path("check/keep", keep, name="check-keep"),
    path("check/2015/keep", keep_2015, name="check-2015-keep"),
]
