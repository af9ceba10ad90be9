"""Django's SQLite backend with the writers of a database file taking turns at a file lock
(``base``); the settings name it as the ``ENGINE`` of a SQLite database."""
