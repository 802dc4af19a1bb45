"""The 2019 position picture reads its static board layer from the cache as raw pixels (the
whole board is drawn for an area map, so the layer is most of the picture's work): the bytes
are the same without a cache, with a cold one, a warm one, and a damaged raw entry, since
``verify`` compares the picture byte for byte."""

from __future__ import annotations

from pathlib import Path

from referee.cache import Cache, activated, digest
from referee.picture.png import _from_raw, position_png
from referee.render.artcache import board_key
from tests.conformance.rulesets.sixth_fleet_2019 import build_state, module_2019

DPI = 40  # small: the test draws the whole board several times


def test_board_layer_from_raw_pixels_gives_the_same_picture(tmp_path: Path) -> None:
    module = module_2019()
    units = [["US-FF-1", "Tyrrhenian Sea"], ["SO-EM-1.1", "Western Black Sea"]]
    state = build_state(module, {"turn": 2, "phase": "nato_actions", "units": units})
    plain = position_png(module, None, state, (), DPI)
    cache = Cache(tmp_path / "cache")
    with activated(cache):
        cold = position_png(module, None, state, (), DPI)
        raw_key = digest("board-rgb", board_key(module, DPI))
        entry = cache.get("raw", raw_key)
        assert entry is not None and entry.startswith(b"%d " % _from_raw(entry).width)
        warm = position_png(module, None, state, (), DPI)
        cache.put("raw", raw_key, entry[:-3])  # a damaged entry: one pixel short
        damaged = position_png(module, None, state, (), DPI)
    assert plain == cold == warm == damaged


def test_a_raw_entry_must_hold_exactly_its_pixels() -> None:
    assert _from_raw(b"2 1\n" + bytes(6)) is not None
    assert _from_raw(b"2 1\n" + bytes(5)) is None
    assert _from_raw(b"2 x\n" + bytes(6)) is None
    assert _from_raw(b"0 0\n") is None
    assert _from_raw(bytes(6)) is None


def test_stack_discs_never_cover_a_zone_name() -> None:
    """The walk-through saw "Fr●nce", "Sp●in": a disc drawn at the zone's anchor, where the
    board writes the zone's name. Every zone's disc now keeps off every name the board writes."""
    from referee.picture.png import DEFAULT_DPI, disc_radius
    from referee.render.board import board_layout
    from referee.render.board_layers import disc_point, name_boxes

    m = module_2019()
    lay = board_layout(m, DEFAULT_DPI)
    r = disc_radius(m, lay)
    names = name_boxes(m, lay)
    assert m.map.zones is not None and {"France", "Spain", "Romania", "Libya"} <= set(names)
    for zone in m.map.zones.zones:
        x, y = disc_point(m, lay, zone, r, names)
        nx0, ny0, nx1, ny1 = names[zone]
        assert not (x - r < nx1 and nx0 < x + r and y - r < ny1 and ny0 < y + r), zone


def test_the_picture_names_the_phase_not_its_id() -> None:
    """The walk-through saw "Game-Turn 3, soviet_events" over the key: the picture's heading
    takes the phase's name from the sequence of play [5.0]; the id stays in folder names."""
    from referee.engine.ruleset import get_ruleset, phase_title_of

    module = module_2019()
    units = [["US-FF-1", "Tyrrhenian Sea"]]
    state = build_state(module, {"turn": 2, "phase": "nato_actions", "units": units})
    title = phase_title_of(get_ruleset("sixth_fleet_2019"), module, state)
    assert title == "NATO Action Phase"
    named = position_png(module, None, state, (), DPI, title)
    assert named != position_png(module, None, state, (), DPI)  # the heading changed
