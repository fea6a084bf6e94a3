"""URLs: each feature module of ``companion.views`` brings its own ``urlpatterns``."""

from companion.views import api, games, home, pads, scorepad, setup

urlpatterns = [
    *home.urlpatterns,
    *api.urlpatterns,
    *pads.urlpatterns,
    *setup.urlpatterns,
    *games.urlpatterns,
    *scorepad.urlpatterns,
]

handler400 = "companion.views.errors.bad_request"
handler403 = "companion.views.errors.forbidden"
handler404 = "companion.views.errors.not_found"
handler500 = "companion.views.errors.server_error"
