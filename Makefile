# Turnpost. Two commands matter: `make run` (serve on the embedded default) and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
FLASK   := $(BIN)/flask --app service.web
PORT    ?= 5000

.PHONY: install run test bench bench-engines demo worker beat inbound lint clean

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

## make bench: issue 15's figures in one table beside this machine's floors (printed, never
## asserted; BENCH_ARGS=--pg adds PostgreSQL + Redis + workers, --record writes bench/RESULTS.md)
bench: install
	$(BIN)/python bench/bench.py $(BENCH_ARGS)

## make bench-engines: the engines' and inbound parser's own figures
bench-engines: install
	$(BIN)/python bench/run_all.py

## make demo: a Trees game for two made-up players; read their mail at /dev/outbox
demo: install
	$(FLASK) init-db
	$(FLASK) start-game trees "Anna <anna@example.org>" "Ben <ben@example.org>"
	@echo "now: make run, then open http://127.0.0.1:$(PORT)/dev/outbox"

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
