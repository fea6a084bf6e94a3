"""The arithmetic of Traders of Osaka: a payday (RULINGS O2-O4), the Black Tide with insurance (O3), the end
check, the ranking (O5) and the start player. Pure functions of frozen values; randomness is passed in.

The rulebook's "PAYDAY" in the order it is played: 1. SCORING (each set sold: highest card plus the tokens of its
colour, times the cards, rounded up to a multiple of 5; a VP card per 5, the set's lowest cards first, then the draw
pile), 2. ACQUIRE ACHIEVEMENT TOKENS (one per payday that scored), the end check ("After Step 2 ... the game ends
immediately"), 3. SUNK BY THE BLACK TIDE (the first payday of the moment only, RULINGS O2), 4. the ships go home.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

from scoring.osaka.components import (
    CARD_VALUES,
    COLOURS,
    END_TOKENS,
    ICONS,
    SHIP_STEP_MANY,
    SHIP_STEP_ONE,
    START_HAND,
    VP_STEP,
    ByColour,
    Card,
    Colour,
    no_tokens,
)
from scoring.problems import join


def coins(hand: Sequence[int]) -> int:
    """What a hand pays when buying: the sum of its cards' values ("This hand corresponds to (2+2+3+5=) 12 coins")."""
    return sum(hand)


def can_buy(hand: Sequence[int], market: Sequence[int]) -> bool:
    """Whether a hand buys the market: "The sum of your coins (cards) must equal or exceed the value of all the
    goods in the Market"; no change is made."""
    return coins(hand) >= sum(market)


def ship_steps(bought: Sequence[Card]) -> dict[Colour, int]:
    """How far each colour's ship advances after a purchase ("ADVANCING SHIPS"): one step for one good of its colour,
    two for two or more."""
    counts = Counter(card.colour for card in bought)
    return {c: (SHIP_STEP_MANY if counts[c] >= 2 else SHIP_STEP_ONE) for c in COLOURS if counts[c]}


def round_up(points: int) -> int:
    """A set's value "rounded up to the nearest 5 or 10" (rulebook "1. SCORING", RULINGS O4): 12 -> 15, 15 -> 15."""
    return -(-points // VP_STEP) * VP_STEP


def _cards(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class Sale:
    """One player's set of one colour sold at a payday (rulebook "1. SCORING", RULINGS O4).

    ``cards`` are the set's values, lowest first; ``tokens`` the player's achievement tokens of the colour, each
    adding 1 to the price ("BONUS FROM ACHIEVEMENT TOKENS"). ``points`` (before rounding), ``value`` and ``vp`` are
    worked out once, when the sale is made.
    """

    colour: Colour
    cards: tuple[int, ...]
    tokens: int
    points: int = field(init=False)
    value: int = field(init=False)
    vp: int = field(init=False)

    def __post_init__(self) -> None:
        points = (self.cards[-1] + self.tokens) * len(self.cards)  # (highest card + tokens) x cards
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "value", round_up(points))
        object.__setattr__(self, "vp", round_up(points) // VP_STEP)

    @property
    def price(self) -> int:
        """The highest card ("The price of the Merchandise is the highest card value in the set")."""
        return self.cards[-1]

    @property
    def vp_cards(self) -> tuple[int, ...]:
        """The set's cards turned over as VPs: "those of the lowest value in the corresponding set"."""
        return self.cards[: self.vp]

    @property
    def from_pile(self) -> int:
        """VPs the set cannot cover, taken "from the draw pile to make up for the deficiency"."""
        return max(0, self.vp - len(self.cards))

    @property
    def discarded(self) -> tuple[int, ...]:
        """The cards left after the VPs ("Discard the remaining goods in the set")."""
        return self.cards[self.vp :]

    @property
    def explanation(self) -> str:
        """One line as a player checks it: the sum, the rounding, the cards to take."""
        bonus = f" + {_plural(self.tokens, 'token')}" if self.tokens else ""
        price = f"({self.price}{bonus})" if self.tokens else f"{self.price}"
        rounded = f" → {self.value}" if self.value != self.points else ""
        take = f"take {_cards(self.vp_cards)}"
        if self.from_pile:
            take += f" and {self.from_pile} from the draw pile"
        if self.discarded:
            take += f"; discard {_cards(self.discarded)}"
        return (
            f"{self.colour.label}: {_plural(len(self.cards), 'card')}, highest {price} × {len(self.cards)} = "
            f"{self.points}{rounded}: {_plural(self.vp, 'VP card')} ({take})"
        )


def sell(colour: Colour, cards: Sequence[int], tokens: int) -> Sale:
    """The sale of a non-empty set of ``colour`` by a player holding ``tokens`` achievement tokens of it."""
    if not cards:
        raise ValueError("a set has at least one card")
    return Sale(colour, tuple(sorted(cards)), tokens)


def remove(values: Sequence[int], taken: Sequence[int]) -> tuple[int, ...] | None:
    """``values`` without ``taken`` (as multisets), or None when ``taken`` is not among ``values``."""
    left = Counter(values)
    left.subtract(taken)
    if any(n < 0 for n in left.values()):
        return None
    return tuple(sorted(left.elements()))


@dataclass(frozen=True, slots=True)
class Sinking:
    """One player's goods of a colour whose ship the Black Tide sinks (rulebook "3. SUNK BY THE BLACK TIDE",
    "INSURANCE", RULINGS O3): insurance cards discarded now insure the highest-valued uninsured goods first;
    insured goods stay insured; the rest is discarded. ``uninsured`` (highest first) is worked out when made."""

    colour: Colour
    goods: tuple[int, ...]
    insured_before: tuple[int, ...]
    insurance: tuple[int, ...]
    uninsured: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        left = remove(self.goods, self.insured_before)
        if left is None:
            raise ValueError("insured goods must be among the goods")
        object.__setattr__(self, "uninsured", tuple(sorted(left, reverse=True)))

    @property
    def icons(self) -> int:
        return sum(ICONS[v] for v in self.insurance)

    @property
    def insured_now(self) -> tuple[int, ...]:
        return self.uninsured[: self.icons]

    @property
    def lost(self) -> tuple[int, ...]:
        return self.uninsured[self.icons :]

    @property
    def kept(self) -> tuple[int, ...]:
        return tuple(sorted((*self.insured_before, *self.insured_now), reverse=True))

    @property
    def unused_icons(self) -> int:
        return max(0, self.icons - len(self.uninsured))

    @property
    def spare_card(self) -> bool:
        """Whether one of the insurance cards insures nothing: the others' icons alone would cover as much."""
        needed = min(self.icons, len(self.uninsured))
        return any(self.icons - ICONS[v] >= needed for v in self.insurance)

    @property
    def empty(self) -> bool:
        """The player had nothing of the colour at stake: no goods, no insurance card."""
        return not self.goods and not self.insurance

    @property
    def explanation(self) -> str:
        if self.empty:
            return f"{self.colour.label} sinks: no {self.colour.value} goods"
        parts = [f"{self.colour.label} sinks: {_plural(len(self.goods), 'good')}"]
        if self.insured_before:
            parts.append(f"{_cards(self.insured_before)} already insured")
        if self.insurance:
            icons = _plural(self.icons, "icon")
            parts.append(f"insurance {_cards(self.insurance)} ({icons}) insures {_cards(self.insured_now)}")
        parts.append(f"lost {_cards(self.lost)}" if self.lost else "nothing lost")
        return "; ".join(parts)


def sink(colour: Colour, goods: Sequence[int], insured: Sequence[int], insurance: Sequence[int]) -> Sinking:
    return Sinking(colour, tuple(sorted(goods)), tuple(sorted(insured)), tuple(sorted(insurance)))


@dataclass(frozen=True, slots=True)
class Holding:
    """One player before a payday: goods by colour (card values), achievement tokens, goods already insured (among
    the goods), and insurance cards discarded from the hand now, for a sinking colour."""

    name: str
    goods: ByColour[tuple[int, ...]]
    tokens: ByColour[int]
    insured: ByColour[tuple[int, ...]]
    insurance: ByColour[tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Moment:
    """Ships reaching Edo at once (one payday each, in this order) and the ships on the waves (RULINGS O2)."""

    arrived: tuple[Colour, ...]
    sunk: tuple[Colour, ...]
    players: tuple[Holding, ...]


@dataclass(frozen=True, slots=True)
class PlayerPayday:
    """What one player sells, gains and loses in a moment's paydays."""

    name: str
    sales: tuple[Sale, ...]
    tokens_gained: ByColour[int]
    tokens: ByColour[int]
    sinkings: tuple[Sinking, ...]

    @property
    def vp(self) -> int:
        return sum(s.vp for s in self.sales)

    @property
    def gained(self) -> int:
        """Achievement tokens gained, all colours."""
        return sum(self.tokens_gained.values())

    @property
    def lost(self) -> int:
        """Goods discarded to the Black Tide, all colours."""
        return sum(len(s.lost) for s in self.sinkings)

    @property
    def explanations(self) -> tuple[str, ...]:
        """One line per set sold and per sinking that touched the player."""
        return tuple(s.explanation for s in self.sales) + tuple(
            s.explanation for s in self.sinkings if not s.empty
        )

    def sale(self, colour: Colour) -> Sale | None:
        return next((s for s in self.sales if s.colour is colour), None)


@dataclass(frozen=True, slots=True)
class PaydayResult:
    """The paydays of one moment. ``held`` are the paydays that took place, in order; ``skipped`` the ships that
    arrived after the end (nothing after the ending payday's step 2 happens, RULINGS O2); ``sank`` the ships the
    Black Tide sank; ``spared`` the ships on the waves that did not sink because the first payday ended the
    game."""

    held: tuple[Colour, ...]
    skipped: tuple[Colour, ...]
    sank: tuple[Colour, ...]
    spared: tuple[Colour, ...]
    players: tuple[PlayerPayday, ...]
    ended_after: Colour | None
    enders: tuple[str, ...]

    @property
    def game_over(self) -> bool:
        return self.ended_after is not None

    @property
    def end_sentence(self) -> str | None:
        """The end announced in words, or None while the game goes on."""
        if self.ended_after is None:
            return None
        has = "has" if len(self.enders) == 1 else "have"
        text = (
            f"The game ends after the {self.ended_after.value} payday: {join(list(self.enders))} {has} "
            f"{END_TOKENS} or more achievement tokens."
        )
        after = [f"no {c.value} payday" for c in self.skipped]
        if self.spared:
            ships = join([c.value for c in self.spared])
            after.append(
                f"the {ships} ships on the waves do not sink"
                if len(self.spared) > 1
                else f"the {ships} ship on the waves does not sink"
            )
        if after:
            text += f" Nothing after it happens: {'; '.join(after)}."
        return text


def total(tokens: ByColour[int]) -> int:
    return sum(tokens.values())


def payday(moment: Moment) -> PaydayResult:
    """Play the paydays of a moment in the order the ships arrived (RULINGS O2-O4). The input must be valid
    (:func:`scoring.osaka.validate.validate_payday`)."""
    tokens = [p.tokens for p in moment.players]
    sales: list[list[Sale]] = [[] for _ in moment.players]
    gained = [no_tokens() for _ in moment.players]
    sinkings: list[tuple[Sinking, ...]] = [() for _ in moment.players]
    held: list[Colour] = []
    sank: tuple[Colour, ...] = ()
    ended: Colour | None = None
    for colour in moment.arrived:
        held.append(colour)
        for i, p in enumerate(moment.players):  # 1. SCORING
            if p.goods[colour]:
                sale = sell(colour, p.goods[colour], tokens[i][colour])
                sales[i].append(sale)
                if sale.vp:  # 2. ACQUIRE ACHIEVEMENT TOKENS: "for each payday that scored you VPs"
                    tokens[i] = tokens[i].set(colour, tokens[i][colour] + 1)
                    gained[i] = gained[i].set(colour, gained[i][colour] + 1)
        if any(total(t) >= END_TOKENS for t in tokens):  # the end check, after step 2
            ended = colour
            break
        if len(held) == 1 and moment.sunk:  # 3. the Black Tide, during the first payday only (RULINGS O2)
            sank = moment.sunk
            for i, p in enumerate(moment.players):
                sinkings[i] = tuple(sink(c, p.goods[c], p.insured[c], p.insurance[c]) for c in moment.sunk)
    enders = tuple(p.name for p, t in zip(moment.players, tokens, strict=True) if total(t) >= END_TOKENS)
    return PaydayResult(
        held=tuple(held),
        skipped=moment.arrived[len(held) :],
        sank=sank,
        spared=moment.sunk if ended is moment.arrived[0] else (),
        players=tuple(
            PlayerPayday(p.name, tuple(sales[i]), gained[i], tokens[i], sinkings[i])
            for i, p in enumerate(moment.players)
        ),
        ended_after=ended,
        enders=enders if ended else (),
    )


# --- ranking (RULINGS O5) -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """A player at the end: VP cards under the Trader piece and achievement tokens by colour."""

    name: str
    vp: int
    tokens: ByColour[int]

    @property
    def total_tokens(self) -> int:
        return total(self.tokens)


@dataclass(frozen=True, slots=True)
class Ranked:
    name: str
    vp: int
    tokens: int
    rank: int
    tie_break: str | None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rank(standings: Sequence[Standing]) -> tuple[Ranked, ...]:
    """Most VP cards first; a tie at any place goes to more achievement tokens; still tied, the players share the
    place ("VICTORY", RULINGS O5: "all tied players win"). Ranks are shared places such as 1, 1, 3. The answer keeps
    the input's order; ``tie_break`` says in words how a shared VP count was settled."""
    key = {s.name: (s.vp, s.total_tokens) for s in standings}
    out = []
    for s in standings:
        place = 1 + sum(1 for other in standings if key[other.name] > key[s.name])
        tied = [o for o in standings if o.vp == s.vp and o.name != s.name]
        out.append(Ranked(s.name, s.vp, s.total_tokens, place, _tie_break(s, tied, place) if tied else None))
    return tuple(out)


def _tie_break(s: Standing, tied: Sequence[Standing], place: int) -> str:
    vp = f"{s.vp} VP"
    same = [o.name for o in tied if o.total_tokens == s.total_tokens]
    if len(same) == len(tied):
        shared = "win together" if place == 1 else f"share {_ordinal(place)} place"
        return (
            f"Tied with {join(same)} on {vp} and {_plural(s.total_tokens, 'achievement token')}: "
            f'they {shared} (rulebook "VICTORY").'
        )
    counts = ", ".join(f"{o.name} {o.total_tokens}" for o in (s, *tied))
    text = (
        f"Tied with {join([o.name for o in tied])} on {vp}; more achievement tokens rank first ({counts}), "
        f"so {s.name} is {_ordinal(place)}"
    )
    if same:
        text += f", sharing the place with {join(same)}"
    return text + "."


# --- the start player ("PREPARATION") ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """A player's initial hand as drawn: the sum of its values and how many cards."""

    total: int
    cards: int


@cache
def possible_draws() -> frozenset[Draw]:
    """Every hand "PREPARATION" can produce: cards drawn one at a time "until the sum of their cards' values is 8 or
    higher" (so the sum before the last card is below 8)."""
    found: set[Draw] = set()
    for n in range(1, START_HAND + 1):
        for values in itertools.product(CARD_VALUES, repeat=n):
            if sum(values[:-1]) < START_HAND <= sum(values):
                found.add(Draw(sum(values), n))
    return frozenset(found)


class StartRule(StrEnum):
    """What decided the start player ("PREPARATION")."""

    TOTAL = "smallest total"
    CARDS = "fewest cards"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class StartPlayer:
    """The start player's index among the draws, what decided it, and the indexes still tied before it."""

    index: int
    rule: StartRule
    tied: tuple[int, ...]

    def explain(self, names: Sequence[str], draws: Sequence[Draw]) -> str:
        d = draws[self.index]
        name = names[self.index]
        tied = join([names[i] for i in self.tied])
        if self.rule is StartRule.TOTAL:
            return f"{name} starts: the smallest total drawn ({d.total})."
        if self.rule is StartRule.CARDS:
            return (
                f"{name} starts: {tied} drew the smallest total ({d.total}); {name} did it with the fewest cards "
                f"({d.cards})."
            )
        return (
            f"{name} starts: {tied} drew the same total ({d.total}) with as many cards ({d.cards}); "
            f"{name} was chosen at random among them."
        )


def start_player(draws: Sequence[Draw], rng: random.Random) -> StartPlayer:
    """Rulebook "PREPARATION": "The player who drew the smallest total value of cards is the start player. In case
    of a tie, the player with the fewest cards is the start player. If there is still a tie, decide randomly among
    the tied players." ``rng`` decides the last tie (a seeded generator reproduces it)."""
    if not draws:
        raise ValueError("no draws")
    low = min(d.total for d in draws)
    by_total = tuple(i for i, d in enumerate(draws) if d.total == low)
    if len(by_total) == 1:
        return StartPlayer(by_total[0], StartRule.TOTAL, by_total)
    fewest = min(draws[i].cards for i in by_total)
    by_cards = tuple(i for i in by_total if draws[i].cards == fewest)
    if len(by_cards) == 1:
        return StartPlayer(by_cards[0], StartRule.CARDS, by_total)
    return StartPlayer(rng.choice(by_cards), StartRule.RANDOM, by_cards)
