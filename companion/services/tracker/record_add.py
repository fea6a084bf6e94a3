"""Adding an entry to a player's record (issue 13, item 5; issue 19, "The tracker's record"), with the same rules
as the scoring: an entry beyond its component's supply is refused or, when one other player holds it, a
:class:`~companion.services.tracker.records.Question` asks whether to move it; a token a cost spends (RULINGS R25:
the Pub's fish, the Storyteller's Theater's pipe, the pipe of the Carrying ship's side B or the Mounted Samurai)
leaves the player's tokens; printed immediate IKI (RULINGS R29) moves the score track.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from companion.errors import Refused
from companion.models.games import SCORE_MAX, Seat
from companion.services.tracker.records import (
    FIELD_LABELS,
    SPENT,
    TOKEN_FIELDS,
    Question,
    entries,
    field_of,
    name_of,
    supply_of,
    take_out,
    takers,
)
from scoring.calendar import NEW_YEAR, TRACK_MAX, move_marker, new_character_reveal, season_shown
from scoring.catalogue import CHARACTER_BY_ID, FIREFIGHTING_GAIN, PERSONALITY_BY_ID, STARTING_IDS, TRADE_GAIN
from scoring.components import SEASONS, Season

SPEND_PIPE: Final = "spend-pipe"
"""The record kind of an activation that spends a pipe (RULINGS R25): its item is what was activated."""
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


NOT_IN_PLAY: Final = "That card is not in play yet."
"""What a record of a card the table cannot have seen yet answers: the same words whichever card, so the answer
tells nothing of the hidden draws (:func:`_seen`)."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """What an entry did: the log's sentence, whether it deserves a warning, other seats it changed."""

    summary: str
    warning: bool = False
    others: tuple[Seat, ...] = ()


def _seen(field: str, item: str, *, month: int, revealed: Collection[str], setup: Mapping[str, Any]) -> bool:
    """Whether the table can have seen ``item`` by ``month`` (Akebono, RULINGS R18: a later season's Personalities
    and each month's New Character stay hidden until revealed): a Personality once its season's are revealed
    (Spring's are out from the setup; the Ferry's side B meets one of the current season, RULINGS R13, so revealed
    too), a New Character once its month's is. Where the setup gives no such draw (nothing to reveal), once its
    season or month is reached. Every other card is in play from the start.

    The drawn card and the others of its season or month answer alike (:data:`NOT_IN_PLAY`), so neither the
    answer nor the validator's flag on a record (not on the bridge, not in this game) tells which was drawn."""
    drawn = setup.get("akebono") or {}
    drawn = drawn if isinstance(drawn, Mapping) else {}
    if field == "personalities":
        season = PERSONALITY_BY_ID[item].season
        if season_shown(season, revealed):
            return True
        reached = SEASONS.index(season) <= SEASONS.index(Season.of_month(min(month, NEW_YEAR - 1)))
        return reached and not (drawn.get("personalities") or {}).get(season.value)
    card = CHARACTER_BY_ID.get(item) if field == "characters" else None
    if card is None or not card.new_character or card.month is None:
        return True
    if new_character_reveal(card.month) in revealed:
        return True
    return card.month <= month and not (drawn.get("new_characters") or {}).get(str(card.month))


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
        raise Refused(
            f"All {supply} {what} tokens are taken ({', '.join(s.name for s, _ in taken)}): there are no more."
        )
    holder, place = taken[0]
    if gone:
        raise Refused(f"{what} left the game ({holder.name}: {FIELD_LABELS[place].lower()}).")
    if holder is seat or holder.seat == seat.seat:
        raise Refused(f"{seat.name} already holds {what}: there is only one.")
    if not move:
        raise Question(
            f"{holder.name} holds {what}: there is only one. Move it to {seat.name}?",
            [(f"Move it to {seat.name}", {"move": "1"})],
        )
    take_out(holder, field, item)
    return holder


def _pay(seat: Seat, item: str, paid: str, answers: Mapping[str, str]) -> str:
    """RULINGS R25: the token a cost takes, the player's choice; asked when not given. Returns what paid."""
    field, question = COSTS[item]
    held = list(dict.fromkeys(entries(seat).get(field, [])))
    kind = {"fish": "fish", "pipes": "pipe"}[field]
    if not held:
        raise Refused(f"{seat.name} holds no {kind}: record the {kind} first, it pays for this.")
    if not paid and len(held) == 1:
        paid = held[0]
    if not paid:
        choices = [(name_of(field, t), {**answers, "paid": t}) for t in held]
        raise Question(question.format(name=seat.name), choices)
    if paid not in held:
        raise Refused(f"{seat.name} holds no such {kind}: choose one of their {field}.")
    take_out(seat, field, paid, SPENT)
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
        raise Refused("Choose what spent the pipe.")
    _, what, iki = PIPE_SPENDERS[item]
    if item == "carrying-ship":
        if not any("carrying-ship" in entries(s).get("boats", []) for s in seats):
            raise Refused("Nobody has built the Carrying ship: record it first.")
        side = ((setup.get("akebono") or {}).get("boat_sides") or {}).get("carrying-ship")
        if side == "A":
            raise Refused("The Carrying ship is on side A in this game: it spends a sandal, not a pipe.")
    elif item not in entries(seat).get("characters", []):
        raise Refused(f"{seat.name} has not hired the Mounted Samurai: record the hire first.")
    held = list(dict.fromkeys(entries(seat).get("pipes", [])))
    if not held:
        raise Refused(f"{seat.name} holds no pipe: record the pipe first.")
    if not paid and len(held) > 1:
        raise Question(
            f"Which pipe did {seat.name} spend?", [(name_of("pipes", t), {"paid": t}) for t in held]
        )
    paid = paid or held[0]
    if paid not in held:
        raise Refused(f"{seat.name} holds no such pipe: choose one of their pipes.")
    take_out(seat, "pipes", paid, SPENT)
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
    month: int = 1,
    revealed: Collection[str] = (),
    paid: str = "",
    move: bool = False,
) -> Recorded:
    """Record ``item``; a hire (or a pipe) moves the firefighting and trade markers by its printed gains
    (catalogue FIREFIGHTING_GAIN/TRADE_GAIN, RULINGS R13); a starting character is drafted, not hired: no gain.
    Nothing beyond its supply (RULINGS R1, R22); a cost's token leaves (R25); immediate IKI is scored (R29);
    nothing the table cannot have seen by ``month`` with the draws ``revealed`` (R18, :func:`_seen`).
    ``paid``/``move``: the answers to a :class:`Question` asked before."""
    if kind == SPEND_PIPE:
        return _spend_pipe(seat, seats, item, paid, setup or {})
    field = field_of(kind, item)
    if akebono and not _seen(field, item, month=month, revealed=revealed, setup=setup or {}):
        raise Refused(NOT_IN_PLAY)
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
        "retirement_tokens": "took the token",
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
