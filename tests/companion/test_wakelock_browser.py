"""Issue 25, "Keep the screen on", in a phone-sized browser: the switch on the IKI tracker, the scoring
walk-through's steps and the Traders of Osaka tracker (templates/_wakelock.html, companion/static/companion/
wakelock.js). At localhost (a secure context) it asks for the Screen Wake Lock, again when the page is shown again;
at a plain-HTTP LAN address, where browsers refuse that API, it says why and plays the silent video instead."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

import pytest

from tests.companion.test_setup_share_browser import HOST, lan_browser  # noqa: F401 (the fixture, used by name)
from tests.companion.test_wakelock import three_pages
from tests.conftest import _context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Headless Chromium may refuse a real wake lock: a stand-in records each request, and the page's visibility is
# made settable, so that hiding and showing the page can be played out.
STUB = """
window.__requests = [];
window.__released = 0;
window.__visibility = "visible";
Object.defineProperty(document, "visibilityState", {configurable: true, get: () => window.__visibility});
Object.defineProperty(document, "hidden", {configurable: true, get: () => window.__visibility !== "visible"});
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request(type) {
  window.__requests.push(type);
  return Promise.resolve({released: false, release() { window.__released += 1; this.released = true;
    return Promise.resolve(); }, addEventListener() {}});
}}});
"""


def show(page: Any, visibility: str) -> None:
    page.evaluate(
        "v => { window.__visibility = v; document.dispatchEvent(new Event('visibilitychange')); }", visibility
    )


def test_secure_context_requests_the_wake_lock_and_again_when_shown(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    context = new_context()
    context.add_init_script(STUB)
    page = context.new_page()
    for name, path in three_pages().items():
        page.goto(live_server.url.replace("127.0.0.1", "localhost") + path)
        assert page.evaluate("window.isSecureContext") is True
        switch = page.get_by_role("switch", name="Keep screen on")
        switch.wait_for()
        assert not switch.is_checked(), f"{name}: off by default"
        assert page.evaluate("window.__requests") == []
        for target in ("#wakelock label", "#wakelock-on"):  # the whole label, and the switch itself
            box = page.locator(target).bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44, target
        switch.click()
        page.wait_for_function("window.__requests.length === 1")
        assert page.evaluate("window.__requests") == ["screen"]
        assert page.locator("#wakelock video").count() == 0, "no video where the browser keeps the screen on"
        assert page.locator("#wakelock-note").inner_text() == ""
        show(page, "hidden")
        page.wait_for_function("window.__released === 1")
        show(page, "visible")
        page.wait_for_function("window.__requests.length === 2")
        screenshot(page, f"wakelock-{name}")

        # Remembered on this phone: a reload asks again at once; turned off, it lets go and stays off.
        page.reload()
        page.wait_for_function("window.__requests.length === 1")
        assert page.get_by_role("switch", name="Keep screen on").is_checked()
        page.get_by_role("switch", name="Keep screen on").click()
        page.wait_for_function("window.__released === 1")
        page.reload()
        page.get_by_role("switch", name="Keep screen on").wait_for()
        assert not page.get_by_role("switch", name="Keep screen on").is_checked()
        assert page.evaluate("window.__requests") == []


def test_plain_http_says_why_and_plays_the_video(
    live_server: Any, request: pytest.FixtureRequest, screenshot: Any
) -> None:
    origin = f"http://{HOST}:{urlparse(live_server.url).port}"
    phone = _context(request.getfixturevalue("lan_browser"))
    page = phone.new_page()
    videos: list[str] = []
    page.on("request", lambda r: videos.append(r.url) if "/awake." in r.url else None)
    for name, path in three_pages().items():
        page.goto(origin + path)
        assert page.evaluate("window.isSecureContext") is False
        switch = page.get_by_role("switch", name="Keep screen on")
        switch.wait_for()
        assert videos == [], "the video is fetched only once the switch is on"
        switch.click()
        assert "not https://" in page.locator("#wakelock-note").inner_text()
        page.wait_for_function(
            "() => { const v = document.querySelector('#wakelock video');"
            " return v && !v.paused && v.currentTime > 0 && v.muted && v.loop && v.playsInline; }"
        )
        assert videos
        screenshot(page, f"wakelock-http-{name}")
        page.reload()
        page.wait_for_function(
            "() => { const v = document.querySelector('#wakelock video'); return v && !v.paused; }"
        )
        assert page.get_by_role("switch", name="Keep screen on").is_checked()
        page.get_by_role("switch", name="Keep screen on").click()
        assert page.evaluate("document.querySelector('#wakelock video').paused") is True
        assert page.locator("#wakelock-note").inner_text() == ""
        page.reload()
        videos.clear()
    phone.close()


def test_storage_that_throws_leaves_the_switch_working(live_server: Any, new_context: Any) -> None:
    """A phone that refuses storage (private mode, storage off) still gets the switch, just not remembered."""
    context = new_context()
    context.add_init_script(
        STUB + "Object.defineProperty(window, 'localStorage', {configurable: true,"
        " get() { throw new DOMException('refused', 'SecurityError'); }});"
    )
    page = context.new_page()
    page.goto(live_server.url.replace("127.0.0.1", "localhost") + three_pages()["tracker"])
    switch = page.get_by_role("switch", name="Keep screen on")
    switch.click()
    page.wait_for_function("window.__requests.length === 1")
    assert switch.is_checked()


def test_without_javascript_the_switch_is_not_shown(live_server: Any, new_context: Any) -> None:
    page = new_context(java_script_enabled=False).new_page()
    for path in three_pages().values():
        page.goto(live_server.url + path)
        assert page.locator("#wakelock").count() == 1
        assert not page.locator("#wakelock").is_visible()


def test_each_video_file_plays_by_itself(live_server: Any, page: Any) -> None:
    """Both fallbacks play: the WebM Chromium and Firefox choose, and the MP4 (H.264 baseline) Safari needs."""
    page.goto(live_server.url + three_pages()["tracker"])
    sources = page.locator("#wakelock").get_attribute("data-video").split(" ")
    assert [s.rsplit(".", 1)[1] for s in sources] == ["webm", "mp4"]
    for src in sources:
        played = page.evaluate(
            """src => new Promise((done, fail) => {
              const v = document.createElement('video');
              v.muted = v.loop = v.playsInline = true;
              v.ontimeupdate = () => { if (v.currentTime > 0) done(v.duration); };
              v.onerror = () => fail(new Error('cannot play ' + src));
              v.src = src;
              v.play().catch(fail);
            })""",
            src,
        )
        assert played > 0, src
