"""Views of the Traders of Osaka companion (issue 15), one module per feature, each with its own ``urlpatterns``:
the start page, the JSON API, the payday calculator, the tally sheet and the shared game tracker."""

from companion.views.osaka import api, calculator, games, pages, sheet

urlpatterns = [
    *pages.urlpatterns,
    *games.urlpatterns,
    *calculator.urlpatterns,
    *sheet.urlpatterns,
    *api.urlpatterns,
]
