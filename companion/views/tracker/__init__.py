"""Track a game at the table (issue 5): create, share, follow month by month, change the tracks, undo, score.

Routes (docs/api.md "Games", docs/sync.md), one module per job:

- ``new``: ``/games/new/`` (``games-new``), the form creating a game with a generated setup.
- ``pages``: ``/games/<token>/`` (``game``), the game page (the edit token may change the game, the view token
  only look); ``/games/<token>/state?v=N`` (``game-state``), the polled or pulled state (204 while the game is at
  version N); ``share`` (links, QR codes), ``log``, ``who`` (POST: this phone's name, a cookie), ``end`` (POST:
  after New Year's Day, the scoring walk-through prefilled).
- ``writes``: ``/games/<token>/change`` (``game-change``, POST), one change; 403 with the view token, 409 when
  stale. What the tap writes is :mod:`companion.services.tracker.changes`; what it shows, :mod:`.state`.
- ``common`` (what the views share). What the pages show is the presenter's, a floor below:
  :mod:`companion.presenters.tracker.state` and ``record_picker`` (the record section).
"""

from __future__ import annotations

from django.urls import path

from companion.views.tracker.new import games_new
from companion.views.tracker.pages import game_end, game_log, game_page, game_share, game_state, game_who
from companion.views.tracker.writes import game_change

urlpatterns = [
    path("games/new/", games_new, name="games-new"),
    path("games/<str:token>/", game_page, name="game"),
    path("games/<str:token>/state", game_state, name="game-state"),
    path("games/<str:token>/change", game_change, name="game-change"),
    path("games/<str:token>/share", game_share, name="game-share"),
    path("games/<str:token>/log", game_log, name="game-log"),
    path("games/<str:token>/who", game_who, name="game-who"),
    path("games/<str:token>/end", game_end, name="game-end"),
]
