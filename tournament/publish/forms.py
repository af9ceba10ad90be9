"""Forms of publishing: the upload of an event bundle (``publish.bundles``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

BUNDLE_UPLOAD_MAX_BYTES = 20 * 1024 * 1024  # a large event's bundle is some 200 kB packed


class BundleUploadForm(forms.Form):
    """The file a director uploads to import an event bundle; a file over 20 MB is refused
    before it is read (``bundles.read`` checks what is inside)."""

    file = forms.FileField(
        label=_("Event bundle"),
        help_text=_("The file the event page's “Event bundle” button gave."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > BUNDLE_UPLOAD_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 20 MB; it is no event bundle."))
        return upload
