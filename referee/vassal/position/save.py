"""An adjudicated position as a VASSAL save both players can open: ``position.vsav``.

After each adjudication the referee writes the position beside the turn's reports. It is the
engine's :class:`~referee.engine.core.GameState` laid out with our module's own counters:

* a unit on the map sits at the snapped centre of its hex (vassal-format.md §4.3), stacked in
  the recorded order (``state.stacks`` is top first; a VASSAL Stack is bottom first, §5.8);
* an air unit in a carrier's holding box (``box = "holding:US-CV-1"``) sits in that box on
  the Holding Boxes map [9.62B];
* a returning air unit [9.22] has its Returning layer active (the back face);
* an eliminated unit is left out; a unit not yet placed or a reinforcement still to come
  [12.2] waits in its scenario's set-up area (when the module has one);
* a Defended hex whose intrinsic DEF was destroyed [10.44] gets a Destroyed marker under its
  stack;
* every unit marker the ruleset declares (``RulesetSchema.markers``: attacked this phase
  [7.44], detected, damaged, readiness...) shows as the counter's layer, whether the engine
  keeps it in ``UnitState.status`` or in a list of ``GameState.data`` the declaration names;
* every track marker of the ruleset's displays (``DisplayDecl.markers``: the carrier's Hull,
  its Fuel [4.0 step 6], [9.2]) stands in the box of the value the state records, on the
  display's map window; a value beyond the printed track sits in its end box;
* the turn tracker stands at the state's Game-Turn and step, with only the scenario's turns
  active (:func:`referee.vassal.module.tracker.tracker_state`).

:func:`position_placements` is the pure part; :func:`position_vsav_bytes` and
:func:`write_position_vsav` add the save format and the atomic write.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from referee.engine.core import GameState, UnitState
from referee.engine.ruleset import deck_contents, get_ruleset
from referee.errors import UserError
from referee.numerals import read_whole
from referee.source.boxes import carried_by
from referee.source.boxes import carrier_of as holding_carrier
from referee.source.model import Module
from referee.source.schema import MarkerDecl
from referee.vassal.codec.commands import SetTurn
from referee.vassal.codec.pieces import Embellishment, Piece
from referee.vassal.module.buildfile import deck_boxes
from referee.vassal.module.levels import level_value, marker_values
from referee.vassal.module.palette import BACK_LAYER, RETURNING_LAYER
from referee.vassal.module.piece_versions import has_tracks, recorded_version, shows_face_down
from referee.vassal.module.plan import DEFAULT_DPI
from referee.vassal.module.properties import track_properties
from referee.vassal.module.setup_area import SETUP_MAP, carrier_pools
from referee.vassal.module.tracker import TRACKER_ID, tracker_state
from referee.vassal.position.decks import DeckFill, deck_fills
from referee.vassal.position.face_down import face_down_pieces
from referee.vassal.position.placement import Table, table_for
from referee.vassal.position.savewriter import Placed, build_save

__all__ = [
    "STATUS_LAYERS",
    "box_units",
    "display_placements",
    "level_markers",
    "marker_levels",
    "position_placements",
    "position_vsav_bytes",
    "write_position_vsav",
]

STATUS_LAYERS: Final[Mapping[str, str]] = {
    "returning": RETURNING_LAYER.name,
    "back": BACK_LAYER.name,
}
"""Engine status flag -> the counter Layer that shows it: an air unit returning to base
[9.22]; a counter turned to its printed back face (a naval unit's Sailed side [25.31])."""

WAITING_BOXES: Final = ("unplaced", "reinforcements")
"""Boxes whose units wait in the set-up area."""


def _data_list(data: Mapping[str, object], path: str, level: int | None = None) -> list[str]:
    """The unit ids at ``path`` (``"combat.attacked"``) of ``GameState.data``, or none; with
    ``level``, the ids of the mapping at ``path`` whose value is ``level`` (``"damage"``)."""
    node: object = data
    for part in path.split("."):
        if not isinstance(node, Mapping):
            return []
        node = node.get(part)
    if level is not None:
        if not isinstance(node, Mapping):
            return []
        return sorted(str(u) for u, v in node.items() if v == level)
    return [str(u) for u in node] if isinstance(node, list | tuple) else []


def marker_layers(table: Table, state: GameState) -> dict[str, frozenset[str]]:
    """Unit id -> the counter layers its markers turn on: the engine's status flags and the
    ``data`` lists of the ruleset's marker declarations, through the module's layers."""
    shown = dict(table.plan.shown_markers)
    shown.update((k, v) for k, v in STATUS_LAYERS.items() if k not in shown)
    schema = table.module.schema
    listed: dict[str, set[str]] = {}
    for decl in schema.markers if schema is not None else ():
        if decl.data and decl.id in shown and not decl.levels:
            for unit in _data_list(state.data, decl.data, decl.level):
                listed.setdefault(unit, set()).add(shown[decl.id])
    out: dict[str, frozenset[str]] = {}
    for u in state.units.values():
        names = {shown[s] for s in u.status if s in shown} | listed.get(u.id, set())
        if names:
            out[u.id] = frozenset(names)
    return out


def marker_levels(table: Table, state: GameState) -> dict[str, tuple[tuple[str, int], ...]]:
    """Unit id -> (layer, state value) of each unit marker with levels (a damage track D1-D12
    [DTP 8.54], a ship's damage points [27.31]) at the state's value; a unit at 0 is left
    out (its layer stays at the blank first level)."""
    out: dict[str, list[tuple[str, int]]] = {}
    for layer in table.plan.marker_layers:
        decl = _decl(table, layer.marker)
        if not layer.levels or decl is None:
            continue
        for unit, value in marker_values(decl, table.module, state).items():
            if value > 0 and unit in state.units:
                out.setdefault(unit, []).append((layer.spec.name, level_value(decl, value)))
    return {u: tuple(v) for u, v in out.items()}


def _decl(table: Table, marker: str) -> MarkerDecl | None:
    schema = table.module.schema
    return next((d for d in schema.markers if d.id == marker), None) if schema else None


def position_placements(table: Table, state: GameState) -> list[list[Placed]]:
    """Every counter of ``state`` as VASSAL stacks, each **top first**, in a fixed order:
    hex stacks by hex id, then holding boxes by carrier, then the set-up area.

    Raises :class:`UserError` when the state names a unit or hex the module does not have.
    """
    module = table.module
    pieces = module.pieces()
    unknown = sorted(u for u in state.units if u not in pieces)
    if unknown:
        raise UserError(
            f"the position names units module {module.id} {module.version} has no counter "
            f"for: {', '.join(unknown[:8])}",
            hint="write the position with the module the game was created with",
        )
    put = _Put(marker_layers(table, state), marker_levels(table, state))
    units = sorted(state.units.values(), key=lambda u: u.id)
    held = box_units(table, state)
    out = _map_stacks(table, state, put, held)
    out += [[put(u, map_id, x, y)] for u, (map_id, x, y) in held.items()]
    out = _with_carried(out, units, put)
    units = [u for u in units if u.id not in held]  # a display box holds them instead
    boxes: dict[str, list[str]] = {}
    for u in units:
        carrier = holding_carrier(u.box) if u.location is None else None
        if carrier is not None:
            boxes.setdefault(carrier, []).append(u.id)
    for cv in sorted(boxes):
        if not table.has_holding_box(cv):
            raise UserError(f"the position puts air units in a holding box of {cv}, not a CV")
        for i, u in enumerate(boxes[cv]):
            map_id, x, y = table.holding_point(cv, i)
            out.append([put(u, map_id, x, y)])
    off_map: dict[str, int] = {}  # units in the ruleset's off-map boxes (an off-map base)
    for u in units:
        if u.location is None and table.has_off_map_box(u.box):
            assert u.box is not None
            map_id, x, y = table.off_map_point(u.box, off_map.get(u.box, 0))
            off_map[u.box] = off_map.get(u.box, 0) + 1
            out.append([put(u.id, map_id, x, y)])
    in_box: dict[str, int] = {cv: len(ids) for cv, ids in boxes.items()}
    return out + _waiting(table, state, units, put, in_box)


class _Put:
    """A counter placed at a point, with the marker layers and levels the state gives it."""

    def __init__(
        self,
        marks: Mapping[str, frozenset[str]],
        levels: Mapping[str, tuple[tuple[str, int], ...]],
    ) -> None:
        self.marks, self.levels = marks, levels

    def __call__(self, unit_id: str, map_id: str, x: int, y: int) -> Placed:
        marks = self.marks.get(unit_id, frozenset())
        return Placed(unit_id, map_id, x, y, marks, self.levels.get(unit_id, ()))


def _map_stacks(
    table: Table, state: GameState, put: _Put, held: Mapping[str, object]
) -> list[list[Placed]]:
    """The stacks on the map, by location id; then each unit with a location its stack
    forgot, alone (a unit held in a display box is left to the box)."""
    out: list[list[Placed]] = []
    listed: set[str] = set(held)
    for hex_id in sorted(state.stacks):
        ids = [u for u in state.stacks[hex_id] if u in state.units and u not in held]
        if not ids:
            continue
        try:
            map_id, x, y = table.location_point(hex_id)
        except KeyError:
            raise UserError(
                f"the position has units in {hex_id}, which is not on the board",
                hint="is this the module the game was created with?",
            ) from None
        out.append([put(u, map_id, x, y) for u in ids])
        listed.update(ids)
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.location is not None and u.id not in listed:
            map_id, x, y = table.location_point(u.location)
            out.append([put(u.id, map_id, x, y)])
            listed.add(u.id)
    return out


def _with_carried(out: list[list[Placed]], units: list[UnitState], put: _Put) -> list[list[Placed]]:
    """A unit aboard another (troops on a transport [28.1]) stands under its carrier."""
    carried: dict[str, list[str]] = {}
    for u in units:
        carrier = carried_by(u.box) if u.location is None else None
        if carrier is not None:
            carried.setdefault(carrier, []).append(u.id)
    if not carried:
        return out
    return [
        [
            q
            for p in stack
            for q in (p, *(put(c, p.map, p.x, p.y) for c in carried.get(p.piece_id, ())))
        ]
        for stack in out
    ]


def _waiting(
    table: Table,
    state: GameState,
    units: list[UnitState],
    put: _Put,
    in_box: dict[str, int],
) -> list[list[Placed]]:
    """The units not yet set up: in their group of the set-up area, or (carrier air of a
    carrier pool [9.62]) in their carrier's holding box after the air already there."""
    out: list[list[Placed]] = []
    waiting = [u for u in units if u.location is None and u.box in WAITING_BOXES]
    scenario = table.module.scenarios.get(state.scenario)
    carrier_of = carrier_pools(scenario) if scenario is not None else {}
    area = table.setup_area
    for u in waiting:
        group = area.group_of(state.scenario, u.id) if area is not None else None
        if group is not None and area is not None:
            x, y = area.slot(group, group.units.index(u.id))
            out.append([put(u.id, SETUP_MAP, x, y)])
            continue
        cv = carrier_of.get(u.id)
        if cv is not None and table.has_holding_box(cv) and u.box == "unplaced":
            map_id, x, y = table.holding_point(cv, in_box.get(cv, 0))
            in_box[cv] = in_box.get(cv, 0) + 1
            out.append([put(u.id, map_id, x, y)])
    return out


def box_units(table: Table, state: GameState) -> dict[str, tuple[str, int, int]]:
    """Unit id -> ``(map, x, y)`` in the display box that holds it while the state lists it
    (``DisplayDecl.holds``: the Naval Movement Interdiction Box [31.11]), side by side in
    the box's columns, in the listed order; a unit the state does not have is left out."""
    out: dict[str, tuple[str, int, int]] = {}
    pieces = table.module.pieces()
    for display in table.plan.displays:
        rects = {b.zone: b.rect for b in display.layout.boxes}
        shape = {b: (r.across, r.down) for r in display.decl.rows for b in r.boxes}
        for hold in display.decl.holds:
            in_box: dict[str, list[str]] = {}
            if hold.compute is not None and not has_tracks(table.plan.piece_version):
                continue  # a game begun before keeps its saves (piece_versions.TRACKS)
            computed = hold.compute(table.module, state) if hold.compute is not None else None
            for u, box in _held(state, hold.box, hold.data, list(rects), computed):
                # a computed box may hold units not yet in the game (a variable air box)
                known = u in state.units or (computed is not None and u in pieces)
                if known and u not in out:
                    in_box.setdefault(box, []).append(u)
            for box, ids in in_box.items():
                x0, y0, x1, y1 = rects[box]
                across, down = shape[box]
                for i, u in enumerate(ids):
                    col, line = i % across, (i // across) % down
                    x = x0 + (2 * col + 1) * (x1 - x0) // (2 * across)
                    y = y0 + (2 * line + 1) * (y1 - y0) // (2 * down)
                    out[u] = (display.decl.name, x, y)
    return out


def _held(
    state: GameState,
    box: str,
    path: str,
    boxes: list[str],
    computed: Mapping[str, int] | None = None,
) -> list[tuple[str, str]]:
    """(unit, box) for the units at ``path``: a list all in ``box`` (``box:NAME``: the units
    off the map in the engine's box ``NAME``, a transport cadre [27.33]); with ``{}`` in
    ``box`` a mapping unit -> number, each in the box of its number, past the last box in
    the last (sorted by number, then unit)."""
    data = state.data
    if computed is not None and "{}" not in box:  # a box holding what the ruleset computes
        return [(u, box) for u in computed] if box in boxes else []
    if path.startswith("box:"):
        kind = path[len("box:") :]
        ids = sorted(u.id for u in state.units.values() if u.location is None and u.box == kind)
        return [(u, box) for u in ids] if box in boxes else []
    if "{}" not in box:
        return [(u, box) for u in _data_list(data, path)] if box in boxes else []
    numbered = {}
    for name in boxes:
        head, tail = box.split("{}", 1)
        middle = name[len(head) : len(name) - len(tail)] if tail else name[len(head) :]
        n = read_whole(middle)
        if name.startswith(head) and name.endswith(tail) and n is not None:
            numbered[n] = name
    if not numbered:
        return []
    node: object = computed if computed is not None else data
    for part in path.split(".") if computed is None else ():
        node = node.get(part) if isinstance(node, Mapping) else None
    if not isinstance(node, Mapping):
        return []
    out = []
    for u, n in sorted(node.items(), key=lambda kv: (_num(kv[1]), str(kv[0]))):
        if isinstance(n, int) and not isinstance(n, bool):
            at = max((k for k in numbered if k <= n), default=min(numbered))
            out.append((str(u), numbered[at]))
    return out


def _num(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _data_value(data: Mapping[str, object], path: str) -> int | None:
    """The integer at ``path`` (``"carrier.Hull"``) of ``GameState.data``, or ``None``."""
    node: object = data
    for part in path.split("."):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node if isinstance(node, int) and not isinstance(node, bool) else None


def display_placements(table: Table, state: GameState) -> list[list[Placed]]:
    """Each track marker of the ruleset's displays in the box of the state's value
    (``"Hull 9"``), one stack each, in declaration order. A marker whose counter the module
    lacks, or whose value the state does not record yet, is left out; a value beyond the
    track's boxes sits in the nearest end box (the track's printed end)."""
    pieces = table.module.pieces()
    out: list[list[Placed]] = []
    for display in table.plan.displays:
        names = {b.zone for b in display.layout.boxes}
        for mark in display.decl.markers:
            value = _data_value(state.data, mark.data)
            if mark.piece not in pieces or value is None:
                continue
            values = sorted(
                v
                for n in names
                if n.startswith(mark.track + " ")
                and (v := read_whole(n[len(mark.track) + 1 :])) is not None
            )
            if not values:
                continue
            value = min(max(value, values[0]), values[-1])
            map_id, x, y = table.display_point(display.decl.name, f"{mark.track} {value}")
            out.append([Placed(mark.piece, map_id, x, y)])
    return out


def _palette_markers(table: Table, state: GameState) -> list[tuple[Piece, str, int, int]]:
    """A marker counter of the palette on each location the ruleset marks
    (``Ruleset.marked_locations``: a Destroyed marker on each Defended hex whose intrinsic
    DEF is gone [10.44]), where the module has the counter and the map the hex."""
    module = table.module
    slots = {s.key: s for s in table.plan.marker_slots}
    plays = module.schema is not None and module.schema.rules is not None
    if not plays or not slots:
        return []
    grid = module.map.grid
    out = []
    for name, hexes in get_ruleset(module.ruleset).marked_locations(module, state).items():
        slot = slots.get(f"marker:{name}")
        if slot is None:
            continue
        for hex_id in sorted({str(h) for h in hexes}):
            if grid is not None and grid.is_valid_id(hex_id):
                map_id, x, y = table.location_point(hex_id)
                out.append((slot.piece, map_id, x, y))
    return out


def _location_markers(table: Table, state: GameState) -> list[tuple[Piece, str, int, int]]:
    """A marker counter for each location a declared marker's ``data`` list names instead
    of a unit (``hex:2025``, a vacant Defended hex attacked this phase [7.44][10.4]), when
    the palette has a marker of that name."""
    schema = table.module.schema
    slots = {s.key: s for s in table.plan.marker_slots}
    grid = table.module.map.grid
    out = []
    for decl in schema.markers if schema is not None else ():
        slot = slots.get(f"marker:{decl.name}")
        if slot is None or not decl.data or decl.levels:
            continue
        places = set()
        for entry in _data_list(state.data, decl.data, decl.level):
            if entry in state.units:
                continue
            where = entry.split(":", 1)[1] if entry.startswith("hex:") else entry
            if grid is not None and grid.is_valid_id(where):
                places.add(where)
        for where in sorted(places):
            map_id, x, y = table.location_point(where)
            out.append((slot.piece, map_id, x, y))
    return out


def level_markers(table: Table, state: GameState) -> list[tuple[Piece, str, int, int]]:
    """A marker counter on each place a marker with levels names (a port's capacity left
    [26.25]), its layer at the place's value; a place off the module's map is left out."""
    out = []
    for loc in table.plan.location_markers:
        values = marker_values(loc.decl, table.module, state)
        piece = table.plan.expanded(loc.slot)
        for where, value in values.items():
            try:
                map_id, x, y = table.location_point(where)
            except KeyError:
                continue
            shown = piece
            for i, trait in enumerate(piece.traits):
                if isinstance(trait, Embellishment):
                    shown = piece.with_trait(i, trait.with_value(level_value(loc.decl, value)))
            out.append((shown, map_id, x, y))
    return out


def position_vsav_bytes(
    table: Table, state: GameState, *, piece_version: int | None = None
) -> bytes:
    """The ``.vsav`` of ``state`` for the module laid out by ``table`` (deterministic), its
    counters of piece version ``piece_version`` or, by default, of the version the game recorded at
    ``referee new`` (version 1 for a game begun before: the saves it was played with;
    :mod:`referee.vassal.module.piece_versions`).

    Raises :class:`UserError` for a recorded version this referee does not write."""
    recorded = recorded_version(state.data) if piece_version is None else piece_version
    table = table.with_pieces(recorded)
    hidden = face_down_pieces(table, state) if shows_face_down(recorded) else []
    where = f"Game {state.game_id}, {state.scenario}, Game-Turn {state.turn}, {state.phase}"
    if state.active_side:
        where += f" ({state.active_side})"
    return build_save(
        table,
        position_placements(table, state) + display_placements(table, state),
        notes=f"Position after adjudication. {where}.",
        description=f"referee position: {where}",
        extra=_palette_markers(table, state)
        + _location_markers(table, state)
        + level_markers(table, state)
        + hidden,
        turn=_turn(table, state),
        decks=_decks(table, state),
        properties=track_values(table, state) if has_tracks(recorded) else (),
    )


def track_values(table: Table, state: GameState) -> list[tuple[str, str]]:
    """Each Global Property of the module (``RulesetSchema.tracks``) with the referee's
    value: ``score:PATH`` from the ruleset's score, ``data:PATH`` from the state's data; a
    value the state does not hold yet, or holds outside a numeric track's bounds, is the
    track's starting value. The score is asked only of a ruleset that plays on the module's
    kind of map (``RulesetSchema.map_kinds``): a module that borrows a ruleset's roster for
    another kind of map has no game to score, so its set-ups show the starting values."""
    module = table.module
    tracks = track_properties(module)
    score: Mapping[str, object] = {}
    plays_here = module.schema is not None and module.map.kind in module.schema.map_kinds
    if plays_here and any(t.source.startswith("score:") for t in tracks):
        from referee.engine.ruleset import get_ruleset

        score = get_ruleset(module.ruleset).score(module, state)
    out = []
    for t in tracks:
        kind, _, path = t.source.partition(":")
        node: object = score if kind == "score" else state.data
        for part in path.split(".") if path else ():
            node = node.get(part) if isinstance(node, Mapping) else None
        ok = isinstance(node, (int, str)) and not isinstance(node, bool)
        if t.numeric and isinstance(node, int) and not t.minimum <= node <= t.maximum:
            ok = False  # not set yet (CBG's Alert is 0 until the set-up rolls it [4.0])
        out.append((t.name, str(node) if ok else str(t.initial)))
    return out


def _decks(table: Table, state: GameState) -> list[DeckFill]:
    """The map's decks as the ruleset's ``deck_contents`` fills them for ``state`` (a side's
    view names only what the side may see; :mod:`referee.vassal.position.decks`). The ruleset is
    only asked when the map declares a deck."""
    if not deck_boxes(table.plan):
        return []
    contents = deck_contents(get_ruleset(table.module.ruleset), table.module, state)
    try:
        return deck_fills(table, contents)
    except (KeyError, ValueError) as exc:
        raise UserError(
            f"the position's decks do not fit module {table.module.id}: "
            f"{exc.args[0] if exc.args else exc}",
            hint="write the position with the module the game was created with",
        ) from None


def _turn(table: Table, state: GameState) -> SetTurn | None:
    """The turn tracker at the state's Game-Turn and step, only its scenario's turns on."""
    tracker = table.plan.tracker
    if tracker is None:
        return None
    module = table.module
    scenario = module.scenarios.get(state.scenario)
    # the phasing side, as the ruleset says (``Ruleset.phasing_side``): the enemy's orders
    # inside a phase (an interdiction, a second signature) are still the phasing player's
    plays = module.schema is not None and module.schema.rules is not None
    side = get_ruleset(module.ruleset).phasing_side(module, state) if plays else state.active_side
    text = tracker_state(tracker, scenario, state.turn, state.phase, side)
    return SetTurn(TRACKER_ID, text)


def write_position_vsav(
    module: Module,
    state: GameState,
    path: str | os.PathLike[str],
    *,
    dpi: int = DEFAULT_DPI,
    setup_area: bool = True,
) -> bytes:
    """Write ``state`` as a VASSAL save at ``path`` (atomically) and return its bytes.

    ``dpi`` must be the ``--dpi`` the players' module was built with (pixel positions
    depend on it); ``setup_area=False`` for a module built without the set-up area.
    """
    from referee.safeio import write_bytes_atomic

    table = table_for(module, dpi=dpi, setup_area=setup_area)
    data = position_vsav_bytes(table, state)
    write_bytes_atomic(Path(path), data)
    return data
