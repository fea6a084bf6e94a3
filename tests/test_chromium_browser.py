"""The Chromium the browser tests drive (tests/conftest.py): Playwright's own switches kept, and no address-bar
popup loaded in the windows of a headless browser."""

from __future__ import annotations

from typing import Any

import psutil
import pytest

from tests.conftest import ADDRESS_BAR_POPUPS, PLAYWRIGHT_DISABLED_FEATURES

pytestmark = pytest.mark.browser


def _disabled_features(browser_switches: list[str]) -> list[set[str]]:
    return [
        set(switch.removeprefix("--disable-features=").split(","))
        for switch in browser_switches
        if switch.startswith("--disable-features=")
    ]


def test_our_disabled_features_keep_playwrights_and_add_the_popups(browser: Any) -> None:
    """Chromium keeps only the last ``--disable-features``: the one tests/conftest.py gives must hold every
    feature Playwright's own (the first) turns off, or a newer Playwright's would be lost."""
    switches: list[str] = []
    for process in psutil.Process().children(recursive=True):
        try:
            argv = " ".join(process.cmdline()).split()  # Chromium's children join their argv into one string
        except psutil.Error:  # it ended meanwhile
            continue
        if argv and argv[0].endswith("chromium") and "--remote-debugging-pipe" in argv:
            switches = argv
            break
    assert switches, "the session's Chromium is not among this process's descendants"
    *earlier, ours = _disabled_features(switches)
    assert ours == {*PLAYWRIGHT_DISABLED_FEATURES, *ADDRESS_BAR_POPUPS}
    lost = set().union(*earlier) - ours
    assert lost == set(), f"add {sorted(lost)} to PLAYWRIGHT_DISABLED_FEATURES in tests/conftest.py"


def test_a_phones_window_loads_its_page_and_no_address_bar_popup(page: Any) -> None:
    """The popups' pages (chrome://omnibox-popup.top-chrome/) were one renderer process more per browser context,
    and a third of the browser tests' CPU (tests/conftest.py)."""
    page.set_content("<p>A phone</p>")
    session = page.context.browser.new_browser_cdp_session()
    try:
        targets = session.send("Target.getTargets")["targetInfos"]
    finally:
        session.detach()
    urls = [target["url"] for target in targets]
    assert any(target["type"] == "page" for target in targets), urls
    assert not [url for url in urls if url.startswith("chrome://omnibox-popup")], urls
