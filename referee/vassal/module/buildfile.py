"""``buildFile.xml`` and ``moduledata``: the component tree of the module, built with lxml.

The tree follows vassal-format.md §3.4 with full class names, in the order VASSAL's editor
writes a new module: the command encoder, documentation (About screen and rules summary,
:mod:`referee.vassal.module.tools`), the player roster (one entry per side), global options, the
chatter, the Main Map (one Board carrying the board image, a HexGrid and a HexGridNumbering
from :mod:`referee.vassal.module.grid`, plus the helper components a usable map needs, §3.3, moved
markers, hide-pieces, the line-of-sight thread and the configured stack viewer), the Holding
Boxes map (one Zone per carrier [9.62B]), the Eliminated map (one dead pile per side),
prototypes, the counter palette, a 1d6 DiceButton, the Notes window, the Inventory, the one
TurnTracker (:mod:`referee.vassal.module.tracker`) with its clearing commands, the chart window and
any predefined set-ups.

Output is deterministic: attributes are written in sorted order (as VASSAL writes them),
elements in plan order, indentation is four spaces and PieceSlot texts keep literal TABs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from lxml import etree

from referee.vassal.module.artwork import HoldingLayout
from referee.vassal.module.grid import HEXGRID, NUMBERING
from referee.vassal.module.plan import ModulePlan, SlotDef
from referee.vassal.module.properties import global_properties, tracks_menu
from referee.vassal.module.table_rolls import tables_menu
from referee.vassal.module.tools import (
    dice_menu,
    documentation,
    inventory,
    main_map_tools,
    notes_window,
    turn_tracker,
)
from referee.vassal.module.traits import SOLITAIRE_SIDE

__all__ = [
    "DATE_SAVED",
    "VASSAL_VERSION",
    "PredefinedSetup",
    "buildfile_tree",
    "buildfile_xml",
    "moduledata_xml",
]

VASSAL_VERSION: Final = "3.7.0"
"""Written as ``VassalVersion``: 3.5 or later means the entry is ``buildFile.xml`` (§2.1);
3.7.0 keeps any 3.7.x from warning that the module is newer than itself."""

DATE_SAVED: Final = "315532800000"
"""``dateSaved`` in milliseconds: 1980-01-01, the zip epoch, so builds are reproducible."""

B: Final = "VASSAL.build."
M: Final = B + "module."
MAP: Final = M + "map."
BP: Final = MAP + "boardPicker."
BOARD: Final = BP + "board."
W: Final = B + "widget."

REPORT_MOVE: Final = "$pieceName$ moves $previousLocation$ -> $location$ *"


@dataclass(frozen=True, slots=True)
class PredefinedSetup:
    """A New Game choice (§3.5 ``PredefinedSetup``): a ``.vsav`` stored in the module, or
    with ``file=None`` a start from an empty board."""

    name: str
    file: str | None
    description: str = ""


def _el(parent: etree._Element | None, tag: str, attrs: Mapping[str, str] | None = None,
        text: str | None = None) -> etree._Element:  # fmt: skip
    """A child element with its attributes in sorted order (as VASSAL writes them)."""
    items = sorted((attrs or {}).items())
    el = etree.Element(tag) if parent is None else etree.SubElement(parent, tag)
    for k, v in items:
        el.set(k, v)
    if text is not None:
        el.text = text
    return el


def _bool(v: bool) -> str:
    return "true" if v else "false"


def buildfile_tree(plan: ModulePlan, setups: Sequence[PredefinedSetup] = ()) -> etree._Element:
    """The ``VASSAL.build.GameModule`` element for ``plan``."""
    module = plan.module
    root = _el(
        None,
        B + "GameModule",
        {
            "ModuleOther1": "",
            "ModuleOther2": "",
            "VassalVersion": VASSAL_VERSION,
            "description": module.description,
            "name": module.name,
            "nextPieceSlotId": str(plan.next_gpid),
            "version": module.version,
        },
    )
    _el(root, M + "BasicCommandEncoder")
    documentation(_el(root, M + "Documentation"), plan)
    roster = _el(
        root,
        M + "PlayerRoster",
        {
            "buttonIcon": "",
            "buttonKeyStroke": "",
            "buttonText": "Retire",
            "buttonToolTip": "Switch sides, become an observer, or let another player take "
            "your side",
        },
    )
    for side in module.sides:
        _el(roster, "entry", text=side.name)
    _el(roster, "entry", text=SOLITAIRE_SIDE)  # one player at the table plays every side
    _el(
        root,
        M + "GlobalOptions",
        {
            "autoReport": "Always",
            "chatterHTMLSupport": "Never",
            "nonOwnerUnmaskable": "Never",
            "playerIdFormat": "$PlayerName$",
            "promptString": "Opponents can unmask pieces",
        },
    )
    _el(root, M + "Chatter")
    _el(root, M + "KeyNamer")
    global_properties(_el(root, M + "properties.GlobalProperties"), module)
    _el(root, M + "properties.GlobalTranslatableMessages")
    _el(root, "VASSAL.i18n.Language")
    _main_map(root, plan)
    _box_maps(root, plan)
    protos = _el(root, M + "PrototypesContainer")
    for name, text in plan.prototypes:
        _el(protos, M + "PrototypeDefinition", {"description": "", "name": name}, text)
    _palette(root, plan)
    dice_menu(root, plan)
    tables_menu(root, module)
    tracks_menu(root, module)
    notes_window(root)
    inventory(root)
    turn_tracker(root, plan)
    if plan.charts:
        charts = _el(
            root,
            M + "ChartWindow",
            {"hotkey": "", "icon": "", "name": "Charts", "text": "Charts",
             "tooltip": "Sequence of play, CRT, TEC, victory, turn records, set-up cards"},
        )  # fmt: skip
        tabs = _el(charts, W + "TabWidget", {"entryName": "Charts"})
        for chart in plan.charts:
            _el(tabs, W + "Chart", {"chartName": chart.name, "fileName": chart.image})
    for setup in setups:
        attrs = {
            "description": setup.description,
            "isMenu": "false",
            "name": setup.name,
            "useFile": _bool(setup.file is not None),
        }
        if setup.file is not None:
            attrs["file"] = setup.file
        _el(root, M + "PredefinedSetup", attrs)
    return root


def map_helpers(map_el: etree._Element, zoom_levels: str, zoom_start: str) -> None:
    """The components the editor adds to a new map so pieces can be selected, dragged and
    right-clicked (§3.3)."""
    _el(
        map_el,
        MAP + "StackMetrics",
        {"bottom": "40,0", "disabled": "false", "down": "37,0", "exSepX": "6", "exSepY": "18",
         "top": "38,0", "unexSepX": "2", "unexSepY": "4", "up": "39,0"},
    )  # fmt: skip
    for name in (
        "ForwardToKeyBuffer",
        "Scroller",
        "ForwardToChatter",
        "MenuDisplayer",
        "MapCenterer",
        "StackExpander",
        "PieceMover",
        "KeyBufferer",
        "ImageSaver",
        "CounterDetailViewer",
        "Flare",
    ):
        _el(map_el, MAP + name)
    _el(map_el, MAP + "Zoomer", {"zoomLevels": zoom_levels, "zoomStart": zoom_start})
    _el(map_el, M + "properties.GlobalProperties")
    _el(map_el, MAP + "SelectionHighlighters")
    _el(map_el, MAP + "HighlightLastMoved", {"color": "255,0,0", "enabled": "true",
                                             "thickness": "2"})  # fmt: skip


def _map(
    parent: etree._Element, name: str, button: str, launch: bool, mark_moved: bool = False
) -> etree._Element:
    """A map window; ``mark_moved`` turns on the moved markers and the "Clear moved"
    button (the main map)."""
    marks = (
        {"markMoved": "Always", "markUnmovedHotkey": "", "markUnmovedIcon": "",
         "markUnmovedReport": "", "markUnmovedText": "Clear moved",
         "markUnmovedTooltip": "Clear the moved markers of every counter"}
        if mark_moved
        else {"markMoved": "Never"}
    )  # fmt: skip
    return _el(
        parent,
        M + "Map",
        marks
        | {
            "allowMultiple": "false",
            "backgroundcolor": "255,255,255",
            "buttonName": button,
            "changeFormat": "$message$",
            "createFormat": "$pieceName$ created in $location$ *",
            "edgeHeight": "0",
            "edgeWidth": "0",
            "hotkey": "",
            "icon": "",
            "launch": _bool(launch),
            "mapName": name,
            "moveToFormat": REPORT_MOVE,
            "moveWithinFormat": REPORT_MOVE,
        },
    )


def _picker(map_el: etree._Element) -> etree._Element:
    return _el(
        map_el,
        MAP + "BoardPicker",
        {"addColumnText": "Add column", "addRowText": "Add row", "boardPrompt": "Select board",
         "slotHeight": "125", "slotScale": "0.2", "slotWidth": "350", "title": "Choose Boards"},
    )  # fmt: skip


def _main_map(root: etree._Element, plan: ModulePlan) -> None:
    map_el = _map(root, plan.map_name, "Map", launch=False, mark_moved=True)
    board = _el(
        _picker(map_el),
        BP + "Board",
        {"image": plan.board_image, "name": plan.board_name, "reversible": "false"},
    )
    if plan.layers is None:
        grid = _el(board, BOARD + "HexGrid", plan.grid[HEXGRID])
        _el(grid, BOARD + "mapgrid.HexGridNumbering", plan.grid[NUMBERING])
    else:
        _layer_grids(board, plan)
    map_helpers(map_el, "0.25,0.33,0.5,0.67,0.75,1.0,1.5", "3")
    main_map_tools(map_el, plan)
    _decks(map_el, plan)


def deck_boxes(plan: ModulePlan) -> list[tuple[str, tuple[str, ...]]]:
    """The zones the module declares as decks (``deck = "face_down"`` and ``deck_pieces``,
    the piece ids in it), in map order: a cup of counters drawn at random (Sixth Fleet
    2019's strike markers [2.0])."""
    zl = plan.module.map.zones
    if plan.layers is None or zl is None:
        return []
    return [
        (z.name, tuple(str(z.properties.get("deck_pieces", "")).split()))
        for z in zl.zones.values()
        if z.properties.get("deck") == "face_down"
    ]


def _decks(map_el: etree._Element, plan: ModulePlan) -> None:
    """One VASSAL DrawPile per deck box, at the box's placement point (so a counter in it is
    reported by the box's name), face down and shuffled, holding the box's counters; a
    drawn counter stays face down (its Mask) for the other sides."""
    assert plan.layers is not None or not deck_boxes(plan)
    for name, pieces in deck_boxes(plan):
        x, y = plan.layers.point(name)  # type: ignore[union-attr]
        pile = _el(
            map_el,
            MAP + "DrawPile",
            {"allowMultiple": "false", "allowSelect": "false", "color": "0,0,0",
             "draw": "true", "drawFaceUp": "false", "faceDown": "Always",
             "faceDownFormat": "", "height": "60", "name": name, "owningBoard": plan.board_name,
             "reshufflable": "false", "reshuffleCommand": "", "reshuffleMessage": "",
             "reshuffleTarget": "", "reverseFormat": "", "reversible": "false",
             "shuffle": "Always", "shuffleFormat": "", "width": "60", "x": str(x),
             "y": str(y)},
        )  # fmt: skip
        for pid in pieces:
            slot = plan.unit_slots.get(pid)
            if slot is None:
                from referee.errors import UserError

                raise UserError(
                    f"map zone {name!r}: deck_pieces names {pid!r}, which is no counter of "
                    "the module",
                    hint="write piece ids as the roster makes them (a count of 2 makes "
                    "ID.1 and ID.2)",
                )
            _slot(pile, slot, plan.counter_px)


def _layer_grids(board: etree._Element, plan: ModulePlan) -> None:
    """Zones and spaces (``referee/vassal/module/layers.py``): a RegionGrid of the spaces on a map
    of spaces only, otherwise a ZonedGrid of the zones (spaces first, as small zones with
    their own one-region grid) over the hex grid when the map has one."""
    layers = plan.layers
    assert layers is not None
    if not layers.zones:
        regions = _el(board, BOARD + "RegionGrid", {"fontsize": "9", "snapto": "true",
                                                   "visible": "false"})  # fmt: skip
        for r in layers.regions:
            _el(regions, BOARD + "Region", {"name": r.name, "originx": str(r.x),
                                            "originy": str(r.y)})  # fmt: skip
        return
    zoned = _el(board, BOARD + "ZonedGrid")
    if plan.grid:
        grid = _el(zoned, BOARD + "HexGrid", plan.grid[HEXGRID])
        _el(grid, BOARD + "mapgrid.HexGridNumbering", plan.grid[NUMBERING])
    for z in layers.zones:
        zone = _el(
            zoned,
            BOARD + "mapgrid.Zone",
            {"highlightProperty": "", "locationFormat": "$name$", "name": z.name, "path": z.path,
             "useHighlight": "false", "useParentGrid": _bool(z.parent_grid)},
        )  # fmt: skip
        if z.region is not None:
            regions = _el(zone, BOARD + "RegionGrid", {"fontsize": "9", "snapto": "true",
                                                      "visible": "false"})  # fmt: skip
            _el(regions, BOARD + "Region", {"name": z.name, "originx": str(z.region[0]),
                                            "originy": str(z.region[1])})  # fmt: skip


def _boxes_map(
    root: etree._Element,
    map_name: str,
    button: str,
    board_name: str,
    image: str,
    layout: HoldingLayout,
) -> None:
    """A map window of named boxes (the carriers' holding boxes, the dead piles, the
    off-map boxes, a ruleset's display): one Zone per box, named as the box, so VASSAL
    reports a counter put there by the box's name ("Holding box US-CV-1" [9.62B])."""
    map_el = _map(root, map_name, button, launch=True)
    board = _el(
        _picker(map_el),
        BP + "Board",
        {"image": image, "name": board_name, "reversible": "false"},
    )
    zoned = _el(board, BOARD + "ZonedGrid")
    for box in layout.boxes:
        _el(
            zoned,
            BOARD + "mapgrid.Zone",
            {"highlightProperty": "", "locationFormat": "$name$", "name": box.zone,
             "path": box.path, "useHighlight": "false", "useParentGrid": "false"},
        )  # fmt: skip
    map_helpers(map_el, "0.5,0.75,1.0", "3")


def _box_maps(root: etree._Element, plan: ModulePlan) -> None:
    """The maps of boxes beside the main map: the carriers' holding boxes [9.62B], the dead
    piles (one Zone per side, where a unit's "Eliminate" (Ctrl+E) sends it), the ruleset's
    off-map boxes (an off-map base), and each of the ruleset's displays (a ship's tracks, a
    battle display)."""
    if plan.holding is not None:
        name = plan.holding_map_name
        _boxes_map(root, name, "Holding Boxes", "Holding Boxes", plan.holding_image, plan.holding)
    if plan.eliminated is not None:
        name = plan.eliminated_map_name
        _boxes_map(root, name, "Eliminated", name, plan.eliminated_image, plan.eliminated)
    if plan.off_map is not None:
        name = plan.off_map_map_name
        _boxes_map(root, name, "Off-map", name, plan.off_map_image, plan.off_map)
    for display in plan.displays:
        name = display.decl.name
        _boxes_map(root, name, name, name, display.image, display.layout)


def _slot(parent: etree._Element, slot: SlotDef, size: int) -> None:
    _el(
        parent,
        W + "PieceSlot",
        {"entryName": slot.entry_name, "gpid": str(slot.gpid), "height": str(size),
         "width": str(size)},
        slot.text,
    )  # fmt: skip


def _palette(root: etree._Element, plan: ModulePlan) -> None:
    """Counters grouped by side, then nationality (tabs), then unit type (lists)."""
    window = _el(
        root,
        M + "PieceWindow",
        {"defaultWidth": "0", "hidden": "false", "hotkey": "", "icon": "", "name": "Counters",
         "scale": "1.0", "text": "Counters", "tooltip": "Show or hide the counter palette"},
    )  # fmt: skip
    top = _el(window, W + "TabWidget", {"entryName": "Counters"})
    side_tabs: dict[str, etree._Element] = {}
    nat_tabs: dict[str, etree._Element] = {}
    for group in plan.palette:
        side_tab = side_tabs.get(group.side.id)
        if side_tab is None:
            side_tab = _el(top, W + "TabWidget", {"entryName": group.side.name})
            side_tabs[group.side.id] = side_tab
        nat_tab = nat_tabs.get(group.nationality.code)
        if nat_tab is None:
            nat_tab = _el(side_tab, W + "TabWidget", {"entryName": group.nationality.name})
            nat_tabs[group.nationality.code] = nat_tab
        lst = _el(nat_tab, W + "ListWidget", {"entryName": group.title, "scale": "1.0"})
        for slot in group.slots:
            _slot(lst, slot, plan.counter_px)
    markers = _el(top, W + "ListWidget", {"entryName": "Markers", "scale": "1.0"})
    for slot in plan.marker_slots:
        _slot(markers, slot, plan.counter_px)


def buildfile_xml(plan: ModulePlan, setups: Sequence[PredefinedSetup] = ()) -> bytes:
    """``buildFile.xml`` as UTF-8 bytes with an XML declaration, indented by four spaces."""
    return serialise(buildfile_tree(plan, setups))


XML_DECLARATION: Final = b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
"""The declaration exactly as VASSAL's own writer spells it (lxml would use single quotes)."""


def serialise(root: etree._Element) -> bytes:
    etree.indent(root, space="    ")
    return XML_DECLARATION + etree.tostring(root, encoding="UTF-8", xml_declaration=False) + b"\n"


def moduledata_xml(name: str, version: str, description: str) -> bytes:
    """``moduledata`` (§2.2): name and version must equal the buildFile's."""
    root = _el(None, "data", {"version": "1"})
    _el(root, "version", text=version)
    _el(root, "extra1", text="")
    _el(root, "extra2", text="")
    _el(root, "VassalVersion", text=VASSAL_VERSION)
    _el(root, "dateSaved", text=DATE_SAVED)
    _el(root, "description", text=description)
    _el(root, "name", text=name)
    return serialise(root)
