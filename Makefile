# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo demo-solitaire demo-2019 test lint format bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m referee.demo

demo-solitaire: $(STAMP)
	$(BIN)/python -m referee.demo_solitaire

# the Sixth Fleet (2019) variant: a signed game of two turns, then verify (referee/demo_2019.py)
demo-2019: $(STAMP)
	$(BIN)/python -m referee.demo_2019

test: $(STAMP)
	$(BIN)/ruff check referee tests bench
	$(BIN)/ruff format --check referee tests bench
	$(BIN)/python -m pytest

format: $(STAMP)
	$(BIN)/ruff check --fix referee tests bench
	$(BIN)/ruff format referee tests bench

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf build .pytest_cache .ruff_cache
