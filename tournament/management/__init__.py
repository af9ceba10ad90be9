"""The app's command lines for directors and the administrator (``commands/``): thin wrappers
around the services, as the pages are."""
