"""The anchors file of ``referee map-from-geo``: grid, anchors, fit and classification options.

One small TOML file (see ``docs/module-source.md``, "A map from real geography")::

    [grid]                    # the very keys of map.toml's [grid]: copy it from there
    columns = 10
    rows = 8
    orientation = "pointy"
    shifted = "even"
    rows_grow = "north"
    id_format = "RRCC"

    [fit]                     # optional
    projection = "stereographic"
    model = "similarity"
    max_residual = 1.0

    [classify]                # optional
    samples = 3
    coastal_from = 0.1
    land_from = 0.9
    sea = "."
    coastal = "c"
    land = "#"

    [[anchor]]
    hex = "0405"
    name = "Tarifa"
    lat = 36.013
    lon = -5.606

    [[expect]]                # optional: what the text says a hex must be
    hex = "0506"
    terrain = "sea"           # or a list, e.g. ["sea", "coastal"]
    # lat_min = 68.0          # and/or bounds on the latitude of the hex's centre

Loading collects every problem as a ``file:line:col`` diagnostic, like ``referee check``.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.geo.fit import MODELS, Anchor, FitModel
from referee.geo.projection import PROJECTIONS, ProjectionKind
from referee.hexgrid import HexGrid
from referee.numerals import is_digits
from referee.source.base import Ctx
from referee.source.diagnostics import Diagnostics, suggest
from referee.source.maps import load_grid
from referee.source.tomlpos import TomlText, toml_error_position

# The [grid] table is map.toml's, read by the same function, so a designer copies it either way.
GRID_KEYS = (
    "columns",
    "rows",
    "orientation",
    "shifted",
    "rows_grow",
    "id_format",
    "first_column",
    "first_row",
    "hex_width_in",
)
TOP_KEYS = ("grid", "fit", "classify", "anchor", "expect")
FIT_KEYS = ("projection", "model", "max_residual")
CLASSIFY_KEYS = ("samples", "coastal_from", "land_from", "sea", "coastal", "land")
ANCHOR_KEYS = ("hex", "name", "lat", "lon", "weight", "note", "off_map")
EXPECT_KEYS = ("hex", "terrain", "lat_min", "lat_max", "note")
TERRAINS = ("sea", "coastal", "land")
CELL_RE = re.compile(r"^[^\s|]$")


@dataclass(frozen=True, slots=True)
class Classify:
    """How sample points become a terrain character.

    A hex is ``land`` when at least ``land_from`` of its sample points are on land, ``sea``
    when fewer than ``coastal_from`` are, and ``coastal`` in between. ``samples`` is the number
    of rings of sample points: ``1 + 3n(n+1)`` points on a triangular lattice filling the hex
    (3 rings: 37 points), each standing for an equal share of its area.
    """

    samples: int = 3
    coastal_from: float = 0.1
    land_from: float = 0.9
    chars: dict[str, str] = field(default_factory=lambda: {"sea": ".", "coastal": "c", "land": "#"})


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the designer (or the rulebook) says a hex must be: one of ``terrain`` (empty: any),
    and its centre between ``lat_min`` and ``lat_max`` degrees when given."""

    hex: str
    terrain: tuple[str, ...]
    lat_min: float | None
    lat_max: float | None
    note: str
    line: int | None


@dataclass(frozen=True, slots=True)
class GeoSpec:
    grid: HexGrid
    anchors: tuple[Anchor, ...]
    projection: ProjectionKind = "stereographic"
    model: FitModel = "similarity"
    max_residual: float = 1.0
    classify: Classify = field(default_factory=Classify)
    expectations: tuple[Expectation, ...] = ()


def parse_spec(text: str, file: str, diags: Diagnostics) -> GeoSpec | None:
    """The spec in ``text``, or ``None`` with every problem in ``diags``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        ln, col = toml_error_position(str(exc), text)
        msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        diags.error(file, ln, f"malformed TOML: {msg}", col=col, hint="check quotes and '='")
        return None
    tt = TomlText(text)
    r = _Reader(file, tt, diags)
    r.unknown_keys(data, TOP_KEYS, None, "top level")
    grid = r.grid(data)
    fit = r.table(data, "fit", FIT_KEYS)
    projection = r.choice(fit, "projection", PROJECTIONS, "fit")
    model = r.choice(fit, "model", MODELS, "fit")
    max_residual = r.number(fit, "max_residual", "fit", 1.0, 0.01, 100.0)
    cl = r.table(data, "classify", CLASSIFY_KEYS)
    samples = r.integer(cl, "samples", "classify", 3, 0, 12)
    coastal_from = r.number(cl, "coastal_from", "classify", 0.1, 0.0, 1.0)
    land_from = r.number(cl, "land_from", "classify", 0.9, 0.0, 1.0)
    if coastal_from > land_from:
        diags.error(
            file,
            tt.table_start("classify"),
            f"[classify] coastal_from ({coastal_from}) is above land_from ({land_from})",
            hint="a hex is sea below coastal_from, land from land_from, coastal between",
        )
    chars = {t: r.cell(cl, t, Classify().chars[t]) for t in TERRAINS}
    if len(set(chars.values())) != len(chars):
        diags.error(
            file, tt.table_start("classify"), "[classify] sea, coastal and land need three chars"
        )
    anchors = r.anchors(data, grid)
    expectations = r.expectations(data, grid)
    if diags.errors or grid is None:
        return None
    return GeoSpec(
        grid=grid,
        anchors=tuple(anchors),
        projection=projection,  # type: ignore[arg-type]
        model=model,  # type: ignore[arg-type]
        max_residual=max_residual,
        classify=Classify(samples, coastal_from, land_from, chars),
        expectations=tuple(expectations),
    )


@dataclass(slots=True)
class _Reader:
    file: str
    tt: TomlText
    diags: Diagnostics

    def error(self, line: int | None, msg: str, hint: str | None = None) -> None:
        self.diags.error(self.file, line, msg, col=1 if line else None, hint=hint)

    def unknown_keys(
        self, table: dict[str, Any], allowed: tuple[str, ...], line: int | None, where: str
    ) -> None:
        for key in table:
            if key not in allowed:
                guess = suggest(key, allowed)
                self.error(
                    self.tt.key_line(key, start=line) if line else self._top_line(key),
                    f"unknown key {key!r} in {where}",
                    hint=f"did you mean {guess!r}?" if guess else "expected: " + ", ".join(allowed),
                )

    def _top_line(self, key: str) -> int | None:
        return (
            self.tt.table_start(key)
            or next(iter(self.tt.block_starts(key)), None)
            or self.tt.key_line(key)
        )

    def table(self, data: dict[str, Any], name: str, keys: tuple[str, ...]) -> dict[str, Any]:
        t = data.get(name, {})
        if not isinstance(t, dict):
            self.error(self._top_line(name), f"[{name}] must be a table")
            return {}
        self.unknown_keys(t, keys, self.tt.table_start(name), f"[{name}]")
        return t

    def _line(self, where: str, key: str) -> int | None:
        return self.tt.key_line(key, start=self.tt.table_start(where))

    def choice(self, t: dict[str, Any], key: str, allowed: tuple[str, ...], where: str) -> str:
        v = t.get(key, allowed[0])
        if v not in allowed:
            self.error(
                self._line(where, key),
                f"[{where}] {key} must be one of "
                + ", ".join(repr(a) for a in allowed)
                + f", got {v!r}",
            )
            return allowed[0]
        return str(v)

    def integer(
        self, t: dict[str, Any], key: str, where: str, default: int, lo: int, hi: int
    ) -> int:
        v = t.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            self.error(
                self._line(where, key),
                f"[{where}] {key} must be a whole number {lo}..{hi}, got {v!r}",
            )
            return default
        return v

    def number(
        self, t: dict[str, Any], key: str, where: str, default: float, lo: float, hi: float
    ) -> float:
        v = t.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= float(v) <= hi:
            self.error(
                self._line(where, key), f"[{where}] {key} must be a number {lo}..{hi}, got {v!r}"
            )
            return default
        return float(v)

    def cell(self, t: dict[str, Any], key: str, default: str) -> str:
        v = t.get(key, default)
        if not isinstance(v, str) or not CELL_RE.match(v):
            self.error(
                self._line("classify", key),
                f"[classify] {key} must be one printable character (not '|'), got {v!r}",
                hint="use the char column of the module's tables/terrain.csv",
            )
            return default
        return v

    def grid(self, data: dict[str, Any]) -> HexGrid | None:
        """``[grid]``, read by the module source's own reader (``referee/source/maps.py``), so
        the keys, defaults and messages are those of ``map.toml``."""
        g = data.get("grid")
        if isinstance(g, dict):
            self.unknown_keys(g, GRID_KEYS, self.tt.table_start("grid"), "[grid]")
        return load_grid(Ctx(Path("."), self.diags), self.file, self.tt, data)

    def _blocks(self, data: dict[str, Any], name: str) -> list[tuple[dict[str, Any], int | None]]:
        items = data.get(name, [])
        starts = self.tt.block_starts(name)
        if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
            self.error(self._top_line(name), f"{name} must be written as [[{name}]] tables")
            return []
        return [(t, starts[i] if i < len(starts) else None) for i, t in enumerate(items)]

    def _hex(
        self,
        t: dict[str, Any],
        ln: int | None,
        grid: HexGrid | None,
        what: str,
        off_map: bool = False,
    ) -> str | None:
        v = t.get("hex")
        line = self._key(ln, "hex")
        if not isinstance(v, str):
            self.error(
                line, f'[[{what}]] needs hex = "CCRR" (a quoted four-digit hex id), got {v!r}'
            )
            return None
        if grid is None:
            return None
        if off_map and len(v) == 4 and is_digits(v):
            return v
        try:
            grid.parse_id(v)
        except ValueError as exc:
            pos = self.tt.value_pos(v, start=ln)
            order = "column, then row" if grid.id_format == "CCRR" else "row, then column"
            self.diags.error(
                self.file,
                pos[0],
                f"[[{what}]] {exc}",
                col=pos[1],
                hint=f"ids are {grid.id_format} ({order}); a place beyond the edge takes "
                "off_map = true",
            )
            return None
        return v

    def anchors(self, data: dict[str, Any], grid: HexGrid | None) -> list[Anchor]:
        out: list[Anchor] = []
        for t, ln in self._blocks(data, "anchor"):
            self.unknown_keys(t, ANCHOR_KEYS, ln, "[[anchor]]")
            off_map = t.get("off_map", False)
            if not isinstance(off_map, bool):
                self.error(self._key(ln, "off_map"), "[[anchor]] off_map must be true or false")
                off_map = False
            hex_id = self._hex(t, ln, grid, "anchor", off_map)
            lat = self._coord(t, ln, "lat", 90.0)
            lon = self._coord(t, ln, "lon", 180.0)
            weight = t.get("weight", 1.0)
            if (
                isinstance(weight, bool)
                or not isinstance(weight, int | float)
                or not 0 <= weight <= 100
            ):
                self.error(
                    self._key(ln, "weight"),
                    f"[[anchor]] weight must be a number 0..100, got {weight!r}",
                )
                weight = 1.0
            name = t.get("name", "")
            note = t.get("note", "")
            for key, val in (("name", name), ("note", note)):
                if not isinstance(val, str):
                    self.error(self._key(ln, key), f"[[anchor]] {key} must be a string")
            if hex_id is None or lat is None or lon is None:
                continue
            out.append(Anchor(hex_id, lat, lon, str(name), float(weight), ln, str(note), off_map))
        return out

    def _key(self, ln: int | None, key: str) -> int | None:
        return self.tt.key_line(key, start=ln) if ln else None

    def _coord(self, t: dict[str, Any], ln: int | None, key: str, limit: float) -> float | None:
        v = t.get(key)
        line = self._key(ln, key)
        if (
            isinstance(v, bool)
            or not isinstance(v, int | float)
            or not math.isfinite(v)
            or abs(v) > limit
        ):
            self.error(
                line,
                f"[[anchor]] {key} must be decimal degrees within ±{limit:g}, got {v!r}",
                hint="north and east are positive: 64.0 N, 22.6 W is lat = 64.0, lon = -22.6",
            )
            return None
        return float(v)

    def expectations(self, data: dict[str, Any], grid: HexGrid | None) -> list[Expectation]:
        out: list[Expectation] = []
        for t, ln in self._blocks(data, "expect"):
            self.unknown_keys(t, EXPECT_KEYS, ln, "[[expect]]")
            hex_id = self._hex(t, ln, grid, "expect")
            raw = t.get("terrain", [])
            terrains = [raw] if isinstance(raw, str) else raw
            if not isinstance(terrains, list) or any(x not in TERRAINS for x in terrains):
                self.error(
                    self._key(ln, "terrain"),
                    f"[[expect]] terrain must be one of {', '.join(TERRAINS)} (or a list of "
                    f"them), got {raw!r}",
                )
                continue
            bounds: list[float | None] = []
            for key in ("lat_min", "lat_max"):
                v = t.get(key)
                if v is not None and (
                    isinstance(v, bool) or not isinstance(v, int | float) or abs(v) > 90
                ):
                    self.error(self._key(ln, key), f"[[expect]] {key} must be degrees, got {v!r}")
                    v = None
                bounds.append(None if v is None else float(v))
            if not terrains and bounds == [None, None]:
                self.error(ln, "[[expect]] needs terrain, lat_min or lat_max")
                continue
            note = t.get("note", "")
            if hex_id is not None:
                out.append(
                    Expectation(hex_id, tuple(terrains), bounds[0], bounds[1], str(note), ln)
                )
        return out
