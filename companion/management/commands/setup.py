"""``python manage.py setup --players N [--akebono] [--grand-master] [--seed CODE] [--ban ID] [--require ID]
[--reroll PART]``: a seeded game setup as JSON (docs/api.md "Setup"), with the options of ``GET /api/v1/setup``.
Exit codes: 0 the setup is printed, 2 bad options (the message says why)."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from setupgen import (
    PART_BY_KEY,
    Options,
    OptionsError,
    SeedError,
    SetupCode,
    generate,
    house_rules,
    new_seed,
    parse_code,
)


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
        parser.add_argument(
            "--seed", help="a setup code such as K7MX2QPA or K7MX2QPA.RB4Q.XD (default: a new seed)"
        )
        parser.add_argument(
            "--ban",
            action="append",
            default=[],
            help="a building or personality id never in play (repeatable)",
        )
        parser.add_argument(
            "--require", action="append", default=[], help="a building or personality id always in play"
        )
        parser.add_argument(
            "--reroll",
            action="append",
            default=[],
            choices=sorted(PART_BY_KEY),
            help="draw this part again, keeping every other part (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            opts = Options(
                players=options["players"], akebono=options["akebono"], grand_master=options["grand_master"]
            )
            split = [
                [i for value in options[name] for i in value.split(",") if i.strip()]
                for name in ("ban", "require")
            ]
            code: SetupCode = parse_code(options["seed"]) if options["seed"] else SetupCode(new_seed())
            for part in options["reroll"]:
                code = code.rerolled(part)
            setup = generate(opts, code, house_rules(*split))
        except (OptionsError, SeedError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(json.dumps(setup.to_json(), indent=2, ensure_ascii=False))
