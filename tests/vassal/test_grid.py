"""VASSAL hex grid attributes: every drawn hex must be named by its own rulebook id.

The formulas in ``referee.vassal.module.grid`` are checked first against the test vectors of
vassal-format.md §4.7 (computed there from a transcription of the Java), then the chosen
attributes are checked against every hex of random grids and of the mini module's board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.hexgrid import HexGrid
from referee.vassal.module.grid import (
    HEXGRID,
    NUMBERING,
    label_centres,
    raw_centre,
    raw_index,
    vassal_centre,
    vassal_grid_for,
    vassal_label,
)

# ---- §4.7 test vectors ---------------------------------------------------------------------

VIVE = {
    HEXGRID: {
        "dx": "109.1999999999984",
        "dy": "125.29999999999856",
        "x0": "-2",
        "y0": "-14",
        "sideways": "false",
    },
    NUMBERING: {
        "stagger": "false",
        "hOff": "0",
        "vOff": "0",
        "hLeading": "1",
        "vLeading": "1",
        "first": "H",
        "sep": "",
    },
}
DEFAULTS: dict[str, dict[str, str]] = {HEXGRID: {}, NUMBERING: {}}
SIDEWAYS_ALPHA = {
    HEXGRID: {"sideways": "true", "dx": "60", "dy": "69.28", "x0": "30", "y0": "40"},
    NUMBERING: {"stagger": "true", "hType": "A", "hOff": "1", "vOff": "1"},
}


@pytest.mark.parametrize(
    ("attrs", "raw", "centre", "label"),
    [
        (VIVE, (1, 1), (107, 173), "0101"),
        (VIVE, (2, 1), (216, 111), "0201"),
        (VIVE, (5, 7), (543, 925), "0507"),
        (DEFAULTS, (0, 0), (0, 32), "0101"),
        (DEFAULTS, (1, 0), (55, 64), "0202"),
        (DEFAULTS, (1, 1), (55, 128), "0203"),
        (DEFAULTS, (2, 0), (110, 32), "0301"),
        (SIDEWAYS_ALPHA, (1, 0), (74, 90), "C02"),
        (SIDEWAYS_ALPHA, (3, 3), (281, 210), "E05"),
    ],
)
def test_doc_vectors(attrs, raw, centre, label) -> None:
    assert raw_centre(attrs, *raw) == centre
    assert raw_index(attrs, *centre) == raw
    # No descending numbering in these vectors, so the board size does not matter.
    assert vassal_label(attrs, 5000, 5000, *centre) == label


def test_alphabetic_and_padding_names() -> None:
    attrs = {
        HEXGRID: {"dx": "10", "dy": "10", "x0": "0", "y0": "0"},
        NUMBERING: {"stagger": "false", "hType": "A", "hOff": "0", "vOff": "0", "vLeading": "2"},
    }
    # column 26 -> "AA" (doubled letters, not base 26); row 5 with leading 2 -> "005"
    assert vassal_label(attrs, 1000, 1000, 260, 50) == "AA005"
    assert vassal_label(attrs, 1000, 1000, 520, 120) == "AAA012"


def test_descending_uses_board_size() -> None:
    attrs = {
        HEXGRID: {"dx": "30", "dy": "40", "x0": "0", "y0": "0"},
        NUMBERING: {"stagger": "false", "vDescend": "true", "hOff": "0", "vOff": "0"},
    }
    # maxRows = floor(H/dx + 0.5): 300/30 -> 10; 320/30 = 10.67 -> 11
    assert vassal_label(attrs, 400, 300, 0, 0) == "0010"
    assert vassal_label(attrs, 400, 320, 0, 0) == "0011"


# ---- our choice of attributes --------------------------------------------------------------


@dataclass(frozen=True)
class FakeBoard:
    """A rendered board: the scaled grid drawn at an offset on a larger image."""

    grid: HexGrid
    width: int
    height: int
    ox: float
    oy: float

    def pixel_centre(self, hex_id: str) -> tuple[float, float]:
        x, y = self.grid.centre(hex_id)
        return x + self.ox, y + self.oy


def _board(grid: HexGrid, ox: float, oy: float, extra_w: int, extra_h: int) -> FakeBoard:
    w, h = grid.pixel_size()
    return FakeBoard(grid, math.ceil(w + ox) + extra_w, math.ceil(h + oy) + extra_h, ox, oy)


def _check_every_hex(board: FakeBoard) -> None:
    attrs = vassal_grid_for(board)
    g = board.grid
    W, H = board.width, board.height
    inner = g.hex_width / 2  # apothem
    for hid in g.all_ids():
        cx, cy = board.pixel_centre(hid)
        assert vassal_label(attrs, W, H, cx, cy) == hid
        # Where VASSAL stores a piece dropped here: its own hex, within 1.5 px of the drawing.
        sx, sy = vassal_centre(attrs, cx, cy)
        assert abs(sx - cx) <= 1.5 and abs(sy - cy) <= 1.5, (hid, (sx, sy), (cx, cy))
        assert vassal_label(attrs, W, H, sx, sy) == hid
        # Points near each of the six hexsides, still inside the hex.
        start = 0.0 if g.orientation == "pointy" else 30.0
        for i in range(6):
            a = math.radians(start + 60.0 * i)
            px = cx + 0.85 * inner * math.cos(a)
            py = cy + 0.85 * inner * math.sin(a)
            assert vassal_label(attrs, W, H, px, py) == hid, (hid, i)


grids = st.builds(
    HexGrid,
    columns=st.integers(1, 14),
    rows=st.integers(1, 14),
    orientation=st.sampled_from(["pointy", "flat"]),
    shifted=st.sampled_from(["odd", "even"]),
    rows_grow=st.sampled_from(["north", "south"]),
    id_format=st.sampled_from(["RRCC", "CCRR"]),
    first_column=st.integers(1, 3),
    first_row=st.integers(1, 3),
    hex_width=st.floats(24.0, 130.0),
    margin=st.floats(0.0, 40.0),
)


@settings(max_examples=150, deadline=None)
@given(
    grid=grids,
    ox=st.floats(0.0, 300.0),
    oy=st.floats(0.0, 300.0),
    extra_w=st.integers(0, 200),
    extra_h=st.integers(0, 200),
)
def test_every_hex_is_named_by_its_id(grid, ox, oy, extra_w, extra_h) -> None:
    _check_every_hex(_board(grid, ox, oy, extra_w, extra_h))


def test_sixth_fleet_shape() -> None:
    """A Sixth Fleet-like map: RRCC, rows grow north, pointy hexes, 1423 is named 1423."""
    grid = HexGrid(columns=34, rows=22, shifted="even", hex_width=0.85).scaled(85.0, 10.0)
    board = _board(grid, 37.5, 120.25, 13, 57)
    attrs = vassal_grid_for(board)
    assert attrs[HEXGRID]["sideways"] == "true"
    assert attrs[NUMBERING]["first"] == "H"
    assert attrs[NUMBERING]["vDescend"] == "true"
    assert attrs[NUMBERING]["stagger"] == "false"
    cx, cy = board.pixel_centre("1423")
    assert vassal_label(attrs, board.width, board.height, *vassal_centre(attrs, cx, cy)) == "1423"
    _check_every_hex(board)


def test_label_centres_cover_every_hex() -> None:
    grid = HexGrid(columns=8, rows=6, shifted="even").scaled(85.0)
    board = _board(grid, 0.0, 30.0, 0, 0)
    attrs = vassal_grid_for(board)
    centres = label_centres(attrs, board.width, board.height, grid.all_ids())
    assert sorted(centres) == sorted(grid.all_ids())
    for hid, (x, y) in centres.items():
        cx, cy = board.pixel_centre(hid)
        assert abs(x - cx) <= 1.5 and abs(y - cy) <= 1.5
