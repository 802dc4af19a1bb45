"""The set-up area: a board beside the map where the counters a player places himself wait.

A scenario fixes some counters to hexes [11.0] and leaves the rest to the players: a choice
among a few hexes (``[[choice]]``), a pool placed under constraints (``[[pool]]``: hexes coded
for a nationality, friendly airbases, a carrier [9.62]), and reinforcements that arrive later
[12.2]. In VASSAL those counters need somewhere to wait, labelled with the rule that governs
them, so the module gets a ``Set-up`` map with one board holding one section per scenario;
each section has one labelled box per choice, pool or reinforcement group, and each box is a
VASSAL Zone, so a counter dragged out of it is reported as
``moves Skirmish: NATO pool [11.1] -> 0203``.

Everything here is pure: :func:`setup_area_layout` decides every rectangle and slot from the
module and the counter size; :func:`setup_area_png` draws the board with the shipped fonts;
:func:`setup_map_element` writes the VASSAL Map element. The scenario set-up saves
(:mod:`referee.vassal.position.setups`) and adjudicated positions
(:mod:`referee.vassal.position.save`) put
counters on the slots of :meth:`SetupArea.slot`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from lxml import etree

from referee.source.boxes import is_holding
from referee.source.model import Module, Scenario, SetupPool
from referee.vassal.module.buildfile import map_helpers

__all__ = [
    "SETUP_BOARD",
    "SETUP_IMAGE",
    "SETUP_MAP",
    "SetupArea",
    "SetupGroup",
    "carrier_pools",
    "group_description",
    "setup_area_layout",
    "setup_area_png",
    "setup_map_element",
]

SETUP_MAP: Final = "Set-up"
"""The VASSAL map name (``mapName``) of the set-up area; saves name pieces' map by it."""
SETUP_BOARD: Final = "Set-up area"
SETUP_IMAGE: Final = "setup_area.png"

PER_ROW: Final = 6
"""Counter slots per row in a group box."""
COLUMNS: Final = 2
"""Group boxes side by side in a scenario's section."""
MAX_TEXT_LINES: Final = 4

INK: Final = "#1E2328"
PAPER: Final = "#F3EFE2"
BAND: Final = "#3A4450"


@dataclass(frozen=True, slots=True)
class SetupGroup:
    """One labelled box: the counters of one choice, pool or reinforcement group.

    ``key`` is stable and unique within the module (``skirmish/pool-2``); ``zone`` is the
    location name VASSAL reports for a point inside the box; ``rect`` is the whole box
    (x0, y0, x1, y1) in board pixels; ``slots_origin`` the top-left of the first slot.
    """

    key: str
    scenario: str
    side: str
    title: str
    lines: tuple[str, ...]
    rule: str
    units: tuple[str, ...]
    rect: tuple[int, int, int, int]
    slots_origin: tuple[int, int]

    @property
    def zone(self) -> str:
        return self.title

    @property
    def path(self) -> str:
        """The Zone's ``path`` attribute: its four corners."""
        x0, y0, x1, y1 = self.rect
        return f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}"

    def contains(self, x: int, y: int) -> bool:
        x0, y0, x1, y1 = self.rect
        return x0 <= x <= x1 and y0 <= y <= y1


@dataclass(frozen=True, slots=True)
class SetupSection:
    scenario: str
    title: str
    top: int
    bottom: int


@dataclass(frozen=True, slots=True)
class SetupArea:
    """The whole set-up board: its size, the scenario sections and their group boxes."""

    width: int
    height: int
    counter_px: int
    pad: int
    font_px: int
    line_px: int
    sections: tuple[SetupSection, ...]
    groups: tuple[SetupGroup, ...]

    def groups_of(self, scenario_id: str) -> tuple[SetupGroup, ...]:
        return tuple(g for g in self.groups if g.scenario == scenario_id)

    def group_of(self, scenario_id: str, piece_id: str) -> SetupGroup | None:
        """The box where ``piece_id`` waits in ``scenario_id``, if it has one."""
        for g in self.groups_of(scenario_id):
            if piece_id in g.units:
                return g
        return None

    def slot(self, group: SetupGroup, index: int) -> tuple[int, int]:
        """Centre of the ``index``-th counter slot of ``group`` (row by row)."""
        step = self.counter_px + self.pad
        x0, y0 = group.slots_origin
        col, row = index % PER_ROW, index // PER_ROW
        return x0 + col * step + self.counter_px // 2, y0 + row * step + self.counter_px // 2

    def group_at(self, x: int, y: int) -> SetupGroup | None:
        for g in self.groups:
            if g.contains(x, y):
                return g
        return None


# ---- what goes in the boxes ----------------------------------------------------------------


def carrier_pools(scenario: Scenario) -> dict[str, str]:
    """Air unit -> its carrier, for the units of ``where = "carrier"`` pools: they start on
    CAP over the carrier or in its holding box [9.62], so they wait in the holding box."""
    return {
        unit: pool.carrier
        for pool in scenario.pools
        if pool.where == "carrier" and pool.carrier
        for unit in pool.units
    }


def _boxed_carriers(module: Module, sc: Scenario) -> set[str]:
    """Carriers the scenario fixes on the map that have a holding box [9.62B]: the air of
    their carrier pools waits in that box, not in the set-up area."""
    from referee.vassal.module.palette import is_carrier

    pieces = module.pieces()
    return {
        f.unit
        for f in sc.fixed
        if not is_holding(f.status) and f.unit in pieces and is_carrier(pieces[f.unit].unit)
    }


def _hex_list(hexes: tuple[str, ...], limit: int = 8) -> str:
    if len(hexes) <= limit:
        return ", ".join(hexes)
    return ", ".join(hexes[:limit]) + f" ... ({len(hexes)} hexes)"


def group_description(module: Module, pool: SetupPool) -> str:
    """A sentence saying where a pool's counters may be placed, from its constraints."""
    if pool.where == "setup_code":
        what = f"in the hexes coded {pool.code}"
    elif pool.where == "airbase":
        nat = module.nationalities.get(pool.nationality or "")
        what = f"on {nat.name if nat else pool.nationality} airbases"
        if pool.countries:
            what += " in " + ", ".join(pool.countries)
    elif pool.where == "carrier":
        what = f"on CAP over {pool.carrier} or in its holding box [9.62]"
    elif pool.where in ("zones", "spaces"):
        from referee.source.scenario_forces import pool_places_text

        what = pool_places_text(module.map, pool)
    else:
        what = "in " + _hex_list(pool.hexes)
    limits = []
    if pool.per_hex_min:
        limits.append(f"at least {pool.per_hex_min}")
    if pool.per_hex_max is not None:
        limits.append(f"at most {pool.per_hex_max}")
    unit = pool.where[:-1] if pool.where in ("zones", "spaces") else "hex"
    if limits:
        what += " (" + " and ".join(limits) + f" per {unit})"
    if pool.fill_all:
        what += f"; every such {unit} must be filled"
    return what


def _cite(rule: str) -> str:
    return f" [{rule}]" if rule else ""


def _scenario_groups(
    module: Module, sc: Scenario
) -> Iterator[tuple[str, str, str, list[str], str]]:
    """``(key, side, title, text paragraphs, rule)`` with the units of each box, in source
    order: choices, pools, then reinforcements; carrier pools whose carrier is fixed on the
    map are left out (those air units start in the carrier's holding box)."""
    fixed_on_map = _boxed_carriers(module, sc)
    side_of = {pid: side for side, ids in sc.forces.items() for pid in ids}
    for i, ch in enumerate(sc.choices, start=1):
        side = side_of.get(ch.unit, "")
        text = f"{ch.unit}: in one of {_hex_list(ch.hexes)}"
        yield (
            f"{sc.id}/choice-{i}",
            side,
            f"{sc.name}: {side} choice{_cite(ch.rule)}",
            [text],
            ch.rule,
        )
    for i, pool in enumerate(sc.pools, start=1):
        if pool.where == "carrier" and pool.carrier in fixed_on_map:
            continue
        paragraphs = [group_description(module, pool)]
        if pool.text:
            paragraphs.append(pool.text)
        title = f"{sc.name}: {pool.side} pool {i}{_cite(pool.rule)}"
        yield f"{sc.id}/pool-{i}", pool.side, title, paragraphs, pool.rule
    for i, r in enumerate(sc.reinforcements, start=1):
        where = r.entry.replace("_", " ")
        if r.hexes:
            where += " " + _hex_list(r.hexes)
        paragraphs = [f"arrive after Game-Turn {r.after_turn}, entering by {where}"]
        if r.text:
            paragraphs.append(r.text)
        title = f"{sc.name}: {r.side} reinforcements {i}{_cite(r.rule or '12.2')}"
        yield f"{sc.id}/reinforcement-{i}", r.side, title, paragraphs, r.rule or "12.2"


def _group_units(module: Module, sc: Scenario) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    fixed_on_map = _boxed_carriers(module, sc)
    for i, ch in enumerate(sc.choices, start=1):
        out[f"{sc.id}/choice-{i}"] = [ch.unit]
    for i, pool in enumerate(sc.pools, start=1):
        if pool.where == "carrier" and pool.carrier in fixed_on_map:
            continue
        out[f"{sc.id}/pool-{i}"] = list(pool.units)
    for i, r in enumerate(sc.reinforcements, start=1):
        out[f"{sc.id}/reinforcement-{i}"] = list(r.units)
    # a unit named twice waits in its first box only
    seen: set[str] = set()
    for key, units in out.items():
        out[key] = [u for u in units if not (u in seen or seen.add(u))]
    return out


def setup_area_layout(module: Module, counter_px: int) -> SetupArea | None:
    """Lay out the set-up board for every scenario of ``module``; ``None`` when no scenario
    leaves anything to the players."""
    pad = max(8, counter_px // 4)
    font_px = max(12, counter_px // 5)
    line_px = round(font_px * 1.35)
    step = counter_px + pad
    inner_w = PER_ROW * step + pad
    chars = max(20, int(inner_w / (0.56 * font_px)))
    width = COLUMNS * (inner_w + pad) + pad
    sections: list[SetupSection] = []
    groups: list[SetupGroup] = []
    y = pad
    for sc in module.scenarios.values():
        units = _group_units(module, sc)
        specs = [
            (key, side, title, paras, rule, units[key])
            for key, side, title, paras, rule in _scenario_groups(module, sc)
            if units.get(key)
        ]
        if not specs:
            continue
        top = y
        y += line_px * 2
        col_y = [y] * COLUMNS
        for key, side, title, paras, rule, members in specs:
            lines: list[str] = []
            for para in paras:
                lines += textwrap.wrap(para, chars) or [""]
            if len(lines) > MAX_TEXT_LINES:
                last = lines[MAX_TEXT_LINES - 1][: chars - 3] + "..."
                lines = [*lines[: MAX_TEXT_LINES - 1], last]
            rows = (len(members) + PER_ROW - 1) // PER_ROW
            height = line_px * (1 + len(lines)) + pad + rows * step + pad
            c = min(range(COLUMNS), key=lambda i: (col_y[i], i))
            x0 = pad + c * (inner_w + pad)
            y0 = col_y[c]
            slots = (x0 + pad, y0 + line_px * (1 + len(lines)) + pad)
            groups.append(
                SetupGroup(
                    key=key,
                    scenario=sc.id,
                    side=side,
                    title=title,
                    lines=tuple(lines),
                    rule=rule,
                    units=tuple(members),
                    rect=(x0, y0, x0 + inner_w, y0 + height),
                    slots_origin=slots,
                )
            )
            col_y[c] = y0 + height + pad
        y = max(col_y) + pad
        sections.append(SetupSection(sc.id, f"{sc.name}: set-up [11.0]", top, y))
    if not groups:
        return None
    return SetupArea(
        width, y + pad, counter_px, pad, font_px, line_px, tuple(sections), tuple(groups)
    )


# ---- drawing and the VASSAL map --------------------------------------------------------------


def setup_area_png(area: SetupArea) -> bytes:
    """The set-up board picture: a title per scenario, a labelled frame per group box and a
    faint outline per counter slot."""
    from PIL import Image, ImageDraw

    from referee.render.colors import parse_color
    from referee.render.counters import png_bytes
    from referee.render.fonts import pil_font

    img = Image.new("RGB", (area.width, area.height), parse_color(PAPER))
    draw = ImageDraw.Draw(img)
    ink, band, paper = parse_color(INK), parse_color(BAND), parse_color(PAPER)
    bold = pil_font("bold", area.font_px)
    big = pil_font("bold", round(area.font_px * 1.3))
    regular = pil_font("regular", area.font_px)
    for section in area.sections:
        draw.text((area.pad, section.top + area.line_px // 3), section.title, font=big, fill=ink)
    for g in area.groups:
        x0, y0, x1, y1 = g.rect
        draw.rectangle((x0, y0, x1, y1), outline=ink, width=2)
        draw.rectangle((x0, y0, x1, y0 + area.line_px), fill=band)
        draw.text((x0 + 6, y0 + 2), _fit(draw, g.title, bold, x1 - x0 - 12), font=bold, fill=paper)
        for i, line in enumerate(g.lines):
            draw.text((x0 + 6, y0 + area.line_px * (1 + i) + 2), line, font=regular, fill=ink)
        half = area.counter_px // 2
        for i in range(len(g.units)):
            cx, cy = area.slot(g, i)
            draw.rectangle((cx - half, cy - half, cx + half, cy + half), outline=(190, 184, 168))
    return png_bytes(img)


def _fit(draw: object, text: str, font: object, width: int) -> str:
    """``text`` shortened with "..." until it fits ``width`` pixels."""
    from PIL import ImageDraw, ImageFont

    assert isinstance(draw, ImageDraw.ImageDraw) and isinstance(font, ImageFont.FreeTypeFont)
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "...", font=font) > width:
        text = text[:-1]
    return text + "..."


MODULE: Final = "VASSAL.build.module."


def setup_map_element(area: SetupArea) -> etree._Element:
    """The ``Set-up`` Map: one Board showing :func:`setup_area_png` with a ZonedGrid whose
    Zones are the group boxes (a point in a box is named by the box's title), plus the
    helpers a map needs so counters can be dragged off it (vassal-format.md §3.3, §3.5)."""
    m = MODULE

    def el(parent: etree._Element | None, tag: str, **attrs: str) -> etree._Element:
        node = etree.Element(tag) if parent is None else etree.SubElement(parent, tag)
        for k in sorted(attrs):
            node.set(k, attrs[k])
        return node

    report = "$pieceName$ moves $previousLocation$ -> $location$ *"
    map_el = el(
        None,
        m + "Map",
        allowMultiple="false",
        backgroundcolor="255,255,255",
        buttonName="Set-up",
        changeFormat="$message$",
        createFormat="$pieceName$ created in $location$ *",
        edgeHeight="0",
        edgeWidth="0",
        hotkey="",
        icon="",
        launch="true",
        mapName=SETUP_MAP,
        markMoved="Never",
        moveToFormat=report,
        moveWithinFormat=report,
    )
    picker = el(
        map_el,
        m + "map.BoardPicker",
        addColumnText="Add column",
        addRowText="Add row",
        boardPrompt="Select board",
        slotHeight="125",
        slotScale="0.2",
        slotWidth="350",
        title="Choose Boards",
    )
    board = el(
        picker,
        m + "map.boardPicker.Board",
        image=SETUP_IMAGE,
        name=SETUP_BOARD,
        reversible="false",
    )
    zoned = el(board, m + "map.boardPicker.board.ZonedGrid")
    for g in area.groups:
        el(
            zoned,
            m + "map.boardPicker.board.mapgrid.Zone",
            highlightProperty="",
            locationFormat="$name$",
            name=g.zone,
            path=g.path,
            useHighlight="false",
            useParentGrid="false",
        )
    # map_helpers already adds the one SelectionHighlighters and HighlightLastMoved VASSAL
    # allows per map; a second of either makes VASSAL warn on load.
    map_helpers(map_el, zoom_levels="0.5,0.75,1.0", zoom_start="3")
    return map_el
