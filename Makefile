# Turnpost. Two commands matter: `make run` (serve on the embedded default) and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
FLASK   := $(BIN)/flask --app service.web
PORT    ?= 5000

.PHONY: install run test bench demo worker beat inbound lint clean faults faults-short

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]' --config-settings editable_mode=compat
	touch $(STAMP)

install: $(STAMP)

## make run: SQLite file, background work in process, mail to a Maildir shown at /dev/outbox
run: install
	$(FLASK) init-db
	$(FLASK) run --port $(PORT)

## make test: the whole suite (set TURNPOST_TEST_DATABASE_URL / _REDIS_URL for the real stack)
test: install
	$(BIN)/python -m pytest

## make bench: figures, printed (never asserted)
bench: install
	$(BIN)/python bench/run_all.py

## make demo: a Trees game for two made-up players; read their mail at /dev/outbox
demo: install
	$(FLASK) init-db
	$(FLASK) start-game trees "Anna <anna@example.org>" "Ben <ben@example.org>"
	@echo "now: make run, then open http://127.0.0.1:$(PORT)/dev/outbox"

## make faults: the real stack (PostgreSQL, Redis, worker, web, receiver, SMTP sink) under
## outages, kill -9 and fuzzed mail; prints lost / doubled / 5xx per scenario (docs/faults.md)
faults: install
	$(BIN)/python tools/faults.py --record docs/faults.md

## make faults-short: the same scenarios with short outages and small numbers (CI, ~5 min)
faults-short: install
	$(BIN)/python tools/faults.py --short

worker: install
	$(BIN)/celery -A workers.worker worker --loglevel=INFO
beat: install
	$(BIN)/celery -A workers.worker beat --loglevel=INFO
inbound: install
	$(FLASK) inbound-smtp

lint: install
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) var
