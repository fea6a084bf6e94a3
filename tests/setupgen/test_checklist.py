"""The setup checklist: steps in rulebook order with the draws written in, hidden items kept apart (issue 3)."""

from __future__ import annotations

import pytest

from scoring.catalogue import (
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    PERSONALITY_BY_ID,
    STARTING_TILE_BY_ID,
    TOKEN_BY_ID,
)
from scoring.rules import nagaya_name
from setupgen import Options, Section, Setup, checklist, generate, hidden_item, hidden_items
from setupgen.checklist import Step
from tests.setupgen.helpers import named_hidden_draws, seeds

ALL_OPTIONS = [
    Options(2),
    Options(3),
    Options(4),
    Options(2, akebono=True),
    Options(4, akebono=True),
    Options(2, akebono=True, grand_master=True),
]


def public_text(steps: tuple[Step, ...]) -> str:
    """Everything a step shows before anything is revealed (labels of hidden items included)."""
    parts: list[str] = []
    for step in steps:
        parts += [step.title, step.text, *step.details]
        parts += [f"{h.label} {h.due} {h.short}" for h in step.hidden]
        parts.append(step.tracker_note)
    return "\n".join(parts)


def by_id(setup: Setup) -> dict[str, Step]:
    return {step.id: step for step in checklist(setup)}


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_sections_come_in_rulebook_order_with_unique_ids(options: Options) -> None:
    steps = checklist(generate(options, "K7MX2QPA"))
    sections = [s.section for s in steps]
    order = [Section.GENERAL, Section.PLAYER, Section.AKEBONO, Section.TWO_PLAYER]
    assert sections == sorted(sections, key=order.index)
    assert (Section.AKEBONO in sections) == options.akebono
    assert (Section.TWO_PLAYER in sections) == (options.players == 2)
    assert len({s.id for s in steps}) == len(steps)
    ids = [h.id for s in steps for h in s.hidden]
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize(
    ("options", "count"),
    [
        (Options(4), 3),  # fires
        (Options(2), 3 + 12),  # + blocking tiles
        # + later seasons' personalities, New Characters, later seasons' River tokens (issue 20)
        (Options(4, akebono=True), 3 + 3 + 12 + 3),
        (Options(2, akebono=True, grand_master=True), 3 + 3 + 12 + 3 + 12),
    ],
)
def test_hidden_items(options: Options, count: int) -> None:
    setup = generate(options, "K7MX2QPA")
    items = hidden_items(setup)
    assert len(items) == count
    assert all(1 <= item.month <= 12 for item in items)
    assert hidden_item(setup, "fire-5").text.endswith(f"{nagaya_name(setup.fires[0].nagaya)}.")
    with pytest.raises(KeyError):
        hidden_item(setup, "fire-6")


@pytest.mark.parametrize("seed", seeds(25, start=3))
def test_hidden_information_is_only_in_hidden_items(seed: str) -> None:
    setup = generate(Options(2, akebono=True, grand_master=True), seed)
    shown = public_text(checklist(setup))
    ake, two = setup.akebono, setup.two_player
    assert ake is not None
    assert two is not None
    for fire in setup.fires:
        assert f"Nagaya {fire.nagaya}" not in shown
        assert f"Nagaya {fire.nagaya}" in hidden_item(setup, f"fire-{fire.month}").text
    for season in ("summer", "autumn", "winter"):
        for p in ake.personalities[season]:
            assert PERSONALITY_BY_ID[p].name not in shown
            assert PERSONALITY_BY_ID[p].name in hidden_item(setup, f"personalities-{season}").text
    for p in ake.personalities["spring"]:
        assert PERSONALITY_BY_ID[p].name in shown  # Spring is face up at setup
    for month, card in ake.new_characters.items():
        assert CHARACTER_BY_ID[card].name not in shown
        assert CHARACTER_BY_ID[card].name in hidden_item(setup, f"new-character-{month}").text
    for month, value in enumerate(two.blocking_tiles, start=1):
        assert "Blocking tile 1" not in shown and "Blocking tile 4" not in shown
        assert hidden_item(setup, f"blocking-{month}").text == f"Month {month}: Blocking tile {value}."
    # Issue 20: a later season's split between the board and the River is revealed at the season before's end.
    for season in ("summer", "autumn", "winter"):
        tokens = hidden_item(setup, f"tokens-{season}")
        assert tokens.month == hidden_item(setup, f"personalities-{season}").month
        for kind, river in ake.river_tokens[season].items():
            assert TOKEN_BY_ID[river].name not in shown
            assert f"{season.capitalize()} {kind}: board" in tokens.text
            assert f"river {TOKEN_BY_ID[river].name}" in tokens.text
    assert named_hidden_draws(shown, setup) == []


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_each_step_with_hidden_draws_says_the_tracker_reveals_them(options: Options) -> None:
    for step in checklist(generate(options, "K7MX2QPA")):
        assert bool(step.tracker_note) == bool(step.hidden)
        if step.hidden:
            assert step.tracker_note.startswith("Hidden until due: the game tracker reveals ")
            # "the Summer, Autumn and Winter Personalities when it is due": no "it" for a plural
            assert step.tracker_note.endswith(f"reveals {step.hidden_note} when due.")
            assert "here" not in step.text  # the page reveals nothing: no step says "reveal ... here"


def test_draws_are_written_into_the_steps_base() -> None:
    setup = generate(Options(4), "K7MX2QPA")
    steps = by_id(setup)
    details = steps["general-buildings"].details
    assert [line.split(" (")[0] for line in details] == [BUILDING_BY_ID[b].name for b in setup.buildings]
    for line, building in zip(details, setup.buildings, strict=True):
        assert line.endswith("(ongoing ability)") == BUILDING_BY_ID[building].ongoing
    assert setup.first_player == 3
    assert "Seat 3 is the first player." in steps["player-first-player"].text
    assert (
        "Counterclockwise, seat 2, seat 1, seat 4 and seat 3 each take one"
        in steps["player-starting-characters"].text
    )
    assert "from the top: seat 3, seat 4, seat 1 and seat 2." in steps["player-firefighting"].text
    assert "akebono-buildings" not in steps
    assert "general-character-decks" in steps


def test_draws_are_written_into_the_steps_akebono_two_players() -> None:
    setup = generate(Options(2, akebono=True, grand_master=True), "K7MX2QPA")
    steps = by_id(setup)
    ake, two = setup.akebono, setup.two_player
    assert ake is not None
    assert two is not None
    # Akebono steps replace the base steps they change.
    for replaced in (
        "general-buildings",
        "general-tokens",
        "general-character-decks",
        "player-starting-characters",
    ):
        assert replaced not in steps
    assert len(steps["akebono-buildings"].details) == 6
    for building in setup.buildings:
        assert any(BUILDING_BY_ID[building].name in line for line in steps["akebono-buildings"].details)
    for choice in setup.starting_characters:
        assert choice.tile is not None
        line = f"{CHARACTER_BY_ID[choice.card].name} + {STARTING_TILE_BY_ID[choice.tile].name}"
        assert line in steps["akebono-starting-characters"].details
    for boat, side in ake.boat_sides.items():
        assert any(
            f"side {side}" in line
            for line in steps["akebono-boats"].details
            if boat.split("-")[0] in line.lower()
        )
    assert (
        f"Seat {two.sun} takes the Sun token and starts; seat {two.moon} takes the Moon token."
        == steps["two-player-sun-moon"].text
    )
    assert "two-player-grand-master" in steps
    assert steps["akebono-tokens"].details == tuple(
        f"Spring {kind}: board {TOKEN_BY_ID[a].name}, {TOKEN_BY_ID[b].name}; river {TOKEN_BY_ID[river].name}"
        for kind, river in ake.river_tokens["spring"].items()
        for a, b in [ake.board_tokens("spring", kind)]
    )


def test_no_grand_master_step_without_the_variant() -> None:
    steps = by_id(generate(Options(2, akebono=True), "K7MX2QPA"))
    assert "two-player-grand-master" not in steps
    assert "two-player-blocking-tiles" in steps
