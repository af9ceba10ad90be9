"""The app's template tags and filters: numbers, hands and game words (``tournament``), the
statistics pages (``stats``) and the handbook's links (``help``)."""
