"""WSGI entry point for production servers (gunicorn in `make serve`)."""

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

if settings.SECRET_KEY_MISSING:
    raise ImproperlyConfigured(settings.SECRET_KEY_MESSAGE)

application = get_wsgi_application()
