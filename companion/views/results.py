"""Results and groups (issue 14): file a result under a group, take it out, remove it; a group's page with its
statistics, its history as CSV and JSON, player renames and merges; the JSON API of results and groups.

A group's edit link (``token``) and view-only link (``view_token``) open the same page; only the edit link shows
forms, and every write refuses a view-only token with 403, writing nothing. Result writes are addressed by the
sheet's edit token, as the walk-through's result page is.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlencode

from django import forms
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import path, register_converter, reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from companion.errors import UserError, json_error
from companion.forms import NameField, OnceField, messages_of, once_key
from companion.links import share_url
from companion.models.results import GROUP_NAME_MAX, Group, Result
from companion.models.scoresheets import NAME_MAX
from companion.services.backup import group_file, read_json, restore_group
from companion.services.play_time import duration_words, play_times
from companion.services.result_export import LINE_ORDER, group_csv, group_json, result_json
from companion.services.results import (
    create_group,
    file_result,
    group_by_token,
    name_suggestions,
    player_names,
    remove_result,
    removed_result,
    rename_group,
    rename_player,
    restore_result,
    result_by_view_token,
    result_of_sheet,
    results_of,
    take_out_of_group,
)
from companion.services.stats import CHART_HEIGHT, CHART_PAD, CHART_WIDTH, group_stats
from companion.tokens import TOKEN_RE
from scoring.first_edition import LINE_LABELS_2015
from scoring.score import LINE_LABELS


class LinkConverter:
    """A token in a link (:data:`companion.tokens.TOKEN_RE`); anything else is a 404 before the database."""

    regex = TOKEN_RE.pattern

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(LinkConverter, "link")

VIEW_ONLY: Final = "This is the view-only link of a group: it shows the results but cannot change them."
NO_GROUP: Final = "There is no group at this address (the link may be mistyped)."
RESTORE_MAX: Final = 5_000_000
"""Bytes: the largest group's file a restore reads (5,000 results are about 3 MB)."""
GAMES: Final = "#games-title"
"""Where the group's page opens after a result was taken out: at its games, where the player was."""
TYPED_MAX: Final = 200
"""Characters: the most of a refused name the page shows back in its field (a long paste is kept, not a flood)."""
NO_RESULT: Final = "There is no kept result for this sheet: reach its result page with no error first."


class FileForm(forms.Form):
    """File a result: paste the group's link (or its code), or name a new group."""

    group = NameField(
        max_length=200,
        error_messages={"required": "Paste your group's link, or give a name for a new group."},
    )
    once = OnceField()


class NewGroupForm(forms.Form):
    name = NameField(
        max_length=GROUP_NAME_MAX, label="Group name", error_messages={"required": "Give the group a name."}
    )


class GroupNameForm(NewGroupForm):
    """A group's new name, checked as a new group's name is."""


def _name_refused(form: NewGroupForm) -> str:
    """Why a group's name was refused, in one sentence."""
    return f"Group name: {' '.join(map(str, form.errors['name'])).rstrip('.')}."


class RenameForm(forms.Form):
    old = NameField(label="Player")
    new = NameField(label="New name")


class TakeOutForm(forms.Form):
    result = forms.RegexField(regex=TOKEN_RE, error_messages={"invalid": "No such result in this group."})


def _group(token: str) -> tuple[Group, bool]:
    found = group_by_token(token)
    if found is None:
        raise Http404(NO_GROUP)
    return found


def _editable_group(token: str) -> Group:
    """The group of an edit link; a view-only link is refused with 403 and its sentence."""
    group, can_edit = _group(token)
    if not can_edit:
        raise PermissionDenied(VIEW_ONLY)
    return group


def _download(response: HttpResponse, filename: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _own_result(token: str, *, removed: bool = False) -> Result:
    """The kept result of an edit token; with ``removed``, a removed one too (its link offers to restore it)."""
    result = result_of_sheet(token) or (removed_result(token) if removed else None)
    if result is None:
        raise Http404(NO_RESULT)
    return result


def _back_to(result: Result) -> HttpResponseRedirect:
    return HttpResponseRedirect(result.edit_url() + "#keep")


# --- a result's own writes (the sheet's edit token) ------------------------------------------------------------


@require_POST
def file_under_group(request: HttpRequest, token: str) -> HttpResponse:
    """``POST /results/<sheet token>/group``: file under the group whose link is pasted, or a new group."""
    result = _own_result(token)
    form = FileForm(request.POST)
    if not form.is_valid():
        raise UserError(" ".join(messages_of(form)))
    text = form.cleaned_data["group"].strip().rstrip("/")
    # A link copied from the address bar may end with the part of the page it opened at (#games-title) or a query.
    code = text.split("#", 1)[0].split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    found = group_by_token(code) if TOKEN_RE.fullmatch(code) else None
    if found is not None and not found[1]:
        raise UserError("That is a group's view-only link: paste its edit link to file results.", status=403)
    if found is None and ("/" in text or TOKEN_RE.fullmatch(text)):
        raise UserError(NO_GROUP, status=404)
    if found is not None:
        group = found[0]
    else:  # "File it" tapped twice with a new name: the second tap finds the group the first made
        once = once_key(form.cleaned_data["once"], text[:GROUP_NAME_MAX])
        group = create_group(name=text[:GROUP_NAME_MAX], once=once)
    file_result(result=result, group=group)
    return _back_to(result)


@require_POST
def ungroup(request: HttpRequest, token: str) -> HttpResponse:
    """``POST /results/<sheet token>/ungroup``: take the result out of its group; with ``ask=1`` (the result
    page's button) a page asks first and writes nothing."""
    result = _own_result(token)
    if request.POST.get("ask") and result.group is not None:
        return _ask_take_out(
            request,
            result,
            result.group,
            reverse("result-ungroup", args=[token]),
            result.edit_url() + "#keep",
        )
    result = take_out_of_group(result=result)
    return _back_to(result)


def _ask_take_out(request: HttpRequest, result: Result, group: Group, action: str, back: str) -> HttpResponse:
    """The page asking once before a result leaves its group (issue 20); its answer posts to ``action``."""
    context = {"group": group, "result": result, "action": action, "back": back}
    return render(request, "results_take_out.html", context)


@require_POST
def remove(request: HttpRequest, token: str) -> HttpResponse:
    """``POST /results/<sheet token>/remove``: the result leaves every list (the sheet itself stays); its page
    then offers to restore it. A second tap finds it removed and changes nothing."""
    result = _own_result(token, removed=True)
    if not result.removed:
        remove_result(result=result)
    return _back_to(result)


@require_POST
def restore(request: HttpRequest, token: str) -> HttpResponse:
    """``POST /results/<sheet token>/restore``: a removed result comes back into every list and its group, for
    RESTORE_DAYS days after its removal. A second tap finds it kept and changes nothing."""
    result = _own_result(token, removed=True)
    if result.removed:
        restore_result(result=result)
    return _back_to(result)


def _result_page(request: HttpRequest, result: Result, *, can_edit: bool) -> HttpResponse:
    """A checked pad's result: the ranking and each line, with the keep panel."""
    if (
        result.sheet is not None or result.osaka_game is not None
    ):  # on the sheet's result page, the game's page
        return HttpResponseRedirect(result.view_url() if not can_edit else result.edit_url())
    lines = [key for key in LINE_ORDER if any(key in p["lines"] for p in result.players)]
    context: dict[str, object] = {
        "result": result,
        "can_edit": can_edit,
        "ranking": sorted(result.players, key=lambda p: (p["rank"], p["name"])),
        "lines": [(key, (LINE_LABELS_2015 if result.edition == "iki-2015" else LINE_LABELS)[key]) for key in lines],
        "view_url": share_url(request, result.view_url()),
        "edit_numbers": (reverse("check-2015" if result.edition == "iki-2015" else "check")
                         + f"?{result.query}&result={result.token}")
                        if can_edit and not result.removed and result.query else "",  # a pad to reopen
    }  # fmt: skip
    return render(request, "results_result.html", context)


@require_safe
def result_page(request: HttpRequest, token: str) -> HttpResponse:
    """``GET /results/<token>/``: a kept pad's result, with its edit link; once removed, with its restore."""
    return _result_page(request, _own_result(token, removed=True), can_edit=True)


@require_safe
def result_view(request: HttpRequest, token: str) -> HttpResponse:
    """``GET /results/view/<view token>/``: a kept pad's result, view only."""
    result = result_by_view_token(token)
    if result is None:
        raise Http404(NO_RESULT)
    return _result_page(request, result, can_edit=False)


# --- a group -------------------------------------------------------------------------------------------------------


def _with_lengths(results: list[Result]) -> list[tuple[Result, str]]:
    """Each result with its game's length as a player reads it ("" when unknown): issue 25."""
    times = play_times(results)
    return [(r, duration_words(times[r.pk].minutes)) for r in results]


@require_safe
def group_page(request: HttpRequest, token: str) -> HttpResponse:
    """``GET /groups/<token>/``: the results and statistics; the edit link also renames and takes results out."""
    group, can_edit = _group(token)
    return _group_page(
        request,
        group,
        can_edit,
        token,
        renamed=request.GET.get("renamed", ""),
        named=request.GET.get("named", ""),
        restored=request.GET.get("restored") == "1",
    )


def _group_page(
    request: HttpRequest,
    group: Group,
    can_edit: bool,
    token: str,
    *,
    refused: str = "",
    chosen: str = "",
    typed: str = "",
    restore_refused: str = "",
    renamed: str = "",
    named: str = "",
    name_refused: str = "",
    name_typed: str | None = None,
    restored: bool = False,
) -> HttpResponse:
    """The group's page; ``refused``: why a rename was refused, shown beside its form (a 400), with the player
    ``chosen`` and the name ``typed`` left in it; ``restore_refused``: why a group's file was, beside its form;
    ``renamed``: the name a rename just gave (said beside its form, on the edit link, when the group has it);
    ``named``: the name the group was just given (said the same way); ``name_refused``: why a new name for the
    group was refused (a 400), with the name typed, ``name_typed``, left in its form; ``restored``: the group was
    just made of a file (said on the edit link, its rename offered: the group the file came from may be here too,
    under the same name)."""
    results = results_of(group)
    names = player_names(group)
    context = {
        "group": group,
        "can_edit": can_edit,
        "results": list(reversed(results)),
        "games": _with_lengths(list(reversed(results))),
        "stats": group_stats(results),
        "names": names,
        "suggestions": name_suggestions(group) if can_edit else {},
        "chart_width": CHART_WIDTH,
        "chart_height": CHART_HEIGHT,
        "chart_pad": CHART_PAD,
        "chart_bottom": CHART_HEIGHT - CHART_PAD,
        "token": token,
        "view_url": share_url(request, group.view_url()),
        "edit_url": share_url(request, group.get_absolute_url()) if can_edit else "",
        "refused": refused,
        "chosen": chosen,
        "typed": typed,
        "name_max": NAME_MAX,
        "restore_refused": restore_refused,
        "renamed": renamed if can_edit and renamed in names else "",
        "named": can_edit and named == group.name,
        "name_refused": name_refused,
        "name_typed": group.name if name_typed is None else name_typed,
        "group_name_max": GROUP_NAME_MAX,
        "restored": restored and can_edit,
    }
    refusal = refused or restore_refused or name_refused
    return render(request, "results_group.html", context, status=400 if refusal else 200)


@require_POST
def rename(request: HttpRequest, token: str) -> HttpResponse:
    """``POST /groups/<token>/rename``: rename a player, or merge one name into another."""
    group = _editable_group(token)
    form = RenameForm(request.POST)
    refused = "" if form.is_valid() else " ".join(messages_of(form, named=True))
    if not refused:
        try:
            rename_player(group=group, old=form.cleaned_data["old"], new=form.cleaned_data["new"])
        except UserError as exc:
            refused = exc.message
    if refused:  # said on the group's page, beside the form, with what was typed
        chosen, typed = (str(form.data.get(field, ""))[:NAME_MAX] for field in ("old", "new"))
        return _group_page(request, group, True, token, refused=refused, chosen=chosen, typed=typed)
    done = urlencode({"renamed": " ".join(form.cleaned_data["new"].split())})
    return HttpResponseRedirect(f"{group.get_absolute_url()}?{done}#names-title")  # said there: it was done


@require_POST
def name_group(request: HttpRequest, token: str) -> HttpResponse:
    """``POST /groups/<token>/name``: give the group a new name, then its page at the top, saying so beside the
    form. A refused name is said there (a 400) with what was typed; nothing is saved."""
    group = _editable_group(token)
    form = GroupNameForm(request.POST)
    if not form.is_valid():
        typed = str(form.data.get("name", ""))[:TYPED_MAX]
        return _group_page(request, group, True, token, name_refused=_name_refused(form), name_typed=typed)
    group = rename_group(group=group, name=form.cleaned_data["name"])
    return HttpResponseRedirect(f"{group.get_absolute_url()}?{urlencode({'named': group.name})}")


@require_POST
def take_out(request: HttpRequest, token: str) -> HttpResponse:
    """``POST /groups/<token>/take-out``: take a result (named by its sheet's view token) out of the group;
    with ``ask=1`` (the group page's button) a page asks first and writes nothing."""
    group = _editable_group(token)
    form = TakeOutForm(request.POST)
    result = result_by_view_token(form.cleaned_data["result"]) if form.is_valid() else None
    if result is not None and result.group_id is None and not request.POST.get("ask"):
        return HttpResponseRedirect(reverse("group", args=[token]) + GAMES)  # "Take it out" tapped twice
    if result is None or result.group_id != group.pk:
        raise UserError("No such result in this group.", status=404)
    if request.POST.get(
        "ask"
    ):  # the group page's button asks once (issue 20); its answer posts without ``ask``
        games = reverse("group", args=[token]) + GAMES
        return _ask_take_out(request, result, group, reverse("group-take-out", args=[token]), games)
    take_out_of_group(result=result)
    return HttpResponseRedirect(reverse("group", args=[token]) + GAMES)


@require_POST
def new_group(request: HttpRequest) -> HttpResponse:
    """``POST /groups/new``: a group with a name and no results yet."""
    form = NewGroupForm(request.POST)
    if not form.is_valid():
        raise UserError(_name_refused(form))
    group = create_group(name=form.cleaned_data["name"])
    return HttpResponseRedirect(group.get_absolute_url())


@require_safe
def group_csv_download(request: HttpRequest, token: str) -> HttpResponse:
    group, _ = _group(token)
    csv_text = group_csv(results_of(group))
    return _download(HttpResponse(csv_text, content_type="text/csv; charset=utf-8"), "iki-results.csv")


@require_safe
def group_file_download(request: HttpRequest, token: str) -> HttpResponse:
    """``GET /groups/<token>/everything.json``: the group's file, to restore on this or another server."""
    group, _ = _group(token)
    data = group_file(group)
    return _download(JsonResponse(data, json_dumps_params={"ensure_ascii": False}), "iki-group.json")


class RestoreForm(forms.Form):
    file = forms.FileField(
        error_messages={"required": "Choose the group's file (iki-group.json) to restore."}
    )
    once = OnceField()
    #: The edit link of the group page whose form this is: a refused file is said there, beside the form.
    back = forms.RegexField(regex=TOKEN_RE, required=False)


def _restored(form: RestoreForm) -> Group:
    """The group a valid form's file makes (or made: :func:`made_once`); :class:`UserError` saying why not."""
    if not form.is_valid():
        raise UserError(" ".join(messages_of(form)))
    upload = form.cleaned_data["file"]
    if upload.size > RESTORE_MAX:
        raise UserError(f"This file is larger than a group's file can be ({RESTORE_MAX // 1_000_000} MB).")
    raw = upload.read()
    try:  # tapped twice, the same file sent twice with the form's one code: the second finds the first's group
        return restore_group(read_json(raw), once=once_key(form.cleaned_data["once"], raw))
    except UserError as exc:
        raise UserError(f"{exc.message} Nothing was restored.") from None


@require_http_methods(["GET", "HEAD", "POST"])
def restore_group_file(request: HttpRequest) -> HttpResponse:
    """``/groups/restore``: GET, the form on a page of its own (a phone or a server with no group yet); POST, a new
    group holding the results of a group's file. Anything else is refused whole, said beside the form on the page
    it was sent from (a group's edit page, or this one: a 400, nothing written), to choose again."""
    if request.method != "POST":
        return render(request, "results_restore.html")
    form = RestoreForm(request.POST, request.FILES)
    try:
        group = _restored(form)
    except UserError as exc:
        back = str(form.data.get("back", ""))
        found = group_by_token(back) if TOKEN_RE.fullmatch(back) else None
        if found is not None and found[1]:
            return _group_page(request, found[0], True, back, restore_refused=exc.message)
        if back:  # a view-only link or no group: the form was not its page's to send
            raise
        return render(request, "results_restore.html", {"restore_refused": exc.message}, status=exc.status)
    return HttpResponseRedirect(f"{group.get_absolute_url()}?restored=1")


@require_safe
def group_json_download(request: HttpRequest, token: str) -> HttpResponse:
    group, _ = _group(token)
    data = group_json(group, results_of(group))
    return _download(JsonResponse(data, json_dumps_params={"ensure_ascii": False}), "iki-results.json")


# --- the JSON API ----------------------------------------------------------------------------------------------


@require_safe
def api_result(request: HttpRequest, token: str) -> HttpResponse:
    """``GET /api/v1/results/<view token>``: a kept result, by its sheet's view-only token."""
    result = result_by_view_token(token)
    if result is None:
        return json_error(404, "not-found", "No kept result has this view-only token.")
    return JsonResponse(result_json(result), json_dumps_params={"ensure_ascii": False})


@require_safe
def api_group_results(request: HttpRequest, token: str) -> HttpResponse:
    """``GET /api/v1/groups/<view token>/results``: a group's results, by its view-only token only."""
    found = group_by_token(token)
    if found is None or found[1]:  # an edit token is not accepted here: the API only reads view-only links
        return json_error(404, "not-found", "No group has this view-only token.")
    group = found[0]
    return JsonResponse(group_json(group, results_of(group)), json_dumps_params={"ensure_ascii": False})


urlpatterns = [
    path("results/view/<link:token>/", result_view, name="result-view"),
    path("results/<link:token>/", result_page, name="result-page"),
    path("results/<link:token>/group", file_under_group, name="result-group"),
    path("results/<link:token>/ungroup", ungroup, name="result-ungroup"),
    path("results/<link:token>/remove", remove, name="result-remove"),
    path("results/<link:token>/restore", restore, name="result-restore"),
    path("groups/new", new_group, name="group-new"),
    path("groups/restore", restore_group_file, name="group-restore"),
    path("groups/<link:token>/", group_page, name="group"),
    path("groups/<link:token>/results.csv", group_csv_download, name="group-csv"),
    path("groups/<link:token>/results.json", group_json_download, name="group-json"),
    path("groups/<link:token>/everything.json", group_file_download, name="group-file"),
    path("groups/<link:token>/rename", rename, name="group-rename"),
    path("groups/<link:token>/name", name_group, name="group-name"),
    path("groups/<link:token>/take-out", take_out, name="group-take-out"),
    path("api/v1/results/<link:token>", api_result, name="api-result"),
    path("api/v1/groups/<link:token>/results", api_group_results, name="api-group-results"),
]
