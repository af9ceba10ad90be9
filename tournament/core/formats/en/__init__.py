"""English dates and times as a European tournament writes them (``formats.py``), found by Django
through ``FORMAT_MODULE_PATH``."""
