"""Hex geometry: property tests for the invariants every rule relies on."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.hexgrid import HexGrid, cube_distance, cube_line, hexside_id, hexside_key

GRIDS = [
    HexGrid(columns=36, rows=25, orientation="pointy", shifted="even", rows_grow="north"),
    HexGrid(columns=12, rows=9, orientation="pointy", shifted="odd", rows_grow="south"),
    HexGrid(
        columns=10, rows=14, orientation="flat", shifted="odd", rows_grow="south", id_format="CCRR"
    ),
    HexGrid(
        columns=7,
        rows=8,
        orientation="flat",
        shifted="even",
        rows_grow="north",
        first_column=0,
        first_row=0,
    ),
]


@st.composite
def grid_and_hexes(draw: st.DrawFn, n: int = 2) -> tuple[HexGrid, list[str]]:
    g = draw(st.sampled_from(GRIDS))
    ids = [
        g.hex_id(
            draw(st.integers(g.first_column, g.last_column)),
            draw(st.integers(g.first_row, g.last_row)),
        )
        for _ in range(n)
    ]
    return g, ids


@given(grid_and_hexes(2))
def test_distance_is_symmetric(gh: tuple[HexGrid, list[str]]) -> None:
    g, (a, b) = gh
    assert g.distance(a, b) == g.distance(b, a)
    assert (g.distance(a, b) == 0) == (a == b)


@given(grid_and_hexes(3))
def test_distance_obeys_triangle_inequality(gh: tuple[HexGrid, list[str]]) -> None:
    g, (a, b, c) = gh
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)


@given(grid_and_hexes(1))
def test_neighbours_round_trip(gh: tuple[HexGrid, list[str]]) -> None:
    g, (a,) = gh
    ns = g.neighbours(a)
    assert 2 <= len(ns) <= 6
    assert len(set(ns)) == len(ns)
    for n in ns:
        assert a in g.neighbours(n)
        assert g.distance(a, n) == 1


@given(grid_and_hexes(1))
def test_id_parsing_round_trips(gh: tuple[HexGrid, list[str]]) -> None:
    g, (a,) = gh
    col, row = g.parse_id(a)
    assert g.hex_id(col, row) == a
    assert g.from_cube(g.to_cube(a)) == a


@given(grid_and_hexes(2))
def test_line_is_connected_and_as_long_as_the_distance(gh: tuple[HexGrid, list[str]]) -> None:
    g, (a, b) = gh
    cubes = cube_line(g.to_cube(a), g.to_cube(b))
    assert len(cubes) == g.distance(a, b) + 1
    for x, y in itertools.pairwise(cubes):
        assert cube_distance(x, y) == 1
    # on the map, the line is the cube line less any hexes that fall off the edge
    line = g.line(a, b)
    assert line[0] == a and line[-1] == b
    assert line == [h for h in (g.from_cube(c) for c in cubes) if h is not None]


@given(grid_and_hexes(1))
def test_pixel_centre_maps_back_to_the_hex(gh: tuple[HexGrid, list[str]]) -> None:
    g, (a,) = gh
    g = g.scaled(hex_width=40.0, margin=5.0)
    x, y = g.centre(a)
    assert g.hex_at(x, y) == a
    w, h = g.pixel_size()
    assert 0 < x < w and 0 < y < h


@given(grid_and_hexes(1))
def test_corners_are_one_radius_from_the_centre(gh: tuple[HexGrid, list[str]]) -> None:
    g, (a,) = gh
    cx, cy = g.centre(a)
    for x, y in g.corners(a):
        assert abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - g.size) < 1e-9


def test_neighbour_centres_are_one_hex_width_apart() -> None:
    for g in GRIDS:
        g = g.scaled(hex_width=50.0)
        for a in list(g.all_ids())[::7]:
            ax, ay = g.centre(a)
            for n in g.neighbours(a):
                nx, ny = g.centre(n)
                assert abs(((ax - nx) ** 2 + (ay - ny) ** 2) ** 0.5 - 50.0) < 1e-9


def test_sixth_fleet_ids_read_as_the_rulebook_prints_them() -> None:
    """RRCC with rows growing northward: 1423 is row 14, column 23 [8.0 example]."""
    g = GRIDS[0]
    assert g.parse_id("1423") == (23, 14)
    assert g.hex_id(23, 14) == "1423"
    # a higher row number is drawn further north (higher on the page)
    assert g.centre("2025")[1] < g.centre("1423")[1]
    assert g.adjacent("1422", "1423")


def test_bad_ids_are_refused_with_a_reason() -> None:
    g = GRIDS[0]
    with pytest.raises(ValueError, match="four digits"):
        g.parse_id("142")
    with pytest.raises(ValueError, match="off the map"):
        g.parse_id("2637")
    assert not g.is_valid_id("１４２３")  # full-width digits are not hex ids


def test_within_counts_a_full_ring() -> None:
    g = GRIDS[0]
    assert len(g.within("1318", 1)) == 7
    assert len(g.within("1318", 2)) == 19


def test_hexside_names_are_order_independent() -> None:
    assert hexside_key("1312", "1311") == ("1311", "1312")
    assert hexside_id("1312", "1311") == "1311/1312"


def test_cube_distance_zero_only_for_the_same_hex() -> None:
    g = GRIDS[1]
    a = g.to_cube("0303")
    assert cube_distance(a, a) == 0


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
@pytest.mark.parametrize("shifted", ["odd", "even"])
@pytest.mark.parametrize("id_format", ["RRCC", "CCRR"])
def test_neighbours_is_the_cube_walk_written_out(
    orientation: str, shifted: str, id_format: str
) -> None:
    """The fast ``neighbours`` gives exactly the hexes, in the order, of stepping in each
    axial direction and converting back through cube coordinates."""
    from referee.hexgrid import AXIAL_DIRECTIONS, axial_to_cube

    g = HexGrid(7, 6, orientation, shifted, "north", id_format, first_column=2, first_row=3)  # type: ignore[arg-type]
    for h in g.all_ids():
        q, r = g.offset_to_axial(*g.parse_id(h))
        walk = [g.from_cube(axial_to_cube(q + dq, r + dr)) for dq, dr in AXIAL_DIRECTIONS]
        assert g.neighbours(h) == [n for n in walk if n is not None], h
