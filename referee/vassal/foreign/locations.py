"""Name any point of any module the way VASSAL's ``Map.locationName`` does.

:func:`module_locations` reads a module's maps from its buildFile (``mapName``, the edge
padding ``edgeWidth``/``edgeHeight``, every Board with its size and grid, every deck) and the
size of each board image from the archive. A :class:`Tabletop` of boards is then laid out the
way a save says (the ``BoardPicker`` commands, vassal-format.md §6.4) and named with
:meth:`BoardLayout.name`, which follows ``Map.locationName`` in VASSAL 3.7:

1. a deck (``DrawPile``) exactly at the point gives its name;
2. otherwise the first chosen board whose bounds hold the point names it with its grid, after
   taking off the board's offset (edge padding plus the widths of the boards to its left and
   the heights of the boards above it, ``Map.setBoardBoundaries``) and turning it round if the
   board is reversed (``Board.localCoordinates``);
3. otherwise, or when the grid gives no name, ``offboard``.

The grid formulas themselves are in :mod:`referee.vassal.foreign.grids_read`.
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from lxml import etree

from referee.numerals import read_whole
from referee.vassal.codec.commands import BoardPlacement, SetBoards, parse_command
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.foreign.grids_read import GridSpec, Size, read_grid
from referee.vassal.foreign.vmod import VmodContents, read_vmod

__all__ = [
    "OFFBOARD",
    "BoardLayout",
    "BoardSpec",
    "DeckSpec",
    "MapSpec",
    "ModuleLocations",
    "module_locations",
    "read_module_locations",
]

OFFBOARD: Final = "offboard"
"""``Map.offboard`` in VASSAL's English resources."""

MAP_TAGS: Final = (
    "VASSAL.build.module.Map",
    "VASSAL.build.module.PrivateMap",
    "VASSAL.build.module.PlayerHand",
    "VASSAL.build.widget.WidgetMap",
)
BOARD_PICKER: Final = "VASSAL.build.module.map.BoardPicker"
BOARD: Final = "VASSAL.build.module.map.boardPicker.Board"
DRAW_PILE: Final = "VASSAL.build.module.map.DrawPile"
GLOBAL_PROPERTY: Final = "VASSAL.build.module.properties.GlobalProperty"
_DEFAULT_BOARD_SIZE: Final = (500, 500)  # Board.boundaries' initial size


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """One Board: its name, size in pixels (the image's, or ``width``/``height`` without
    one), grid, image file name and whether the image was found in the archive."""

    name: str
    size: Size
    grid: GridSpec | None
    image: str | None
    image_found: bool


@dataclass(frozen=True, slots=True)
class DeckSpec:
    name: str
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class MapSpec:
    """One map window: ``name`` is the ``mapName`` pieces refer to (vassal-format.md §5.3)."""

    name: str
    edge: Size
    boards: Mapping[str, BoardSpec]
    decks: tuple[DeckSpec, ...]
    default_boards: tuple[BoardPlacement, ...]


@dataclass(frozen=True)
class ModuleLocations:
    """Every map of a module and the module-level properties a location format may use."""

    name: str
    version: str
    maps: Mapping[str, MapSpec]
    properties: Mapping[str, str]
    ids: Mapping[str, str] = field(default_factory=dict)
    """VASSAL's own map ids (``Map0``, ``Map1``... in build order) -> map name: a file may
    name a map either way (``UniqueIdManager.findInstance``)."""

    def find(self, map_id: str | None) -> MapSpec | None:
        if map_id is None:
            return None
        spec = self.maps.get(map_id)
        if spec is None and map_id in self.ids:
            spec = self.maps.get(self.ids[map_id])
        return spec

    def layout(self) -> BoardLayout:
        """The boards as a game starts: each map's default set-up, or its only board."""
        return BoardLayout(self)


@dataclass(frozen=True, slots=True)
class _Placed:
    board: BoardSpec
    reversed: bool
    x: int  # board's top-left corner in map pixels
    y: int


@dataclass
class BoardLayout:
    """The boards chosen for each map (changed by ``BoardPicker`` commands) and the names of
    points on them."""

    module: ModuleLocations
    chosen: dict[str, list[_Placed]] = field(default_factory=dict)
    used: dict[tuple[str, str], BoardSpec] = field(default_factory=dict)
    """Every board chosen at some time, by ``(map, board)``."""

    def __post_init__(self) -> None:
        if self.chosen:
            return
        for spec in self.module.maps.values():
            if spec.default_boards:
                self.chosen[spec.name] = self._lay_out(spec, spec.default_boards)
            elif len(spec.boards) == 1:
                only = next(iter(spec.boards))
                self.chosen[spec.name] = self._lay_out(spec, (BoardPlacement(only),))

    def set_boards(self, command: SetBoards) -> None:
        """Apply a ``BoardPicker`` command (``BoardPicker.decode``: unknown boards are
        skipped; a map the module lacks is ignored, as VASSAL ignores the command)."""
        spec = self.module.find(command.map_id)
        if spec is not None:
            self.chosen[spec.name] = self._lay_out(spec, command.boards)

    def _lay_out(self, spec: MapSpec, boards: tuple[BoardPlacement, ...]) -> list[_Placed]:
        known = [(spec.boards[b.name], b) for b in boards if b.name in spec.boards]
        for board, _ in known:
            self.used[(spec.name, board.name)] = board
        widths: dict[tuple[int, int], int] = {}
        heights: dict[tuple[int, int], int] = {}
        for board, b in known:
            widths[(b.x, b.y)] = board.size[0]
            heights[(b.x, b.y)] = board.size[1]
        out = []
        for board, b in known:
            x = sum(widths.get((c, b.y), 0) for c in range(b.x))
            y = sum(heights.get((b.x, r), 0) for r in range(b.y))
            out.append(_Placed(board, b.reversed, x + spec.edge[0], y + spec.edge[1]))
        return out

    def board_at(self, map_name: str, x: int, y: int) -> _Placed | None:
        """The first chosen board of ``map_name`` whose bounds hold the point."""
        for placed in self.chosen.get(map_name, ()):
            w, h = placed.board.size
            if placed.x <= x < placed.x + w and placed.y <= y < placed.y + h:
                return placed
        return None

    def name(self, map_name: str | None, x: int, y: int) -> str:
        """``Map.locationName(x, y)`` on map ``map_name`` (a ``mapName``)."""
        spec = self.module.find(map_name)
        if spec is None:
            return OFFBOARD
        for deck in spec.decks:  # DrawPile.getPosition adds the edge padding
            if (deck.x + spec.edge[0], deck.y + spec.edge[1]) == (x, y):
                return deck.name
        placed = self.board_at(spec.name, x, y)
        if placed is None or placed.board.grid is None:
            return OFFBOARD
        w, h = placed.board.size
        bx, by = x - placed.x, y - placed.y
        if placed.reversed:
            bx, by = w - bx, h - by
        name = placed.board.grid.location_name(bx, by, placed.board.size, self.module.properties)
        return OFFBOARD if name is None else name


def _image_size(entries: Mapping[str, bytes], image: str, source: str) -> Size | None:
    """The size of ``images/<image>`` in the archive, read from its header; ``None`` if the
    archive has no such image or it cannot be read."""
    data = entries.get("images/" + image)
    if data is None:
        return None
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as img:
                return (int(img.size[0]), int(img.size[1]))
    except Exception:
        return None


def _int_attr(el: etree._Element, key: str, default: int, source: str) -> int:
    text = el.get(key)
    if text is None or text == "":
        return default
    body = text[1:] if text[:1] in "+-" else text
    if not (body.isascii() and body.isdigit()):
        raise VassalFormatError(
            f"{source}:{el.sourceline}", f"attribute {key}={text!r} is not a whole number"
        )
    return int(text)


def _board(el: etree._Element, entries: Mapping[str, bytes], source: str) -> BoardSpec:
    image = el.get("image") or None
    grid = None
    for child in el:
        if isinstance(child.tag, str):
            grid = read_grid(child, source)
            break
    found = False
    size: Size = (
        _int_attr(el, "width", _DEFAULT_BOARD_SIZE[0], source),
        _int_attr(el, "height", _DEFAULT_BOARD_SIZE[1], source),
    )
    if image is not None:  # an image VASSAL cannot load leaves the board 0 x 0
        got = _image_size(entries, image, source)
        size, found = (got, True) if got is not None else ((0, 0), False)
    return BoardSpec(el.get("name", ""), size, grid, image, found)


def _default_boards(picker: etree._Element, map_name: str) -> tuple[BoardPlacement, ...]:
    for child in picker:
        if child.tag == "setup" and child.text:
            try:
                command = parse_command(child.text.strip(), source="BoardPicker setup")
            except VassalFormatError:
                return ()
            if isinstance(command, SetBoards):
                return command.boards
    return ()


def _map(el: etree._Element, entries: Mapping[str, bytes], source: str, map_id: str) -> MapSpec:
    name = el.get("mapName") or map_id  # UniqueIdManager.getIdentifier
    edge = (_int_attr(el, "edgeWidth", 0, source), _int_attr(el, "edgeHeight", 0, source))
    legacy = el.get("edge")
    if legacy and "," in legacy and legacy.index(",") > 0:
        w, _, h = legacy.partition(",")
        ew, eh = read_whole(w.strip(), signed=True), read_whole(h.strip(), signed=True)
        if ew is not None and eh is not None:
            edge = (ew, eh)
    boards: dict[str, BoardSpec] = {}
    default: tuple[BoardPlacement, ...] = ()
    for picker in el.iter(BOARD_PICKER):
        for b in picker.iter(BOARD):
            spec = _board(b, entries, source)
            boards.setdefault(spec.name, spec)
        default = default or _default_boards(picker, name)
    decks = tuple(
        DeckSpec(d.get("name", ""), _int_attr(d, "x", 0, source), _int_attr(d, "y", 0, source))
        for d in el.iter(DRAW_PILE)
    )
    return MapSpec(name, edge, boards, decks, default)


def module_locations(vmod: VmodContents, source: str) -> ModuleLocations:
    """The maps of a read module (see :func:`referee.vassal.foreign.vmod.read_vmod`)."""
    root = vmod.buildfile
    maps: dict[str, MapSpec] = {}
    ids: dict[str, str] = {}
    for index, el in enumerate(root.iter(*MAP_TAGS)):
        spec = _map(el, vmod.entries, source, f"Map{index}")
        maps.setdefault(spec.name, spec)
        ids[f"Map{index}"] = spec.name
    props: dict[str, str] = {}
    for gp in root.iter(GLOBAL_PROPERTY):
        parent = gp.getparent()
        grand = parent.getparent() if parent is not None else None
        if grand is root and gp.get("name"):  # module-level only
            props[gp.get("name", "")] = gp.get("initialValue", "")
    return ModuleLocations(root.get("name", ""), root.get("version", ""), maps, props, ids)


def read_module_locations(path: str | os.PathLike[str]) -> ModuleLocations:
    """Read a ``.vmod`` safely and return its maps; refusals raise
    :class:`~referee.vassal.codec.errors.VassalFormatError`."""
    return module_locations(read_vmod(path), os.fspath(path))
