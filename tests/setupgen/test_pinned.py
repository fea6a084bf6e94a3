"""Old codes keep their meaning (RULINGS R19, issue 26): the setups of several 8-character codes, as the generator
gave them before re-rolls and house rules existed, pinned in pinned_setups.json (written once from that
generator). A change to the draws that moves any of them must bump GENERATOR_VERSION instead."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from setupgen import GENERATOR_VERSION, Options, generate

PINNED: list[dict[str, Any]] = json.loads((Path(__file__).parent / "pinned_setups.json").read_text("utf-8"))


@pytest.mark.parametrize("case", PINNED, ids=lambda c: f"{c['players']}p-ake{int(c['akebono'])}-{c['seed']}")
def test_an_old_code_gives_the_setup_it_always_gave(case: dict[str, Any]) -> None:
    options = Options(case["players"], akebono=case["akebono"], grand_master=case["grand_master"])
    assert case["setup"]["generator_version"] == GENERATOR_VERSION
    for code in (case["seed"], f"{case['seed'][:4].lower()}-{case['seed'][4:]}"):  # as a person writes it
        made = generate(options, code).to_json()
        assert {key: made[key] for key in case["setup"]} == case["setup"]
        assert made["redrawn"] == []
        assert not any(made["house_rules"].values())
