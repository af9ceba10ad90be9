#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    from django.conf import settings
    from django.core.management import execute_from_command_line

    # the app refuses to serve without a secret key (wsgi.py does the same for gunicorn);
    # maintenance commands run with a throwaway key
    if sys.argv[1:2] == ["runserver"] and settings.SECRET_KEY_MISSING:
        sys.exit(settings.SECRET_KEY_MESSAGE)

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
