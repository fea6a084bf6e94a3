"""The shown player's entries of a step, as the dataclasses the templates render: toggles, counters, numbers, the
"counts as" choices, and the folding groups (a type column of the player board, the retirement tokens, the pipes).

:class:`PlayerEntries` is the part of :class:`~companion.scorepad.presenter.StepView` that builds them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from companion.models.scoresheets import ScoreSheet
from companion.scorepad.entries import NUMBER_LABELS, WILD, EntryKey
from companion.scorepad.offers import CARD_LABEL, UNNAMED_NOTE, card_groups, token_groups
from companion.scorepad.problems import Problems, Shown
from companion.scorepad.steps import NUMBER_TOP, STEP_LISTS, STEP_NUMBERS, Step
from scoring import catalogue as cat
from scoring.components import (
    CHAR_TYPES,
    SEASONS,
    Building,
    CharType,
    Expansion,
    Personality,
    TokenKind,
    Wild,
)
from scoring.score import Board, board_of, effective_type, wild_kind
from scoring.table import Setup, Table
from scoring.validate import ferry_opens_the_pool


@dataclass
class Entry:
    """One entry: a toggle (``chip``), a -/+ counter of a repeatable component (``counter``), a number
    (``number``) or a "counts as" choice (``wild``)."""

    key: EntryKey
    kind: str
    name: str
    who: str
    note: str = ""
    pressed: bool = False
    count: int = 0
    top: int | None = None
    value: str = ""
    held_by: str = ""
    problems: list[Shown] = field(default_factory=list)

    @property
    def html_id(self) -> str:
        return self.key.html_id

    @property
    def op(self) -> str:
        return f"{'remove' if self.pressed else 'add'}|{self.key.player}|{self.key.field}|{self.key.item}"

    @property
    def add_op(self) -> str:
        return f"add|{self.key.player}|{self.key.field}|{self.key.item}"

    @property
    def remove_op(self) -> str:
        return f"remove|{self.key.player}|{self.key.field}|{self.key.item}"

    @property
    def bump(self) -> str:
        return f"bump|{self.key.player}|{self.key.field}|"


@dataclass
class Block:
    """Entries under an optional heading: toggles in a grid, counters and numbers one a row."""

    heading: str
    entries: list[Entry]
    chips: bool = True


@dataclass
class Fold:
    """A folding group (``<details>``): a type column of the player board, the retirement tokens, the pipes."""

    html_id: str
    label: str
    count: int
    held: str
    open: bool
    blocks: list[Block]


class PlayerEntries:
    """The shown player's entries and folding groups on a step (set up by :class:`StepView`)."""

    sheet: ScoreSheet
    step: Step
    players: list[dict[str, Any]]
    player: int
    opened: frozenset[str]
    table: Table
    expansions: frozenset[Expansion]
    setup: Setup | None
    problems: Problems

    @property
    def name(self) -> str:
        return str(self.players[self.player]["name"])

    def _holders(self, list_name: str, item: str) -> str:
        me = self.players[self.player]
        return ", ".join(p["name"] for p in self.players if p is not me and item in p.get(list_name, ()))

    def chip(self, list_name: str, item: str, name: str, note: str) -> Entry:
        key = EntryKey(self.player, list_name, item)
        return Entry(
            key,
            "chip",
            name,
            self.name,
            note=note,
            pressed=item in self.players[self.player].get(list_name, ()),
            held_by=self._holders(list_name, item),
            problems=self.problems.at(key.html_id),
        )

    def counter(self, list_name: str, item: str, name: str, note: str) -> Entry:
        key = EntryKey(self.player, list_name, item)
        count = self.players[self.player].get(list_name, []).count(item)
        return Entry(
            key, "counter", name, self.name, note=note, count=count, problems=self.problems.at(key.html_id)
        )

    def number(self, fld: str) -> Entry:
        key = EntryKey(self.player, fld)
        value = str(int(self.players[self.player].get(fld, 0)))
        return Entry(
            key,
            "number",
            NUMBER_LABELS[fld],
            self.name,
            value=value,
            top=NUMBER_TOP.get(fld),
            problems=self.problems.at(key.html_id),
        )

    def item_text(self, list_name: str, item: str) -> tuple[str, str]:
        """A toggle's name and printed note."""
        if list_name == "characters":
            return cat.CHARACTER_BY_ID[item].name, CARD_LABEL[item]
        if list_name in ("fish", "pipes", "tobacco"):
            token = cat.TOKEN_BY_ID[item]
            return token.name, token.effect
        if list_name == "buildings":
            building = cat.BUILDING_BY_ID[item]
            return building.name, building.scoring
        if list_name == "boats":
            boat = cat.BOAT_BY_ID[item]
            side = self.setup.boat_sides.get(item) if self.setup else None
            if side:
                return (
                    boat.name,
                    f"Side {side}: {boat.side_b if side == 'B' and boat.side_b else boat.side_a}",
                )
            return boat.name, f"Boat {boat.number}, costs {boat.cost}"
        x = cat.PERSONALITY_BY_ID[item]
        return x.name, f"{x.timing}: {x.effect}"

    def entry(self, key: EntryKey) -> Entry | None:
        """The entry ``key`` names, as the shown step offers it; None when the step does not show it."""
        if key.player != self.player:
            return None
        if not key.item:
            return self.number(key.field) if key.field in STEP_NUMBERS.get(self.step.slug, ()) else None
        if key.field not in STEP_LISTS.get(self.step.slug, ()) or key.item not in self._offered(key.field):
            return None
        if key.field == "retirement_tokens":
            t = cat.RETIREMENT_TOKEN_BY_ID[key.item]
            return self.counter(key.field, key.item, t.name, t.effect)
        if (ctype := cat.any_type(key.item)) is not None:
            return self.counter(key.field, key.item, f"Unnamed {ctype.label}", UNNAMED_NOTE)
        return self.chip(key.field, key.item, *self.item_text(key.field, key.item))

    def _offered(self, list_name: str) -> set[str]:
        held = self.players[self.player].get(list_name, [])
        if list_name == "characters":
            return {c.id for *_, cards in card_groups(self.expansions) for c in cards} | {
                cat.ANY_PREFIX + t.value for t in CHAR_TYPES
            }
        if list_name == "retirement_tokens":
            return set(self._retirement_shown())
        if list_name in ("fish", "pipes", "tobacco"):
            kind = {"fish": TokenKind.FISH, "pipes": TokenKind.PIPE, "tobacco": TokenKind.TOBACCO}[list_name]
            return {t.id for _label, ts in token_groups(kind, self.expansions) for t in ts}
        if list_name == "buildings":
            return {b.id for b in self.buildings()}
        if list_name == "boats":
            return {b.id for b in cat.BUILDABLE_BOATS}
        return {x.id for _label, ps in self.personalities() for x in ps} | set(held)

    def _retirement_shown(self) -> list[str]:
        held = self.players[self.player].get("retirement_tokens", [])
        return [t.id for t in cat.RETIREMENT_TOKENS if t.expansion in self.expansions or t.id in held]

    def buildings(self) -> list[Building]:
        """The buildings in play (all of the edition when the setup is not known), then any others held."""
        known = self.setup.buildings if self.setup else None
        shown = [
            b for b in cat.BUILDINGS if b.expansion in self.expansions and (known is None or b.id in known)
        ]
        ids = {b.id for b in shown}
        held = self.players[self.player].get("buildings", [])
        return [*shown, *(cat.BUILDING_BY_ID[b] for b in held if b not in ids)]

    def personalities(self) -> list[tuple[str, tuple[Personality, ...]]]:
        """The personalities by season: those on the bridge this game when known (all of them once someone built
        the Ferry boat and its side is B or not known, RULINGS R13), and any others held."""
        held = self.players[self.player].get("personalities", [])
        setup = self.setup
        pool = setup.personalities if setup is not None and not ferry_opens_the_pool(self.table) else None
        out = []
        for season in SEASONS:
            ps = cat.personalities_of_season(season)
            if pool is not None:
                ps = tuple(x for x in ps if x.id in pool or x.id in held)
            out.append((season.label, ps))
        return out

    def wilds(self) -> list[Entry]:
        """The shown player's "counts as" choices, one per card whose type is chosen (RULINGS R5), and chosen types
        the rules refuse (shown so they can be cleared)."""
        player, state = self.players[self.player], self.table.players[self.player]
        cards = [
            c
            for c in dict.fromkeys(player.get("characters", []))
            if c in cat.CHARACTER_BY_ID and wild_kind(c, state) is not Wild.NO
        ]
        cards += [c for c in player.get(WILD, {}) if c not in cards and c in cat.CHARACTER_BY_ID]
        chosen = player.get(WILD, {})
        return [
            Entry(
                key,
                "wild",
                cat.CHARACTER_BY_ID[card].name,
                self.name,
                value=str(chosen.get(card, "")),
                problems=self.problems.at(key.html_id),
            )
            for card in cards
            for key in [EntryKey(self.player, WILD, card)]
        ]

    # --- the shown player's entries ---

    def body(self) -> list[Fold | Block]:
        slug = self.step.slug
        if slug == "characters":
            return [*(self.card_group(key) for key, *_ in card_groups(self.expansions)), self.tokens_group()]
        if slug in ("fish", "tobacco"):
            kind = TokenKind.FISH if slug == "fish" else TokenKind.TOBACCO
            out: list[Fold | Block] = [self.pipes_group()] if slug == "tobacco" else []
            return out + self._token_blocks(kind)
        if slug == "buildings":
            return [
                Block(
                    "",
                    [
                        self.chip("buildings", b.id, *self.item_text("buildings", b.id))
                        for b in self.buildings()
                    ],
                )
            ]
        if slug == "boats":
            return [
                Block(
                    "",
                    [self.chip("boats", b.id, *self.item_text("boats", b.id)) for b in cat.BUILDABLE_BOATS],
                )
            ]
        out = []
        if slug == "personalities":
            out = [
                Block(
                    label,
                    [self.chip("personalities", x.id, *self.item_text("personalities", x.id)) for x in ps],
                )
                for label, ps in self.personalities()
            ]
        numbers = [self.number(fld) for fld in STEP_NUMBERS.get(slug, ())]
        return [*out, Block("", numbers, chips=False)] if numbers else out

    def _token_blocks(self, kind: TokenKind) -> list[Fold | Block]:
        name = {TokenKind.FISH: "fish", TokenKind.PIPE: "pipes", TokenKind.TOBACCO: "tobacco"}[kind]
        return [
            Block(label, [self.chip(name, t.id, *self.item_text(name, t.id)) for t in tokens])
            for label, tokens in token_groups(kind, self.expansions)
        ]

    def _opened(self, html_id: str, entries: Iterable[Entry]) -> bool:
        return html_id in self.opened or any(e.problems for e in entries)

    def card_group(self, key: str, *, entries: bool = True) -> Fold:
        """A type column of the player board (RULINGS R4, R5); without ``entries``, only its summary."""
        _key, label, ctype, cards = next(g for g in card_groups(self.expansions) if g[0] == key)
        html_id = f"p{self.player}-group-{key}"
        blocks = []
        if entries:
            blocks = [Block("", [self.chip("characters", c.id, c.name, CARD_LABEL[c.id]) for c in cards])]
            if ctype is not None:
                unnamed = self.entry(EntryKey(self.player, "characters", cat.ANY_PREFIX + ctype.value))
                assert unnamed is not None
                blocks.insert(0, Block("", [unnamed], chips=False))
        held = self._held_by_type.get(ctype, [])
        count = self._board.counts[ctype] if ctype else len(held)
        every = [e for b in blocks for e in b.entries]
        return Fold(html_id, label, count, ", ".join(held), self._opened(html_id, every), blocks)

    def summaries(self) -> list[Fold]:
        """The characters step's folding groups, their summaries only (what a board change alters)."""
        groups = [self.card_group(key, entries=False) for key, *_ in card_groups(self.expansions)]
        return [*groups, self.tokens_group(entries=False)]

    def tokens_group(self, *, entries: bool = True) -> Fold:
        """The retirement tokens the player may hold (RULINGS R5); without ``entries``, only its summary."""
        shown = self._retirement_shown()
        held = Counter(self.players[self.player].get("retirement_tokens", []))
        names = [
            f"{t.name} ×{held[t.id]}" if held[t.id] > 1 else t.name
            for t in cat.RETIREMENT_TOKENS
            if held[t.id] and t.id in shown
        ]
        every = [
            e
            for t in (shown if entries else ())
            if (e := self.entry(EntryKey(self.player, "retirement_tokens", t)))
        ]
        html_id = f"p{self.player}-group-tokens"
        blocks = [Block("", every, chips=False)] if entries else []
        return Fold(
            html_id, "Retirement tokens", len(names), ", ".join(names), self._opened(html_id, every), blocks
        )

    def pipes_group(self, *, entries: bool = True) -> Fold:
        held = [cat.TOKEN_BY_ID[t].name for t in self.players[self.player].get("pipes", [])]
        blocks = [b for b in self._token_blocks(TokenKind.PIPE) if isinstance(b, Block)] if entries else []
        html_id = f"p{self.player}-group-pipes"
        every = [e for b in blocks for e in b.entries]
        return Fold(html_id, "Pipes", len(held), ", ".join(held), self._opened(html_id, every), blocks)

    def group(self, html_id: str) -> Fold | None:
        """The folding group ``html_id`` of the shown player, if this step shows it."""
        prefix = f"p{self.player}-group-"
        if not html_id.startswith(prefix):
            return None
        key = html_id.removeprefix(prefix)
        if self.step.slug == "tobacco" and key == "pipes":
            return self.pipes_group()
        if self.step.slug != "characters":
            return None
        if key == "tokens":
            return self.tokens_group()
        return self.card_group(key) if any(g[0] == key for g in card_groups(self.expansions)) else None

    @cached_property
    def _board(self) -> Board:
        return board_of(self.table.players[self.player])

    @cached_property
    def _held_by_type(self) -> dict[CharType | None, list[str]]:
        """The cards the player's board shows in each type column (RULINGS R4/R5: wild cards in their chosen
        column); None lists the wild cards still waiting for a type."""
        state = self.table.players[self.player]
        names: dict[CharType | None, list[str]] = {}
        unnamed: Counter[CharType | None] = Counter()
        for card in state.characters:
            ctype = effective_type(card, state)
            if cat.any_type(card) is not None:
                unnamed[ctype] += 1
            elif wild_kind(card, state) is not Wild.NO and ctype is not None:
                names.setdefault(ctype, []).append(f"{cat.CHARACTER_BY_ID[card].name} (chosen)")
            else:
                names.setdefault(ctype, []).append(cat.CHARACTER_BY_ID[card].name)
        for ctype, n in unnamed.items():
            names.setdefault(ctype, []).append(f"{n} unnamed")
        return names
