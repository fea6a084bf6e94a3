"""The pieces an htmx entry is answered with: only what it changed, each one partial of
``templates/scorepad_step.html`` swapped in out of band (``hx-swap-oob``), about 1 kB gzipped instead of the page.

The rule table, for an entry made on the page of the sheet's previous version:

| piece | sent when |
|---|---|
| page state, steps bar, messages, player tabs, totals, the player's head | always (they are small) |
| an entry | a change touched it, or it shows a message before or after |
| a folding group, open | an entry in it gains a message (the player must see it) |
| the "counts as" choices and the groups' summaries | the player's board changed (characters step) |
| the pipes' summary | a pipe changed (tobacco step) |
| the stack questions | always on the firefighting step (a stack spans players) |
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from companion.scorepad.entries import WILD, Change, EntryKey, entries_of
from companion.scorepad.presenter import StepView, group_of

Piece = tuple[str, dict[str, Any]]

ALWAYS = ("state", "nav", "msgs", "tabs", "totals", "head")


def pieces_for(view: StepView, changes: Sequence[Change], marked_before: Collection[EntryKey]) -> list[Piece]:
    """The partials (name, their own context) that bring a page showing the sheet just before ``changes`` up to
    ``view``."""
    pieces: list[Piece] = [(name, {}) for name in ALWAYS]
    slug, player = view.step.slug, view.player
    marked_after = {k for a in view.marked() if (k := EntryKey.parse(a)) is not None}
    opened = {g for key in marked_after - set(marked_before) if (g := group_of(key))}
    for html_id in sorted(opened):
        if (group := view.group(html_id)) is not None:
            group.open = True
            pieces.append(("group", {"g": group}))
    touched = set(entries_of(changes))
    for key in sorted(touched | set(marked_before) | marked_after):
        if key.field == WILD or group_of(key) in opened:
            continue
        if (entry := view.entry(key)) is not None:
            pieces.append(("entry", {"e": entry}))
    board = {
        k for k in touched if k.player == player and k.field in ("characters", "retirement_tokens", WILD)
    }
    if slug == "characters" and (board or any(k.field == WILD for k in marked_after | set(marked_before))):
        pieces.append(("wilds", {}))
        pieces += [("summary", {"g": group}) for group in view.summaries() if group.html_id not in opened]
    if slug == "tobacco" and any(k.field == "pipes" and k.player == player for k in touched):
        group = view.pipes_group()
        if group.html_id not in opened:
            pieces.append(("summary", {"g": group}))
    if slug == "firefighting":
        pieces.append(("order", {}))
    return pieces
