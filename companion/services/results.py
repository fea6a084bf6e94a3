"""Services and selectors of results and groups (issue 14), HackSoft style: keyword-only typed functions, each
write in a transaction; the views parse a form, call one of these, and render.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from companion.errors import UserError
from companion.models.osaka import OsakaGame
from companion.models.results import GROUP_NAME_MAX, RESTORE_DAYS, Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.scorepad.steps import read_sheet
from companion.tokens import is_token
from scoring.osaka.rules import Standing, rank
from scoring.score import score_table
from scoring.validate import validate

#: The results every list shows: not removed, and for an Osaka game only while it has ended (an undo that takes
#: the end back hides its result until the game ends again: no running VP is ever shown, RULINGS O6, O8).
SHOWN = Q(removed=False) & (Q(osaka_game=None) | Q(osaka_game__finished=True))


# --- selectors -----------------------------------------------------------------------------------------------------


def group_by_token(token: str) -> tuple[Group, bool] | None:
    """The group a link names, and whether the link may write (its edit token) or only read (its view token)."""
    if not is_token(token):
        return None
    group = Group.objects.filter(token=token).first()
    if group is not None:
        return group, True
    group = Group.objects.filter(view_token=token).first()
    return (group, False) if group is not None else None


def _kept(token: str, sheet_field: str, own_field: str) -> Result | None:
    if not is_token(token):
        return None
    kept = Result.objects.filter(SHOWN).select_related("group", "sheet", "osaka_game")
    found = kept.filter(Q(**{f"sheet__{sheet_field}": token}) | Q(sheet=None, **{own_field: token})).first()
    return current(found) if found is not None else None


def result_of_sheet(token: str) -> Result | None:
    """The result a write is addressed to: by its sheet's edit token, or a checked pad's own edit token (never a
    removed one)."""
    return _kept(token, "token", "token")


def removed_result(token: str) -> Result | None:
    """A removed result by its edit token (its sheet's, or a checked pad's own): what its link offers to restore."""
    if not is_token(token):
        return None
    removed = Result.objects.filter(removed=True).select_related("group", "sheet", "osaka_game")
    return removed.filter(Q(sheet__token=token) | Q(sheet=None, token=token)).first()


def result_by_view_token(token: str) -> Result | None:
    """The result of a view-only token: its sheet's, an Osaka game's (the view link its JSON names), or a checked
    pad's own (never a removed one, nor an Osaka game's that has not ended)."""
    if is_token(token):
        found = Result.objects.filter(SHOWN, osaka_game__view_token=token).select_related(
            "group", "osaka_game"
        )
        if (result := found.first()) is not None:
            return current(result)
    return _kept(token, "view_token", "view_token")


def current(result: Result) -> Result:
    """A result as its sheet now scores, read without writing: a filed sheet edited since its result page was
    last reached shows its new numbers everywhere it is read (a view-only link included), and its result page
    writes them down (:func:`record_result`). A sheet that now has an error keeps its last good result. An Osaka
    game's result follows its game the same way (:func:`record_osaka_result`)."""
    game = result.osaka_game
    if game is not None and not result.removed and game.version != result.sheet_version:
        players = _osaka_players(game, result.group)
        if players is not None:
            result.players = players
        return result
    sheet = result.sheet
    if sheet is None or result.removed or sheet.version == result.sheet_version:
        return result
    players = _result_players(sheet, result.group)
    if players is not None:
        result.players = players
    return result


def results_of(group: Group) -> list[Result]:
    """A group's results as their sheets now score (:func:`current`), oldest first."""
    kept = group.results.filter(SHOWN).select_related("sheet", "group", "osaka_game").order_by("played", "pk")
    return [current(r) for r in kept]


def player_names(group: Group) -> list[str]:
    """Every player name of a group, most played first: the names a table is offered (issue 14)."""
    counts: dict[str, int] = {}
    for result in results_of(group):
        for p in result.players:
            counts[p["name"]] = counts.get(p["name"], 0) + 1
    return sorted(counts, key=lambda n: (-counts[n], n.casefold()))


def folded(name: str) -> str:
    """A name without case or accents: "Anais" and "anaïs" fold alike."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).strip()


def name_suggestions(group: Group, names: list[str] | None = None) -> dict[str, str]:
    """Names that fold alike (:func:`folded`) mapped to the group's name they are likely to be: the most played
    of each fold keeps its spelling (``{"Anais": "Anaïs"}``). ``names``: new names to match against the group;
    by default the group's own names, so that two spellings of one player are offered as a merge."""
    known = player_names(group)  # most played first
    keep: dict[str, str] = {}
    for n in known:
        keep.setdefault(folded(n), n)
    return {n: keep[folded(n)] for n in (known if names is None else names) if keep.get(folded(n), n) != n}


# --- services ------------------------------------------------------------------------------------------------------


def with_aliases(players: list[dict[str, Any]], group: Group | None) -> list[dict[str, Any]]:
    """``players`` with their group's renames and merges (:attr:`Group.aliases`) applied, so that a game filed,
    restored or edited after a rename counts for the name the table kept. A name stays as it is where its new name
    is already another player's in the same game: two players are never made one."""
    aliases = group.aliases if group is not None else {}
    taken = {p["name"] for p in players}
    renamed = []
    for p in players:
        new = aliases.get(p["name"], p["name"])
        if new != p["name"] and new not in taken:
            taken.add(new)
            p = {**p, "name": new}
        renamed.append(p)
    return renamed


def _result_players(sheet: ScoreSheet, group: Group | None) -> list[dict[str, Any]] | None:
    """What a result keeps of each player, or None while the rules refuse an entry (RULINGS R13); a group's
    renames and merges (its aliases) apply. The stack places decide ties as on the result page (RULINGS R12)."""
    table = read_sheet(sheet)
    if not validate(table).valid:
        return None
    by_name = {p.name: p for p in table.players}
    players = [
        {
            "name": s.name,
            "colour": sheet.colour(i),
            "lines": {key: line.points for key, line in s.lines.items()},
            "total": s.total,
            "rank": s.rank,
            "buildings": list(by_name[s.name].buildings),
            "personalities": list(by_name[s.name].personalities),
        }
        for i, s in enumerate(score_table(table))
    ]
    return with_aliases(players, group)


def record_result(*, sheet: ScoreSheet) -> Result | None:
    """Keep the result of a sheet that reached its result page with no error; rewrite it when the sheet changed
    since. Returns the result (None while the sheet has errors and no earlier result). A removed result stays
    removed; nothing is written when the sheet has not changed. A sheet started for a group is filed there when
    first kept (never again: a result taken out of its group stays out)."""
    return _keep(
        Result.objects.filter(sheet=sheet).first(),
        sheet.version,
        lambda group: _result_players(sheet, group),
        sheet.group,
        sheet=sheet,
        edition="iki-akebono" if sheet.akebono else "iki",
        played=timezone.localdate(sheet.created),  # the table's day, in the phone's time zone
        seed=sheet.seed,
    )


def _keep(
    existing: Result | None,
    version: int,
    players_of: Callable[[Group | None], list[dict[str, Any]] | None],
    group: Group | None = None,
    **fields: Any,
) -> Result | None:
    """Write a result (found by the sheet or the game in ``fields``) unless ``existing`` is removed or already of
    ``version``, or the players cannot be read yet (``players_of`` answers None): then ``existing`` stays.
    ``group``: where a new result is filed."""
    if existing is not None and (existing.removed or existing.sheet_version == version):
        return existing
    players = players_of(existing.group if existing is not None else group)
    if players is None:
        return existing
    key = {k: fields.pop(k) for k in ("sheet", "osaka_game") if k in fields}
    defaults = {**fields, "players": players, "sheet_version": version}
    with transaction.atomic():
        result, _ = Result.objects.update_or_create(
            **key, defaults=defaults, create_defaults={**defaults, "group": group}
        )
    return result


def _osaka_players(game: OsakaGame, group: Group | None) -> list[dict[str, Any]] | None:
    """What a result keeps of each player of an ended Osaka game, in seating order, or None while it has not ended
    (RULINGS O6: the VP counts are secret until then). ``total`` is the VP cards, ``rank`` the place with the
    achievement tokens' tie-break (RULINGS O5); an Osaka game has no score pad lines, buildings or personalities.
    A group's renames and merges (its aliases) apply."""
    if not game.finished:
        return None
    seats = list(game.seats.all())
    ranked = rank([Standing(s.name, s.vp, s.tokens) for s in seats])
    players = [
        {
            "name": s.name,
            "colour": s.trader,
            "lines": {},
            "total": r.vp,
            "rank": r.rank,
            "buildings": [],
            "personalities": [],
        }
        for s, r in zip(seats, ranked, strict=True)
    ]
    return with_aliases(players, group)


def record_osaka_result(*, game: OsakaGame) -> Result | None:
    """Keep the final ranking of an ended Osaka game (issue 23), as :func:`record_result` keeps a sheet's: written
    when the game's page shows its end, rewritten when the game changed since (``sheet_version`` is the game's
    version). None while the game has not ended and no earlier result exists; a removed result stays removed."""
    return _keep(
        Result.objects.filter(osaka_game=game).select_related("group").first(),
        game.version,
        lambda group: _osaka_players(game, group),
        osaka_game=game,
        edition="osaka",
        played=timezone.localdate(game.created),
    )


def keep_checked_pad(
    *, edition: str, players: list[dict[str, Any]], query: str, token: str = "", seed: str = ""
) -> Result:
    """Keep a checked paper pad with no error (``/check/`` or ``/check/2015/``) as a result; ``token``: the edit
    token of the result this pad was kept as before ("Edit the numbers"), which is then rewritten instead.
    ``seed``: the setup's seed code the pad was checked with; its options (Grand Master included, RULINGS R24)
    stay in ``query``, which reopens the check. A rewritten result keeps its group's renames (:func:`with_aliases`):
    the pad's query still holds the names as first typed."""
    with transaction.atomic():
        earlier = _kept(token, "token", "token") if token else None
        if earlier is not None and earlier.sheet is None:
            Result.objects.filter(pk=earlier.pk).update(
                edition=edition,
                players=with_aliases(players, earlier.group),
                query=query,
                seed=seed,
                sheet_version=earlier.sheet_version + 1,
            )
            earlier.refresh_from_db()
            return earlier
        return Result.objects.create(
            edition=edition,
            played=timezone.localdate(),
            players=players,
            query=query,
            seed=seed,
            sheet_version=1,
            ended=timezone.now(),  # kept when checked: filing or renaming later moves ``updated``, not this
        )


def made_once(once: str, make: Callable[[str | None], Group]) -> Group:
    """The group the form ``once`` (:func:`companion.forms.once_key`) already made, or ``make(made_by)``'s: "File
    it" or "Restore as a new group" tapped twice makes one group. Two taps at the same moment meet at the unique
    ``made_by``: the second finds the first's group."""
    if once and (made := Group.objects.filter(made_by=once).first()) is not None:
        return made
    try:
        with transaction.atomic():
            return make(once or None)
    except IntegrityError:
        made = Group.objects.filter(made_by=once).first() if once else None
        if made is None:
            raise
        return made


def _group_name(name: str) -> str:
    """A group's name as it is kept: spaces folded, at most :data:`GROUP_NAME_MAX` characters, never empty."""
    name = " ".join(name.split())[:GROUP_NAME_MAX]
    if not name:
        raise UserError("Give the group a name.")
    return name


def create_group(*, name: str, once: str = "") -> Group:
    """A new group named ``name``; ``once``: see :func:`made_once`."""
    name = _group_name(name)
    return made_once(once, lambda made_by: Group.objects.create(name=name, made_by=made_by))


@transaction.atomic
def rename_group(*, group: Group, name: str) -> Group:
    """Give a group a new name (a restored copy told apart from the group it was made of, "Thursday crew" become
    "Thursday games"). Asked twice, the second finds the name given and writes the same again: harmless. A rename
    is a use of the group (companion/services/retention.py)."""
    group.name, group.renamed = _group_name(name), timezone.now()
    Group.objects.filter(pk=group.pk).update(name=group.name, renamed=group.renamed)
    return group


@transaction.atomic
def file_result(*, result: Result, group: Group) -> Result:
    """File a result under a group (out of any other): a change of the result, and a use of the group
    (companion/services/retention.py keeps a group's results while it is used). The group's renames and merges
    apply to it (:func:`with_aliases`)."""
    players = with_aliases(result.players, group)
    Result.objects.filter(pk=result.pk).update(group=group, players=players, updated=timezone.now())
    result.group, result.players = group, players
    return result


@transaction.atomic
def take_out_of_group(*, result: Result) -> Result:
    Result.objects.filter(pk=result.pk).update(group=None)
    result.group = None
    return result


@transaction.atomic
def remove_result(*, result: Result) -> None:
    """Remove a result from every list; the sheet's result page never brings it back by itself, its edit link
    restores it for RESTORE_DAYS days (:func:`restore_result`), in its group. ``updated`` says when."""
    Result.objects.filter(pk=result.pk).update(removed=True, updated=timezone.now())


@transaction.atomic
def restore_result(*, result: Result) -> Result:
    """Bring a removed result back into every list (and its group), while it may be restored, with the renames
    and merges its group made meanwhile (:func:`with_aliases`)."""
    if result.restorable_until is None:
        raise UserError(
            f"This result was removed more than {RESTORE_DAYS} days ago: it can no longer be restored."
        )
    players = with_aliases(result.players, result.group)
    Result.objects.filter(pk=result.pk).update(removed=False, players=players, updated=timezone.now())
    result.refresh_from_db()
    return result


@transaction.atomic
def rename_player(*, group: Group, old: str, new: str) -> int:
    """Rename a player in every result of a group, or merge two names ("Anais" into "Anaïs"): the number of
    results changed. Refused when one result has both names (two players cannot be one). Asked again once done
    (a double tap), it changes nothing and is not refused."""
    new = " ".join(new.split())
    if not new or not old:
        raise UserError("Give the name to change and its new name.")
    # a second tap waits for the first, then reads it
    group = Group.objects.select_for_update().get(pk=group.pk)
    results = list(group.results.select_for_update().filter(removed=False))
    touched = [r for r in results if any(p["name"] == old for p in r.players)]
    if not touched and group.aliases.get(old) == new:
        return 0  # "Rename" or "Merge" tapped twice: the first tap did it
    if not touched:
        raise UserError(f"No result of this group has a player called {old!r}.")
    for r in touched:
        if old != new and any(p["name"] == new for p in r.players):
            raise UserError(f"{old} and {new} played in the same game on {r.played}: they are two players.")
    for r in touched:
        r.players = [{**p, "name": new} if p["name"] == old else p for p in r.players]
        Result.objects.filter(pk=r.pk).update(players=r.players, updated=timezone.now())
    aliases = {k: (new if v == old else v) for k, v in group.aliases.items()}
    aliases[old] = new
    Group.objects.filter(pk=group.pk).update(aliases=aliases)
    group.aliases = aliases
    return len(touched)


__all__ = [
    "SHOWN",
    "create_group",
    "current",
    "file_result",
    "folded",
    "group_by_token",
    "keep_checked_pad",
    "name_suggestions",
    "player_names",
    "record_osaka_result",
    "record_result",
    "remove_result",
    "removed_result",
    "rename_group",
    "rename_player",
    "restore_result",
    "result_by_view_token",
    "result_of_sheet",
    "results_of",
    "take_out_of_group",
    "with_aliases",
]
