"""The game board image, and the one place its pixel geometry is decided.

:func:`board_layout` is the single source of the board's geometry: the VASSAL module places
this image and configures VASSAL's hex grid from it, the PBEM reports and ``referee options``
draw on top of it through the ``overlay`` hook, and :func:`render_board` draws with it. The hex
width in pixels is a whole even number, so hex centres fall on whole pixels across the rows
(pointy tops) or down the columns (flat tops); the other axis steps by 1.5 x the hex radius,
which no regular hex grid can make whole, and stays a float.

The board shows what the rulebook says the map shows [3.1]: terrain [10.0] by colour, the hex
grid and every hex number, airbases with their nationality code [9.13], Defended hexes with
"DEF/ECM" [10.41], set-up codes [11.1]/[11.2], named places, sea-area boundary lines (the
Aegean, the Black Sea [12.3], [13.11]), all-land hexsides [10.12] and political boundaries, with
a title band and a legend.

The board is drawn twice oversize and shrunk by averaging each 2 x 2 block of pixels
(:meth:`PIL.Image.Image.reduce`), so lines and edges are smooth; the overlay draws on the final
image, in final pixels. A box average is the classic supersampling filter: it is twenty times
cheaper than a Lanczos resize of a 60-megapixel canvas, leaves no ringing halo round text and
lines (so the PNG is half the size), and keeps every edge where it was drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from referee.render.board_geometry import BoardLayout, LegendEntry
from referee.render.board_islands import island_shapes
from referee.render.board_labels import hex_markers, id_size, plan_labels
from referee.render.board_layers import canvas_layout, draw_layers, layer_legend, legend_swatch
from referee.render.colors import contrast_text, darken, mix, parse_color
from referee.render.counters import png_bytes
from referee.render.fonts import pil_font
from referee.render.symbols import draw_symbol
from referee.source.model import Module

SUPERSAMPLE = 2
PAPER = "#F3EFE2"
INK = "#1E2328"
TITLE_BAND = "#1F2A44"
GRID_LINE = "#4F5F6E"
ALL_LAND = "#5C4A2A"
BOUNDARY = "#3A3A3A"

Overlay = Callable[[ImageDraw.ImageDraw, "BoardLayout"], None]


def legend_entries(module: Module) -> list[LegendEntry]:
    """What the legend explains, in a fixed order: terrain types as listed, then symbols."""
    m = module.map
    if m.grid is None:  # an area or point-to-point map: its own legend
        return layer_legend(module)
    out = [LegendEntry("terrain", t.name, t.id) for t in m.terrain.values()]
    if m.airbases():
        out.append(LegendEntry("airbase", "Airbase (nationality) [9.1]"))
    if m.defended_hexes():
        out.append(LegendEntry("defended", "Defended hex: DEF/ECM [10.4]"))
    if any(h.setup_code for h in m.hexes.values()):
        out.append(LegendEntry("setup", "Set-up hex (code) [11.0]"))
    for code in sorted(m.areas):
        out.append(LegendEntry("area", f"{m.areas[code].name} boundary", code))
    if m.all_land_hexsides:
        out.append(LegendEntry("all_land", "All-land hexside [10.12]"))
    if _country_borders(module):
        out.append(LegendEntry("border", "Political boundary"))
    return out + layer_legend(module)  # zones and spaces over the hex grid, if any


def board_layout(module: Module, dpi: int = 100) -> BoardLayout:
    """The board's pixel geometry at ``dpi`` (see :class:`BoardLayout`)."""
    if not 20 <= dpi <= 600:
        from referee.errors import UserError

        raise UserError(f"board dpi {dpi} is out of range", hint="use 20..600 (100 is usual)")
    if module.map.art is not None:  # a designer's picture is the board (map_art.py)
        from referee.render.map_art import art_layout

        return art_layout(module, dpi)
    g = module.map.grid
    if g is None:
        return canvas_layout(module, dpi, legend_entries(module), _legend_grid)
    hw = max(8, 2 * round(g.hex_width * dpi / 2))
    margin = max(4, round(0.2 * dpi))
    grid = g.scaled(hex_width=hw, margin=margin)
    mw, mh = grid.pixel_size()
    map_w, map_h = math.ceil(mw - 1e-9), math.ceil(mh - 1e-9)
    entries = tuple(legend_entries(module))
    legend = _legend_grid(map_w, dpi, hw, entries)
    return BoardLayout.framed(dpi, grid, (map_w, map_h), entries, legend, hw / g.hex_width, margin)


def _legend_grid(
    width: int, dpi: int, hex_px: int, entries: tuple[LegendEntry, ...]
) -> tuple[int, int]:
    """Columns and rows of the legend: a cell holds the swatch, a gap and the longest label
    (measured in the label font), so no label runs into the next column."""
    u = dpi / 100.0
    swatch = max(0.42 * dpi, hex_px * 0.9)
    font = pil_font("regular", 12 * u)
    longest = max((font.getlength(e.label) for e in entries), default=0.0)
    cell = max(round(2.4 * dpi), math.ceil(swatch + 10 * u + longest + 0.2 * dpi))
    cols = max(1, (width - 2 * round(0.2 * dpi)) // cell)
    return cols, max(1, math.ceil(len(entries) / cols))


# ---- map features -----------------------------------------------------------------------------
def _country_borders(module: Module) -> list[tuple[str, str]]:
    """Hexsides between two hexes of different countries (political boundaries)."""
    m = module.map
    out = []
    for hid in sorted(m.hexes):
        a = m.hexes[hid]
        if a.country is None:
            continue
        for nb in m.grid.neighbours(hid):
            b = m.hexes.get(nb)
            if b and nb > hid and b.country is not None and b.country != a.country:
                out.append((hid, nb))
    return out


def _area_sides(module: Module, area: str) -> list[tuple[str, str]]:
    """Hexsides with ``area`` on the first hex's side only: where its boundary line runs."""
    m = module.map
    out = []
    for hid in sorted(m.hexes):
        if area not in m.hexes[hid].areas:
            continue
        for nb in m.grid.neighbours(hid):
            b = m.hexes.get(nb)
            if b is not None and area not in b.areas:
                out.append((hid, nb))
    return out


# ---- drawing helpers --------------------------------------------------------------------------
def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: str,
    size: float,
    fill: str | tuple[int, int, int],
    anchor: str = "mm",
    halo: float = 0.0,
    halo_fill: str | tuple[int, int, int] = "#FFFFFF",
) -> None:
    if size < 1:
        return
    draw.text(
        xy,
        text,
        font=pil_font(font, size),
        fill=parse_color(fill) if isinstance(fill, str) else fill,
        anchor=anchor,
        stroke_width=round(halo),
        stroke_fill=parse_color(halo_fill) if isinstance(halo_fill, str) else halo_fill,
    )


def _inset(
    p: tuple[float, float], q: tuple[float, float], toward: tuple[float, float], d: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Segment ``p``-``q`` moved ``d`` toward point ``toward`` and shortened ``d`` at each end
    so neighbouring segments meet cleanly at the hex corner."""
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    vx, vy = toward[0] - mx, toward[1] - my
    n = math.hypot(vx, vy) or 1.0
    ox, oy = vx / n * d, vy / n * d
    return (p[0] + ox, p[1] + oy), (q[0] + ox, q[1] + oy)


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
    n = max(1, round(length / (2 * dash)))
    step = length / n
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    for i in range(n):
        s = i * step + step / 4
        e = s + step / 2
        draw.line(
            [(p[0] + ux * s, p[1] + uy * s), (p[0] + ux * e, p[1] + uy * e)],
            fill=parse_color(fill),
            width=width,
        )


def _airbase_badge(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    w: float,
    h: float,
    color: str,
    code: str,
) -> None:
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    draw.rounded_rectangle(
        [x0, y0, x1, y1],
        radius=h / 3,
        fill=parse_color(color),
        outline=parse_color(INK),
        width=max(1, round(h / 12)),
    )
    ink = contrast_text(color)  # dark on pale colours, white on the strong US blue
    draw_symbol(img, "fighter", (x0 + h * 0.1, y0 + h * 0.1, x0 + h * 0.9, y1 - h * 0.1), ink)
    _text(draw, ((x0 + h + x1) / 2, cy), code, "bold", h * 0.62, ink)


def _defended_box(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, color: str, text: str
) -> None:
    draw.rectangle(
        [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2],
        fill=parse_color("#FFFFFF"),
        outline=parse_color(color),
        width=max(1, round(h / 7)),
    )
    _text(draw, (cx, cy), text, "bold", h * 0.66, INK)


def _setup_box(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, color: str, code: str
) -> None:
    draw.ellipse(
        [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2],
        fill=parse_color(color),
        outline=parse_color(INK),
        width=max(1, round(h / 14)),
    )
    _text(draw, (cx, cy), code, "bold", h * 0.6, contrast_text(color))


def _land_color(module: Module) -> tuple[int, int, int] | None:
    t = module.map.terrain.get("land")
    return parse_color(t.color) if t is not None else None


def _nat_color(module: Module, code: str | None) -> str:
    if code and code in module.nationalities:
        return module.nationalities[code].color
    return "#FFFFFF"


# ---- the board --------------------------------------------------------------------------------
def _draw_map(img: Image.Image, lay: BoardLayout, module: Module, country_names: bool) -> None:
    """The map, layer over layer: terrain, islands, the hex grid, country names, political
    and sea-area boundaries, all-land hexsides, each hex's content, place names, a frame."""
    draw = ImageDraw.Draw(img)
    u = lay.dpi / 100.0
    ox, oy = lay.map_origin
    mw, mh = lay.map_size
    # sea-blue margin round the map, so edge hexes read as part of a larger sea
    draw.rectangle([ox, oy, ox + mw - 1, oy + mh - 1], fill=parse_color("#DCE6EC"))
    _draw_terrain(draw, lay, module)
    # islands: the land of island hexes, and the declared islands (decoration; board_islands)
    land = _land_color(module)
    if land is not None:
        for pts in island_shapes(module, lay):
            draw.polygon(pts, fill=land, outline=darken(land, 0.35), width=max(1, round(u)))
    gw = max(1, round(1.0 * u))
    for hid in sorted(module.map.hexes):
        pts = lay.corners(hid)
        draw.line([*pts, pts[0]], fill=parse_color(GRID_LINE), width=gw)
    # names: placed so none covers a hex number or a marker (board_labels)
    plan = plan_labels(module, lay, country_names)
    for lab in plan.labels:
        if lab.kind == "country":
            _text(draw, (lab.x, lab.y), lab.text, lab.font, lab.size, lab.color)
    for a, b in _country_borders(module):  # political boundaries
        p, q = lay.hexside(a, b)
        _dashed(draw, p, q, 4 * u, BOUNDARY, max(1, round(1.6 * u)))
    _draw_area_lines(draw, lay, module)
    _draw_all_land_sides(draw, lay, module)
    for hid in sorted(module.map.hexes):
        _draw_hex_content(img, draw, lay, module, hid)
    for lab in plan.labels:
        if lab.kind == "place":
            _text(draw, (lab.x, lab.y), lab.text, lab.font, lab.size, lab.color,
                  halo=lab.halo, halo_fill="#FFFFFF")  # fmt: skip
    fw = max(2, round(2.5 * u))  # the frame
    draw.rectangle([ox, oy, ox + mw - 1, oy + mh - 1], outline=parse_color(INK), width=fw)


def _draw_terrain(draw: ImageDraw.ImageDraw, lay: BoardLayout, module: Module) -> None:
    """Each hex in its terrain's colour, tinted by its country's colour where it has one."""
    m = module.map
    for hid in sorted(m.hexes):
        h = m.hexes[hid]
        terrain = m.terrain.get(h.terrain)
        color = parse_color(terrain.color) if terrain else parse_color("#FFFFFF")
        country = m.countries.get(h.country) if h.country else None
        if country is not None and country.color:
            color = mix(color, country.color, 0.45)
        draw.polygon(lay.corners(hid), fill=color)


def _draw_area_lines(draw: ImageDraw.ImageDraw, lay: BoardLayout, module: Module) -> None:
    """Sea-area boundary lines, drawn just inside each area in its colour."""
    m = module.map
    lw = max(2, round(4 * lay.dpi / 100.0))
    for code in sorted(m.areas):
        area = m.areas[code]
        for a, b in _area_sides(module, area.id):
            p, q = lay.hexside(a, b)
            p2, q2 = _inset(p, q, lay.pixel_centre(a), lw / 2)
            draw.line([p2, q2], fill=parse_color(area.color), width=lw)
            r = lw / 2
            for x, y in (p2, q2):
                draw.ellipse([x - r, y - r, x + r, y + r], fill=parse_color(area.color))


def _draw_all_land_sides(draw: ImageDraw.ImageDraw, lay: BoardLayout, module: Module) -> None:
    """All-land hexsides: a heavy bar along the side."""
    m = module.map
    bw = max(3, round(5 * lay.dpi / 100.0))
    for a, b in sorted(m.all_land_hexsides):
        if a not in m.hexes or b not in m.hexes:
            continue
        p, q = lay.hexside(a, b)
        tx = (p[0] - q[0]) * 0.12
        ty = (p[1] - q[1]) * 0.12
        draw.line([(p[0] - tx, p[1] - ty), (q[0] + tx, q[1] + ty)], fill=ALL_LAND, width=bw)


def _draw_hex_content(
    img: Image.Image, draw: ImageDraw.ImageDraw, lay: BoardLayout, module: Module, hid: str
) -> None:
    """A hex's number and its markers: airbase, Defended hex, set-up code."""
    m = module.map
    h = m.hexes[hid]
    cx, cy = lay.pixel_centre(hid)
    _text(
        draw, (cx, cy - lay.grid.size * 0.66), hid, "regular", id_size(lay), "#2B3440", anchor="mm"
    )
    for kind, (x0, y0, x1, y1) in hex_markers(module, lay, hid):
        w, ih, yc = x1 - x0, y1 - y0, (y0 + y1) / 2
        if kind == "airbase" and h.airbase is not None:
            nat = h.airbase.nationality
            _airbase_badge(img, draw, cx, yc, w, ih, _nat_color(module, nat), nat)
        elif kind == "defended" and h.defended is not None:
            side_color = module.side(h.defended.side).color if _has_side(module, h) else INK
            text = f"{h.defended.defense}/{h.defended.ecm}"
            _defended_box(draw, cx, yc, w, ih, side_color, text)
        elif kind == "setup" and h.setup_code:
            nat = m.setup_codes.get(h.setup_code)
            _setup_box(draw, cx, yc, w, ih, _nat_color(module, nat), h.setup_code)


def _has_side(module: Module, h: object) -> bool:
    d = getattr(h, "defended", None)
    return d is not None and any(s.id == d.side for s in module.sides)


def _draw_title(img: Image.Image, lay: BoardLayout, module: Module) -> None:
    draw = ImageDraw.Draw(img)
    u = lay.dpi / 100.0
    draw.rectangle([0, 0, lay.width - 1, lay.title_height - 1], fill=parse_color(TITLE_BAND))
    cy = lay.title_height / 2
    pad = 18 * u
    title = module.map.title or module.name
    _text(draw, (pad, cy), title.upper(), "bold", lay.title_height * 0.46, "#FFFFFF", "lm")
    right = f"{module.name}  ·  v{module.version}"
    _text(draw, (lay.width - pad, cy), right, "regular", lay.title_height * 0.3, "#C9D3E6", "rm")


def _draw_legend(img: Image.Image, lay: BoardLayout, module: Module) -> None:
    draw = ImageDraw.Draw(img)
    u = lay.dpi / 100.0
    top = lay.legend_top
    draw.rectangle([0, top, lay.width - 1, lay.height - 1], fill=parse_color(PAPER))
    pad = round(0.2 * lay.dpi)
    _text(draw, (pad, top + pad), "KEY TO THE MAP", "bold", 16 * u, INK, "lt")
    row_h = round(0.32 * lay.dpi)
    cell_w = (lay.width - 2 * pad) / lay.legend_columns
    y0 = top + pad + round(0.3 * lay.dpi)
    hw = lay.grid.hex_width if lay.grid is not None else 0.5 * lay.dpi
    sw = max(0.42 * lay.dpi, hw * 0.9)  # swatch width
    for n, e in enumerate(lay.legend):
        col, row = n % lay.legend_columns, n // lay.legend_columns
        x = pad + col * cell_w
        cy = y0 + row * row_h + row_h / 2
        sx = x + sw / 2
        if e.kind == "terrain":
            t = module.map.terrain[e.key]
            r = row_h * 0.42
            pts = [
                (
                    sx + r * math.cos(math.radians(-90 + 60 * i)),
                    cy + r * math.sin(math.radians(-90 + 60 * i)),
                )
                for i in range(6)
            ]
            draw.polygon(pts, fill=parse_color(t.color), outline=parse_color(GRID_LINE))
        elif e.kind == "airbase":
            nat = sorted({a.nationality for a in module.map.airbases()})[0]
            _airbase_badge(img, draw, sx, cy, hw * 0.6, hw * 0.2, _nat_color(module, nat), nat)
        elif e.kind == "defended":
            _defended_box(draw, sx, cy, hw * 0.9, hw * 0.21, INK, "DEF/ECM")
        elif e.kind == "setup":
            code = sorted(module.map.setup_codes)[0] if module.map.setup_codes else "?"
            nat = module.map.setup_codes.get(code)
            _setup_box(draw, sx, cy, hw * 0.36, hw * 0.2, _nat_color(module, nat), code)
        elif e.kind == "area":
            color = module.map.areas[e.key].color
            draw.line([(x, cy), (x + sw, cy)], fill=parse_color(color), width=max(2, round(4 * u)))
        elif e.kind == "all_land":
            draw.line([(x, cy), (x + sw, cy)], fill=ALL_LAND, width=max(3, round(5 * u)))
        elif e.kind == "border":
            _dashed(draw, (x, cy), (x + sw, cy), 4 * u, BOUNDARY, max(1, round(1.6 * u)))
        else:  # zone and space types, blocked boundaries, lines
            legend_swatch(draw, module, e, x, cy, sw, row_h, u)
        _text(draw, (x + sw + 10 * u, cy), e.label, "regular", 12 * u, INK, "lm")


def render_board(
    module: Module,
    dpi: int = 100,
    *,
    overlay: Overlay | None = None,
    country_names: bool = True,
) -> Image.Image:
    """The board as an RGB image of ``board_layout(module, dpi)``'s size.

    ``overlay(draw, layout)`` is called last, on the final image, with the layout that maps
    hexes to its pixels (unit markers, movement arrows, reachable hexes...).
    """
    lay = board_layout(module, dpi)
    if module.map.art is not None:  # the designer's picture, with nothing drawn over it
        from referee.render.map_art import paint_art

        out = paint_art(module, lay)
        if overlay is not None:
            overlay(ImageDraw.Draw(out), lay)
        return out
    big = lay.scaled(SUPERSAMPLE)
    img = Image.new("RGB", (big.width, big.height), parse_color(PAPER))
    if module.map.grid is not None:
        _draw_map(img, big, module, country_names)
    draw_layers(img, big, module)  # zones and spaces (nothing on a plain hex map)
    _draw_title(img, big, module)
    _draw_legend(img, big, module)
    out = img.reduce(SUPERSAMPLE)
    if overlay is not None:
        overlay(ImageDraw.Draw(out), lay)
    return out


def board_png(module: Module, dpi: int = 100) -> bytes:
    """The board as deterministic PNG bytes."""
    return png_bytes(render_board(module, dpi))
