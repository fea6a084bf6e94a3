"""``python manage.py backup FILE`` (``-``: standard output): every game, sheet, result and group of this server in
one JSON file (companion/services/backup.py; README, "Serving the public"). It holds every edit link: keep it
private. ``manage.py restore FILE`` puts it back into an empty database.

Exit codes: 0 written, 2 the file cannot be written.
"""

from __future__ import annotations

import json
import os
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from companion.services.backup import server_backup


class Command(BaseCommand):
    help = "Write every game, sheet, result and group to one JSON file (FILE, or - for standard output)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="the file to write (made readable by its owner only), or -")

    def handle(self, *args: Any, **options: Any) -> None:
        text = json.dumps(server_backup(), ensure_ascii=False)
        name = options["file"]
        if name == "-":
            sys.stdout.write(text + "\n")
            return
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text + "\n")
        except OSError as exc:
            raise CommandError(f"cannot write {name}: {exc.strerror or exc}", returncode=2) from None
        self.stderr.write(f"Wrote {name}.")
