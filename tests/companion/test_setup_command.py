"""``python manage.py setup`` (issue 3): JSON on stdout, exit 2 with a clear message for bad options."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from setupgen import Options, generate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "options"),
    [
        (["--players", "4"], Options(4)),
        (["--players", "3", "--akebono"], Options(3, akebono=True)),
        (["--players", "2", "--akebono", "--grand-master"], Options(2, akebono=True, grand_master=True)),
    ],
)
def test_setup_command_prints_the_setup(args: list[str], options: Options) -> None:
    out = StringIO()
    call_command("setup", *args, "--seed", "k7mx2qpa", stdout=out)
    assert json.loads(out.getvalue()) == generate(options, "K7MX2QPA").to_json()


def test_setup_command_without_seed_draws_one() -> None:
    out = StringIO()
    call_command("setup", "--players", "4", stdout=out)
    data = json.loads(out.getvalue())
    assert data == generate(Options(4), data["seed"]).to_json()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "5"], "2 to 4 players, not 5"),
        (["--players", "3", "--akebono", "--grand-master"], "for 2 players, not 3"),
        (["--players", "2", "--grand-master"], "needs the Akebono expansion"),
        (["--players", "2", "--seed", "K7MX"], "has 4 characters"),
    ],
)
def test_setup_command_bad_options(args: list[str], words: str) -> None:
    with pytest.raises(CommandError) as info:
        call_command("setup", *args, stdout=StringIO())
    assert info.value.returncode == 2
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "5"], "2 to 4 players"),
        (["--players", "x"], "invalid int value"),
        ([], "--players"),
    ],
)
def test_setup_command_exit_code(args: list[str], words: str) -> None:
    run = subprocess.run(
        [sys.executable, "manage.py", "setup", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 2, run.stderr
    assert words in run.stderr
    assert run.stdout == ""
