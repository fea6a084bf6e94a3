"""Paydays and rankings in the JSON contract (docs/api.md "Traders of Osaka"), for the docs, tests and benchmarks."""

from __future__ import annotations

from typing import Any, Final

#: The example of issue 15's contract: yellow then red reach Edo while the blue ship sinks.
CONTRACT_PAYDAY: Final[dict[str, Any]] = {
    "arrived": ["yellow", "red"],
    "sunk": ["blue"],
    "players": [
        {
            "name": "Ann",
            "goods": {"yellow": [5, 3, 2], "blue": [2, 2, 3]},
            "tokens": {"yellow": 1},
            "insured": {"blue": [3]},
            "insurance": {"blue": [2]},
        },
        {"name": "Bo", "goods": {"red": [2, 2, 3, 2], "blue": [5]}, "tokens": {"red": 2, "green": 1}},
    ],
}

#: A 4-player moment with two paydays and a sinking: every step of a payday has work to do (the benchmark's).
FOUR_PLAYERS: Final[dict[str, Any]] = {
    "arrived": ["green", "yellow"],
    "sunk": ["red", "blue"],
    "players": [
        {
            "name": "Anaïs",
            "goods": {"green": [5, 3, 2, 2], "red": [5, 3, 2], "blue": [3]},
            "tokens": {"green": 2, "red": 1},
            "insured": {"red": [2]},
            "insurance": {"red": [2], "blue": [3]},
        },
        {
            "name": "David",
            "goods": {"yellow": [5, 5], "blue": [5, 2, 2], "green": [3]},
            "tokens": {"yellow": 3, "blue": 2},
            "insurance": {"blue": [3]},
        },
        {
            "name": "Dominique",
            "goods": {"green": [2, 2, 2], "yellow": [3], "red": [3, 3]},
            "tokens": {"blue": 1, "green": 1},
            "insured": {"red": [3]},
        },
        {
            "name": "Ulric",
            "goods": {"yellow": [2, 3], "blue": [2], "red": [5]},
            "tokens": {"yellow": 1, "red": 2, "green": 1},
            "insurance": {"red": [2]},
        },
    ],
}

#: A final ranking: a tie on VP broken by tokens, and a tie that stays.
RANKING: Final[dict[str, Any]] = {
    "players": [
        {"name": "Anaïs", "vp": 24, "tokens": {"red": 3, "green": 5}},
        {"name": "David", "vp": 24, "tokens": {"yellow": 4, "blue": 2}},
        {"name": "Dominique", "vp": 19, "tokens": {"blue": 2, "green": 2}},
        {"name": "Ulric", "vp": 19, "tokens": {"red": 4}},
    ]
}
