"""Where the board's names go: placed by testing for collisions, never over a hex number or a
marker.

A wargame map must leave every hex number and every printed marker (airbase, Defended hex,
set-up code) readable: a name printed over hex 1824 or over Malta's airbase hides what the
rules refer to. So names are not put at fixed offsets: each label tries candidate positions,
largest type first, and takes the first whose box (the text's measured ink, plus its white
halo and a small gap) touches no hex-number box, no marker box, no label already placed and
stays inside the map, and hides no small island. What cannot be placed is left off and reported
(:attr:`LabelPlan.unplaced`), never drawn over something.

Order: place names first (each belongs to a hex: the name sits in the free band below that
hex's markers, or beside it), then the names of declared islands (beside the island), then
country names, each on the country's own hexes nearest its
middle. A place whose name is the name of a country ("Sicily", "Malta", "Cyprus") is not
labelled twice: the country name says it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.render.board_islands import island_centre, island_outline
from referee.render.fonts import pil_font
from referee.source.model import Module

if TYPE_CHECKING:
    from referee.render.board_geometry import BoardLayout

Box = tuple[float, float, float, float]

PLACE_INK = "#1E2328"
COUNTRY_INK = "#6E6250"
SMALL_ISLAND = 0.6  # hex widths: a declared island this long or shorter is never covered


@dataclass(frozen=True, slots=True)
class Label:
    kind: str  # place | country
    text: str
    font: str
    size: float
    x: float  # centre of the text ("mm" anchor)
    y: float
    color: str
    halo: float
    box: Box  # what it covers, halo included


@dataclass(slots=True)
class LabelPlan:
    labels: list[Label] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)


def hits(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def text_box(text: str, font: str, size: float, x: float, y: float, halo: float) -> Box:
    """The ink box of ``text`` drawn centred ("mm") at ``(x, y)``, grown by its halo."""
    x0, y0, x1, y1 = pil_font(font, size).getbbox(text, anchor="mm")
    return (x + x0 - halo, y + y0 - halo, x + x1 + halo, y + y1 + halo)


def id_size(lay: BoardLayout) -> float:
    return max(4.0, lay.grid.hex_width * 0.13)


def hex_id_boxes(module: Module, lay: BoardLayout) -> dict[str, Box]:
    """The box of every printed hex number (drawn at the top of its hex)."""
    s = lay.grid.size
    size = id_size(lay)
    out = {}
    for hid in sorted(module.map.hexes):
        cx, cy = lay.pixel_centre(hid)
        out[hid] = text_box(hid, "regular", size, cx, cy - s * 0.66, 0.0)
    return out


def hex_markers(module: Module, lay: BoardLayout, hid: str) -> list[tuple[str, Box]]:
    """The markers printed in a hex, stacked round its centre: airbase [9.1], Defended hex
    [10.4], set-up code [11.0]; each as (kind, box). The board draws them where this says."""
    h = module.map.hexes[hid]
    hw = lay.grid.hex_width
    s = lay.grid.size
    cx, cy = lay.pixel_centre(hid)
    items: list[tuple[str, float, float]] = []
    if h.airbase is not None:
        items.append(("airbase", hw * 0.6, hw * 0.2))
    if h.defended is not None:
        items.append(("defended", hw * 0.56, hw * 0.21))
    if h.setup_code:
        items.append(("setup", hw * 0.36, hw * 0.2))
    gap = hw * 0.04
    total = sum(it[2] for it in items) + gap * max(0, len(items) - 1)
    y = cy - s * 0.02 - total / 2
    out = []
    for kind, w, ih in items:
        out.append((kind, (cx - w / 2, y, cx + w / 2, y + ih)))
        y += ih + gap
    return out


def marker_boxes(module: Module, lay: BoardLayout) -> list[Box]:
    return [b for hid in sorted(module.map.hexes) for _, b in hex_markers(module, lay, hid)]


def small_island_boxes(module: Module, lay: BoardLayout) -> list[Box]:
    """The boxes of the declared islands small enough to vanish under a name (Kasos, Leros):
    no label may hide them. Long islands (Crete, Euboea) stay visible round a label."""
    out = []
    for isl in module.map.islands:
        if isl.hex in module.map.hexes and isl.size[0] <= SMALL_ISLAND:
            pts = island_outline(isl, lay)
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def _country_named(module: Module, name: str) -> bool:
    return any(c.name.casefold() == name.casefold() for c in module.map.countries.values())


def plan_labels(module: Module, lay: BoardLayout, country_names: bool = True) -> LabelPlan:
    """Every place and country label, positioned without covering hex numbers or markers."""
    u = lay.dpi / 100.0
    ox, oy = lay.map_origin
    mw, mh = lay.map_size
    frame = max(2, round(2.5 * u))
    blocked: list[Box] = list(hex_id_boxes(module, lay).values()) + marker_boxes(module, lay)
    blocked += small_island_boxes(module, lay)
    placer = _Placer(
        (ox + frame, oy + frame, ox + mw - frame, oy + mh - frame),
        max(1.0, lay.grid.hex_width * 0.015),
        blocked,
    )
    halo = max(1.0, 2 * u)
    _place_places(module, lay, placer, halo)
    _place_islands(module, lay, placer, halo)
    if country_names:
        _place_countries(module, lay, placer)
    return placer.plan


class _Placer:
    """Labels placed one by one, each in the first spot (largest size first) where it fits
    inside the map's frame clear of everything placed before."""

    def __init__(self, inside: Box, gap: float, blocked: list[Box]) -> None:
        self.inside, self.gap, self.blocked = inside, gap, blocked
        self.plan = LabelPlan()

    def free(self, box: Box) -> bool:
        inside, gap = self.inside, self.gap
        if box[0] < inside[0] or box[1] < inside[1] or box[2] > inside[2] or box[3] > inside[3]:
            return False
        grown = (box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap)
        return not any(hits(grown, b) for b in self.blocked)

    def place(self, kind: str, text: str, sizes: list[float], spots: list[tuple[float, float]],
              color: str, halo: float) -> None:  # fmt: skip
        """The label in the first free spot, or ``text`` listed as unplaced."""
        font = "bold"
        for size in sizes:
            for x, y in spots:
                box = text_box(text, font, size, x, y, halo)
                if self.free(box):
                    self.plan.labels.append(Label(kind, text, font, size, x, y, color, halo, box))
                    self.blocked.append(box)
                    return
        self.plan.unplaced.append(text)


def _place_places(module: Module, lay: BoardLayout, placer: _Placer, halo: float) -> None:
    """Names of places: in the band below the hex's markers, else beside or above it."""
    m = module.map
    hw, s = lay.grid.hex_width, lay.grid.size
    base = hw * 0.14
    for p in m.places:
        if not p.label or p.hex not in m.hexes or _country_named(module, p.name):
            continue
        cx, cy = lay.pixel_centre(p.hex)
        spots = [
            (cx + dx * hw, cy + dy * s)
            for dy in (0.5, 0.42, 0.58)
            for dx in (0.0, -0.25, 0.25, -0.5, 0.5, -0.75, 0.75)
        ]
        spots += [
            (cx + dx * hw, cy + dy * s) for dy in (-0.35, 2.0, -1.0) for dx in (0.0, -0.5, 0.5)
        ]
        placer.place("place", p.name, [base, base * 0.88, base * 0.76], spots, PLACE_INK, halo)


def _place_islands(module: Module, lay: BoardLayout, placer: _Placer, halo: float) -> None:
    """Names of declared islands (decoration): beside the island, below it first."""
    m = module.map
    hw, s = lay.grid.hex_width, lay.grid.size
    base = hw * 0.14
    for isl in m.islands:
        if not isl.label or isl.hex not in m.hexes:
            continue
        ix, iy = island_centre(isl, lay)
        reach = max(isl.size) * hw / 2
        spots = [
            (ix + dx * reach, iy + dy)
            for dy in (reach * 0.6 + s * 0.2, -(reach * 0.6 + s * 0.2), 0.0)
            for dx in (0.0, -0.6, 0.6, -1.6, 1.6)
        ]
        spots += [(ix + dx * hw, iy + dy * s) for dy in (0.8, -0.8) for dx in (0.0, -0.3, 0.3)]
        placer.place("place", isl.name, [base * 0.88, base * 0.76], spots, PLACE_INK, halo)


def _place_countries(module: Module, lay: BoardLayout, placer: _Placer) -> None:
    """Country names: large and faint, on the country's own hexes nearest its middle."""
    m = module.map
    hw, s = lay.grid.hex_width, lay.grid.size
    for code in sorted(m.countries):
        mine = [hid for hid in sorted(m.hexes) if m.hexes[hid].country == code]
        if not mine:
            continue
        pts = {hid: lay.pixel_centre(hid) for hid in mine}
        mx = sum(p[0] for p in pts.values()) / len(pts)
        my = sum(p[1] for p in pts.values()) / len(pts)
        near = sorted(mine, key=lambda h: (math.dist(pts[h], (mx, my)), h))
        name = m.countries[code].name.upper()
        big = min(hw * 0.26, hw * 2.2 * math.sqrt(len(mine)) / max(4, len(name)))
        sizes = [big * k for k in (1.0, 0.85, 0.72, 0.6)]
        spots = [
            (pts[h][0] + dx * hw, pts[h][1] + dy * s)
            for h in near[:12]
            for dy in (0.47, 0.4)
            for dx in (0.0, -0.5, 0.5)
        ]
        placer.place("country", name, sizes, spots, COUNTRY_INK, 0.0)
