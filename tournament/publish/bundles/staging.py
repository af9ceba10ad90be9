"""An uploaded bundle kept between the import page's preview and its confirmation.

The preview stores the file once (``BundleUpload``, keyed by a random token) and the confirmation
names it by the token: the file does not travel through the form a second time (a large event's
bundle, base64 in a hidden field, went over the request size limit). A token counts only for the
director who uploaded the file, in the browser session that uploaded it, for an hour.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.utils import timezone

from tournament.models.events import BundleUpload

MAX_AGE = datetime.timedelta(hours=1)  # a preview must be confirmed within an hour
SESSION_KEY = "bundle_uploads"
KEPT_PER_SESSION = 10  # tokens a session remembers (previews open in several tabs)


def stage(*, user: Any, session: SessionBase, name: str, data: bytes) -> str:
    """Keep ``data`` for the confirmation; returns its token. Uploads older than an hour go."""
    BundleUpload.objects.filter(uploaded_at__lt=timezone.now() - MAX_AGE).delete()
    upload = BundleUpload.objects.create(user=user, name=name[:255], data=data)
    tokens = [t for t in session.get(SESSION_KEY, []) if isinstance(t, str)]
    session[SESSION_KEY] = [*tokens, upload.token][-KEPT_PER_SESSION:]
    return upload.token


def staged(*, user: Any, session: SessionBase, token: str) -> BundleUpload | None:
    """The upload ``token`` names, if this user uploaded it in this session within the hour."""
    if not isinstance(token, str) or token not in session.get(SESSION_KEY, []):
        return None
    return BundleUpload.objects.filter(
        token=token, user=user, uploaded_at__gte=timezone.now() - MAX_AGE
    ).first()
