"""The Content-Security-Policy (issue 24, companion/csp.py): every response carries it, strict (no inline script or
style, no eval), and no page of ours holds what it would block. tests/companion/test_csp_browser.py shows a browser
finds no violation."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion.csp import DIRECTIVES, HEADER, POLICY
from tests.companion.test_urls import _addresses

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
# What a policy without 'unsafe-inline' / 'unsafe-eval' blocks, as it appears in our HTML.
BLOCKED = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I),
    "style element": re.compile(r"<style\b", re.I),
    "style attribute": re.compile(r"\sstyle=", re.I),
    "event handler attribute": re.compile(r"\son[a-z]+=", re.I),
    "hx-on": re.compile(r"\shx-on[:-]", re.I),
    "js: value": re.compile(r"hx-(?:vals|headers)=['\"]\s*(?:js|javascript):", re.I),
    "trigger filter": re.compile(r"hx-trigger=\"[^\"]*\[", re.I),
    "javascript: URL": re.compile(r"href=['\"]\s*javascript:", re.I),
}


def test_the_policy_is_strict() -> None:
    assert "'unsafe-inline'" not in POLICY and "'unsafe-eval'" not in POLICY
    assert DIRECTIVES["default-src"] == "'self'"
    assert DIRECTIVES["img-src"] == "'self' data:"
    for name in ("connect-src", "manifest-src", "media-src", "form-action", "script-src", "style-src"):
        assert DIRECTIVES[name] == "'self'", name
    assert DIRECTIVES["frame-ancestors"] == DIRECTIVES["base-uri"] == "'none'"


def _checked(response: object, where: str) -> None:
    assert response[HEADER] == POLICY, where  # type: ignore[index]
    if response["Content-Type"].startswith("text/html"):  # type: ignore[index]
        text = response.content.decode(errors="replace")  # type: ignore[attr-defined]
        for what, pattern in BLOCKED.items():
            found = pattern.search(text)
            assert found is None, f"{where}: {what} {text[max(0, found.start() - 80) : found.end() + 80]!r}"


def test_every_address_carries_the_policy_and_no_page_needs_more(client: Client) -> None:
    pages = 0
    for name, url in _addresses().items():
        for response in (client.get(url), client.get(url, follow=True), client.get(url, **HX)):
            _checked(response, f"{name} {url}")
            pages += response["Content-Type"].startswith("text/html")
    assert pages >= 60


@pytest.mark.parametrize(
    ("url", "extra", "status"),
    [
        ("/no/such/page/", {}, 404),
        ("/", {"HTTP_HOST": "x" * 300}, 400),  # the Host check answers before any view
        ("/healthz", {}, 200),
        ("/static/companion/app.css", {}, 200),
        ("/setup/game/?players=3&seed=NOT-A-CODE", {}, 404),  # an unknown setup code
    ],
)
def test_error_pages_and_static_files_carry_it(
    client: Client, url: str, extra: dict[str, str], status: int
) -> None:
    response = client.get(url, **extra)
    assert response.status_code == status
    _checked(response, url)


def test_a_csrf_refusal_uses_our_page(client: Client) -> None:
    """Django's own CSRF page has an inline <style>: settings.CSRF_FAILURE_VIEW is ours."""
    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/games/new/", {"players": "x"})
    assert response.status_code == 403
    _checked(response, "csrf")
    assert "<style" not in response.content.decode()
