"""What a failed browser test's phones held, printed beside its failure (tests/conftest.py
``pytest_runtest_makereport``): a browser test that fails once in many runs (a CI machine under load) can then be
read from CI's output alone, which keeps no screenshot.

For each phone (a browser context the ``new_context`` fixture made), from its start: the requests that failed, the
console's errors and warnings (Chromium's own name each answer of 400 and above, with its address), and the page's
uncaught errors; and at the failure, each page's address, whether it has loaded, and each stylesheet it links with
its rules, or why it has none (a page shown without its stylesheet still shows every element, and a test waiting for
one to be hidden by CSS then waits in vain).

Playwright sends the test an event only for the kinds it listens to: none is listened to for every answer (a
phone's polls and pulls would each cost the test's process a message)."""

from __future__ import annotations

from typing import Any

#: The most events kept per phone: the last ones, the nearest to the failure.
KEPT_EVENTS = 40

#: Run in each page at the failure. A page's evaluation runs apart from its Content-Security-Policy.
PAGE_STATE_JS = """() => ({
  ready: document.readyState,
  stylesheets: [...document.querySelectorAll('link[rel=stylesheet]')].map((link) => {
    let state = 'no sheet';
    try { state = link.sheet ? link.sheet.cssRules.length + ' rules' : state; } catch (e) {
      state = 'its rules unreadable: not loaded, or from another origin';
    }
    return link.getAttribute('href') + ': ' + state;
  }),
})"""


class PhoneLog:
    """The phones of one test and what happened on them."""

    def __init__(self) -> None:
        self.phones: list[tuple[Any, list[str]]] = []

    def watch(self, context: Any) -> None:
        """Record ``context``'s events from now on."""
        events: list[str] = []
        self.phones.append((context, events))

        def note(line: str) -> None:
            events.append(line)
            del events[:-KEPT_EVENTS]

        def said(message: Any) -> None:
            if message.type in ("error", "warning"):
                where = message.location.get("url") or ""
                note(f"console {message.type}: {message.text}" + (f" ({where})" if where else ""))

        context.on("requestfailed", lambda r: note(f"request failed: {r.method} {r.url}: {r.failure}"))
        context.on("console", said)
        context.on("weberror", lambda e: note(f"uncaught error: {e.error}"))

    def describe(self) -> str:
        """Each phone: its events, then each open page's address, load state and stylesheets."""
        from playwright.sync_api import Error as PlaywrightError

        lines: list[str] = []
        for number, (context, events) in enumerate(self.phones, start=1):
            lines.append(f"phone {number}:")
            lines.extend(f"  {event}" for event in events)
            for page in context.pages:
                lines.append(f"  page {page.url}")
                try:
                    state = page.evaluate(PAGE_STATE_JS)
                except PlaywrightError as exc:  # a page closing, or gone with its browser
                    lines.append(f"    (its state could not be read: {str(exc).splitlines()[0]})")
                    continue
                lines.append(f"    document: {state['ready']}")
                lines.extend(f"    stylesheet {sheet}" for sheet in state["stylesheets"])
        return "\n".join(lines)
