"""Where a counter sits in VASSAL, and which hex (or box) a VASSAL position means.

Saves and logs store a piece's place as ``(map name, x, y)`` in integer *map* pixels
(vassal-format.md §4.2). Our module has three maps:

* ``Main Map``: the board; a piece dropped on a hex is stored at the hex's snapped centre
  (§4.3) plus the map's edge padding (§4.2). :meth:`Table.hex_point` gives that point from
  :meth:`referee.vassal.module.plan.ModulePlan.hex_centre` (the module writer's label dictionary,
  built with :func:`referee.vassal.module.grid.label_centres`), and :meth:`Table.locate` reads a
  point back with VASSAL's own label formula (:func:`referee.vassal.module.grid.vassal_label`).
* ``Holding Boxes``: one box per carrier [9.62B]; up to six air units sit side by side in it.
* ``Set-up``: the set-up area of :mod:`referee.vassal.module.setup_area`.

Everything here is pure; :class:`Table` bundles the module plan and the set-up area so the
save writers and the log reader agree on every pixel.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Final, Literal

from referee.source.boxes import holding_box
from referee.source.model import Module
from referee.vassal.module.artwork import HOLDING_CAPACITY, HoldingBox
from referee.vassal.module.grid import vassal_label
from referee.vassal.module.plan import DEFAULT_DPI, ModulePlan
from referee.vassal.module.setup_area import SETUP_BOARD, SETUP_MAP, SetupArea, setup_area_layout

__all__ = [
    "MAIN_MAP_EDGE",
    "Location",
    "Table",
    "table_for",
]

MAIN_MAP_EDGE: Final = (0, 0)
"""``edgeWidth``/``edgeHeight`` of the Main Map as the module writer builds it (§4.2): no
padding, so map and board coordinates agree (:meth:`ModulePlan.hex_centre` says so)."""

LocationKind = Literal[
    "hex",
    "zone",
    "space",
    "holding",
    "off-map",
    "setup",
    "off-board",
    "unknown-map",
    "no-map",
    "map-point",
]


@dataclass(frozen=True, slots=True)
class Location:
    """What a VASSAL position means for the game.

    ``kind`` is ``hex`` (``name`` = the hex id), ``zone`` or ``space`` (``name`` = the zone's
    or space's name, as VASSAL reports it), ``holding`` (``name`` = the carrier's piece
    id [9.62B]), ``setup`` (``name`` = the set-up group key), ``off-board`` (on a known map
    but outside every hex or box), ``unknown-map`` (a map our module does not have),
    ``no-map`` (the piece is on no map, e.g. deleted into a palette) or ``map-point`` (a pixel
    position read without the module, so not known to be in a hex or not).
    """

    kind: LocationKind
    name: str = ""
    map: str | None = None
    x: int = 0
    y: int = 0

    def __str__(self) -> str:
        if self.kind in ("hex", "zone", "space"):
            return self.name
        if self.kind == "holding":
            return f"holding box {self.name}"
        if self.kind == "off-map":
            return f"off-map box {self.name}"
        if self.kind == "setup":
            return f"set-up area ({self.name})"
        if self.kind == "no-map":
            return "no map"
        if self.kind == "map-point":
            return f"{self.map} pixel ({self.x},{self.y})"
        return f"{self.map} ({self.x},{self.y}), {self.kind}"

    @property
    def box(self) -> str | None:
        """The engine's ``UnitState.box`` for this location, if it is a holding box or an
        off-map box (named as the box)."""
        if self.kind == "off-map":
            return self.name
        return holding_box(self.name) if self.kind == "holding" else None


@dataclass(frozen=True)
class Table:
    """The module as VASSAL lays it out: its plan (board, grid, palette, holding boxes) and
    its set-up area. Build one with :func:`table_for`."""

    plan: ModulePlan
    setup_area: SetupArea | None

    @property
    def module(self) -> Module:
        return self.plan.module

    @property
    def main_map(self) -> str:
        return self.plan.map_name

    @property
    def holding_map(self) -> str:
        return self.plan.holding_map_name

    @property
    def boards(self) -> tuple[tuple[str, str], ...]:
        """``(map name, board name)`` of every map the module has, for BoardPicker commands."""
        out = [(self.plan.map_name, self.plan.board_name)]
        if self.plan.holding is not None:
            out.append((self.plan.holding_map_name, "Holding Boxes"))
        if self.setup_area is not None:
            out.append((SETUP_MAP, SETUP_BOARD))
        out.extend((d.decl.name, d.decl.name) for d in self.plan.displays)
        return tuple(out)

    def with_pieces(self, version: int) -> Table:
        """This table with the counters of piece version ``version``
        (:mod:`referee.vassal.module.piece_versions`): itself when its plan has them, else
        the same module planned again with them, once per table and version. Everything
        but the counters' traits is the same, so every point agrees."""
        if version == self.plan.piece_version:
            return self
        made = self._variants.get(version)
        if made is None:
            from referee.vassal.module.module_writer import plan_build

            plan = plan_build(self.module, dpi=self.plan.dpi, piece_version=version)
            made = self._variants[version] = Table(plan, self.setup_area)
        return made

    @cached_property
    def _variants(self) -> dict[int, Table]:
        return {}

    # ---- the ruleset's displays (a ship's tracks) ----------------------------------------
    def display_point(self, display: str, box: str) -> tuple[str, int, int]:
        """``(map, x, y)``: the centre of ``box`` on the display map ``display``; its map has
        no edge padding, so board and map coordinates agree. ``KeyError`` for no such box."""
        for d in self.plan.displays:
            if d.decl.name == display:
                for b in d.layout.boxes:
                    if b.zone == box:
                        x, y = b.centre
                        return display, x, y
        raise KeyError(f"no box {box!r} on the display {display!r}")

    # ---- hexes ---------------------------------------------------------------------------
    def hex_point(self, hex_id: str) -> tuple[str, int, int]:
        """``(map, x, y)`` where VASSAL stores a counter dropped on ``hex_id`` (§4.3, §4.2)."""
        x, y = self.plan.hex_centre(hex_id)
        return self.plan.map_name, x + MAIN_MAP_EDGE[0], y + MAIN_MAP_EDGE[1]

    def point_hex(self, x: int, y: int) -> str | None:
        """The hex a Main Map point lies in (VASSAL's label, §4.4-§4.5), or ``None`` when it
        is outside the board or names no hex of the map."""
        bx, by = x - MAIN_MAP_EDGE[0], y - MAIN_MAP_EDGE[1]
        w, h = self.plan.board_size
        if not (0 <= bx < w and 0 <= by < h) or self.module.map.grid is None:
            return None
        label = vassal_label(self.plan.grid, w, h, bx, by)
        return label if self.module.map.grid.is_valid_id(label) else None

    def is_snapped(self, x: int, y: int) -> bool:
        """Whether a Main Map point is exactly a hex's snapped centre (what VASSAL stores for
        a dropped counter); a log made with a module built at another ``--dpi`` is not."""
        hex_id = self.point_hex(x, y)
        return hex_id is not None and self.hex_point(hex_id)[1:] == (x, y)

    # ---- zones and spaces ------------------------------------------------------------------
    def location_point(self, location: str) -> tuple[str, int, int]:
        """``(map, x, y)`` where VASSAL stores a counter placed at ``location``: a hex id, or
        a zone or space name of an area or point-to-point map
        (:mod:`referee.vassal.module.layers`)."""
        x, y = self.plan.location_centre(location)
        return self.plan.map_name, x + MAIN_MAP_EDGE[0], y + MAIN_MAP_EDGE[1]

    def point_place(self, x: int, y: int) -> tuple[str, str] | None:
        """``(kind, name)`` of the zone or space VASSAL names a Main Map point, or ``None``."""
        layers = self.plan.layers
        if layers is None:
            return None
        bx, by = x - MAIN_MAP_EDGE[0], y - MAIN_MAP_EDGE[1]
        w, h = self.plan.board_size
        if not (0 <= bx < w and 0 <= by < h):
            return None
        name = layers.name_at(bx, by)
        if name is None:
            return None
        spaces = self.module.map.spaces
        return ("space" if spaces is not None and name in spaces.spaces else "zone"), name

    # ---- holding boxes [9.62B] -----------------------------------------------------------
    @cached_property
    def _boxes(self) -> dict[str, HoldingBox]:
        holding = self.plan.holding
        return {b.piece_id: b for b in holding.boxes} if holding else {}

    def has_holding_box(self, carrier: str) -> bool:
        return carrier in self._boxes

    def holding_point(self, carrier: str, index: int) -> tuple[str, int, int]:
        """The ``index``-th place in ``carrier``'s holding box: three across, two down, as
        the box is drawn for its six air units [9.62B]; more wrap onto the same places."""
        box = self._boxes[carrier]
        x0, y0, x1, y1 = box.rect
        per_row = 3
        i = index % HOLDING_CAPACITY
        col, row = i % per_row, i // per_row
        cx = x0 + (x1 - x0) * (2 * col + 1) // (2 * per_row)
        cy = y0 + (y1 - y0) * (2 * row + 1) // 4
        return self.plan.holding_map_name, cx, cy

    # ---- off-map boxes (the ruleset's, e.g. an off-map base) ---------------------------------
    @cached_property
    def _off_map(self) -> dict[str, HoldingBox]:
        layout = self.plan.off_map
        return {b.piece_id: b for b in layout.boxes} if layout else {}

    def has_off_map_box(self, box: str | None) -> bool:
        return box is not None and box in self._off_map

    def off_map_point(self, box: str, index: int) -> tuple[str, int, int]:
        """The ``index``-th place in an off-map box: six across, three down; more wrap."""
        x0, y0, x1, y1 = self._off_map[box].rect
        i = index % 18
        col, row = i % 6, i // 6
        return (
            self.plan.off_map_map_name,
            x0 + (x1 - x0) * (2 * col + 1) // 12,
            y0 + (y1 - y0) * (2 * row + 1) // 6,
        )

    def point_off_map(self, x: int, y: int) -> str | None:
        for name, box in self._off_map.items():
            x0, y0, x1, y1 = box.rect
            if x0 <= x <= x1 and y0 <= y <= y1:
                return name
        return None

    def point_box(self, x: int, y: int) -> str | None:
        for piece_id, box in self._boxes.items():
            x0, y0, x1, y1 = box.rect
            if x0 <= x <= x1 and y0 <= y <= y1:
                return piece_id
        return None

    # ---- reading any point ---------------------------------------------------------------
    def locate(self, map_id: str | None, x: int, y: int) -> Location:
        """What ``(map, x, y)`` from a save or log means for the game."""
        if map_id is None:
            return Location("no-map")
        if map_id == self.plan.map_name:
            place = self.point_place(x, y)
            if place is not None:
                return Location(place[0], place[1], map_id, x, y)  # type: ignore[arg-type]
            if self.module.map.grid is None:
                return Location("off-board", "", map_id, x, y)
            hex_id = self.point_hex(x, y)
            if hex_id is not None:
                return Location("hex", hex_id, map_id, x, y)
        elif map_id == self.plan.holding_map_name and self.plan.holding is not None:
            cv = self.point_box(x, y)
            if cv is not None:
                return Location("holding", cv, map_id, x, y)
        elif map_id == self.plan.off_map_map_name and self.plan.off_map is not None:
            name = self.point_off_map(x, y)
            if name is not None:
                return Location("off-map", name, map_id, x, y)
        elif map_id == SETUP_MAP and self.setup_area is not None:
            group = self.setup_area.group_at(x, y)
            return Location("setup", group.key if group else "", map_id, x, y)
        else:
            return Location("unknown-map", "", map_id, x, y)
        return Location("off-board", "", map_id, x, y)


def table_for(module: Module, *, dpi: int = DEFAULT_DPI, setup_area: bool = True) -> Table:
    """The :class:`Table` of the module ``referee build --dpi DPI`` writes for ``module``.

    ``setup_area=False`` leaves the set-up area out (for a module built without it).
    """
    from referee.vassal.module.module_writer import plan_build

    plan = plan_build(module, dpi=dpi)
    area = setup_area_layout(module, plan.counter_px) if setup_area else None
    return Table(plan, area)
