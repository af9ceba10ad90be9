"""The bundle upload form: a file beyond the limit is refused before anything reads it."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from tournament.publish.forms import BUNDLE_UPLOAD_MAX_BYTES, BundleUploadForm


def form_with(size: int) -> BundleUploadForm:
    upload = SimpleUploadedFile("turnier.cego.json.gz", b"\0" * size)
    return BundleUploadForm({}, {"file": upload})


def test_a_file_over_20_mb_is_refused_as_no_bundle():
    form = form_with(BUNDLE_UPLOAD_MAX_BYTES + 1)
    with translation.override("en"):
        assert not form.is_valid()
        assert form.errors["file"] == ["The file is larger than 20 MB; it is no event bundle."]


def test_a_file_of_20_mb_goes_on_to_be_read():
    form = form_with(BUNDLE_UPLOAD_MAX_BYTES)
    assert form.is_valid()
    assert form.cleaned_data["file"].name == "turnier.cego.json.gz"
