"""Score sheets: the end-game scoring walk-through's saved state (issue 4).

A sheet holds the table being scored as the JSON of :func:`scoring.table.read_table` (``docs/api.md``), saved as
each entry is made. Two phones may edit one sheet at once: every change is a small :class:`Change` (set one
number, add or remove one component, choose one wild type...) applied to a freshly read row and written only
if the row is still the version read, else read and applied again (:func:`apply_changes`), so nobody's entry is
overwritten by a stale table.

Sheets are addressed by an unguessable token, never by their numeric id. What the rules allow is not decided here:
:mod:`scoring.validate` judges the stored table on every render.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.base import ModelState
from django.urls import reverse

from companion.caches import put
from companion.tokens import new_token
from scoring import catalogue as cat
from scoring.errors import InputError
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from scoring.table import LIST_FIELDS, NUMBER_FIELDS, PlayerState, Table, read_player, read_table

#: Player colours offered at the start. The rulebook only says "each player chooses a color" (Setup) without
#: naming them; these are the usual four of the box plus two spares for a player who prefers another word.
COLOURS: Final = ("red", "blue", "green", "yellow", "purple", "black")
MAX_NAME_LENGTH: Final = 24
#: Entries beyond this size are refused as malformed before they reach the rules (nothing in IKI comes close).
MAX_NUMBER: Final = 9999
#: Lists whose entries may repeat: unnamed characters (``any-{type}``) and retirement tokens with a supply of 2.
REPEATABLE: Final = frozenset({"retirement_tokens"})


class ScoreSheet(models.Model):
    """One end-game scoring in progress or done. ``table`` is the scoring JSON; ``version`` counts changes."""

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    #: The view-only link's token (>= 128 random bits): it opens the result and the PDF, never an entry.
    view_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    table = models.JSONField()
    colours = models.JSONField(default=list)
    #: Stack ranks on the firefighting track, by player name (0 = top of the stack): RULINGS R12.
    stack = models.JSONField(default=dict)
    seed = models.CharField(max_length=64, blank=True, default="")
    version = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    #: Each player's stored JSON as :meth:`read` last read it (orjson bytes), () before or when unreadable.
    player_keys: tuple[bytes, ...] = ()

    class Meta:
        app_label = "companion"

    def __str__(self) -> str:
        return f"score sheet {self.token[:6]}… ({', '.join(self.names)})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, moving the version on (as :func:`apply_changes` does) so that no entry started from the row as
        it was (``_ROWS``, in any process) can overwrite this save."""
        if not self._state.adding:
            self.version += 1
            fields = kwargs.get("update_fields")
            if fields is not None:
                kwargs["update_fields"] = {*fields, "version"}
        _ROWS.pop(self.token, None)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        """The walk-through's first step."""
        return reverse("scorepad-step", args=[self.token, "track"])

    def view_url(self) -> str:
        """The view-only page: the result and the PDF, nothing that writes."""
        return reverse("scorepad-view", args=[self.view_token])

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.table["players"]]

    @property
    def akebono(self) -> bool:
        return "akebono" in self.table.get("expansions", [])

    def colour(self, i: int) -> str:
        """Player ``i``'s colour ("" when none is stored for that seat)."""
        return str(self.colours[i]) if i < len(self.colours) else ""

    def read(self) -> Table:
        """The stored table, read by the rules core (it was written by this module, so it always reads).

        What was already read is looked up by its stored JSON (an entry changes one player), serialized by
        orjson: :attr:`player_keys` keeps each player's, for caches of what the core says of a player. Anything
        the core refuses is read again as a whole, so its error names the player's real place.
        """
        data = self.table
        try:
            rest = {**data, "players": []}
            top_key = orjson.dumps(rest)
            top = _READ_TOPS.get(top_key)
            if top is None:
                top = put(_READ_TOPS, top_key, read_table(rest), _READ_MAX)
            keys = tuple(orjson.dumps(p) for p in data["players"])
            players = []
            for key, p in zip(keys, data["players"], strict=True):
                state = _READ.get(key)
                if state is None:
                    state = put(_READ, key, read_player(p), _READ_MAX)
                players.append(state)
        except (InputError, TypeError, KeyError, AttributeError):  # orjson.JSONEncodeError is a TypeError
            self.player_keys = ()
            return read_table(data)
        self.player_keys = keys
        return Table(tuple(players), top.expansions, top.setup, top.firefighting_order)


#: Players and the rest of tables read by the rules core, by their stored JSON (:meth:`ScoreSheet.read`).
_READ: dict[bytes, PlayerState] = {}
_READ_TOPS: dict[bytes, Table] = {}
_READ_MAX: Final = 4096


def forget_read_players() -> None:
    _READ.clear()
    _READ_TOPS.clear()


# --- changes -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """One entry made on a step.

    ``op`` is one of: ``set`` (a number field to ``value``), ``bump`` (a number field by ``value``), ``add`` /
    ``remove`` (one ``item`` of a list field), ``wild`` (the chosen type ``item`` of the card ``field``, "" to
    clear), ``stack`` (the player's firefighting stack rank ``value``, -1 to clear).
    """

    op: str
    player: int
    field: str = ""
    item: str = ""
    value: int = 0


def _apply(table: dict[str, Any], stack: dict[str, int], change: Change) -> None:
    player = table["players"][change.player]
    if change.op == "set":
        player[change.field] = change.value
    elif change.op == "bump":
        player[change.field] = max(0, int(player.get(change.field, 0)) + change.value)
    elif change.op == "add":
        items = player.setdefault(change.field, [])
        if change.item not in items or change.field in REPEATABLE or cat.any_type(change.item) is not None:
            items.append(change.item)
    elif change.op == "remove":
        items = player.setdefault(change.field, [])
        if change.item in items:
            items.remove(change.item)
            if change.field == "characters" and change.item not in items:
                player.get("wild_types", {}).pop(change.item, None)
    elif change.op == "wild":
        wild = player.setdefault("wild_types", {})
        if change.item:
            wild[change.field] = change.item
        else:
            wild.pop(change.field, None)
    elif change.op == "stack":
        if change.value < 0:
            stack.pop(player["name"], None)
        else:
            stack[player["name"]] = change.value
    else:  # pragma: no cover - the views only build the ops above
        raise ValueError(f"unknown change {change.op!r}")


def firefighting_order(players: Sequence[Mapping[str, Any]], stack: Mapping[str, int]) -> list[str] | None:
    """RULINGS R12: all players by position, highest first, stack top first within a space.

    None while players share a space and their stack order is not fully given (the core then lets them share a
    place); also None when nobody shares a space, since the positions alone give the order.
    """
    by_space: dict[int, list[str]] = {}
    for p in players:
        by_space.setdefault(int(p.get("firefighting", 0)), []).append(p["name"])
    shared = [names for names in by_space.values() if len(names) > 1]
    if not shared:
        return None
    for names in shared:
        ranks = [stack.get(n) for n in names]
        if any(r is None for r in ranks) or len(set(ranks)) != len(ranks):
            return None
    order: list[str] = []
    for space in sorted(by_space, reverse=True):
        order.extend(sorted(by_space[space], key=lambda n: stack.get(n, 0)))
    return order


def _derive(sheet: ScoreSheet) -> None:
    order = firefighting_order(sheet.table["players"], sheet.stack)
    if order is None:
        sheet.table.pop("firefighting_order", None)
    else:
        sheet.table["firefighting_order"] = order


@cache
def _read_sql(vendor: str, native: bool) -> str:
    """SELECT of the columns an entry needs (``native``: with the driver's own placeholders)."""
    q = connection.ops.quote_name
    return _placeholders(
        f"SELECT {q('id')}, {q('table')}, {q('colours')}, {q('stack')}, {q('version')} "
        f"FROM {q(ScoreSheet._meta.db_table)} WHERE {q('token')} = %s",
        vendor,
        native,
    )


@cache
def _write_sql(vendor: str, native: bool) -> str:
    """UPDATE of what an entry changes, only if nobody wrote since the read (the version is still the one read).
    ``updated`` is the database's clock (``CURRENT_TIMESTAMP``, UTC on SQLite as Django stores it): making and
    adapting a timezone-aware ``now()`` in Python took a tenth of :func:`apply_changes` under the line profiler."""
    q = connection.ops.quote_name
    return _placeholders(
        f"UPDATE {q(ScoreSheet._meta.db_table)} SET {q('table')} = %s, {q('stack')} = %s, {q('version')} = %s, "
        f"{q('updated')} = CURRENT_TIMESTAMP WHERE {q('id')} = %s AND {q('version')} = %s",
        vendor,
        native,
    )


def _placeholders(sql: str, vendor: str, native: bool) -> str:
    return sql.replace("%s", "?") if native and vendor == "sqlite" else sql


@contextmanager
def _cursor(db: BaseDatabaseWrapper) -> Iterator[tuple[Any, bool]]:
    """A cursor for an entry's statements, and whether it is the driver's own (``native``: placeholders as the
    driver takes them). Django's cursor whenever anything watches the queries (DEBUG, the test utilities'
    ``CaptureQueriesContext``, ``execute_wrapper``); else the driver's, with Django's error translation: Django's
    wrapping (its placeholder rewriting and layers) cost as much as the statement itself, on every tap."""
    if db.queries_logged or db.execute_wrappers:
        with db.cursor() as cursor:
            yield cursor, False
        return
    db.ensure_connection()
    db.validate_no_broken_transaction()
    with db.wrap_database_errors:
        cursor = db.connection.cursor()
        try:
            yield cursor, True
        finally:
            cursor.close()


def _json(value: Any) -> Any:
    """A JSON column as the database hands it back (text on SQLite; Django has psycopg hand jsonb back as text)."""
    return orjson.loads(value) if isinstance(value, (str, bytes)) else value


def _db_json(value: Any, text: bytes, vendor: str) -> Any:
    """A JSON column's new value (already serialized by orjson as ``text``) as the write's parameter: what
    ``JSONField.get_db_prep_save`` makes, text on SQLite and psycopg's ``Jsonb`` on PostgreSQL."""
    if vendor == "postgresql":
        from psycopg.types.json import Jsonb

        return Jsonb(value, dumps=lambda _value: text)
    return text.decode()


@dataclass(frozen=True, slots=True)
class _Row:
    """A sheet's row as this process last wrote it, committed (:func:`apply_changes`)."""

    pk: int
    version: int
    table: bytes
    colours: Any
    stack: bytes


#: The rows of the sheets this process wrote last, by token: an entry starts from its ``_Row`` and writes with
#: the version it holds, and only reads the row when that write finds another version (another process wrote).
#: Every write must move the version on for this to hold: :func:`apply_changes` and :meth:`ScoreSheet.save` do;
#: a ``QuerySet.update()`` of a sheet must set ``version=F("version") + 1`` too.
_ROWS: dict[str, _Row] = {}
_ROWS_MAX: Final = 1024


def _remember(db: BaseDatabaseWrapper, token: str, row: _Row) -> None:
    if db.in_atomic_block:  # the write may yet be rolled back: only committed rows are remembered
        _ROWS.pop(token, None)
        return
    put(_ROWS, token, row, _ROWS_MAX)


def _loaded(alias: str, **fields: Any) -> ScoreSheet:
    """A sheet with the fields an entry reads, as ``Model.from_db`` makes it, without ``Model.__init__`` (its
    per-field work and signals were a fifth of ``apply_changes`` under the line profiler); the other fields
    load on first use."""
    sheet = ScoreSheet.__new__(ScoreSheet)
    state = ModelState()
    state.adding = False
    state.db = alias
    sheet.__dict__.update(fields, _state=state)
    return sheet


#: Attempts at an entry while other phones keep writing between its read and its write.
MAX_TRIES: Final = 20


class SheetBusy(RuntimeError):
    """Other phones wrote between every read and write of an entry (:data:`MAX_TRIES` times): nothing saved."""


def apply_changes(
    token: str, changes: Iterable[Change] | Callable[[ScoreSheet], Iterable[Change]]
) -> ScoreSheet:
    """Apply entries to the freshly read sheet and save it; return the saved sheet.

    ``changes`` may be a function of the read sheet (a form is read against its players); whatever it raises
    leaves the sheet untouched. Raises :class:`ScoreSheet.DoesNotExist` for an unknown token. Only the fields the
    changes name are touched; with no change nothing is written.

    Two phones never overwrite each other: the write names the version it read (``UPDATE ... WHERE version =
    read``), and when another phone wrote in between, the row is read again and the same form applied to it,
    as a row lock would have made it wait and read. Two statements written once, not the ORM's
    ``select_for_update().get()`` and ``save(update_fields=...)`` in a transaction: building those queries and
    the transaction cost several times the queries themselves, on every tap (docs/benchmarks.md). The returned
    sheet has ``token``, ``table``, ``colours``, ``stack`` and ``version``; its other fields load on first use.

    When this process wrote the sheet last (``_ROWS``: the row it committed), the entry starts from that row
    without reading it: the write's version check is the same, and when another process (or a save()) wrote
    since, it finds another version, writes nothing, and the entry reads the row and is made again. So an entry
    is one statement on the phone's own process, two when another worker wrote last.
    """
    db = connections[DEFAULT_DB_ALIAS]  # the connection of this thread, looked up once
    vendor = db.vendor
    remembered = _ROWS.pop(token, None)  # put back once written: a failed entry leaves nothing behind
    for _ in range(MAX_TRIES):
        with _cursor(db) as (cursor, native):
            if remembered is not None:
                pk, read, colours = remembered.pk, remembered.version, remembered.colours
                table, stack = orjson.loads(remembered.table), orjson.loads(remembered.stack)
            else:
                cursor.execute(_read_sql(vendor, native), [token])
                found = cursor.fetchone()
                if found is None:
                    raise ScoreSheet.DoesNotExist(f"no score sheet {token[:8]}…")
                pk, read, colours = found[0], found[4], _json(found[2])
                table, stack = _json(found[1]), _json(found[3])
            sheet = _loaded(
                db.alias, id=pk, token=token, table=table, colours=colours, stack=stack, version=read
            )
            todo = list(changes(sheet) if callable(changes) else changes)
            if not todo:
                if remembered is not None:  # nothing to write, so nothing checks the version: read the row
                    remembered = None
                    continue
                return sheet
            remembered = None  # if the write finds another version, the next try reads the row
            for change in todo:
                _apply(sheet.table, sheet.stack, change)
            if any(c.op == "stack" or c.field == "firefighting" for c in todo):
                _derive(sheet)  # the order stored beside the players follows their positions and the stack
            sheet.version = read + 1
            table_text, stack_text = orjson.dumps(sheet.table), orjson.dumps(sheet.stack)
            values = [  # what the fields' get_db_prep_save() ends in, without their layers
                _db_json(sheet.table, table_text, vendor),
                _db_json(sheet.stack, stack_text, vendor),
                sheet.version,
                sheet.pk,
                read,
            ]
            cursor.execute(_write_sql(vendor, native), values)
            if cursor.rowcount == 1:
                _remember(db, token, _Row(pk, sheet.version, table_text, colours, stack_text))
                return sheet
    raise SheetBusy("the sheet kept changing under this entry")


# --- starting a sheet --------------------------------------------------------------------------------------------


class SheetError(ValueError):
    """What :func:`start_sheet` was given cannot start a sheet; ``field`` names the offending argument."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _player_json(name: str) -> dict[str, Any]:
    return {"name": name, **dict.fromkeys(NUMBER_FIELDS, 0), **{k: [] for k in LIST_FIELDS}, "wild_types": {}}


_PREFILL_FIELDS: Final = frozenset(NUMBER_FIELDS) | frozenset(LIST_FIELDS) | {"wild_types"}


def start_sheet(
    *,
    names: Sequence[str],
    colours: Sequence[str],
    akebono: bool,
    setup: Mapping[str, Any] | None = None,
    prefill: Mapping[str, Mapping[str, Any]] | None = None,
    firefighting_order: Sequence[str] | None = None,
    seed: str | None = None,
) -> ScoreSheet:
    """Create a sheet for 2-4 players, optionally with the game's setup and values known from a tracked game.

    ``setup`` is the JSON of ``scoring.table`` (``{"buildings": [...], "personalities": [...], "boat_sides":
    {...}}``); ``prefill`` maps a player's name to JSON fields of that player (``score_track``,
    ``firefighting``, ``trade``...). Raises :class:`SheetError` for input that cannot form a table (wrong player
    count, blank or repeated names, unknown colours or ids) or a setup the rules refuse (RULINGS R15/R18).
    """
    from scoring.validate import validate  # the rules core judges the setup

    clean = [str(n).strip() for n in names]
    if not MIN_PLAYERS <= len(clean) <= MAX_PLAYERS:
        raise SheetError("names", f"IKI is played by 2 to 4 players, not {len(clean)}.")
    if any(not n for n in clean):
        raise SheetError("names", "Every player needs a name.")
    if any(len(n) > MAX_NAME_LENGTH for n in clean):
        raise SheetError("names", f"Keep names to {MAX_NAME_LENGTH} characters.")
    if len({n.casefold() for n in clean}) != len(clean):
        raise SheetError("names", "Give each player a different name.")
    if len(colours) != len(clean) or any(c not in COLOURS for c in colours):
        raise SheetError("colours", f"Choose a colour for each player ({', '.join(COLOURS)}).")
    if len(set(colours)) != len(colours):
        raise SheetError("colours", "Give each player a different colour.")
    data: dict[str, Any] = {
        "expansions": ["akebono"] if akebono else [],
        "players": [_player_json(n) for n in clean],
    }
    if setup:
        data["setup"] = {k: (dict(v) if isinstance(v, Mapping) else list(v)) for k, v in setup.items()}
    index = {n: i for i, n in enumerate(clean)}
    for name, fields in (prefill or {}).items():
        if name not in index:
            raise SheetError("prefill", f"{name!r} is not one of the players.")
        for key, value in fields.items():
            if key not in _PREFILL_FIELDS:
                raise SheetError("prefill", f"{key!r} is not a field of a player's score.")
            data["players"][index[name]][key] = value
    stack: dict[str, int] = {}
    if firefighting_order is not None:
        if sorted(firefighting_order) != sorted(clean):
            raise SheetError("firefighting_order", "The firefighting order must list every player once.")
        # Keep each player's place within the stack of its own space (0 = top), as the firefighting step asks.
        space = {n: data["players"][index[n]].get("firefighting", 0) for n in clean}
        for n in firefighting_order:
            stack[n] = sum(1 for m in stack if space[m] == space[n])
    try:
        table = read_table(data)
    except ValueError as exc:  # InputError: an unknown id or a value of the wrong type
        raise SheetError("setup", str(exc)) from None
    setup_errors = [p for p in validate(table).errors if p.field.startswith("setup")]
    if setup_errors:
        raise SheetError("setup", " ".join(p.message for p in setup_errors))
    sheet = ScoreSheet(table=data, colours=list(colours), stack=stack, seed=seed or "")
    _derive(sheet)
    sheet.save()
    return sheet


__all__ = [
    "COLOURS",
    "Change",
    "ScoreSheet",
    "SheetBusy",
    "SheetError",
    "apply_changes",
    "firefighting_order",
    "start_sheet",
]
