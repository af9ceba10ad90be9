"""Pages kept in Django's cache per version of their event or season, with ETags (L5,
``pages``): what a hall full of phones reads again and again, computed once per change."""
