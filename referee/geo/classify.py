"""Sea, coastal or land: sampling each hex against the land mask, and the map picture text.

Each hex is sampled at ``1 + 3n(n+1)`` points of a triangular lattice that fills it (the
sample pattern is itself a hexagon of the same orientation, with a step of ``R / (n + 0.5)``
for a hex of corner radius ``R``), so each point stands for an equal share of the hex's area
and the land fraction estimates how much of the hex is land. The thresholds turn the fraction
into the module's terrain characters (see :class:`referee.geo.spec.Classify`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from referee.geo.fit import GridFit
from referee.geo.landmask import LandMask
from referee.geo.spec import Classify, Expectation
from referee.hexgrid import SQRT3, HexGrid
from referee.source.mappicture import render_map_picture


def sample_offsets(grid: HexGrid, rings: int) -> list[tuple[float, float]]:
    """Page offsets (hex width 1) of the sample points around a hex centre, in a fixed order."""
    if rings == 0:
        return [(0.0, 0.0)]
    radius = 1.0 / SQRT3  # corner radius of a hex of width 1
    step = radius / (rings + 0.5)
    # lattice directions 120 degrees apart (e1, e2 and -(e1 + e2) are the three unit steps,
    # so a point's hex distance is max(|a|, |b|, |a - b|)) pointing at the hex's corners:
    # pointy hexes have a corner straight up, flat ones a corner due east
    start = 90.0 if grid.orientation == "pointy" else 0.0
    e1 = (math.cos(math.radians(start)), -math.sin(math.radians(start)))
    e2 = (math.cos(math.radians(start + 120)), -math.sin(math.radians(start + 120)))
    out: list[tuple[float, float]] = []
    for a in range(-rings, rings + 1):
        for b in range(max(-rings, a - rings), min(rings, a + rings) + 1):
            out.append((step * (a * e1[0] + b * e2[0]), step * (a * e1[1] + b * e2[1])))
    return out


def sample_places(fit: GridFit, rings: int) -> Iterator[tuple[str, float, float]]:
    """``(hex id, lat, lon)`` of every sample point of every hex, hex by hex."""
    offsets = sample_offsets(fit.grid, rings)
    for hex_id in fit.grid.all_ids():
        cx, cy = fit.grid.centre(hex_id)
        for dx, dy in offsets:
            lat, lon = fit.latlon_of(cx + dx, cy + dy)
            yield hex_id, lat, lon


@dataclass(frozen=True, slots=True)
class Classified:
    """Every hex's land fraction and terrain name (``sea``, ``coastal``, ``land``)."""

    fraction: dict[str, float]
    terrain: dict[str, str]

    def counts(self) -> dict[str, int]:
        out = {"sea": 0, "coastal": 0, "land": 0}
        for t in self.terrain.values():
            out[t] += 1
        return out


def terrain_of(fraction: float, options: Classify) -> str:
    if fraction >= options.land_from:
        return "land"
    if fraction >= options.coastal_from and fraction > 0.0:
        return "coastal"
    return "sea"


def classify(fit: GridFit, mask: LandMask, options: Classify) -> Classified:
    """The land fraction and terrain of every hex of ``fit.grid``."""
    land: dict[str, int] = {}
    total: dict[str, int] = {}
    for hex_id, lat, lon in sample_places(fit, options.samples):
        total[hex_id] = total.get(hex_id, 0) + 1
        land[hex_id] = land.get(hex_id, 0) + (1 if mask.is_land(lat, lon) else 0)
    fraction = {h: land[h] / total[h] for h in total}
    return Classified(fraction, {h: terrain_of(f, options) for h, f in fraction.items()})


def unmet(
    fit: GridFit, classified: Classified, expectations: tuple[Expectation, ...]
) -> list[tuple[Expectation, str]]:
    """The expectations the fit and classification do not meet, each with what was found."""
    out: list[tuple[Expectation, str]] = []
    for e in expectations:
        found = classified.terrain[e.hex]
        if e.terrain and found not in e.terrain:
            out.append((e, f"is {found} (land fraction {classified.fraction[e.hex]:.2f})"))
            continue
        lat = fit.centre_latlon(e.hex)[0]
        if (e.lat_min is not None and lat < e.lat_min) or (
            e.lat_max is not None and lat > e.lat_max
        ):
            out.append((e, f"has its centre at latitude {lat:.2f}"))
    return out


def picture_text(fit: GridFit, classified: Classified, options: Classify, header: list[str]) -> str:
    """The map picture: comment lines (``header``), then the ``[terrain]`` layer."""
    chars = {h: options.chars[t] for h, t in classified.terrain.items()}
    body = render_map_picture(fit.grid, {"terrain": chars})
    lines = [f"# {h}" if h else "#" for h in header]
    return "\n".join(lines) + "\n" + body
