"""Test-wide settings: tests run with debug off, as in production, and a throwaway secret key."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-not-secret")
