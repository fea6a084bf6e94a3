"""The screenshot fixture (tests/conftest.py): a capture Chromium's compositor refuses once is asked again; any
other error, or a second refusal, fails the test as before; in CI, which keeps no file, nothing is captured."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import CAPTURE_REFUSED


class _Page:
    def __init__(self, *errors: str) -> None:
        self.errors = list(errors)
        self.asked = 0

    def screenshot(self, *, path: str, full_page: bool, scale: str) -> None:
        self.asked += 1
        if self.errors:
            raise PlaywrightError(self.errors.pop(0))
        Path(path).write_bytes(b"png")


@pytest.fixture
def screens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("tests.conftest.SCREENSHOTS", tmp_path)
    monkeypatch.setattr("tests.conftest.TAKE_SCREENSHOTS", True)
    return tmp_path


def test_a_refused_capture_is_asked_once_more(screenshot: Any, screens: Path) -> None:
    page = _Page(f"Page.screenshot: Protocol error (Page.captureScreenshot): {CAPTURE_REFUSED}")
    assert screenshot(page, "x") == screens / "x.png" and (screens / "x.png").read_bytes() == b"png"
    assert page.asked == 2


@pytest.mark.parametrize(
    "errors", [("Target page, context or browser has been closed",), (CAPTURE_REFUSED,) * 2]
)
def test_any_other_error_or_a_second_refusal_fails(
    screenshot: Any, screens: Path, errors: tuple[str, ...]
) -> None:
    page = _Page(*errors)
    with pytest.raises(PlaywrightError):
        screenshot(page, "x")
    assert page.asked == len(errors) and not (screens / "x.png").exists()


def test_in_ci_nothing_is_captured(screenshot: Any, screens: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tests.conftest.TAKE_SCREENSHOTS", False)
    page = _Page()
    assert screenshot(page, "x") is None
    assert page.asked == 0 and not (screens / "x.png").exists()
