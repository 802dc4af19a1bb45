"""Charts and tables made from module data, in one print style that reads in black and white.

The charts: the Combat Results Table [8.8]/[8.9], the Terrain Effects Chart [10.0], the Level
of Victory table [13.2] (or the case ``[victory] rule`` of the chart texts names), a Turn
Record / Reinforcement Track per scenario, a set-up card per side per scenario [11.0], and a
sequence-of-play card [4.0]. Every number comes from the module
source; the rules text that explains the numbers (footnotes, the sequence of play) comes from
``templates/charts/<ruleset>.toml``, so another rule system supplies its own words.

Each chart is a :class:`~referee.render.drawing.Drawing` in points, drawn as vector text into
the PDF and rasterised for the PNGs (the VASSAL module shows the CRT and TEC PNGs in its charts
window). Every text cell is measured with the embedded font's metrics and recorded in
``Chart.cells``, so tests can check nothing overflows.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.errors import UserError
from referee.render.drawing import Circle, Drawing, Line, Rect, Text, to_image
from referee.render.fonts import text_width_pt
from referee.resources import templates_dir
from referee.source.boxes import carrier_of
from referee.source.model import Module, Reinforcement, Scenario, SetupPool

if TYPE_CHECKING:
    from referee.render.printcolor import CmykProfile

MAX_WIDTH = 540.0  # 7.5 in: the printable width of letter and A4 with 0.5 in margins
MIN_WIDTH = 360.0
MARGIN = 10.0
BODY = 8.0
SMALL = 6.8
MIN_BODY = 6.0
PAD_X = 4.0
PAD_Y = 2.6
LEADING = 1.22
HEADER_FILL = "#D4D4D4"
STRIPE = "#F0F0F0"
NIGHT_FILL = "#A8A8A8"
BLACK = "#000000"
DASH = "\u2013"  # en dash: may not enter / no value
MINUS = "\u2212"


@dataclass(frozen=True, slots=True)
class CellFit:
    """A measured text cell: ``text_w`` of the longest line against the room in its box."""

    chart: str
    where: str
    text: str
    text_w: float
    room_w: float
    text_h: float
    room_h: float

    @property
    def fits(self) -> bool:
        return self.text_w <= self.room_w + 1e-6 and self.text_h <= self.room_h + 1e-6


@dataclass(slots=True)
class Chart:
    name: str
    title: str
    drawing: Drawing
    cells: list[CellFit] = field(default_factory=list)


# ---- ruleset texts -----------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _ruleset_texts_cached(path: str, mtime_ns: int) -> dict[str, Any]:
    from referee.safeio import read_text

    try:
        return tomllib.loads(read_text(Path(path)))
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: {exc}", hint="fix the chart text file's TOML") from None


def ruleset_texts(ruleset: str) -> dict[str, Any]:
    """``templates/charts/<ruleset>.toml``, or an empty table when the ruleset has none."""
    path = templates_dir() / "charts" / f"{ruleset}.toml"
    if not path.is_file():
        return {}
    return _ruleset_texts_cached(str(path), path.stat().st_mtime_ns)


# ---- text measuring and wrapping ---------------------------------------------------------------
def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap to ``width`` points. A word may also break after a slash
    ("Yugoslav/Albanian"); a piece longer than the line stays whole, and the cell is then
    reported as not fitting."""
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            for k, piece in enumerate(_word_pieces(word)):
                sep = "" if k else " "
                trial = f"{line}{sep}{piece}" if line else piece
                if not line or text_width_pt(trial, font, size) <= width:
                    line = trial
                else:
                    out.append(line)
                    line = piece
        out.append(line)
    return out


def _word_pieces(word: str) -> list[str]:
    """``word`` split after each slash that has a letter after it."""
    return re.split(r"(?<=/)(?=\w)", word)


@dataclass(slots=True)
class Column:
    header: str
    align: str = "center"  # left | center | right
    wrap: bool = False
    max_w: float = 200.0
    font: str = "regular"
    swatch: bool = False


class Builder:
    """Lays a chart out top to bottom at a cursor ``y``."""

    def __init__(self, name: str, title: str, width: float) -> None:
        self.name = name
        self.title = title
        self.width = width
        self.items: list[Any] = []
        self.cells: list[CellFit] = []
        self.y = 0.0

    @property
    def inner(self) -> float:
        return self.width - 2 * MARGIN

    def title_band(self, text: str) -> None:
        """The black title band; a long title is set smaller (down to 7 pt), never clipped."""
        h = 22.0
        room = self.width - 2 * MARGIN
        size = 11.5
        natural = text_width_pt(text, "bold", size)
        if natural > room:
            size = max(7.0, math.floor(size * room / natural * 10) / 10)
        self.items.append(Rect(0, 0, self.width, h, BLACK))
        self.items.append(Text(MARGIN, 11 + size * 0.36, text, "bold", size, "#FFFFFF"))
        self._fit("title", text, "bold", size, room, h)
        self.y = h + 8

    def heading(self, text: str) -> None:
        self.y += 4
        self.items.append(Text(MARGIN, self.y + 9, text, "bold", 9.0, BLACK))
        self._fit("heading", text, "bold", 9.0, self.inner, 12)
        self.y += 13

    def paragraph(
        self, text: str, size: float = BODY, font: str = "regular", indent: float = 0.0
    ) -> None:
        width = self.inner - indent
        for line in wrap(text, font, size, width):
            self.items.append(Text(MARGIN + indent, self.y + size, line, font, size, BLACK))
            self._fit("paragraph", line, font, size, width, size * LEADING)
            self.y += size * LEADING
        self.y += 2

    def notes(self, notes: list[str]) -> None:
        for note in notes:
            self.paragraph(note, SMALL, indent=0)

    def _fit(
        self, where: str, text: str, font: str, size: float, room_w: float, room_h: float
    ) -> None:
        self.cells.append(
            CellFit(
                self.name, where, text, text_width_pt(text, font, size), room_w, size * 1.0, room_h
            )
        )

    def table(
        self,
        columns: list[Column],
        rows: list[list[str]],
        *,
        group: tuple[str, int, int] | None = None,
        swatches: list[str | None] | None = None,
        shade: set[int] | None = None,
        size: float = BODY,
    ) -> None:
        """A ruled table at the cursor: bold header (optionally a group header spanning
        columns ``group[1]..group[2]``), striped rows, wrapped text where a column says so."""
        widths = self._widths(columns, rows, size, swatches)
        total = sum(widths)
        if total > self.inner + 1e-6 and size > MIN_BODY:
            self.table(
                columns,
                rows,
                group=group,
                swatches=swatches,
                shade=shade,
                size=max(MIN_BODY, size - 0.5),
            )
            return
        x0 = (
            MARGIN + max(0.0, (self.inner - total) / 2)
            if not any(c.wrap for c in columns)
            else MARGIN
        )
        xs = [x0]
        for w in widths:
            xs.append(xs[-1] + w)
        hsize = size - 0.3
        lead = size * LEADING
        top = self.y
        if group is not None:
            text, a, b = group
            gh = hsize * LEADING + 2 * PAD_Y
            self.items.append(Rect(xs[a], self.y, xs[b + 1] - xs[a], gh, HEADER_FILL, BLACK, 0.5))
            cx = (xs[a] + xs[b + 1]) / 2
            self.items.append(
                Text(cx, self.y + PAD_Y + hsize, text, "bold", hsize, BLACK, "middle")
            )
            self._fit(f"group {text}", text, "bold", hsize, xs[b + 1] - xs[a] - 2 * PAD_X, gh)
            self.y += gh
        # header
        head_lines = [c.header.split("\n") for c in columns]
        hh = max(len(ls) for ls in head_lines) * hsize * LEADING + 2 * PAD_Y
        for i in range(len(columns)):
            self.items.append(Rect(xs[i], self.y, widths[i], hh, HEADER_FILL, BLACK, 0.5))
            lines = head_lines[i]
            y = self.y + PAD_Y + hsize + (hh - 2 * PAD_Y - len(lines) * hsize * LEADING) / 2
            for ln in lines:
                self._cell_text(xs[i], widths[i], y, ln, "bold", hsize, "center")
                self._fit(f"header {i}", ln, "bold", hsize, widths[i] - 2 * PAD_X, hh)
                y += hsize * LEADING
        self.y += hh
        # body
        for r, row in enumerate(rows):
            wrapped = []
            for i, c in enumerate(columns):
                room = widths[i] - 2 * PAD_X - (12.0 if c.swatch else 0.0)
                lines = wrap(row[i], c.font, size, room) if c.wrap else [row[i]]
                wrapped.append((lines, room))
            rh = max(len(ls) for ls, _ in wrapped) * lead + 2 * PAD_Y
            fill = NIGHT_FILL if shade and r in shade else (STRIPE if r % 2 else "#FFFFFF")
            for i, c in enumerate(columns):
                self.items.append(Rect(xs[i], self.y, widths[i], rh, fill, BLACK, 0.5))
                lines, room = wrapped[i]
                x = xs[i]
                w = widths[i]
                if c.swatch and swatches and swatches[r]:
                    self.items.append(
                        Rect(x + PAD_X, self.y + PAD_Y + 1, 9, 9, swatches[r], BLACK, 0.4)
                    )
                    x += 12.0
                    w -= 12.0
                y = self.y + PAD_Y + size * 0.95
                if not c.wrap:
                    y = self.y + (rh - size * LEADING) / 2 + size * 0.95
                for ln in lines:
                    self._cell_text(x, w, y, ln, c.font, size, c.align)
                    self._fit(f"row {r} col {i}", ln, c.font, size, room, rh)
                    y += lead
            self.y += rh
        # heavy outer rule
        self.items.append(Rect(xs[0], top, total, self.y - top, None, BLACK, 1.0))
        self.y += 6

    def _cell_text(
        self, x: float, w: float, y: float, text: str, font: str, size: float, align: str
    ) -> None:
        if align == "left":
            self.items.append(Text(x + PAD_X, y, text, font, size, BLACK, "start"))
        elif align == "right":
            self.items.append(Text(x + w - PAD_X, y, text, font, size, BLACK, "end"))
        else:
            self.items.append(Text(x + w / 2, y, text, font, size, BLACK, "middle"))

    def _widths(
        self,
        columns: list[Column],
        rows: list[list[str]],
        size: float,
        swatches: list[str | None] | None,
    ) -> list[float]:
        hsize = size - 0.3
        fixed: list[float] = []
        for i, c in enumerate(columns):
            head = max(text_width_pt(ln, "bold", hsize) for ln in c.header.split("\n"))
            extra = 12.0 if c.swatch else 0.0
            if c.wrap:
                fixed.append(0.0)
                continue
            body = max([text_width_pt(r[i], c.font, size) for r in rows] or [0.0])
            fixed.append(max(head, body + extra) + 2 * PAD_X + 2)
        room = self.inner - sum(fixed)
        wraps = [i for i, c in enumerate(columns) if c.wrap]
        out = list(fixed)
        # each wrapped column wants its natural width (capped at max_w); when they do not all
        # fit, the room is shared in proportion to what each wants, so a long Notes column
        # is not squeezed while a short Terrain column keeps space it does not need
        want: dict[int, float] = {}
        least: dict[int, float] = {}
        for i in wraps:
            c = columns[i]
            natural = max([text_width_pt(r[i], c.font, size) for r in rows] or [0.0])
            head = max(text_width_pt(ln, "bold", hsize) for ln in c.header.split("\n"))
            extra = 12.0 if c.swatch else 0.0
            want[i] = min(natural + extra + 2 * PAD_X + 2, c.max_w)
            longest_word = max(
                [
                    text_width_pt(piece, c.font, size)
                    for r in rows
                    for w in r[i].split()
                    for piece in _word_pieces(w)
                ]
                or [0.0]
            )
            least[i] = max(head + 2 * PAD_X + 2, 40.0 + extra, longest_word + extra + 2 * PAD_X + 2)
        if sum(max(want[i], least[i]) for i in wraps) <= room:
            for i in wraps:
                out[i] = max(want[i], least[i])
            return out
        # each gets its least, then the rest of the room in proportion to what it still wants
        spare = max(0.0, room - sum(least.values()))
        more = {i: max(0.0, want[i] - least[i]) for i in wraps}
        total = sum(more.values()) or 1.0
        for i in wraps:
            out[i] = least[i] + spare * more[i] / total
        return out

    def finish(self) -> Chart:
        height = self.y + MARGIN - 4
        d = Drawing(self.width, height)
        d.add(Rect(0, 0, self.width, height, "#FFFFFF", None))
        d.extend(self.items)
        d.add(Rect(0.5, 0.5, self.width - 1, height - 1, None, BLACK, 1.0))
        return Chart(self.name, self.title, d, self.cells)


# ---- helpers ------------------------------------------------------------------------------------
def _num(n: int) -> str:
    return f"{MINUS}{-n}" if n < 0 else f"+{n}" if n > 0 else "0"


def _rules(rule: str) -> str:
    """A space-separated list of rule cases as "a, b"; a word before a case number stays with
    it ("DTP 8.2 DTP 8.21" is "DTP 8.2, DTP 8.21")."""
    return ", ".join(re.findall(r"(?:[A-Za-z]+\s+)?\S+", rule)) if rule else ""


def _cite(rule: str) -> str:
    return f" [{_rules(rule)}]" if rule else ""


def units_phrase(module: Module, piece_ids: tuple[str, ...] | list[str]) -> str:
    """``2x F4 Phantom, CV 1 Saratoga``: pieces grouped by roster row, in the order given."""
    pieces = module.pieces()
    groups: dict[str, list[str]] = {}
    for pid in piece_ids:
        unit_id = pieces[pid].unit.id if pid in pieces else pid
        groups.setdefault(unit_id, []).append(pid)
    parts = []
    for unit_id, pids in groups.items():
        try:
            u = module.unit(unit_id)
        except KeyError:
            parts.append(", ".join(pids))
            continue
        label = " ".join(p for p in (u.type, u.number, u.name) if p)
        parts.append(f"{len(pids)}\u00d7 {label}" if len(pids) > 1 else label)
    return ", ".join(parts)


def _side_name(module: Module, side: str) -> str:
    try:
        return module.side(side).name
    except KeyError:
        return side


def _enemy(module: Module, side: str) -> str:
    others = [s.name for s in module.sides if s.id != side]
    return " or ".join(others) if others else "enemy"


def _area_name(module: Module, area: str | None) -> str:
    for a in module.map.areas.values():
        if area in (a.id, a.code):
            return a.name
    return area or "?"


def pool_text(module: Module, pool: SetupPool) -> str:
    """A pool's constraint in plain words: its own ``text``, else made from its fields."""
    if pool.text:
        return pool.text
    units = units_phrase(module, pool.units)
    if pool.where == "setup_code":
        n = sum(1 for h in module.map.hexes.values() if h.setup_code == pool.code)
        where = f"in the hexes coded \u201c{pool.code}\u201d ({n} hex{'es' if n != 1 else ''})"
        unit = "hex"
    elif pool.where == "airbase":
        nat = module.nationalities.get(pool.nationality or "")
        where = f"on {nat.name if nat else pool.nationality} airbases"
        if pool.countries:
            names = [
                module.map.countries[c].name if c in module.map.countries else c
                for c in pool.countries
            ]
            where += " in " + " or ".join(names)
        unit = "airbase"
    elif pool.where == "carrier":
        where = f"on CAP over {units_phrase(module, [pool.carrier or ''])} or in its holding box"
        unit = "hex"
    elif pool.where in ("zones", "spaces"):
        from referee.source.scenario_forces import pool_places_text

        where = pool_places_text(module.map, pool)
        unit = pool.where[:-1]
    else:
        where = "in any of hexes " + ", ".join(pool.hexes)
        unit = "hex"
    limits = []
    if pool.per_hex_min and pool.per_hex_max is not None:
        limits.append(f"{pool.per_hex_min} to {pool.per_hex_max} per {unit}")
    elif pool.per_hex_min:
        limits.append(f"at least {pool.per_hex_min} per {unit}")
    elif pool.per_hex_max is not None:
        limits.append(f"at most {pool.per_hex_max} per {unit}")
    if pool.fill_all:
        limits.append(f"every such {unit} must be filled")
    text = f"Place {units} {where}"
    if limits:
        text += "; " + "; ".join(limits)
    return text + "."


def reinforcement_text(module: Module, r: Reinforcement) -> str:
    if r.text:
        return r.text
    units = units_phrase(module, r.units)
    if r.entry == "airbases":
        where = "on airbases" + (f" ({', '.join(r.hexes)})" if r.hexes else "")
    elif r.entry == "edge_adjacent":
        edge = module.map.edges.get(r.edge or "")
        where = f"in any hex adjacent to the {edge.name if edge else r.edge}"
    elif r.entry == "area":
        where = f"anywhere in {_area_name(module, r.area)}"
    else:
        where = "in hexes " + ", ".join(r.hexes) if r.hexes else r.entry
    text = f"{_side_name(module, r.side)}: {units}, {where}"
    if r.loc_edge:
        edge = module.map.edges.get(r.loc_edge)
        text += f"; needs a line of communication to the {edge.name if edge else r.loc_edge}"
    return text + "."


def bonus_text(
    module: Module, side: str, condition: str, params: dict[str, object], text: str
) -> str:
    if text:
        return text
    enemy = _enemy(module, side)
    area = _area_name(module, str(params.get("area", "")))
    if condition == "no_enemy_in_area":
        return f"no {enemy} unit in {area} at the end of the game"
    if condition == "no_enemy_naval_in_area":
        return f"no {enemy} naval unit in {area} at the end of the game"
    words = condition.replace("_", " ")
    extra = ", ".join(f"{k} {v}" for k, v in sorted(params.items()))
    return f"{words} ({extra})" if extra else words


# ---- the charts ---------------------------------------------------------------------------------
def crt_chart(module: Module) -> Chart:
    crt = module.tables.crt
    if crt is None:
        raise UserError("the module has no Combat Results Table", hint="add tables/crt.csv")
    texts = ruleset_texts(module.ruleset).get("crt", {})
    b = Builder("crt", crt.title, MAX_WIDTH)
    b.title_band(f"{crt.title} [8.8]")
    cols = [Column(crt.row_label, font="bold")] + [Column(str(c)) for c in crt.columns]
    rows = []
    for ecm in sorted(crt.rows):
        cells = crt.rows[ecm]
        if len(cells) != len(crt.columns):
            raise UserError(
                f"{crt.sources.get(ecm, 'crt')}: CRT row {ecm} has {len(cells)} entries for "
                f"{len(crt.columns)} columns",
                hint="give every ECM row one entry per differential column",
            )
        rows.append([str(ecm), *[str(c) for c in cells]])
    b.table(cols, rows, group=(crt.column_label, 1, len(crt.columns)))
    b.notes([str(n) for n in texts.get("notes", [])])
    return b.finish()


def _categories(module: Module) -> list[str]:
    seen: list[str] = []
    for t in module.map.terrain.values():
        for c in t.costs:
            if c not in seen:
                seen.append(c)
    return seen


def tec_chart(module: Module) -> Chart:
    texts = ruleset_texts(module.ruleset).get("tec", {})
    title = str(texts.get("title", "Terrain Effects Chart"))
    b = Builder("tec", title, MAX_WIDTH)
    b.title_band(f"{title}{_cite(str(texts.get('rule', '10.0')))}")
    # the chart texts may narrow the columns to what the rule system has (no ZOC in an
    # area-movement game, no movement costs for markers)
    cats = [c for c in _categories(module) if c in texts.get("categories", [c])]
    zoc = bool(texts.get("zoc", True))
    cost = str(texts.get("cost_label", "MP cost"))
    mults: list[str] = []
    for t in module.map.terrain.values():
        for c in t.defense_multiplier:
            if c not in mults:
                mults.append(c)
    cols = [Column("Terrain", "left", font="bold", swatch=True, wrap=True, max_w=120)]
    cols += [Column(f"{c.capitalize()}\n{cost}") for c in cats]
    cols += [Column("Blocks\nZOC")] if zoc else []
    cols += [Column(f"DEF \u00d7\n{c}") for c in mults]
    cols += [Column("Notes", "left", wrap=True, max_w=330), Column("Rule", wrap=True, max_w=60)]
    rows, swatches = [], []
    for t in module.map.terrain.values():
        row = [t.name]
        for c in cats:
            v = t.costs.get(c)
            row.append(DASH if v is None else str(v))
        if zoc:
            row.append("yes" if t.blocks_zoc else DASH)
        for c in mults:
            m = t.defense_multiplier.get(c)
            row.append(f"\u00d7{m}" if m and m != 1 else DASH)
        row.append(t.notes or "")
        row.append(_rules(t.rule))
        rows.append(row)
        swatches.append(t.color)
    b.table(cols, rows, swatches=swatches)
    b.notes([str(n) for n in texts.get("notes", [])])
    return b.finish()


def victory_chart(module: Module) -> Chart:
    texts = ruleset_texts(module.ruleset).get("victory", {})
    b = Builder("victory", "Level of Victory", MAX_WIDTH)
    b.title_band(f"Level of Victory{_cite(str(texts.get('rule', '13.2')))}")
    rows = []
    for lv in module.tables.victory:
        if lv.low is not None and lv.high is not None:
            net = f"{_num(lv.low)} to {_num(lv.high)}"
        elif lv.low is not None:
            net = f"{_num(lv.low)} or more"
        elif lv.high is not None:
            net = f"{_num(lv.high)} or less"
        else:
            net = "any"
        rows.append([net, lv.result])
    b.table([Column("Net victory points"), Column("Level of victory", "left", font="bold")], rows)
    b.notes([str(n) for n in texts.get("notes", [])])
    bonuses: dict[tuple[str, str, int, str], list[str]] = {}
    for scn in module.scenarios.values():
        for v in scn.victory_bonuses:
            line = bonus_text(module, v.side, v.condition, v.params, v.text)
            bonuses.setdefault((v.side, line, v.vp, v.rule), []).append(scn.name)
    if bonuses:
        b.heading("Bonus victory points")
        for (side, line, vp, rule), names in bonuses.items():
            b.paragraph(
                f"{_side_name(module, side)} {_num(vp)} VP: {line}{_cite(rule)} "
                f"({', '.join(names)})",
                SMALL,
            )
    return b.finish()


def turns_chart(module: Module, scn: Scenario) -> Chart:
    texts = ruleset_texts(module.ruleset).get("turns", {})
    name = f"turns-{scn.id}"
    b = Builder(name, f"{scn.name}: Turn Record", MAX_WIDTH)
    b.title_band(f"{scn.name}: Turn Record and Reinforcement Track")
    per_row = 11
    bw, bh, gap = 44.0, 40.0, 4.0
    arrivals = sorted({r.after_turn for r in scn.reinforcements})
    prohibited_until = {p.until_turn for p in scn.prohibitions}
    turn = 1
    while turn <= scn.turns:
        row = list(range(turn, min(scn.turns, turn + per_row - 1) + 1))
        total = len(row) * (bw + gap) - gap
        x = MARGIN + (b.inner - total) / 2
        y = b.y + (14 if prohibited_until & set(row) else 4)
        for t in row:
            state = scn.turn_state(t) if t <= len(scn.turn_states) else ""
            night = t <= len(scn.turn_states) and scn.is_night(t)
            b.items.append(
                Rect(
                    x, y, bw, bh, NIGHT_FILL if night else "#FFFFFF", BLACK, 1.6 if t == 1 else 0.7
                )
            )
            b.items.append(Text(x + bw / 2, y + 8.5, "GAME-TURN", "regular", 5.2, BLACK, "middle"))
            b.items.append(Text(x + bw / 2, y + 25, str(t), "bold", 15, BLACK, "middle"))
            label = state.upper()
            b.items.append(Text(x + bw / 2, y + 35, label, "bold", 6.2, BLACK, "middle"))
            b._fit(f"turn {t}", label, "bold", 6.2, bw - 4, 8)
            if t in prohibited_until:
                # a circled P above the box's top right corner, clear of the turn's own text
                px, py = x + bw - 7, y - 7
                b.items.append(Circle(px, py, 5.2, "#FFFFFF", BLACK, 0.9))
                b.items.append(Text(px, py + 2.4, "P", "bold", 6.5, BLACK, "middle"))
            if t in arrivals and t < scn.turns:
                bx = x + bw + gap / 2
                b.items.append(Line(((bx, y - 3), (bx, y + bh + 3)), BLACK, 2.2))
                b.items.append(Rect(bx - 5, y + bh + 3, 10, 9, BLACK))
                b.items.append(Text(bx, y + bh + 10, "R", "bold", 6.5, "#FFFFFF", "middle"))
            x += bw + gap
        b.y = y + bh + 16
        turn = row[-1] + 1
    keys = []
    if scn.night_states:
        keys.append(
            "Grey boxes are night Game-Turns ("
            + ", ".join(sorted(scn.night_states))
            + ") [8.45], [9.52]."
        )
    if texts.get("first_turn"):
        keys.append(f"Game-Turn 1 (heavy box): {texts['first_turn']}.")
    b.notes(keys)
    if scn.reinforcements:
        b.heading("Reinforcements (R: placed after the Game-Turn marked)")
        inter = texts.get("interphase", "Reinforcements")
        for r in sorted(scn.reinforcements, key=lambda r: (r.after_turn, r.side)):
            b.paragraph(
                f"After Game-Turn {r.after_turn} ({inter}): "
                f"{reinforcement_text(module, r)}{_cite(r.rule)}",
                SMALL,
            )
    if scn.prohibitions:
        b.heading("Restrictions (P: first Game-Turn allowed)")
        for p in scn.prohibitions:
            text = p.text or (
                f"{', '.join(c.capitalize() for c in p.categories)} units may not enter "
                f"{_area_name(module, p.area)} before Game-Turn {p.until_turn}"
            )
            b.paragraph(f"{text}{_cite(p.rule)}.", SMALL)
    return b.finish()


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def setup_sides(scn: Scenario) -> list[str]:
    sides = list(scn.setup_order)
    for s in sorted(scn.forces):
        if s not in sides:
            sides.append(s)
    return sides


def _status_text(status: str | None) -> str:
    """A fixed placement's status for the set-up card: "holding box of US-CV-1" [9.62B]."""
    cv = carrier_of(status)
    return f"holding box of {cv}" if cv is not None else (status or "").replace(":", " ")


def setup_chart(module: Module, scn: Scenario, side: str) -> Chart:
    pieces = module.pieces()
    name = f"setup-{scn.id}-{side.lower()}"
    b = Builder(name, f"{scn.name}: {_side_name(module, side)} set-up", MAX_WIDTH)
    b.title_band(f"{scn.name}: {_side_name(module, side)} Set-up Card")
    texts = ruleset_texts(module.ruleset).get("setup", {})
    order = scn.setup_order.index(side) + 1 if side in scn.setup_order else 0
    facts = [f"{scn.turns} Game-Turns; first player {_side_name(module, scn.first_player)}."]
    if order:
        cited = _cite(str(texts.get("rule", "11.0")))
        facts.insert(0, f"{_side_name(module, side)} sets up {_ordinal(order)}{cited}.")
    b.paragraph(" ".join([*facts, *(str(n) for n in texts.get("notes", []))]))
    place = str(texts.get("place", "Hex"))  # what a placement names: a hex, or a zone

    def mine(pid: str) -> bool:
        return pid in pieces and pieces[pid].unit.side == side

    fixed = [f for f in scn.fixed if mine(f.unit)]
    if fixed:
        b.heading("Fixed placements")
        # a Status column only when some placement has one (a holding box [9.62B])
        with_status = any(f.status for f in fixed)
        rows = [
            [
                units_phrase(module, [f.unit]),
                f.unit,
                f.hex,
                *([_status_text(f.status)] if with_status else []),
                _rules(f.rule),
            ]
            for f in fixed
        ]
        b.table(
            [
                Column("Unit", "left", wrap=True, max_w=180),
                Column("Piece"),
                Column(place),
                *([Column("Status", "left", wrap=True, max_w=120)] if with_status else []),
                Column("Rule"),
            ],
            rows,
        )
    choices = [c for c in scn.choices if mine(c.unit)]
    if choices:
        b.heading("Choose one hex")
        rows = [
            [units_phrase(module, [c.unit]), c.unit, " or ".join(c.hexes), _rules(c.rule)]
            for c in choices
        ]
        b.table(
            [
                Column("Unit", "left", wrap=True, max_w=180),
                Column("Piece"),
                Column("One of", "left", wrap=True, max_w=200),
                Column("Rule"),
            ],
            rows,
        )
    pools = [p for p in scn.pools if p.side == side]
    if pools:
        b.heading("Place as you choose, within these limits")
        rows = [[pool_text(module, p), _rules(p.rule)] for p in pools]
        b.table(
            [Column("Units and where they may go", "left", wrap=True, max_w=470), Column("Rule")],
            rows,
        )
    reinf = [r for r in scn.reinforcements if r.side == side]
    if reinf:
        b.heading("Reinforcements")
        for r in reinf:
            b.paragraph(
                f"After Game-Turn {r.after_turn}: {reinforcement_text(module, r)}{_cite(r.rule)}",
                SMALL,
            )
    return b.finish()


def sequence_chart(module: Module) -> Chart | None:
    seq = ruleset_texts(module.ruleset).get("sequence")
    if not seq:
        return None
    return steps_chart(module, "sequence", seq, "Sequence of Play")


def _cards(module: Module) -> list[tuple[str, dict[str, Any]]]:
    """The ruleset's play-aid cards (``[[card]]`` in its chart texts: a Tactical Routine
    card, a fire card...) as ``(name, card)``; each is laid out like the sequence of play
    (:func:`steps_chart`): titled sections of numbered steps, each with the rule it
    summarises, then notes."""
    out = []
    for card in ruleset_texts(module.ruleset).get("card", []):
        name = str(card.get("name", ""))
        if not name:
            raise UserError(
                f"templates/charts/{module.ruleset}.toml: a [[card]] has no name",
                hint='give each [[card]] a name = "..." (its chart name)',
            )
        out.append((name, card))
    return out


def steps_chart(module: Module, name: str, seq: dict[str, Any], default_title: str) -> Chart:
    """A card of titled sections of numbered steps (phase, what happens, rule), then the
    module's named tables it lists under ``tables`` (drawn from their data), then notes."""
    title = str(seq.get("title", default_title))
    b = Builder(name, title, MAX_WIDTH)
    b.title_band(title)
    if seq.get("intro"):
        b.paragraph(str(seq["intro"]))
    for section in seq.get("section", []):
        b.heading(str(section.get("heading", "")))
        rows = [
            [str(i), str(s.get("name", "")), str(s.get("text", "")), _rules(str(s.get("rule", "")))]
            for i, s in enumerate(section.get("steps", []), 1)
        ]
        b.table(
            [
                Column("#"),
                Column(str(seq.get("step_label", "Phase")), "left", font="bold"),
                Column("What happens", "left", wrap=True, max_w=380),
                Column("Rule"),
            ],
            rows,
        )
    for tname in seq.get("tables", []):
        from referee.render.tablechart import draw_table

        table = module.tables.named.get(str(tname))
        if table is None:
            raise UserError(
                f"templates/charts/{module.ruleset}.toml: card {name!r} lists no table {tname!r}",
                hint="tables: " + ", ".join(module.tables.named),
            )
        b.heading(table.title + (f" [{table.decl.rule}]" if table.decl.rule else ""))
        draw_table(b, table)
    notes = [str(n) for n in seq.get("notes", [])]
    if notes:
        b.notes(notes)
    return b.finish()


# ---- the list, PNG and PDF ----------------------------------------------------------------------
def _chart_makers(module: Module) -> Iterator[tuple[str, Callable[[], Chart | None]]]:
    """Every chart of the module as ``(name, make)``, in print order, without laying any out:
    :func:`chart` lays out only the one asked for (so a chart read from a narrowed module,
    :func:`referee.render.artcache.narrowed`, touches only what that chart reads)."""
    yield "sequence", lambda: sequence_chart(module)
    for name, card in _cards(module):
        yield name, lambda name=name, card=card: steps_chart(module, name, card, name)
    if module.tables.crt is not None:
        yield "crt", lambda: crt_chart(module)
    yield "tec", lambda: tec_chart(module)
    if module.tables.victory:
        yield "victory", lambda: victory_chart(module)
    # every other declared table, laid out from its declaration (imported here: tablechart
    # builds on this module's Builder)
    from referee.render.tablechart import chart_name, generic_tables, table_chart

    for t in generic_tables(module):
        yield chart_name(t.name), lambda t=t: table_chart(module, t)
    for scn in module.scenarios.values():
        yield f"turns-{scn.id}", lambda scn=scn: turns_chart(module, scn)
        for side in setup_sides(scn):
            yield (
                f"setup-{scn.id}-{side.lower()}",
                lambda scn=scn, side=side: setup_chart(module, scn, side),
            )


def build_charts(module: Module) -> list[Chart]:
    """Every chart of the module, in print order."""
    return [c for _, make in _chart_makers(module) if (c := make()) is not None]


def chart_names(module: Module) -> list[str]:
    """The names :func:`chart_png` accepts (``crt``, ``tec``, ``victory``, ``sequence``,
    ``turns-<scenario>``, ``setup-<scenario>-<side>``)."""
    return [c.name for c in build_charts(module)]


def chart(module: Module, name: str) -> Chart:
    """The chart called ``name`` (the first of that name in print order), laid out alone."""
    if name == "crt":
        return crt_chart(module)
    if name == "tec":
        return tec_chart(module)
    for n, make in _chart_makers(module):
        if n == name:
            c = make()
            if c is not None:
                return c
    raise UserError(f"no chart named {name!r}", hint="charts: " + ", ".join(chart_names(module)))


def chart_png(module: Module, name: str, dpi: int = 150) -> bytes:
    """One chart as deterministic PNG bytes (white background)."""
    from referee.render.counters import png_bytes

    return png_bytes(to_image(chart(module, name).drawing, dpi))


def charts_pdf(
    module: Module, charts: list[Chart], paper: str = "letter", *, cmyk: CmykProfile | None = None
) -> tuple[bytes, int]:
    """All charts packed top to bottom on pages of ``paper`` at 100 % (scaled down only when a
    chart is larger than the printable area), in RGB or the ``cmyk`` output profile's CMYK.
    Returns the PDF and its page count."""
    from referee.render.drawing import pdf_bytes
    from referee.render.sheets import MARGIN_PT, paper_size

    pw, ph = paper_size(paper)
    aw, ah = pw - 2 * MARGIN_PT, ph - 2 * MARGIN_PT - 14
    pages: list[Drawing] = []
    page = Drawing(pw, ph)
    y = MARGIN_PT
    gap = 16.0
    for ch in charts:
        d = ch.drawing
        k = min(1.0, aw / d.width, ah / d.height)
        h = d.height * k
        if y + h > MARGIN_PT + ah + 1e-6 and page.items:
            pages.append(page)
            page = Drawing(pw, ph)
            y = MARGIN_PT
        page.extend(d.placed(MARGIN_PT + (aw - d.width * k) / 2, y, k))
        y += h + gap
    pages.append(page)
    for i, p in enumerate(pages, 1):
        p.add(
            Text(
                pw / 2,
                ph - MARGIN_PT + 2,
                f"{module.name} {module.version}: charts and tables, page {i} of "
                f"{len(pages)}. Print at 100 %.",
                "regular",
                6.5,
                "#333333",
                "middle",
            )
        )
    title = f"{module.name}: charts and tables"
    return pdf_bytes(pages, title=title, subject="charts", cmyk=cmyk), len(pages)
