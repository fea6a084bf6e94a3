"""``python manage.py score FILE`` (``-`` for stdin): validate and score a table from JSON (docs/api.md).

Exit codes: 0 scored, 1 the rules refuse the table (errors listed), 2 malformed input.
"""

from __future__ import annotations

from typing import Any

from companion.management.commands._json_command import JsonCommand
from scoring import evaluate


class Command(JsonCommand):
    help = "Validate and score a finished IKI table given as JSON (FILE, or - for stdin)."

    def evaluate(self, data: object) -> dict[str, Any]:
        return evaluate(data)
