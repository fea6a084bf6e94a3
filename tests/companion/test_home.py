"""The start page, the health check, error pages and static files."""

from __future__ import annotations

from django.templatetags.static import static
from django.test import Client


def test_home_links_every_feature(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    for href in ('href="/setup/"', 'href="/games/new/"', 'href="/score/"', 'href="/score/pads/"'):
        assert href in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html  # the CSRF header for htmx on <body>
    assert "/static/django_htmx/htmx" not in html  # the home page uses no htmx: no 16 KiB for nothing
    assert "/static/django_htmx/htmx" in client.get("/setup/").content.decode()  # django-htmx's own, no CDN


def test_static_files_are_served_without_debug(client: Client) -> None:
    html = client.get("/").content.decode()
    script = html.split('<script src="')[1].split('"')[0]
    assert client.get(script).status_code == 200
    assert client.get("/static/companion/app.css").status_code == 200


def test_healthz(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert b"ok" in response.content


def test_unknown_page_is_a_friendly_404(client: Client) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert b"There is nothing at this address." in response.content
    assert b"Back to the start" in response.content


def test_unknown_api_address_is_json(client: Client) -> None:
    response = client.get("/api/v2/score")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not-found"


def test_every_page_names_its_icon_and_favicon_ico_leads_to_it(client: Client) -> None:
    """Issue 10, item 9: browsers ask for /favicon.ico on every page; it was a 404 each time."""
    icon = static(
        "companion/favicon.svg"
    )  # hashed once collectstatic has run (WhiteNoise's manifest storage)
    for url in ("/", "/score/", "/no/such/page"):
        html = client.get(url).content.decode()
        assert f'<link rel="icon" href="{icon}" type="image/svg+xml">' in html, url
    response = client.get("/favicon.ico", follow=True)
    assert response.redirect_chain == [(icon, 301)]
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_home_has_a_place_for_this_phones_recent_items(client: Client) -> None:
    """Issue 13, item 6: the list is filled from localStorage by recent.js (tests/companion/
    test_games_table_browser.py drives it); the server keeps nothing about the phone."""
    html = client.get("/").content.decode()
    assert 'id="recent"' in html and " hidden>" in html.split('id="recent"')[1].split("\n")[0]
    assert client.get("/static/companion/recent.js").status_code == 200
    assert "/static/companion/recent.js" in html
