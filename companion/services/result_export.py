"""A result or a group's history as JSON, CSV, and a BG Stats push-play link (issue 14). Nothing here ever holds
an edit token: a result is named by its sheet's view-only link, a group by its view-only link.

BG Stats documents its push link at https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
("Push plays to BG Stats from other apps or websites"): ``https://app.bgstatsapp.com/createPlay.html?data=<data>``
where ``<data>`` is URL-encoded JSON with ``playDate``, ``game`` (``name``, ``highestWins``, ``noPoints``,
``sourceGameId``, optional ``bggId``), ``players`` (``name``, ``score``, ``rank``, ``winner``,
``sourcePlayerId``...) and optional ``board``, ``comments``, ``durationMin``, ``location``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any, Final
from urllib.parse import quote as urlquote

from companion.models.results import Group, Result
from scoring.first_edition import LINES_2015
from scoring.score import AKEBONO_LINES

BGSTATS_PUSH: Final = "https://app.bgstatsapp.com/createPlay.html"
#: The game's name as BG Stats shows it; no BoardGameGeek id is sent (BG Stats matches by name, and the
#: companion does not keep a BGG id it could not check).
BGSTATS_GAMES: Final = {"iki": "IKI", "iki-akebono": "IKI: Akebono", "iki-2015": "IKI (2015)"}
#: The lines a kept result may hold, in the pad's order: the 2022 lines, then the 2015 pad's (RULINGS R3, E1).
LINE_ORDER: Final = tuple(dict.fromkeys((*AKEBONO_LINES, *LINES_2015)))
CSV_FIELDS: Final = ("date", "game", "player", "colour", *AKEBONO_LINES, "total", "rank", "seed", "result")


def result_json(result: Result) -> dict[str, Any]:
    """A result as the API answers it (docs/api.md)."""
    return {
        "date": result.played.isoformat(),
        "game": result.edition,
        "game_name": result.edition_label,
        "seed": result.seed or None,
        "view_url": result.view_url(),
        "group": result.group.name if result.group is not None else None,
        "players": [
            {k: p[k] for k in ("name", "colour", "lines", "total", "rank", "buildings", "personalities")}
            for p in result.players
        ],
    }


def group_json(group: Group, results: Sequence[Result]) -> dict[str, Any]:
    return {
        "group": {"name": group.name, "view_url": group.view_url()},
        "results": [result_json(r) for r in results],
    }


FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is a formula to a spreadsheet (CSV injection, OWASP): it is written with
a ``'`` before it, which spreadsheets show as text and do not run."""


def spreadsheet_safe(cell: object) -> object:
    """``cell`` as a CSV cell no spreadsheet runs: text starting like a formula gets a ``'`` first; numbers stay."""
    return f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def group_csv(results: Sequence[Result]) -> str:
    """One row per player per result, oldest first; lines a game does not have are left empty. No text cell
    starts like a formula (:func:`spreadsheet_safe`)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for r in results:
        for p in r.players:
            lines = [p["lines"].get(k, "") for k in AKEBONO_LINES]
            row = [
                r.played.isoformat(),
                r.edition_label,
                p["name"],
                p["colour"],
                *lines,
                p["total"],
                p["rank"],
            ]
            writer.writerow([spreadsheet_safe(cell) for cell in (*row, r.seed, r.view_url())])
    return out.getvalue()


def bgstats_url(result: Result) -> str:
    """The play as a BG Stats push-play link (see the module's docstring for the format)."""
    data = {
        "playDate": f"{result.played.isoformat()} 00:00:00",
        "game": {
            "name": BGSTATS_GAMES[result.edition],
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": result.edition,
        },
        "board": result.edition_label,
        "comments": f"Scored with the IKI companion{f', setup {result.seed}' if result.seed else ''}.",
        "players": [
            {
                "name": p["name"],
                "score": p["total"],
                "rank": p["rank"],
                "winner": p["rank"] == 1,
                "role": p["colour"],
                "sourcePlayerId": p["name"],
            }
            for p in result.players
        ],
    }
    return f"{BGSTATS_PUSH}?data={urlquote(json.dumps(data, ensure_ascii=False, separators=(',', ':')))}"


__all__ = ["BGSTATS_PUSH", "bgstats_url", "group_csv", "group_json", "result_json"]
