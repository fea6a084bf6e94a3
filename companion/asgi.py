"""ASGI entry point: what ``manage.py table`` serves (gunicorn with uvicorn workers).

The same Django application as ``companion/wsgi.py``, middleware included: WhiteNoise serves the static files here
too. An open stream of Server-Sent Events (the live table) then waits in the event loop instead of holding a
thread; the other requests run on threads kept between requests (companion/live/threads.py).
"""

import os
import warnings

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
# WhiteNoise's file responses iterate synchronously: Django reads each one in a thread and says so once per
# process. The files are small (htmx, the CSS) and phones cache them for a year, so that costs nothing to warn of.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")

django.setup(set_prefix=False)

from companion.live.threads import Handler  # noqa: E402 (needs the apps loaded)

#: Django's ASGI handler, each request's thread borrowed from a pool (companion/live/threads.py).
application = Handler()
