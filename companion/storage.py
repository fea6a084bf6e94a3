"""Static files: WhiteNoise's compressed manifest storage (hashed names, gzip, a year's caching), with plain names
before ``collectstatic`` has run, and stylesheets and scripts saved minified."""

from __future__ import annotations

from typing import Any

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage


def minified(css: str) -> str:
    """A stylesheet without its comments and the spaces it means nothing by: the comments explain the source, and
    cost every phone about 1 KiB gzipped of the 30 KiB first-load budget (issue 25). A browser reads the same rules
    (tests/companion/test_phone_browser.py compares them)."""
    return str(rcssmin.cssmin(css)).strip()


def minified_script(js: str) -> str:
    """A script without its comments and spare spaces: the same program in fewer bytes (the wake-lock switch and
    live.js both load on the walk-through's heaviest page, within the first-load budget)."""
    return str(rjsmin.jsmin(js)).strip()


#: What collectstatic saves minified, by ending; files already minified (htmx's ``.min.js``) are left alone.
MINIFIERS = {".css": minified, ".js": minified_script}


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """After ``collectstatic`` (the README's first command, .ci/test), each file's hashed name; before it (a checkout
    where only the tests ran, a server started by hand), the plain name, which WhiteNoise serves from the apps
    (``WHITENOISE_USE_FINDERS``) instead of every page failing to render."""

    def _save(self, name: str, content: Any) -> str:
        """Collected stylesheets and scripts are saved minified; the apps' copies, served before ``collectstatic``,
        are kept as written."""
        ending = "." + name.rpartition(".")[2]
        if ending in MINIFIERS and not name.endswith(".min.js"):
            content.seek(0)
            text = content.read()
            source = text.decode() if isinstance(text, bytes) else str(text)
            content = ContentFile(MINIFIERS[ending](source).encode())
        return str(super()._save(name, content))

    def stored_name(self, name: str) -> str:
        try:
            return str(super().stored_name(name))
        except ValueError:  # not collected: no manifest entry and no file in STATIC_ROOT to hash
            return name
