"""``python manage.py score FILE`` (``-`` for stdin): validate and score a table from JSON (docs/api.md).

Exit codes: 0 scored, 1 the rules refuse the table (errors listed), 2 malformed input.
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring import InputError, evaluate
from scoring.errors import MalformedJSONError


class Command(BaseCommand):
    help = "Validate and score a finished IKI table given as JSON (FILE, or - for stdin)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="a JSON file, or - to read standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {name}: {exc}", returncode=2) from None
        try:
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise MalformedJSONError("", f"the input is not valid JSON ({exc})") from None
            answer = evaluate(data)
        except InputError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
        if not answer["valid"]:
            sys.exit(1)
