"""The pieces an htmx entry is answered with: only what it changed, each one partial of
``templates/scorepad_step.html`` swapped in out of band (``hx-swap-oob``), about 1 kB gzipped instead of the page.

The page showed the sheet just before the entry (its version says so), so the step as it was (``before``) and as
it is (``after``) are both known here, and a piece is sent when what it shows differs between them:

| piece | compared |
|---|---|
| the player's head, with the page state (version) | always sent |
| messages above the entries | their data, or the page shows a refused entry's message (``refused``) |
| steps bar | its data |
| the numbers of a player's tab, a player's total, the count to fix | their data: only those that changed |
| an entry | every entry the changes touched or that shows a message before or after |
| a folding group, sent whole and open | an entry in it gains a message (the player must see it) |
| the "counts as" choices, the groups' summaries | their data (characters and tobacco steps) |
| the stack questions | their data (firefighting step; a stack spans players) |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.scorepad.entries import WILD, EntryChange, entries_of
from companion.scorepad.offers import group_of
from companion.scorepad.presenter import StepView

Piece = tuple[str, dict[str, Any]]


def pieces_for(
    before: StepView, after: StepView, changes: Sequence[EntryChange], *, refused: bool = False
) -> list[Piece]:
    """The partials (name, their own context) that bring a page showing ``before`` up to ``after``; ``refused``:
    the page also shows the message of an entry refused since."""
    pieces: list[Piece] = [("head", {})]
    if refused or (before.top_problems(), before.elsewhere()) != (after.top_problems(), after.elsewhere()):
        pieces.append(("msgs", {}))
    pieces += [("nav", {})] if before.nav() != after.nav() else []
    for old, tab in zip(before.totals, after.totals, strict=True):
        pieces += (
            [("tab_count", {"t": tab})] if (tab.total, tab.problems) != (old.total, old.problems) else []
        )
        pieces += [("total_count", {"t": tab})] if tab.total != old.total else []
    pieces += [("tofix", {})] if before.errors != after.errors else []
    marked_before, marked_after = before.marked(), after.marked()
    opened = {g for key in marked_after - marked_before if (g := group_of(key))}
    for html_id in sorted(opened):
        if (group := after.group(html_id)) is not None:
            group.open = True
            pieces.append(("group", {"g": group}))
    for key in sorted(set(entries_of(changes)) | marked_before | marked_after):
        if key.field == WILD or group_of(key) in opened:
            continue
        entry = after.entry(key)
        if entry is not None and entry != before.entry(key):
            pieces.append(("entry", {"e": entry}))
    slug = after.step.slug
    if slug == "characters":
        if before.wilds() != after.wilds():
            pieces.append(("wilds", {}))
        was = {g.html_id: g for g in before.summaries()}
        pieces += [
            ("summary", {"g": g})
            for g in after.summaries()
            if g.html_id not in opened and g != was[g.html_id]
        ]
    if slug == "tobacco":
        group = after.pipes_group(entries=False)
        if group.html_id not in opened and group != before.pipes_group(entries=False):
            pieces.append(("summary", {"g": group}))
    if slug == "firefighting" and before.order() != after.order():
        pieces.append(("order", {}))
    return pieces
