"""``python manage.py osaka-ranking FILE`` (``-`` for stdin): the final ranking of Traders of Osaka (docs/api.md).

Exit codes: 0 ranked, 1 the rules refuse the input (errors listed), 2 malformed input.
"""

from __future__ import annotations

from typing import Any

from companion.management.commands._json_command import JsonCommand
from scoring.osaka import evaluate_ranking


class Command(JsonCommand):
    help = (
        "Rank Traders of Osaka players from their VP cards and achievement tokens given as JSON (FILE or -)."
    )

    def evaluate(self, data: object) -> dict[str, Any]:
        return evaluate_ranking(data)
