"""The Traders of Osaka validator: every problem of a payday or a ranking at once, as IKI's (scoring.validate).

Each problem has a stable code, the player it concerns (or None), the request field that caused it and a
plain-English message citing the rulebook or RULINGS O1-O6. A payday is played, and a ranking answered, only
when there is no error; warnings come with the answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from scoring.osaka.components import (
    CARDS_PER_COLOUR,
    COLOURS,
    COPIES,
    END_TOKENS,
    ICONS,
    TOKENS_PER_COLOUR,
    ByColour,
)
from scoring.osaka.rules import Moment, PaydayResult, Standing, remove, total
from scoring.problems import Problem as BaseProblem
from scoring.problems import Report as BaseReport
from scoring.problems import join


class Code(StrEnum):
    """Stable problem codes: errors first, then warnings."""

    ARRIVING_AND_SINKING = "arriving-and-sinking"
    OVER_SUPPLY = "over-supply"
    INSURED_NOT_HELD = "insured-not-held"
    INSURANCE_NOT_SINKING = "insurance-not-sinking"
    INSURANCE_WITHOUT_ICONS = "insurance-without-icons"
    GAME_ALREADY_OVER = "game-already-over"
    NEGATIVE = "negative-number"
    #: RULINGS O7: a ninth achievement token is impossible (an error since 2026-11-25, a warning before).
    TOKENS_PAST_END = "tokens-past-end"
    # warnings
    SPARE_INSURANCE = "spare-insurance"
    TOKEN_SUBSTITUTE = "token-substitute"
    NOT_ENDED = "not-ended"


WARNING_CODES: Final = frozenset({Code.SPARE_INSURANCE, Code.TOKEN_SUBSTITUTE, Code.NOT_ENDED})


@dataclass(frozen=True, slots=True)
class Problem(BaseProblem[Code]):
    @property
    def warning(self) -> bool:
        return self.code in WARNING_CODES


@dataclass(frozen=True, slots=True)
class Report(BaseReport[Problem]):
    """A payday's or a ranking's errors and warnings (rulebook, RULINGS O1-O6)."""


def _card(colour: str, value: int) -> str:
    return f'{colour} "{value}"'


def _negative_tokens(name: str, tokens: ByColour[int], where: str) -> list[Problem]:
    return [
        Problem(
            Code.NEGATIVE,
            name,
            f"{where}.tokens.{c.value}",
            f"{name}'s {c.value} tokens cannot be negative ({n}).",
        )
        for c, n in tokens.items()
        if n < 0
    ]


def check_payday(moment: Moment) -> Report:
    """Every error and warning of a payday's input (before it is played)."""
    problems: list[Problem] = []
    for i, c in enumerate(moment.sunk):
        if c in moment.arrived:
            problems.append(
                Problem(
                    Code.ARRIVING_AND_SINKING,
                    None,
                    f"sunk[{i}]",
                    f"The {c.value} ship cannot reach Edo and sink at once: there is one ship a colour "
                    '(rulebook "COMPONENTS").',
                )
            )
    problems.extend(_over_supply(moment))
    for i, p in enumerate(moment.players):
        where = f"players[{i}]"
        problems.extend(_negative_tokens(p.name, p.tokens, where))
        if total(p.tokens) >= END_TOKENS and min(p.tokens.values()) >= 0:
            problems.append(
                Problem(
                    Code.GAME_ALREADY_OVER,
                    p.name,
                    f"{where}.tokens",
                    f"{p.name} already holds {total(p.tokens)} achievement tokens: the game ended at the payday "
                    f'that gave the {END_TOKENS}th (rulebook: "the game ends immediately if at least one player has '
                    f'{END_TOKENS} or more Achievement tokens").',
                )
            )
        for c, insured in p.insured.items():
            if remove(p.goods[c], insured) is None:
                problems.append(
                    Problem(
                        Code.INSURED_NOT_HELD,
                        p.name,
                        f"{where}.insured.{c.value}",
                        f"{p.name}'s insured {c.value} goods ({join([str(v) for v in insured])}) are not all among "
                        f"the {c.value} goods listed ({join([str(v) for v in p.goods[c]])}): an insured good is "
                        "one of the player's goods, turned 90 degrees.",
                    )
                )
        for c, cards in p.insurance.items():
            if cards and c not in moment.sunk:
                problems.append(
                    Problem(
                        Code.INSURANCE_NOT_SINKING,
                        p.name,
                        f"{where}.insurance.{c.value}",
                        f"{p.name} insures {c.value} goods, but no {c.value} ship sinks: insurance is offered "
                        "when ships sink, for the sinking colours only.",
                    )
                )
            for j, v in enumerate(cards):
                if not ICONS[v]:
                    problems.append(
                        Problem(
                            Code.INSURANCE_WITHOUT_ICONS,
                            p.name,
                            f"{where}.insurance.{c.value}[{j}]",
                            f'A "{v}" card has no insurance icon and insures nothing: only "2" (2 icons) and "3" '
                            "(1 icon) cards insure.",
                        )
                    )
    return Report.of(problems, WARNING_CODES)


def _over_supply(moment: Moment) -> list[Problem]:
    """More cards of a colour and value than the game has ("COMPONENTS"), counting goods and insurance cards."""
    seen: Counter[tuple[str, int]] = Counter()
    first: dict[tuple[str, int], tuple[str, str]] = {}
    for i, p in enumerate(moment.players):
        for key, cards in (("goods", p.goods), ("insurance", p.insurance)):
            for c, values in cards.items():
                for j, v in enumerate(values):
                    seen[c.value, v] += 1
                    if seen[c.value, v] > COPIES[v]:
                        first.setdefault((c.value, v), (p.name, f"players[{i}].{key}.{c.value}[{j}]"))
    return [
        Problem(
            Code.OVER_SUPPLY,
            name,
            field,
            f"The table lists {seen[key]} {_card(*key)} cards (goods and insurance cards); the game has "
            f'{COPIES[key[1]]} (rulebook "COMPONENTS": 11 x "2", 9 x "3", 7 x "5" per colour).',
        )
        for key, (name, field) in first.items()
    ]


def check_played(moment: Moment, result: PaydayResult) -> Report:
    """The warnings of a payday once played: a spare insurance card, a colour's tokens past the stock."""
    problems: list[Problem] = []
    for i, (p, out) in enumerate(zip(moment.players, result.players, strict=True)):
        for s in out.sinkings:
            if s.insurance and s.spare_card:
                problems.append(
                    Problem(
                        Code.SPARE_INSURANCE,
                        p.name,
                        f"players[{i}].insurance.{s.colour.value}",
                        f"{p.name}'s {s.colour.value} insurance ({join([str(v) for v in s.insurance])}: "
                        f"{s.icons} icon{'s' if s.icons != 1 else ''}) is more than the {len(s.uninsured)} "
                        "uninsured goods need: one card fewer insures as much (unused icons are legal).",
                    )
                )
    for c in COLOURS:
        held = sum(out.tokens[c] for out in result.players)
        gained = sum(out.tokens_gained[c] for out in result.players)
        if gained and held > TOKENS_PER_COLOUR:
            problems.append(
                Problem(
                    Code.TOKEN_SUBSTITUTE,
                    None,
                    "players",
                    f"The players now hold {held} {c.value} achievement tokens; the game has {TOKENS_PER_COLOUR}: "
                    'use a substitute for the missing ones (rulebook "2. ACQUIRE ACHIEVEMENT TOKENS").',
                )
            )
    return Report.of(problems, WARNING_CODES)


def check_ranking(standings: Sequence[Standing]) -> Report:
    """Every error and warning of the players' final VP cards and tokens. More than 8 tokens is an error, as in a
    payday (RULINGS O7): it never decides a tie."""
    problems: list[Problem] = []
    for i, s in enumerate(standings):
        where = f"players[{i}]"
        if s.vp < 0:
            problems.append(
                Problem(
                    Code.NEGATIVE, s.name, f"{where}.vp", f"{s.name}'s VP cards cannot be negative ({s.vp})."
                )
            )
        problems.extend(_negative_tokens(s.name, s.tokens, where))
        if s.total_tokens > END_TOKENS:
            problems.append(
                Problem(
                    Code.TOKENS_PAST_END,
                    s.name,
                    f"{where}.tokens",
                    f"{s.name} cannot hold {s.total_tokens} achievement tokens: each player starts with 1 and "
                    f"gains at most 1 a payday, and the game ends after the payday that gives a player the "
                    f"{END_TOKENS}th.",
                )
            )
    vp = sum(s.vp for s in standings)
    if vp > CARDS_PER_COLOUR * len(COLOURS):
        problems.append(
            Problem(
                Code.OVER_SUPPLY,
                None,
                "players",
                f"The players hold {vp} VP cards; the game has {CARDS_PER_COLOUR * len(COLOURS)} cards in all "
                '(rulebook "COMPONENTS").',
            )
        )
    if standings and max(s.total_tokens for s in standings) < END_TOKENS:
        problems.append(
            Problem(
                Code.NOT_ENDED,
                None,
                "players",
                f"No player holds {END_TOKENS} achievement tokens, and the game ends only when one does: a ranking "
                "now is the order so far.",
            )
        )
    return Report.of(problems, WARNING_CODES)
