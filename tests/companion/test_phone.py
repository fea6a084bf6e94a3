"""Issue 25 on the server side: the web app manifest and its icons, and "Find a game by its link or code"."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from PIL import Image

pytestmark = pytest.mark.django_db


# --- installable ---------------------------------------------------------------------------------------------------


def test_the_manifest_is_served_with_its_type_and_fields(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert (data["name"], data["short_name"], data["start_url"], data["display"]) == (
        "IKI companion", "IKI", "/", "standalone",
    )  # fmt: skip
    assert data["theme_color"] == "#1d1b19" and data["background_color"] == "#faf6ef"
    assert len(response.content) < 512  # small: a phone may fetch it with the first page


def test_every_manifest_icon_is_served_at_its_size(client: Client) -> None:
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in icons if icon["type"] == "image/png"}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon
        body = b"".join(response.streaming_content) if response.streaming else response.content
        if icon["type"] == "image/png":
            width, height = icon["sizes"].split("x")
            assert Image.open(io.BytesIO(body)).size == (int(width), int(height))
            assert len(body) < 16 * 1024  # small PNGs


@pytest.mark.parametrize("url", ["/apple-touch-icon.png", "/apple-touch-icon-precomposed.png"])
def test_the_apple_touch_icon_is_at_the_root(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (180, 180) and image.mode == "RGB"  # opaque: iOS rounds the corners itself


@pytest.mark.parametrize("url", ["/", "/setup/", "/games/new/", "/score/", "/osaka/", "/check/", "/nowhere/"])
def test_every_page_links_the_manifest(client: Client, url: str) -> None:
    html = client.get(url).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html


# --- readable ------------------------------------------------------------------------------------------------------

CSS = Path(__file__).resolve().parents[2] / "companion" / "static" / "companion" / "app.css"
#: Text on background, as the pages pair them: each must reach WCAG AA for normal text (4.5:1) in both themes.
PAIRS = [
    ("ink", "paper"), ("ink", "card"), ("ink", "field"), ("muted", "paper"), ("muted", "card"),
    ("accent", "paper"), ("accent", "card"), ("accent-ink", "accent"), ("bar-ink", "bar"),
    ("error", "error-bg"), ("error", "card"), ("warn", "warm"), ("warn", "card"), ("ok", "ok-bg"),
    ("ink", "pill"), ("ink", "chosen"), ("ink", "warm"), ("accent-ink", "error"),
]  # fmt: skip


def _theme(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})", block))


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_text_colours_are_readable_in_both_themes(theme: str) -> None:
    css = CSS.read_text()
    light = _theme(css[css.index(":root {") : css.index("}", css.index(":root {"))])
    dark_start = css.index("prefers-color-scheme: dark")
    dark = light | _theme(css[dark_start : css.index("}", dark_start)])
    colours = light if theme == "light" else dark
    assert colours != light or theme == "light"
    low = {f"{t} on {b}": round(_contrast(colours[t], colours[b]), 2) for t, b in PAIRS}
    assert {pair: ratio for pair, ratio in low.items() if ratio < 4.5} == {}


def test_the_root_font_size_follows_the_browser_setting() -> None:
    """A size in px would ignore the phone's text size setting."""
    root = re.search(r":root \{[^}]*\}", CSS.read_text())
    assert root is not None
    assert "font-size: 112.5%" in root.group(0) and not re.search(r"font-size:\s*\d+px", root.group(0))


# --- recents survive: find a game by its link or code -----------------------------------------------------------


@pytest.fixture
def things() -> dict[str, Any]:
    """One of everything a link or code can name."""
    import copy

    from companion.models.osaka import OsakaSeat
    from companion.models.results import Group, Result
    from companion.models.scoresheets import ScoreSheet
    from companion.services.osaka import NewPlayer as OsakaPlayer
    from companion.services.osaka import create_game as create_osaka_game
    from scoring.examples import WORKED_EXAMPLE
    from tests.factories import make_game

    game = make_game()
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    pad = Result.objects.create(edition="iki", played="2026-11-20", players=[], sheet_version=1)
    removed = Result.objects.create(
        edition="iki", played="2026-11-20", players=[], sheet_version=1, removed=True
    )
    osaka = create_osaka_game(players=[OsakaPlayer("Anaïs", "white"), OsakaPlayer("David", "pink")])
    seat = OsakaSeat.objects.filter(game=osaka).first()
    assert seat is not None
    group = Group.objects.create(name="Thursday")
    return {
        "game": game.edit_token, "game_view": game.view_token, "sheet": sheet.token, "sheet_view": sheet.view_token,
        "pad": pad.token, "pad_view": pad.view_token, "removed": removed.token, "osaka": osaka.edit_token,
        "osaka_view": osaka.view_token, "private": seat.private_token, "group": group.token,
        "group_view": group.view_token,
    }  # fmt: skip


#: What is typed or pasted -> where it leads. ``{game}`` and the like stand for that thing's token.
FOUND = [
    ("{game}", "/games/{game}/"),
    ("  {game_view}  ", "/games/{game_view}/"),
    ("http://192.168.1.20:8000/games/{game}/", "/games/{game}/"),
    ("192.168.1.20:8000/games/{game}/log", "/games/{game}/log"),
    ("/games/{game}/state", "/games/{game}/"),  # the JSON state: the game's page instead
    (
        "https://elsewhere.example/games/{game}/",
        "/games/{game}/",
    ),  # only the path is kept: never another site
    ("{sheet}", "/score/{sheet}/"),
    ("http://laptop.local:8000/score/{sheet}/buildings/", "/score/{sheet}/buildings/"),
    ("/games/{sheet}/", "/score/{sheet}/"),  # a sheet's code in a game's address: the sheet
    ("{sheet_view}", "/score/view/{sheet_view}/"),
    ("{pad}", "/results/{pad}/"),
    ("{pad_view}", "/results/view/{pad_view}/"),
    ("{osaka}", "/osaka/games/{osaka}/"),
    ("http://x/osaka/games/{osaka_view}/share", "/osaka/games/{osaka_view}/share"),
    ("{private}", "/osaka/games/{private}/"),
    ("{group}", "/groups/{group}/"),
    ("http://x:8000/groups/{group_view}/", "/groups/{group_view}/"),
    ("http://x:8000/setup/game?players=3&seed=K7MX2QPA", "/setup/game?players=3&seed=K7MX2QPA"),
]
NOT_FOUND = [
    "AAAAAAAAAAAAAAAAAAAAAAAA",  # a code's shape, nobody's
    "http://192.168.1.20:8000/games/AAAAAAAAAAAAAAAAAAAAAAAA/",
    "{removed}",  # a removed result is gone from every list
    "http://x/score/pads/",  # a page, but not a game's
    "http://x/nowhere/{game}/",
    "K7MX2QPA",  # a setup's seed is not a code: its link is
    "http://x/setup/game",
    "hello",
    "http://[::1",
    "../../etc/passwd",
]
REFUSED = ["", "   ", "x" * 301, "abc\x00def", "abc\x07def", "\u202egame"]


def test_find_leads_to_what_a_link_or_code_names(client: Client, things: dict[str, Any]) -> None:
    for typed, where in FOUND:
        response = client.get("/find/", {"q": typed.format(**things)})
        assert response.status_code == 302, typed
        assert response["Location"] == where.format(**things), typed
        assert client.get(response["Location"], follow=True).status_code == 200, typed


def test_a_code_may_be_typed_in_groups(client: Client, things: dict[str, Any]) -> None:
    code = things["game"]
    typed = " ".join(code[i : i + 4] for i in range(0, len(code), 4))  # as one reads it aloud
    assert client.get("/find/", {"q": typed})["Location"] == f"/games/{code}/"


def test_find_says_so_when_a_link_or_code_names_nothing(client: Client, things: dict[str, Any]) -> None:
    for typed in NOT_FOUND:
        response = client.get("/find/", {"q": typed.format(**things)})
        assert response.status_code == 404, typed
        html = response.content.decode()
        assert "Nothing here has this link or code" in html and 'id="find-q"' in html, typed


def test_find_refuses_what_is_not_a_link_or_a_code(client: Client) -> None:
    for typed in REFUSED:
        response = client.get("/find/", {"q": typed})
        assert response.status_code == 400, repr(typed)
        assert 'class="message error"' in response.content.decode(), repr(typed)


def test_find_without_a_question_shows_the_form_and_writes_nothing(
    client: Client, things: dict[str, Any]
) -> None:
    from tests.factories import db_snapshot

    before = db_snapshot()
    assert 'id="find-q"' in client.get("/find/").content.decode()
    client.get("/find/", {"q": things["game"]})
    client.get("/find/", {"q": "nothing"})
    assert db_snapshot() == before
    assert client.post("/find/", {"q": things["game"]}).status_code == 405


def test_the_home_page_offers_find_with_or_without_recents(client: Client) -> None:
    html = client.get("/").content.decode()
    assert "Find a game by its link or code" in html
    form = html.split('<form method="get" action="/find/"')[1].split("</form>")[0]
    assert 'name="q"' in form and "Find</button>" in form
    assert html.index('id="recent"') < html.index('action="/find/"')  # under the recent list


@pytest.mark.parametrize(
    ("written", "kept", "gone"),
    [
        ("a { color: red; }\n/* note */\nb > c { x: y }", ["color:red", "x:y"], ["note", "\n"]),
        (
            "@media (max-width: 20em) { a :hover, b:not(.c) { --d: e } }",
            ["a :hover", "b:not(.c)", "--d:e"],
            [],
        ),
        ('a::before { content: "/* kept */  two  spaces; {" }', ['"/* kept */  two  spaces; {"'], []),
        ("a{x:var(--y, 1rem)} /* a */ /* b */", ["var(--y"], ["/* a */"]),
    ],
)
def test_collected_stylesheets_are_minified(written: str, kept: list[str], gone: list[str]) -> None:
    """Comments and spare spaces go, strings and selectors' meaningful spaces stay (the browser test compares the
    rules Chromium reads)."""
    from companion.storage import minified

    served = minified(written)
    assert len(served) < len(written)
    assert all(part in served for part in kept), served
    assert not any(part in served for part in gone), served


def test_a_static_file_not_collected_keeps_its_plain_name(tmp_path: Path) -> None:
    """Before collectstatic (no manifest, no hashed copy) a page names a static file by its plain name, as the
    development server serves it, instead of failing (companion/storage.py)."""
    from companion.storage import StaticFilesStorage

    storage = StaticFilesStorage(location=str(tmp_path), base_url="/static/")
    assert storage.stored_name("companion/app.css") == "companion/app.css"
    assert storage.url("companion/app.css") == "/static/companion/app.css"


def test_collected_scripts_are_minified_and_still_run(tmp_path: Path) -> None:
    """live.js, the largest script, in far fewer bytes, and still a script that parses (``node --check``, where Node
    is installed)."""
    from companion.storage import minified_script

    source = (Path(__file__).resolve().parents[2] / "companion/static/companion/live.js").read_text()
    served = minified_script(source)
    assert len(served) < len(source) * 0.8
    assert "//" not in served.replace("://", "")  # no line comment left (a URL's scheme aside)
    node = shutil.which("node")
    if node:
        script = tmp_path / "live.min.js"
        script.write_text(served)
        checked = subprocess.run([node, "--check", str(script)], capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr


def test_minifying_keeps_every_template_literal_as_written() -> None:
    """rjsmin reads a template literal nested in another's ``${}`` as code and drops a space inside it (a conflict's
    note read "scoreto"): no script nests one, and every literal comes through minified as written."""
    from companion.storage import minified_script

    folder = Path(__file__).resolve().parents[2] / "companion/static/companion"
    for script in sorted(folder.glob("*.js")):
        if script.name.endswith(".min.js"):
            continue
        source = script.read_text()
        code = "\n".join(
            "" if line.lstrip().startswith(("//", "/*", "*")) else line for line in source.split("\n")
        )
        served = minified_script(source)
        for literal in code.split("`")[1::2]:  # between a backtick and the next: a literal's text
            assert "${" not in re.sub(r"\$\{[^{}`]*\}", "", literal), (
                f"{script.name}: a literal in `{literal}`"
            )
            assert f"`{literal}`" in served, f"{script.name}: `{literal}` changed by the minifier"
