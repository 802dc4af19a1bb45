"""The picture of the position in an HTML report: the board with the pieces and what moved.

Drawn on top of :func:`referee.render.board.render_board` through its ``overlay`` hook, so the
hexes are exactly those of the printed map and the VASSAL module. Marks:

* each occupied hex: a disc in the owning side's colour with the number of pieces;
* a move: a solid arrow along its path; a retreat: a dashed arrow; an advance after combat:
  a solid arrow;
* an attack: a red arrow from the attackers to the target;
* an elimination: a red cross on the hex where the piece was.

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

    grid = module.map.grid
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
            out.append((kind, [h for h in path if grid.is_valid_id(h)]))
        elif ev.kind == "attack":
            src = [where(u) for u in _units(d, "unit", "units", "attackers")]
            tgt = [where(u) for u in _units(d, "target", "targets")] + [
                t.removeprefix("hex:") for t in _hexes(d.get("targets")) if t.startswith("hex:")
            ]
            tgt += _hexes(d.get("hex"))
            for s in sorted({h for h in src if h}):
                for t in sorted({h for h in tgt if h and grid.is_valid_id(h)}):
                    if s != t:
                        out.append(("attack", [s, t]))
        elif ev.kind == "eliminate":
            for u in _units(d, "unit", "units"):
                hx = before.units[u].location if before and u in before.units else None
                hx = hx or _first(_hexes(d.get("hex")))
                if hx and grid.is_valid_id(hx):
                    out.append(("eliminate", [hx]))
    return out


def _first(xs: list[str]) -> str | None:
    return xs[0] if xs else None


def position_png(
    module: Module,
    before: GameState | None,
    after: GameState,
    events: Iterable[Event],
    dpi: int,
) -> bytes:
    """The board at ``dpi`` with the pieces of ``after`` and the marks of ``events``."""
    from PIL import ImageDraw

    from referee.render.board import BoardLayout, render_board
    from referee.render.colors import parse_color
    from referee.render.counters import png_bytes
    from referee.render.fonts import pil_font

    todo = marks(module, before, after, events)
    side_color = {s.id: parse_color(s.color) for s in module.sides}

    def overlay(draw: ImageDraw.ImageDraw, lay: BoardLayout) -> None:
        r = max(4.0, lay.hex_width * 0.28)
        w = max(2, round(lay.hex_width / 14))
        font = pil_font("bold", max(8.0, r * 1.1))
        for hx in sorted(after.stacks):
            ids = after.stacks[hx]
            if not ids or not module.map.grid.is_valid_id(hx):
                continue
            x, y = lay.pixel_centre(hx)
            first = after.units.get(ids[0])
            fill = side_color.get(first.side if first else "", (128, 128, 128))
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=(0, 0, 0), width=1)
            draw.text((x, y), str(len(ids)), fill=(255, 255, 255), font=font, anchor="mm")
        for kind, hexes in todo:
            pts = [lay.pixel_centre(h) for h in hexes]
            if kind == "eliminate":
                (x, y) = pts[0]
                k = r * 1.2
                draw.line((x - k, y - k, x + k, y + k), fill=ATTACK, width=w + 1)
                draw.line((x - k, y + k, x + k, y - k), fill=ATTACK, width=w + 1)
                continue
            color = {"attack": ATTACK, "retreat": RETREAT}.get(kind, MOVE)
            _arrow(draw, pts, color, w, dashed=kind == "retreat", head=r * 0.9)

    img = render_board(module, dpi, overlay=overlay)
    return png_bytes(img)


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
