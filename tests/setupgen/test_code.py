"""Setup codes with re-rolls and house rules (issue 26): the one parser, each part drawn again on its own, the
house rules' draw and its refusals (RULINGS R15, R18, R19)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from math import comb, sqrt
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.catalogue import BUILDING_BY_ID, BUILDINGS, personalities_of_season
from scoring.components import SEASONS
from scoring.rules import MAX_ONGOING_BUILDINGS
from setupgen import (
    ALPHABET,
    PART_BY_KEY,
    HouseRuleError,
    HouseRules,
    Options,
    OptionsError,
    SeedError,
    Setup,
    SetupCode,
    applicable_parts,
    check_house_rules,
    generate,
    parse_code,
)
from tests.setupgen.helpers import seeds

OPTION_SETS = [
    Options(3),
    Options(2),
    Options(4, akebono=True),
    Options(2, akebono=True, grand_master=True),
]


def flat(data: Any, path: str = "") -> dict[str, Any]:
    """Every leaf of a setup's JSON by its path (``akebono.personalities.summer``)."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(flat(value, f"{path}.{key}" if path else key))
        return out
    return {path: data}


#: The JSON paths each part owns (docs/api.md "Setup"): a re-roll may change these and nothing else.
OWNS = {
    "first-player": ("first_player", "draft_order", "two_player.sun"),
    "buildings": ("buildings",),
    "fires": ("fires",),
    "blocking-tiles": ("two_player.blocking_tiles",),
    "starting-characters": ("starting_characters",),
    "boat-sides": ("akebono.boat_sides",),
    "new-characters": ("akebono.new_characters",),
    "river-tokens": ("akebono.river_tokens",),
    **{f"personalities-{s.value}": (f"akebono.personalities.{s.value}",) for s in SEASONS},
}


def owned(path: str, part: str) -> bool:
    return any(path == p or path.startswith(p + ".") for p in OWNS[part])


def draws(setup: Setup) -> dict[str, Any]:
    data = flat(setup.to_json())
    for key in ("seed", "redrawn"):
        data.pop(key)
    return data


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_a_reroll_of_each_part_keeps_every_other_part_and_its_code_reproduces_it(options: Options) -> None:
    parts = applicable_parts(options)
    assert set(parts) <= set(OWNS)
    for seed in ("K7MX2QPA", "22222222", "ZZZZ9999"):
        before = draws(generate(options, seed))
        for part in parts:
            changed = False
            for salt in ("22", "3X", "QQ", "9A", "M7", "ZZ"):
                code = parse_code(seed).rerolled(part, salt)
                setup = generate(options, code)
                after = draws(setup)
                kept = {k: v for k, v in before.items() if not owned(k, part)}
                assert {k: after[k] for k in kept} == kept, part
                assert setup.seed == str(code) and setup.code.rerolls == {part: salt}
                assert draws(generate(options, str(code).lower())) == after  # the code reproduces it
                changed |= after != before
            assert changed, f"{part} never changed over six re-rolls"


def test_rerolls_add_up_and_a_fresh_salt_is_never_the_old_one() -> None:
    options = Options(4, akebono=True)
    one = parse_code("K7MX2QPA").rerolled("buildings", "4Q")
    two = one.rerolled("fires", "7X")
    assert str(two) == "K7MX2QPA.RB4QF7X"
    assert draws(generate(options, two))["buildings"] == draws(generate(options, one))["buildings"]
    for _ in range(50):
        assert one.rerolled("buildings").rerolls["buildings"] != "4Q"


def test_the_canonical_code_orders_its_sections_and_cards() -> None:
    house = HouseRules(banned_buildings=("well", "farmhouse"), required_personalities=("ryokan",))
    code = SetupCode("K7MX2QPA", house=house).rerolled("fires", "22").rerolled("first-player", "33")
    assert str(code) == "K7MX2QPA.RT33F22.X2B.WF"
    again = parse_code(" k7mx-2qpa.rt33f22.x2b.wf ")
    assert again == parse_code(str(code)) and str(again) == str(code)
    assert again.house.banned_buildings == ("farmhouse", "well")


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("K7MX2QPA.", "empty part"),
        ("K7MX2QPA.Z3", "starting with 'Z'"),
        ("K7MX2QPA.RB4", "cut short"),
        ("K7MX2QPA.RZ44", "unknown or repeated part"),
        ("K7MX2QPA.RB44B55", "unknown or repeated part"),
        ("K7MX2QPA.X2.X3", "two parts starting with X"),
        ("K7MX2QPA.XZ", "does not exist"),
        ("K7MX2QPA.X", "not a valid part"),
        ("K7MX2QPA.X0", "not a valid part"),
        ("K7MX2QP.RB44", "has 7 characters"),
        ("K7MX2QPA.R" + "B44" * 20, "at most 64"),
    ],
)
def test_a_malformed_code_is_refused_saying_why(code: str, says: str) -> None:
    with pytest.raises(SeedError, match=says):
        parse_code(code)


def test_a_code_drawing_again_a_part_not_in_the_game_is_refused() -> None:
    with pytest.raises(OptionsError, match="Boats' sides"):
        generate(Options(4), "K7MX2QPA.RA22")
    with pytest.raises(OptionsError, match="Blocking tiles"):
        generate(Options(3, akebono=True), "K7MX2QPA.RK22")


ONGOING = [b.id for b in BUILDINGS if b.ongoing]
BASE_PLAIN = ["inn", "kabuki-theater", "merchant-house", "restaurant", "shrine", "storehouse", "well"]
AKEBONO_PLAIN = [b.id for b in BUILDINGS if not b.ongoing and b.id not in BASE_PLAIN]
SPRING = [p.id for p in personalities_of_season(SEASONS[0])]


@pytest.mark.parametrize(
    ("options", "house", "field", "says"),
    [
        (Options(4), HouseRules(("well",), ("well",)), "require", "both banned and required"),
        (Options(4), HouseRules(banned_buildings=("pub-izakaya",)), "ban", "only in play with Akebono"),
        (Options(4), HouseRules(required_buildings=("tea-house",)), "require", "only in play with Akebono"),
        (Options(4), HouseRules(banned_personalities=("ryokan",)), "ban", "only in play with Akebono"),
        (Options(4), HouseRules(required_personalities=("ryokan",)), "require", "only in play with Akebono"),
        (
            Options(4, akebono=True),
            HouseRules(required_buildings=tuple(AKEBONO_PLAIN[:7])),
            "require",
            "only 6 are in play",
        ),
        (
            Options(4, akebono=True),
            HouseRules(required_buildings=tuple(ONGOING[:3])),
            "require",
            f"at most {MAX_ONGOING_BUILDINGS} stay in play",
        ),
        (
            Options(4),
            HouseRules(banned_buildings=("well", "inn", "shrine", "farmhouse", "restaurant")),
            "ban",
            "too few buildings left",
        ),
        (
            Options(4, akebono=True),
            HouseRules(banned_buildings=tuple((BASE_PLAIN + AKEBONO_PLAIN)[:11])),
            "ban",
            "too few buildings left",
        ),
        (
            Options(4, akebono=True),
            HouseRules(required_personalities=tuple(SPRING[:3])),
            "require",
            "3 spring personalities are required",
        ),
        (
            Options(4, akebono=True),
            HouseRules(banned_personalities=tuple(SPRING[:4])),
            "ban",
            "too few spring personalities",
        ),
    ],
)
def test_house_rules_the_draw_cannot_meet_are_refused(
    options: Options, house: HouseRules, field: str, says: str
) -> None:
    with pytest.raises(HouseRuleError, match=says) as caught:
        check_house_rules(options, house)
    assert caught.value.field == field
    with pytest.raises(HouseRuleError):
        generate(options, "K7MX2QPA", house)


def test_the_limits_themselves_are_allowed() -> None:
    """One short of each refusal above draws a setup that keeps the rules."""
    setup = generate(Options(4, akebono=True), "K7MX2QPA", HouseRules(required_buildings=tuple(ONGOING[:2])))
    assert sum(BUILDING_BY_ID[b].ongoing for b in setup.buildings) == 2
    kept = HouseRules(banned_buildings=tuple((BASE_PLAIN + AKEBONO_PLAIN)[:10]))
    setup = generate(Options(4, akebono=True), "K7MX2QPA", kept)
    assert not set(setup.buildings) & set(kept.banned_buildings) and len(setup.buildings) == 6
    base = generate(
        Options(4), "K7MX2QPA", HouseRules(banned_buildings=("well", "inn", "shrine", "farmhouse"))
    )
    assert sorted(base.buildings) == sorted(
        b.id for b in BUILDINGS[:10] if b.id not in ("well", "inn", "shrine", "farmhouse")
    )


def test_house_rules_keep_the_parts_they_do_not_touch() -> None:
    options = Options(4, akebono=True)
    before = draws(generate(options, "K7MX2QPA"))
    after = draws(generate(options, "K7MX2QPA", HouseRules(banned_buildings=("pub-izakaya",))))
    assert {k: v for k, v in after.items() if k != "buildings" and not k.startswith("house_rules")} == {
        k: v for k, v in before.items() if k != "buildings" and not k.startswith("house_rules")
    }


# --- fairness under house rules: 2,000 seeded draws ------------------------------------------------------------

N = 2000
SEEDS = seeds(N, start=555)


@cache
def sample(options: Options, house: HouseRules) -> tuple[Setup, ...]:
    return tuple(generate(options, SetupCode(seed, house=house)) for seed in SEEDS)


def chi_square_ok(counts: dict[str, int], expected: dict[str, float]) -> None:
    """Pearson's statistic over the cards against the 1-in-30,000 point of the chi-square law (Wilson-Hilferty,
    z = 4): each count is a sum of indicators with variance below its mean, so a fair draw passes every time,
    while any card drawn 6 % too often or too seldom at N = 2000 fails."""
    stat = sum((counts.get(card, 0) - e) ** 2 / e for card, e in expected.items())
    k = len(expected)
    limit = k * (1 - 2 / (9 * k) + 4 * sqrt(2 / (9 * k))) ** 3
    assert stat < limit, f"chi-square {stat:.1f} over {k} cards, limit {limit:.1f}: {counts} vs {expected}"
    for card, e in expected.items():
        p = e / N
        assert abs(counts.get(card, 0) / N - p) <= 5 * sqrt(p * (1 - p) / N), card


def display_ongoing_law(ongoing: int, plain: int, draw: int, cap: int) -> float:
    """The expected number of ongoing buildings the Akebono display (RULINGS R18) adds to the required ones:
    the first ``draw`` cards of a shuffled deck of ``ongoing`` + ``plain`` are kept when they hold fewer than
    ``cap`` ongoing ones; otherwise exactly ``cap`` are shown."""
    total = comb(ongoing + plain, draw)
    below = {j: comb(ongoing, j) * comb(plain, draw - j) / total for j in range(cap)}
    return sum(j * p for j, p in below.items()) + cap * (1 - sum(below.values()))


def test_base_ban_and_requirement_over_2000_draws() -> None:
    """RULINGS R15 on the allowed cards: the Well never, the Shrine always, the other 8 each 5 times in 8."""
    house = HouseRules(banned_buildings=("well",), required_buildings=("shrine",))
    setups = sample(Options(4), house)
    counts = Counter(b for s in setups for b in s.buildings)
    assert counts["well"] == 0 and counts["shrine"] == N
    assert all(len(set(s.buildings)) == 6 for s in setups)
    others = [b.id for b in BUILDINGS[:10] if b.id not in ("well", "shrine")]
    chi_square_ok({b: counts[b] for b in others}, dict.fromkeys(others, N * 5 / 8))


def test_akebono_ban_and_requirement_over_2000_draws() -> None:
    """RULINGS R18 on the allowed cards: the Pub and the Tea House never, the Public Bathhouse always (one of the
    2 ongoing places taken), never 3 ongoing, each other card as often as the display's law gives."""
    house = HouseRules(
        banned_buildings=("pub-izakaya", "tea-house"), required_buildings=("public-bathhouse",)
    )
    setups = sample(Options(3, akebono=True), house)
    counts = Counter(b for s in setups for b in s.buildings)
    assert counts["pub-izakaya"] == counts["tea-house"] == 0 and counts["public-bathhouse"] == N
    for s in setups:
        assert len(set(s.buildings)) == 6
        assert sum(BUILDING_BY_ID[b].ongoing for b in s.buildings) <= MAX_ONGOING_BUILDINGS
    allowed = [b for b in BUILDINGS if b.id not in (*house.banned_buildings, *house.required_buildings)]
    ongoing = [b.id for b in allowed if b.ongoing]
    plain = [b.id for b in allowed if not b.ongoing]
    e_ongoing = display_ongoing_law(len(ongoing), len(plain), 5, MAX_ONGOING_BUILDINGS - 1)
    expected = {b: N * e_ongoing / len(ongoing) for b in ongoing}
    expected |= {b: N * (5 - e_ongoing) / len(plain) for b in plain}
    chi_square_ok({b: counts[b] for b in expected}, expected)


def test_akebono_personality_ban_and_requirement_over_2000_draws() -> None:
    spring = [p.id for p in personalities_of_season(SEASONS[0])]
    summer = [p.id for p in personalities_of_season(SEASONS[1])]
    house = HouseRules(banned_personalities=(spring[0],), required_personalities=(summer[2],))
    setups = sample(Options(4, akebono=True), house)
    met = Counter(p for s in setups if s.akebono for pair in s.akebono.personalities.values() for p in pair)
    assert met[spring[0]] == 0 and met[summer[2]] == N
    expected = dict.fromkeys(spring[1:], N * 2 / 4)
    expected |= {p: N / 4 for p in summer if p != summer[2]}
    chi_square_ok({p: met[p] for p in expected}, expected)


def test_the_display_law_matches_the_default_draw() -> None:
    """The law used above gives, with no house rules, the expected ongoing count of test_statistics (R18)."""
    p0 = comb(14, 6) / comb(20, 6)
    p1 = 6 * comb(14, 5) / comb(20, 6)
    assert display_ongoing_law(6, 14, 6, 2) == pytest.approx(p1 + 2 * (1 - p0 - p1))


def test_parts_have_unique_letters_and_keys() -> None:
    assert len({p.letter for p in PART_BY_KEY.values()}) == len(PART_BY_KEY)


_ALPHA = st.sampled_from(ALPHABET)


@st.composite
def codes(draw: st.DrawFn) -> tuple[Options, SetupCode]:
    options = draw(st.sampled_from(OPTION_SETS))
    seed = "".join(draw(st.lists(_ALPHA, min_size=8, max_size=8)))
    code = SetupCode(seed)
    for part in draw(st.lists(st.sampled_from(applicable_parts(options)), unique=True, max_size=4)):
        code = code.rerolled(part, draw(_ALPHA) + draw(_ALPHA))
    pool = [b.id for b in BUILDINGS if options.akebono or b.expansion.value == "base"]
    banned = draw(st.lists(st.sampled_from(pool), unique=True, max_size=3))
    required = draw(st.lists(st.sampled_from([b for b in pool if b not in banned]), unique=True, max_size=2))
    return options, code.with_house(
        HouseRules(banned_buildings=tuple(banned), required_buildings=tuple(required))
    )


@settings(max_examples=150, deadline=None)
@given(codes())
def test_any_code_reads_back_and_keeps_the_rules(case: tuple[Options, SetupCode]) -> None:
    """Property: a code's text reads back as the same code; the setup it gives is the same each time; the house
    rules hold, and so do R15 (6 different buildings) and R18 (at most 2 with an ongoing ability)."""
    options, code = case
    assert parse_code(str(code)) == code
    try:
        setup = generate(options, code)
    except HouseRuleError:
        return  # e.g. 2 ongoing required and Akebono's limit: refused, as the table-driven test above shows
    assert setup.to_json() == generate(options, str(code)).to_json()
    assert len(set(setup.buildings)) == 6
    assert not set(setup.buildings) & set(code.house.banned_buildings)
    assert set(code.house.required_buildings) <= set(setup.buildings)
    if options.akebono:
        assert sum(BUILDING_BY_ID[b].ongoing for b in setup.buildings) <= MAX_ONGOING_BUILDINGS
