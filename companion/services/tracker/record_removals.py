"""Taking an entry out of a player's record: a removal (the table's mistake, any entry) and a loss in the game
(a character killed by a fire or not fed, a building burnt, a character saved by the Doctor token), and the log's
words for a removal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from companion.errors import Refused
from companion.models.games import Seat
from companion.services.tracker.records import (
    BURNT,
    FIELD_LABELS,
    LOST,
    SPENT,
    UNFED,
    entries,
    name_of,
    take_out,
)
from scoring.catalogue import CHARACTER_BY_ID, RETIREMENT_TOKEN_BY_ID

DOCTOR: Final = "doctor"
"""The Doctor token (RULINGS R29): discarded, a character that would leave the game retires instead."""
DOCTOR_WORDS: Final = " discarded the Doctor token: "
"""The log's words of the Doctor token discarded, between the player and the character (:func:`lose`)."""


def remove(seat: Seat, *, field: str, item: str) -> str:
    """Remove one entry, any of them (not only the last); the markers stay where the table put them."""
    held = entries(seat).get(field, [])
    if item not in held:
        raise Refused("That entry is no longer there: another phone removed it.")
    take_out(seat, field, item)
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
            raise Refused("That entry is no longer there: another phone removed it.")
        if DOCTOR not in entries(seat).get("retirement_tokens", []):
            raise Refused(f"{seat.name} holds no Doctor token.")
        take_out(seat, "retirement_tokens", DOCTOR, SPENT)
        summary = f"{seat.name}{DOCTOR_WORDS}{name_of('characters', item)} retires instead"
        token = CHARACTER_BY_ID[item].retirement_token if item in CHARACTER_BY_ID else None
        if token in RETIREMENT_TOKEN_BY_ID:
            summary += f" (record its token if taken: {name_of('retirement_tokens', str(token))})"
        return summary
    if how not in LOSSES:
        raise Refused("Choose how it was lost.")
    field, into, words = LOSSES[how]
    if item not in entries(seat).get(field, []):
        raise Refused("That entry is no longer there: another phone removed it.")
    take_out(seat, field, item, into)
    return f"{seat.name} " + words.format(what=name_of(field, item))


def lost_from(summary: str, went: Sequence[Sequence[str]]) -> str | None:
    """The player a loss's log line (:func:`lose`) names, read back with what the loss moved (its undo's ``+``:
    where each entry went, and which); None when the line does not read so (cut at the log's length)."""
    for into, item, *_ in went:
        if (into, item) == (SPENT, DOCTOR):
            # The character's name never holds these words.
            holder, found, _ = summary.rpartition(DOCTOR_WORDS)
            return holder if found and holder else None
        for field, where, words in LOSSES.values():
            tail = " " + words.format(what=name_of(field, item))
            if into == where and summary.endswith(tail) and len(summary) > len(tail):
                return summary[: -len(tail)]
    return None
