"""Issue 25 on the server side: the web app manifest and its icons, and "Find a game by its link or code"."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

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
    assert len(response.content) < 1024  # small: a phone may fetch it on the first load


def test_every_manifest_icon_is_served_at_its_size(client: Client) -> None:
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in icons if icon["type"] == "image/png"}
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
