"""The shape of the JSON commands (``score``, ``osaka-payday``, ``osaka-ranking``; docs/api.md): read FILE or ``-``
(standard input), print the answer as JSON, exit 0 valid, 1 refused by the rules (errors listed), 2 malformed."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring import InputError
from scoring.reading import read_json


def read_input(name: str) -> str:
    """The text of the file ``name``, or of standard input for ``-``; unreadable: a CommandError, exit 2."""
    try:
        if name == "-":
            return sys.stdin.read()
        with open(name, encoding="utf-8") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {name}: {exc}", returncode=2) from None


class JsonCommand(BaseCommand):
    """A command answering one JSON document with :attr:`evaluate` (decoded JSON in, an answer with ``valid``)."""

    def evaluate(self, data: object) -> dict[str, Any]:
        """The answer to the decoded JSON ``data``; raises an ``InputError`` for malformed input."""
        raise NotImplementedError

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="a JSON file, or - to read standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        text = read_input(options["file"])
        try:
            answer = self.evaluate(read_json(text, "the input"))
        except InputError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
        if not answer["valid"]:
            sys.exit(1)
