# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo demo-sf naval-demo demo-solitaire demo-2019 demo-dtp demo-westpac demo-declared test lint format bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# every bundled game's demo, then a table of results (referee/demos/); one game alone below
demo: $(STAMP)
	$(BIN)/python -m referee.demos

# SPI Sixth Fleet (1975) alone: the example orders of the short scenario (referee/demos/sixth_fleet_1975.py)
demo-sf: $(STAMP)
	$(BIN)/python -m referee.demos.sixth_fleet_1975

naval-demo: $(STAMP)
	$(BIN)/python -m referee.demos.naval_module

demo-solitaire: $(STAMP)
	$(BIN)/python -m referee.demos.carrier_battlegroup

# the Sixth Fleet (2019) variant: a signed game of two turns, then verify (referee/demos/sixth_fleet_2019.py)
demo-2019: $(STAMP)
	$(BIN)/python -m referee.demos.sixth_fleet_2019

# the DTP revised rules in the North: a signed Iceland (DTP 11.31) game through Game-Turn 1 and
# on until it has shown detection, a bounce, a Hit Table result and readiness, then verify
# (referee/demos/sixth_fleet_dtp.py)
demo-dtp: $(STAMP)
	$(BIN)/python -m referee.demos.sixth_fleet_dtp

# the DTP Westpac scenario (DTP 11.5): a signed game until it has shown PRC entry, a convoy
# docking, an amphibious landing and the turn-4 reinforcement phase, then verify
# (referee/demos/dtp_westpac.py; some 30 steps, each seconds of CPU on the 60 x 73 map)
demo-westpac: $(STAMP)
	$(BIN)/python -m referee.demos.dtp_westpac

# a declared game (no ruleset: module.toml declares it): Strait Patrol refereed for its record
# and dice, then verify (referee/demos/strait_patrol.py)
demo-declared: $(STAMP)
	$(BIN)/python -m referee.demos.strait_patrol

# the suite on TEST_WORKERS processes (pytest-xdist); each test file runs whole on one of them,
# so a file's module-scoped game is played once, and each demo is played once for all of
# them (tests/conftest.py). `make test TEST_WORKERS=0` runs it in one process. Four workers on
# two cores: the last one takes the real-VASSAL files and the one before it the headless
# Chromium files (`--lane`, tests/lanes.py), which mostly wait (VASSAL's checker sleeps between
# its steps), so their waits overlap the other two workers' CPU-bound files instead of leaving
# a core idle. The files go out costliest first by each file's recorded CPU
# (tests/file_costs.txt; `pytest --record-costs` writes it), in the suite's own order
# (`--no-loadscope-reorder`), and the demos are played beside the tests from the start
# (`--demos-ahead`), so no worker waits idle.
# Bytecode is written even where the shell sets PYTHONDONTWRITEBYTECODE (these machines do):
# the CLI subprocesses the tests start read the package's compiled code instead of compiling
# it each time, and pytest keeps its rewritten test modules (docs/performance.md, the suite).
TEST_WORKERS ?= 4
test: $(STAMP)
	$(BIN)/ruff check referee tests bench
	$(BIN)/ruff format --check referee tests bench
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --demos-ahead \
	  --lane vassal --lane browser

format: $(STAMP)
	$(BIN)/ruff check --fix referee tests bench
	$(BIN)/ruff format referee tests bench

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf build .pytest_cache .ruff_cache
