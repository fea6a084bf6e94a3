"""A result or a group's history as JSON, CSV, and a BG Stats push-play link (issues 14 and 25). Nothing here ever
holds an edit token: a result is named by its sheet's view-only link, a group by its view-only link.

BG Stats documents its push link on its support page "Push plays to BG Stats from other apps or websites"
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
``https://app.bgstatsapp.com/createPlay.html?data=<data>``, where ``<data>`` is URL-encoded JSON: ``board``,
``durationMin``, ``comments``, ``game`` (``bggId``, ``highestWins``, ``name``, ``noPoints``, ``sourceGameId``),
``location``, ``playDate`` (``YYYY-MM-DD HH:MM:SS``, in UTC, the time the play ended), ``players`` (``startPlayer``,
``name``, ``rank``, ``role``, ``score``, ``sourcePlayerId``, ``winner``), and the source fields BG Stats matches
plays by: ``sourceName`` (the sending app: BG Stats remembers its game and player matches per source) and
``sourcePlayId`` (one id per play, so that pushing the same play again is recognised, not logged twice). The page
itself was not in the stored references; its format as written here was checked against public code that cites it
(e.g. lindsaykwardell/clocktracker PR #299: ``startPlayer`` is required on every player).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import quote as urlquote

from companion.models.results import Group, Result
from companion.services.play_time import PlayTime, play_time, play_times
from scoring.first_edition import LINES_2015
from scoring.score import AKEBONO_LINES

BGSTATS_PUSH: Final = "https://app.bgstatsapp.com/createPlay.html"
#: ``sourceName``: BG Stats keys its remembered game and player matches by it, so it never changes.
BGSTATS_SOURCE: Final = "IKI companion"
#: The game's name as BG Stats shows it. No ``bggId`` is sent: BG Stats matches a game by ``sourceGameId`` (and
#: its name), and no source found for this issue (the stored rulebooks, and searches of public pages and code for
#: IKI's and IKI Akebono's BoardGameGeek pages) confirms an id; a wrong id would file plays under another game.
BGSTATS_GAMES: Final = {
    "iki": "IKI",
    "iki-akebono": "IKI: Akebono",
    "iki-2015": "IKI (2015)",
    # Issue 23: no bggId either. Searches of the stored public pages and code for Traders of Osaka's BoardGameGeek
    # page found reviews but no page or code naming its id, so none is sent (BG Stats matches by name and source).
    "osaka": "Traders of Osaka",
}
#: The editions played on IKI 2022's double-sided main board (the others send no ``board``).
BOARD_EDITIONS: Final = frozenset({"iki", "iki-akebono"})
#: The lines a kept result may hold, in the pad's order: the 2022 lines, then the 2015 pad's (RULINGS R3, E1).
LINE_ORDER: Final = tuple(dict.fromkeys((*AKEBONO_LINES, *LINES_2015)))
#: The side of the double-sided main board played (2022 rulebook, "Components": "1 double-sided main board";
#: "Rules for 2 players": "Play with the 2-player side of the main board"). The 2015 edition's text says nothing of
#: sides, so its plays send no board.
BOARD_SIDES: Final = {2: "2-player side"}
BOARD_SIDE_OTHERS: Final = "3-4 player side"
#: ``playDate``'s format (UTC).
BGSTATS_DATE: Final = "%Y-%m-%d %H:%M:%S"
CSV_FIELDS: Final = (
    "date", "game", "player", "colour", *AKEBONO_LINES, "total", "rank", "seed", "result", "ended", "duration_min",
)  # fmt: skip


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def _ended(time: PlayTime) -> str:
    """When the game ended, as the JSON and CSV give it: ISO 8601 in UTC to the second."""
    return _utc(time.ended).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def result_json(result: Result, time: PlayTime | None = None) -> dict[str, Any]:
    """A result as the API answers it (docs/api.md); ``time``: its :func:`play_time`, when already read."""
    time = time or play_time(result)
    return {
        "date": result.played.isoformat(),
        "game": result.edition,
        "game_name": result.edition_label,
        "seed": result.seed or None,
        "view_url": result.view_url(),
        "group": result.group.name if result.group is not None else None,
        "ended": _ended(time),
        "duration_min": time.minutes,
        "players": [
            {k: p[k] for k in ("name", "colour", "lines", "total", "rank", "buildings", "personalities")}
            for p in result.players
        ],
    }


def group_json(group: Group, results: Sequence[Result]) -> dict[str, Any]:
    return {
        "group": {"name": group.name, "view_url": group.view_url()},
        "results": [result_json(r, time) for r, time in _timed(results)],
    }


FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is a formula to a spreadsheet (CSV injection, OWASP): it is written with
a ``'`` before it, which spreadsheets show as text and do not run."""


def spreadsheet_safe(cell: object) -> object:
    """``cell`` as a CSV cell no spreadsheet runs: text starting like a formula gets a ``'`` first; numbers stay."""
    return f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def _timed(results: Sequence[Result]) -> list[tuple[Result, PlayTime]]:
    times = play_times(results)
    return [(r, times[r.pk]) for r in results]


def group_csv(results: Sequence[Result]) -> str:
    """One row per player per result, oldest first; lines a game does not have are left empty. No text cell
    starts like a formula (:func:`spreadsheet_safe`)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for r, time in _timed(results):
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
            minutes = "" if time.minutes is None else time.minutes
            cells = (*row, r.seed, r.view_url(), _ended(time), minutes)
            writer.writerow([spreadsheet_safe(cell) for cell in cells])
    return out.getvalue()


def _hashed(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def bgstats_player_id(result: Result, name: str) -> str:
    """``sourcePlayerId``: the same for a name in every result of a group (a group's renames and merges make it
    follow the player), the same for a name in every result kept outside a group; made from the group's view-only
    token, never shown as such. A restored group's players keep the ids its file gave."""
    if result.group is not None and name in result.group.bgstats_players:
        return result.group.bgstats_players[name]  # a restored group's player: the id the file gave
    scope = f"group:{result.group.view_token}" if result.group is not None else "no-group"
    return f"player-{_hashed(scope, name)}"


def bgstats_play_id(result: Result) -> str:
    """``sourcePlayId``: one per result, the same however often it is pushed or rewritten by an edit, and kept
    by a group's file: a restored result has the id it had."""
    return result.bgstats_id or f"result-{_hashed('result', result.public_token)}"


BGSTATS_PLAY_ID: Final = re.compile(r"result-[0-9a-f]{24}")
BGSTATS_PLAYER_ID: Final = re.compile(r"player-[0-9a-f]{24}")
"""What the ids look like: a group's file carrying others is refused."""


def bgstats_data(result: Result, time: PlayTime | None = None) -> dict[str, Any]:
    """The play BG Stats is sent (see the module's docstring for the format). Ranks and winners are the result's,
    the tie-break of RULINGS R12 applied (a tie it does not break shares the place, and then both win); for a
    Traders of Osaka game the score is the VP cards and the tie-break the achievement tokens (RULINGS O5)."""
    time = time or play_time(result)
    first = time.first_player
    players = [
        {
            "name": p["name"],
            "score": p["total"],
            "rank": p["rank"],
            "winner": p["rank"] == 1,
            "startPlayer": first == i + 1,
            **({"role": p["colour"]} if p["colour"] else {}),
            "sourcePlayerId": bgstats_player_id(result, p["name"]),
        }
        for i, p in enumerate(result.players)  # seating order, as the tracked game's seats
    ]
    setup = f", setup code {result.seed}" if result.seed else ""
    data: dict[str, Any] = {
        "sourceName": BGSTATS_SOURCE,
        "sourcePlayId": bgstats_play_id(result),
        "playDate": _utc(time.ended).strftime(BGSTATS_DATE),
        "game": {
            "name": BGSTATS_GAMES[result.edition],
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": result.edition,
        },
        "comments": f"{'Tracked' if result.edition == 'osaka' else 'Scored'} with the IKI companion{setup}.",
        "players": players,
    }
    if time.minutes is not None:
        data["durationMin"] = time.minutes
    if result.edition in BOARD_EDITIONS:
        data["board"] = BOARD_SIDES.get(len(players), BOARD_SIDE_OTHERS)
    return data


def bgstats_url(result: Result, time: PlayTime | None = None) -> str:
    """The play as a BG Stats push-play link: :func:`bgstats_data`, URL-encoded."""
    text = json.dumps(bgstats_data(result, time), ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS_PUSH}?data={urlquote(text, safe='')}"


__all__ = [
    "BGSTATS_PLAYER_ID",
    "BGSTATS_PLAY_ID",
    "BGSTATS_PUSH",
    "BGSTATS_SOURCE",
    "bgstats_data",
    "bgstats_play_id",
    "bgstats_player_id",
    "bgstats_url",
    "group_csv",
    "group_json",
    "result_json",
]
