"""Load the area and point-to-point parts of ``map.toml`` (docs/module-source.md, "Maps").

The hex loader (:mod:`referee.source.loader`) reads ``[grid]`` and the hex layers; this module
reads everything else a map may declare: the drawing surface ``[board]`` of a map without a
hex grid, the zone and space types, and (through :mod:`referee.source.load_area` and
:mod:`referee.source.load_points`) the zones, boundaries, spaces, links and lines. Like every
loader it collects problems with ``file:line:col`` and never raises for bad input.

Coordinates are read in the designer's unit (``[board] unit``: ``px`` at ``dpi`` pixels an
inch, ``in`` or ``mm``; on a hex map ``px`` at 100 dpi of the hex grid without margin) and
stored in inches.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from referee.source.diagnostics import Diagnostics, did_you_mean
from referee.source.mapkinds import ANY_KIND, Canvas, LocationType, Point, PropValue
from referee.source.model import Origin
from referee.source.tomlpos import TomlText

MAP_KIND_KEYS = ("board", "zone_type", "zone", "boundary", "space_type", "space", "link", "line")
"""Top-level keys of ``map.toml`` this module reads (added to the hex loader's list)."""

NAME_RE = re.compile(r"^[^\x00-\x1f\"$\\/:;,]{1,60}$")
"""A zone or space name: what VASSAL can show as a location (no ``$``, ``;``, ``,``, ``/`` or
quotes, which its formats and saves use as separators) and an orders file can quote."""
COLOR_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")
UNITS = {"px": None, "in": 1.0, "mm": 25.4}
MAX_LOCATIONS = 5000
_HEADER = re.compile(r"^\s*\[\[?\s*[A-Za-z_][\w.\-]*\s*\]\]?\s*(#.*)?$")


@dataclass(slots=True)
class Blocks:
    """Line positions inside ``map.toml`` for one array of tables (``[[zone]]``...). Unlike
    :meth:`TomlText.key_line` it lets an array continue over lines that start with ``[``
    (an outline written one corner a line)."""

    tt: TomlText
    header: str
    starts: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.starts = self.tt.block_starts(self.header)

    def start(self, i: int) -> int | None:
        return self.starts[i] if i < len(self.starts) else None

    def _end(self, start: int) -> int:
        lines = self.tt.lines
        for i in range(start, len(lines)):
            if _HEADER.match(lines[i]):
                return i
        return len(lines)

    def key(self, i: int, key: str) -> int | None:
        """Line of ``key = ...`` in block ``i`` (the block's own line when absent)."""
        start = self.start(i)
        if start is None:
            return None
        pat = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for n in range(start, self._end(start)):
            if pat.match(self.tt.lines[n]):
                return n + 1
        return start

    def value(self, i: int, value: str, key: str | None = None) -> tuple[int | None, int | None]:
        """Line and column of the quoted ``value`` in block ``i`` (after ``key`` if given)."""
        start = self.start(i)
        if start is None:
            return None, None
        first = (self.key(i, key) or start) if key else start
        needle = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        for n in range(first - 1, self._end(start)):
            col = self.tt.lines[n].find(needle)
            if col >= 0:
                return n + 1, col + 2
        return first, None


@dataclass(slots=True)
class MapCtx:
    """What the map-kind loaders share: the file, its text positions and the diagnostics,
    the surface (to convert and bound coordinates) and the hex grid of a combined map."""

    file: str
    tt: TomlText
    diags: Diagnostics
    canvas: Canvas
    grid: Any = None  # referee.hexgrid.HexGrid of a combined map

    def error(
        self, line: int | None, msg: str, *, col: int | None = None, hint: str | None = None
    ) -> None:
        self.diags.error(self.file, line, msg, col=col, hint=hint)

    def tables(self, data: dict[str, Any], key: str, allowed: tuple[str, ...]) -> list[dict]:
        """``[[key]]`` blocks; reports a non-table and every unknown key."""
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.error(self.tt.table_start(key), f"'{key}' must be an array of tables ([[{key}]])")
            return []
        if len(value) > MAX_LOCATIONS:
            self.error(None, f"more than {MAX_LOCATIONS} [[{key}]] tables")
            return []
        blocks = Blocks(self.tt, key)
        for i, t in enumerate(value):
            for k in t:
                if k not in allowed:
                    self.error(
                        blocks.key(i, k),
                        f"unknown key {k!r} in [[{key}]]",
                        hint=did_you_mean(k, allowed) or "keys: " + ", ".join(allowed),
                    )
        return value

    def point(self, raw: object, line: int | None, what: str) -> Point | None:
        """``[x, y]`` in the designer's unit, as inches; ``None`` (reported) when malformed or
        off the board."""
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
            or not all(math.isfinite(v) for v in raw)
        ):
            self.error(line, f"{what} must be [x, y] (two numbers), got {raw!r}")
            return None
        k = self.canvas.per_inch
        p = (float(raw[0]) / k, float(raw[1]) / k)
        eps = 1e-9
        if not (
            -eps <= p[0] <= self.canvas.width + eps and -eps <= p[1] <= self.canvas.height + eps
        ):
            w, h = self.canvas.to_source((self.canvas.width, self.canvas.height))
            self.error(
                line,
                f"{what} [{raw[0]}, {raw[1]}] is off the board",
                hint=f"the board is {w:g} x {h:g} {self.canvas.unit}; x runs right, y down "
                "from the top-left corner",
            )
            return None
        return p


def load_canvas(data: dict[str, Any], tt: TomlText, file: str, diags: Diagnostics) -> Canvas | None:
    """``[board]``: the surface of a map without a hex grid. ``width``/``height`` in ``unit``
    (``px`` with ``dpi``, ``in`` or ``mm``)."""
    b = data.get("board")
    bl = tt.table_start("board")
    if not isinstance(b, dict):
        diags.error(
            file,
            bl,
            "a map without [grid] needs a [board] table (width, height, unit)",
            hint='e.g. [board] width = 1200, height = 800, unit = "px", dpi = 100',
        )
        return None
    for k in b:
        if k not in ("width", "height", "unit", "dpi", "image"):
            diags.error(
                file,
                tt.key_line(k, start=bl),
                f"unknown key {k!r} in [board]",
                hint=did_you_mean(k, ["width", "height", "unit", "dpi", "image"])
                or "keys: width, height, unit, dpi, image",
            )
    unit = b.get("unit", "px")
    if not isinstance(unit, str) or unit not in UNITS:
        diags.error(
            file,
            tt.key_line("unit", start=bl),
            f"[board] unit must be one of 'px', 'in', 'mm', got {unit!r}",
        )
        return None
    per_inch = UNITS[unit]
    if per_inch is None:
        dpi = b.get("dpi", 100)
        if isinstance(dpi, bool) or not isinstance(dpi, int | float) or not 10 <= dpi <= 1200:
            diags.error(
                file,
                tt.key_line("dpi", start=bl),
                f"[board] dpi must be a number from 10 to 1200, got {dpi!r}",
                hint="the pixels an inch of the picture you read the coordinates from",
            )
            return None
        per_inch = float(dpi)
    elif "dpi" in b:
        diags.error(file, tt.key_line("dpi", start=bl), '[board] dpi is only for unit = "px"')
    size = []
    for k in ("width", "height"):
        v = b.get(k)
        if isinstance(v, bool) or not isinstance(v, int | float) or not v > 0:
            diags.error(
                file,
                tt.key_line(k, start=bl),
                f"[board] {k} must be a positive number, got {v!r}",
            )
            return None
        size.append(float(v) / per_inch)
    if not all(1.0 <= s <= 100.0 for s in size):
        diags.error(
            file,
            bl,
            f"[board] is {size[0]:.2f} x {size[1]:.2f} inches; a board is 1 to 100 inches a side",
            hint="check unit and dpi",
        )
        return None
    return Canvas(size[0], size[1], str(unit), per_inch)


def load_types(mc: MapCtx, data: dict[str, Any], key: str) -> dict[str, LocationType]:
    """``[[zone_type]]`` or ``[[space_type]]``: id, name, color, closed_to."""
    out: dict[str, LocationType] = {}
    blocks = Blocks(mc.tt, key)
    for i, t in enumerate(mc.tables(data, key, ("id", "name", "color", "closed_to"))):
        ln = blocks.start(i)
        tid = t.get("id")
        if not isinstance(tid, str) or not re.match(r"^[A-Za-z][A-Za-z0-9_\-]*$", tid):
            mc.error(blocks.key(i, "id"), f'[[{key}]] id must be a word like "sea", got {tid!r}')
            continue
        if tid in out:
            mc.error(
                blocks.key(i, "id"),
                f"[[{key}]] {tid!r} is declared twice",
                hint=f"the first is at line {out[tid].origin.line}",
            )
            continue
        name = t.get("name", tid)
        if not isinstance(name, str):
            mc.error(blocks.key(i, "name"), f"[[{key}]] {tid}: name must be a string")
            name = tid
        color = t.get("color")
        if not isinstance(color, str) or not COLOR_RE.match(color):
            mc.error(
                blocks.key(i, "color"),
                f'[[{key}]] {tid}: color must be like "#9CC3E6", got {color!r}',
            )
            color = "#808080"
        closed = kinds(mc, t.get("closed_to", []), blocks.key(i, "closed_to"), f"{tid}: closed_to")
        out[tid] = LocationType(tid, name, color.upper(), closed, Origin(mc.file, ln))
    return out


def kinds(mc: MapCtx, raw: object, line: int | None, what: str) -> frozenset[str]:
    """A list of movement kinds (``["naval", "ground"]``, or ``["*"]`` for every kind)."""
    if not isinstance(raw, list) or not all(
        isinstance(k, str) and (k == ANY_KIND or re.match(r"^[a-z][a-z0-9_]*$", k)) for k in raw
    ):
        mc.error(
            line,
            f'{what} must be a list of movement kinds like ["naval", "ground"], got {raw!r}',
            hint='kinds are lower-case words your ruleset uses; "*" means every kind',
        )
        return frozenset()
    return frozenset(raw)


def properties(mc: MapCtx, raw: object, line: int | None, what: str) -> dict[str, PropValue]:
    """``properties = { base = "NATO", capacity = 2 }``: strings, numbers, booleans or lists
    of strings, kept as given (sorted by key) for the ruleset to read."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        mc.error(line, f"{what}: properties must be a table like {{ capacity = 2 }}")
        return {}
    out: dict[str, PropValue] = {}
    for k in sorted(raw):
        v = raw[k]
        if isinstance(v, str | int | float | bool):
            out[k] = v
        elif isinstance(v, list) and all(isinstance(x, str) for x in v):
            out[k] = tuple(v)
        else:
            mc.error(
                line,
                f"{what}: property {k!r} must be a string, number, true/false or a list of "
                f"strings, got {v!r}",
            )
    return out


def location_name(mc: MapCtx, raw: object, line: int | None, what: str) -> str | None:
    if not isinstance(raw, str) or not NAME_RE.match(raw) or raw != raw.strip():
        mc.error(
            line,
            f"{what} name must be 1 to 60 characters without quotes, '$', ';', ',', ':', '/' or "
            f"'\\', and no leading or trailing space, got {raw!r}",
        )
        return None
    return raw


def type_of(
    mc: MapCtx,
    raw: object,
    types: dict[str, LocationType],
    line: int | None,
    col: int | None,
    what: str,
    key: str,
) -> str | None:
    if not isinstance(raw, str) or raw not in types:
        mc.error(
            line,
            f"{what}: unknown type {raw!r}",
            col=col,
            hint=did_you_mean(str(raw), list(types))
            or (f"declare it with [[{key}]]" if not types else "types: " + ", ".join(types)),
        )
        return None
    return raw
