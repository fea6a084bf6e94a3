"""A view-only link never leads to a write (issue 10, item 1).

Start from a game's view-only link, follow every link and form on every page it reaches (the game, its share
page, its log, the result of its score sheet, the PDF), gather every token those pages show, then try every write
endpoint with each of them: all refused, with a sentence that says why, and nothing in the database changed.
"""

from __future__ import annotations

import copy
import re
from collections import deque
from urllib.parse import urldefrag, urlparse

import pytest
from django.test import Client

from companion.models.games import Game
from companion.models.scoresheets import ScoreSheet
from companion.models.setup_progress import SetupProgress
from companion.setup_query import new_table
from companion.tokens import TOKEN_RE
from scoring.examples import WORKED_EXAMPLE
from tests.factories import db_snapshot, make_game

pytestmark = pytest.mark.django_db

LINK_ATTRS = re.compile(r'\b(?:href|action|hx-get|hx-post|hx-put|hx-patch|hx-delete|src)="([^"]+)"')
TOKEN_IN_TEXT = re.compile(r"[A-Za-z0-9_-]{22,64}")


def _finished_game_with_a_sheet(client: Client) -> Game:
    game = make_game(akebono=True, finished=True)
    assert client.post(f"/games/{game.edit_token}/end").status_code == 302
    game.refresh_from_db()
    assert game.scoresheet is not None
    return game


def _scored_sheet() -> ScoreSheet:
    return ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])


def _crawl(client: Client, start: str) -> tuple[set[str], str]:
    """Every same-site address reachable from ``start`` by GET, and all the text seen on the way."""
    seen: set[str] = set()
    todo = deque([start])
    text = ""
    while todo and len(seen) < 60:
        url = urldefrag(todo.popleft())[0]
        if url in seen or not url.startswith("/") or url.startswith("/static/"):
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        body = response.content.decode()
        text += body
        for found in LINK_ATTRS.findall(body):
            found = found.replace("&amp;", "&")
            parsed = urlparse(found)
            if parsed.netloc in ("", "testserver"):
                todo.append(parsed.path + (f"?{parsed.query}" if parsed.query else ""))
    return seen, text


def test_every_write_reached_from_a_view_only_link_is_refused(client: Client) -> None:
    game = _finished_game_with_a_sheet(client)
    sheet = game.scoresheet
    assert sheet is not None
    reached, text = _crawl(client, game.view_url())
    assert sheet.view_url() in reached  # the result of the game is one tap away...
    assert f"/score/view/{sheet.view_token}/pad.pdf?size=a4" in reached  # ...and its PDF
    assert not any(game.edit_token in url or sheet.token in url for url in reached)
    assert game.edit_token not in text and sheet.token not in text
    tokens = {t for t in TOKEN_IN_TEXT.findall(text) if TOKEN_RE.fullmatch(t)}
    assert {game.view_token, sheet.view_token} <= tokens

    before = db_snapshot()
    writes = []
    for token in sorted(tokens):
        writes += [
            (f"/games/{token}/change", {"op": "score-add", "seat": "1", "value": "3"}),
            (f"/games/{token}/change", {"op": "next", "v": str(game.version)}),
            (f"/games/{token}/change", {"op": "reveal", "key": "new-character-1", "cid": "c1"}),
            (f"/games/{token}/change", {"op": "tick", "key": "general-board"}),
            (
                f"/games/{token}/change",
                {"op": "record-add", "seat": "1", "field": "characters", "key": "monk"},
            ),
            (f"/games/{token}/change", {"op": "resources", "seat": "1", "mon": "3", "was": "0,0,0,0,0"}),
            (f"/games/{token}/change", {"op": "score-set", "seat": "1", "value": "9", "was": "0"}),
            (f"/games/{token}/who", {"who": "Mallory"}),
            (f"/games/{token}/end", {}),
            (
                f"/score/{token}/track/entry/",
                {"op": "set", "p0-score_track": "99", "was-p0-score_track": "0"},
            ),
            (f"/score/{token}/characters/entry/", {"op": "add|0|characters|monk"}),
            (f"/setup/ticks?players=3&akebono=1&seed=K7MX2QPA&table={token}", {"step": "general-board"}),
            (f"/results/{token}/group", {"group": "Mallory's group"}),
            (f"/results/{token}/ungroup", {}),
            (f"/results/{token}/remove", {}),
            (f"/groups/{token}/rename", {"old": "Anaïs", "new": "Mallory"}),
            (f"/groups/{token}/name", {"name": "Mallory's"}),
            (f"/groups/{token}/take-out", {"result": token}),
        ]
    for url, form in writes:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.post(url, form, **headers)
            assert response.status_code in (403, 404), (url, response.status_code)
            body = response.content.decode()
            if game.view_token in url and url.startswith("/games/"):
                assert response.status_code == 403
                assert "view-only link" in body
            if sheet.view_token in url and url.startswith("/score/"):
                assert response.status_code == 403
                assert "view-only link of a score sheet" in body
            if url.startswith("/setup/ticks"):
                assert response.status_code == 403
                assert "cannot save ticks" in body
    assert db_snapshot() == before


def test_a_sheet_view_page_shows_the_result_and_the_pdf_and_nothing_that_writes(client: Client) -> None:
    sheet = _scored_sheet()
    page = client.get(sheet.view_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert "Final ranking" in html
    assert "<form" not in html
    assert sheet.token not in html
    assert "Edit the entries" not in html
    pdf = client.get(f"/score/view/{sheet.view_token}/pad.pdf?size=letter")
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert client.head(sheet.view_url()).status_code == 200


def test_the_result_page_offers_the_view_only_link_with_a_qr_code(client: Client) -> None:
    sheet = _scored_sheet()
    html = client.get(f"/score/{sheet.token}/result/").content.decode()
    assert f"http://testserver/score/view/{sheet.view_token}/" in html
    assert html.count("<svg") == 1


def test_sheet_tokens_are_unguessable_and_distinct() -> None:
    sheets = [ScoreSheet.objects.create(table={"players": []}) for _ in range(3)]
    tokens = {t for s in sheets for t in (s.token, s.view_token)}
    assert len(tokens) == 6
    assert all(len(t) >= 22 for t in tokens)  # token_urlsafe(18): 144 random bits


def test_the_view_only_token_of_a_sheet_opens_no_step(client: Client) -> None:
    sheet = _scored_sheet()
    for url in (f"/score/{sheet.view_token}/track/", f"/score/{sheet.view_token}/result/"):
        response = client.get(url)
        assert response.status_code == 403
        assert "view-only link of a score sheet" in response.content.decode()


# --- the setup's ticks: keyed by the table's own code, never by the seed alone ----------------------------------


def test_a_setup_page_without_a_table_code_is_given_one(client: Client) -> None:
    first = client.get("/setup/game?players=3&seed=K7MX2QPA")
    second = client.get("/setup/game?players=3&seed=K7MX2QPA")
    assert first.status_code == second.status_code == 302
    assert "seed=K7MX2QPA" in first["Location"]
    assert "table=" in first["Location"]
    assert first["Location"] != second["Location"]  # two tables, two codes


def test_the_seed_alone_cannot_tick(client: Client) -> None:
    for query in ("players=3&seed=K7MX2QPA", "players=3&seed=K7MX2QPA&table=" + "A" * 24):
        response = client.post(f"/setup/ticks?{query}", {"step": "general-board", "done": "general-board"})
        assert response.status_code == 403
        assert "cannot save ticks" in response.content.decode()
    assert not SetupProgress.objects.exists()


def test_two_tables_with_the_same_seed_keep_their_own_ticks(client: Client) -> None:
    ours, theirs = new_table(), new_table()
    query = "players=3&seed=K7MX2QPA"
    client.post(f"/setup/ticks?{query}&table={ours}", {"step": "general-board", "done": "general-board"})
    mine = client.get(f"/setup/game?{query}&table={ours}").content.decode()
    other = client.get(f"/setup/game?{query}&table={theirs}").content.decode()
    assert re.search(r'value="general-board"[^>]*checked', mine)
    assert not re.search(r'value="general-board"[^>]*checked', other)


def test_a_groups_view_only_link_leads_to_no_write(client: Client) -> None:
    """Issue 14: from a group's view-only link, every page reached and every token seen refuses every write."""
    from companion.models.results import Group
    from companion.services.results import file_result, record_result

    sheet = _scored_sheet()
    result = record_result(sheet=sheet)
    assert result is not None
    group = Group.objects.create(name="Thursday")
    file_result(result=result, group=group)
    reached, text = _crawl(client, group.view_url())
    assert sheet.view_url() in reached
    assert group.token not in text and sheet.token not in text
    assert not any(group.token in url or sheet.token in url for url in reached)
    tokens = {t for t in TOKEN_IN_TEXT.findall(text) if TOKEN_RE.fullmatch(t)}
    assert group.view_token in tokens
    before = db_snapshot()
    for token in sorted(tokens):
        for url, form in (
            (f"/results/{token}/group", {"group": "Mallory"}),
            (f"/results/{token}/ungroup", {}),
            (f"/results/{token}/remove", {}),
            (f"/groups/{token}/rename", {"old": "Anaïs", "new": "Mallory"}),
            (f"/groups/{token}/name", {"name": "Mallory's"}),
            (f"/groups/{token}/take-out", {"result": sheet.view_token}),
        ):
            response = client.post(url, form)
            assert response.status_code in (403, 404), (url, response.status_code)
    assert db_snapshot() == before
