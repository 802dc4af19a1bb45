"""The picture cache of ``referee build`` (referee/render/artcache.py).

The module must come out byte-identical with the cache cold, warm and off; a rebuild after
editing one unit's value draws that unit's faces and nothing else; a picture whose renderer
reads a field its key leaves out is drawn from the whole module and never stored; a spoilt
entry is drawn again.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import referee.render.artcache as artcache
from referee.cache import Cache, activated
from referee.cli import app
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.module.module_writer import module_entries, plan_build
from referee.vassal.module.palette import face_image
from tests.clirun import Runner

REPO = Path(__file__).resolve().parents[2]
MINI = REPO / "tests" / "fixtures" / "modules" / "mini"
DPI = 60


@pytest.fixture(scope="module")
def mini() -> Module:
    module, diags = load_module(MINI)
    assert module is not None, [str(d) for d in diags.items]
    return module


def _entries(module: Module, cache: Cache, workers: int = 1) -> dict[str, bytes]:
    with activated(cache):
        return module_entries(plan_build(module, dpi=DPI), workers=workers)


def _pictures(cache: Cache) -> set[Path]:
    assert cache.root is not None
    return {p for p in (cache.root / "v1" / "png").rglob("*") if p.is_file()}


def test_cold_warm_and_off_give_the_same_bytes(mini: Module, tmp_path: Path) -> None:
    off = _entries(mini, Cache(None))
    cold_cache = Cache(tmp_path / "c")
    cold = _entries(mini, cold_cache)
    assert cold_cache.stats.hits == 0
    assert cold_cache.stats.stored > 0
    warm_cache = Cache(tmp_path / "c")
    warm = _entries(mini, warm_cache, workers=2)
    assert warm_cache.stats.misses == 0
    assert warm_cache.stats.stored == 0
    assert cold == off
    assert warm == off


def test_editing_one_value_redraws_only_that_counter(mini: Module, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    before = _entries(mini, cache)
    i = next(i for i, u in enumerate(mini.units) if u.id == "US-DD-1")
    unit = mini.units[i]
    edited_unit = replace(unit, values={**unit.values, "DEF": unit.values["DEF"] + 1})
    edited = replace(mini, units=(*mini.units[:i], edited_unit, *mini.units[i + 1 :]))
    # the edit leaves every box's type size as it was (else every face is redrawn, rightly)
    same_sizes = artcache.face_context(edited, DPI) == artcache.face_context(mini, DPI)
    assert same_sizes
    stored = _pictures(cache)
    again = Cache(tmp_path / "c")
    after = _entries(edited, again)
    assert again.stats.misses_of("png") == 1  # US-DD-1 has one face
    assert len(_pictures(again) - stored) == 1
    changed = {n for n in after if n.startswith("images/") and after[n] != before.get(n)}
    assert changed == {f"images/{face_image(edited_unit, False)}"}
    assert after == _entries(edited, Cache(None))


def test_the_board_key_leaves_out_the_roster_and_follows_the_map(mini: Module) -> None:
    no_units = replace(mini, units=mini.units[:1])
    assert artcache.board_key(no_units, DPI) == artcache.board_key(mini, DPI)
    renamed = replace(mini, map=replace(mini.map, title=mini.map.title + " (2nd ed.)"))
    assert artcache.board_key(renamed, DPI) != artcache.board_key(mini, DPI)
    assert artcache.board_key(mini, DPI + 1) != artcache.board_key(mini, DPI)


def test_an_undeclared_read_is_drawn_whole_and_not_stored(
    mini: Module, tmp_path: Path, monkeypatch
) -> None:
    # pretend the key forgot the map: the board renderer then touches a guarded field
    monkeypatch.setattr(artcache, "BOARD_READS", ("id", "name", "version", "nationalities"))
    plan = plan_build(mini, dpi=DPI)
    cache = Cache(tmp_path / "c")
    got = _entries(mini, cache)
    assert got == _entries(mini, Cache(None))
    key = artcache.board_key(mini, DPI)
    assert cache.get("png", key) is None  # never stored under a key that does not cover it
    assert f"images/{plan.board_image}" in got


def test_the_guard_refuses_every_use() -> None:
    guard = artcache._Unread("map")
    for use in (
        lambda: guard.hexes,
        lambda: iter(guard),
        lambda: len(guard),
        lambda: guard["x"],
        lambda: "x" in guard,
        lambda: bool(guard),
    ):
        with pytest.raises(artcache.NotDeclared):
            use()


def test_a_spoilt_picture_is_drawn_again(mini: Module, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    want = _entries(mini, cache)
    for path in _pictures(cache):
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])  # every entry truncated
    again = Cache(tmp_path / "c")
    assert _entries(mini, again) == want
    assert again.stats.hits == 0
    assert again.stats.refused > 0


def test_type_size_measurements_are_remembered(mini: Module, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    with activated(cache):
        first = artcache.face_context(replace(mini), DPI)  # a fresh object: sizes worked out
    again = Cache(tmp_path / "c")
    with activated(again):
        second = artcache.face_context(replace(mini), DPI)
    assert first == second == artcache.face_context(replace(mini), DPI)
    assert again.stats.hits == 1


def test_spoilt_measurements_are_ignored() -> None:
    assert artcache._read_measures(b"not json") == {}
    assert artcache._read_measures(json.dumps([["t", "bold", 1.0, 2.0]]).encode()) == {}
    assert artcache._read_measures(json.dumps({"a": 1}).encode()) == {}
    good = json.dumps([["4-4", "bold", 10.0, 5.0, 6.5]]).encode()
    assert artcache._read_measures(good) == {("4-4", "bold", 10.0, 5.0): 6.5}


def test_cli_build_cold_warm_and_no_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "cache"))
    runner = Runner()
    outs = {}
    for name, extra in (("cold", []), ("warm", []), ("none", ["--no-cache"])):
        result = runner.invoke(
            app, ["build", str(MINI), "--dpi", str(DPI), "-o", str(tmp_path / name), "-q", *extra]
        )
        assert result.exit_code == 0, result.output
        outs[name] = Path(result.stdout.strip()).read_bytes()
    assert outs["cold"] == outs["warm"] == outs["none"]
    assert any((tmp_path / "cache" / "v1" / "png").rglob("*"))


@pytest.mark.parametrize(
    "src",
    [REPO / "module_src" / "sixth_fleet"]
    + [REPO / "tests" / "fixtures" / "modules" / n for n in ("area_med", "point_north", "sf75ex")],
    ids=lambda p: p.name,
)
def test_every_picture_of_every_kind_of_map_is_cached(src: Path, tmp_path: Path) -> None:
    """No renderer reads more than its key covers (else its picture would be drawn every
    time: correct, but the cache would not help); a second build draws nothing."""
    module, _ = load_module(src)
    assert module is not None
    plan = plan_build(module, dpi=100)
    with activated(Cache(tmp_path / "c")) as cold:
        first = module_entries(plan, workers=1)
    assert cold.stats.misses_of("png") == cold.stats.stored - cold.stats.misses_of("measure")
    with activated(Cache(tmp_path / "c")) as warm:
        again = module_entries(plan_build(module, dpi=100), workers=1)
    assert warm.stats.misses == 0
    assert again == first
