"""Shared test set-up: commands run by the tests use a cache folder of their own.

Commands turn the picture and module-source cache on (:mod:`referee.cache`); the tests must
never read or fill the user's ``~/.cache/referee``, so the whole session shares one
temporary cache folder. Sharing it also means every command test after the first runs with
a warm cache, which the byte-identical outputs the tests expect must survive.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    previous = os.environ.get("REFEREE_CACHE")
    os.environ["REFEREE_CACHE"] = str(tmp_path_factory.mktemp("referee-cache"))
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("REFEREE_CACHE", None)
        else:
            os.environ["REFEREE_CACHE"] = previous


@dataclass(frozen=True, slots=True)
class DemoRun:
    """One bundled game's demo as ``make demo`` runs it (``python -m referee.demos --only
    NAME``): its output folder (``game/``, ``keys/``, ``orders/``, ``referee/``, ``viewer/``)
    and everything it printed, the runner's table of results included."""

    out: Path
    printed: str

    @property
    def game(self) -> Path:
        return self.out / "game"


# The Sixth Fleet (1975) demo runs with its play aids (``tests/test_demo.py`` reads them; its
# game archive is byte-identical without them, which that file checks); the others without.
WITH_PLAY_AIDS = frozenset({"sixth_fleet"})


@pytest.fixture(scope="session")
def finished_demo(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], DemoRun]:
    """The finished demo of a bundled module (``referee.demos``: ``sixth_fleet``,
    ``dtp_denmark_strait``, ``sixth_fleet_2019``, ``carrier_battlegroup``, ``naval_module``,
    ``strait_patrol``), played once per test session on first use, through the demo runner,
    and shared by every test that reads it. Read it; copy it before changing anything."""
    import contextlib
    import io

    from referee.demos import DEMOS, main

    made: dict[str, DemoRun] = {}

    def get(name: str) -> DemoRun:
        if name not in made:
            demo = next(d for d in DEMOS if d.name == name)
            out = tmp_path_factory.mktemp(f"demo-{name}") / "out"
            env = importlib.import_module(demo.module).OUT_ENV
            flags = [] if name in WITH_PLAY_AIDS else ["--no-play-aids"]
            buf = io.StringIO()
            previous = os.environ.get(env)
            os.environ[env] = str(out)
            try:
                with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
                    code = main(["--only", name, *flags])
            finally:
                if previous is None:
                    os.environ.pop(env, None)
                else:
                    os.environ[env] = previous
            assert code == 0, buf.getvalue()[-3000:]
            made[name] = DemoRun(out, buf.getvalue())
        return made[name]

    return get


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark what is slow by what it needs, so ``-m "not slow"`` is the quick subset:
    a test that reads a shared demo game (``finished_demo``, also through ``demo_game`` or a
    file's ``demo_run``) or runs real VASSAL (``vassal``) is ``slow``; one that drives the
    headless browser (``browser``) is ``chromium`` and ``slow``. ``make test`` and CI run all."""
    for item in items:
        needs = set(getattr(item, "fixturenames", ()))
        if "browser" in needs:
            item.add_marker(pytest.mark.chromium)
        if needs & {"finished_demo", "browser"} or item.get_closest_marker("vassal"):
            item.add_marker(pytest.mark.slow)
