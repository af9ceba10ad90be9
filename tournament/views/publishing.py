"""The season's publication as a download: the same static website as ``manage.py
publish_season``, zipped, for a director who puts it on the association's web host."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from tournament import access
from tournament.models import Season
from tournament.publish import season as publish
from tournament.views.common import protected


@protected
@require_GET
def season_publish(request: HttpRequest, slug: str) -> HttpResponse:
    access.require_director(request)
    season = get_object_or_404(Season, slug=slug)
    content = publish.zip_site(publish.build_site(season), season.slug)
    response = HttpResponse(content, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{season.slug}.zip"'
    return response
