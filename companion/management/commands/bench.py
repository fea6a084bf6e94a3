"""``python manage.py bench [NAME ...]``: run the benchmarks of the top-level benchmarks/ package and print their figures.

Views are measured through the Django test client against a throw-away test database, so the command never
touches the real one.
"""

from __future__ import annotations

import importlib
import pkgutil
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import setup_test_environment, teardown_test_environment

import benchmarks


class Command(BaseCommand):
    help = "Run the benchmarks (docs/benchmarks.md) and print figures and ratios."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("names", nargs="*", help="only these benchmark modules (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        modules = sorted(
            m.name for m in pkgutil.iter_modules(benchmarks.__path__) if not m.name.startswith("_")
        )
        wanted = options["names"] or modules
        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            for name in wanted:
                module = importlib.import_module(f"benchmarks.{name}")
                self.stdout.write(f"== {name}")
                module.run(self.report)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()

    def report(self, name: str, value: float, unit: str, note: str = "") -> None:
        shown = f"{value:,.1f}" if abs(value) >= 100 else f"{value:.3g}"
        self.stdout.write(f"  {name:<58} {shown:>12} {unit:<10} {note}")
