"""``python manage.py setup --players N [--akebono] [--grand-master] [--seed CODE]``: a seeded game setup as JSON
(docs/api.md "Setup"). Exit codes: 0 the setup is printed, 2 bad options (the message says why)."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from setupgen import Options, OptionsError, SeedError, generate


class Command(BaseCommand):
    help = (
        "Generate a fair, reproducible setup for IKI (2-4 players), optionally with Akebono / Grand Master."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players, 2 to 4")
        parser.add_argument("--akebono", action="store_true", help="play with the IKI Akebono expansion")
        parser.add_argument(
            "--grand-master", action="store_true", help="the Grand Master variant (2 players, with Akebono)"
        )
        parser.add_argument("--seed", help="a seed of 8 characters such as K7MX2QPA (default: a new one)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            opts = Options(
                players=options["players"], akebono=options["akebono"], grand_master=options["grand_master"]
            )
            setup = generate(opts, seed=options["seed"])
        except (OptionsError, SeedError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(json.dumps(setup.to_json(), indent=2, ensure_ascii=False))
