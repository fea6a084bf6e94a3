"""The pad check's editions, in one table: the lines each edition's pad has, their labels, and the edition a result
kept from it is filed under (:data:`companion.models.results.EDITIONS`, which names it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from companion.models.results import EDITION_LABELS
from scoring.first_edition import LINE_LABELS_2015, LINES_2015
from scoring.score import AKEBONO_LINES, BASE_LINES, LINE_LABELS

#: What follows a pad's lines: the total and the place.
TOTAL_LABELS: Final = {"total": "Total", "rank": "Place (1 = first)"}
ROW_LABELS: Final = {**LINE_LABELS, **TOTAL_LABELS}
#: The 2015 pad's lines as the table wrote them (RULINGS E1), then the total and the place.
ROW_LABELS_2015: Final = {**LINE_LABELS_2015, **TOTAL_LABELS}


@dataclass(frozen=True, slots=True)
class PadEdition:
    key: str  # the check form's ``edition`` (the 2015 pad has its own page: not a choice there)
    result: str  # the kept result's edition
    lines: tuple[str, ...]
    labels: Mapping[str, str]
    choice: bool = True

    @property
    def label(self) -> str:
        return EDITION_LABELS[self.result]


PAD_EDITIONS: Final = {
    e.key: e
    for e in (
        PadEdition("base", "iki", tuple(BASE_LINES), ROW_LABELS),
        PadEdition("akebono", "iki-akebono", tuple(AKEBONO_LINES), ROW_LABELS),
        PadEdition("2015", "iki-2015", tuple(LINES_2015), ROW_LABELS_2015, choice=False),
    )
}
