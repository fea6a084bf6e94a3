"""``python manage.py score FILE`` (docs/api.md): exit 0 scored, 1 refused by the rules, 2 malformed."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.examples import TIED_ON_SHARED_SPACES, WORKED_EXAMPLE


def run(*args: str, stdin: str | None = None, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = io.StringIO()
    try:
        call_command("score", *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_scores_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(WORKED_EXAMPLE), encoding="utf-8")
    code, out = run(str(path), monkeypatch=monkeypatch)
    assert code == 0
    assert json.loads(out)["players"][0]["total"] == 100


def test_reads_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run("-", stdin=json.dumps(WORKED_EXAMPLE), monkeypatch=monkeypatch)
    assert code == 0
    assert "Anaïs" in out  # not escaped


def test_rules_errors_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    table = {"players": [{"name": "A", "mon": -2}, {"name": "B"}]}
    code, out = run("-", stdin=json.dumps(table), monkeypatch=monkeypatch)
    assert code == 1
    assert json.loads(out)["errors"][0]["code"] == "negative-number"


@pytest.mark.parametrize(
    ("stdin", "words"),
    [("{", "not valid JSON"), ('{"players": [{"name": "A", "fsh": []}]}', "players[0].fsh: unknown field")],
)
def test_malformed_input_exits_2(stdin: str, words: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(CommandError, match=re.escape(words)) as raised:
        call_command("score", "-")
    assert raised.value.returncode == 2


def test_missing_file_exits_2(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot read") as raised:
        call_command("score", str(tmp_path / "nope.json"))
    assert raised.value.returncode == 2


@pytest.mark.parametrize(
    ("stacks", "code", "ranks"),
    [
        ({"5": ["Ben", "Aiko"]}, 0, [2, 1, 3, 3]),  # RULINGS R12: space 5's order decides its own tie
        ({"5": ["Ben", "Aiko"], "0": ["Chie", "Aiko"]}, 1, None),  # Aiko is on space 5: refused
        ({"5": ["Ben"]}, 0, [1, 1, 3, 3]),  # a partly given stack: they share, with a warning
    ],
)
def test_stacks_space_by_space(
    stacks: dict[str, list[str]], code: int, ranks: list[int] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = {**TIED_ON_SHARED_SPACES, "stacks": stacks}
    exit_code, out = run("-", stdin=json.dumps(table), monkeypatch=monkeypatch)
    assert exit_code == code
    answer = json.loads(out)
    assert [p["rank"] for p in answer.get("players", [])] == (ranks or [])
