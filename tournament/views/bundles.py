"""Event bundles on the web: the event page's download for its organisers, and the upload page
for directors (check, preview with the players to decide, then import all or nothing)."""

from __future__ import annotations

import base64
import gzip
from typing import Any

from django import forms
from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from tournament import access
from tournament.access import ORGANISER
from tournament.core import errors
from tournament.models import Event
from tournament.publish.bundles import export, read, write
from tournament.publish.bundles import plan as bundles_plan
from tournament.register import identity
from tournament.views.common import event_or_404, protected

BUNDLE_UPLOAD_MAX_BYTES = 20 * 1024 * 1024  # a large event's bundle is some 200 kB packed
PREVIEW_MAX_AGE = 3600  # a preview must be confirmed within an hour
SALT = "tournament.bundles.import"


class BundleUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Event bundle"),
        help_text=gettext_lazy("The file the event page's “Event bundle” button gave."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > BUNDLE_UPLOAD_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 20 MB; it is no event bundle."))
        return upload


@require_GET
@protected
def event_bundle(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    response = HttpResponse(export.bundle_bytes(event), content_type="application/gzip")
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


@protected
def bundle_import(request: HttpRequest) -> HttpResponse:
    access.require_director(request)
    form = BundleUploadForm()
    context: dict[str, Any] = {"form": form}
    content = None
    source = ""
    packed = b""
    if request.method == "POST" and request.POST.get("payload"):
        try:
            signed = signing.loads(request.POST["payload"], salt=SALT, max_age=PREVIEW_MAX_AGE)
            packed, source = base64.b64decode(signed["data"]), str(signed["name"])
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            messages.error(request, _("The preview has expired; upload the file again."))
            return redirect("bundle_import")
    elif request.method == "POST":
        form = context["form"] = BundleUploadForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            packed, source = upload.read(), upload.name
    if packed:
        context["source"] = source
        try:
            content = read.read_bundle(packed)
        except errors.Refused as exc:
            context["error"] = str(exc)
            return render(request, "tournament/bundles/import.html", context)
        decisions = _decisions(request, content)
        if request.POST.get("action") == "import":
            try:
                plan = write.apply_import(
                    content, decisions=decisions, user=request.user, source=source
                )
            except errors.Refused as exc:
                context["error"] = str(exc)
            else:
                if plan.unchanged:
                    messages.info(request, _("Nothing to import: this bundle is imported already."))
                else:
                    messages.success(request, _("%(event)s was imported.") % {"event": plan.name})
                return redirect(plan.event or _imported(content))
        try:
            context["plan"] = bundles_plan.plan_import(content, decisions=decisions)
        except errors.Refused as exc:
            context["error"] = str(exc)
            return render(request, "tournament/bundles/import.html", context)
        rows = [
            {"match": m, "chosen": decisions.get(m.person.uid, "")} for m in context["plan"].matches
        ]
        # what needs the director's eye first (proposals, decisions, homonyms); players found
        # by identifier or an earlier decision, and plain new players, below, folded
        plain = {identity.BY_IDENTIFIER, identity.BY_ALIAS, identity.BY_ENTRY, identity.CREATED}
        context["players"] = sorted(
            (r for r in rows if r["match"].how not in plain or r["match"].homonyms),
            key=lambda r: r["match"].how != identity.PROPOSED,
        )
        context["plain_players"] = [
            r for r in rows if r["match"].how in plain and not r["match"].homonyms
        ]
        context["NEW"] = identity.NEW
        if packed[:2] != b"\x1f\x8b":  # a plain JSON bundle travels packed in the form
            packed = gzip.compress(packed)
        context["payload"] = signing.dumps(
            {"data": base64.b64encode(packed).decode(), "name": source}, salt=SALT
        )
    return render(request, "tournament/bundles/import.html", context)


def _imported(content: dict[str, Any]) -> Event:
    return Event.objects.get(uid=content["event"]["uid"])
