"""The calendar month by month against the rulebooks (scoring/calendar.py).

Tables of month -> events for the base game (3-4 players), two players, Akebono and the Grand Master variant:
iki-rulebook.txt "HOW TO PLAY" (PHASE A/B/C, Payday, Fire), "RULES FOR 2 PLAYERS", "13TH ROUND: NEW YEAR'S DAY";
iki-akebono-rulebook.txt "New Characters", "City board", "Trade track income", "END OF A SEASON", "GRAND MASTER".
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import catalogue as cat
from scoring.calendar import (
    FIRE_DRAW,
    FIRE_DRAWN,
    FIRE_STRENGTH,
    NEUTRAL_PLACER_ON_ODD_MONTHS,
    CalendarOptions,
    Marker,
    Phase,
    clockwise_from,
    due_reveals,
    fire_of,
    firefighting_seats,
    initial_markers,
    month_events,
    move_marker,
    neutral_placer,
    next_step,
    overdue_reveals,
    phase_a_order,
    reveal_name,
    reveal_names,
    reveals_before_step,
    still_overdue,
    trade_income,
)

BASE = CalendarOptions(players=4)
TWO = CalendarOptions(players=2)
AKEBONO = CalendarOptions(players=4, akebono=True)
GM = CalendarOptions(players=2, akebono=True, grand_master=True)

A_B = ["way-of-life", "actions"]
# With the setup unknown, the Farmhouse or the Imperial Villa may be in play: their season-end effects come last.
PAY = ["season-end", "salary", "harmony", "food", "season-end-buildings"]

BASE_TABLE = {
    1: ["reveal-characters", *A_B, "mon-on-cards", "calendar"],
    2: ["reveal-characters", *A_B, "mon-on-cards", "calendar"],
    3: ["reveal-characters", *A_B, *PAY, "calendar"],
    4: ["reveal-characters", *A_B, "mon-on-cards", "calendar"],
    5: ["reveal-characters", *A_B, "fire", "mon-on-cards", "calendar"],
    6: ["reveal-characters", *A_B, *PAY, "calendar"],
    7: ["reveal-characters", *A_B, "mon-on-cards", "calendar"],
    8: ["reveal-characters", *A_B, "fire", "mon-on-cards", "calendar"],
    9: ["reveal-characters", *A_B, *PAY, "calendar"],
    10: ["reveal-characters", *A_B, "mon-on-cards", "calendar"],
    11: ["reveal-characters", *A_B, "fire", "mon-on-cards", "calendar"],
    12: ["reveal-characters", *A_B, *PAY, "calendar"],
    13: ["new-year", "game-end"],
}


def _two(month: int) -> list[str]:
    keys = ["blocking-tile", *BASE_TABLE[month]]
    if month in (3, 6, 9, 12):  # NEUTRAL_BEFORE_SEASON_END
        keys.insert(keys.index("season-end"), "neutral-character")
    else:
        keys.insert(keys.index("calendar"), "neutral-character")
    return keys


TWO_TABLE = {m: (_two(m) if m < 13 else BASE_TABLE[13]) for m in range(1, 14)}


def _akebono(month: int) -> list[str]:
    keys = [k if k != "mon-on-cards" else "character-row" for k in BASE_TABLE[month]]
    if month < 13:
        keys.insert(1, "new-character")
    if month in (5, 8, 11):
        keys.insert(keys.index("fire") + 1, "trade-income")
    return keys


AKEBONO_TABLE = {m: _akebono(m) for m in range(1, 14)}


def _gm(month: int) -> list[str]:
    if month == 13:
        return BASE_TABLE[13]
    keys = ["blocking-tile", *_akebono(month)]
    if month in (3, 6, 9, 12):
        keys.insert(keys.index("season-end"), "neutral-character")
    else:  # NEUTRAL_BEFORE_NEW_CHARACTER_DISCARD (RULINGS R17): the month's New Character may still be placed
        keys.insert(keys.index("character-row"), "neutral-character")
    keys.insert(keys.index("calendar"), "grand-master")
    return keys


GM_TABLE = {m: _gm(m) for m in range(1, 14)}


@pytest.mark.parametrize(
    ("options", "table"),
    [(BASE, BASE_TABLE), (TWO, TWO_TABLE), (AKEBONO, AKEBONO_TABLE), (GM, GM_TABLE)],
    ids=["base", "two-players", "akebono", "grand-master"],
)
@pytest.mark.parametrize("month", range(1, 14))
def test_every_month_lists_the_rulebook_events(
    options: CalendarOptions, table: dict[int, list[str]], month: int
) -> None:
    events = month_events(month, options, None)
    assert [e.key for e in events] == table[month]
    assert all(e.source for e in events)


@pytest.mark.parametrize(
    ("players", "month", "strength"),
    [(4, 5, 5), (4, 8, 8), (4, 11, 10), (3, 11, 10), (2, 5, 4), (2, 8, 7), (2, 11, 9)],
)
def test_fire_strength_by_month_and_players(players: int, month: int, strength: int) -> None:
    """RULINGS R16: 5/8/10 with 3-4 players, 4/7/9 with 2."""
    assert fire_of(month, CalendarOptions(players=players), None) == (strength, None)
    fire = next(e for e in month_events(month, CalendarOptions(players=players), None) if e.key == "fire")
    assert fire.details == (f"Strength {strength}",)
    assert FIRE_STRENGTH[players][(5, 8, 11).index(month)] == strength


SETUP: dict[str, Any] = {
    "first_player": 2,
    "fires": [
        {"month": 5, "strength": 4, "nagaya": 3},
        {"month": 8, "strength": 7, "nagaya": 1},
        {"month": 11, "strength": 9, "nagaya": 4},
    ],
    "two_player": {"blocking_tiles": [3, 2, 1, 1, 2, 2, 1, 3, 4, 4, 4, 3], "sun": 2},
    "akebono": {
        "personalities": {
            "spring": ["sanyo-rai", "tokunai-mogami"],
            "summer": ["katsushika-hokusai", "nanpo-ota"],
            "autumn": ["genpaku-sugita", "ryokan"],
            "winter": ["gennai-hiraga", "oi-katsushika"],
        },
        "new_characters": {
            str(m): c
            for m, c in enumerate(
                [
                    "taiko-seller",
                    "doctor",
                    "ship-carpenter",
                    "tofu-stand",
                    "cabinet-maker",
                    "goldfish-seller",
                    "fisherman",
                    "repairman",
                    "swordsmith",
                    "ceramic-seller",
                    "shamisen-master",
                    "mounted-samurai",
                ],
                start=1,
            )
        },
        "river_tokens": {},
    },
}


def _event(month: int, key: str, reached: Phase | None) -> Any:
    return next(e for e in month_events(month, GM, SETUP, reached=reached) if e.key == key)


@pytest.mark.parametrize(
    ("month", "key", "early", "due", "secret"),
    [
        (5, "fire", Phase.B, Phase.C, "The fire burns Nagaya 3, behind the exchange and building shops"),
        (8, "fire", Phase.A, Phase.C, "The fire burns Nagaya 1, behind the sandal and rice shops"),
        (
            11,
            "fire",
            Phase.B,
            Phase.C,
            "The fire burns Nagaya 4, behind the fish market and the money changer",
        ),
        (3, "season-end", Phase.B, Phase.C, "Personality: Katsushika Hokusai"),
        (6, "season-end", Phase.A, Phase.C, "Personality: Ryōkan"),
    ],
)
def test_hidden_information_only_when_due(
    month: int, key: str, early: Phase, due: Phase, secret: str
) -> None:
    """RULINGS R16/R18: a fire's Nagaya only when it breaks out, next season's Personalities at the season change."""
    before = _event(month, key, early)
    assert before.hidden
    assert before.secret == ()
    assert secret not in repr(before)
    after = _event(month, key, due)
    assert not after.hidden
    assert secret in after.secret


#: Issue 13, item 4: what the table may reveal at (month, phase), RULINGS R16-R18, for the 2-player Grand Master
#: setup above: the month's blocking tile and New Character at its start, the next season's Personalities at the
#: season's end, a fire's Nagaya at the fire; those of earlier months stay due.
DUE = [
    (1, Phase.A, {"blocking-tile-1", "new-character-1"}, {"new-character-2", "blocking-tile-2"}),
    (3, Phase.B, {"blocking-tile-1", "blocking-tile-3"}, {"season-summer", "new-character-4"}),
    (3, Phase.C, {"season-summer"}, {"season-autumn", "fire-5"}),
    (5, Phase.B, {"new-character-5", "season-summer"}, {"fire-5", "new-character-6"}),
    (5, Phase.C, {"fire-5"}, {"fire-8"}),
]


@pytest.mark.parametrize(("month", "phase", "due", "not_yet"), DUE)
def test_reveals_are_due_only_once_their_phase_is_reached(
    month: int, phase: Phase, due: set[str], not_yet: set[str]
) -> None:
    keys = set(due_reveals(month, phase, GM, SETUP))
    assert due <= keys
    assert not not_yet & keys


def test_a_revealed_set_decides_what_every_phone_shows() -> None:
    """A tracked game reveals for the table: a due secret stays hidden until revealed, then stays shown."""
    hidden = _event_revealed(5, "fire", Phase.C, frozenset())
    assert hidden.hidden and hidden.due and hidden.secret == ()
    shown = _event_revealed(5, "fire", Phase.C, frozenset({"fire-5"}))
    assert (
        shown.secret == ("The fire burns Nagaya 3, behind the exchange and building shops",)
        and shown.reveal == "fire-5"
    )
    early = _event_revealed(5, "fire", Phase.B, frozenset())
    assert early.hidden and not early.due


#: Issue 20: a reveal due in an earlier step and not made stays due, with the month it fell due; one this step
#: offers itself (the month's blocking tile again at the Grand Master's move, phase C) is left to that step.
OVERDUE = [
    (1, Phase.A, frozenset(), {}),
    (1, Phase.B, frozenset(), {"blocking-tile-1": 1, "new-character-1": 1}),
    (1, Phase.C, frozenset(), {"new-character-1": 1}),
    (4, Phase.A, frozenset({"blocking-tile-1", "blocking-tile-2", "blocking-tile-3"}), {
        "new-character-1": 1, "new-character-2": 2, "new-character-3": 3, "season-summer": 3}),
    (
        6,
        Phase.B,
        frozenset({"season-summer", "fire-5", *(f"new-character-{m}" for m in range(1, 7))}),
        {**{f"blocking-tile-{m}": m for m in range(1, 7)}},
    ),
    (13, Phase.NEW_YEAR, frozenset(), {"fire-11": 11, "season-autumn": 6, "new-character-12": 12}),
]  # fmt: skip


@pytest.mark.parametrize(("month", "phase", "revealed", "expected"), OVERDUE)
def test_a_due_reveal_stays_due_until_someone_reveals_it(
    month: int, phase: Phase, revealed: frozenset[str], expected: dict[str, int]
) -> None:
    overdue = overdue_reveals(month, phase, GM, SETUP, revealed=revealed)
    found = {o.event.reveal: o.since for o in overdue}
    assert expected.items() <= found.items()
    assert not revealed & set(found)
    if month < 13:
        assert all(since <= month for since in found.values())
    assert all(o.event.hidden and o.event.secret == () for o in overdue)  # nothing hidden is named
    if phase is Phase.C:
        assert f"blocking-tile-{month}" not in found  # the Grand Master's move offers it in phase C


def test_a_reveal_made_late_stays_shown_during_its_step() -> None:
    kept = overdue_reveals(5, Phase.A, GM, SETUP, revealed=frozenset({"fire-5"}), keep=frozenset({"fire-5"}))
    assert "fire-5" not in {o.event.reveal for o in kept}  # not due yet: fire-5 is phase C's
    late = overdue_reveals(6, Phase.A, GM, SETUP, revealed=frozenset({"fire-5"}), keep=frozenset({"fire-5"}))
    fire = next(o for o in late if o.event.reveal == "fire-5")
    assert (
        fire.since == 5
        and fire.event.secret == ("The fire burns Nagaya 3, behind the exchange and building shops",)
        and not fire.event.hidden
    )
    gone = overdue_reveals(6, Phase.A, GM, SETUP, revealed=frozenset({"fire-5"}))
    assert "fire-5" not in {o.event.reveal for o in gone}


@pytest.mark.parametrize(("month", "phase", "revealed", "expected"), OVERDUE)
def test_the_reveals_before_a_step_are_the_overdue_ones_made_or_not(
    month: int, phase: Phase, revealed: frozenset[str], expected: dict[str, int]
) -> None:
    """:func:`reveals_before_step` is what :func:`overdue_reveals` chooses from (the tracker works the calendar
    out once a render): every reveal due before the step, made or not, with its secret; :func:`still_overdue`
    keeps those not made (withheld) and the kept ones (shown)."""
    before = reveals_before_step(month, phase, GM, SETUP)
    everything = overdue_reveals(month, phase, GM, SETUP, revealed=frozenset())
    assert [(o.since, o.event.reveal) for o in before] == [(o.since, o.event.reveal) for o in everything]
    assert all(o.event.secret and not o.event.hidden for o in before)  # ungated
    assert bool(before) == bool(expected)
    made = frozenset(o.event.reveal for o in before[::2])  # every other one revealed, one of them kept
    keep = frozenset(sorted(made)[:1])
    assert still_overdue(before, revealed=made, keep=keep) == overdue_reveals(
        month, phase, GM, SETUP, revealed=made, keep=keep
    )
    shown = [o for o in still_overdue(before, revealed=made, keep=keep) if not o.event.hidden]
    assert {o.event.reveal for o in shown} == keep


@pytest.mark.parametrize(
    ("key", "words", "plural"),
    [
        ("season-summer", "The Summer personalities and river tokens", True),
        ("new-character-4", "The New Character of month 4", False),
        ("fire-8", "The fire tile of month 8", False),
        ("blocking-tile-12", "The blocking tile of month 12", False),
    ],
)
def test_a_reveal_is_named_without_its_secret(key: str, words: str, plural: bool) -> None:
    assert reveal_name(key) == (words, plural)


def test_reveals_left_hidden_are_named_a_kind_at_a_time() -> None:
    keys = [
        "new-character-1",
        "new-character-2",
        "season-summer",
        "fire-5",
        "new-character-5",
        "season-autumn",
    ]
    assert reveal_names(keys) == [
        "The New Characters of months 1, 2 and 5",
        "The Summer and Autumn personalities and river tokens",
        "The fire tile of month 5",
    ]
    assert reveal_names(["blocking-tile-3", "blocking-tile-4"]) == ["The blocking tiles of months 3 and 4"]
    assert reveal_names([]) == []


def _event_revealed(month: int, key: str, reached: Phase, revealed: frozenset[str]) -> Any:
    return next(e for e in month_events(month, GM, SETUP, reached=reached, revealed=revealed) if e.key == key)


@pytest.mark.parametrize(("setup", "text"), [(None, FIRE_DRAW), ("known", FIRE_DRAWN)])
def test_the_fire_step_does_not_ask_to_draw_a_tile_the_companion_drew(setup: str | None, text: str) -> None:
    """Issue 13, item 7: with the setup's fires known, the table reveals the drawn tile, it does not draw again."""
    fire = next(e for e in month_events(8, BASE, SETUP if setup else None) if e.key == "fire")
    assert fire.asks.startswith(text)
    assert ("shuffles" in fire.asks) is (setup is None)


@pytest.mark.parametrize(
    ("month", "beside"),
    [(1, False), (2, True), (3, True), (4, False), (6, True), (7, False), (10, False), (12, True)],
)
def test_the_base_reveal_speaks_of_cards_left_only_where_some_are(month: int, beside: bool) -> None:
    """Base "Revealing Character cards" puts the month's 4 cards beside those of previous months, but each
    season's end removes the unhired ones ("Months 3, 6, 9 and 12: Payday"): a season's first month has none."""
    reveal = next(e for e in month_events(month, BASE, None) if e.key == "reveal-characters")
    assert ("cards left from earlier months" in reveal.asks) is beside


@pytest.mark.parametrize(("month", "name"), [(1, "Taiko Seller"), (7, "Fisherman"), (12, "Mounted Samurai")])
def test_new_character_revealed_at_the_month_start(month: int, name: str) -> None:
    assert _event(month, "new-character", Phase.A).secret == (name,)


@pytest.mark.parametrize(("month", "tile"), [(1, 3), (2, 2), (9, 4), (12, 3)])
def test_blocking_tile_of_the_month(month: int, tile: int) -> None:
    """RULINGS R17: one tile revealed per month, in the setup's order; the Grand Master moves by it."""
    assert _event(month, "blocking-tile", Phase.A).secret == (f"Ikizama space {tile} is blocked",)
    assert f"moves {tile} space" in _event(month, "grand-master", Phase.C).secret[0]
    hidden = month_events(month, GM, SETUP, reached=Phase.C, revealed=frozenset())
    assert not any(f"moves {tile} space" in repr(e) for e in hidden)  # a tracked game: only once revealed


@pytest.mark.parametrize(
    ("month", "who", "seat"), [(1, "Sun", 2), (2, "Moon", 1), (11, "Sun", 2), (12, "Moon", 1)]
)
def test_neutral_character_placer(month: int, who: str, seat: int) -> None:
    assert NEUTRAL_PLACER_ON_ODD_MONTHS == "sun"
    assert neutral_placer(month, SETUP) == (who, seat)


@pytest.mark.parametrize(("month", "who"), [(1, "Sun"), (2, "Moon")])
def test_the_neutral_character_is_placed_by_the_token_holder_not_a_seat_number(month: int, who: str) -> None:
    event = next(e for e in month_events(month, TWO, SETUP, reached=Phase.C) if e.key == "neutral-character")
    assert event.asks.startswith(f"The {who} player places a character") and "seat" not in event.asks


def test_new_year_and_winter() -> None:
    winter = _event(12, "season-end", Phase.C)
    assert "stay for New Year's Day" in winter.asks
    assert (
        "street, the Nihonbashi bridge included, and may do business" in month_events(13, GM, SETUP)[0].asks
    )
    assert "main street and may do business" in month_events(13, BASE, None)[0].asks


@pytest.mark.parametrize(
    ("month", "phase", "expected"),
    [
        (1, Phase.A, (1, Phase.B)),
        (1, Phase.B, (1, Phase.C)),
        (1, Phase.C, (2, Phase.A)),
        (12, Phase.C, (13, Phase.NEW_YEAR)),
        (13, Phase.NEW_YEAR, None),
    ],
)
def test_next_step(month: int, phase: Phase, expected: Any) -> None:
    assert next_step(month, phase) == expected


@pytest.mark.parametrize(("month", "phase"), [(13, Phase.A), (3, Phase.NEW_YEAR)])
def test_next_step_refuses_a_phase_of_another_month(month: int, phase: Phase) -> None:
    with pytest.raises(ValueError, match="is not a phase"):
        next_step(month, phase)


@pytest.mark.parametrize("month", [0, 14, -1, True])
def test_bad_month(month: int) -> None:
    with pytest.raises(ValueError, match="1-13"):
        month_events(month, BASE, None)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5}, "2-4 players"),
        ({"players": 3, "akebono": True, "grand_master": True}, "Grand Master"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CalendarOptions(**options)


# --- tracks ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "first", "order"),
    [(4, 1, (1, 2, 3, 4)), (4, 3, (3, 4, 1, 2)), (3, 2, (2, 3, 1)), (2, 2, (2, 1))],
)
def test_initial_stack_is_clockwise_from_the_first_player(
    players: int, first: int, order: tuple[int, ...]
) -> None:
    """Base "PLAYER SETUP": the first player's marker on top, then clockwise down to the bottom."""
    markers = initial_markers(players, first)
    assert firefighting_seats(markers) == order
    assert clockwise_from(first, players) == order
    assert phase_a_order(1, markers, first) == order


def test_phase_a_month_1_is_clockwise_even_if_markers_moved() -> None:
    markers = move_marker(initial_markers(3, 1), 3, 2)
    assert phase_a_order(1, markers, 1) == (1, 2, 3)
    assert phase_a_order(2, markers, 1) == (3, 1, 2)


def test_moving_onto_an_occupied_space_puts_the_marker_on_top() -> None:
    """RULINGS R11/R12; base "Fire tower": on top of the stack; at 10 again, on top."""
    markers = (Marker(1, 4, 1), Marker(2, 3, 2), Marker(3, 10, 3), Marker(4, 10, 4))
    moved = move_marker(markers, 2, 4)
    assert firefighting_seats(moved) == (4, 3, 2, 1)
    again = move_marker(moved, 3, 10)
    assert firefighting_seats(again) == (3, 4, 2, 1)


@pytest.mark.parametrize("position", [-1, 11])
def test_marker_off_the_track(position: int) -> None:
    with pytest.raises(ValueError, match="0-10"):
        move_marker(initial_markers(2, 1), 1, position)


@pytest.mark.parametrize(
    ("position", "gains"),
    [
        (0, ()),
        (1, ()),
        (2, ("1 mon",)),
        (5, ("1 mon", "1 sandal")),
        (7, ("1 mon", "1 sandal", "1 rice")),
        (8, ("1 mon", "1 sandal", "1 rice", "1 Koban")),
        (10, ("1 mon", "1 sandal", "1 rice", "1 Koban", "5 IKI")),
    ],
)
def test_trade_income_is_cumulative(position: int, gains: tuple[str, ...]) -> None:
    """Akebono "Trade track income": each player gains all the bonuses reached."""
    assert trade_income(position) == gains


moves = st.lists(st.tuples(st.integers(1, 4), st.integers(0, 10)), max_size=30)


@given(first=st.integers(1, 4), steps=moves)
def test_firefighting_order_stays_a_ranking_of_the_stacks(first: int, steps: list[tuple[int, int]]) -> None:
    """Any sequence of moves: the order is a permutation, sorted by position, and the last marker moved onto a
    space is first among those on that space (RULINGS R12)."""
    markers = initial_markers(4, first)
    for seat, position in steps:
        markers = move_marker(markers, seat, position)
        order = firefighting_seats(markers)
        assert sorted(order) == [1, 2, 3, 4]
        by_seat = {m.seat: m for m in markers}
        positions = [by_seat[s].position for s in order]
        assert positions == sorted(positions, reverse=True)
        assert next(s for s in order if by_seat[s].position == position) == seat


@pytest.mark.parametrize("options", [BASE, TWO, AKEBONO, GM], ids=["base", "two", "akebono", "gm"])
def test_every_event_cites_a_rulebook_of_the_product(options: CalendarOptions) -> None:
    for month in range(1, 14):
        for event in month_events(month, options, None):
            assert "Base rulebook" in event.source or "Akebono rulebook" in event.source
            assert "RULINGS" not in event.source and ".txt" not in event.source
            if not options.akebono:
                assert "Akebono" not in event.source


def test_two_player_akebono_places_the_neutral_card_before_the_new_character_leaves() -> None:
    """RULINGS R17 as amended (Akebono 288: "they can choose to place a New Character of the current month
    instead"): the neutral card comes before the character row discards the New Character."""
    keys = [e.key for e in month_events(4, GM, SETUP)]
    assert keys.index("neutral-character") < keys.index("character-row")
    two_akebono = CalendarOptions(players=2, akebono=True)
    keys = [e.key for e in month_events(8, two_akebono, None)]
    assert keys.index("fire") < keys.index("neutral-character") < keys.index("character-row")


def test_phase_b_plays_the_1_4_space_first_then_1_2_3_4() -> None:
    """INFERRED["phase-b-order"]: iki-rulebook.txt "The number on the spaces indicates the turn order";
    iki-condensed-rules.txt "1-4 first, then 1, 2, 3, and 4"."""
    actions = next(e for e in month_events(2, BASE, None) if e.key == "actions")
    assert "In Ikizama order, 1-4, then 1, then 2, then 3, then 4" in actions.asks
    assert "rightmost" not in actions.asks
    assert "phase-b-order" in cat.INFERRED


WINTER_NOBODY = "The Mounted Samurai and the Rice Broker count in nobody's group at the end of Winter"


@pytest.mark.parametrize(
    ("options", "month", "setup", "present", "absent"),
    [
        (BASE, 3, None, ["their Kobuns on cards of that type × the cards of that type"], ["Bathhouse"]),
        (AKEBONO, 3, None, ["The Public Bathhouse's owner doubles"], ["nobody's group"]),
        (AKEBONO, 3, {"buildings": ["inn", "temple"]}, [], ["Bathhouse"]),
        # RULINGS R26: both count in nobody's group; both named whatever was drawn (issue 20: nothing hidden)
        (AKEBONO, 12, None, [WINTER_NOBODY], ["no harmony"]),
        (AKEBONO, 12, SETUP, [WINTER_NOBODY], ["no harmony"]),
        (AKEBONO, 9, None, [], ["nobody's group"]),
        (TWO, 6, None, ["Neutral characters count."], ["Bathhouse"]),
    ],
)
def test_nagaya_harmony_names_what_changes_it(
    options: CalendarOptions, month: int, setup: Any, present: list[str], absent: list[str]
) -> None:
    """iki-rulebook.txt "Nagaya Harmony Bonus" and its example (a Shop Seller beside an Artisan scores nothing;
    one Master Craftsman each beside another scores 1 × 2); Akebono Appendix 1-2 (Mounted Samurai, Rice Broker,
    Public Bathhouse), named only when they can be in this game."""
    harmony = next(e for e in month_events(month, options, setup) if e.key == "harmony")
    for words in present:
        assert words in harmony.asks
    for words in absent:
        assert words not in harmony.asks


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        (None, ["Imperial Villa", "Farmhouse's owner gains 2 IKI for each Kobun they fed"]),
        ({"buildings": ["farmhouse", "inn"]}, ["Farmhouse"]),
        ({"buildings": ["imperial-villa"]}, ["Imperial Villa"]),
        ({"buildings": ["inn", "well"]}, []),
    ],
)
def test_season_end_buildings_after_food(setup: Any, words: list[str]) -> None:
    """iki-rulebook.txt Appendix 2: the Farmhouse's 2 IKI per Kobun fed come after the food step; the Imperial
    Villa's income at the end of each season. Only the buildings of this game's setup (all when unknown)."""
    events = month_events(6, BASE, setup)
    keys = [e.key for e in events]
    if not words:
        assert "season-end-buildings" not in keys
        return
    assert keys.index("food") < keys.index("season-end-buildings")
    asks = events[keys.index("season-end-buildings")].asks
    assert all(w in asks for w in words)
    assert ("Imperial Villa" in asks) == ("Imperial Villa" in words)


def test_the_calendars_inferred_readings_are_listed() -> None:
    """Issue 11 item 16: every inferred reading lives in INFERRED, citing its ruling."""
    for key in ("neutral-placer", "neutral-before-season-end", "neutral-before-new-character-discard"):
        assert "RULINGS R17" in cat.INFERRED[key]
    assert {"phase-b-order", "season-end-buildings"} <= set(cat.INFERRED)
