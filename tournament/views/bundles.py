"""Event bundles on the web: the event page's download for its organisers, and the upload page
for directors (check, preview with the players to decide, then import all or nothing)."""

from __future__ import annotations

import gzip
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament import access
from tournament.access import ORGANISER
from tournament.core import errors
from tournament.models import Event
from tournament.publish.bundles import export, read, staging, write
from tournament.publish.bundles import plan as bundles_plan
from tournament.publish.forms import BundleUploadForm
from tournament.register import identity
from tournament.views.common import event_or_404, protected


@require_http_methods(["GET", "POST"])
@protected
def event_bundle(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's bundle. GET: a copy, nothing changes. POST (the event page's button while
    online registration is open here): the bundle for the hall, which closes online
    registration here (``export.for_the_hall``)."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    if request.method == "POST":
        data = export.for_the_hall(event, request.user)
    else:
        data = export.bundle_bytes(event)
    response = HttpResponse(data, content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="{export.filename(event)}"'
    return response


def _decisions(request: HttpRequest, content: dict[str, Any]) -> dict[str, str]:
    """The director's choice for each proposed player: a local identifier, or new."""
    decisions = {}
    for player in content["players"]:
        value = request.POST.get(f"decide-{player['uid']}", "")
        if value:
            decisions[player["uid"]] = value
    return decisions


def _uploaded(request: HttpRequest, context: dict[str, Any]) -> tuple[bytes, str, str] | None:
    """The bundle of this request: a new upload (kept for the confirmation), or the one a
    preview kept (named by its token). None when there is none; the context says why."""
    token = request.POST.get("payload", "")
    if token:
        kept = staging.staged(user=request.user, session=request.session, token=token)
        if kept is None:
            return None
        return bytes(kept.data), kept.name, kept.token
    form = context["form"] = BundleUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return None
    upload = form.cleaned_data["file"]
    return upload.read(), upload.name, ""


@protected
def bundle_import(request: HttpRequest) -> HttpResponse:
    access.require_director(request)
    context: dict[str, Any] = {"form": BundleUploadForm()}
    if request.method != "POST":
        return render(request, "tournament/bundles/import.html", context)
    uploaded = _uploaded(request, context)
    if uploaded is None:
        if request.POST.get("payload"):
            messages.error(request, _("The preview has expired; upload the file again."))
            return redirect("bundle_import")
        return render(request, "tournament/bundles/import.html", context)
    packed, source, token = uploaded
    context["source"] = source
    try:
        content = read.read_bundle(packed)
    except errors.Refused as exc:
        context["error"] = str(exc)
        return render(request, "tournament/bundles/import.html", context)
    if not token:
        token = staging.stage(
            user=request.user,
            session=request.session,
            name=source,
            # a plain JSON bundle is kept packed
            data=packed if packed[:2] == b"\x1f\x8b" else gzip.compress(packed),
        )
    decisions = _decisions(request, content)
    reason = request.POST.get("reason", "").strip() if request.POST.get("overwrite") else ""
    context.update(payload=token, reason=request.POST.get("reason", "")[:300])
    if request.POST.get("action") == "import":
        try:
            plan = write.apply_import(
                content, decisions=decisions, user=request.user, source=source, reason=reason
            )
        except errors.Refused as exc:
            context["error"] = str(exc)
        else:
            if plan.unchanged:
                messages.info(request, _("Nothing to import: this bundle is imported already."))
            else:
                messages.success(request, _("%(event)s was imported.") % {"event": plan.name})
            if plan.kept:  # the director hears of them once more, with their numbers now
                messages.warning(request, plan.kept_line())
            return redirect(plan.event or _imported(content))
    try:
        context["plan"] = bundles_plan.plan_import(content, decisions=decisions)
    except errors.Refused as exc:
        context["error"] = str(exc)
        return render(request, "tournament/bundles/import.html", context)
    rows = [
        {"match": m, "chosen": decisions.get(m.person.uid, "")} for m in context["plan"].matches
    ]
    # what needs the director's eye first (proposals, decisions, homonyms); players found by
    # identifier or an earlier decision, and plain new players, below, folded
    plain = {identity.BY_IDENTIFIER, identity.BY_ALIAS, identity.BY_ENTRY, identity.CREATED}

    def folded(row: dict[str, Any]) -> bool:
        match = row["match"]
        return match.how in plain and not match.homonyms and not match.candidates

    context["players"] = sorted(
        (r for r in rows if not folded(r)), key=lambda r: r["match"].how != identity.PROPOSED
    )
    context["plain_players"] = [r for r in rows if folded(r)]
    context["NEW"] = identity.NEW
    return render(request, "tournament/bundles/import.html", context)


def _imported(content: dict[str, Any]) -> Event:
    return Event.objects.get(uid=content["event"]["uid"])
