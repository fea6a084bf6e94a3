"""What the tracked game's record section offers (issue 13, item 5; issues 19 and 20): what the rules put in
front of the table first, nothing beyond its supply nor hidden before it is revealed, and each player's record
with the validator's flags; an entry removed from a record keeps its place as a "Removed · Undo" line (issue 23)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from companion.models.games import Change, Game, Seat
from companion.services.tracker import new_year, record_add, record_flags, record_removals, records
from companion.services.tracker.games import (
    scoring_setup,
)
from scoring.calendar import (
    NEW_YEAR,
    new_character_reveal,
    season_shown,
)
from scoring.catalogue import (
    BOAT_BY_ID,
    BOATS,
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    CHARACTERS,
    PERSONALITY_BY_ID,
    RETIREMENT_TOKEN_BY_ID,
    RETIREMENT_TOKENS,
    TOKEN_BY_ID,
    TOKENS,
    personalities_of_season,
)
from scoring.components import SEASONS, Expansion, Season
from scoring.table import LIST_FIELDS

BASE_FORMS = frozenset({"characters", "tokens", "retirement_tokens", "buildings"})
AKEBONO_FORMS = BASE_FORMS | {"boats", "personalities"}
"""The record forms always shown (each with its answer slot, ``answer-record-add-<field>``); the pipe spent is
shown only when someone can spend one, and answers in the section's own slot."""


def form_shown(game: Game, field: str) -> bool:
    """Whether the record's form of ``field`` is always on the page (its answer goes under it)."""
    return game.scoresheet_id is None and field in (AKEBONO_FORMS if game.akebono else BASE_FORMS)


def _choices(ids: Iterable[str], names: Mapping[str, Any], held: set[str]) -> list[tuple[str, str]]:
    return [(i, names[i].name) for i in ids if i in names and i not in held]


def flags_of(game: Game, seats: list[Seat]) -> dict[str, list[record_flags.Flag]]:
    """The validator's flags of what the table recorded, by player ("" for the table); none while nothing is
    recorded. They read the tracks too (a marker below what the player's hires gained, RULINGS R26)."""
    if not any(s.record for s in seats):
        return {}
    return record_flags.problems(seats, akebono=game.akebono, setup=scoring_setup(game))


def record_context(game: Game, seats: list[Seat], season: Season | None) -> dict[str, Any]:
    """What the record section offers (what the rules put in front of the table first) and what each player
    has, with the validator's flags (issue 13, item 5). Nothing beyond its supply is offered, nor anything hidden
    before the table revealed it (issues 19 and 20)."""
    editions = {Expansion.BASE, Expansion.AKEBONO} if game.akebono else {Expansion.BASE}
    held = {
        i
        for s in seats
        for f, items in records.entries(s).items()
        if f not in ("retirement_tokens", records.SPENT)
        for i in items
    } | {i for s in seats for i in records.entries(s).get(records.SPENT, []) if i in TOKEN_BY_ID}
    setup = game.setup if isinstance(game.setup, dict) else {}
    revealed = frozenset(game.revealed)
    now: list[str] = [
        c.id for c in CHARACTERS if season is not None and c.season is season and not c.new_character
    ]
    month_new = (setup.get("akebono") or {}).get("new_characters", {}).get(str(game.month))
    if game.akebono and new_character_reveal(game.month) in revealed and isinstance(month_new, str):
        now.insert(0, month_new)
    starting = [str(c.get("card")) for c in setup.get("starting_characters") or [] if isinstance(c, dict)]
    shown_new = _revealed_new_characters(game, setup)
    # Once every player holds a starting card, those left were returned to the box (base rulebook, setup 13B;
    # Akebono's setup 10): no one can draft them any more.
    drafted = all(set(records.entries(s).get("characters", [])) & set(starting) for s in seats)
    # A later season's cards and tokens are not out yet: the pickers offer those of this season and the earlier
    # ones (a record the table forgot), never what no one can have hired or bought in this month; a starting card
    # (of no season) the setup did not deal has left the game (RULINGS R15, R18), and a token of no season comes
    # with its New Character, once revealed.
    reached = SEASONS[: SEASONS.index(season) + 1] if season is not None else SEASONS
    others = [
        c.id
        for c in CHARACTERS
        if c.expansion in editions
        and c.id not in now
        and c.id not in starting
        and (c.season in reached if c.season is not None else not starting)
        and (not c.new_character or c.id in shown_new)
    ]
    token_now = [t.id for t in TOKENS if t.season is (season or SEASONS[-1]) and t.expansion in editions]
    token_rest = [
        t.id
        for t in TOKENS
        if t.expansion in editions
        and t.id not in token_now
        and (t.season in reached if t.season is not None else t.source is None or t.source in shown_new)
    ]
    met_pool = _met_pool(game, seats, setup, season)
    retirement = [
        t.id
        for t in RETIREMENT_TOKENS
        if t.expansion in editions and records.available(seats, "retirement_tokens", t.id)
    ]
    flags = flags_of(game, seats)
    groups: list[tuple[str, str, list[tuple[str, list[tuple[str, str]]]]]] = [
        (
            "characters",
            "Hired or drafted",
            [
                ("Offered now", _choices(now, CHARACTER_BY_ID, held)),
                (
                    "Starting characters (drafted)",
                    [] if drafted else _choices(starting, CHARACTER_BY_ID, held),
                ),
                ("Other characters", _choices(others, CHARACTER_BY_ID, held)),
            ],
        ),
        (
            "tokens",
            "Fish, pipe or tobacco bought",
            [
                ("This season", _choices(token_now, TOKEN_BY_ID, held)),
                ("Other tokens", _choices(token_rest, TOKEN_BY_ID, held)),
            ],
        ),
        (
            "retirement_tokens",
            "Retired (its token)",
            [
                (
                    "Tokens",
                    _choices(retirement, RETIREMENT_TOKEN_BY_ID, set()),
                )
            ],
        ),
        (
            "buildings",
            "Built",
            [("In this game", _choices(setup.get("buildings") or [], BUILDING_BY_ID, held))],
        ),
    ] + (
        [
            (
                "boats",
                "Boat built",
                [("Boats", _choices((b.id for b in BOATS if b.buildable), BOAT_BY_ID, held))],
            ),
            (
                "personalities",
                "Met",
                [("Revealed so far", _choices(met_pool, PERSONALITY_BY_ID, held))],
            ),
        ]
        + [
            (record_add.SPEND_PIPE, "Spent a pipe", [("Activated", spenders)])
            for spenders in [record_add.pipe_spenders(seats, setup)]
            if spenders
        ]
        if game.akebono
        else []
    )
    return {
        # Each picker's first choice is marked selected: a picker nobody touched is not unsaved input (live.js).
        "record_groups": [
            (field, label, options, next((i for _, choices in options for i, _ in choices), ""))
            for field, label, options in groups
        ],
        "record_labels": records.FIELD_LABELS,
        "losses": record_removals.LOSSES,
        "resources": records.RESOURCES,
        "records": [
            {
                "seat": s,
                # (id, name, None); a removed entry's line is (id, name, its change's version): history.py
                "entries": [
                    (
                        field,
                        records.FIELD_LABELS[field],
                        [(i, records.name_of(field, i), None) for i in items],
                    )
                    for field, items in records.entries(s).items()
                ],
                "doctor": record_removals.DOCTOR in records.entries(s).get("retirement_tokens", []),
                "flags": flags.get(s.name, []),
            }
            for s in seats
        ],
        "resource_rows": _resource_rows(seats) if game.month == NEW_YEAR else [],
        "table_flags": flags.get("", []),
        "flagged": [s.name for s in seats if flags.get(s.name)],
    }


def _resource_rows(seats: list[Seat]) -> list[dict[str, Any]]:
    """New Year's Day's resources, one compact row a player (issue 23): the numbers the scoring uses for them
    (:func:`new_year.resources_asked`), each prefilled with what was saved (blank, read as 0, when nothing was)."""
    rows = []
    for s in seats:
        record = s.record if isinstance(s.record, dict) else {}
        asked = new_year.resources_asked(s)
        rows.append(
            {
                "seat": s,
                "numbers": [(k, record.get(k) or "") for k in asked],
                "was": new_year.resources_seen(s),
                "saved": any(isinstance(record.get(k), int) for k in records.RESOURCES),
            }
        )
    return rows


def _revealed_new_characters(game: Game, setup: Mapping[str, Any]) -> set[str]:
    """The New Characters the table has revealed (issue 20: none is named before its month's reveal)."""
    drawn = (setup.get("akebono") or {}).get("new_characters") or {}
    revealed = set(game.revealed)
    return {
        str(card)
        for month, card in drawn.items()
        if game.akebono and new_character_reveal(month) in revealed and isinstance(card, str)
    }


def _met_pool(game: Game, seats: list[Seat], setup: Mapping[str, Any], season: Season | None) -> list[str]:
    """The Personalities a player may have met by now (issue 20, item 1): those on the bridge of every season
    the table revealed (Spring's are out from the setup, RULINGS R18); once someone built the Ferry boat and its
    side is B or unknown, every Personality of those seasons (RULINGS R13: side B meets one "from the current
    season that is not on the Nihonbashi bridge"). A later season's are never named before its reveal."""
    if not game.akebono:
        return []
    drawn = (setup.get("akebono") or {}).get("personalities") or {}
    revealed = set(game.revealed)
    seasons = [s for s in SEASONS if season_shown(s, revealed)]
    pool = [p for s in seasons for p in drawn.get(s.value) or [] if isinstance(p, str)]
    side = ((setup.get("akebono") or {}).get("boat_sides") or {}).get("ferry-boat")
    ferry = side != "A" and any("ferry-boat" in records.entries(s).get("boats", []) for s in seats)
    if ferry:
        pool += [p.id for s in seasons for p in personalities_of_season(s) if p.id not in pool]
    return pool


FOLDING_OPS: Final = frozenset({"record-add", "resources"})
"""The changes at which a player's older removals are folded (issue 23): made from the forms above the players'
records, so the lines that fold are below the thumb that made them (a removal, an undo, a loss is tapped on a
line of the record itself: the lines around it stay)."""


def keep_removed(
    shown: Iterable[dict[str, Any]], changes: Sequence[Change], older: Sequence[Change] = ()
) -> None:
    """Put a "Removed" line where each entry removed by a removal standing stood (``record-remove``, its undo
    data's ``at``: field, item, index), newest first, each into the list as it was before that removal, so the
    list below it does not move; but fold a player's older removals (issue 23: struck lines no longer pile up),
    each still undoable. Lines fold only when a record or the resources are saved for that player
    (:data:`FOLDING_OPS`), never at a removal or an undo, so nothing moves under the thumb removing or undoing
    one entry after another: the removals since the player's last such change keep their lines, and the latest
    one before it; the others are folded, as are those older than the page's last changes but the player's
    latest. ``changes``: the page's last changes, newest first; ``older``: the removals standing before them,
    newest first. ``shown``: the record section's players (record_picker), changed in place: each entry is (id,
    name, the version of the change that removed it or None); ``folded`` the folded removals (version, name),
    newest first, and ``folded_keys`` their versions as a form sends them."""
    by_seat = {r["seat"].seat: r for r in shown}
    for r in by_seat.values():
        r["folded"], r["folded_keys"] = [], []
    placed: set[int] = set()  # the players with a removal's line in place
    seals: dict[object, int] = {}  # the FOLDING_OPS passed, newest first, by player
    kept: set[int] = set()  # the players whose latest removal before their last seal keeps its line
    beyond = {c.version for c in older}
    for c in [*changes, *older]:
        data = c.undo if isinstance(c.undo, dict) else {}
        if c.op in FOLDING_OPS and not c.undone:
            seals[data.get("seat")] = seals.get(data.get("seat"), 0) + 1
            continue
        at = data.get("at") if c.op == "record-remove" else None
        if c.undone or not isinstance(at, list) or data.get("seat") not in by_seat:
            continue
        field, item, index = at
        r = by_seat[data["seat"]]
        seat = r["seat"].seat
        sealed = seals.get(seat, 0)
        if sealed == 1 and seat not in kept:
            kept.add(seat)  # the latest before the seal: it was on screen when the seal was made
        elif sealed or (c.version in beyond and seat in placed):
            r["folded"].append((c.version, records.name_of(field, item)))
            r["folded_keys"].append(str(c.version))
            continue
        placed.add(seat)
        entries = {f: list(items) for f, _, items in r["entries"]}
        items = entries.setdefault(field, [])
        items.insert(min(int(index), len(items)), (item, records.name_of(field, item), c.version))
        order = [*LIST_FIELDS, *records.LEFT_FIELDS]
        r["entries"] = [
            (f, records.FIELD_LABELS[f], entries[f]) for f in sorted(entries, key=order.index) if entries[f]
        ]
