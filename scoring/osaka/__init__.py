"""The rules core of Traders of Osaka (traders-of-osaka-rulebook.txt, RULINGS O1-O6): pure Python, no Django.

:func:`evaluate_payday` and :func:`evaluate_ranking` are the whole contracts of ``POST /api/v1/osaka/payday`` and
``POST /api/v1/osaka/ranking`` and of ``manage.py osaka-payday`` / ``osaka-ranking`` (docs/api.md): decoded JSON
in, the answer out. Malformed input raises :class:`~scoring.errors.InputError`.
"""

from __future__ import annotations

from typing import Any

from scoring.osaka.components import COLOURS, ByColour, Colour, Trader
from scoring.osaka.read import read_moment, read_standings
from scoring.osaka.rules import (
    Draw,
    Holding,
    Moment,
    PaydayResult,
    PlayerPayday,
    Ranked,
    Sale,
    Sinking,
    Standing,
    payday,
    rank,
    sell,
    start_player,
)
from scoring.osaka.validate import Code, Problem, Report, check_payday, check_played, check_ranking


def _problems(report: Report) -> dict[str, Any]:
    return {
        "valid": report.valid,
        "errors": [p.as_dict() for p in report.errors],
        "warnings": [p.as_dict() for p in report.warnings],
    }


def _sale(s: Sale) -> dict[str, Any]:
    return {
        "value": s.value,
        "vp": s.vp,
        "vp_cards": list(s.vp_cards),
        "from_pile": s.from_pile,
        "cards": list(s.cards),
        "price": s.price,
        "tokens": s.tokens,
        "points": s.points,
        "discarded": list(s.discarded),
        "explanation": s.explanation,
    }


def _sinking(s: Sinking) -> dict[str, Any]:
    return {
        "insured_now": list(s.insured_now),
        "kept": list(s.kept),
        "lost": list(s.lost),
        "icons": s.icons,
        "explanation": s.explanation,
    }


def _counts(values: ByColour[int], colours: tuple[Colour, ...]) -> dict[str, int]:
    return {c.value: values[c] for c in colours}


def _player(out: PlayerPayday, result: PaydayResult) -> dict[str, Any]:
    return {
        "name": out.name,
        "paydays": {s.colour.value: _sale(s) for s in out.sales},
        "vp": out.vp,
        "tokens_gained": _counts(out.tokens_gained, result.held),
        "goods_lost": {s.colour.value: len(s.lost) for s in out.sinkings},
        "sinkings": {s.colour.value: _sinking(s) for s in out.sinkings},
        "tokens": _counts(out.tokens, COLOURS),
        "explanations": list(out.explanations),
    }


def play(moment: Moment) -> tuple[Report, PaydayResult | None]:
    """Validate a moment and, when it has no error, play its paydays: the report (with the warnings of the played
    payday) and the result."""
    report = check_payday(moment)
    if not report.valid:
        return report, None
    result = payday(moment)
    return Report(report.errors, report.warnings + check_played(moment, result).warnings), result


def payday_answer(moment: Moment) -> tuple[dict[str, Any], PaydayResult | None]:
    """The JSON answer for a payday read from JSON, and the result when it was played (no error)."""
    report, result = play(moment)
    answer = _problems(report)
    if result is None:
        return answer, None
    answer["game_over"] = result.game_over
    answer["paydays"] = [c.value for c in result.held]
    answer["skipped"] = [c.value for c in result.skipped]
    answer["sank"] = [c.value for c in result.sank]
    answer["ended_after"] = result.ended_after.value if result.ended_after else None
    answer["end"] = result.end_sentence
    answer["players"] = [_player(out, result) for out in result.players]
    return answer, result


def evaluate_payday(data: object) -> dict[str, Any]:
    """Decoded JSON in, the payday's answer out (docs/api.md). Raises :class:`InputError` for malformed input."""
    return payday_answer(read_moment(data))[0]


def ranking_answer(standings: tuple[Standing, ...]) -> dict[str, Any]:
    report = check_ranking(standings)
    answer = _problems(report)
    if report.valid:
        ranked = rank(standings)
        answer["winners"] = [r.name for r in ranked if r.rank == 1]
        answer["players"] = [
            {"name": r.name, "vp": r.vp, "tokens_total": r.tokens, "rank": r.rank, "tie_break": r.tie_break}
            for r in ranked
        ]
    return answer


def evaluate_ranking(data: object) -> dict[str, Any]:
    """Decoded JSON in, the ranking out (RULINGS O5). Raises :class:`InputError` for malformed input."""
    return ranking_answer(read_standings(data))


__all__ = [
    "COLOURS",
    "ByColour",
    "Code",
    "Colour",
    "Draw",
    "Holding",
    "Moment",
    "PaydayResult",
    "PlayerPayday",
    "Problem",
    "Ranked",
    "Report",
    "Sale",
    "Sinking",
    "Standing",
    "Trader",
    "evaluate_payday",
    "evaluate_ranking",
    "payday",
    "payday_answer",
    "play",
    "rank",
    "ranking_answer",
    "read_moment",
    "read_standings",
    "sell",
    "start_player",
]
