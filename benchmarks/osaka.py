"""Traders of Osaka: a 4-player payday (two ships, a sinking; scoring/osaka/examples.py FOUR_PLAYERS) through the
pure core and through ``POST /api/v1/osaka/payday`` with the Django test client, beside ``GET /healthz``; then the
tracked game: a payday recorded (its replay of the log included) and the unchanged poll."""

from __future__ import annotations

import json
import time

from django.test import Client

from benchmarks import Report, api_beside_healthz, cpu_figure, median_seconds
from companion.services.osaka import NewPlayer, create_game
from companion.services.osaka import record as record_entry
from companion.services.osaka_log import payday_data
from scoring.osaka import evaluate_payday, play, read_moment
from scoring.osaka.examples import FOUR_PLAYERS


def run(report: Report) -> None:
    data = FOUR_PLAYERS
    assert evaluate_payday(data)["valid"]
    moment = read_moment(data)
    cpu_figure(report, "read JSON -> Moment (4 players)", lambda: read_moment(data))
    cpu_figure(report, "validate + play two paydays and a sinking", lambda: play(moment))
    cpu_figure(report, "evaluate_payday(): read, validate, play, JSON answer", lambda: evaluate_payday(data))
    health = api_beside_healthz(report, "/api/v1/osaka/payday", json.dumps(data))
    client = Client()

    # The tracked game: each payday recorded replays the whole log (scoring.osaka.track.replay).
    names = [p["name"] for p in data["players"]]
    game = create_game(
        players=[NewPlayer(n, t) for n, t in zip(names, ("white", "pink", "gray", "tan"), strict=True)]
    )
    # The game's start: no payday is played before it (RULINGS O7); the first tokens are red, a sinking colour.
    record_entry(game.pk, kind="start", data={"draws": [[9, 3], [8, 3], [10, 2], [11, 3]]}, who="bench",
                 seen=game.version)  # fmt: skip
    for seat in range(4):
        record_entry(game.pk, kind="token", data={"seat": seat, "colour": "red", "delta": 1}, who="bench")
    game.refresh_from_db()
    form = {"edo1": "green", "edo2": "yellow", "sunk": ["red", "blue"]}
    for i, player in enumerate(payday_data(data)["players"]):
        for key in ("goods", "insured", "insurance"):
            for colour, cards in player[key].items():
                for value in set(cards):
                    form[f"p{i}-{key}_{colour}_{value}"] = str(cards.count(value))
    url = f"/osaka/games/{game.edit_token}/payday"
    count = 0

    def record() -> None:
        nonlocal count
        game.refresh_from_db()
        count += 1
        response = client.post(url, {**form, "v": game.version, "cid": f"bench-{count:08d}"})
        assert response.status_code == 302, response.content[:300]
        # undo it: the next one replays the same log
        last = game.events.filter(kind="payday", undone=False).first()
        assert last is not None
        record_entry(game.pk, kind="undo", data={"target": last.version}, who="bench")

    start = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        record()
    per = (time.perf_counter() - start) / rounds
    report(
        "tracked game: record a 4-player payday (and undo it)",
        per * 1e6,
        "µs",
        f"log of {game.events.count()} events at the end",
    )
    game.refresh_from_db()
    poll = median_seconds(
        lambda: client.get(f"/osaka/games/{game.edit_token}/state?v={game.version}"), repeat=5
    )
    report("tracked game: unchanged poll (204)", poll * 1e6, "µs", f"poll / baseline = {poll / health:.1f}x")
