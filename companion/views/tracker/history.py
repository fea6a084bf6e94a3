"""The tracked game's short history and its Undo (issue 23): each line names who did what, and any line still
standing can be undone (another phone's after a confirmation: companion.services.tracker.undo.undo_target); an
entry removed from a player's record keeps its place as a "Removed · Undo" line, so nothing below it moves."""

from __future__ import annotations

import re
from typing import Any, Final
from urllib.parse import urlencode

from django import forms
from django.http import HttpRequest

from companion.models.games import SUMMARY_MAX, Change, Game
from companion.presenters.tracker.state import WHO_DEFAULT
from companion.services.tracker import new_year, record_removals, records
from companion.services.tracker.ops import TITLE, WHOM, revealed_names, step_name, tick_title
from companion.services.tracker.undo import UNDID, UNDID_LINE
from scoring.calendar import Phase, next_step

HISTORY: Final = "history"
"""The ``field`` an Undo of the history posts, and the answer slot it is answered in (``answer-history``)."""
UNDOABLE_ANSWERS: Final = frozenset({"record-add"})
"""The changes whose answer beside the form tapped carries the Undo of what was just done (the live path); the
htmx and plain-form answer at the top of the state carries it for every change that can be undone."""
_RECORD_SLOT = re.compile(r"record-[1-4]")


def undo_slot(field: str) -> str | None:
    """The answer slot of an Undo posted from the history (``history``) or from a removed entry's line
    (``record-<seat>``); None for any other."""
    return field if field == HISTORY or _RECORD_SLOT.fullmatch(field) else None


def said_of(change: Change) -> str:
    """What the answer to a change says, in the log's own words (issue 23: every answer says who did what):
    "Saved: +3 IKI for Ben (now 7)."; a change whose log line does not name the one who made it (the next step, a
    setup tick, a removal, an undo) or names another player (a loss, the resources) names the phone's player
    (:func:`done_by`). A phone that signs as nobody is answered the log's line: an undo's "Undid: …"."""
    by = done_by(change)
    if by is None and change.op == "undo":
        return f"{change.summary}."
    return f"Saved: {by or change.summary}."


def done_by(change: Change) -> str | None:
    """Who did what, for a change whose log line names what but not who (issue 23): "Ben moved the game on to
    month 1, Phase B · Actions", "Ben revealed the New Character of month 2 and moved the game on to …",
    "Ben ticked “Main board”", "Ben removed Monk (characters) from Chie's record", "Ben undid “+3 IKI for Chie
    (now 3)”"; or names the player it happened to, not the phone's: "Chie hired Monk …, recorded by Ben",
    "Chie lost Monk in a fire, recorded by Ben", "Chie's resources: …, recorded by Ben" (:func:`_recorded_by`). None
    for the others (their line names the player), for a phone that signs as nobody (the log's line as it is), and
    for a change whose data does not say where the table went.

    Whom, the step's title and the line undone are read from the facts the change stored when it was written
    (ops.WHOM, ops.TITLE, undo.UNDID_LINE); a change saved before it stored them is read from its log line."""
    if change.who == WHO_DEFAULT:
        return None
    data = change.undo if isinstance(change.undo, dict) else {}
    if change.op == "undo":
        undid = _fact(data, UNDID_LINE) or _cut(change.summary, UNDID)
        return f"{change.who} undid “{undid}”" if undid else None
    if change.op in ("lost", "resources", "record-add"):
        return _recorded_by(change.who, change.op, change.summary, data)
    if change.op in ("tick", "untick"):
        verb = f"{change.op}ed"
        return f"{change.who} {verb} “{_fact(data, TITLE) or tick_title(change.summary, verb)}”"
    if change.op == "record-remove":
        return _removed_by(change.who, change.summary, data)
    if change.op not in ("next", "reveal-next"):
        return None
    moved = _moved_on(data.get("game"))
    if moved is None:
        return None
    shown = data.get("revealed") or []
    keys = [shown] if isinstance(shown, str) else [str(k) for k in shown]
    names = revealed_names(keys) if len(revealed_names(keys)) <= SUMMARY_MAX else f"the {len(keys)} draws due"
    return f"{change.who} {f'revealed {names} and ' if keys else ''}{moved}"


def _fact(data: dict[str, Any], key: str) -> str | None:
    """A fact the change stored when it was written (issue 23); None for a change saved before, or a value that
    is not a name."""
    value = data.get(key)
    return value if isinstance(value, str) and value else None


def _cut(summary: str, head: str) -> str | None:
    """What follows ``head`` in a log line that starts with it; None otherwise."""
    rest = summary.removeprefix(head)
    return rest if rest != summary else None


def _removed_by(who: str, summary: str, data: dict[str, Any]) -> str | None:
    """ "Ben removed Monk (characters) from Chie's record", from a removal's data (where the entry stood, whom it
    was taken from; an older removal's log line names whom)."""
    at = data.get("at")
    if not (isinstance(at, list) and len(at) == 3 and at[0] in records.FIELD_LABELS):
        return None
    field, item = str(at[0]), str(at[1])
    holder = _fact(data, WHOM) or record_removals.removed_from(summary, field, item)
    return (
        None
        if holder is None
        else f"{who} removed {record_removals.removed_what(field, item)} from {holder}'s record"
    )


def _recorded_by(who: str, op: str, summary: str, data: dict[str, Any]) -> str | None:
    """A record, a loss or the resources recorded by another player's phone: "Chie hired Monk, recorded by Ben",
    "Chie lost Monk in a fire, recorded by Ben", "Chie's resources: 7 mon, 0 koban, 0 wood, recorded by Ben"; None
    when the player is the phone's own (the line says who already), or when the change stored no player and its
    line does not read as the op's (the log's words then; a record saved before it stored its player)."""
    holder = _fact(data, WHOM)
    if holder is None and op == "resources":
        holder = new_year.resources_of(summary)
    elif holder is None and op == "lost":
        delta = data.get("delta")
        went = delta.get("+") if isinstance(delta, dict) else None
        moved = [[str(x) for x in e[:2]] for e in went or [] if isinstance(e, list) and len(e) >= 2]
        holder = record_removals.lost_from(summary, moved) if isinstance(went, list) else None
    if holder is None or holder == who:
        return None
    # What was recorded first, the phone's player last: a record's answer shows two lines, so a long one loses the
    # least of what it says where it is cut.
    return f"{summary}, recorded by {who}"


def _moved_on(before: object) -> str | None:
    """Where "Next" moved the game from the step ``before`` it (the change's undo data): "moved the game on to
    month 2, Phase A · Way of Life", "ended the game"; None when the data does not say."""
    if not isinstance(before, dict):
        return None
    try:
        step = next_step(int(before["month"]), Phase(before["phase"]))
    except (KeyError, TypeError, ValueError):
        return None
    if step is None:
        return "ended the game"
    return f"moved the game on to {step_name(*step)}"


def answered_url(game: Game, at: str = "") -> str:
    """Where a plain form's write sends the phone back (issue 23): the game page saying what the change of this
    version did (``did``), beside the control it was made with (``at``, its answer slot: the page opens there)
    or, with no slot, at the top of the state; its Undo with it (see said_on_page)."""
    query = {"did": game.version} | ({"at": at} if at else {})
    return f"{game.edit_url()}?{urlencode(query)}#{f'answer-{at}' if at else 'state-msg'}"


class DidForm(forms.Form):
    """The game page's query after a plain form's write (:func:`answered_url`)."""

    did = forms.IntegerField(min_value=1, max_value=10**9)
    at = forms.RegexField(r"^[a-z0-9_-]{1,40}$", required=False)


def said_on_page(request: HttpRequest, game: Game, can_edit: bool) -> dict[str, Any] | None:
    """What the page says after a plain form's write (``?did=V&at=slot``): the answer the live script would have
    shown, beside the control tapped (``at``), with its Undo on the edit link (see games.html ``state-msg``); {}
    when the query names none; None when it is malformed (400)."""
    if "did" not in request.GET:
        return {}
    query = DidForm(request.GET)
    if not query.is_valid():
        return None
    change = game.changes.filter(version=query.cleaned_data["did"]).first()
    if change is None or change.op == "create":
        return {}
    at = query.cleaned_data["at"] or ""
    if change.op == "undo":
        return {"message": said_of(change), "level": "ok", "answer_at": at}
    standing = can_edit and not change.undone
    return {
        "message": said_of(change) + ("" if not change.undone else " It has been undone since."),
        "level": "ok",
        "undo_entry": change.version if standing else None,
        "answer_at": at,
    }
