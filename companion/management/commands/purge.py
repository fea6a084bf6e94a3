"""``python manage.py purge [--days N] [--dry-run]``: delete what no one changed for ``DJANGO_KEEP_DAYS`` days
(companion/services/retention.py; README, "Serving the public"; deploy/iki-purge.timer runs it daily).

Exit codes: 0 done (or nothing to do: ``DJANGO_KEEP_DAYS`` is 0 on a LAN by default, keep everything), 2 bad options.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from companion.services.retention import purge


class Command(BaseCommand):
    help = "Delete games, sheets, results, groups and setups no one changed for DJANGO_KEEP_DAYS days."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--days", type=int, help="override DJANGO_KEEP_DAYS for this run (1 or more)")
        parser.add_argument("--dry-run", action="store_true", help="count what would go; delete nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"] if options["days"] is not None else settings.KEEP_DAYS
        if days < 0 or (options["days"] is not None and days == 0):
            raise CommandError("--days takes a whole number of 1 or more.", returncode=2)
        if days == 0:
            self.stdout.write("Nothing deleted: DJANGO_KEEP_DAYS is 0, everything is kept.")
            return
        done = purge(days, dry_run=options["dry_run"])
        verb = "Would delete" if options["dry_run"] else "Deleted"
        self.stdout.write(f"{verb} {done} untouched for {days} day{'s' if days != 1 else ''}.")
