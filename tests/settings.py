"""The production settings, with a throwaway secret key so that tests run with debug off."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-not-secret")

from tournament.settings import *  # noqa: F403
