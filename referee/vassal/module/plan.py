"""Everything the module will say, decided before a single image is drawn.

:func:`plan_module` turns a :class:`~referee.source.model.Module` into a
:class:`ModulePlan`: the board size and its hex grid attributes, one palette piece per
physical counter with its gpid and PieceSlot text, the marker pieces, the prototypes, the
carrier holding boxes, the charts and the list of images to render. The plan is cheap (no
rendering), so other writers can use it too: the scenario set-up writer places pieces with
:meth:`ModulePlan.hex_centre` and :meth:`ModulePlan.holding_centre` and copies their type
and state from :attr:`ModulePlan.unit_slots`, and its ``.vsav`` files then plug into
:func:`referee.vassal.module.module_writer.build_module`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Final

from referee.errors import UserError
from referee.source.model import Module, Nationality, Side, UnitDef
from referee.source.schema import DisplayDecl, MarkerDecl, off_map_boxes
from referee.vassal.codec.pieces import Piece, Trait, expand_prototypes
from referee.vassal.module.artwork import (
    DEFAULT_BAND,
    Band,
    HoldingLayout,
    holding_layout,
    status_band,
)
from referee.vassal.module.displays import DisplayPlan, display_image, display_layout
from referee.vassal.module.grid import GridAttrs, label_centres, vassal_grid_for
from referee.vassal.module.layers import MapLayers, map_layers
from referee.vassal.module.levels import SHIFT_TAKEN, level_names, levelled_layer_trait
from referee.vassal.module.palette import (
    ATTACKED_LAYER,
    BACK_LAYER,
    RETURNING_LAYER,
    UNIT_PROTOTYPE,
    LayerSpec,
    face_image,
    is_carrier,
    layer_trait,
    marker_layer,
    marker_piece,
    piece_name,
    prototype_name,
    slot_text,
    stable_gpids,
    type_prototype,
    unit_piece,
    unit_prototype,
)
from referee.vassal.module.piece_versions import CURRENT as CURRENT_PIECES
from referee.vassal.module.piece_versions import has_piece_commands, has_refit, has_trails
from referee.vassal.module.properties import (
    TRACKS_PIECE,
    TrackProperty,
    track_properties,
    tracks_piece,
)
from referee.vassal.module.tracker import TrackerPlan, plan_tracker
from referee.vassal.module.traits import (
    CTRL_SHIFT,
    CUP_KEY,
    ELIMINATE_KEY,
    ELIMINATED_MAP,
    PERMANENT_KEY,
    REFIT_KEY,
    SOLITAIRE_SIDE,
    eliminated_zone,
    key_stroke,
    mask_trait,
    report_trait,
    return_to_deck_trait,
    send_to_eliminated_trait,
    send_to_zone_trait,
)
from referee.vassal.module.triggers import CTRL_ALT, exit_traits, loss_traits, lost_at_traits

__all__ = [
    "ATTACKED_OVERLAY",
    "BOARD_IMAGE",
    "DEFAULT_DPI",
    "ELIMINATED_IMAGE",
    "HOLDING_IMAGE",
    "HOLDING_MAP",
    "MAIN_MAP",
    "MAX_COUNTER_PX",
    "MIN_COUNTER_PX",
    "MOVED_IMAGE",
    "RETURNING_OVERLAY",
    "ChartDef",
    "MarkerDef",
    "MarkerLayer",
    "ModulePlan",
    "PaletteList",
    "SlotDef",
    "plan_module",
]

DEFAULT_DPI: Final = 150
"""Pixels per inch of the board and counter images in the module: counters and hexes
keep their printed proportions, and counter text stays legible at 100% zoom."""
MIN_COUNTER_PX: Final = 16
MAX_COUNTER_PX: Final = 600
"""Counter images outside this range (at the build dpi) are refused as absurd."""

MAIN_MAP: Final = "Main Map"
HOLDING_MAP: Final = "Holding Boxes"
BOARD_IMAGE: Final = "board.png"
HOLDING_IMAGE: Final = "holding_boxes.png"
ATTACKED_OVERLAY: Final = "layer_attacked.png"
RETURNING_OVERLAY: Final = "layer_returning.png"
MOVED_IMAGE: Final = "moved.png"
ELIMINATED_IMAGE: Final = "eliminated.png"
OFF_MAP_MAP: Final = "Off-map Boxes"
OFF_MAP_IMAGE: Final = "off_map_boxes.png"
ABOUT_IMAGE: Final = "about.png"

BUILTIN_LAYERS: Final = {"attacked": ATTACKED_LAYER, "returning": RETURNING_LAYER}
"""Ruleset marker ids shown by the module's own layers (Attacked on every unit [7.44],
Returning on air units [9.22]); any other declared marker gets a layer of its own."""
FREE_KEYS: Final = "GHJKLNOPUY"
"""Ctrl letters left for ruleset marker layers (B, C, D, E, M, R and T are taken)."""
MARKER_COLOURS: Final = ("#1F5FBF", "#7A3DB8", "#0E8A4B", "#B86A00", "#5A5A5A")


@dataclass(frozen=True, slots=True)
class MarkerLayer:
    """A ruleset-declared unit marker (detected, damaged, readiness...) as a counter Layer:
    the marker id, its Layer, image and the unit categories that carry it (empty: all).
    ``levels`` (a marker with levels, :mod:`referee.vassal.module.levels`): the name of each value
    0, 1, ...; the Layer then has one level per value, value ``n`` showing ``images[n]``."""

    marker: str
    spec: LayerSpec
    image: str
    fill: str
    categories: tuple[str, ...]
    levels: tuple[str, ...] = ()
    face_down: bool = False  # a counter with a printed back shows it (MarkerDecl.face_down)

    @property
    def images(self) -> tuple[str, ...]:
        """Every image of the layer (a levelled unit layer draws nothing at value 0)."""
        if not self.levels:
            return (self.image,)
        return tuple(level_image(self.marker, n) for n in range(1, len(self.levels)))

    def trait(self) -> Trait:
        """The counter's Layer trait."""
        if not self.levels:
            return layer_trait(self.spec, self.image)
        return levelled_layer_trait(
            self.spec.name,
            self.spec.key,
            self.levels,
            ("", *self.images),
            self.spec.description,
            blank_first=True,
        )


@dataclass(frozen=True, slots=True)
class LocationMarker:
    """A ruleset-declared marker with levels that stands on places, not units (a port's
    capacity left [26.25]): its declaration, the palette slot of its counter and the image
    of each value 0, 1, ... (``images[n]``)."""

    decl: MarkerDecl
    slot: SlotDef
    fill: str
    image: str  # the counter's own face (the marker's name)
    images: tuple[str, ...]
    key: str  # Ctrl+key up, Ctrl+Shift+key down

    @property
    def names(self) -> tuple[str, ...]:
        return level_names(self.decl)


def level_image(marker: str, value: int) -> str:
    """The image of value ``value`` of the levelled marker ``marker``."""
    return f"layer_{marker}_{value}.png"


@dataclass(frozen=True, slots=True)
class SlotDef:
    """One PieceSlot: its palette name, gpid, decoded piece and encoded text."""

    key: str  # the piece id ("SO-T16.2") or "marker:<Name>"
    entry_name: str
    gpid: int
    piece: Piece
    text: str


@dataclass(frozen=True, slots=True)
class PaletteList:
    """The counters of one unit type of one nationality: a list in the palette."""

    side: Side
    nationality: Nationality
    unit_type: str
    title: str
    slots: tuple[SlotDef, ...]


@dataclass(frozen=True, slots=True)
class MarkerDef:
    """A marker counter of the palette's Markers list, and the picture to draw for it."""

    name: str
    rule: str
    note: str
    image: str
    fill: str
    ink: str


MARKERS: Final = (
    MarkerDef("Destroyed", "10.44", "Defended hex [10.44]", "marker_destroyed.png", "#222222",
              "#FFFFFF"),
    MarkerDef("Attacked", "7.44", "this phase [7.44]", "marker_attacked.png", "#D01818",
              "#FFFFFF"),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ChartDef:
    """A chart of the chart window: its tab title, image name and renderer chart name."""

    name: str
    image: str
    source: str = ""


@dataclass(frozen=True)
class ModulePlan:
    """What the ``.vmod`` will contain, in order, with every name and number fixed."""

    module: Module
    dpi: int
    counter_px: int
    board_name: str
    board_size: tuple[int, int]
    grid: GridAttrs
    palette: tuple[PaletteList, ...]
    unit_slots: Mapping[str, SlotDef]  # piece id -> slot, roster order
    marker_slots: tuple[SlotDef, ...]
    prototypes: tuple[tuple[str, str], ...]  # (name, text)
    holding: HoldingLayout | None
    charts: tuple[ChartDef, ...]
    markers: tuple[MarkerDef, ...] = MARKERS
    map_name: str = MAIN_MAP
    holding_map_name: str = HOLDING_MAP
    board_image: str = BOARD_IMAGE
    holding_image: str = HOLDING_IMAGE
    faces: tuple[tuple[UnitDef, bool], ...] = field(default=())
    layers: MapLayers | None = None  # zones and spaces (area and point-to-point maps)
    eliminated: HoldingLayout | None = None  # one dead-pile box per side
    off_map: HoldingLayout | None = None  # the ruleset's off-map boxes (an off-map base)
    marker_layers: tuple[MarkerLayer, ...] = ()
    tracker: TrackerPlan | None = None
    shown_markers: tuple[tuple[str, str], ...] = ()  # (marker id, counter Layer name)
    displays: tuple[DisplayPlan, ...] = ()  # the ruleset's displays, a map window each
    # (image, unit id): the shared back a Mask shows, drawn from one unit of that back, so
    # the image's name never says which counter is under it
    mask_images: tuple[tuple[str, str], ...] = ()
    prototype_pieces: Mapping[str, Piece] = field(default_factory=dict)
    # markers with levels that stand on places (a port's capacity left [26.25])
    location_markers: tuple[LocationMarker, ...] = ()
    attacked: bool = True  # the units have the Attacked layer [7.44] (the ruleset declares it)
    # where the status marks go on a counter (fractions of its side): its picture's box
    status_band: Band = DEFAULT_BAND
    piece_version: int = CURRENT_PIECES  # the piece-trait version (piece_versions)

    def expanded(self, slot: SlotDef) -> Piece:
        """The slot's piece with its prototypes expanded, as VASSAL puts it on the table
        (what a save must hold for a layer of a prototype to keep its state)."""
        return expand_prototypes(slot.piece, self.prototype_pieces)

    eliminated_map_name: str = ELIMINATED_MAP
    eliminated_image: str = ELIMINATED_IMAGE
    off_map_map_name: str = OFF_MAP_MAP
    off_map_image: str = OFF_MAP_IMAGE
    about_image: str = ABOUT_IMAGE

    @property
    def next_gpid(self) -> int:
        """``nextPieceSlotId``: one more than every gpid in the module (§5.9)."""
        gpids = [s.gpid for s in self.unit_slots.values()] + [s.gpid for s in self.marker_slots]
        return max(gpids, default=0) + 1

    @cached_property
    def _centres(self) -> dict[str, tuple[int, int]]:
        w, h = self.board_size
        grid = self.module.map.grid
        if grid is None:  # an area or point-to-point map: no hexes
            return {}
        return label_centres(self.grid, w, h, grid.all_ids())

    def location_centre(self, location: str) -> tuple[int, int]:
        """Where VASSAL stores a piece placed at ``location`` on the Main Map: a hex id
        (:meth:`hex_centre`), or a zone or space name of an area or point-to-point map."""
        if self.layers is not None and location not in self._centres:
            return self.layers.point(location)
        return self.hex_centre(location)

    def hex_centre(self, hex_id: str) -> tuple[int, int]:
        """Where VASSAL stores a piece snapped into ``hex_id`` on the Main Map (§4.3); the
        map has no edge padding, so board and map coordinates agree (§4.2)."""
        try:
            return self._centres[hex_id]
        except KeyError:
            raise KeyError(f"hex {hex_id} is not on the board") from None

    def holding_centre(self, carrier_piece_id: str) -> tuple[int, int]:
        """Centre of a carrier's holding box on the Holding Boxes map [9.62B]."""
        for box in self.holding.boxes if self.holding else ():
            if box.piece_id == carrier_piece_id:
                return box.centre
        raise KeyError(f"no holding box for {carrier_piece_id}")

    def image_names(self) -> list[str]:
        """Every image the buildFile names (without the ``images/`` prefix), sorted."""
        names = {self.board_image, MOVED_IMAGE, self.about_image}
        if self.attacked:
            names.add(ATTACKED_OVERLAY)
        for layer in self.marker_layers:
            names.update(layer.images)
        for loc in self.location_markers:
            names.add(loc.image)
            names.update(loc.images)
        if self.eliminated is not None:
            names.add(self.eliminated_image)
        if self.off_map is not None:
            names.add(self.off_map_image)
        names.update(face_image(u, b) for u, b in self.faces)
        if any(u.category == "air" and not u.back for u in self.module.units):
            names.add(RETURNING_OVERLAY)
        names.update(m.image for m in self.markers)
        names.update(c.image for c in self.charts)
        if self.holding is not None:
            names.add(self.holding_image)
        names.update(d.image for d in self.displays)
        names.update(image for image, _unit in self.mask_images)
        return sorted(names)


def _counter_px(module: Module, dpi: int) -> int:
    side = round(module.counter.size_in * dpi)
    if not MIN_COUNTER_PX <= side <= MAX_COUNTER_PX:
        raise UserError(
            f"module.toml: [counter] size_in = {module.counter.size_in} makes {side} px "
            f"counters at {dpi} dpi; the module needs {MIN_COUNTER_PX} to {MAX_COUNTER_PX} px",
            hint="a printed counter is usually 0.5 to 1 inch; check size_in (and --dpi)",
        )
    return side


def plan_module(
    module: Module,
    *,
    dpi: int = DEFAULT_DPI,
    charts: tuple[ChartDef, ...] = (),
    piece_version: int = CURRENT_PIECES,
) -> ModulePlan:
    """Decide the whole module for ``module`` at ``dpi`` (no images are drawn here), its
    counters with the traits of piece version ``piece_version``
    (:mod:`referee.vassal.module.piece_versions`: an older game's saves keep its version's).

    Raises :class:`UserError` for a source the module cannot be made from (no sides, no
    counters, absurd counter sizes).
    """
    from referee.render.board import board_layout
    from referee.render.board_layers import name_boxes

    if not module.sides:
        raise UserError(
            "module.toml: no [[side]] is declared; VASSAL needs at least one player side",
            hint="add [[side]] tables (id, name, color)",
        )
    if not module.units:
        raise UserError("the unit roster is empty", hint="add one row per counter design")
    counter_px = _counter_px(module, dpi)
    layout = board_layout(module, dpi)
    grid: GridAttrs = {}
    if module.map.grid is not None:
        try:
            grid = vassal_grid_for(layout)
        except ValueError as exc:
            raise UserError(f"cannot number the board's hexes for VASSAL: {exc}") from None
    pieces = module.pieces()
    schema = module.schema
    # a ruleset's markers decide its layers: Attacked [7.44] only where it is declared
    attacked = schema is None or any(d.id == "attacked" for d in schema.markers)
    markers = tuple(m for m in MARKERS if attacked or m.name != "Attacked")
    located = [d for d in (schema.markers if schema is not None else ()) if d.on == "location"]
    tracks_key = f"marker:{TRACKS_PIECE}"
    gpids = stable_gpids(
        [*pieces, *(f"marker:{m.name}" for m in markers), *(f"marker:{d.name}" for d in located),
         tracks_key]
    )  # fmt: skip
    faces = _faces(module)
    has_back = {u.id for u, back in faces if back}

    marker_layers = _marker_layers(module)
    scoring = _scoring(module, piece_version)
    cup_return = _cup_return(module, piece_version)
    sinking = _sinking(module, marker_layers, piece_version)
    masked = set(schema.masked_backs) if schema is not None else set()
    side_names = {s.id: s.name for s in module.sides}
    solitaire = schema.solitaire_side if schema is not None else ""
    mask_images: dict[str, str] = {}
    slots: dict[str, SlotDef] = {}
    for pid, piece in pieces.items():
        unit = piece.unit
        returning: str | None = None
        if unit.category == "air":
            returning = face_image(unit, True) if unit.id in has_back else RETURNING_OVERLAY
        extra: list[tuple[LayerSpec, str | Trait]] = [
            (m.spec, m.trait() if m.levels else _layer_image(m, unit, unit.id in has_back))
            for m in marker_layers
            if not m.categories or unit.category in m.categories
        ]
        mask = None
        if unit.back is not None and unit.back in masked and unit.id in has_back:
            mask_images.setdefault(mask_image(unit.back), unit.id)
            mask = mask_trait(
                mask_image(unit.back),
                mask_name(unit.back),
                _mask_owners(side_names, solitaire or unit.side),
                peek=not solitaire,
            )
        elif unit.category != "air" and unit.id in has_back:
            # e.g. a Sailed ship [25.31]: "(sailed)" after its name while it shows the back
            side = f"+ ({unit.back.replace('_', ' ')})" if unit.back else BACK_LAYER.level_name
            spec = replace(BACK_LAYER, level_name=side)
            extra.append((spec, face_image(unit, True)))
        built = unit_piece(
            module, unit, pid, gpids[pid], returning, extra, mask,
            outer=[*scoring(unit), *sinking(unit), *cup_return(pid)],
        )  # fmt: skip
        slots[pid] = SlotDef(pid, piece_name(pid, unit), gpids[pid], built, slot_text(built))

    marker_slots = []
    for m in markers:
        key = f"marker:{m.name}"
        built = marker_piece(m.name, m.image, gpids[key], {"Marker": m.name, "Rule": m.rule})
        marker_slots.append(SlotDef(key, m.name, gpids[key], built, slot_text(built)))
    location_markers = _location_markers(located, gpids, marker_layers)
    marker_slots += [loc.slot for loc in location_markers]
    tracks = tracks_piece(  # the Global Properties on the map, changed by its menu too
        module, gpids[tracks_key], commands=has_piece_commands(piece_version)
    )
    if tracks is not None:
        marker_slots.append(
            SlotDef(tracks_key, TRACKS_PIECE, gpids[tracks_key], tracks, slot_text(tracks))
        )

    types: dict[str, str] = {}
    for unit in module.units:
        info = module.unit_types.get(unit.type, {})
        types.setdefault(unit.type, info.get("name", "") or unit.type)
    proto_pieces = {
        UNIT_PROTOTYPE: unit_prototype(
            ATTACKED_OVERLAY if attacked else None,
            MOVED_IMAGE,
            counter_px,
            trails=has_trails(piece_version),
            **_exits(module, piece_version),
        )
    }
    proto_pieces.update((prototype_name(t), type_prototype(t, n)) for t, n in types.items())
    prototypes = [(name, slot_text(piece)) for name, piece in proto_pieces.items()]

    carriers = [(pid, piece_name(pid, p.unit)) for pid, p in pieces.items() if is_carrier(p.unit)]
    holding = holding_layout(carriers, counter_px) if carriers else None

    layers = None
    if module.map.kind != "hex":
        hex_centres = (
            label_centres(grid, layout.width, layout.height, module.map.grid.all_ids())
            if module.map.grid is not None
            else {}
        )
        layers = map_layers(module, layout.px, counter_px, hex_centres, name_boxes(module, layout))

    eliminated = holding_layout(
        [(s.id, f"{s.name}: eliminated") for s in module.sides],
        counter_px,
        zone_format=eliminated_zone("{}"),
        across=6,
        down=3,
    )
    boxes = off_map_boxes(module, module.ruleset)
    off_map = (
        holding_layout(boxes, counter_px, zone_format="{}", across=6, down=3) if boxes else None
    )
    shown = {"attacked": ATTACKED_LAYER.name} if attacked else {}
    if any(u.category == "air" for u in module.units):
        shown["returning"] = RETURNING_LAYER.name
    shown.update((m.marker, m.spec.name) for m in marker_layers)

    return ModulePlan(
        module=module,
        dpi=dpi,
        counter_px=counter_px,
        board_name=module.map.title or module.name,
        board_size=(layout.width, layout.height),
        grid=grid,
        palette=_palette(module, slots, types),
        unit_slots=slots,
        marker_slots=tuple(marker_slots),
        markers=markers,
        location_markers=location_markers,
        attacked=attacked,
        status_band=_status_band(module),
        piece_version=piece_version,
        prototypes=tuple(prototypes),
        holding=holding,
        charts=charts,
        faces=tuple(faces),
        layers=layers,
        eliminated=eliminated,
        off_map=off_map,
        marker_layers=marker_layers,
        tracker=plan_tracker(module, shown),
        shown_markers=tuple(shown.items()),
        prototype_pieces=proto_pieces,
        mask_images=tuple(sorted(mask_images.items())),
        displays=tuple(
            DisplayPlan(d, display_layout(d, counter_px), display_image(d))
            for d in _displays(module)
        ),
    )


def _displays(module: Module) -> tuple[DisplayDecl, ...]:
    """The ruleset's displays, then the module's own (``RulesetSchema.module_displays``)."""
    schema = module.schema
    if schema is None:
        return ()
    own = schema.module_displays(module) if schema.module_displays is not None else ()
    return (*schema.displays, *own)


def _marker_layers(module: Module) -> tuple[MarkerLayer, ...]:
    """A Layer for each marker the ruleset declares beyond Attacked and Returning."""
    schema = module.schema
    out: list[MarkerLayer] = []
    used: set[str] = set()
    for decl in schema.markers if schema is not None else ():
        if decl.id in BUILTIN_LAYERS or decl.on != "unit":
            continue
        key = _free_key(used, bool(decl.levels))
        if key is None:
            raise UserError(
                f"ruleset {module.ruleset} declares more unit markers than the "
                f"{len(FREE_KEYS)} free Ctrl keys of a counter ({decl.id} has none)",
                hint="declare a track of values as one marker with levels (MarkerDecl.levels)",
            )
        used.add(key)
        spec = marker_layer(decl.name, key, decl.note, decl.rule)
        colour = MARKER_COLOURS[len(out) % len(MARKER_COLOURS)]
        names = level_names(decl) if decl.levels else ()
        image = f"layer_{decl.id}.png" if not decl.levels else level_image(decl.id, 1)
        out.append(
            MarkerLayer(decl.id, spec, image, colour, decl.categories, names, decl.face_down)
        )
    return tuple(out)


def _layer_image(layer: MarkerLayer, unit: UnitDef, has_back: bool) -> str:
    """The image of a one-level marker layer on ``unit``: its printed back for a face-down
    marker (an inactive air unit [DTP 9.23]), else the marker's tag."""
    return face_image(unit, True) if layer.face_down and has_back else layer.image


def _free_key(used: set[str], levelled: bool) -> str | None:
    """The first free Ctrl letter; a layer with levels also takes Ctrl+Shift+letter, so not
    one of the module's own Ctrl+Shift buttons (``SHIFT_TAKEN``)."""
    return next(
        (k for k in FREE_KEYS if k not in used and not (levelled and k in SHIFT_TAKEN)), None
    )


def _location_markers(
    decls: list[MarkerDecl], gpids: Mapping[str, int], layers: tuple[MarkerLayer, ...]
) -> tuple[LocationMarker, ...]:
    """A palette marker for each levelled marker that stands on places: a counter whose one
    Layer shows the value (Ctrl+key up, Ctrl+Shift+key down), every value with an image; its
    letter differs from the units' layers' where one is left, so the help reads clearly."""
    out: list[LocationMarker] = []
    used = {m.spec.key for m in layers}
    keys_used = len(layers)
    for i, decl in enumerate(decls):
        key = f"marker:{decl.name}"
        letter = _free_key(used, True) or _free_key(set(), True) or FREE_KEYS[0]
        used.add(letter)
        images = tuple(level_image(decl.id, n) for n in range(decl.levels + 1))
        layer = levelled_layer_trait(
            decl.name, letter, level_names(decl), images, f"{decl.note} [{decl.rule}]",
            blank_first=False,
        )  # fmt: skip
        face = f"marker_{decl.id}.png"
        built = marker_piece(
            decl.name, face, gpids[key], {"Marker": decl.name, "Rule": decl.rule}, layer, letter
        )
        slot = SlotDef(key, decl.name, gpids[key], built, slot_text(built))
        colour = MARKER_COLOURS[(keys_used + i) % len(MARKER_COLOURS)]
        out.append(LocationMarker(decl, slot, colour, face, images, letter))
    return tuple(out)


def _status_band(module: Module) -> Band:
    """Where status marks go on this module's counters: the box every layout's picture
    (``symbol``) shares, so a marker never hides a value a player needs (issue 27)."""
    layouts = module.counter.layouts.values()
    symbols = [b for lay in layouts for b in lay.boxes if b.kind == "symbol"]
    return status_band([(b.x, b.y, b.x + b.w, b.y + b.h) for b in symbols])


def _mask_owners(side_names: Mapping[str, str], side: str) -> tuple[str, ...]:
    """The roster sides that may mask and unmask a counter of ``side`` (in a solitaire game,
    the player's side: he reveals the game's face-down counters when the rules say): that
    side's roster name, then the Solitaire seat. Never a side id: VASSAL compares names."""
    own = (side_names[side],) if side in side_names else ()
    return (*own, SOLITAIRE_SIDE)


def box_zone(module: Module, box: str) -> str | None:
    """The zone of the map printed as a box of kind ``box`` (its ``box`` property), if any."""
    zones = module.map.zones
    if zones is None:
        return None
    return next((n for n, z in zones.zones.items() if z.properties.get("box") == box), None)


def refit_zone(module: Module) -> str | None:
    """The zone of the map printed as the Refit Box (``box = "refit"``), if it has one: where
    the 2019 rules put units eliminated by over-stacking [7.2] (and, provisionally, in
    combat [2.8.3]) until they refit [4.3]."""
    return box_zone(module, "refit")


def permanent_zone(module: Module) -> str | None:
    """The zone printed as the Permanently Eliminated Box (``box = "eliminated"``), if any:
    where a 2019 unit goes that cannot refit [2.8.3, 4.3]."""
    return box_zone(module, "eliminated")


def cups(module: Module) -> dict[str, str]:
    """Each counter a face-down deck box holds at set-up, and that box (the DrawPile of the
    same name): the 2019 strike cups [2.0]."""
    zones = module.map.zones
    if zones is None:
        return {}
    return {
        pid: name
        for name, z in zones.zones.items()
        if z.properties.get("deck") == "face_down"
        for pid in str(z.properties.get("deck_pieces", "")).split()
    }


def _cup_return(module: Module, piece_version: int) -> Callable[[str], list[Trait]]:
    """A counter of a cup goes back to it by menu (Ctrl+Shift+C, reported): a 2019 strike
    marker played goes back to its cup (provisional 17.0, docs/interpretations.md). None before
    piece version 6."""
    held = cups(module) if has_piece_commands(piece_version) else {}
    stroke = f"{ord(CUP_KEY)},{CTRL_SHIFT}"

    def traits(pid: str) -> list[Trait]:
        cup = held.get(pid)
        if cup is None:
            return []
        return [
            report_trait((), "Report the return to the cup", strokes=[stroke]),
            return_to_deck_trait(
                f"Back to the {cup}", stroke, cup, f"Back to the {cup} [17.0, provisional]"
            ),
        ]

    return traits


def _sinking(
    module: Module, layers: tuple[MarkerLayer, ...], piece_version: int
) -> Callable[[UnitDef], list[Trait]]:
    """Each unit's Trigger eliminating it when a damage layer reaches the value that sinks it
    (``MarkerDecl.lost_at``: D3 [DTP 8.55], past the Protection Rating [27.31]); none before
    piece version 6."""
    schema = module.schema
    decls = {d.id: d for d in schema.markers} if schema is not None else {}
    found = [
        (layer, decls[layer.marker].lost_at, decls[layer.marker].rule)
        for layer in layers
        if layer.levels and layer.marker in decls and decls[layer.marker].lost_at is not None
    ]
    if not found or not has_piece_commands(piece_version):
        return lambda _unit: []

    def traits(unit: UnitDef) -> list[Trait]:
        out: list[Trait] = []
        for layer, lost_at, rule in found:
            value = lost_at(module, unit) if lost_at is not None else None
            carries = not layer.categories or unit.category in layer.categories
            if value is not None and carries and value < len(layer.levels):
                up = key_stroke(layer.spec.key)
                out.append(
                    lost_at_traits(layer.spec.name, up, value, key_stroke(ELIMINATE_KEY), rule)
                )
        return out

    return traits


def _scoring(module: Module, piece_version: int) -> Callable[[UnitDef], list[Trait]]:
    """Each unit's Trigger, report and Set Global Property scoring its loss
    (:mod:`referee.vassal.module.triggers`): none before piece version 6, none where the
    ruleset scores no loss at once or on a text track."""
    schema = module.schema
    hook = schema.loss_score if schema is not None else None
    if hook is None or not has_piece_commands(piece_version):
        return lambda _unit: []
    tracks: dict[str, TrackProperty] = {t.name: t for t in track_properties(module) if t.numeric}
    lost = [z for z in (refit_zone(module), permanent_zone(module)) if z is not None]

    def traits(unit: UnitDef) -> list[Trait]:
        score = hook(module, unit)
        track = tracks.get(score.track) if score is not None else None
        if score is None or track is None:
            return []
        return loss_traits(score, track, lost)

    return traits


def _exits(module: Module, piece_version: int) -> dict[str, list[Trait]]:
    """The ``Unit`` prototype's commands that take a unit out of play, by
    :func:`~referee.vassal.module.palette.unit_prototype` keyword: Eliminate (Ctrl+E), the
    Refit Box (Ctrl+Shift+R, from piece version 4) and the Permanently Eliminated Box
    (Ctrl+Shift+E, version 6) where the map has them. From version 6 each is a Trigger owning
    the menu entry, which lets a scoring unit score before a Send To moves it."""
    triggered = has_piece_commands(piece_version)
    board = module.map.title or module.name
    out: dict[str, list[Trait]] = {}
    wanted = [
        ("eliminate", "Eliminate", key_stroke(ELIMINATE_KEY), "E", None, ""),
        ("refit", "Refit Box", f"{ord(REFIT_KEY)},{CTRL_SHIFT}", "R",
         refit_zone(module) if has_refit(piece_version) else None,
         "To the Refit Box: eliminated by over-stacking or in combat, until it refits [7.2]"),
        ("permanent", "Permanently Eliminated", f"{ord(PERMANENT_KEY)},{CTRL_SHIFT}", "P",
         permanent_zone(module) if triggered else None,
         "To the Permanently Eliminated Box: out of the game, scoring for the enemy [4.3]"),
    ]  # fmt: skip
    for keyword, command, stroke, letter, zone, note in wanted:
        if keyword != "eliminate" and zone is None:
            continue
        hidden = f"{ord(letter)},{CTRL_ALT}"
        name, key = ("", hidden) if triggered else (command, stroke)
        send = (
            send_to_eliminated_trait(name, key)
            if zone is None
            else send_to_zone_trait(name, key, MAIN_MAP, board, zone, note)
        )
        out[keyword] = exit_traits(command, stroke, hidden, send) if triggered else [send]
    return out


def mask_image(back: str) -> str:
    """The image a Mask shows for every counter of the back layout ``back``."""
    return f"mask_{back}.png"


def mask_name(back: str) -> str:
    """What a masked counter is called to the other sides: its back's kind, never its name
    (``warship_back`` -> ``face-down warship``)."""
    return "face-down " + back.removesuffix("_back").replace("_", " ")


def _faces(module: Module) -> list[tuple[UnitDef, bool]]:
    from referee.render.counters import counter_faces

    return counter_faces(module)


def _palette(
    module: Module, slots: Mapping[str, SlotDef], types: Mapping[str, str]
) -> tuple[PaletteList, ...]:
    """Side, then nationality (declaration order), then unit type (roster order)."""
    pieces = module.pieces()
    groups: dict[tuple[str, str, str], list[SlotDef]] = {}
    for pid, slot in slots.items():
        unit = pieces[pid].unit
        groups.setdefault((unit.side, unit.nationality, unit.type), []).append(slot)
    out: list[PaletteList] = []
    for side in module.sides:
        for nat in module.nationalities.values():
            for unit_type, type_name in types.items():
                chosen = groups.get((side.id, nat.code, unit_type))
                if chosen:
                    title = unit_type if type_name == unit_type else f"{unit_type} {type_name}"
                    out.append(PaletteList(side, nat, unit_type, title, tuple(chosen)))
    return tuple(out)
