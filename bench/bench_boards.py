"""Benchmarks of board queries (plain script, not a test): ``python bench/bench_boards.py``.

An area or point-to-point board must answer neighbour and path queries as fast as the hex
board does (issue 10). Measured on boards of the same size, 900 locations:

* the Sixth Fleet hex map (900 hexes) as a ``HexBoard``;
* a synthetic area map of 30 x 30 square zones (each adjacent to its four neighbours, one
  boundary in ten closed to ``surface``, one zone in twenty of a ``land`` type closed to it)
  as an ``AreaBoard``;
* a synthetic point-to-point map of 30 lines of 30 spaces with a cross link every third
  space (a Carrier Battlegroup map is a few dozen spaces) as a ``PointBoard``;
* the two small test modules (``area_med``, ``point_north``) for scale.

For each: every location's neighbours, 2,000 shortest paths between random pairs with a
movement kind (the first query per kind builds that kind's neighbour table, as the first
validation of a game would), and 2,000 ``distance`` calls. Best of 5; microseconds a query.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.graphboard import board_for  # noqa: E402
from referee.source.loader import load_module  # noqa: E402
from referee.source.mapkinds import (  # noqa: E402
    Boundary,
    Canvas,
    Line,
    Link,
    LocationType,
    Space,
    SpaceLayer,
    Zone,
    ZoneLayer,
)
from referee.source.model import MapDef  # noqa: E402

N = 30
PAIRS = 2000


def _empty_map(**layers: object) -> MapDef:
    return MapDef(
        title="synthetic",
        grid=None,
        hexes={},
        terrain={},
        countries={},
        areas={},
        all_land_hexsides=frozenset(),
        edges={},
        places=(),
        setup_codes={},
        canvas=Canvas(float(N), float(N)),
        **layers,  # type: ignore[arg-type]
    )


def synthetic_area() -> MapDef:
    types = {
        "sea": LocationType("sea", "Sea", "#9CC3E6", frozenset({"ground"})),
        "land": LocationType("land", "Land", "#D9C99A", frozenset({"surface"})),
    }
    zones = {}
    boundaries = []
    for r in range(N):
        for c in range(N):
            name = f"Z{r:02d}{c:02d}"
            adj = [
                f"Z{rr:02d}{cc:02d}"
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < N and 0 <= cc < N
            ]
            outline = ((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1))
            kind = "land" if (r * N + c) % 20 == 7 else "sea"
            zones[name] = Zone(name, kind, outline, tuple(adj))  # type: ignore[arg-type]
            if c + 1 < N and (r * N + c) % 10 == 3:
                boundaries.append(Boundary((name, adj[-1]), frozenset({"surface"})))
    return _empty_map(zones=ZoneLayer(types, zones, tuple(boundaries)))


def synthetic_points() -> MapDef:
    types = {"sea": LocationType("sea", "Sea", "#9CC3E6")}
    spaces = {}
    lines = {}
    links = []
    for r in range(N):
        names = [f"L{r:02d} S{c:02d}" for c in range(N)]
        for c, name in enumerate(names):
            spaces[name] = Space(name, "sea", (c + 0.5, r + 0.5), (f"Line {r}",))
        lines[f"Line {r}"] = Line(f"Line {r}", tuple(names))
        links += [Link(a, b, line=f"Line {r}") for a, b in itertools.pairwise(names)]
        if r + 1 < N:
            links += [
                Link(names[c], f"L{r + 1:02d} S{c:02d}", blocks=frozenset({"submarine"}))
                for c in range(0, N, 3)
            ]
    return _empty_map(spaces=SpaceLayer(types, spaces, tuple(links), lines))


def measure(label: str, map_def: MapDef, kind: str) -> None:
    board = board_for(map_def)
    locs = list(board.locations())
    rng = random.Random(1)
    pairs = [(rng.choice(locs), rng.choice(locs)) for _ in range(PAIRS)]

    def best(fn) -> float:  # type: ignore[no-untyped-def]
        out = []
        for _ in range(5):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
        return min(out)

    t_build = best(lambda: board_for(map_def))
    t_nb = best(lambda: [board.neighbours(x) for x in locs]) / len(locs)
    fresh = board_for(map_def)
    t0 = time.perf_counter()
    fresh.path(locs[0], locs[-1], kind)
    t_first = time.perf_counter() - t0
    t_path = best(lambda: [board.path(a, b, kind) for a, b in pairs]) / PAIRS
    t_dist = best(lambda: [board.distance(a, b) for a, b in pairs]) / PAIRS
    print(
        f"{label:<34} {len(locs):>5} locations  build {t_build * 1e3:6.2f} ms  "
        f"neighbours {t_nb * 1e6:5.2f} us  path[{kind}] {t_path * 1e6:7.1f} us "
        f"(first, with its table: {t_first * 1e3:5.2f} ms)  distance {t_dist * 1e6:5.2f} us"
    )


def main() -> None:
    sf, _ = load_module(ROOT / "module_src" / "sixth_fleet")
    assert sf is not None
    measure("Sixth Fleet hex map (HexBoard)", sf.map, "surface")
    measure("synthetic 30x30 zones (AreaBoard)", synthetic_area(), "surface")
    measure("synthetic 30 lines x 30 (PointBoard)", synthetic_points(), "submarine")
    for name, kind in (("area_med", "surface"), ("point_north", "surface")):
        module, _ = load_module(ROOT / "tests" / "fixtures" / "modules" / name)
        assert module is not None
        measure(f"test module {name}", module.map, kind)


if __name__ == "__main__":
    main()
