"""The setup generator, ruling by ruling (RULINGS R15-R19; IKI rulebook "General setup", "Player setup",
"Rules for 2 players"; Akebono rulebook "Setup" steps 4-10 and the Grand Master variant)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.catalogue import (
    BUILDABLE_BOATS,
    BUILDING_BY_ID,
    BUILDINGS,
    CHARACTER_BY_ID,
    PERSONALITY_BY_ID,
    STARTING_CHARACTERS,
    STARTING_TILE_BY_ID,
    TOKEN_BY_ID,
    new_characters_of_month,
)
from scoring.components import SEASONS, Expansion
from setupgen import (
    ALPHABET,
    GENERATOR_VERSION,
    Options,
    OptionsError,
    SeedError,
    draft_order,
    generate,
    generate_with,
    rng_for,
)
from setupgen.generate import display_buildings
from tests.setupgen.helpers import seeds

ALL_OPTIONS = [
    Options(2),
    Options(3),
    Options(4),
    Options(2, akebono=True),
    Options(3, akebono=True),
    Options(4, akebono=True),
    Options(2, akebono=True, grand_master=True),
]
SEEDS = seeds(60, start=11)


# --- options --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 1}, "2 to 4 players, not 1"),
        ({"players": 5}, "2 to 4 players, not 5"),
        ({"players": 0}, "not 0"),
        ({"players": True}, "whole number"),
        ({"players": "4"}, "whole number"),
        ({"players": 3, "akebono": True, "grand_master": True}, "for 2 players, not 3"),
        ({"players": 4, "grand_master": True}, "for 2 players, not 4"),
        ({"players": 2, "grand_master": True}, "needs the Akebono expansion"),
        ({"players": 2, "akebono": "yes"}, "akebono must be true or false"),
    ],
)
def test_bad_options_get_a_clear_message(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(OptionsError) as info:
        Options(**kwargs)  # type: ignore[arg-type]
    assert words in str(info.value)


def test_option_properties() -> None:
    assert Options(4).expansions == ()
    assert Options(4).variant is None
    gm = Options(2, akebono=True, grand_master=True)
    assert gm.expansions == ("akebono",)
    assert gm.variant == "grand-master"
    assert gm.two_player


# --- RULINGS R19: one seeded generator --------------------------------------------------------------------------


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_same_seed_and_options_give_the_same_setup(options: Options) -> None:
    for seed in SEEDS[:10]:
        assert generate(options, seed) == generate(options, seed)
        assert generate(options, seed.lower()).to_json() == generate(options, seed).to_json()


def test_the_seed_is_normalized_and_malformed_seeds_are_refused() -> None:
    assert generate(Options(4), " k7mx-2qpa ").seed == "K7MX2QPA"
    with pytest.raises(SeedError):
        generate(Options(4), "K7MX2QP0")


def test_no_seed_draws_a_new_one() -> None:
    made = {generate(Options(4)).seed for _ in range(20)}
    assert len(made) == 20


def test_the_rng_depends_on_seed_options_and_version() -> None:
    a = rng_for(Options(4), "K7MX2QPA").random()
    assert a == rng_for(Options(4), "k7mx2qpa").random()
    assert a != rng_for(Options(3), "K7MX2QPA").random()
    assert a != rng_for(Options(4, akebono=True), "K7MX2QPA").random()
    assert a != rng_for(Options(4), "K7MX2QPB").random()


def test_the_pure_core_takes_its_randomness_as_a_parameter() -> None:
    first = generate_with(Options(4, akebono=True), random.Random(42), "K7MX2QPA")
    again = generate_with(Options(4, akebono=True), random.Random(42), "K7MX2QPA")
    other = generate_with(Options(4, akebono=True), random.Random(43), "K7MX2QPA")
    assert first == again
    assert first != other
    assert first.seed == other.seed == "K7MX2QPA"


def test_a_known_seed_gives_a_known_setup() -> None:
    """Pins version 1 of the generator: any change to a draw must bump GENERATOR_VERSION."""
    assert GENERATOR_VERSION == 1
    setup = generate(Options(4, akebono=True), "K7MX2QPA").to_json()
    assert setup["first_player"] == 2
    assert setup["draft_order"] == [1, 4, 3, 2]
    assert setup["buildings"] == [
        "private-school",
        "tea-house",
        "farmhouse",
        "kabuki-theater",
        "storytellers-theater",
        "inn",
    ]
    assert setup["fires"] == [
        {"month": 5, "strength": 5, "nagaya": 3},
        {"month": 8, "strength": 8, "nagaya": 1},
        {"month": 11, "strength": 10, "nagaya": 1},
    ]
    assert setup["akebono"]["new_characters"]["1"] == "taiko-seller"
    assert setup["akebono"]["personalities"]["spring"] == ["nezumi-kozo", "tokunai-mogami"]


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_to_json_is_the_documented_contract(options: Options) -> None:
    setup = generate(options, "K7MX2QPA")
    data = json.loads(json.dumps(setup.to_json()))
    assert set(data) == {
        "seed",
        "generator_version",
        "players",
        "expansions",
        "variant",
        "first_player",
        "draft_order",
        "buildings",
        "fires",
        "starting_characters",
        "two_player",
        "akebono",
        "redrawn",
        "house_rules",
    }
    assert data["seed"] == "K7MX2QPA"
    assert data["generator_version"] == GENERATOR_VERSION
    assert data["players"] == options.players
    assert data["expansions"] == (["akebono"] if options.akebono else [])
    assert data["variant"] == ("grand-master" if options.grand_master else None)
    assert (data["two_player"] is None) == (options.players != 2)
    assert (data["akebono"] is None) == (not options.akebono)
    if options.akebono:
        assert set(data["akebono"]) == {"boat_sides", "personalities", "new_characters", "river_tokens"}
        assert list(data["akebono"]["new_characters"]) == [str(m) for m in range(1, 13)]


# --- RULINGS R15: base setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "players", "order"),
    [
        (1, 4, (4, 3, 2, 1)),
        (2, 4, (1, 4, 3, 2)),
        (4, 4, (3, 2, 1, 4)),
        (1, 3, (3, 2, 1)),
        (3, 3, (2, 1, 3)),
        (1, 2, (2, 1)),
        (2, 2, (1, 2)),
    ],
)
def test_draft_order_is_counterclockwise_from_the_last_player(
    first: int, players: int, order: tuple[int, ...]
) -> None:
    """RULINGS R15: drafted in reverse turn order, counterclockwise from the last player."""
    assert draft_order(first, players) == order


@pytest.mark.parametrize("players", [2, 3, 4])
def test_base_setup(players: int) -> None:
    base_buildings = {b.id for b in BUILDINGS if b.expansion is Expansion.BASE}
    base_starting = [c.id for c in STARTING_CHARACTERS if c.expansion is Expansion.BASE]
    for seed in SEEDS:
        setup = generate(Options(players), seed)
        assert len(setup.buildings) == len(set(setup.buildings)) == 6
        assert set(setup.buildings) <= base_buildings
        assert 1 <= setup.first_player <= players
        assert setup.draft_order == draft_order(setup.first_player, players)
        assert setup.draft_order[-1] == setup.first_player
        # The 4 base starting characters are all on offer, without tiles (RULINGS R15).
        assert [s.card for s in setup.starting_characters] == base_starting
        assert all(s.tile is None for s in setup.starting_characters)
        assert setup.akebono is None


# --- RULINGS R16: fires -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "strengths"),
    [
        (Options(4), (5, 8, 10)),
        (Options(3), (5, 8, 10)),
        (Options(2), (4, 7, 9)),
        (Options(4, akebono=True), (5, 8, 10)),
        (Options(2, akebono=True, grand_master=True), (4, 7, 9)),
    ],
)
def test_three_fires_with_their_strengths(options: Options, strengths: tuple[int, int, int]) -> None:
    for seed in SEEDS:
        fires = generate(options, seed).fires
        assert [f.month for f in fires] == [5, 8, 11]
        assert tuple(f.strength for f in fires) == strengths
        assert all(f.nagaya in (1, 2, 3, 4) for f in fires)


def test_a_nagaya_can_burn_twice() -> None:
    """RULINGS R16: the tiles are reshuffled after each fire, so the draws are independent."""
    repeats = [s for s in SEEDS if len({f.nagaya for f in generate(Options(4), s).fires}) < 3]
    assert repeats


# --- RULINGS R17: two players -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options", [Options(2), Options(2, akebono=True), Options(2, akebono=True, grand_master=True)]
)
def test_two_player_setup(options: Options) -> None:
    for seed in SEEDS:
        setup = generate(options, seed)
        two = setup.two_player
        assert two is not None
        assert len(two.blocking_tiles) == 12
        assert Counter(two.blocking_tiles) == {1: 3, 2: 3, 3: 3, 4: 3}
        assert two.sun == setup.first_player  # the Sun starts
        assert {two.sun, two.moon} == {1, 2}


@pytest.mark.parametrize("options", [Options(3), Options(4), Options(4, akebono=True)])
def test_no_two_player_parts_with_more_players(options: Options) -> None:
    assert generate(options, "K7MX2QPA").two_player is None


# --- RULINGS R18: Akebono ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_akebono_setup(players: int) -> None:
    for seed in SEEDS:
        setup = generate(Options(players, akebono=True), seed)
        ake = setup.akebono
        assert ake is not None
        # Buildings: 6 distinct of the 20, at most 2 with an ongoing ability.
        assert len(set(setup.buildings)) == 6
        assert sum(BUILDING_BY_ID[b].ongoing for b in setup.buildings) <= 2
        # Boats 1-6, each on side A or B; the Tea Boat is the players' choice.
        assert set(ake.boat_sides) == {b.id for b in BUILDABLE_BOATS}
        assert set(ake.boat_sides.values()) <= {"A", "B"}
        # 2 personalities of each season.
        for season in SEASONS:
            pair = ake.personalities[season.value]
            assert len(set(pair)) == 2
            assert all(PERSONALITY_BY_ID[p].season is season for p in pair)
        # One New Character of each month's pair.
        for month in range(1, 13):
            assert ake.new_characters[month] in {c.id for c in new_characters_of_month(month)}
        # Each season's 3 tokens of each kind: 1 to the river, 2 to the board.
        for season in SEASONS:
            for kind in ("fish", "pipe", "tobacco"):
                river = TOKEN_BY_ID[ake.river_tokens[season.value][kind]]
                assert river.season is season
                assert river.kind.value == kind
                board = ake.board_tokens(season.value, kind)
                assert river.id not in board
                assert all(
                    TOKEN_BY_ID[t].season is season and TOKEN_BY_ID[t].kind is river.kind for t in board
                )
                assert len({river.id, *board}) == 3
        # Players + 1 starting characters of the 5, each with a different starting tile.
        cards = [s.card for s in setup.starting_characters]
        tiles = [s.tile for s in setup.starting_characters]
        assert len(set(cards)) == players + 1
        assert all(CHARACTER_BY_ID[c].starting for c in cards)
        assert len(set(tiles)) == players + 1
        assert all(t in STARTING_TILE_BY_ID for t in tiles)


def _deck(*ids: str) -> list:  # type: ignore[type-arg]
    return [BUILDING_BY_ID[i] for i in ids]


@pytest.mark.parametrize(
    ("deck", "shown"),
    [
        # No ongoing building: the first 6.
        (
            ("inn", "temple", "well", "shrine", "restaurant", "storehouse", "farmhouse"),
            ("inn", "temple", "well", "shrine", "restaurant", "storehouse"),
        ),
        # A third ongoing building is discarded and replaced by the next one (Akebono "Setup" step 8).
        (
            (
                "farmhouse",
                "tea-house",
                "public-bathhouse",
                "inn",
                "imperial-villa",
                "temple",
                "well",
                "shrine",
                "kimono-shop",
            ),
            ("farmhouse", "tea-house", "inn", "temple", "well", "shrine"),
        ),
        # Two ongoing buildings are fine, wherever they come.
        (
            ("inn", "temple", "well", "fire-watchtower", "shrine", "inn-for-sailors", "storehouse"),
            ("inn", "temple", "well", "fire-watchtower", "shrine", "inn-for-sailors"),
        ),
        # Every ongoing building after the second is skipped.
        (
            (
                "tea-house",
                "farmhouse",
                "fire-watchtower",
                "imperial-villa",
                "inn-for-sailors",
                "public-bathhouse",
                "inn",
                "well",
                "temple",
                "shrine",
            ),
            ("tea-house", "farmhouse", "inn", "well", "temple", "shrine"),
        ),
    ],
)
def test_akebono_buildings_are_drawn_one_at_a_time(deck: tuple[str, ...], shown: tuple[str, ...]) -> None:
    """RULINGS R18: the physical draw with the "at most 2 ongoing" replacement."""
    assert display_buildings(_deck(*deck)) == shown


def test_grand_master_needs_two_players_and_akebono() -> None:
    setup = generate(Options(2, akebono=True, grand_master=True), "K7MX2QPA")
    assert setup.to_json()["variant"] == "grand-master"
    assert setup.two_player is not None
    assert setup.akebono is not None


@given(
    seed=st.text(alphabet=ALPHABET, min_size=8, max_size=8),
    options=st.sampled_from(ALL_OPTIONS),
)
@settings(max_examples=150)
def test_any_seed_gives_a_legal_setup(seed: str, options: Options) -> None:
    """Property: for any seed, the setup obeys RULINGS R15-R18 and is reproduced from its JSON's seed."""
    setup = generate(options, seed)
    data = setup.to_json()
    assert generate(options, data["seed"]).to_json() == data
    assert sorted(setup.draft_order) == list(range(1, options.players + 1))
    assert len(set(setup.buildings)) == 6
    assert len(setup.fires) == 3
    if options.akebono:
        assert sum(BUILDING_BY_ID[b].ongoing for b in setup.buildings) <= 2
        assert len(setup.starting_characters) == options.players + 1
    else:
        assert all(BUILDING_BY_ID[b].expansion is Expansion.BASE for b in setup.buildings)
