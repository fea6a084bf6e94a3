"""``python manage.py restore FILE`` (``-``: standard input): put a ``manage.py backup`` file back, into an empty
database (after ``manage.py migrate``), all or nothing (companion/services/backup.py).

Exit codes: 0 restored, 1 refused (the database is not empty), 2 the file is not a backup, or was changed.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from companion.errors import UserError
from companion.management.commands._json_command import read_input
from companion.services.backup import read_json, restore_server, rows_present


class Command(BaseCommand):
    help = (
        "Restore a backup written by manage.py backup (FILE, or - for standard input) into an empty database."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="the backup file, or -")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        raw = read_input(name)
        if rows_present():
            raise CommandError(
                "This database already holds games or results: restore a server into an empty one.",
                returncode=1,
            )
        try:
            count = restore_server(read_json(raw))
        except UserError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stderr.write(f"Restored {count} rows from {name}.")
