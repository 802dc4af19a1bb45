"""How the Crimea map of the naval module was drawn (a design aid, kept so it can be redone).

The rules give one hex number: Sevastopol is "inset hex 1527" (26.27d, 27.2 example). This
script lays a 62 x 36 flat-topped grid (CCRR ids, rows growing south, 12 km between hex
centres) over an equirectangular projection so that Sevastopol falls on 1527, and:

* ``anchors``: prints the hex of every port and place, for ``anchors.toml``;
* ``zones MAP_TXT``: reads the terrain picture that ``referee map-from-geo`` made (then edited:
  shallow water), assigns every non-land hex to a sea zone by the latitude and longitude of its
  centre, makes every zone one piece without holes, and prints the ``[[zone]]`` and
  ``[[space]]`` tables of ``map.toml``.

Run from the repository root: ``.venv/bin/python module_src/naval_module/geo/crimea.py zones
module_src/naval_module/map.txt``. The zone boundaries are the designer's (estimates: the
rules name the Sevastopol, Crimea and Kerch Sea Zones and the Sea of Azov, no boundary).
"""

from __future__ import annotations

import math
import sys
from collections import deque
from pathlib import Path

from referee.hexgrid import HexGrid

KM = 12.0  # between neighbouring hex centres
GRID = HexGrid(
    columns=62, rows=36, orientation="flat", shifted="even", rows_grow="south", id_format="CCRR"
)
LAT0 = 44.616  # Sevastopol
LON0 = 33.525
ANCHOR = "1527"

# name -> (lat, lon, port type, note); types: major_port, minor_port, anchorage
PORTS: dict[str, tuple[float, float, str]] = {
    "Sevastopol": (44.616, 33.525, "major_port"),
    "Balaklava": (44.500, 33.600, "anchorage"),
    "Evpatoria": (45.190, 33.370, "minor_port"),
    "Ak-Mechet": (45.510, 32.700, "anchorage"),
    "Skadovsk": (46.110, 32.910, "anchorage"),
    "Kherson": (46.640, 32.610, "minor_port"),
    "Yalta": (44.495, 34.166, "minor_port"),
    "Sudak": (44.850, 34.970, "anchorage"),
    "Feodosia": (45.030, 35.380, "minor_port"),
    "Kerch": (45.356, 36.474, "minor_port"),
    "Anapa": (44.894, 37.316, "anchorage"),
    "Novorossiysk": (44.720, 37.770, "major_port"),
    "Tuapse": (44.100, 39.070, "minor_port"),
    "Temryuk": (45.270, 37.380, "anchorage"),
    "Genichesk": (46.170, 34.800, "anchorage"),
    "Berdyansk": (46.750, 36.790, "minor_port"),
    "Mariupol": (47.100, 37.550, "minor_port"),
    "Taganrog": (47.210, 38.940, "minor_port"),
    "Yeysk": (46.710, 38.270, "anchorage"),
    "Primorsko-Akhtarsk": (46.050, 38.170, "anchorage"),
    "Rostov": (47.230, 39.720, "minor_port"),
}


def _xy_km(lat: float, lon: float) -> tuple[float, float]:
    """Equirectangular km east and south of Sevastopol."""
    return (
        (lon - LON0) * 111.32 * math.cos(math.radians(LAT0)),
        (LAT0 - lat) * 110.57,
    )


def _page_of_anchor() -> tuple[float, float]:
    col, row = GRID.parse_id(ANCHOR)
    return GRID.centre_of(col, row)


def hex_of(lat: float, lon: float) -> str:
    x, y = _xy_km(lat, lon)
    ax, ay = _page_of_anchor()
    px, py = ax + x / KM, ay + y / KM
    best = min(
        GRID.all_ids(),
        key=lambda h: (
            (GRID.centre_of(*GRID.parse_id(h))[0] - px) ** 2
            + (GRID.centre_of(*GRID.parse_id(h))[1] - py) ** 2
        ),
    )
    return best


def latlon_of(hex_id: str) -> tuple[float, float]:
    cx, cy = GRID.centre_of(*GRID.parse_id(hex_id))
    ax, ay = _page_of_anchor()
    x, y = (cx - ax) * KM, (cy - ay) * KM
    return LAT0 - y / 110.57, LON0 + x / (111.32 * math.cos(math.radians(LAT0)))


def zone_by_position(lat: float, lon: float) -> str:
    """The designer's sea-zone boundaries (estimates)."""
    if lat > 45.42 and lon > 34.2:
        return "Azov Sea Zone" if lon < 37.0 else "Taganrog Sea Zone"
    if 45.0 <= lat <= 45.42 and 36.2 <= lon <= 37.0:
        return "Kerch Sea Zone"
    if lon < 33.4 and lat > 45.35:
        return "Karkinit Sea Zone"
    if lat < 43.95:
        return "Open Sea Zone"
    if lon < 34.0:
        return "Sevastopol Sea Zone"
    if lon < 35.9:
        return "Crimea Sea Zone"
    if lon < 37.55:
        return "Kerch Sea Zone"
    return "Caucasus Sea Zone"


def read_terrain(path: str) -> dict[str, str]:
    out: dict[str, str] = {}
    in_terrain = False
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        s = line.rstrip("\n")
        if s.startswith("["):
            in_terrain = s.strip() == "[terrain]"
            continue
        if not in_terrain or not s.strip() or s.lstrip().startswith(("#", ";")):
            continue
        num, cells = s.split("|", 1)
        row = int(num)
        for i, ch in enumerate(cells.split()):
            out[GRID.hex_id(GRID.first_column + i, row)] = ch
    return out


def _components(hexes: set[str]) -> list[set[str]]:
    seen: set[str] = set()
    comps: list[set[str]] = []
    for h in sorted(hexes):
        if h in seen:
            continue
        comp, todo = {h}, deque([h])
        seen.add(h)
        while todo:
            for n in GRID.neighbours(todo.popleft()):
                if n in hexes and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    todo.append(n)
        comps.append(comp)
    return comps


def assign_zones(terrain: dict[str, str]) -> dict[str, set[str]]:
    zone_of: dict[str, str] = {}
    for h, ch in terrain.items():
        if ch != "#":
            zone_of[h] = zone_by_position(*latlon_of(h))
    # one piece: fragments go to the zone they touch most
    changed = True
    while changed:
        changed = False
        zones: dict[str, set[str]] = {}
        for h, z in zone_of.items():
            zones.setdefault(z, set()).add(h)
        for z, hexes in sorted(zones.items()):
            comps = sorted(_components(hexes), key=lambda c: (-len(c), min(c)))
            for frag in comps[1:]:
                votes: dict[str, int] = {}
                for h in frag:
                    for n in GRID.neighbours(h):
                        if n in zone_of and zone_of[n] != z:
                            votes[zone_of[n]] = votes.get(zone_of[n], 0) + 1
                if votes:
                    new = max(sorted(votes), key=lambda k: votes[k])
                else:  # an isolated pond: dropped from every zone (it stays land-locked)
                    new = ""
                for h in frag:
                    if new:
                        zone_of[h] = new
                    else:
                        del zone_of[h]
                changed = True
            if changed:
                break
    zones = {}
    for h, z in zone_of.items():
        zones.setdefault(z, set()).add(h)
    # no holes: any hex outside a zone but enclosed by it (not reaching the map edge or
    # another zone without crossing it) joins it
    for z, hexes in zones.items():
        others = set(GRID.all_ids()) - hexes
        for comp in _components(others):
            if any(GRID.is_edge(h) for h in comp):
                continue
            if any(zone_of.get(h, z) != z for h in comp):
                continue
            hexes |= comp
            for h in comp:
                zone_of[h] = z
    return zones


def adjacency(zones: dict[str, set[str]]) -> dict[str, list[str]]:
    zone_of = {h: z for z, hs in zones.items() for h in hs}
    adj: dict[str, set[str]] = {z: set() for z in zones}
    for h, z in zone_of.items():
        for n in GRID.neighbours(h):
            o = zone_of.get(n)
            if o and o != z:
                adj[z].add(o)
    return {z: sorted(v) for z, v in adj.items()}


def main(argv: list[str]) -> int:
    if argv[:1] == ["anchors"]:
        for name, (lat, lon, kind) in PORTS.items():
            print(f"{name:20s} {hex_of(lat, lon)} {kind}")
        return 0
    if argv[:1] != ["zones"] or len(argv) != 2:
        print(__doc__)
        return 2
    terrain = read_terrain(argv[1])
    zones = assign_zones(terrain)
    adj = adjacency(zones)
    zone_of = {h: z for z, hs in zones.items() for h in hs}
    for z in sorted(zones):
        hexes = sorted(zones[z])
        print("[[zone]]")
        print(f'name = "{z}"')
        print('type = "sea_zone"')
        print("hexes = [")
        for i in range(0, len(hexes), 12):
            print("  " + ", ".join(f'"{h}"' for h in hexes[i : i + 12]) + ",")
        print("]")
        print("adjacent = [" + ", ".join(f'"{a}"' for a in adj[z]) + "]")
        print()
    for name, (lat, lon, kind) in PORTS.items():
        h = hex_of(lat, lon)
        near = [zone_of[n] for n in [h, *GRID.neighbours(h)] if n in zone_of]
        zone = max(sorted(set(near)), key=near.count) if near else "?"
        print(f"# {name}: {lat:.3f}N {lon:.3f}E, terrain {terrain.get(h)!r}")
        print(f'[[space]]\nname = "{name}"\ntype = "{kind}"\nhex = "{h}"\nzone = "{zone}"\n')
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
