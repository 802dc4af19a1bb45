"""The viewer's board and play aids are kept in the picture cache between processes: a hit
gives exactly what a miss computed, and with the cache off nothing is stored.

``referee viewer`` turns the cache on as the other commands that draw pictures do
(``--no-cache`` turns it off): its file is byte-identical without the cache, with a cold one
and with a warm one, and a warm run draws nothing. What the cache keeps for a side's viewer
depends on the module alone, never on the side: in a game that hides information, the
entries the referee's full record (or the other side's viewer) stores are the very entries
(names and bytes) a side's viewer stores on its own, and a side's viewer made after them
holds nothing its views hide from it (docs/performance.md, "The cache")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.cache import Cache, activated
from referee.engine.core import GameState
from referee.source.loader import load_module
from referee.viewer import page as viewer
from tests.pbem.cliflow import cli
from tests.viewer.drafting import side_key

if TYPE_CHECKING:
    from tests.conftest import DemoRun

ROOT = Path(__file__).resolve().parents[2] / "module_src"
SRC = ROOT / "sixth_fleet_dtp"


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


# ---- the command ------------------------------------------------------------------------------


def _viewer(game: Path, side: str, out: Path, *extra: object) -> bytes:
    """``referee viewer`` in this process as a new process would run it: the board and play
    aids this process drew for an earlier call are forgotten first, so only the disk cache
    (``$REFEREE_CACHE``) can answer them."""
    viewer._CACHE.clear()
    code, printed = cli("viewer", game, "--side", side, "-o", out, *extra)
    assert code == 0, printed
    return out.read_bytes()


def _entries(folder: Path) -> dict[str, bytes]:
    """Every cache entry under ``folder`` (``kind/xx/key``), with its bytes; the ledger
    beside the entries (how much they hold) aside."""
    root = folder / "v1"
    if not root.is_dir():
        return {}
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing the board or a chart fails from here on: a run that still succeeds took them
    from the cache."""
    import referee.render.board
    import referee.render.charts

    def drawn(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("drawn although the cache holds it")

    monkeypatch.setattr(referee.render.board, "render_board", drawn)
    monkeypatch.setattr(referee.render.charts, "to_image", drawn)


def _hidden_from(demo: Path, side: str) -> set[str]:
    """The units of the referee's full position at some step of the demo whose ids none of
    the side's views names (its ``view-SIDE.json`` of every step, opened from its part with
    the side's demo key; a chit the side saw drawn is named in that step's events): what the
    side's file must never name."""
    from referee.pbem.archive import Archive, slug
    from referee.pbem.keys import load_private, passphrase_source
    from referee.pbem.parts import identity_of, open_part

    archive = Archive(demo / "game")
    key = identity_of(load_private(side_key(demo, side), passphrase_source(None)))
    name = f"view-{slug(side)}.json"
    shown = ""
    for t in archive.turn_dirs():
        plain = t.path / name
        view = plain.read_bytes() if plain.is_file() else open_part(archive, t, side, [key])[name]
        shown += view.decode("utf-8") if isinstance(view, bytes) else view
    everywhere: set[str] = set()
    for t in sorted((demo / "game" / "secret" / "turns").iterdir()):
        everywhere |= set(GameState.from_json(json.loads((t / "state.json").read_bytes())).units)
    return {u for u in everywhere if u not in shown}


SIDE_CASES = [
    # the referee's full record first (every Soviet chit face up [17.0]), then the USN
    ("carrier_battlegroup", "referee", "USN"),
    # Sixth Fleet (2019): the Soviet viewer (its strike markers [2.0]) first, then NATO's
    ("sixth_fleet_2019", "Soviet", "NATO"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("demo_name", "first", "then"), SIDE_CASES)
def test_a_sides_viewer_is_the_same_bytes_and_takes_nothing_of_another_side_from_the_cache(
    finished_demo: Callable[[str], DemoRun],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    demo_name: str,
    first: str,
    then: str,
) -> None:
    """Two viewers on one machine, ``first`` then ``then`` (with its key: its views from its
    sealed parts), in a game that hides information. ``then``'s file is byte-identical
    made with ``--no-cache`` (which stores nothing), with an empty cache, and with the cache
    ``first`` filled, where it draws nothing. What ``first`` stored (the loaded module, the
    board and play aids) is exactly what ``then`` stores alone in an empty cache, the same
    entry names and bytes: no key or value depends on the side. In Carrier Battlegroup
    ``then``'s file names none of the units its views never name (the Soviet ships,
    aircraft and chits it never detected [17.0]), which the referee's file does name."""
    demo = finished_demo(demo_name).out
    game = demo / "game"

    def keyed(side: str) -> list[object]:
        return [] if side == "referee" else ["--key", side_key(demo, side)]

    shared, alone = tmp_path / "shared", tmp_path / "alone"
    monkeypatch.setenv("REFEREE_CACHE", str(shared))
    plain = _viewer(game, then, tmp_path / "plain.html", *keyed(then), "--no-cache")
    assert _entries(shared) == {}
    before = _viewer(game, first, tmp_path / "first.html", *keyed(first))
    from_first = _entries(shared)
    assert {name.split("/")[0] for name in from_first} >= {"module", "viewer"}
    monkeypatch.setenv("REFEREE_CACHE", str(alone))
    cold = _viewer(game, then, tmp_path / "alone.html", *keyed(then))
    assert _entries(alone) == from_first
    monkeypatch.setenv("REFEREE_CACHE", str(shared))
    _no_drawing(monkeypatch)
    after = _viewer(game, then, tmp_path / "after.html", *keyed(then))
    assert _entries(shared) == from_first  # it found everything it needed stored
    assert plain == cold == after
    assert f"viewer for {then}".encode() in after
    assert before != after
    if first == "referee":
        hidden = _hidden_from(demo, then)
        assert hidden, "the demo hid no unit from the side: the test proves nothing"
        for uid in sorted(hidden):
            assert f'"{uid}"'.encode() in before, uid  # the referee's record names it
            assert f'"{uid}"'.encode() not in after, uid
