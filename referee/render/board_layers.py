"""The zones and spaces of a board picture: area and point-to-point maps, alone or over hexes.

:mod:`referee.render.board` draws the hex map and owns the board's geometry
(:class:`~referee.render.board.BoardLayout`); this module draws what an area or
point-to-point map adds, in the same pixels (``BoardLayout.px`` turns the map's inches into
image pixels), so the board image, the VASSAL module (whose zones and regions are computed from
the same layout) and the printed map agree:

* zones filled by their type's colour with an ink outline (over a hex map: outlined in the
  type's colour, the terrain left visible), blocked boundaries as a thick red line along the
  border the two zones share, and each zone's name inside it, shrunk until it fits the zone
  at that height, so names never cross a border and, zones never overlapping, never each other;
* spaces as discs in their type's colour, links as lines (a line's links in its colour, set
  side by side where lines share a link; other links dashed; one-way links with an arrow),
  space names beside their disc on the first side free of other names and discs, and each
  line's name by its middle link;
* legend entries for the zone and space types, blocked boundaries, lines and links.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from referee.render.board_geometry import BoardLayout, LegendEntry
from referee.render.colors import hex_rgb, mix, parse_color, readable_on_white
from referee.render.fonts import pil_font
from referee.source.mapkinds import Point, Zone, interior_point
from referee.source.model import Module

INK = "#1E2328"
BLOCKED = "#B03A2E"
LINK = "#5A6470"
CANVAS = "#EEF2F4"
Rect = tuple[float, float, float, float]


# ---- layout -----------------------------------------------------------------------------------
def canvas_layout(
    module: Module,
    dpi: int,
    entries: list[LegendEntry],
    legend_grid: Callable[[int, int, int, tuple[LegendEntry, ...]], tuple[int, int]],
) -> BoardLayout:
    """The board geometry of a map without a hex grid: its ``[board]`` at ``dpi`` with a
    margin, under the title band and over the legend (as a hex board is laid out)."""
    canvas = module.map.canvas
    assert canvas is not None
    margin = max(4, round(0.2 * dpi))
    map_w = math.ceil(canvas.width * dpi - 1e-9) + 2 * margin
    map_h = math.ceil(canvas.height * dpi - 1e-9) + 2 * margin
    legend = tuple(entries)
    cols_rows = legend_grid(map_w, dpi, round(0.5 * dpi), legend)
    return BoardLayout.framed(dpi, None, (map_w, map_h), legend, cols_rows, float(dpi), margin)


def zone_label_point(zone: Zone) -> Point:
    """Where a zone's name goes (inches): the designer's ``label`` or a point inside."""
    return zone.label_at if zone.label_at is not None else interior_point(zone.outline)


def anchor(module: Module, lay: BoardLayout, name: str) -> tuple[float, float]:
    """Image pixel of a location: a hex centre, a zone's label point, a space's centre."""
    m = module.map
    if m.spaces is not None and name in m.spaces.spaces:
        return lay.px(m.spaces.spaces[name].at)
    if m.zones is not None and name in m.zones.zones:
        return lay.px(zone_label_point(m.zones.zones[name]))
    return lay.pixel_centre(name)


def disc_point(
    module: Module, lay: BoardLayout, name: str, r: float, names: dict[str, Rect]
) -> tuple[float, float]:
    """Where a disc of radius ``r`` marking ``name`` goes: a zone's name is written at its
    anchor, so the disc sits just below that name (or above, left, right: the first spot inside
    the zone whose disc covers no name in ``names``, the boxes :func:`name_boxes` gives);
    anything else at its :func:`anchor`."""
    x, y = anchor(module, lay, name)
    zones = module.map.zones
    if zones is None or name not in zones.zones or name not in names:
        return x, y
    x0, y0, x1, y1 = names[name]
    gap = r * 0.25
    cx = (x0 + x1) / 2
    spots = [(cx, y1 + gap + r), (cx, y0 - gap - r), (x0 - gap - r, y), (x1 + gap + r, y)]
    poly = [lay.px(p) for p in zones.zones[name].outline]
    for sx, sy in spots:
        disc = (sx - r, sy - r, sx + r, sy + r)
        inside = all(_span(poly, px, py) is not None for px, py in _corners(disc))
        if inside and not any(_overlap(disc, b) for b in names.values()):
            return sx, sy
    return spots[0]


def _corners(box: Rect) -> list[tuple[float, float]]:
    return [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]


def name_boxes(module: Module, lay: BoardLayout) -> dict[str, Rect]:
    """The box of every zone and space name the board writes, in image pixels: the same
    placement as :func:`draw_layers` (it is run on a one-pixel image, which clips the ink but
    not the measuring), so a picture drawn over the board can keep clear of the names."""
    if module.map.zones is None and module.map.spaces is None:
        return {}
    return dict(draw_layers(Image.new("RGB", (1, 1)), lay, module))


# ---- legend -----------------------------------------------------------------------------------
def layer_legend(module: Module) -> list[LegendEntry]:
    m = module.map
    out: list[LegendEntry] = []
    if m.zones is not None:
        used = {z.type for z in m.zones.zones.values()}
        out += [
            LegendEntry("zone_type", t.name, t.id) for t in m.zones.types.values() if t.id in used
        ]
        if m.zones.boundaries:
            out.append(LegendEntry("boundary", "Boundary closed to some movement"))
    if m.spaces is not None:
        used = {s.type for s in m.spaces.spaces.values()}
        out += [
            LegendEntry("space_type", t.name, t.id) for t in m.spaces.types.values() if t.id in used
        ]
        out += [LegendEntry("line", name, name) for name in m.spaces.lines]
        if any(link.line is None and not link.blocks for link in m.spaces.links):
            out.append(LegendEntry("link", "Link (arrow: one way only)"))
        if any(link.blocks for link in m.spaces.links):
            out.append(LegendEntry("blocked_link", "Link closed to some movement"))
    return out


def legend_swatch(
    draw: ImageDraw.ImageDraw,
    module: Module,
    e: LegendEntry,
    x: float,
    cy: float,
    sw: float,
    row_h: float,
    u: float,
) -> None:
    m = module.map
    if e.kind == "zone_type" and m.zones is not None:
        h = row_h * 0.36
        color = parse_color(m.zones.types[e.key].color)
        draw.rectangle([x, cy - h, x + sw, cy + h], fill=color, outline=parse_color(INK))
    elif e.kind == "space_type" and m.spaces is not None:
        r = row_h * 0.3
        color = parse_color(m.spaces.types[e.key].color)
        cx = x + sw / 2
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=color, outline=parse_color(INK))
    elif e.kind == "boundary":
        draw.line([(x, cy), (x + sw, cy)], fill=parse_color(BLOCKED), width=max(3, round(5 * u)))
    elif e.kind == "line" and m.spaces is not None:
        color = parse_color(m.spaces.lines[e.key].color)
        draw.line([(x, cy), (x + sw, cy)], fill=color, width=max(2, round(4 * u)))
    elif e.kind in ("link", "blocked_link"):
        color = LINK if e.kind == "link" else BLOCKED
        _dashed(draw, (x, cy), (x + sw, cy), 6 * u, color, max(1, round(2 * u)))


# ---- drawing ----------------------------------------------------------------------------------
def draw_layers(img: Image.Image, lay: BoardLayout, module: Module) -> list[tuple[str, Rect]]:
    """Draw the map's zones and spaces on ``img`` (the whole map when it has no hex grid).
    Returns every name written, with its box in image pixels (the tests check that no two
    overlap and that a zone's name lies inside its zone)."""
    m = module.map
    if m.zones is None and m.spaces is None:
        return []
    draw = ImageDraw.Draw(img)
    u = lay.dpi / 100.0
    ox, oy = lay.map_origin
    mw, mh = lay.map_size
    if m.grid is None:
        draw.rectangle([ox, oy, ox + mw - 1, oy + mh - 1], fill=parse_color(CANVAS))
    taken: list[Rect] = []
    labels: list[tuple[str, Rect]] = []
    if m.zones is not None:
        _draw_zones(draw, lay, module, u)
    if m.spaces is not None:
        _draw_spaces(draw, lay, module, u, taken, labels)
    if m.zones is not None:
        for z in m.zones.zones.values():
            labels.append((z.name, _zone_label(draw, lay, z, u, taken)))
    if m.grid is None:
        fw = max(2, round(2.5 * u))
        draw.rectangle([ox, oy, ox + mw - 1, oy + mh - 1], outline=parse_color(INK), width=fw)
    return labels


def _draw_zones(draw: ImageDraw.ImageDraw, lay: BoardLayout, module: Module, u: float) -> None:
    layer = module.map.zones
    assert layer is not None
    over_hexes = module.map.grid is not None
    for z in layer.zones.values():
        pts = [lay.px(p) for p in z.outline]
        color = layer.types[z.type].color
        if over_hexes:
            dark = mix(parse_color(color), parse_color(INK), 0.35)
            draw.line([*pts, pts[0]], fill=dark, width=max(2, round(3.5 * u)), joint="curve")
        else:
            draw.polygon(pts, fill=parse_color(color))
    if not over_hexes:
        for z in layer.zones.values():
            pts = [lay.px(p) for p in z.outline]
            draw.line(
                [*pts, pts[0]], fill=parse_color(INK), width=max(1, round(1.5 * u)), joint="curve"
            )
    for b in layer.boundaries:
        a, c = layer.zones[b.zones[0]], layer.zones[b.zones[1]]
        for p, q in shared_segments(a.outline, c.outline):
            draw.line([lay.px(p), lay.px(q)], fill=parse_color(BLOCKED), width=max(3, round(6 * u)))


def shared_segments(a: tuple[Point, ...], b: tuple[Point, ...]) -> list[tuple[Point, Point]]:
    """The stretches of border two outlines share (collinear, overlapping edges)."""
    out: list[tuple[Point, Point]] = []
    eps = 1e-6
    for i in range(len(a)):
        p, q = a[i], a[(i + 1) % len(a)]
        dx, dy = q[0] - p[0], q[1] - p[1]
        length2 = dx * dx + dy * dy
        if length2 < eps:
            continue
        for j in range(len(b)):
            r, s = b[j], b[(j + 1) % len(b)]
            cross_r = dx * (r[1] - p[1]) - dy * (r[0] - p[0])
            cross_s = dx * (s[1] - p[1]) - dy * (s[0] - p[0])
            if abs(cross_r) > eps * math.sqrt(length2) or abs(cross_s) > eps * math.sqrt(length2):
                continue
            tr = ((r[0] - p[0]) * dx + (r[1] - p[1]) * dy) / length2
            ts = ((s[0] - p[0]) * dx + (s[1] - p[1]) * dy) / length2
            lo, hi = max(0.0, min(tr, ts)), min(1.0, max(tr, ts))
            if hi - lo > eps:
                out.append(((p[0] + lo * dx, p[1] + lo * dy), (p[0] + hi * dx, p[1] + hi * dy)))
    return out


def _span(poly: list[tuple[float, float]], x: float, y: float) -> tuple[float, float] | None:
    """The run of the horizontal line at ``y`` inside ``poly`` that holds ``x``."""
    xs = []
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if (y0 > y) != (y1 > y):
            xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
    xs.sort()
    for k in range(0, len(xs) - 1, 2):
        if xs[k] <= x <= xs[k + 1]:
            return xs[k], xs[k + 1]
    return None


def _zone_label(
    draw: ImageDraw.ImageDraw, lay: BoardLayout, z: Zone, u: float, taken: list[Rect]
) -> Rect:
    """The zone's name inside the zone: the largest size (down to a floor) at which the name,
    on one line or broken at a space onto two, fits the zone's width at the top, middle and
    bottom of its box, clear of space names."""
    poly = [lay.px(p) for p in z.outline]
    cx, cy = lay.px(zone_label_point(z))
    layouts = [z.name]
    words = z.name.split(" ")
    if len(words) > 1:  # the break that makes the longer line shortest
        cut = min(range(1, len(words)), key=lambda k: max(len(" ".join(words[:k])),
                                                           len(" ".join(words[k:]))))  # fmt: skip
        layouts.append(" ".join(words[:cut]) + "\n" + " ".join(words[cut:]))
    size = 15.0 * u
    floor = 6.0 * u
    chosen: tuple[str, float, float, float, float] | None = None  # text, size, x, w, h
    while chosen is None:
        font = pil_font("bold", size)
        for text in layouts:
            lines = text.split("\n")
            w = max(font.getlength(t) for t in lines)
            h = size * 1.15 * len(lines)
            x = _fit(poly, cx, cy, w, h, 2 * u)
            if x is not None:
                box = (x - w / 2, cy - h / 2, x + w / 2, cy + h / 2)
                if not any(_overlap(box, t) for t in taken):
                    chosen = (text, size, x, w, h)
                    break
        if chosen is None and size <= floor:
            w = font.getlength(z.name)
            chosen = (z.name, size, cx, w, size * 1.15)
        size = max(floor, size * 0.88)
    text, size, x, w, h = chosen
    box = (x - w / 2, cy - h / 2, x + w / 2, cy + h / 2)
    taken.append(box)
    draw.multiline_text(
        (x, cy),
        text,
        font=pil_font("bold", size),
        fill=parse_color(INK),
        anchor="mm",
        align="center",
        spacing=size * 0.15,
        stroke_width=max(1, round(1.5 * u)),
        stroke_fill=parse_color("#FFFFFF"),
    )
    return box


def _fit(
    poly: list[tuple[float, float]], cx: float, cy: float, w: float, h: float, pad: float
) -> float | None:
    """The x nearest ``cx`` at which a ``w`` x ``h`` box centred at height ``cy`` lies inside
    ``poly`` (tested at its top, middle and bottom), or ``None``."""
    left = right = None
    for y in (cy - h / 2, cy - h / 4, cy, cy + h / 4, cy + h / 2):
        span = _span(poly, cx, y)
        if span is None:
            return None
        left = span[0] if left is None else max(left, span[0])
        right = span[1] if right is None else min(right, span[1])
    if left is None or right is None or right - left < w + 2 * pad:
        return None
    return min(max(cx, left + w / 2 + pad), right - w / 2 - pad)


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _draw_spaces(
    draw: ImageDraw.ImageDraw,
    lay: BoardLayout,
    module: Module,
    u: float,
    taken: list[Rect],
    labels: list[tuple[str, Rect]],
) -> None:
    layer = module.map.spaces
    assert layer is not None
    r = 0.13 * lay.dpi
    at = {n: lay.px(s.at) for n, s in layer.spaces.items()}
    width = max(2, round(4 * u))
    # how many lines run along each link, so they can be drawn side by side
    sharing: dict[frozenset[str], list[str]] = {}
    for line in layer.lines.values():
        for a, b in zip(line.spaces, line.spaces[1:], strict=False):
            users = sharing.setdefault(frozenset((a, b)), [])
            if line.name not in users:
                users.append(line.name)
    for link in layer.links:
        p, q = at[link.a], at[link.b]
        if link.line is not None:
            users = sharing[frozenset((link.a, link.b))]
            k = users.index(link.line) - (len(users) - 1) / 2
            p, q = _offset(p, q, k * width * 1.3)
            color = parse_color(layer.lines[link.line].color)
            draw.line([p, q], fill=color, width=width)
        else:
            color = parse_color(BLOCKED if link.blocks else LINK)
            _dashed(draw, p, q, 7 * u, BLOCKED if link.blocks else LINK, max(2, round(2.5 * u)))
        if link.directed:
            _arrow(draw, p, q, r, color, 9 * u)
    for n, s in layer.spaces.items():
        x, y = at[n]
        fill = parse_color(layer.types[s.type].color)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=parse_color(INK),
                     width=max(1, round(2 * u)))  # fmt: skip
        taken.append((x - r, y - r, x + r, y + r))
    bounds = (lay.map_origin[0], lay.map_origin[1],
              lay.map_origin[0] + lay.map_size[0], lay.map_origin[1] + lay.map_size[1])  # fmt: skip
    size = 11.0 * u
    font = pil_font("bold", size)
    for n in layer.spaces:
        x, y = at[n]
        w, h = font.getlength(n), size * 1.15
        gap = r + 3 * u
        spots = [(x, y + gap + h / 2), (x, y - gap - h / 2), (x + gap + w / 2, y),
                 (x - gap - w / 2, y)]  # fmt: skip
        labels.append((n, _place(draw, n, spots, w, h, font, INK, taken, bounds, u)))
    lsize = 11.0 * u
    lfont = pil_font("regular", lsize)
    for line in layer.lines.values():
        k = (len(line.spaces) - 1) // 2
        p, q = at[line.spaces[k]], at[line.spaces[k + 1]]
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        nx, ny = _normal(p, q)
        w, h = lfont.getlength(line.name), lsize * 1.15
        d = 0.22 * lay.dpi
        spots = [(mx + nx * d * f, my + ny * d * f) for f in (1, -1, 2, -2)]
        ink = hex_rgb(readable_on_white(line.color))  # a white route still gets a legible name
        labels.append((line.name, _place(draw, line.name, spots, w, h, lfont, ink, taken,
                                         bounds, u)))  # fmt: skip


def _place(
    draw: ImageDraw.ImageDraw,
    text: str,
    spots: list[tuple[float, float]],
    w: float,
    h: float,
    font: object,
    color: str,
    taken: list[Rect],
    bounds: Rect,
    u: float,
) -> Rect:
    """Write ``text`` centred on the first spot whose box is clear of ``taken`` and inside
    ``bounds`` (the first spot when none is)."""
    chosen = spots[0]
    for sx, sy in spots:
        box = (sx - w / 2, sy - h / 2, sx + w / 2, sy + h / 2)
        inside = bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1]
        if inside and box[3] <= bounds[3] and not any(_overlap(box, t) for t in taken):
            chosen = (sx, sy)
            break
    x, y = chosen
    box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    taken.append(box)
    draw.text((x, y), text, font=font, fill=parse_color(color), anchor="mm",  # type: ignore[arg-type]
              stroke_width=max(1, round(1.5 * u)), stroke_fill=parse_color("#FFFFFF"))  # fmt: skip
    return box


def _normal(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    return -dy / n, dx / n


def _offset(
    p: tuple[float, float], q: tuple[float, float], d: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    nx, ny = _normal(p, q)
    return (p[0] + nx * d, p[1] + ny * d), (q[0] + nx * d, q[1] + ny * d)


def _arrow(
    draw: ImageDraw.ImageDraw,
    p: tuple[float, float],
    q: tuple[float, float],
    r: float,
    color: tuple[int, int, int],
    size: float,
) -> None:
    """An arrowhead at the middle of ``p``-``q`` pointing toward ``q``."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    mx, my = (p[0] + q[0]) / 2 + ux * size / 2, (p[1] + q[1]) / 2 + uy * size / 2
    back = (mx - ux * size, my - uy * size)
    draw.polygon(
        [(mx, my), (back[0] - uy * size * 0.6, back[1] + ux * size * 0.6),
         (back[0] + uy * size * 0.6, back[1] - ux * size * 0.6)],
        fill=color,
    )  # fmt: skip


def _dashed(
    draw: ImageDraw.ImageDraw,
    p: tuple[float, float],
    q: tuple[float, float],
    dash: float,
    fill: str,
    width: int,
) -> None:
    length = math.hypot(q[0] - p[0], q[1] - p[1])
    if length == 0:
        return
    n = max(1, int(length // (2 * dash)))
    for i in range(n + 1):
        a = min(1.0, (2 * i * dash) / length)
        b = min(1.0, (2 * i * dash + dash) / length)
        if a >= 1.0:
            break
        draw.line(
            [(p[0] + (q[0] - p[0]) * a, p[1] + (q[1] - p[1]) * a),
             (p[0] + (q[0] - p[0]) * b, p[1] + (q[1] - p[1]) * b)],
            fill=parse_color(fill),
            width=width,
        )  # fmt: skip
