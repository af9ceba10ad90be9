"""The Django project and its one app (app label ``tournament``: every model is in it): settings,
URLs and the code in packages by domain, each on a floor that imports only the floors below it
(``docs/architecture.md``; ``lint-imports`` checks it)."""
