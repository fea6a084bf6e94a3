"""Property-based tests: any well-formed table is answered without crashing; legal tables score consistently."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import catalogue as cat
from scoring import evaluate
from scoring.components import CHAR_TYPES, SEASONS, TokenKind, Wild

ALL_IDS = {
    "characters": sorted([*cat.CHARACTER_BY_ID, *cat.ANY_CHARACTER_IDS]),
    "retirement_tokens": sorted(cat.RETIREMENT_TOKEN_BY_ID),
    "buildings": sorted(cat.BUILDING_BY_ID),
    "fish": sorted(t.id for t in cat.TOKENS if t.kind is TokenKind.FISH),
    "pipes": sorted(t.id for t in cat.TOKENS if t.kind is TokenKind.PIPE),
    "tobacco": sorted(t.id for t in cat.TOKENS if t.kind is TokenKind.TOBACCO),
    "boats": sorted(cat.BOAT_BY_ID),
    "personalities": sorted(cat.PERSONALITY_BY_ID),
}
NUMBERS = ("score_track", "mon", "koban", "wood", "rice", "sandals", "firefighting", "trade")
TYPES = [t.value for t in CHAR_TYPES]


@st.composite
def any_player(draw: st.DrawFn, name: str) -> dict[str, Any]:
    player: dict[str, Any] = {"name": name}
    for key, ids in ALL_IDS.items():
        if draw(st.booleans()):
            player[key] = draw(st.lists(st.sampled_from(ids), max_size=6))
    for key in NUMBERS:
        if draw(st.booleans()):
            player[key] = draw(st.integers(-3, 200))
    if draw(st.booleans()):
        cards = player.get("characters") or ["puppeteer"]
        player["wild_types"] = draw(
            st.dictionaries(st.sampled_from(cards), st.sampled_from(TYPES), max_size=3)
        )
    return player


@st.composite
def any_table(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(0, 5))
    names = draw(st.lists(st.sampled_from(["Anaïs", "David", "Dominique", "Ulric", "Zoé", "anaïs"]),
                          min_size=n, max_size=n))  # fmt: skip
    table: dict[str, Any] = {"players": [draw(any_player(name)) for name in names]}
    if draw(st.booleans()):
        table["expansions"] = ["akebono"]
    if draw(st.booleans()):
        table["setup"] = {
            "buildings": draw(st.lists(st.sampled_from(ALL_IDS["buildings"]), max_size=7)),
            "personalities": draw(st.lists(st.sampled_from(ALL_IDS["personalities"]), max_size=9)),
            "boat_sides": draw(
                st.dictionaries(st.sampled_from(ALL_IDS["boats"]), st.sampled_from(["A", "B"]))
            ),
        }
    if draw(st.booleans()):
        table["firefighting_order"] = draw(st.permutations(names))
    if draw(st.booleans()):  # RULINGS R12 stacks, right or wrong: names anywhere, twice, strangers
        table["stacks"] = draw(
            st.dictionaries(
                st.integers(0, 11).map(str), st.lists(st.sampled_from([*names, "Zoé", "Ulric"]), max_size=4)
            )
        )
    return table


@settings(max_examples=150)
@given(any_table())
def test_well_formed_tables_never_crash(table: dict[str, Any]) -> None:
    answer = evaluate(table)
    assert isinstance(answer["valid"], bool)
    for problem in (*answer["errors"], *answer["warnings"]):
        assert problem["code"] and problem["message"] and problem["field"]
    assert ("players" in answer) is answer["valid"]


@st.composite
def legal_table(draw: st.DrawFn) -> dict[str, Any]:
    """A table the rules allow, built by dealing unique components to 2-4 players."""
    akebono = draw(st.booleans())
    expansions = cat.expansions_of(["akebono"] if akebono else [])
    n = draw(st.integers(2, 4))
    names = ["Anaïs", "David", "Dominique", "Ulric"][:n]
    players: list[dict[str, Any]] = [{"name": name} for name in names]

    def deal(items: list[str], per_player: int) -> list[list[str]]:
        items = draw(st.permutations(items))
        hands: list[list[str]] = [[] for _ in range(n)]
        for item in items:
            i = draw(st.integers(0, n))  # n: nobody
            if i < n and len(hands[i]) < per_player:
                hands[i].append(item)
        return hands

    in_game = [c for c in cat.CHARACTERS if c.expansion in expansions]
    starting = draw(st.permutations([c.id for c in in_game if c.starting]))
    others = deal([c.id for c in in_game if not c.starting], 10)
    # RULINGS R13/R15/R18: 6 buildings in play, with Akebono at most 2 with an ongoing ability; 2 personalities
    # a season (the Ferry boat's side is not given, so nothing opens the pool beyond them).
    plain = draw(
        st.permutations([b.id for b in cat.BUILDINGS if b.expansion in expansions and not b.ongoing])
    )
    ongoing = draw(st.permutations([b.id for b in cat.BUILDINGS if b.expansion in expansions and b.ongoing]))
    kept_ongoing = draw(st.integers(0, 2 if akebono else 3))
    buildings = deal([*ongoing[:kept_ongoing], *plain[: 6 - kept_ongoing]], 4)
    pipes = deal([t.id for t in cat.TOKENS if t.kind is TokenKind.PIPE and t.expansion in expansions], 5)
    tobacco = deal(
        [t.id for t in cat.TOKENS if t.kind is TokenKind.TOBACCO and t.season and t.expansion in expansions],
        5,
    )
    boats = deal([b.id for b in cat.BUILDABLE_BOATS], 2) if akebono else [[] for _ in range(n)]
    bridge = [p.id for s in SEASONS for p in draw(st.permutations(cat.personalities_of_season(s)))[:2]]
    personalities = deal(bridge, 5) if akebono else [[] for _ in range(n)]
    fish_by_season = {s: [t.id for t in cat.tokens_of(TokenKind.FISH, s, expansions)] for s in SEASONS}
    fish_taken: set[str] = set()
    supply = cat.type_supply(expansions)
    dealt = [cat.CHARACTER_BY_ID[c].type for hand in others for c in hand] + [
        cat.CHARACTER_BY_ID[c].type for c in starting[:n]
    ]
    room = [t.value for t in CHAR_TYPES if dealt.count(t) + n <= supply[t]]  # one unnamed card each at most
    for i, p in enumerate(players):
        chars = [starting[i], *others[i]]
        if room and draw(st.booleans()):
            chars.append(f"any-{draw(st.sampled_from(room))}")
        p["characters"] = chars
        tokens = []
        for card in chars:
            c = cat.CHARACTER_BY_ID.get(card)
            if (
                c
                and c.retirement_token
                and c.retirement_token in cat.RETIREMENT_TOKEN_BY_ID
                and draw(st.booleans())
            ):
                tokens.append(c.retirement_token)
        p["retirement_tokens"] = tokens
        p["wild_types"] = {
            card: draw(st.sampled_from(TYPES))
            for card in chars
            if card in cat.CHARACTER_BY_ID
            and (
                cat.CHARACTER_BY_ID[card].wild is Wild.ALWAYS
                or (card == "puppeteer" and "puppeteer" in tokens)
            )
        }
        fish = []
        for season in SEASONS:
            options = [f for f in fish_by_season[season] if f not in fish_taken]
            if options and draw(st.booleans()):
                fish.append(draw(st.sampled_from(options)))
                fish_taken.add(fish[-1])
        if "fisherman" in chars and len(fish) < 4 and draw(st.booleans()):
            fish.append("fish-fisherman")
        p["fish"] = fish
        p["tobacco"] = tobacco[i] + (
            ["tobacco-policeman"] if "policeman" in chars and draw(st.booleans()) else []
        )
        p.update(buildings=buildings[i], pipes=pipes[i], boats=boats[i], personalities=personalities[i])
        for key in ("score_track", "mon", "koban", "wood", "rice", "sandals"):
            p[key] = draw(st.integers(0, 40))
        # RULINGS R13: a marker never moves down, so it is at least the printed gains of the cards and pipes held.
        held = [*chars, *pipes[i]]
        p["firefighting"] = draw(st.integers(min(10, sum(cat.FIREFIGHTING_GAIN.get(x, 0) for x in held)), 10))
        trade = min(10, sum(cat.TRADE_GAIN.get(x, 0) for x in held))
        p["trade"] = draw(st.integers(trade, 10)) if akebono else 0
    order = sorted(names, key=lambda name: -next(p["firefighting"] for p in players if p["name"] == name))
    return {"expansions": ["akebono"] if akebono else [], "players": players, "firefighting_order": order}


@settings(max_examples=150)
@given(legal_table())
def test_legal_tables_are_valid_and_totals_are_sums(table: dict[str, Any]) -> None:
    answer = evaluate(table)
    assert answer["valid"], answer["errors"]
    ranks = []
    for result in answer["players"]:
        assert result["total"] == sum(result["lines"].values())
        assert set(result["lines"]) == set(result["explanations"])
        assert result["lines"]["variety"] in (0, 1, 4, 9, 16, 25)
        assert result["lines"]["score_track"] >= 0
        ranks.append((result["total"], result["rank"]))
    # With a full firefighting order every tie is broken: the ranks are 1..n, in the order of the totals.
    assert sorted(rank for _, rank in ranks) == list(range(1, len(ranks) + 1))
    assert [total for total, _ in sorted(ranks, key=lambda r: r[1])] == sorted(
        (t for t, _ in ranks), reverse=True
    )
