"""The tracker's record follows the same rules as the scoring (issue 19, "The tracker's record"), one row per rule:
nothing beyond a component's supply (RULINGS R1, R22), token costs leave the record (R25), immediate IKI on the
score track (R29), losses say what happened (R26, R29), the order shown is the order played (R26), and nothing
hidden is offered before it is revealed (issue 20, item 1; RULINGS R13, R18).

Akebono games of the seed K7MX2QPA (tests.factories.make_game), three players Anaïs, Ben, Chie: Spring's
Personalities are Jūzaburō Tsutaya and Sanyō Rai, Summer's Nanpo Ōta and Shūsaku Chiba; the Ferry boat on side B.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from companion.models.games import Game, Seat
from companion.services.tracker import record_add, records
from scoring.catalogue import CHARACTER_BY_ID, PERSONALITY_BY_ID
from tests.factories import make_game

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
SPRING = ("juzaburo-tsutaya", "sanyo-rai")
SUMMER = ("nanpo-ota", "shusaku-chiba")

Entry = tuple[int, str, str]


def _post(client: Client, game: Game, **form: Any) -> Any:
    return client.post(f"/games/{game.edit_token}/change", form, **HX)


def _add(client: Client, game: Game, seat: int, field: str, key: str, **extra: Any) -> Any:
    return _post(client, game, op="record-add", seat=seat, field=field, key=key, **extra)


def _month_12(game: Game) -> None:
    """The game in month 12 with its New Character revealed: the Mounted Samurai and the Rice Broker may be hired
    (recorded before that they are refused, RULINGS R18)."""
    Game.objects.filter(pk=game.pk).update(month=12, revealed=["new-character-12"])


def _records(game: Game) -> dict[int, dict[str, Any]]:
    return {s.seat: s.record for s in Seat.objects.filter(game=game)}


def _seat(game: Game, seat: int) -> Seat:
    return Seat.objects.get(game=game, seat=seat)


def _undo(client: Client, game: Game) -> None:
    game.refresh_from_db()
    assert _post(client, game, op="undo", v=game.version).status_code == 200


def _options(page: str, select_id: str) -> list[str]:
    """The values a picker (a <select> of the record section) offers."""
    found = re.search(rf'<select id="{select_id}" name="key">(.*?)</select>', page, re.S)
    assert found is not None, select_id
    return re.findall(r'<option value="([^"]+)"', found.group(1))


def _page(client: Client, game: Game) -> str:
    return str(client.get(f"/games/{game.edit_token}/").content.decode())


def _setup(game: Game, **akebono: Any) -> None:
    """Change the stored setup's Akebono part (a boat's side) for one test."""
    setup = dict(game.setup)
    setup["akebono"] = {**setup["akebono"], **akebono}
    Game.objects.filter(pk=game.pk).update(setup=setup)


# --- nothing beyond its supply (RULINGS R1, R22) ------------------------------------------------------------------

#: (entries made first, the entry tried, its status, words of the answer). Each entry made first must be saved.
SUPPLY = [
    # the case of issue 19: Ben met a Personality, Anaïs "meets" it too: asked, naming both, not saved
    ([(2, "personalities", SPRING[0])], (1, "personalities", SPRING[0]), 200, "Ben holds Jūzaburō Tsutaya"),
    ([(1, "characters", "monk")], (1, "characters", "monk"), 400, "Anaïs already holds Monk"),
    ([(2, "boats", "shop-boat")], (3, "boats", "shop-boat"), 200, "Move it to Chie?"),
    ([(2, "tokens", "fish-spring")], (1, "tokens", "fish-spring"), 200, "Ben holds Spring fish"),
    ([(1, "buildings", "well")], (2, "buildings", "well"), 200, "Anaïs holds Well"),
    # two Doctor tokens and two Avoid a Fire tokens exist (RULINGS R1): a third is refused
    (
        [(1, "retirement_tokens", "doctor"), (2, "retirement_tokens", "doctor")],
        (3, "retirement_tokens", "doctor"),
        400,
        "All 2 Doctor tokens are taken (Anaïs, Ben)",
    ),
    (
        [(1, "retirement_tokens", "fire-protection"), (1, "retirement_tokens", "fire-protection")],
        (2, "retirement_tokens", "fire-protection"),
        400,
        "are taken (Anaïs, Anaïs)",
    ),
]


@pytest.mark.parametrize(("before", "entry", "status", "words"), SUPPLY)
def test_nothing_beyond_its_supply_is_recorded(
    client: Client, before: list[Entry], entry: Entry, status: int, words: str
) -> None:
    game = make_game(akebono=True)
    for seat, field, key in before:
        assert _add(client, game, seat, field, key).status_code == 200, key
    kept = _records(game)
    response = _add(client, game, *entry)
    assert response.status_code == status
    assert words in response.content.decode()
    assert _records(game) == kept  # refused or asked: nothing saved


@pytest.mark.parametrize(
    ("loss", "entry"),
    [
        ({"op": "lost", "seat": 1, "key": "monk"}, (2, "characters", "monk")),
        ({"op": "lost", "seat": 1, "key": "monk", "field": "unfed"}, (1, "characters", "monk")),
        ({"op": "lost", "seat": 1, "key": "well", "field": "burnt"}, (2, "buildings", "well")),
    ],
)
def test_what_left_the_game_cannot_be_recorded_again(
    client: Client, loss: dict[str, Any], entry: Entry
) -> None:
    game = make_game(akebono=True)
    _add(client, game, 1, "characters", "monk")
    _add(client, game, 1, "buildings", "well")
    assert _post(client, game, **loss).status_code == 200
    response = _add(client, game, *entry)
    assert response.status_code == 400
    assert "left the game (Anaïs" in response.content.decode()


def test_a_component_held_by_another_player_moves_when_the_table_says_so_and_undo_restores_both(
    client: Client,
) -> None:
    game = make_game(akebono=True)
    _add(client, game, 2, "personalities", SPRING[0])
    asked = _add(client, game, 1, "personalities", SPRING[0]).content.decode()
    assert 'id="record-question"' in asked and 'name="move" value="1"' in asked
    assert _add(client, game, 1, "personalities", SPRING[0], move="1").status_code == 200
    assert _records(game)[1]["personalities"] == [SPRING[0]]
    assert _records(game)[2]["personalities"] == []
    assert "(moved from Ben)" in client.get(f"/games/{game.view_token}/log").content.decode()
    _undo(client, game)
    assert _records(game)[1] == {} and _records(game)[2]["personalities"] == [SPRING[0]]


def test_the_met_and_retirement_pickers_stop_offering_what_is_taken(client: Client) -> None:
    game = make_game(akebono=True)
    page = _page(client, game)
    assert SPRING[0] in _options(page, "record-personalities")
    assert "doctor" in _options(page, "record-retirement_tokens")
    _add(client, game, 2, "personalities", SPRING[0])
    _add(client, game, 1, "retirement_tokens", "doctor")
    _add(client, game, 3, "retirement_tokens", "owner")
    page = _page(client, game)
    assert SPRING[0] not in _options(page, "record-personalities")
    assert "owner" not in _options(page, "record-retirement_tokens")
    assert "doctor" in _options(page, "record-retirement_tokens")  # the second Doctor token
    _add(client, game, 2, "retirement_tokens", "doctor")
    assert "doctor" not in _options(_page(client, game), "record-retirement_tokens")


# --- token costs leave the record (RULINGS R25) --------------------------------------------------------------------

#: (tokens the player holds, the building, what is sent, the status, words of the answer, the tokens left after).
COSTS = [
    (
        ["fish-spring", "fish-summer-bonus"],
        "pub-izakaya",
        {},
        200,
        "Anaïs: which fish paid for the Pub?",
        None,
    ),
    (
        ["fish-spring", "fish-summer-bonus"],
        "pub-izakaya",
        {"paid": "fish-spring"},
        200,
        "paid with Spring fish",
        ["fish-summer-bonus"],
    ),
    (["fish-spring"], "pub-izakaya", {}, 200, "paid with Spring fish", []),
    ([], "pub-izakaya", {}, 400, "Anaïs holds no fish", None),
    (["fish-spring"], "pub-izakaya", {"paid": "fish-summer"}, 400, "holds no such fish", None),
    (
        ["pipe-spring-1", "pipe-summer-2"],
        "storytellers-theater",
        {},
        200,
        "Anaïs: which pipe paid for the Storyteller&#x27;s Theater?",
        None,
    ),
    (
        ["pipe-spring-1", "pipe-summer-2"],
        "storytellers-theater",
        {"paid": "pipe-summer-2"},
        200,
        "paid with",
        ["pipe-spring-1"],
    ),
]


@pytest.mark.parametrize(("tokens", "building", "sent", "status", "words", "left"), COSTS)
def test_a_building_s_token_cost_asks_which_token_and_takes_it_out(
    client: Client,
    tokens: list[str],
    building: str,
    sent: dict[str, str],
    status: int,
    words: str,
    left: list[str] | None,
) -> None:
    game = make_game(akebono=True)
    for token in tokens:
        assert _add(client, game, 1, "tokens", token).status_code == 200
    before = _records(game)[1]
    response = _add(client, game, 1, "buildings", building, **sent)
    assert response.status_code == status
    assert words in response.content.decode()
    record = _records(game)[1]
    if left is None:
        assert record == before  # asked or refused: nothing saved
        return
    field = records.field_of("tokens", tokens[0])
    assert record[field] == left and record["buildings"] == [building]
    assert records.scoring_fields(_seat(game, 1)).get(field, []) == left  # the walk-through gets what is left
    _undo(client, game)
    assert _records(game)[1] == before


def test_the_question_offers_the_player_s_tokens_as_choices(client: Client) -> None:
    game = make_game(akebono=True)
    _add(client, game, 1, "tokens", "fish-spring")
    _add(client, game, 1, "tokens", "fish-summer-bonus")
    _add(client, game, 2, "tokens", "fish-autumn")
    page = _add(client, game, 1, "buildings", "pub-izakaya").content.decode()
    question = page[page.index('id="record-question"') :]
    assert re.findall(r'name="paid" value="([^"]+)"', question) == ["fish-spring", "fish-summer-bonus"]


#: (what the player holds, the activation, the setup's Carrying ship side, status, words, IKI after, pipes left).
SPEND_PIPE = [
    (
        [("characters", "mounted-samurai"), ("tokens", "pipe-spring-1")],
        "mounted-samurai",
        "A",
        200,
        "spent Spring pipe 1 on the Mounted Samurai (+6 IKI, now 6)",
        6,
        [],
    ),
    (
        [("tokens", "pipe-spring-1")],
        "mounted-samurai",
        "A",
        400,
        "has not hired the Mounted Samurai",
        0,
        None,
    ),
    ([("characters", "mounted-samurai")], "mounted-samurai", "A", 400, "Anaïs holds no pipe", 0, None),
    (
        [("boats", "carrying-ship"), ("tokens", "pipe-spring-1")],
        "carrying-ship",
        "B",
        200,
        "spent Spring pipe 1 on the Carrying ship.",
        0,
        [],
    ),
    ([("boats", "carrying-ship"), ("tokens", "pipe-spring-1")], "carrying-ship", "A", 400, "side A", 0, None),
    ([("tokens", "pipe-spring-1")], "carrying-ship", "B", 400, "Nobody has built the Carrying ship", 0, None),
    (
        [("characters", "mounted-samurai"), ("tokens", "pipe-spring-1"), ("tokens", "pipe-summer-1")],
        "mounted-samurai",
        "B",
        200,
        "Which pipe did Anaïs spend?",
        0,
        None,
    ),
]


@pytest.mark.parametrize(("held", "what", "side", "status", "words", "score", "left"), SPEND_PIPE)
def test_an_activation_that_spends_a_pipe_is_recorded(
    client: Client,
    held: list[tuple[str, str]],
    what: str,
    side: str,
    status: int,
    words: str,
    score: int,
    left: list[str] | None,
) -> None:
    game = make_game(akebono=True)
    _setup(game, boat_sides={**game.setup["akebono"]["boat_sides"], "carrying-ship": side})
    _month_12(game)  # the Mounted Samurai is month 12's New Character
    for field, key in held:
        assert _add(client, game, 1, field, key).status_code == 200
    before = _records(game)[1]
    response = _add(client, game, 1, record_add.SPEND_PIPE, what)
    assert response.status_code == status
    assert words in response.content.decode()
    seat = _seat(game, 1)
    assert seat.score == score
    if left is None:
        assert seat.record == before
    else:
        assert seat.record["pipes"] == left and seat.record["spent"] == ["pipe-spring-1"]


# --- immediate IKI on the score track (RULINGS R29) ----------------------------------------------------------------

#: (entries first, the score set first, the entry, the score after, words of the answer, its level).
IMMEDIATE = [
    ([], 0, ("tokens", "fish-summer-akebono"), 4, "+4 IKI, now 4", "ok"),
    ([], 10, ("tokens", "fish-autumn-akebono"), 15, "+5 IKI, now 15", "ok"),
    ([], 0, ("characters", "rice-broker"), 2, "+2 IKI, now 2", "ok"),
    ([("buildings", "fire-watchtower")], 0, ("characters", "firefighter"), 3, "+3 IKI, now 3", "ok"),
    ([("buildings", "fire-watchtower")], 0, ("characters", "seamstress"), 0, "Anaïs hired Seamstress.", "ok"),
    ([], 0, ("characters", "firefighter"), 0, "(now firefighting 2)", "ok"),
    ([], 10, ("personalities", SPRING[0]), 10, "met Jūzaburō Tsutaya.", "ok"),
    ([("boats", "ferry-boat")], 10, ("personalities", "philipp-franz-von-siebold"), 6, "−4 IKI, now 6", "ok"),
    (
        [("boats", "ferry-boat")],
        2,
        ("personalities", "philipp-franz-von-siebold"),
        0,
        "Anaïs had only 2: check the score track",
        "warning",
    ),
]


@pytest.mark.parametrize(("before", "score", "entry", "after", "words", "level"), IMMEDIATE)
def test_immediate_iki_goes_on_the_score_track_and_the_answer_says_it(
    client: Client,
    before: list[tuple[str, str]],
    score: int,
    entry: tuple[str, str],
    after: int,
    words: str,
    level: str,
) -> None:
    game = make_game(akebono=True)
    if entry[1] == "philipp-franz-von-siebold":
        Game.objects.filter(pk=game.pk).update(month=7, revealed=["season-summer", "season-autumn"])
    if entry[1] == "rice-broker":
        _month_12(game)
    for field, key in before:
        _add(client, game, 1, field, key)
    Seat.objects.filter(game=game, seat=1).update(score=score)
    response = _add(client, game, 1, *entry)
    assert response.status_code == 200
    text = response.content.decode()
    # The answer stands under the form tapped (issue 23): the only answer slot that says something.
    message = re.search(r'class="answer small (\w+)"[^>]*>([^<]+)</p>', text)
    assert message is not None
    assert message.group(1) == level
    assert words in message.group(2)
    assert _seat(game, 1).score == after
    _undo(client, game)
    assert _seat(game, 1).score == score


# --- losses say what happened (RULINGS R26, R29) -------------------------------------------------------------------

#: (the loss sent, status, the log's words, the record after). Anaïs holds the Firefighter, the Monk, the Well and a
#: Doctor token; her firefighting marker stands on 2.
LOSSES = [
    ({"key": "monk"}, 200, "Anaïs lost Monk in a fire", {"lost": ["monk"]}),
    ({"key": "monk", "field": "unfed"}, 200, "Anaïs lost Monk (not fed)", {"unfed": ["monk"]}),
    ({"key": "well", "field": "burnt"}, 200, "Anaïs lost Well: burnt in a fire", {"burnt": ["well"]}),
    (
        {"key": "monk", "field": "doctor"},
        200,
        "Monk retires instead (record its token if taken: Hire -1 (Monk))",
        {"spent": ["doctor"], "retirement_tokens": []},
    ),
    ({"key": "monk", "field": "eaten"}, 400, "Choose how it was lost", {}),
    ({"key": "well", "field": "unfed"}, 400, "no longer there", {}),
]


@pytest.mark.parametrize(("loss", "status", "words", "after"), LOSSES)
def test_a_loss_says_what_happened(
    client: Client, loss: dict[str, str], status: int, words: str, after: dict[str, list[str]]
) -> None:
    game = make_game(akebono=True)
    for field, key in (("characters", "firefighter"), ("characters", "monk"), ("buildings", "well")):
        _add(client, game, 1, field, key)
    _add(client, game, 1, "retirement_tokens", "doctor")
    before = _records(game)[1]
    response = _post(client, game, op="lost", seat=1, **loss)
    assert response.status_code == status
    assert words in response.content.decode()
    record = _records(game)[1]
    assert record == {**before, **after} | (
        {"characters": ["firefighter"]} if "lost" in after or "unfed" in after else {}
    ) | ({"buildings": []} if "burnt" in after else {})


def test_a_burnt_building_scores_nothing_and_is_not_offered_again(client: Client) -> None:
    game = make_game(akebono=True)
    _add(client, game, 1, "buildings", "well")
    assert "well" not in _options(_page(client, game), "record-buildings")
    _post(client, game, op="lost", seat=1, key="well", field="burnt")
    page = _page(client, game)
    assert "well" not in _options(page, "record-buildings")
    assert "Burnt in a fire" in page
    assert "well" not in records.scoring_fields(_seat(game, 1)).get("buildings", [])


@pytest.mark.parametrize("how", ["fire", "unfed"])
def test_a_lost_character_counts_toward_the_firefighting_floor(client: Client, how: str) -> None:
    """RULINGS R26: the marker "remains where it stands" when a character leaves: lost, its gain still counts."""
    game = make_game(akebono=True)
    _add(client, game, 1, "characters", "firefighter")  # firefighting +2
    _post(client, game, op="lost", seat=1, key="firefighter", field=how)
    game.refresh_from_db()
    assert _post(client, game, op="fire-set", seat=1, value=1, v=game.version).status_code == 200
    assert 'data-code="firefighting-below-gains"' in _page(client, game)


def test_the_doctor_token_is_offered_only_to_its_holder(client: Client) -> None:
    game = make_game(akebono=True)
    _add(client, game, 1, "characters", "monk")
    _add(client, game, 2, "characters", "dice-maker")
    _add(client, game, 1, "retirement_tokens", "doctor")
    page = _page(client, game)
    assert 'id="lose-doctor-1-monk"' in page and 'id="lose-doctor-2-dice-maker"' not in page
    assert "Discard the Doctor token: Monk retires instead" in page
    assert 'id="doctor-note-1"' in page and 'id="doctor-note-2"' not in page
    assert _post(client, game, op="lost", seat=2, key="dice-maker", field="doctor").status_code == 400


# --- the order shown is the order played (RULINGS R26) -------------------------------------------------------------


def _at(game: Game, month: int, phase: str) -> None:
    Game.objects.filter(pk=game.pk).update(month=month, phase=phase)


#: (month, phase, the order shown, or None when the page must list none and say why). Seed K7MX2QPA, 3 players:
#: Chie (seat 3) is the first player; Ben's firefighting marker is moved to 2 first.
ORDERS = [
    (1, "A", ["Chie", "Anaïs", "Ben"]),
    (1, "B", None),
    (1, "C", ["Ben", "Chie", "Anaïs"]),
    (2, "A", ["Ben", "Chie", "Anaïs"]),
    (2, "B", None),
    (13, "new-year", ["Ben", "Chie", "Anaïs"]),
]


@pytest.mark.parametrize(("month", "phase", "order"), ORDERS)
def test_the_order_shown_is_the_order_played(
    client: Client, month: int, phase: str, order: list[str] | None
) -> None:
    game = make_game(akebono=True)
    assert game.first_player == 3
    assert _post(client, game, op="fire-set", seat=2, value=2, v=game.version).status_code == 200
    _at(game, month, phase)
    html = client.get(f"/games/{game.view_token}/state").content.decode()
    part = html[html.index('data-part="order"') :]
    part = part[: part.index("</section>")]
    shown = re.findall(r'</span>([^<]+?) <span class="pill">', part)
    if order is None:
        assert shown == []
        assert "does not see where the meeples stand" in part
    else:
        assert shown == order


# --- nothing hidden is offered before it is revealed (issue 20, item 1) ---------------------------------------------


def _revealed(game: Game, *keys: str, month: int = 1, phase: str = "A") -> None:
    Game.objects.filter(pk=game.pk).update(month=month, phase=phase, revealed=list(keys))


#: (month, phase, revealed keys, the Ferry built, Personalities offered for "Met", some never offered).
MET = [
    (1, "A", [], False, set(SPRING), set(SUMMER)),
    (3, "C", [], False, set(SPRING), set(SUMMER)),  # Summer's reveal is due but not made: still hidden
    (3, "C", ["season-summer"], False, {*SPRING, *SUMMER}, {"ikku-jippensha"}),
    (1, "A", [], True, {"nezumi-kozo", "tokunai-mogami", *SPRING}, {*SUMMER, "katsushika-hokusai"}),
    (4, "A", ["season-summer"], True, {"katsushika-hokusai", *SUMMER}, {"ikku-jippensha", "ryokan"}),
]


@pytest.mark.parametrize(("month", "phase", "keys", "ferry", "offered", "never"), MET)
def test_met_offers_only_the_personalities_revealed(
    client: Client, month: int, phase: str, keys: list[str], ferry: bool, offered: set[str], never: set[str]
) -> None:
    game = make_game(akebono=True)
    if ferry:
        _add(client, game, 3, "boats", "ferry-boat")  # side B in this setup: RULINGS R13 opens its seasons
    _revealed(game, *keys, month=month, phase=phase)
    page = _page(client, game)
    assert offered <= set(_options(page, "record-personalities"))
    for hidden in never:
        assert PERSONALITY_BY_ID[hidden].name not in page


def test_the_ferry_on_side_a_opens_nothing(client: Client) -> None:
    game = make_game(akebono=True)
    _setup(game, boat_sides={**game.setup["akebono"]["boat_sides"], "ferry-boat": "A"})
    _add(client, game, 3, "boats", "ferry-boat")
    assert set(_options(_page(client, game), "record-personalities")) == set(SPRING)


@pytest.mark.parametrize(
    ("month", "keys", "offered", "hidden"),
    [
        (1, [], [], ["calendar-seller", "express-messenger", "fisherman"]),
        (1, ["new-character-1"], ["calendar-seller"], ["express-messenger", "fisherman"]),
        (
            3,
            ["new-character-1", "new-character-2"],
            ["calendar-seller", "express-messenger"],
            ["ship-carpenter"],
        ),
    ],
)
def test_new_characters_are_offered_only_once_revealed(
    client: Client, month: int, keys: list[str], offered: list[str], hidden: list[str]
) -> None:
    game = make_game(akebono=True)
    drawn = game.setup["akebono"]["new_characters"]
    assert [drawn["1"], drawn["2"], drawn["3"], drawn["7"]] == [
        "calendar-seller",
        "express-messenger",
        "ship-carpenter",
        "fisherman",
    ]
    _revealed(game, *keys, month=month)
    choices = _options(_page(client, game), "record-characters")
    assert all(c in choices for c in offered)
    assert not any(c in choices for c in hidden)
    # the undrawn partner of a month (returned to the box at setup) is never offered
    assert "taiko-seller" not in choices


#: (month, revealed keys, the Ferry built, the record, refused). RULINGS R18: a later season's Personalities and
#: each month's New Character stay hidden until revealed, the drawn ones and the others alike; R13: the Ferry's
#: side B meets any Personality of a season revealed, never of a later one. In this setup Winter's pair is Kazan
#: Watanabe and Ōi Katsushika, month 11's New Character the Shamisen Master, month 12's the Mounted Samurai.
SUMMER_5 = ["season-summer", "new-character-4", "new-character-5"]
UNSEEN = [
    (5, SUMMER_5, False, ("personalities", "kazan-watanabe"), True),  # on Winter's bridge
    (5, SUMMER_5, False, ("personalities", "gennai-hiraga"), True),  # not on it: answered alike
    (5, SUMMER_5, True, ("personalities", "oi-katsushika"), True),  # the Ferry opens no later season
    (5, SUMMER_5, False, ("characters", "policeman"), True),  # month 11's pair
    (5, SUMMER_5, False, ("characters", "shamisen-master"), True),
    (5, SUMMER_5, False, ("characters", "rice-broker"), True),  # month 12's pair
    (5, SUMMER_5, False, ("characters", "mounted-samurai"), True),
    (
        5,
        ["season-summer", "new-character-4"],
        False,
        ("characters", "mask-crafter"),
        True,
    ),  # its reveal not made
    (5, SUMMER_5, False, ("personalities", "shusaku-chiba"), False),  # revealed
    (5, SUMMER_5, False, ("personalities", "sanyo-rai"), False),  # Spring's, out from the setup
    (
        5,
        SUMMER_5,
        True,
        ("personalities", "saiko-ema"),
        False,
    ),  # the Ferry's side B: Summer's, off the bridge
    (5, SUMMER_5, False, ("characters", "mask-crafter"), False),
    (
        5,
        SUMMER_5,
        False,
        ("characters", "cabinet-maker"),
        False,
    ),  # month 5's other card: the validator's to flag
    (5, SUMMER_5, False, ("characters", "drug-store"), False),
    (5, SUMMER_5, False, ("characters", "firefighter"), False),  # base game
    (5, SUMMER_5, False, ("tokens", "pipe-winter-1"), False),  # tokens are not drawn in secret
    (10, [*SUMMER_5, "season-autumn", "season-winter"], False, ("personalities", "gennai-hiraga"), False),
]


@pytest.mark.parametrize(("month", "keys", "ferry", "entry", "refused"), UNSEEN)
def test_a_card_the_table_cannot_have_seen_is_refused_naming_nothing(
    client: Client, month: int, keys: list[str], ferry: bool, entry: tuple[str, str], refused: bool
) -> None:
    """A crafted record of a card still hidden is refused alike for every card (the pickers never offer one), so
    neither the answer nor a flag on the record tells which was drawn; nothing is written or logged."""
    game = make_game(akebono=True)
    if ferry:
        _add(client, game, 3, "boats", "ferry-boat")  # side B in this setup
    _revealed(game, *keys, month=month)
    version = Game.objects.get(pk=game.pk).version
    response = _add(client, game, 1, *entry)
    if not refused:
        assert response.status_code == 200
        assert _records(game)[1] == {entry[0] if entry[0] != "tokens" else "pipes": [entry[1]]}
        return
    assert response.status_code == 400
    answer = response.content.decode()
    said = re.findall(r'class="answer small (\w+)"[^>]*>([^<]+)</p>', answer)
    assert said == [("error", "That card is not in play yet.")]
    name = (PERSONALITY_BY_ID if entry[0] == "personalities" else CHARACTER_BY_ID)[entry[1]].name
    assert _records(game)[1] == {}
    assert Game.objects.get(pk=game.pk).version == version
    assert name not in client.get(f"/games/{game.view_token}/log").content.decode()


@pytest.mark.parametrize(
    ("month", "entry", "refused"),
    [
        (4, ("personalities", "saiko-ema"), False),
        (4, ("personalities", "ikku-jippensha"), True),
        (13, ("personalities", "gennai-hiraga"), False),
        (5, ("characters", "mask-crafter"), False),
        (5, ("characters", "repairman"), True),
    ],
)
def test_without_the_draws_in_the_setup_a_card_is_in_play_from_its_season_or_month(
    client: Client, month: int, entry: tuple[str, str], refused: bool
) -> None:
    """A setup that gives no Personalities nor New Characters has nothing to reveal: a card is judged by the month
    the table is in (RULINGS R18, Summer's from month 4, month 8's New Characters from month 8)."""
    game = make_game(akebono=True)
    _setup(game, personalities={}, new_characters={})
    _revealed(game, month=month)
    assert _add(client, game, 1, *entry).status_code == (400 if refused else 200)


def test_score_the_game_prefills_what_is_left_after_the_costs(client: Client) -> None:
    """Issue 19: a recorded game with a Pub and a Storyteller's Theater prefilled every fish and pipe bought."""
    from companion.models.scoresheets import ScoreSheet

    game = make_game(akebono=True)
    for token in ("fish-spring-bonus", "fish-summer-bonus", "pipe-spring-1", "pipe-summer-2"):
        _add(client, game, 1, "tokens", token)
    _add(client, game, 1, "buildings", "pub-izakaya", paid="fish-summer-bonus")
    _add(client, game, 1, "buildings", "storytellers-theater", paid="pipe-spring-1")
    Game.objects.filter(pk=game.pk).update(month=13, finished=True)
    assert client.post(f"/games/{game.edit_token}/end").status_code == 302
    anais = ScoreSheet.objects.get().table["players"][0]
    assert (anais["fish"], anais["pipes"]) == (["fish-spring-bonus"], ["pipe-summer-2"])
    assert anais["buildings"] == ["pub-izakaya", "storytellers-theater"]
    assert "spent" not in anais


def test_without_javascript_the_question_is_a_page_and_its_answer_a_redirect(client: Client) -> None:
    game = make_game(akebono=True)
    url = f"/games/{game.edit_token}/change"
    for token in ("fish-spring", "fish-autumn"):
        assert (
            client.post(url, {"op": "record-add", "seat": 1, "field": "tokens", "key": token}).status_code
            == 302
        )
    form = {"op": "record-add", "seat": 1, "field": "buildings", "key": "pub-izakaya"}
    page = client.post(url, form)
    html = page.content.decode()
    assert page.status_code == 200 and "<!doctype html>" in html.lower()
    assert "Anaïs: which fish paid for the Pub?" in html
    question = html[html.index('id="record-question"') :]
    assert question.count('name="paid"') == 2 and 'name="key" value="pub-izakaya"' in question
    assert client.post(url, form | {"paid": "fish-autumn"}).status_code == 302
    assert _records(game)[1] == {
        "fish": ["fish-spring"],
        "buildings": ["pub-izakaya"],
        "spent": ["fish-autumn"],
    }
    # the view-only link never sees the record, nor may it answer
    assert "record-question" not in client.get(f"/games/{game.view_token}/").content.decode()
    assert client.post(f"/games/{game.view_token}/change", form | {"paid": "fish-spring"}).status_code == 403


@pytest.mark.parametrize(
    ("held", "side", "offered"),
    [
        ([], "B", None),  # nothing to activate: no picker, month 12's New Character unnamed
        ([(2, "boats", "carrying-ship")], "B", ["carrying-ship"]),
        ([(2, "boats", "carrying-ship")], "A", None),  # side A spends a sandal
        ([(3, "characters", "mounted-samurai")], "A", ["mounted-samurai"]),
    ],
)
def test_spent_a_pipe_offers_only_what_was_built_or_hired(
    client: Client, held: list[Entry], side: str, offered: list[str] | None
) -> None:
    game = make_game(akebono=True)
    _setup(game, boat_sides={**game.setup["akebono"]["boat_sides"], "carrying-ship": side})
    if held:
        _month_12(game)  # month 12's New Character is hired then, never named before (the first row)
    for seat, field, key in held:
        _add(client, game, seat, field, key)
    page = _page(client, game)
    if offered is None:
        assert 'id="record-spend-pipe"' not in page
    else:
        assert _options(page, "record-spend-pipe") == offered
