"""ASGI entry point: the app as uvicorn serves it (``manage.py table``), so that an open live stream
(companion.live.stream) is a waiting coroutine rather than a held thread."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")

application = get_asgi_application()
