"""URLs: each feature module of ``companion.views`` brings its own ``urlpatterns``.

Django tries the patterns in order: the requests a table makes all the time come first (a scoring entry, a
game's poll), right after the health check (``companion.health``, a floor below the views: the first middleware
answers it too). No two modules' patterns match the same path, so the order changes
nothing else.
"""

from companion import health
from companion.live import stream as live
from companion.scorepad import views as scorepad
from companion.views import (
    api,
    checks,
    home,
    offline,
    osaka,
    pads,
    results,
    screen,
    setup_files,
    setup_options,
    setup_page,
    setup_ticks,
    tracker,
)

urlpatterns = [
    *health.urlpatterns,
    *home.urlpatterns,
    *scorepad.urlpatterns,
    *live.urlpatterns,
    *tracker.urlpatterns,
    *screen.urlpatterns,
    *setup_ticks.urlpatterns,
    *setup_page.urlpatterns,
    *setup_options.urlpatterns,
    *setup_files.urlpatterns,
    *pads.urlpatterns,
    *api.urlpatterns,
    *osaka.urlpatterns,
    *checks.urlpatterns,
    *offline.urlpatterns,
    *results.urlpatterns,
]

handler400 = "companion.views.errors.bad_request"
handler403 = "companion.views.errors.forbidden"
handler404 = "companion.views.errors.not_found"
handler500 = "companion.views.errors.server_error"
