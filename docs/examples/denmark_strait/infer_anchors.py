"""How the inferred anchor hexes of anchors.toml were found (see README.md).

The DTP text gives no hex for Tromso, Trondheim, Keflavik or Kinloss. It does say where the
Arctic light line runs (row 10 from 0110 to 2010, then up to 3005, a few degrees north of the
Arctic Circle), that Pechenga is two hexes from 3003, and that RAF Leuchars is just off the map
while Kinloss is on it. This script searches north-up polar stereographic maps (central
meridian, latitude of hex 1010, hex size in km, rotation) for the one that best puts:

* the three light-line hexes 0110, 2010, 3005 on one parallel;
* Pechenga (Luostari airfield) at 3203, two hexes due east of 3003 beyond the east edge;
* Leuchars below the south edge and Kinloss on the map;

then prints where that map puts the four places. Run it from the repository root:

    .venv/bin/python docs/examples/denmark_strait/infer_anchors.py

It is a one-off design aid, kept so that the inference can be checked and redone; the map
itself is made by ``referee map-from-geo`` from anchors.toml.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from referee.hexgrid import HexGrid

R_KM = 6371.0
GRID = HexGrid(
    columns=30, rows=24, orientation="flat", shifted="even", rows_grow="south", id_format="CCRR"
)
PLACES = {
    "Pechenga": (69.40, 31.0),
    "Leuchars": (56.37, -2.87),
    "Kinloss": (57.65, -3.57),
    "Keflavik": (63.98, -22.6),
    "Tromso": (69.65, 18.96),
    "Trondheim": (63.43, 10.40),
}


def centre(hex_id: str) -> tuple[float, float]:
    return GRID.centre_of(int(hex_id[:2]), int(hex_id[2:]))


def polar(lat: float, lon: float, lon_c: float) -> tuple[float, float]:
    r = 2 * R_KM * math.tan(math.radians(90 - lat) / 2)
    a = math.radians(lon - lon_c)
    return r * math.sin(a), -r * math.cos(a)


def unpolar(x: float, y: float, lon_c: float) -> tuple[float, float]:
    r = math.hypot(x, y)
    return 90 - 2 * math.degrees(math.atan(r / (2 * R_KM))), lon_c + math.degrees(math.atan2(x, -y))


Mapping = tuple[Callable[[float, float], tuple[float, float]], Callable[[float, float], tuple]]


def mapping(lon_c: float, lat_1010: float, km: float, rot: float) -> Mapping:
    """Page position (hex widths, y down) of a place, and the place under a page position."""
    x0, y0 = polar(lat_1010, lon_c, lon_c)
    c10 = centre("1010")
    ct, st = math.cos(math.radians(rot)), math.sin(math.radians(rot))

    def page(lat: float, lon: float) -> tuple[float, float]:
        x, y = polar(lat, lon, lon_c)
        dx, dy = (x - x0) / km, (y - y0) / km
        return c10[0] + ct * dx - st * dy, c10[1] - (st * dx + ct * dy)

    def place(px: float, py: float) -> tuple[float, float]:
        u, v = px - c10[0], -(py - c10[1])
        return unpolar((ct * u + st * v) * km + x0, (-st * u + ct * v) * km + y0, lon_c)

    return page, place


def nearest_id(px: float, py: float) -> str:
    """The id a page point would have if the grid went on past its edges."""
    cells = [(c, r) for c in range(0, 40) for r in range(0, 34)]
    c, r = min(cells, key=lambda cr: math.dist(GRID.centre_of(*cr), (px, py)))
    return f"{c:02d}{r:02d}"


def score(params: tuple[float, float, float, float]) -> float:
    page, place = mapping(*params)
    px, py = page(*PLACES["Pechenga"])
    cx, cy = centre("3203")
    pechenga = math.hypot(px - cx, py - cy)
    lats = [place(*centre(h))[0] for h in ("0110", "2010", "3005")]
    light_line = (max(lats) - min(lats)) / 0.8
    _, leuchars_y = page(*PLACES["Leuchars"])
    kx, ky = page(*PLACES["Kinloss"])
    off_south = max(0.0, 24.6 - leuchars_y)
    on_map = max(0.0, ky - 23.8) + max(0.0, 0.5 - kx)
    return pechenga**2 + light_line**2 + off_south**2 + on_map**2


def main() -> None:
    candidates = [
        (lon_c / 2, 69.5 + k / 4, float(km), float(rot))
        for lon_c in range(-56, -36)
        for k in range(8)
        for km in range(94, 109)
        for rot in (-7, -6, -5, -4, -3, -2)
    ]
    best = min(candidates, key=score)
    page, place = mapping(*best)
    lon_c, lat_1010, km, rot = best
    print(
        f"central meridian {lon_c:.1f}, hex 1010 at {lat_1010:.2f} N, hex {km:.0f} km, "
        f"rotation {rot:.0f} deg"
    )
    for h in ("0110", "2010", "3005"):
        lat, lon = place(*centre(h))
        print(f"  light line {h}: {lat:.2f} N {lon:.2f}")
    for name, (lat, lon) in PLACES.items():
        px, py = page(lat, lon)
        print(f"  {name:10} {GRID.hex_at(px, py) or 'off map, as if ' + nearest_id(px, py)}")


if __name__ == "__main__":
    main()
