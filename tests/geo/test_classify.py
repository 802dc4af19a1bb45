"""Sampling a hex and turning land fractions into terrain (a synthetic land mask)."""

from __future__ import annotations

import math

import pytest

from referee.geo.classify import classify, picture_text, sample_offsets, terrain_of, unmet
from referee.geo.fit import Anchor, fit_grid
from referee.geo.spec import Classify, Expectation
from referee.hexgrid import HexGrid
from referee.source.diagnostics import Diagnostics
from referee.source.mappicture import parse_map_picture


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
@pytest.mark.parametrize("rings", [0, 1, 3, 5])
def test_samples_fill_the_hex(orientation: str, rings: int) -> None:
    grid = HexGrid(columns=3, rows=3, orientation=orientation)  # type: ignore[arg-type]
    pts = sample_offsets(grid, rings)
    assert len(pts) == 1 + 3 * rings * (rings + 1)
    assert len(set(pts)) == len(pts)
    centre = grid.centre("0202")
    for dx, dy in pts:  # every point is inside the hex (the grid says which hex it is in)
        assert grid.hex_at(centre[0] + dx, centre[1] + dy) == "0202"
    if rings:
        # the outer ring sits at n / (n + 1/2) of the way to the corners, so that each point
        # stands for an equal share of the hex
        far = max(math.hypot(dx, dy) for dx, dy in pts)
        assert far == pytest.approx(rings / (rings + 0.5) * grid.size)


def test_thresholds() -> None:
    opts = Classify(coastal_from=0.1, land_from=0.9)
    assert [terrain_of(f, opts) for f in (0.0, 0.09, 0.1, 0.5, 0.89, 0.9, 1.0)] == [
        "sea", "sea", "coastal", "coastal", "coastal", "land", "land",
    ]  # fmt: skip
    # coastal_from = 0 still leaves a hex with no land at all as sea
    assert terrain_of(0.0, Classify(coastal_from=0.0)) == "sea"


class WestIsLand:
    """Everything west of a meridian is land."""

    def __init__(self, lon: float) -> None:
        self.lon = lon

    def is_land(self, lat: float, lon: float) -> bool:
        return lon < self.lon


def test_a_coast_down_the_middle() -> None:
    grid = HexGrid(columns=6, rows=4, orientation="pointy", rows_grow="north", id_format="RRCC")
    anchors = [Anchor("0101", 50.0, 0.0), Anchor("0106", 50.0, 0.5), Anchor("0401", 50.3, 0.0)]
    fit = fit_grid(grid, anchors, projection="mercator")
    coast = fit.centre_latlon("0103")[1] + 0.001  # a meridian through the middle of column 3
    result = classify(fit, WestIsLand(coast), Classify())
    assert result.terrain["0101"] == "land" and result.terrain["0106"] == "sea"
    assert 0.3 < result.fraction["0103"] < 0.7 and result.terrain["0103"] == "coastal"
    assert sum(result.counts().values()) == 24
    text = picture_text(fit, result, Classify(), ["made by a test"])
    assert text.startswith("# made by a test\n[terrain]\n04 |  ")
    assert "\n01 | # # c . . .\n" in text
    d = Diagnostics()
    layers = parse_map_picture(text, grid, "map.txt", d)
    assert not d.items
    assert {c.char for c in layers["terrain"].values()} == {"#", "c", "."}
    # an expectation of sea on the land side is reported, with what was found
    misses = unmet(fit, result, (Expectation("0101", ("sea",), None, None, "", 3),))
    assert len(misses) == 1 and misses[0][1].startswith("is land")
    lat_miss = unmet(fit, result, (Expectation("0106", (), 60.0, None, "", 4),))
    assert lat_miss and "latitude 50." in lat_miss[0][1]
