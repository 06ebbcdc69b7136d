# Turnpost. Two commands matter: `make run` (serve on the embedded default) and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
FLASK   := $(BIN)/flask --app service.web
PORT    ?= 5000

.PHONY: translations install run test test-deep bench bench-bytes bench-scale bench-plans bench-engines demo worker beat inbound sweep lint clean settings-doc commands-doc prod faults faults-short

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,postgres]' --config-settings editable_mode=compat
	touch $(STAMP)

# the languages' catalogs, compiled from their .po files (committed; the .mo are not)
CATALOGS := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))
translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po $(STAMP)
	$(BIN)/pybabel compile -d translations -l $* -f

install: $(STAMP) $(CATALOGS)

## make translations: extract every word to translate (service/, templates/) into
## translations/messages.pot, and bring de and fr up to date with it (then translate the new ones)
translations: install
	$(BIN)/pybabel extract -F babel.cfg -k _ -k N_ -k gettext -k ngettext:1,2 --no-location --sort-output -o translations/messages.pot .
	$(BIN)/pybabel update -i translations/messages.pot -d translations --no-fuzzy-matching

PROD_STAMP := $(VENV)/.installed-prod
$(PROD_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[prod]' --config-settings editable_mode=compat
	touch $(PROD_STAMP)

## make prod: migrate once, then every process of the Procfile under honcho: web (gunicorn),
## worker, beat (which also polls IMAP when TURNPOST_IMAP_HOST is set) and inbound (SMTP)
prod: $(PROD_STAMP)
	$(FLASK) init-db
	rm -rf var/metrics && mkdir -p var/metrics
	PATH="$(CURDIR)/$(BIN):$$PATH" PROMETHEUS_MULTIPROC_DIR="$(CURDIR)/var/metrics" \
	    $(BIN)/honcho start -f Procfile

# One base URL for every process: `make run` serves PORT and keeps its base URL in
# var/base-url, which every process started without TURNPOST_BASE_URL reads (make sweep,
# make inbound, make worker, flask --app service.web ...). A PORT given to any target wins.
ifeq ($(origin PORT),command line)
export TURNPOST_BASE_URL ?= http://127.0.0.1:$(PORT)
endif
run: export TURNPOST_BASE_URL ?= http://127.0.0.1:$(PORT)
# the whole service in one process: the web process also receives replies by SMTP
run: export TURNPOST_INBOUND_SMTP_IN_WEB ?= 1

## make run: SQLite file, background work in process, mail to a Maildir shown at /dev/outbox,
## replies received on 127.0.0.1:2525 (SMTP) or sent from /dev/outbox's Reply
run: install
	$(FLASK) init-db
	$(BIN)/python -m config base-url "$$TURNPOST_BASE_URL"
	$(FLASK) run --port $(PORT)

## make test: the whole suite on every core (set TURNPOST_TEST_DATABASE_URL / _REDIS_URL for the
## real stack), ending with its ten slowest tests; TEST_ARGS adds to it (TEST_ARGS="-n 0 -x")
TEST_ARGS ?=
test: install
	$(BIN)/python -m pytest -n auto --dist loadgroup --durations=10 $(TEST_ARGS)

## make test-deep: the property and random-play tests (marked deep) at five times their budget
test-deep: install
	TURNPOST_TEST_DEEP=1 $(BIN)/python -m pytest -n auto -m deep --durations=5 $(TEST_ARGS)

## make bench: issue 15's figures in one table beside this machine's floors (printed, never
## asserted; BENCH_ARGS=--pg adds PostgreSQL + Redis + workers, --record writes bench/RESULTS.md)
bench: install
	$(BIN)/python bench/bench.py $(BENCH_ARGS)

## make bench-scale: a PostgreSQL database of 1,000,000 games under gunicorn (4 workers), Celery
## (4 processes) and beat: moves, replies, the sweep, fan-out, /me, memory, bytes per move, each
## beside its floor (TURNPOST_SCALE_DATABASE_URL: a database it may fill; BENCH_SCALE_ARGS=
## --record writes bench/SCALE.md; the seed is kept and reused, --reseed redoes it; --only
## links,replies,me,sweep,fanout,memory,pools runs those phases alone, a minute or two each)
bench-scale: install
	$(BIN)/python bench/scale/run.py $(BENCH_SCALE_ARGS)

## make bench-bytes: PostgreSQL's bytes per 1,000 moves (with their emails sent), table by table
## and index by index, without vacuum, after one, with VACUUM as autovacuum keeping up would, and
## with the daily prune too (TURNPOST_BYTES_DATABASE_URL: a scratch database it DROPS and recreates)
bench-bytes: install
	$(BIN)/python bench/bytes_bench.py $(BENCH_ARGS)

## make bench-plans: turns and emails per Suzerain and Trees game with plans against without
## (easy bots planning one move ahead, seeds fixed)
bench-plans: install
	$(BIN)/python bench/plans_bench.py $(BENCH_ARGS)

## make bench-engines: the engines' and inbound parser's own figures
bench-engines: install
	$(BIN)/python bench/run_all.py

## make demo: a Trees game for you against a bot; prints the link to your seat
demo: install
	$(FLASK) init-db
	$(FLASK) start-game trees "You <you@example.org>" bot
	@echo "now: make run, then open the seat link above (your mail is at /dev/outbox)"

## make faults: the production layout (PostgreSQL, Redis, worker, beat, gunicorn's config,
## receiver, SMTP sink; 60 s sweeps) under outages, a hung broker, relay refusals, kill -9,
## database errors and fuzzed mail, moves by link and by reply; prints lost / doubled / muted /
## 5xx / slowest click / time to drain per scenario and records it in docs/faults.md (~20 min)
faults: install
	$(BIN)/python tools/faults.py --record docs/faults.md

## make faults-short: the fast subset with short outages, small numbers and 5 s sweeps (CI, ~4 min)
faults-short: install
	$(BIN)/python tools/faults.py --short

worker: install
	$(BIN)/celery -A workers.worker worker --loglevel=INFO
beat: install
	mkdir -p var
	$(BIN)/celery -A workers.worker beat --loglevel=INFO --schedule var/celerybeat-schedule
inbound: install
	$(FLASK) inbound-smtp
## make sweep: the clocks and the outbox every minute from a process of its own (the embedded
## default's web process does it when idle; this is for TURNPOST_BACKGROUND=inline)
sweep: install
	$(FLASK) sweep --every 60

## make settings-doc: write docs/operating.md's settings table from config/ (a test checks they agree)
settings-doc: install
	$(BIN)/python -m config docs

## make commands-doc: write docs/commands.md from the word registry (a test checks they agree)
commands-doc: install
	$(BIN)/python -c "from service.play.moves.wordregistry import markdown; print(markdown(), end='')" > docs/commands.md

lint: install
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) var
