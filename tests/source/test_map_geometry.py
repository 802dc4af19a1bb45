"""Polygon geometry the map checks and the VASSAL zones rest on."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.source.hexzones import HexOutlineError, trace_hex_outline
from referee.source.loader import load_module
from referee.source.mapkinds import (
    interior_point,
    point_in_polygon,
    polygon_area,
    polygons_overlap,
    self_intersection,
)
from referee.vassal.module.layers import awt_contains

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "modules"
L_SHAPE = ((600, 0), (850, 0), (850, 100), (780, 100), (780, 200), (600, 200))


@settings(max_examples=300, deadline=None)
@given(st.integers(550, 900), st.integers(-50, 250))
def test_awt_contains_agrees_with_even_odd_off_the_edges(x: int, y: int) -> None:
    on_edge = x in (600, 850, 780) or y in (0, 100, 200)
    if not on_edge:
        assert awt_contains(L_SHAPE, x, y) == point_in_polygon((x, y), L_SHAPE)


def test_awt_contains_edge_rule() -> None:
    square = ((0, 0), (10, 0), (10, 10), (0, 10))
    assert awt_contains(square, 0, 0) and awt_contains(square, 0, 5)  # left and top edges
    assert not awt_contains(square, 10, 5) and not awt_contains(square, 5, 10)


def test_polygon_helpers() -> None:
    assert abs(polygon_area(L_SHAPE)) == 250 * 100 + 180 * 100
    assert abs(polygon_area(((0, 0), (4, 0), (4, 3), (0, 3)))) == 12
    assert self_intersection(((0, 0), (4, 0), (0, 3), (4, 3))) is not None
    assert self_intersection(L_SHAPE) is None
    p = interior_point(L_SHAPE)
    assert point_in_polygon(p, L_SHAPE)
    a = ((0, 0), (4, 0), (4, 4), (0, 4))
    assert not polygons_overlap(a, ((4, 0), (8, 0), (8, 4), (4, 4)))  # a shared border
    assert polygons_overlap(a, ((3, 1), (8, 1), (8, 3), (3, 3)))  # edges cross
    assert polygons_overlap(a, ((1, 1), (2, 1), (2, 2), (1, 2)))  # one inside the other
    assert polygons_overlap(a, ((0, 3), (4, 3.5), (4, 6), (0, 6)))  # along a shared edge


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(range(48)), min_size=1, max_size=48))
def test_hex_outline_holds_exactly_its_hexes(picked: set[int]) -> None:
    module, _ = load_module(FIXTURES / "mini")
    assert module is not None and module.map.grid is not None
    grid = module.map.grid
    ids = sorted(module.map.hexes)
    hexes = [ids[i] for i in sorted(picked)]
    try:
        outline = trace_hex_outline(grid, hexes)
    except HexOutlineError:
        return  # not one piece, or with a hole: the loader reports it
    for h in ids:
        assert point_in_polygon(grid.centre(h), outline) == (h in hexes), h
