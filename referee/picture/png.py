"""The picture of the position in an HTML report: the region of play, legible on a phone.

Drawn on :func:`referee.render.board.render_board`, so the hexes are exactly those of the
printed map and the VASSAL module, then cropped to the region of play (every occupied hex and
every hex an event of this step names, plus a margin of one hex) and given a key below it.
At the default 100 dpi a hex is 84 px wide and its printed number about 11 px high.

* each occupied hex: a disc in the owning side's colour holding the stack's key letter, sized
  so the hex number above it and a place name below it stay readable; the key lists every stack: its
  letter, hex, side and unit ids;
* a move or an advance: a solid black arrow along its path; a retreat or displacement: a
  dashed orange arrow; an attack: a red arrow from the attackers to the target; an
  elimination: a red cross on the hex where the piece was (and its id in the key);
* a legend of those marks and of the side colours.

Event ``data`` is read generically (``unit``/``units``, ``from``/``to``/``path``/``hex``,
``target``/``targets``), so any ruleset that records those keys gets arrows.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from referee.engine.core import Event, GameState
from referee.source.model import Module

ATTACK = (200, 30, 30)
RETREAT = (230, 120, 0)
MOVE = (20, 20, 20)
Point = tuple[float, float]


def _hexes(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Sequence):
        return [str(v) for v in value if isinstance(v, str)]
    return []


def _units(data: Mapping[str, Any], *keys: str) -> list[str]:
    out: list[str] = []
    for k in keys:
        out += _hexes(data.get(k))
    return out


def marks(
    module: Module, before: GameState | None, after: GameState, events: Iterable[Event]
) -> list[tuple[str, list[str]]]:
    """What to draw: ``(kind, hexes)`` pairs, kind ``move``/``retreat``/``attack``/
    ``eliminate``. Pure, so it is tested without pixels."""

    def where(unit: str) -> str | None:
        for st in (after, before):
            if st is not None and unit in st.units and st.units[unit].location:
                return st.units[unit].location
        return None

    out: list[tuple[str, list[str]]] = []
    for ev in events:
        d = ev.data
        path = _hexes(d.get("path"))
        start = _hexes(d.get("from"))
        if path and start and path[0] != start[0]:
            path = start[:1] + path  # a path listed without its starting hex
        if not path:
            path = start + _hexes(d.get("to"))
        if ev.kind in ("move", "advance", "retreat", "displace", "place") and len(path) >= 2:
            kind = "retreat" if ev.kind in ("retreat", "displace") else "move"
            out.append((kind, [h for h in path if is_place(module, h)]))
        elif ev.kind == "attack":
            src = [where(u) for u in _units(d, "unit", "units", "attackers")]
            tgt = [where(u) for u in _units(d, "target", "targets")] + [
                t.removeprefix("hex:") for t in _hexes(d.get("targets")) if t.startswith("hex:")
            ]
            tgt += _hexes(d.get("hex"))
            for s in sorted({h for h in src if h}):
                for t in sorted({h for h in tgt if h and is_place(module, h)}):
                    if s != t:
                        out.append(("attack", [s, t]))
        elif ev.kind == "eliminate":
            for u in _units(d, "unit", "units"):
                hx = before.units[u].location if before and u in before.units else None
                hx = hx or _first(_hexes(d.get("hex")))
                if hx and is_place(module, hx):
                    out.append(("eliminate", [hx]))
    return out


def is_place(module: Module, name: str) -> bool:
    """A hex of the grid, or a zone or space of an area or point-to-point map."""
    m = module.map
    if m.grid is not None and m.grid.is_valid_id(name):
        return True
    return (m.zones is not None and name in m.zones.zones) or (
        m.spaces is not None and name in m.spaces.spaces
    )


def _first(xs: list[str]) -> str | None:
    return xs[0] if xs else None


DEFAULT_DPI = 100
"""Board resolution of the picture: hex numbers about 11 px high, unit keys 20 px."""
PANEL = (243, 239, 226)
INK = (30, 35, 40)
HALO = (255, 255, 255)


def stack_keys(hexes: Sequence[str]) -> dict[str, str]:
    """Key letters for stacks, in hex order: A..Z, then AA, AB..."""
    out: dict[str, str] = {}
    for n, hx in enumerate(sorted(hexes)):
        key = ""
        n += 1
        while n:
            n, r = divmod(n - 1, 26)
            key = chr(65 + r) + key
        out[hx] = key
    return out


def play_region(
    module: Module, after: GameState, todo: Sequence[tuple[str, list[str]]]
) -> list[str]:
    """The hexes the picture must show: every occupied hex and every hex a mark names."""
    hexes = {h for h, ids in after.stacks.items() if ids and is_place(module, h)}
    for _kind, hs in todo:
        hexes.update(h for h in hs if is_place(module, h))
    return sorted(hexes)


def _board_image(module: Module, dpi: int) -> Any:
    """The bare board at ``dpi`` (an RGB image), the static layer under the pieces and marks.

    With an active cache: its raw pixels, kept beside the PNG ``referee build`` stores under
    the board's key (reading them back costs a fifth of decoding that PNG, which costs a fifth
    of drawing it; the pixels are the same, so the picture's bytes are too); else drawn here."""
    import io

    from PIL import Image

    from referee.cache import active, digest, valid_png
    from referee.render.board import board_png, render_board

    cache = active()
    if not cache.enabled:
        return render_board(module, dpi)
    from referee.render.artcache import BOARD_READS, board_key, narrowed

    key = board_key(module, dpi)
    raw_key = digest("board-rgb", key)
    raw = cache.get("raw", raw_key)
    if raw is not None:
        img = _from_raw(raw)
        if img is not None:
            return img
    data = cache.fetch("png", key, lambda: board_png(narrowed(module, BOARD_READS), dpi), valid_png)
    with Image.open(io.BytesIO(data)) as png:
        img = png.convert("RGB")
    cache.put("raw", raw_key, b"%d %d\n" % img.size + img.tobytes())
    return img


def _from_raw(raw: bytes) -> Any:
    """An RGB image from a ``raw`` cache entry (``"W H\\n"`` then the pixels), or ``None``
    when the entry does not hold exactly that many pixels."""
    from PIL import Image

    head, sep, pixels = raw.partition(b"\n")
    parts = head.split()
    if not sep or len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    w, h = int(parts[0]), int(parts[1])
    if w <= 0 or h <= 0 or len(pixels) != w * h * 3:
        return None
    return Image.frombytes("RGB", (w, h), pixels)


def position_png(
    module: Module,
    before: GameState | None,
    after: GameState,
    events: Iterable[Event],
    dpi: int = DEFAULT_DPI,
    phase_title: str | None = None,
) -> bytes:
    """The region of play at ``dpi`` with the pieces of ``after``, the marks of ``events``
    and a key listing every stack, headed by ``phase_title`` (the phase's human name; its id
    when ``None``) (see the module docstring)."""
    from PIL import Image, ImageDraw

    from referee.render.board import board_layout
    from referee.render.board_layers import anchor, disc_point, name_boxes
    from referee.render.colors import parse_color
    from referee.render.counters import png_bytes

    todo = marks(module, before, after, events)
    side_color = {s.id: parse_color(s.color) for s in module.sides}
    lay = board_layout(module, dpi)
    board = _board_image(module, dpi)
    draw = ImageDraw.Draw(board)
    hw = lay.hex_width if module.map.grid is not None else dpi * 0.4
    r = disc_radius(module, lay)
    w = max(2, round(hw / 16))
    drop = 0.0  # centred: the hex number is above the disc, a place name below it
    occupied = [h for h in sorted(after.stacks) if after.stacks[h] and is_place(module, h)]
    keys = stack_keys(occupied)
    names = name_boxes(module, lay) if module.map.zones is not None else {}

    def at(name: str) -> tuple[float, float]:
        return disc_point(module, lay, name, r, names)  # a zone's disc keeps off its name

    for hx in occupied:
        x, y = at(hx)
        y += drop
        first = after.units.get(after.stacks[hx][0])
        fill = side_color.get(first.side if first else "", (128, 128, 128))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=HALO, width=max(1, w // 2))
        label = keys[hx]
        draw.text(
            (x, y),
            label,
            fill=HALO,
            font=_font("bold", r * (1.05 if len(label) < 2 else 0.8)),
            anchor="mm",
        )
    for kind, hexes in todo:
        pts = [at(h) for h in hexes]
        pts = [(x, y + drop) for x, y in pts]
        if kind == "eliminate":
            (x, y) = pts[0]
            k = r * 1.15
            for a, b in (((x - k, y - k), (x + k, y + k)), ((x - k, y + k), (x + k, y - k))):
                draw.line((a, b), fill=HALO, width=w + 4)
                draw.line((a, b), fill=ATTACK, width=w + 2)
            continue
        color = {"attack": ATTACK, "retreat": RETREAT}.get(kind, MOVE)
        end = pts[-1]
        if hexes[-1] in keys and len(pts) >= 2:
            end = towards(pts[-2], pts[-1], r)  # the head touches the disc, not its letter
        _arrow(draw, [*pts[:-1], end], color, w, dashed=kind == "retreat", head=r * 0.9)
    region_of_play = play_region(module, after, todo) if module.map.grid is not None else []
    # a zone or port of a combined map (hexes with zones and spaces over them) is placed where
    # the board draws it, like a hex
    x0, y0, x1, y1 = crop_box(lay, [anchor(module, lay, h) for h in region_of_play])
    region = board.crop((x0, y0, x1, y1))
    panel = _key_panel(
        module,
        after,
        keys,
        eliminated_units(module, before, events),
        dpi,
        region.width,
        phase_title or after.phase,
    )
    out = Image.new("RGB", (max(region.width, panel.width), region.height + panel.height), PANEL)
    out.paste(region, (0, 0))
    out.paste(panel, (0, region.height))
    return png_bytes(out)


def disc_radius(module: Module, lay: Any) -> float:
    """A stack disc's radius in pixels. On a hex map a fifth of the hex width, clear of the
    hex number above and the place name below; on a map of spaces or zones 0.14 inch, so the
    key letter inside (about its diameter's half) reads at the default size, not a speck."""
    if module.map.grid is not None:
        return max(6.0, lay.hex_width * 0.2)
    return max(6.0, lay.dpi * 0.14)


def _font(role: str, size: float) -> Any:
    from referee.render.fonts import pil_font

    return pil_font(role, size)


def towards(a: Point, b: Point, d: float) -> Point:
    """The point ``d`` short of ``b`` on the segment from ``a`` (an arrow's head touching a
    disc, not its letter: the PNG's and the SVG's)."""
    length = math.dist(a, b)
    if length <= d:
        return b
    t = (length - d) / length
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def crop_box(lay: Any, points: Sequence[Point]) -> tuple[int, int, int, int]:
    """The map pixels round ``points`` (the places in play) with one and a half hexes to
    spare, inside the map; the whole map when nothing is on it (the PNG's and the SVG's)."""
    ox, oy = lay.map_origin
    mw, mh = lay.map_size
    if not points:
        return ox, oy, ox + mw, oy + mh
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    pad = lay.hex_width * 1.5
    return (
        max(ox, math.floor(min(xs) - pad)),
        max(oy, math.floor(min(ys) - pad)),
        min(ox + mw, math.ceil(max(xs) + pad)),
        min(oy + mh, math.ceil(max(ys) + pad)),
    )


def eliminated_units(
    module: Module, before: GameState | None, events: Iterable[Event]
) -> list[tuple[str, str]]:
    out = []
    for ev in events:
        if ev.kind != "eliminate":
            continue
        for u in _units(ev.data, "unit", "units"):
            hx = before.units[u].location if before and u in before.units else None
            out.append((u, hx or _first(_hexes(ev.data.get("hex"))) or ""))
    return out


def _key_panel(
    module: Module,
    after: GameState,
    keys: Mapping[str, str],
    eliminated: Sequence[tuple[str, str]],
    dpi: int,
    min_width: int,
    phase_title: str,
) -> Any:
    """The key below the map: what the marks mean, the side colours, every stack listed;
    headed by the turn and the phase's human name (``phase_title``)."""
    from PIL import Image, ImageDraw

    from referee.render.colors import parse_color

    u = dpi / 100.0
    size = 15 * u
    font, bold = _font("regular", size), _font("bold", size)
    line = round(size * 1.45)
    pad = round(12 * u)
    entries: list[tuple[str, str, tuple[int, int, int], str]] = []
    for hx, key in keys.items():
        ids = after.stacks[hx]
        first = after.units.get(ids[0])
        side = first.side if first else ""
        color = parse_color(next((s.color for s in module.sides if s.id == side), "#808080"))
        entries.append((key, f"{hx}", color, ", ".join(ids)))
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    col_w = max(
        [
            round(probe.textlength(f"{k}  {h}  {ids}", font=font) + size * 2.5)
            for k, h, _, ids in entries
        ]
        or [0]
    )
    width = max(min_width, round(680 * u), col_w + 2 * pad)
    cols = max(1, (width - 2 * pad) // max(1, col_w)) if entries else 1
    rows = math.ceil(len(entries) / cols)
    legend_rows = 2
    elim_rows = 1 if eliminated else 0
    height = pad * 2 + line * (1 + legend_rows + elim_rows + rows)
    img = Image.new("RGB", (width, height), PANEL)
    d = ImageDraw.Draw(img)
    y = pad
    d.text((pad, y), f"Game-Turn {after.turn}, {phase_title}: stacks by key", fill=INK, font=bold)
    y += line
    # legend: the marks, then the sides
    x = pad
    seg = 36 * u
    for label, color, dashed in (
        ("move / advance", MOVE, False),
        ("retreat", RETREAT, True),
        ("attack", ATTACK, False),
    ):
        cy = y + line / 2
        _arrow(d, [(x, cy), (x + seg, cy)], color, max(2, round(3 * u)), dashed=dashed, head=9 * u)
        d.text((x + seg + 6 * u, cy), label, fill=INK, font=font, anchor="lm")
        x += seg + 16 * u + d.textlength(label, font=font)
    cy = y + line / 2
    k = 7 * u
    d.line(((x, cy - k), (x + 2 * k, cy + k)), fill=ATTACK, width=max(2, round(3 * u)))
    d.line(((x, cy + k), (x + 2 * k, cy - k)), fill=ATTACK, width=max(2, round(3 * u)))
    d.text((x + 2 * k + 6 * u, cy), "eliminated", fill=INK, font=font, anchor="lm")
    y += line
    x = pad
    for s in module.sides:
        cy = y + line / 2
        rr = size * 0.55
        d.ellipse((x, cy - rr, x + 2 * rr, cy + rr), fill=parse_color(s.color))
        d.text((x + 2 * rr + 6 * u, cy), s.name, fill=INK, font=font, anchor="lm")
        x += 2 * rr + 24 * u + d.textlength(s.name, font=font)
    d.text(
        (x, y + line / 2),
        "(the disc's letter is the stack's key below)",
        fill=INK,
        font=font,
        anchor="lm",
    )
    y += line
    if eliminated:
        text = "Eliminated: " + ", ".join(
            f"{unit} ({hx})" if hx else unit for unit, hx in eliminated
        )
        d.text((pad, y + line / 2), text, fill=ATTACK, font=bold, anchor="lm")
        y += line
    for n, (key, hx, color, ids) in enumerate(entries):
        col, row = divmod(n, rows) if rows else (0, 0)
        x = pad + col * col_w
        cy = y + row * line + line / 2
        rr = size * 0.62
        d.ellipse((x, cy - rr, x + 2 * rr, cy + rr), fill=color)
        d.text(
            (x + rr, cy),
            key,
            fill=HALO,
            font=_font("bold", size * (0.8 if len(key) < 2 else 0.6)),
            anchor="mm",
        )
        tx = x + 2 * rr + 6 * u
        d.text((tx, cy), hx, fill=INK, font=bold, anchor="lm")
        d.text((tx + d.textlength(hx + "  ", font=bold), cy), ids, fill=INK, font=font, anchor="lm")
    return img


def _arrow(
    draw: Any,
    pts: list[Point],
    color: tuple[int, int, int],
    width: int,
    *,
    dashed: bool,
    head: float,
) -> None:
    for a, b in itertools.pairwise(pts):
        if dashed:
            _dashed(draw, a, b, color, width, head * 0.6)
        else:
            draw.line((a, b), fill=color, width=width)
    if len(pts) < 2:
        return
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    left = (x1 - head * math.cos(ang - 0.45), y1 - head * math.sin(ang - 0.45))
    right = (x1 - head * math.cos(ang + 0.45), y1 - head * math.sin(ang + 0.45))
    draw.polygon([(x1, y1), left, right], fill=color)


def _dashed(
    draw: Any, a: Point, b: Point, color: tuple[int, int, int], width: int, dash: float
) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    n = max(1, int(length // (2 * dash)))
    for i in range(n):
        t0, t1 = (2 * i) * dash / length, min(1.0, (2 * i + 1) * dash / length)
        draw.line(
            (
                (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
            ),
            fill=color,
            width=width,
        )
