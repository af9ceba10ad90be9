"""The association's server as the recipe sets it up (deploy/, docs/deployment.md): nginx,
gunicorn, PostgreSQL and Redis, started for real."""
