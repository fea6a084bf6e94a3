"""What both pad checks (the 2022 pad at ``/check/``, the 2015 pad at ``/check/2015/``) share: each player's tab
and rows, the page's context, the verdict, and a kept result's players."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from django.http import HttpResponse, QueryDict

from companion.errors import UserError
from companion.http import HtmxHttpRequest
from companion.models.scoresheets import NAME_MAX
from companion.views.checks.forms import PIPE_CHOICES, CheckStartForm, WrittenPadForm
from scoring.names import short_labels
from scoring.padcheck import PadCheck, PadProblem, Possible
from setupgen import CODE_MAX

#: The facts a player's tab takes beside the pad's lines, each with its messages under it (a problem of the place
#: in the stack has the line key ``stack``, scoring.padcheck).
FACT_FIELDS: Final = ("firefighting", "stack")


def player_rows(
    form: WrittenPadForm,
    labels: Mapping[str, str],
    check: PadCheck | None,
    possible: Callable[[int], Mapping[str, Possible]],
) -> list[dict[str, Any]]:
    """What each player's tab shows: each row's field with its problems and the line's rule, the facts, and the
    tab's short unique label with the total the place is judged on (``possible(n)``: the n-th column's lines)."""
    out = []
    shorts = short_labels([name for _, name, _ in form.seats])
    for n, (i, name, colour) in enumerate(form.seats):
        problems: dict[str, list[PadProblem]] = {}
        for p in check.problems if check else ():
            if p.player == name:
                problems.setdefault(p.line, []).append(p)
        lines = possible(n) if check else {}
        rows = [
            {
                "key": row,
                "id": f"p{i}-{row}",
                "label": labels[row],
                "field": form[f"p{i}-{row}"],
                "problems": problems.get(row, []),
                "errors": list(form[f"p{i}-{row}"].errors),
                "hint": lines[row].rule if row in lines else "",
            }
            for row in (*form.lines, "total", "rank")
        ]
        # The facts typed beside the lines: a refused number or a stack place in doubt is said under them.
        facts = [
            {
                "id": f"p{i}-{key}",
                "problems": problems.get(key, []),
                "errors": list(form[f"p{i}-{key}"].errors),
            }
            for key in FACT_FIELDS
        ]
        judged = check.players[n] if check else None
        out.append(
            {
                "index": i,
                "name": name,
                "short": shorts[n],
                "total": judged.sum if judged and judged.known else None,
                "colour": colour,
                "rows": rows,
                "pipe": form[f"p{i}-pipe"],
                "firefighting": form[f"p{i}-firefighting"],
                "stack": form[f"p{i}-stack"],
                "facts": facts,
                "flagged": sum(1 for ps in problems.values() for p in ps if p.error),
            }
        )
    return out


def page_context(
    request: HtmxHttpRequest, start: CheckStartForm, *, started: bool, edition: str, keep_url: str
) -> tuple[dict[str, Any], int]:
    """What a check page shows before the verdict: the players form, the query, the result it edits; 400 while
    the players form refuses its input."""
    context: dict[str, Any] = {
        "start": start,
        "players": start,
        "name_max": NAME_MAX,
        "code_max": CODE_MAX,
        "pipe_choices": PIPE_CHOICES,
        "started": started,
        "edition": edition,
        "check_url": request.path,
        "keep_url": keep_url,
        "query": request.GET.urlencode(),
        "kept_query": without_result(request.GET),
        "result_token": request.GET.get("result", "")[:64],
        "htmx": request.htmx,
        "errors": start.messages() if start.is_bound else [],
    }
    return context, 400 if start.is_bound and not start.is_valid() else 200


def kept_in_address(request: HtmxHttpRequest, response: HttpResponse) -> HttpResponse:
    """A live check (htmx) puts the whole pad it checked in the phone's address (``checks.js`` keeps the tab
    shown), so a reload (a phone that slept) or Back from the walk-through finds the pad as typed."""
    if request.htmx:
        response["HX-Replace-Url"] = request.get_full_path()
    return response


def verdict(check: PadCheck | None) -> dict[str, Any]:
    """The verdict: the ranking by the totals, the players without one, what follows from the doubts."""
    return {
        "check": check,
        "ranking": sorted((p for p in check.players if p.known), key=lambda p: (p.places, p.name))
        if check
        else [],
        "unranked": [p for p in check.players if not p.known] if check else [],
        "consequences": list(check.consequences) if check else [],
        # a tie is one warning, under each tied player's place but said once here
        "warnings": list({w.message: w for w in check.warnings}.values()) if check else [],
    }


#: What a check's query may hold that no player typed: the group it files into (the group page's "Check a pad for
#: this group" link). A query of that alone opens the empty form, not a refusal of the names nobody has typed yet.
FILED_IN: Final = frozenset({"group"})


def start_form(query: QueryDict) -> CheckStartForm:
    """The players form, bound once the query holds anything a player typed."""
    return CheckStartForm(query if any(key not in FILED_IN for key in query) else None)


def without_result(query: QueryDict) -> str:
    """A check's query without the ``result`` it edits: what a kept result stores to reopen it."""
    copy = query.copy()
    copy.pop("result", None)
    return copy.urlencode()


def kept_player(name: str, colour: str, lines: dict[str, int], total: int, rank: int) -> dict[str, Any]:
    return {
        "name": name, "colour": colour, "lines": lines, "total": total, "rank": rank,
        "buildings": [], "personalities": [],
    }  # fmt: skip


def kept_players(form: WrittenPadForm, check: PadCheck, typed: Sequence[Any]) -> list[dict[str, Any]]:
    """The players of a pad the check finds no fault in, as a kept result holds them."""
    places = {p.name: p for p in check.players}
    return [
        kept_player(name, colour, {line: player.lines[line] for line in form.lines if line in player.lines},
                    places[name].sum, player.rank or places[name].rank)
        for (_, name, colour), player in zip(form.seats, typed, strict=True)
    ]  # fmt: skip


def refused() -> UserError:
    """A keep of a pad that is not checked clean: 400, nothing kept."""
    return UserError(
        "This pad still has numbers that cannot be right, or a player without a total: check it again and "
        "fix them first."
    )
