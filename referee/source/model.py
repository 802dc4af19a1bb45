"""The module model: one game's units, map, tables and scenarios, as loaded from its source.

These immutable dataclasses are what every later stage reads: the renderers, the VASSAL
writer, the rules engine and the PBEM referee. Nothing here knows a rulebook; what the values
*mean* is the ruleset's business (``referee/rules/<id>/``). The model only records what the
source folder says, with the file and line each fact came from, so a later stage can point a
designer back at the line to fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from referee.hexgrid import HexGrid, hexside_key
from referee.source.mapkinds import Canvas, PropValue, SpaceLayer, ZoneLayer
from referee.source.origin import Origin
from referee.source.schema import RulesetSchema
from referee.source.tablemodel import NamedTable

if TYPE_CHECKING:
    from referee.source.gamedecl import GameDecl


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str
    color: str


@dataclass(frozen=True, slots=True)
class Nationality:
    code: str
    name: str
    side: str
    color: str
    text_color: str = "#000000"


@dataclass(frozen=True, slots=True)
class ValueSpec:
    """One printed value column of the roster (e.g. ``AA``), in printed order."""

    key: str
    label: str
    air_label: str | None = None  # Sixth Fleet prints Range where ships print Movement


@dataclass(frozen=True, slots=True)
class LayoutBox:
    """One box of a counter face, in fractions of the counter's side (0..1, origin top-left).

    ``kind`` is ``text`` (a template such as ``"{AA}-{AS}-{ASW}"``), ``symbol`` (a unit-type
    symbol the renderer draws), ``image`` (the roster's image column), ``band`` (a coloured
    stripe, shown when ``when`` holds) or ``mark``.
    """

    kind: str
    x: float
    y: float
    w: float
    h: float
    text: str = ""
    font: str = "bold"
    align: str = "center"
    color: str | None = None
    fill: str | None = None
    when: str | None = None
    legend: str | None = None  # what the box means, for the counter-sheet legend


@dataclass(frozen=True, slots=True)
class CounterLayout:
    name: str
    boxes: tuple[LayoutBox, ...]
    background: str | None = None  # None: the nationality colour


@dataclass(frozen=True, slots=True)
class CounterSpec:
    size_in: float
    dpi: int
    layouts: dict[str, CounterLayout]  # by name; "default" always present
    category_layouts: dict[str, str]  # category -> layout name


@dataclass(frozen=True, slots=True)
class ArtCut:
    """One counter face cut from a designer's picture: the picture and the box of it that is
    the face, ``(x0, y0, x1, y1)`` in its pixels (the whole picture for a roster row's own
    ``front_image``/``back_image``)."""

    picture: ArtFile
    box: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class CounterArt:
    """A counter whose faces are the designer's art (a cut counter sheet, or pictures a roster
    row names) instead of a drawn layout. Its values stay in the roster, for the rules and as
    VASSAL properties; ``print_values`` prints the layout's texts over the art too."""

    front: ArtCut
    back: ArtCut | None = None
    print_values: bool = False
    origin: Origin = field(default_factory=lambda: Origin(""))


@dataclass(frozen=True, slots=True)
class UnitDef:
    """One roster row: a counter design and how many copies the counter mix has."""

    id: str
    side: str
    nationality: str
    category: str
    type: str
    number: str
    name: str
    values: dict[str, int]
    flags: frozenset[str]
    fleet: str = ""
    count: int = 1
    image: str | None = None
    back: str | None = None
    source: str = ""
    origin: Origin = field(default_factory=lambda: Origin(""))
    art: CounterArt | None = None  # faces from the designer's art (load_sheets.py)
    face_images: tuple[str, ...] = ()  # the row's front_image, back_image ("" when absent)

    @property
    def has_back(self) -> bool:
        """Whether the counter has a back face: a back layout, or back art."""
        return self.back is not None or (self.art is not None and self.art.back is not None)

    @property
    def piece_ids(self) -> tuple[str, ...]:
        """Stable ids of the physical counters: ``US-CV-1``, or ``SO-T16.1``..``SO-T16.4``."""
        if self.count == 1:
            return (self.id,)
        return tuple(f"{self.id}.{i}" for i in range(1, self.count + 1))

    def has(self, flag: str) -> bool:
        return flag in self.flags


@dataclass(frozen=True, slots=True)
class Piece:
    """One physical counter: a roster row plus its copy number."""

    id: str
    unit: UnitDef


@dataclass(frozen=True, slots=True)
class TerrainType:
    """A row of the Terrain Effects Chart; also the legend of the text map."""

    id: str
    char: str
    name: str
    color: str
    costs: dict[str, int | None]  # movement cost by unit category; None = may not enter
    blocks_zoc: bool = False
    defense_multiplier: dict[str, int] = field(default_factory=dict)
    notes: str = ""
    rule: str = ""
    origin: Origin = field(default_factory=lambda: Origin(""))


@dataclass(frozen=True, slots=True)
class Country:
    code: str
    name: str
    nationality: str | None = None  # the nationality code whose territory it is, if any
    color: str | None = None


@dataclass(frozen=True, slots=True)
class Area:
    """A named region (a sea area, a boundary's far side), drawn with a boundary line."""

    code: str
    id: str
    name: str
    color: str = "#000000"


@dataclass(frozen=True, slots=True)
class Airbase:
    hex: str
    nationality: str
    name: str = ""
    origin: Origin = field(default_factory=lambda: Origin(""))


@dataclass(frozen=True, slots=True)
class DefendedHex:
    hex: str
    side: str
    defense: int
    ecm: int
    name: str = ""
    origin: Origin = field(default_factory=lambda: Origin(""))


@dataclass(frozen=True, slots=True)
class Edge:
    """A named stretch of map edge, used by retreat and line-of-communication rules."""

    id: str
    name: str
    side: str  # north/south/east/west
    hexes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Place:
    hex: str
    name: str
    label: bool = True


@dataclass(frozen=True, slots=True)
class Island:
    """An island drawn on the board as a small land mark, for the eye only.

    Its land is not in the terrain layer: no rule reads it, and the hex it sits in keeps
    the terrain the rules use (a small Aegean island in a Restricted Water hex stays
    Restricted Water [10.14]). ``at`` is its centre, east and north of ``hex``'s centre, and
    ``size`` its length and breadth, both in hex widths; ``angle`` turns its length
    anticlockwise from east, in degrees. ``label`` prints its name beside it.
    """

    name: str
    hex: str
    at: tuple[float, float] = (0.0, 0.0)
    size: tuple[float, float] = (0.3, 0.2)
    angle: float = 0.0
    label: bool = False


@dataclass(frozen=True, slots=True)
class HexDef:
    id: str
    terrain: str
    country: str | None
    areas: frozenset[str]
    airbase: Airbase | None = None
    defended: DefendedHex | None = None
    setup_code: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class ArtFile:
    """A designer's picture in the source, checked by :mod:`referee.source.artfiles`: its
    name (relative to the source folder), kind (``png`` or ``jpeg``), size in pixels and the
    SHA-256 of its bytes (so a cache key names the very pixels)."""

    name: str
    kind: str
    width: int
    height: int
    sha256: str


@dataclass(frozen=True, slots=True)
class AnchorFit:
    """One ``[[grid.anchor]]`` after the fit: the hex, the picture pixel the designer read
    its centre at, and how far (in hex widths) the fitted grid puts that hex's centre."""

    hex: str
    x: float
    y: float
    residual: float
    line: int | None = None


@dataclass(frozen=True, slots=True)
class PictureFit:
    """Where the hex grid lies on a map picture: a similarity (scale, rotation, shift; never a
    mirror) from a picture pixel ``(x, y)`` (right, down) to the grid's page at hex width 1
    without margin, ``u = a x - b y + tu``, ``v = b x + a y + tv``, fitted to the anchors by
    :func:`referee.similarity_fit.fit_similarity`."""

    a: float
    b: float
    tu: float
    tv: float
    anchors: tuple[AnchorFit, ...] = ()

    @property
    def px_per_hex(self) -> float:
        """Picture pixels from one hex centre to the next."""
        return 1.0 / (self.a * self.a + self.b * self.b) ** 0.5

    @property
    def rotation_deg(self) -> float:
        """How far the picture is turned clockwise from the grid, in degrees."""
        import math

        return -math.degrees(math.atan2(self.b, self.a))

    def page_of(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x - self.b * y + self.tu, self.b * x + self.a * y + self.tv

    def picture_of(self, u: float, v: float) -> tuple[float, float]:
        k = self.a * self.a + self.b * self.b
        du, dv = u - self.tu, v - self.tv
        return (self.a * du + self.b * dv) / k, (self.a * dv - self.b * du) / k


@dataclass(frozen=True, slots=True)
class MapArt:
    """A map picture under the map (``[board] image``): the picture, where the hex grid lies
    on it (``None`` on a map without a grid: the picture spans the ``[board]``), and the
    colours of its terrain (``[board] legend``: terrain id -> ``#RRGGBB``), which ``check``
    compares with ``map.txt``."""

    picture: ArtFile
    fit: PictureFit | None = None
    legend: tuple[tuple[str, str], ...] = ()
    origin: Origin = field(default_factory=lambda: Origin("map.toml"))


@dataclass(frozen=True, slots=True)
class MapDef:
    """A map of one, two or three kinds (docs/module-source.md): a hex grid (``grid``, with
    ``hexes`` and everything keyed by hex), zones (``zones``, an area map) and spaces
    (``spaces``, a point-to-point map). A map without a hex grid has ``grid = None``, no
    hexes and a ``canvas`` giving the size its coordinates are drawn on."""

    title: str
    grid: HexGrid | None
    hexes: dict[str, HexDef]
    terrain: dict[str, TerrainType]
    countries: dict[str, Country]
    areas: dict[str, Area]
    all_land_hexsides: frozenset[tuple[str, str]]
    edges: dict[str, Edge]
    places: tuple[Place, ...]
    setup_codes: dict[str, str]  # code -> nationality code ("So" -> "So")
    zones: ZoneLayer | None = None
    spaces: SpaceLayer | None = None
    canvas: Canvas | None = None
    islands: tuple[Island, ...] = ()  # decoration drawn on the board, read by no rule
    art: MapArt | None = None  # a picture under the map ([board] image)

    @property
    def kind(self) -> str:
        """``hex``, ``area``, ``point``, or a combination joined by ``+`` (``hex+area``)."""
        parts = [
            k
            for k, present in (
                ("hex", self.grid is not None),
                ("area", self.zones is not None),
                ("point", self.spaces is not None),
            )
            if present
        ]
        return "+".join(parts)

    def location_names(self) -> tuple[str, ...]:
        """Every zone and space name, in source order (hex ids are not listed here)."""
        out: list[str] = []
        if self.zones is not None:
            out.extend(self.zones.zones)
        if self.spaces is not None:
            out.extend(self.spaces.spaces)
        return tuple(out)

    def is_location(self, name: str) -> bool:
        """Whether ``name`` is a hex of the grid, a zone or a space of this map."""
        if self.grid is not None and name in self.hexes:
            return True
        if self.zones is not None and name in self.zones.zones:
            return True
        return self.spaces is not None and name in self.spaces.spaces

    def hex(self, hex_id: str) -> HexDef:
        return self.hexes[hex_id]

    def is_all_land_hexside(self, a: str, b: str) -> bool:
        return hexside_key(a, b) in self.all_land_hexsides

    def airbases(self) -> list[Airbase]:
        return [h.airbase for h in self.hexes.values() if h.airbase is not None]

    def defended_hexes(self) -> list[DefendedHex]:
        return [h.defended for h in self.hexes.values() if h.defended is not None]

    def in_area(self, hex_id: str, area_id: str) -> bool:
        return area_id in self.hexes[hex_id].areas


# ---- tables --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CrtCell:
    """A CRT entry: ``hi`` is the highest die roll that forces a retreat; ``None`` means ``*``
    (no effect, no roll) [8.9]. ``lo`` is kept for printing ranges such as ``1-2``."""

    lo: int | None
    hi: int | None

    @property
    def no_effect(self) -> bool:
        return self.hi is None

    def __str__(self) -> str:
        if self.hi is None:
            return "*"
        if self.lo == self.hi:
            return str(self.hi)
        return f"{self.lo}-{self.hi}"


@dataclass(frozen=True, slots=True)
class CombatResultsTable:
    """Differential columns across, ECM rows down [8.8]/[8.9]."""

    columns: tuple[int, ...]
    rows: dict[int, tuple[CrtCell, ...]]
    sources: dict[int, str]
    title: str = "Combat Results Table"
    row_label: str = "ECM"
    column_label: str = "Combat Differential"

    def column_for(self, differential: int) -> int | None:
        """Round down to the nearest printed heading [8.9]; above the top: the top column;
        below the lowest: ``None`` (the attack is not allowed)."""
        if differential < self.columns[0]:
            return None
        best = self.columns[0]
        for c in self.columns:
            if c <= differential:
                best = c
        return best

    def lookup(self, differential: int, ecm: int) -> tuple[int, int, CrtCell] | None:
        col = self.column_for(differential)
        if col is None:
            return None
        row = min(max(ecm, min(self.rows)), max(self.rows))
        return col, row, self.rows[row][self.columns.index(col)]


@dataclass(frozen=True, slots=True)
class VictoryLevel:
    low: int | None
    high: int | None
    result: str

    def matches(self, net: int) -> bool:
        return (self.low is None or net >= self.low) and (self.high is None or net <= self.high)


@dataclass(frozen=True, slots=True)
class Tables:
    """The module's tables. Every table is a :class:`NamedTable` in ``named`` (``tables["crt"]``
    looks one up by name); ``crt`` and ``victory`` are the Sixth Fleet-shaped views of the
    ``crt`` and ``victory`` tables that rulesets and charts have always read."""

    crt: CombatResultsTable | None
    victory: tuple[VictoryLevel, ...]
    extra: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    named: dict[str, NamedTable] = field(default_factory=dict)

    def __getitem__(self, name: str) -> NamedTable:
        return self.named[name]

    def __contains__(self, name: object) -> bool:
        return name in self.named

    def get(self, name: str) -> NamedTable | None:
        return self.named.get(name)

    def level_of_victory(self, net: int) -> str | None:
        for lv in self.victory:
            if lv.matches(net):
                return lv.result
        return None


# ---- scenarios -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FixedPlacement:
    unit: str  # piece id
    hex: str
    rule: str = ""
    status: str | None = None  # e.g. "cap", "holding:US-CV-1"
    origin: Origin = field(default_factory=lambda: Origin(""))


@dataclass(frozen=True, slots=True)
class ChoicePlacement:
    unit: str
    hexes: tuple[str, ...]
    rule: str = ""
    origin: Origin = field(default_factory=lambda: Origin(""))


@dataclass(frozen=True, slots=True)
class SetupPool:
    """Units whose placement is the player's choice, under constraints.

    ``where`` is ``setup_code`` (hexes coded ``code``), ``airbase`` (airbases of
    ``nationality``, optionally limited to ``countries``), ``carrier`` (on CAP over or in the
    holding box of ``carrier``), ``hexes`` (an explicit list of hexes, zones or spaces), or,
    on a map with zones or spaces, ``zones`` (every zone of one of ``types`` whose properties
    include ``properties``) and ``spaces`` (every space on one of ``lines`` and of one of
    ``types``, with ``properties``). ``hexes`` always holds the locations that qualify.
    """

    side: str
    units: tuple[str, ...]
    where: str
    rule: str = ""
    code: str | None = None
    nationality: str | None = None
    countries: tuple[str, ...] = ()
    carrier: str | None = None
    hexes: tuple[str, ...] = ()
    per_hex_min: int = 0
    per_hex_max: int | None = None
    fill_all: bool = False
    text: str = ""
    origin: Origin = field(default_factory=lambda: Origin(""))
    types: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()
    properties: dict[str, PropValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Reinforcement:
    side: str
    units: tuple[str, ...]
    after_turn: int
    entry: str  # airbases | edge_adjacent | area
    hexes: tuple[str, ...] = ()
    edge: str | None = None
    area: str | None = None
    loc_edge: str | None = None
    text: str = ""
    rule: str = ""
    origin: Origin = field(default_factory=lambda: Origin(""))


@dataclass(frozen=True, slots=True)
class Prohibition:
    area: str
    categories: tuple[str, ...]
    until_turn: int  # may enter from this Game-Turn on
    text: str = ""
    rule: str = ""


@dataclass(frozen=True, slots=True)
class VictoryBonus:
    id: str
    side: str
    vp: int
    condition: str
    params: dict[str, object]
    text: str = ""
    rule: str = ""


@dataclass(frozen=True, slots=True)
class OptionalRule:
    id: str
    name: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    name: str
    turns: int
    first_player: str
    setup_order: tuple[str, ...]
    turn_states: tuple[str, ...]  # the day/night state of Game-Turn 1..turns
    night_states: frozenset[str]
    forces: dict[str, tuple[str, ...]]  # side -> piece ids in play at the start
    fixed: tuple[FixedPlacement, ...]
    choices: tuple[ChoicePlacement, ...]
    pools: tuple[SetupPool, ...]
    reinforcements: tuple[Reinforcement, ...]
    prohibitions: tuple[Prohibition, ...]
    victory_bonuses: tuple[VictoryBonus, ...]
    unit_vp: str = "ECM"
    unit_vp_minimum: int = 1
    optional_rules: tuple[str, ...] = ()
    description: str = ""
    source: Origin = field(default_factory=lambda: Origin(""))

    def turn_state(self, turn: int) -> str:
        return self.turn_states[turn - 1]

    def is_night(self, turn: int) -> bool:
        return self.turn_state(turn) in self.night_states

    def all_pieces(self) -> set[str]:
        out: set[str] = set()
        for ids in self.forces.values():
            out.update(ids)
        for r in self.reinforcements:
            out.update(r.units)
        return out


@dataclass(frozen=True, slots=True)
class Module:
    """A whole module source, loaded and checked."""

    id: str
    name: str
    version: str
    ruleset: str
    description: str
    root: Path
    sides: tuple[Side, ...]
    nationalities: dict[str, Nationality]
    values: tuple[ValueSpec, ...]
    counter: CounterSpec
    units: tuple[UnitDef, ...]
    map: MapDef
    tables: Tables
    scenarios: dict[str, Scenario]
    optional_rules: dict[str, OptionalRule]
    unit_types: dict[str, dict[str, str]] = field(default_factory=dict)  # type -> attributes
    # a game without a ruleset: what its own [game] table declares (ruleset "declared")
    game: GameDecl | None = None
    # what the module's ruleset asks of it (``referee/source/schema.py``), attached once by
    # whoever builds the module (the loader, the cache, a VASSAL import) from the registry:
    # for a declared game, that schema with the game's own declarations. ``None`` only for a
    # ruleset this installation does not know (the loader refuses such a module). Derived
    # from ``ruleset`` and ``game``, so the module cache stores neither it nor its functions.
    schema: RulesetSchema | None = field(
        default=None, compare=False, repr=False, metadata={"derived": True}
    )

    def scenario(self, scenario_id: str) -> Scenario:
        """The scenario ``scenario_id``; an unknown one is a UserError (exit 2) naming the
        scenarios there are, the one way every command and ruleset says so."""
        sc = self.scenarios.get(scenario_id)
        if sc is not None:
            return sc
        from referee.errors import UserError
        from referee.source.diagnostics import did_you_mean

        raise UserError(
            f"module {self.id!r} has no scenario {scenario_id!r}",
            hint=did_you_mean(scenario_id, list(self.scenarios))
            or "scenarios: " + ", ".join(sorted(self.scenarios)),
        )

    def side(self, side_id: str) -> Side:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)

    def pieces(self) -> dict[str, Piece]:
        """Every physical counter by stable piece id, in roster order (a new dict each call:
        the caller may change it)."""
        return dict(_pieces_of(self.units))

    def unit(self, unit_id: str) -> UnitDef:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def piece(self, piece_id: str) -> Piece:
        return _pieces_of(self.units)[piece_id]


# The pieces of a roster, built once per roster: rules ask ``module.piece(pid)`` for every
# unit of every order, and rebuilding the 170 counters each time made `validate` cost 2 ms an
# order (issue 31). Keyed by the identity of the immutable ``units`` tuple, which the entry
# keeps alive so that the identity cannot be reused; a few rosters at most per process.
_PIECES: dict[int, tuple[tuple[UnitDef, ...], dict[str, Piece]]] = {}
_PIECES_KEPT = 8


def _pieces_of(units: tuple[UnitDef, ...]) -> dict[str, Piece]:
    hit = _PIECES.get(id(units))
    if hit is not None and hit[0] is units:
        return hit[1]
    out: dict[str, Piece] = {}
    for u in units:
        for pid in u.piece_ids:
            out[pid] = Piece(pid, u)
    if len(_PIECES) >= _PIECES_KEPT:
        _PIECES.pop(next(iter(_PIECES)))
    _PIECES[id(units)] = (units, out)
    return out
