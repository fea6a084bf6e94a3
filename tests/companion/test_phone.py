"""Issue 25 on the server side: the web app manifest and its icons, and "Find a game by its link or code"."""

from __future__ import annotations

import io
import json

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


@pytest.mark.parametrize(
    "url", ["/", "/setup/", "/games/new/", "/score/new/", "/osaka/", "/check/", "/nowhere/"]
)
def test_every_page_links_the_manifest(client: Client, url: str) -> None:
    html = client.get(url).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
