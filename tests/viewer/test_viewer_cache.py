"""The viewer's board and play aids are kept in the picture cache between processes (a
whole-process ``adjudicate`` otherwise redraws them every time, docs/performance.md): a hit
gives exactly what a miss computed, and with the cache off nothing is stored."""

from __future__ import annotations

from pathlib import Path

from referee.cache import Cache, activated
from referee.source.loader import load_module
from referee.viewer import page as viewer

SRC = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_dtp"


def test_the_board_comes_back_from_the_disk_cache_unchanged(tmp_path: Path) -> None:
    m, _ = load_module(SRC)
    assert m is not None
    viewer._CACHE.clear()
    plain = viewer.board(m)  # cache off: computed, nothing stored
    viewer._CACHE.clear()
    cache = Cache(tmp_path / "cache")
    with activated(cache):
        first = viewer.board(m)
        assert cache.stats.stored == 1 and cache.stats.hits == 0
        viewer._CACHE.clear()  # as a new process would start
        second = viewer.board(m)
        assert cache.stats.hits == 1
    viewer._CACHE.clear()
    assert first == second == plain
    assert list(first) == list(plain)  # the keys' order is kept too
