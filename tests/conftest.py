"""Shared test set-up: commands run by the tests use a cache folder of their own.

Commands turn the picture and module-source cache on (:mod:`referee.cache`); the tests must
never read or fill the user's ``~/.cache/referee``, so the whole session shares one
temporary cache folder. Sharing it also means every command test after the first runs with
a warm cache, which the byte-identical outputs the tests expect must survive.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
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


@pytest.fixture(scope="session")
def finished_demo(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The finished demo game of a bundled module (``referee.demos``: ``sixth_fleet``,
    ``dtp_denmark_strait``, ``sixth_fleet_2019``, ``carrier_battlegroup``, ``naval_module``),
    played once per test session on first use (no play aids): the folder holding ``game/``,
    ``keys/``, ``orders/`` and ``referee/``. Read it; copy it before changing anything."""
    import contextlib
    import importlib
    import io

    from referee.demos import DEMOS

    made: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in made:
            demo = next(d for d in DEMOS if d.name == name)
            out = tmp_path_factory.mktemp(f"demo-{name}") / "out"
            with contextlib.redirect_stdout(io.StringIO()):
                importlib.import_module(demo.module).demo(out, play_aids_too=False)
            made[name] = out
        return made[name]

    return get
