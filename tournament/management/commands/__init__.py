"""The app's ``manage.py`` commands, one module each: a backup of the database, the demo season,
players and events imported and exported, an event's workbook, the season published as a static
website, and scores and ratings recomputed after a rules fix."""
