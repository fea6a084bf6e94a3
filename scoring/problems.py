"""What every game's validator reports (:mod:`scoring.validate` for IKI, :mod:`scoring.osaka.validate` for Traders
of Osaka): problems, each with the game's stable code, the player it concerns (or None), the request field that
caused it and a plain-English message; a report of the errors and the warnings; and how a message lists names.

Each game keeps its own codes, which of them are warnings, and what more its problems say (IKI's severity and
"incomplete", Osaka's ``warning``), as subclasses: a subscripted alias (``Report[Problem]``) cannot build these
frozen, slotted instances.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Self, TypeVar

CodeT = TypeVar("CodeT", bound=StrEnum)
ProblemT = TypeVar("ProblemT", bound="Problem[Any]")


@dataclass(frozen=True, slots=True)
class Problem(Generic[CodeT]):
    code: CodeT
    player: str | None
    field: str
    message: str

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code.value, "player": self.player, "field": self.field, "message": self.message}


@dataclass(frozen=True, slots=True)
class Report(Generic[ProblemT]):
    errors: tuple[ProblemT, ...]
    warnings: tuple[ProblemT, ...]

    @property
    def valid(self) -> bool:
        return not self.errors

    @classmethod
    def of(cls, problems: Iterable[ProblemT], warning_codes: Collection[StrEnum]) -> Self:
        """``problems`` split into errors and warnings (those whose code is one of ``warning_codes``), in order."""
        found = list(problems)
        return cls(
            tuple(p for p in found if p.code not in warning_codes),
            tuple(p for p in found if p.code in warning_codes),
        )


def join(words: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list as a sentence says it ("none" for no words)."""
    items = list(words)
    if len(items) < 2:
        return items[0] if items else "none"
    return ", ".join(items[:-1]) + " and " + items[-1]


__all__ = ["Problem", "Report", "join"]
