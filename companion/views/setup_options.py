"""The setup generator's options page (``GET /setup/``, issue 3): pick the options (players, Akebono, the Grand
Master variant, house rules, the table's names) and generate; htmx refreshes the form's warning on each change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_safe

from companion.errors import UserError
from companion.http import HtmxHttpRequest
from companion.models.scoresheets import NAME_MAX
from companion.setup_query import (
    DEFAULT_PLAYERS,
    PLAYER_CHOICES,
    TRUE_WORDS,
    _getlist,
    sentence,
    setup_names,
)
from companion.views.answers import page_or_partial
from scoring.catalogue import (
    BUILDINGS,
    personalities_of_season,
)
from scoring.components import SEASONS
from scoring.rules import MAX_PLAYERS
from setupgen import (
    CODE_MAX,
)

# --- the options page -----------------------------------------------------------------------------------------


def _form_context(query: Mapping[str, str], error: str = "", error_field: str = "") -> dict[str, Any]:
    """The options form filled from ``query``, leniently: what cannot be read falls back to the defaults."""
    try:
        players = int(query.get("players", "").strip())
    except ValueError:
        players = DEFAULT_PLAYERS
    if players not in PLAYER_CHOICES:
        players = DEFAULT_PLAYERS
    akebono = query.get("akebono", "").strip().lower() in TRUE_WORDS
    grand_master = query.get("grand_master", "").strip().lower() in TRUE_WORDS
    gm_allowed = players == 2 and akebono
    warning = ""
    if grand_master and not gm_allowed and not error:
        warning = "The Grand Master variant needs 2 players and Akebono."
    return {
        "player_choices": PLAYER_CHOICES,
        "players": players,
        "akebono": akebono,
        "grand_master": grand_master,
        # A typed code comes back to be corrected; one longer than any code does not (the message says why).
        "seed": seed if len(seed := query.get("seed", "").strip()) <= CODE_MAX else "",
        "code_max": CODE_MAX,
        "error": error,
        "error_field": error_field,
        "warning": warning,
        "house": _house_choices(query, akebono),
        "names": (setup_names(query) + [""] * MAX_PLAYERS)[:MAX_PLAYERS],
        "name_max": NAME_MAX,
    }


def _house_choices(query: Mapping[str, str], akebono: bool) -> list[dict[str, Any]]:
    """The house-rule rows of the options form: each building (and with Akebono each personality, by season)
    with its choice, "" (drawn as usual), "ban" or "require", read leniently from ``query``."""
    banned, required = set(_getlist(query, "ban")), set(_getlist(query, "require"))

    def row(card_id: str, name: str) -> dict[str, str]:
        state = "ban" if card_id in banned else "require" if card_id in required else ""
        return {"id": card_id, "name": name, "state": state}

    groups = [
        {
            "label": "Buildings",
            "rows": [row(b.id, b.name) for b in BUILDINGS if akebono or b.expansion.value == "base"],
        }
    ]
    if akebono:
        groups += [
            {
                "label": f"{season.label} personalities",
                "rows": [row(p.id, p.name) for p in personalities_of_season(season)],
            }
            for season in SEASONS
        ]
    return groups


@require_safe
def setup_options(request: HtmxHttpRequest) -> HttpResponse:
    """``GET /setup/``: pick the options and generate. htmx (on any change of the form): just its warning."""
    context = _form_context(request.GET)
    # htmx: the warning, and the house-rule lists (the Akebono box changes which cards they offer)
    return page_or_partial(request, "setup.html", "options-warning", {**context, "oob": bool(request.htmx)})


def _options_error(request: HttpRequest, exc: UserError) -> HttpResponse:
    context = _form_context(request.GET, error=sentence(str(exc)), error_field=exc.field)
    return page_or_partial(request, "setup.html", "options-form", context, status=400)


urlpatterns = [
    path("setup/", setup_options, name="setup-options"),
]
