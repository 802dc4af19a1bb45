"""Lanes for pytest-xdist: workers of their own for the test files that mostly wait.

A real-VASSAL test spends about three quarters of its wall time asleep in the shared checker
(``VCheck.onEdt`` drains VASSAL's event queue with 100 ms sleeps after each step, ``finish``
sleeps 500 ms; ``../shared/tools/vassal-check``), and a browser test waits on Chromium's round
trips. On two workers a core sat idle through each of those waits: 67 % of the two cores were
busy over a whole run (docs/performance.md, "The test suite"). ``make test`` therefore runs
more workers than cores, and gives the waiting files workers of their own (``--lane vassal
--lane browser``): the last worker takes the real-VASSAL files, the one before it the browser
files, the others everything else, so the waits of the lanes overlap the CPU-bound files of
the others instead of leaving a core idle, and only the lane workers start a batch JVM or a
Chromium. A worker whose own kind of file is all handed out helps with the others (costliest
first, as :func:`tests.conftest._costly_files_first` orders them), so no lane becomes the tail.

Each file's kind is read from its tests' marks (a ``vassal`` test makes a ``vassal`` file, one
that asks for the ``browser`` fixture a ``browser`` file) by every worker as it collects, and
written to :data:`KINDS_FILE` in the session's folder, where the controller's scheduler reads it
once all workers have collected (pytest-xdist's controller collects nothing itself).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

# the kinds of test file; a file of no lane's kind is a ``cpu`` file
CPU, VASSAL, BROWSER = "cpu", "vassal", "browser"
KINDS = (VASSAL, BROWSER)
KINDS_FILE = "file-kinds.json"


def kind_of(markers: Iterable[str], fixtures: Iterable[str]) -> str:
    """The kind of one test: ``vassal`` (marked so: it runs real VASSAL), ``browser`` (it asks
    for the headless Chromium), else ``cpu``."""
    if VASSAL in set(markers):
        return VASSAL
    return BROWSER if BROWSER in set(fixtures) else CPU


def file_kinds(tests: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each file's kind from its tests' (file, kind) pairs: ``vassal`` if any of its tests is,
    else ``browser`` if any is, else ``cpu``."""
    rank = {CPU: 0, BROWSER: 1, VASSAL: 2}
    kinds: dict[str, str] = {}
    for path, kind in tests:
        kinds[path] = max(kind, kinds.get(path, CPU), key=rank.__getitem__)
    return kinds


def write_kinds(folder: Path, kinds: dict[str, str]) -> None:
    """Record the files' kinds for the controller (every worker writes the same text; the
    write is atomic, so the controller never reads half a file)."""
    tmp = folder / f"{KINDS_FILE}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(kinds, sort_keys=True), encoding="utf-8")
    tmp.replace(folder / KINDS_FILE)


def read_kinds(folder: Path) -> dict[str, str]:
    """The files' kinds recorded by the workers; ``{}`` when none is (every file is then a
    ``cpu`` file and the scheduler hands out files as pytest-xdist's ``loadfile`` does)."""
    path = folder / KINDS_FILE
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items()}


def worker_lanes(workers: int, lanes: Sequence[str]) -> list[tuple[str, ...]]:
    """Each worker's order of preference over the kinds, by its number (``gwN``): the last
    ``len(lanes)`` workers are the lanes, the last one the first lane named (``--lane vassal
    --lane browser``: gw3 vassal, gw2 browser on four workers); a lane may name several kinds
    (``vassal+browser``). A lane takes its own kinds first, then the ``cpu`` files, then the
    other lanes' files; the other workers take ``cpu`` files first, then the lanes' files,
    the last lane's kind first. With no worker left for ``cpu`` files the lanes are ignored."""
    own = [tuple(lane.split("+")) for lane in lanes]
    if not own or workers <= len(own):
        return [(CPU, *KINDS)] * workers
    named = [k for lane in reversed(own) for k in lane]
    everyone = (CPU, *named, *(k for k in KINDS if k not in named))
    prefs: list[tuple[str, ...]] = [everyone] * (workers - len(own))
    for lane in reversed(own):
        prefs.append((*lane, CPU, *(k for k in everyone if k not in lane and k != CPU)))
    return prefs


def make_scheduler(config: Any, log: Any, folder: Path, lanes: Sequence[str]) -> Any:
    """pytest-xdist's ``loadfile`` scheduler, each file handed to a worker of its lane first
    (:func:`worker_lanes`), the costliest first within a kind (the collection's order)."""
    from xdist.scheduler import LoadFileScheduling

    class LaneScheduling(LoadFileScheduling):  # type: ignore[misc]
        """``loadfile`` with lanes; see :mod:`tests.lanes`."""

        def __init__(self, config: Any, log: Any = None) -> None:
            super().__init__(config, log)
            self.kinds: dict[str, str] = {}

        def schedule(self) -> None:
            if self.collection is None:
                self.kinds = read_kinds(folder)
            super().schedule()

        def _assign_work_unit(self, node: Any) -> None:
            prefs = worker_lanes(len(self.nodes), lanes)
            mine = prefs[_number(node) % len(prefs)] if prefs else (CPU,)
            scopes = list(self.workqueue)
            rank = {kind: k for k, kind in enumerate(mine)}
            best = min(
                range(len(scopes)),
                key=lambda i: (rank.get(self.kinds.get(scopes[i], CPU), len(rank)), i),
            )
            self.workqueue.move_to_end(scopes[best], last=False)
            super()._assign_work_unit(node)

    return LaneScheduling(config, log)


def _number(node: Any) -> int:
    """A worker's number: ``gw3`` -> 3."""
    gateway = str(getattr(getattr(node, "gateway", None), "id", "gw0"))
    digits = "".join(ch for ch in gateway if ch.isdigit())
    return int(digits or 0)
