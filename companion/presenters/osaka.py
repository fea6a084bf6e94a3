"""What a tracked Traders of Osaka game's page shows (its presenter, issue 15): the game's state as the link
opened sees it (a player's own link shows that player's VP count, RULINGS O6), the log, the payday just played,
the ranking once the game is over. The game's views (companion/views/osaka/) and the table screen
(companion/views/screen.py, always as the view link) both build on it; it imports no view."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import Any, Final

from django.http import HttpRequest
from django.urls import reverse

from companion.live.engine import Pieces
from companion.models.osaka import OsakaEvent, OsakaGame, OsakaSeat
from companion.services.osaka_access import Opened
from companion.services.osaka_log import ENTRY_KINDS
from scoring.osaka.components import COLOURS, END_TOKENS
from scoring.osaka.rules import Ranked, Standing, possible_draws, rank

#: The log's lines on the game page: the last 8 events, one a version (every write adds one), so the last 8
#: versions; live.js keeps the same lines when a write sends its new line alone (``data-live-keep``).
LOG_ON_PAGE: Final = 8
#: The pieces that show the start's line (the partial ``start``).
START_PIECES: Final = frozenset({"start-first", "start-then"})
#: The events that end the search for the payday just played (:func:`latest_payday`): an entry, an undo.
LATEST_STOPS: Final = ENTRY_KINDS | {"undo"}
#: The choices of the first hands' form (companion/views/osaka/forms_games.py ``StartForm``), shown on the page.
TOTALS: Final = sorted({d.total for d in possible_draws()})
CARD_COUNTS: Final = sorted({d.cards for d in possible_draws()})


def token_of(opened: Opened) -> str:
    """The token this phone came with: the links on its pages keep it."""
    if opened.seat is not None:
        return opened.seat.private_token
    return opened.game.edit_token if opened.can_edit else opened.game.view_token


def new_cid() -> str:
    """A client id for a write rendered into a form (a no-JavaScript resubmission carries it again)."""
    return secrets.token_urlsafe(12)


def ranking(seats: list[OsakaSeat]) -> list[tuple[OsakaSeat, Ranked]]:
    ranked = rank([Standing(s.name, s.vp, s.tokens) for s in seats])
    return sorted(zip(seats, ranked, strict=True), key=lambda pair: (pair[1].rank, pair[0].seat))


def latest_payday(events: list[OsakaEvent]) -> OsakaEvent | None:
    """The payday just entered, while it is the latest entry: the table takes its VP cards now (RULINGS O8: the
    payday just played). An undo or a restore after it plays no payday: a payday it leaves the latest again (the
    one before the payday undone) had its VP cards taken already, so it is not shown again."""
    for e in events:
        if e.kind == "undo":
            return None
        if e.kind in ENTRY_KINDS and not e.undone:
            applied = e.kind == "payday" and isinstance(e.result, dict) and e.result.get("applied")
            return e if applied else None
    return None


def state_context(
    request: HttpRequest,
    opened: Opened,
    message: str = "",
    level: str = "",
    *,
    only: Collection[str] | None = None,
    events: list[OsakaEvent] | None = None,
) -> dict[str, Any]:
    """What osaka_game.html shows; ``only``: the named pieces rendered (the start's text is then read only when
    a start piece is among them); ``events``: the last events (:func:`events_of`, at least LOG_ON_PAGE of them),
    read already by a render without a start piece."""
    game = opened.game
    seats = list(game.seats.all())  # a token change's write leaves them (companion.services.osaka._add_token)
    # Without the entries' results (the latest payday's is read alone). The start's line may be further back than
    # the log shows: read further only for a piece that shows it.
    start = only is None or not START_PIECES.isdisjoint(only)
    if events is None or start:
        events = events_of(game, LOG_ON_PAGE * 4 if start else LOG_ON_PAGE)
    latest = latest_payday(events)
    if latest is None and not any(e.kind in LATEST_STOPS for e in events) and len(events) >= LOG_ON_PAGE:
        events = events_of(
            game, LOG_ON_PAGE * 4
        )  # no entry or undo among them: the latest payday may lie further back
        latest = latest_payday(events)
    start_seat = next((s for s in seats if s.seat == game.start_seat), None)
    start_event = next((e for e in events if e.kind == "start" and not e.undone), None)
    me = next((s for s in seats if opened.seat and s.pk == opened.seat.pk), None)
    return {
        "game": game,
        "opened": opened,
        "token": token_of(opened),
        "can_edit": opened.can_edit,
        "me": me,
        "seats": seats,
        "colours": COLOURS,
        "end_tokens": END_TOKENS,
        "start_seat": start_seat,
        "start_text": start_event.summary if start_event and start_seat else "",
        "order": clockwise(seats, start_seat),
        "latest": latest,
        "latest_players": list(zip(seats, latest.result["payday"]["players"], strict=False))
        if latest
        else [],
        "ranking": ranking(seats) if game.finished else [],
        "events": events[:LOG_ON_PAGE],
        "log_on_page": LOG_ON_PAGE,  # the versions the log shows: live.js drops an older line (issue 21)
        "entry_kinds": ENTRY_KINDS,
        "change_url": reverse("osaka-game-change", args=[token_of(opened)]),
        "totals": TOTALS,
        "card_counts": CARD_COUNTS,
        "cid": new_cid(),
        "message": message,
        "level": level,
        # Every render collects its pieces: a nested piece (a refused tap's answer) counts in its parent's digest
        # by its id alone, on the first load as in an answer, so the parent (the start's choices) is not sent again.
        "live_pieces": Pieces(),
    }


def events_of(game: OsakaGame, count: int) -> list[OsakaEvent]:
    """The last ``count`` events, newest first, without their results (the latest payday's is read alone)."""
    return list(OsakaEvent.objects.filter(game_id=game.pk).defer("result")[:count])


def answered_lines(events: Collection[OsakaEvent]) -> frozenset[str]:
    """The log's lines of ``events`` an undo among them undid or restored: the phone that did it was answered
    beside that line (companion/views/osaka/answers.py), so a later write's answer or a pull renders the line
    again, and sends it to that phone alone (the others hold its digest)."""
    targets = (e.data.get("target") for e in events if e.kind == "undo" and isinstance(e.data, dict))
    return frozenset(f"event-{t}" for t in targets if isinstance(t, int))


def clockwise(seats: list[OsakaSeat], first: OsakaSeat | None) -> list[OsakaSeat]:
    if first is None:
        return seats
    i = seats.index(first)
    return seats[i:] + seats[:i]
