"""``python manage.py osaka-payday FILE`` (``-`` for stdin): a Traders of Osaka payday from JSON (docs/api.md).

Exit codes: 0 played, 1 the rules refuse the input (errors listed), 2 malformed input.
"""

from __future__ import annotations

from typing import Any

from companion.management.commands._json_command import JsonCommand
from scoring.osaka import evaluate_payday


class Command(JsonCommand):
    help = (
        "Play a Traders of Osaka payday given as JSON (FILE, or - for stdin): VP cards, tokens, sinking, end."
    )

    def evaluate(self, data: object) -> dict[str, Any]:
        return evaluate_payday(data)
