"""The blank score pad page (``GET /score/pads/``) and its PDF (``GET /score/pads/blank.pdf``)."""

from __future__ import annotations

import html
import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, letter

PAGE = "/score/pads/"
PDF = "/score/pads/blank.pdf"
HTMX = {"HX-Request": "true"}


def pdf_text(content: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(io.BytesIO(content))
    return reader, reader.pages[0].extract_text()


def checked(html: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]+)" checked', html)


def test_routes_have_their_names() -> None:
    assert reverse("pads") == PAGE
    assert reverse("pads-blank") == PDF


# --- the page -------------------------------------------------------------------------------------------------


def test_page_offers_every_pad_as_a_plain_get_form(client: Client) -> None:
    response = client.get(PAGE)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html
    assert f'method="get" action="{PDF}"' in html
    assert f'hx-get="{PAGE}"' in html
    assert "Download PDF" in html
    assert f'formaction="{PAGE}"' in html  # the no-JavaScript preview
    for name, values in {"akebono": ["0", "1"], "players": ["2", "3", "4"], "size": ["a4", "letter"]}.items():
        for value in values:
            assert f'<input type="radio" name="{name}" value="{value}"' in html
    assert html.count('class="segmented"') == 3
    assert html.count("<legend>") == 3
    # defaults: base game, 4 players, A4
    assert checked(html, "akebono") == ["0"]
    assert checked(html, "players") == ["4"]
    assert checked(html, "size") == ["a4"]
    assert "IKI, 4 players, A4" in html
    assert f'href="{PDF}?akebono=0&amp;players=4&amp;size=a4"' in html
    assert "Score track" in html
    assert "Personalities" not in html


def test_page_remembers_the_choice_from_the_query(client: Client) -> None:
    response = client.get(PAGE, {"akebono": "1", "players": "3", "size": "letter"})
    assert response.status_code == 200
    html = response.content.decode()
    assert checked(html, "akebono") == ["1"]
    assert checked(html, "players") == ["3"]
    assert checked(html, "size") == ["letter"]
    assert "IKI + Akebono, 3 players, Letter" in html
    assert "Personalities" in html
    assert "Wholesale Shipping Agency 2 per trade space" in html
    assert f'href="{PDF}?akebono=1&amp;players=3&amp;size=letter"' in html


def test_htmx_gets_only_the_summary(client: Client) -> None:
    response = client.get(PAGE, {"akebono": "1", "players": "2", "size": "a4"}, headers=HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert "<form" not in html
    assert html.strip().startswith('<section id="pad-summary"')
    assert "IKI + Akebono, 2 players, A4" in html
    assert f'href="{PDF}?akebono=1&amp;players=2&amp;size=a4"' in html
    assert "Personalities" in html


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"akebono": "yes"}, "Akebono must be 0 (base game) or 1 (with Akebono), not &#x27;yes&#x27;."),
        ({"players": "5"}, "Players must be 2, 3 or 4, not &#x27;5&#x27;."),
        ({"players": "two"}, "Players must be 2, 3 or 4, not &#x27;two&#x27;."),
        ({"size": "a3"}, "Size must be a4 or letter, not &#x27;a3&#x27;."),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_query_values_get_a_400_with_the_message(
    client: Client, query: dict[str, str], message: str, htmx: bool
) -> None:
    response = client.get(PAGE, query, headers=HTMX if htmx else {})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    assert 'class="message error" role="alert"' in html
    assert ("<form" in html) is not htmx  # the full page keeps the form to choose again
    assert "IKI, 4 players, A4" in html  # and offers the default pad


def test_several_bad_values_are_all_named(client: Client) -> None:
    html = client.get(PAGE, {"players": "9", "size": "tabloid"}).content.decode()
    assert "Players must be 2, 3 or 4" in html
    assert "Size must be a4 or letter" in html


def test_page_refuses_post(client: Client) -> None:
    assert client.post(PAGE).status_code == 405
    assert client.get(PAGE).status_code == 200  # the page is there, for a GET


# --- the PDF --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("akebono", ["0", "1"])
@pytest.mark.parametrize("players", ["2", "3", "4"])
@pytest.mark.parametrize(("size", "points"), [("a4", A4), ("letter", letter), ("LETTER", letter)])
def test_blank_pdf(client: Client, akebono: str, players: str, size: str, points: Any) -> None:
    response = client.get(PDF, {"akebono": akebono, "players": players, "size": size})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    edition = "iki-akebono" if akebono == "1" else "iki"
    filename = f"{edition}-score-pad-{players}-players-{size.lower()}.pdf"
    assert response["Content-Disposition"] == f'inline; filename="{filename}"'
    reader, text = pdf_text(response.content)
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(points, abs=0.01)
    assert ("Personalities" in text) is (akebono == "1")
    assert len(re.findall(r"\bname\b", text)) == int(players)  # one empty name cell per player


def test_blank_pdf_defaults_to_the_base_game_4_players_a4(client: Client) -> None:
    response = client.get(PDF)
    assert response.status_code == 200
    assert 'filename="iki-score-pad-4-players-a4.pdf"' in response["Content-Disposition"]
    reader, _ = pdf_text(response.content)
    assert float(reader.pages[0].mediabox.width) == pytest.approx(A4[0], abs=0.01)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"akebono": "2"}, "Akebono must be 0 (base game) or 1 (with Akebono), not '2'."),
        ({"players": "5"}, "Players must be 2, 3 or 4, not '5'."),
        ({"players": "1"}, "Players must be 2, 3 or 4, not '1'."),
        ({"players": ""}, "Players must be 2, 3 or 4, not ''."),
        ({"size": "a3"}, "Size must be a4 or letter, not 'a3'."),
        ({"size": "x" * 500}, "Size must be a4 or letter, not '" + "x" * 40 + "'…."),
    ],
)
def test_bad_pdf_query_gets_the_error_page(client: Client, query: dict[str, str], message: str) -> None:
    """The error page a phone reads (a plain text answer showed as tiny type on a phone's screen)."""
    response = client.get(PDF, query)
    assert response.status_code == 400
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert f"No such score pad. {message}" in html.unescape(response.content.decode())
    assert 'role="alert"' in response.content.decode()


def test_pdf_refuses_post_and_answers_head(client: Client) -> None:
    assert client.post(PDF).status_code == 405
    head = client.head(PDF, {"players": "2"})
    assert head.status_code == 200
    assert head["Content-Type"] == "application/pdf"


# --- in a browser: a phone, with and without JavaScript --------------------------------------------------------


@pytest.mark.browser
def test_choosing_a_pad_on_a_phone(live_server: Any, page: Any, screenshot: Any) -> None:
    page.goto(live_server.url + PAGE)
    summary = page.locator("#pad-summary h2")
    assert summary.inner_text() == "IKI, 4 players, A4"
    page.get_by_text("IKI + Akebono", exact=True).click()
    page.get_by_text("3 players").click()
    page.get_by_text("Letter", exact=True).click()
    page.wait_for_function(
        "document.querySelector('#pad-summary h2').innerText === 'IKI + Akebono, 3 players, Letter'"
    )
    assert page.url.endswith(f"{PAGE}?akebono=1&players=3&size=letter")  # pushed: a reload keeps it
    assert page.locator("#pad-summary li", has_text="Personalities").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    for box in page.locator("form .segmented span").evaluate_all(
        "spans => spans.map(s => s.getBoundingClientRect().height)"
    ):
        assert box >= 44  # big touch targets
    screenshot(page, "pads-page")
    href = page.locator("#pad-summary a.button").get_attribute("href")
    answer = page.request.get(live_server.url + href)
    assert answer.status == 200
    assert answer.headers["content-type"] == "application/pdf"
    assert answer.body().startswith(b"%PDF")
    # the radios are reachable and labelled for a keyboard and a screen reader
    assert page.get_by_role("radio", name="3 players").is_checked()
    assert page.get_by_role("radio", name="Letter").is_checked()
    page.reload()
    assert page.get_by_role("radio", name="IKI + Akebono").is_checked()  # the choice survives a reload


@pytest.mark.browser
def test_pads_work_without_javascript(live_server: Any, new_context: Any, screenshot: Any) -> None:
    page = new_context(java_script_enabled=False).new_page()
    page.goto(live_server.url + PAGE)
    page.get_by_text("2 players").click()
    page.get_by_text("IKI + Akebono", exact=True).click()
    page.get_by_role("button", name="Show its lines").click()
    page.wait_for_url("**/score/pads/?*")
    assert page.locator("#pad-summary h2").inner_text() == "IKI + Akebono, 2 players, A4"
    screenshot(page, "pads-page-no-js")
    with page.expect_response(lambda r: "/score/pads/blank.pdf" in r.url) as answer:
        page.get_by_role("button", name="Download PDF").click()
    response = answer.value
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.url.endswith(f"{PDF}?akebono=1&players=2&size=a4")
