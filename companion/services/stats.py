"""A group's statistics per edition (issue 14), from its results alone: games, wins, average and best total,
the average of each pad line, the buildings and personalities that came with wins, and the totals over time as
the points of a server-drawn SVG chart. Pure functions of the results' stored players; nothing is cached.

A Traders of Osaka game (issue 23) has no score pad lines, buildings or personalities: its statistics are the
games, wins, average and best VP cards and the chart; the line averages are IKI's only."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from companion.models.results import EDITION_LABELS, IKI_EDITIONS, Result
from scoring import catalogue as cat
from scoring.score import LINE_LABELS

#: The chart's drawing box (SVG user units), drawn to the card's width. Its words (the games' dates, the highest and
#: lowest totals) are the page's text beside it, so they grow with the phone's text size as every word does.
CHART_WIDTH: Final = 360
CHART_HEIGHT: Final = 200
CHART_PAD: Final = 10
"""Above the highest and below the lowest total: room for a dot."""
TICKS: Final = 5
"""The most games named under the chart, evenly spread: the first, middle and last always, the two between them
only where the chart is wide enough in the phone's text size (checks.css hides them, ``minor``, where it is not)."""
#: Line colours of the chart, in the order the players first appear; a player's own colour when it is one of these.
PALETTE: Final = {
    "red": "#b3261e", "blue": "#1f5fbf", "green": "#1e6b3a", "yellow": "#b08900", "purple": "#6a3d9a",
    "black": "#1d1b19",
}  # fmt: skip
SPARE: Final = ("#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#a6761d")


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    average: float
    best: int
    lines: dict[str, float]  # the average of each pad line


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    colour: str
    points: str  # SVG polyline points
    dots: list[tuple[float, float, int]]  # x, y, total


@dataclass(frozen=True, slots=True)
class EditionStats:
    edition: str
    label: str
    games: int
    players: list[PlayerStats]
    lines: list[tuple[str, str]]  # (key, label) of the pad lines that occur
    winning_buildings: list[tuple[str, int]]
    winning_personalities: list[tuple[str, int]]
    series: list[Series]
    #: Under the chart, one per game in its column (the game's dot is at the column's middle): its date (None where
    #: there is no room, or it is the evening named just before) and whether it gives way at a large text size.
    ticks: list[tuple[datetime.date | None, bool]]
    tick_format: str  # the dates' format: the year as well when the games span more than one
    low: int
    high: int
    unit: str  # what a total counts: "IKI" (the pad's points) or "VP" (an Osaka game's VP cards)


def _average(values: Sequence[int]) -> float:
    return round(sum(values) / len(values), 1) if values else 0.0


def _ticks(results: Sequence[Result]) -> list[tuple[datetime.date | None, bool]]:
    """The dates written under the chart (:data:`TICKS`), never the same one twice in a row (two games of one
    evening), each with whether it is ``minor``."""
    minor: dict[int, bool] = {}
    for j in range(TICKS):
        at = round(j * (len(results) - 1) / (TICKS - 1))
        minor[at] = minor.get(at, True) and j % 2 == 1
    ticks: list[tuple[datetime.date | None, bool]] = []
    last = None
    for i, result in enumerate(results):
        shown = i in minor and result.played != last
        ticks.append((result.played if shown else None, minor.get(i, False)))
        last = result.played if shown else last
    return ticks


def _series(results: Sequence[Result]) -> tuple[list[Series], int, int]:
    """One polyline per player over the results in time order: a game's dot is in the middle of its column (one
    column a game, as the dates under the chart are)."""
    totals = [p["total"] for r in results for p in r.players]
    low, high = (min(totals), max(totals)) if totals else (0, 1)
    span = max(high - low, 1)
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    step = CHART_WIDTH / max(len(results), 1)
    points: dict[str, list[tuple[float, float, int]]] = {}
    colours: dict[str, str] = {}
    for i, result in enumerate(results):
        for p in result.players:
            x = round((i + 0.5) * step, 1)
            y = round(CHART_PAD + inner_h - (p["total"] - low) / span * inner_h, 1)
            points.setdefault(p["name"], []).append((x, y, p["total"]))
            colours.setdefault(p["name"], PALETTE.get(p.get("colour", ""), ""))
    used: set[str] = set()
    series = []
    for name, dots in points.items():
        colour = colours[name] if colours[name] and colours[name] not in used else ""
        if not colour:
            colour = next((c for c in SPARE if c not in used), SPARE[len(used) % len(SPARE)])
        used.add(colour)
        series.append(Series(name, colour, " ".join(f"{x},{y}" for x, y, _ in dots), dots))
    return series, low, high


def _winning(results: Sequence[Result], key: str, names: dict[str, Any]) -> list[tuple[str, int]]:
    counts: Counter[str] = Counter()
    for r in results:
        for p in r.players:
            if p["rank"] == 1:
                counts.update(p.get(key, []))
    return [(names[i].name if i in names else i, n) for i, n in counts.most_common()]


def edition_stats(edition: str, results: Sequence[Result]) -> EditionStats:
    """The statistics of one edition's results (oldest first)."""
    by_player: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        for p in r.players:
            by_player.setdefault(p["name"], []).append(p)
    iki = edition in IKI_EDITIONS
    keys = [k for k in LINE_LABELS if iki and any(k in p["lines"] for r in results for p in r.players)]
    players = [
        PlayerStats(
            name=name,
            games=len(rows),
            wins=sum(1 for p in rows if p["rank"] == 1),
            average=_average([p["total"] for p in rows]),
            best=max(p["total"] for p in rows),
            lines={k: _average([p["lines"].get(k, 0) for p in rows]) for k in keys},
        )
        for name, rows in by_player.items()
    ]
    players.sort(key=lambda s: (-s.wins, -s.average, s.name.casefold()))
    series, low, high = _series(results)
    return EditionStats(
        edition=edition,
        label=EDITION_LABELS[edition],
        games=len(results),
        players=players,
        lines=[(k, LINE_LABELS[k]) for k in keys],
        winning_buildings=_winning(results, "buildings", dict(cat.BUILDING_BY_ID)) if iki else [],
        winning_personalities=_winning(results, "personalities", dict(cat.PERSONALITY_BY_ID)) if iki else [],
        series=series,
        ticks=_ticks(results),
        tick_format="j M" if len({r.played.year for r in results}) == 1 else "M Y",
        low=low,
        high=high,
        unit="IKI" if iki else "VP",
    )


def group_stats(results: Sequence[Result]) -> list[EditionStats]:
    """Statistics per edition, in the order of :data:`EDITION_LABELS`, for the editions played."""
    return [
        edition_stats(edition, [r for r in results if r.edition == edition])
        for edition in EDITION_LABELS
        if any(r.edition == edition for r in results)
    ]


__all__ = [
    "CHART_HEIGHT",
    "CHART_WIDTH",
    "EditionStats",
    "PlayerStats",
    "Series",
    "edition_stats",
    "group_stats",
]
