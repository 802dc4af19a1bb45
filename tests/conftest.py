"""Shared test set-up: commands run by the tests use a cache folder of their own.

Commands turn the picture and module-source cache on (:mod:`referee.cache`); the tests must
never read or fill the user's ``~/.cache/referee``, so the whole session shares one
temporary cache folder. Sharing it also means every command test after the first runs with
a warm cache, which the byte-identical outputs the tests expect must survive.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

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
