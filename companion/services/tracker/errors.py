"""What a tracker's change answers instead of applying (companion.services.tracker.changes): nothing was changed."""

from __future__ import annotations

from companion.models.games import Game
from companion.services.tracker.records import Question


class Asked(Exception):
    """A record needs one more answer (companion.services.tracker.records.Question): nothing was changed."""

    def __init__(self, game: Game, question: Question) -> None:
        super().__init__(question.text)
        self.game = game
        self.question = question


class Replayed(Exception):
    """The phone sent a write whose client id was already applied (a retry after a lost answer): nothing was
    applied again; ``game`` is the current state (issue 13, item 3)."""

    def __init__(self, game: Game) -> None:
        super().__init__("Already saved.")
        self.game = game
