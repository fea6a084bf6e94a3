"""What a tracked game recorded of each player (issue 13, item 5): cards hired, tokens bought, buildings, boats,
personalities met, retirements, what left the game (characters lost in a fire or not fed, buildings burnt, tokens
spent), and the resources at the end.

Kept on the seat as the scoring table's own fields (``scoring.table.LIST_FIELDS`` and the resources), so "Score
the game" hands them to the walk-through as they are. Each entry is checked against the catalogue when it is made
(an id of the wrong kind is refused) and the whole table goes through the rules validator on every render: an
entry the rules refuse is kept and flagged, as the walk-through does, so the order of entries never deadlocks.

The same rules as the scoring (issue 19, "The tracker's record"): an entry beyond its component's supply is
refused or, when one other player holds it, a :class:`Question` asks whether to move it; a token a cost spends
(RULINGS R25: the Pub's fish, the Storyteller's Theater's pipe, the pipe of the Carrying ship's side B or the
Mounted Samurai) leaves the player's tokens; printed immediate IKI (RULINGS R29) moves the score track.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from companion.errors import UserError
from companion.models.games import SCORE_MAX, Seat
from scoring.calendar import TRACK_MAX, move_marker
from scoring.catalogue import (
    BOAT_BY_ID,
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    FIREFIGHTING_GAIN,
    PERSONALITY_BY_ID,
    RETIREMENT_TOKEN_BY_ID,
    STARTING_IDS,
    TOKEN_BY_ID,
    TRADE_GAIN,
)
from scoring.table import LIST_FIELDS

RESOURCES: Final = ("mon", "koban", "wood", "rice", "sandals")
RESOURCE_MAX: Final = 999
LOST: Final = "lost"
"""Characters killed by a fire: kept apart from ``characters`` (they score nothing), shown in the record."""
UNFED: Final = "unfed"
"""Characters that could not be fed at a Payday and left the game (RULINGS R26): they score nothing."""
BURNT: Final = "burnt"
"""Buildings destroyed by a fire (iki-rulebook.txt "Construction site": "remove the Building card from the
game"): they score nothing and cannot be built again."""
SPENT: Final = "spent"
"""Tokens a cost took out (RULINGS R25) and discarded Doctor tokens (RULINGS R29): out of the player's tokens."""
LEFT_FIELDS: Final = (LOST, UNFED, BURNT, SPENT)
"""What left the game: shown in the record, never scored, still taken from the supply."""
SPEND_PIPE: Final = "spend-pipe"
"""The record kind of an activation that spends a pipe (RULINGS R25): its item is what was activated."""
TOKEN_FIELDS: Final = {"fish": "fish", "pipe": "pipes", "tobacco": "tobacco"}
FIELD_LABELS: Final = {
    "characters": "Characters",
    "retirement_tokens": "Retirement tokens",
    "fish": "Fish",
    "pipes": "Pipes",
    "tobacco": "Tobacco",
    "buildings": "Buildings",
    "boats": "Boats",
    "personalities": "Personalities met",
    LOST: "Lost in a fire",
    UNFED: "Lost (not fed)",
    BURNT: "Burnt in a fire",
    SPENT: "Spent",
}
_NAMES: Final[Mapping[str, Mapping[str, Any]]] = {
    "characters": CHARACTER_BY_ID,
    "retirement_tokens": RETIREMENT_TOKEN_BY_ID,
    "fish": TOKEN_BY_ID,
    "pipes": TOKEN_BY_ID,
    "tobacco": TOKEN_BY_ID,
    "buildings": BUILDING_BY_ID,
    "boats": BOAT_BY_ID,
    "personalities": PERSONALITY_BY_ID,
    LOST: CHARACTER_BY_ID,
    UNFED: CHARACTER_BY_ID,
    BURNT: BUILDING_BY_ID,
    SPENT: {**TOKEN_BY_ID, **RETIREMENT_TOKEN_BY_ID},
}
LEFT_FROM: Final[Mapping[str, tuple[str, ...]]] = {
    "characters": (LOST, UNFED),
    "buildings": (BURNT,),
    "fish": (SPENT,),
    "pipes": (SPENT,),
    "tobacco": (SPENT,),
    "retirement_tokens": (SPENT,),
}
"""Where an entry of a list field goes when it leaves the game: one copy of a component, held or gone."""
COSTS: Final[Mapping[str, tuple[str, str]]] = {
    "pub-izakaya": ("fish", "{name}: which fish paid for the Pub?"),
    "storytellers-theater": ("pipes", "{name}: which pipe paid for the Storyteller's Theater?"),
}
"""RULINGS R25: the buildings whose cost takes a token (Pub: "1 wood + 1 rice + 1 Fish token"; Storyteller's
Theater: "1 Pipe token + 1 koban"), the record field it comes from and the question asked."""
PIPE_SPENDERS: Final[Mapping[str, tuple[str, str, int]]] = {
    "carrying-ship": ("Carrying ship (side B)", "the Carrying ship", 0),
    "mounted-samurai": ("Mounted Samurai (+6 IKI)", "the Mounted Samurai", 6),
}
"""RULINGS R25: what spends a pipe when activated (the Carrying ship's side B "Spend 1 Pipe to gain 1 Koban", the
Mounted Samurai's "Spend 1 Pipe to gain 6 IKI"): its picker label, its name in the log, the IKI it gains."""
IMMEDIATE_IKI: Final[Mapping[str, int]] = {
    "fish-summer-akebono": 4,
    "fish-autumn-akebono": 5,
    "rice-broker": 2,
    "philipp-franz-von-siebold": -4,
}
"""RULINGS R29, the listed cases: immediate IKI a recorded entry puts on the score track (the Akebono summer and
autumn fish, the Rice Broker's hiring bonus, Siebold's "Lose 4 IKI" when met)."""
WATCHTOWER: Final = ("fire-watchtower", 3)
"""RULINGS R29: the Fire Watchtower's owner gains 3 IKI on recruiting a character whose hiring bonus moves the
firefighting marker up (Appendix 2, "Ongoing ability")."""
DOCTOR: Final = "doctor"
"""The Doctor token (RULINGS R29): discarded, a character that would leave the game retires instead."""


class RecordRefused(UserError):
    """An entry that names no component of its kind; the message is for a person. Nothing was changed."""


class Question(Exception):
    """An entry that needs one more answer (which token paid, whether to move a component held by another
    player): nothing was changed. ``choices``: (button label, the form fields that answer with it)."""

    def __init__(self, text: str, choices: Sequence[tuple[str, Mapping[str, str]]]) -> None:
        super().__init__(text)
        self.text = text
        self.choices = [(label, dict(fields)) for label, fields in choices]


@dataclass(frozen=True, slots=True)
class Recorded:
    """What an entry did: the log's sentence, whether it deserves a warning, other seats it changed."""

    summary: str
    warning: bool = False
    others: tuple[Seat, ...] = ()


def field_of(kind: str, item: str) -> str:
    """The record field an entry of ``kind`` (a form's ``field``: a list field, or ``tokens`` for fish, pipes and
    tobacco, which the token's printed kind decides) goes to; RecordRefused if ``item`` is not of that kind."""
    if kind == "tokens":
        token = TOKEN_BY_ID.get(item)
        if token is None:
            raise RecordRefused("Choose a fish, pipe or tobacco token.")
        return TOKEN_FIELDS[token.kind.value]
    names = _NAMES.get(kind) if kind in LIST_FIELDS else None
    if names is None:
        raise RecordRefused("Choose what to record.")
    if item not in names or (
        kind in TOKEN_FIELDS.values() and TOKEN_FIELDS[TOKEN_BY_ID[item].kind.value] != kind
    ):
        raise RecordRefused(f"Choose one of the {FIELD_LABELS[kind].lower()}.")
    return kind


def name_of(field: str, item: str) -> str:
    found = _NAMES[field].get(item)
    return str(found.name) if found is not None else item


def entries(seat: Seat) -> dict[str, list[str]]:
    record = seat.record if isinstance(seat.record, dict) else {}
    return {f: [str(i) for i in record.get(f, [])] for f in (*LIST_FIELDS, *LEFT_FIELDS) if record.get(f)}


def supply_of(field: str, item: str) -> int:
    """How many of a component exist (RULINGS R1): two of some retirement tokens, one of everything else."""
    token = RETIREMENT_TOKEN_BY_ID.get(item) if field == "retirement_tokens" else None
    return token.supply if token is not None else 1


def takers(seats: Sequence[Seat], field: str, item: str) -> list[tuple[Seat, str]]:
    """Every copy of ``item`` the table took, held or gone (lost, burnt, spent): (seat, the field it is in)."""
    places = (field, *LEFT_FROM.get(field, ()))
    return [(s, f) for s in seats for f in places for i in entries(s).get(f, []) if i == item]


def available(seats: Sequence[Seat], field: str, item: str) -> bool:
    """Whether one more ``item`` can be recorded: what a picker offers."""
    return len(takers(seats, field, item)) < supply_of(field, item)


def _take(seat: Seat, field: str, item: str, into: str = "") -> None:
    """Take one ``item`` out of the seat's ``field`` (into ``into``, a field of what left, when given)."""
    record = dict(seat.record)
    rest = list(record.get(field, []))
    rest.remove(item)
    record[field] = rest
    if into:
        record[into] = [*record.get(into, []), item]
    seat.record = record


def _supply_check(seat: Seat, seats: Sequence[Seat], field: str, item: str, move: bool) -> Seat | None:
    """RULINGS R1/R22: nothing beyond its supply. Refuses, or asks to move the one copy another player holds;
    with ``move`` takes it from that player and returns them."""
    taken = takers(seats, field, item)
    supply = supply_of(field, item)
    if len(taken) < supply:
        return None
    what = name_of(field, item)
    gone = [(s, f) for s, f in taken if f != field]
    if supply > 1:
        raise RecordRefused(
            f"All {supply} {what} tokens are taken ({', '.join(s.name for s, _ in taken)}): there are no more."
        )
    holder, place = taken[0]
    if gone:
        raise RecordRefused(f"{what} left the game ({holder.name}: {FIELD_LABELS[place].lower()}).")
    if holder is seat or holder.seat == seat.seat:
        raise RecordRefused(f"{seat.name} already holds {what}: there is only one.")
    if not move:
        raise Question(
            f"{holder.name} holds {what}: there is only one. Move it to {seat.name}?",
            [(f"Move it to {seat.name}", {"move": "1"})],
        )
    _take(holder, field, item)
    return holder


def _pay(seat: Seat, item: str, paid: str, answers: Mapping[str, str]) -> str:
    """RULINGS R25: the token a cost takes, the player's choice; asked when not given. Returns what paid."""
    field, question = COSTS[item]
    held = list(dict.fromkeys(entries(seat).get(field, [])))
    kind = {"fish": "fish", "pipes": "pipe"}[field]
    if not held:
        raise RecordRefused(f"{seat.name} holds no {kind}: record the {kind} first, it pays for this.")
    if not paid and len(held) == 1:
        paid = held[0]
    if not paid:
        choices = [(name_of(field, t), {**answers, "paid": t}) for t in held]
        raise Question(question.format(name=seat.name), choices)
    if paid not in held:
        raise RecordRefused(f"{seat.name} holds no such {kind}: choose one of their {field}.")
    _take(seat, field, paid, SPENT)
    return name_of(field, paid)


def _score(seat: Seat, iki: int) -> tuple[str, bool]:
    """Immediate IKI on the score track (RULINGS R29): the words for the answer, and whether it went below 0."""
    if not iki:
        return "", False
    short = seat.score + iki < 0
    had = seat.score
    seat.score = max(0, min(SCORE_MAX, seat.score + iki))
    words = f"{'+' if iki > 0 else '−'}{abs(iki)} IKI, now {seat.score}"
    if short:
        words += f"; {seat.name} had only {had}: check the score track"
    return words, short


def pipe_spenders(seats: Sequence[Seat], setup: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What the table can activate spending a pipe, (id, label): the Carrying ship once built, unless on side A;
    the Mounted Samurai once hired (so no picker names month 12's New Character before it is out, issue 20)."""
    side = ((setup.get("akebono") or {}).get("boat_sides") or {}).get("carrying-ship")
    held = {(f, i) for s in seats for f, items in entries(s).items() for i in items}
    usable = {
        "carrying-ship": side != "A" and ("boats", "carrying-ship") in held,
        "mounted-samurai": ("characters", "mounted-samurai") in held,
    }
    return [(k, label) for k, (label, _, _) in PIPE_SPENDERS.items() if usable[k]]


def _spend_pipe(
    seat: Seat, seats: Sequence[Seat], item: str, paid: str, setup: Mapping[str, Any]
) -> Recorded:
    """RULINGS R25: an activation that spends a pipe (the Carrying ship's side B, any player may activate a built
    boat; the Mounted Samurai, its owner), with the Samurai's +6 IKI."""
    if item not in PIPE_SPENDERS:
        raise RecordRefused("Choose what spent the pipe.")
    _, what, iki = PIPE_SPENDERS[item]
    if item == "carrying-ship":
        if not any("carrying-ship" in entries(s).get("boats", []) for s in seats):
            raise RecordRefused("Nobody has built the Carrying ship: record it first.")
        side = ((setup.get("akebono") or {}).get("boat_sides") or {}).get("carrying-ship")
        if side == "A":
            raise RecordRefused(
                "The Carrying ship is on side A in this game: it spends a sandal, not a pipe."
            )
    elif item not in entries(seat).get("characters", []):
        raise RecordRefused(f"{seat.name} has not hired the Mounted Samurai: record the hire first.")
    held = list(dict.fromkeys(entries(seat).get("pipes", [])))
    if not held:
        raise RecordRefused(f"{seat.name} holds no pipe: record the pipe first.")
    if not paid and len(held) > 1:
        raise Question(
            f"Which pipe did {seat.name} spend?", [(name_of("pipes", t), {"paid": t}) for t in held]
        )
    paid = paid or held[0]
    if paid not in held:
        raise RecordRefused(f"{seat.name} holds no such pipe: choose one of their pipes.")
    _take(seat, "pipes", paid, SPENT)
    words, short = _score(seat, iki)
    summary = f"{seat.name} spent {name_of('pipes', paid)} on {what}" + (f" ({words})" if words else "")
    return Recorded(summary, short)


def add(
    seat: Seat,
    seats: Sequence[Seat],
    *,
    kind: str,
    item: str,
    akebono: bool,
    setup: Mapping[str, Any] | None = None,
    paid: str = "",
    move: bool = False,
) -> Recorded:
    """Record ``item``; a hire (or a pipe) moves the firefighting and trade markers by its printed gains
    (catalogue FIREFIGHTING_GAIN/TRADE_GAIN, RULINGS R13); a starting character is drafted, not hired: no gain.
    Nothing beyond its supply (RULINGS R1, R22); a cost's token leaves (R25); immediate IKI is scored (R29).
    ``paid``/``move``: the answers to a :class:`Question` asked before."""
    if kind == SPEND_PIPE:
        return _spend_pipe(seat, seats, item, paid, setup or {})
    field = field_of(kind, item)
    other = _supply_check(seat, seats, field, item, move)
    answers = {"move": "1"} if move else {}
    spent = _pay(seat, item, paid, answers) if field == "buildings" and item in COSTS else ""
    record = dict(seat.record) if isinstance(seat.record, dict) else {}
    record[field] = [*record.get(field, []), item]
    seat.record = record
    what = name_of(field, item)
    moved = []
    hired = field == "characters" and item not in STARTING_IDS
    bought = hired or field in TOKEN_FIELDS.values()
    gain = FIREFIGHTING_GAIN.get(item, 0) if bought else 0
    if gain:
        target = min(TRACK_MAX, seat.firefighting + gain)
        markers = {m.seat: m for m in move_marker([x.marker for x in seats], seat.seat, target)}
        seat.firefighting, seat.stack = markers[seat.seat].position, markers[seat.seat].stack
        moved.append(f"firefighting {seat.firefighting}")
    trade = TRADE_GAIN.get(item, 0) if akebono and bought else 0
    if trade:
        seat.trade = min(TRACK_MAX, seat.trade + trade)
        moved.append(f"trade {seat.trade}")
    iki = IMMEDIATE_IKI.get(item, 0) if hired or field in ("fish", "personalities") else 0
    if hired and gain and WATCHTOWER[0] in entries(seat).get("buildings", []):
        iki += WATCHTOWER[1]
    words, short = _score(seat, iki)
    verb = {
        "characters": "hired" if item not in STARTING_IDS else "drafted",
        "retirement_tokens": "retired for",
        "buildings": "built",
        "boats": "built",
        "personalities": "met",
    }.get(field, "bought")
    summary = f"{seat.name} {verb} {what}"
    if spent:
        summary += f", paid with {spent}"
    if other is not None:
        summary += f" (moved from {other.name})"
    details = [*([words] if words else []), *(["now " + ", ".join(moved)] if moved else [])]
    if details:
        summary += f" ({'; '.join(details)})"
    return Recorded(summary, short, () if other is None else (other,))


def remove(seat: Seat, *, field: str, item: str) -> str:
    """Remove one entry, any of them (not only the last); the markers stay where the table put them."""
    held = entries(seat).get(field, [])
    if item not in held:
        raise RecordRefused("That entry is no longer there: another phone removed it.")
    _take(seat, field, item)
    return f"Removed from {seat.name}: {removed_what(field, item)}"


def removed_what(field: str, item: str) -> str:
    """The entry a removal's log line names ("Monk (characters)")."""
    return f"{name_of(field, item)} ({FIELD_LABELS[field].lower()})"


def removed_from(summary: str, field: str, item: str) -> str | None:
    """The player a removal's log line (:func:`remove`) took the entry from; None when the line does not read so."""
    head, tail = "Removed from ", f": {removed_what(field, item)}"
    if not (summary.startswith(head) and summary.endswith(tail)) or len(summary) <= len(head) + len(tail):
        return None
    return summary[len(head) : -len(tail)]


LOSSES: Final[Mapping[str, tuple[str, str, str]]] = {
    "fire": ("characters", LOST, "lost {what} in a fire"),
    "unfed": ("characters", UNFED, "lost {what} (not fed)"),
    "burnt": ("buildings", BURNT, "lost {what}: burnt in a fire"),
}
"""How a player loses an entry (RULINGS R26, R29): the field it leaves, where it goes, the log's words."""


def lose(seat: Seat, *, item: str, how: str = "fire") -> str:
    """A character killed by a fire or not fed, a building burnt: it leaves the player's entries and scores
    nothing; a character's printed gains still count toward the firefighting floor (RULINGS R26). ``how`` =
    ``doctor``: the Doctor token is discarded and the character retires instead (RULINGS R29)."""
    if how == DOCTOR:
        if item not in entries(seat).get("characters", []):
            raise RecordRefused("That entry is no longer there: another phone removed it.")
        if DOCTOR not in entries(seat).get("retirement_tokens", []):
            raise RecordRefused(f"{seat.name} holds no Doctor token.")
        _take(seat, "retirement_tokens", DOCTOR, SPENT)
        summary = f"{seat.name} discarded the Doctor token: {name_of('characters', item)} retires instead"
        token = CHARACTER_BY_ID[item].retirement_token if item in CHARACTER_BY_ID else None
        if token in RETIREMENT_TOKEN_BY_ID:
            summary += f" (record its token if taken: {name_of('retirement_tokens', str(token))})"
        return summary
    if how not in LOSSES:
        raise RecordRefused("Choose how it was lost.")
    field, into, words = LOSSES[how]
    if item not in entries(seat).get(field, []):
        raise RecordRefused("That entry is no longer there: another phone removed it.")
    _take(seat, field, item, into)
    return f"{seat.name} " + words.format(what=name_of(field, item))


def scoring_fields(seat: Seat) -> dict[str, Any]:
    """The seat's record as the scoring table's player fields (LIST_FIELDS and the resources)."""
    record = seat.record if isinstance(seat.record, dict) else {}
    fields: dict[str, Any] = {f: list(v) for f, v in entries(seat).items() if f not in LEFT_FIELDS}
    fields.update({k: record[k] for k in RESOURCES if isinstance(record.get(k), int)})
    return fields
