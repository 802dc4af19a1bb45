"""A module imported from VASSAL (``ruleset = "none"``), played by email as a declared game.

``referee import-vmod`` writes a source of a module we did not write: its maps, pieces,
palette and predefined set-ups, no rules. To referee it the way a declared game is refereed
(``referee/rules/declared``: the record and the dice, never the rules), this module reads
that source as a :class:`~referee.source.model.Module`:

* the **sides** are the source's ``[[side]]`` tables (``import-vmod`` writes one per entry of
  the module's player roster); ``[game]`` may give ``turns`` (default :data:`DEFAULT_TURNS`)
  and ``first`` (the side that starts, default the first side);
* each predefined **set-up** with a save is a scenario; its **pieces** are the pieces of that
  save, each under an id made from the module's own name for it (``Captured-by-Red``,
  ``Captured-by-Red.2``...): the pieces a game moves are those of its set-up (a piece taken
  from the palette or deleted in VASSAL is listed by ``import-vlog``, never guessed);
* the **locations** are every name VASSAL's own grids give a point of the set-up's boards
  (:mod:`referee.vassal.foreign.locations`, checked against real VASSAL): the boards are
  sampled on a lattice (:data:`MAX_SAMPLES` points in all) and each name keeps the sampled
  point nearest the middle of its points, so a piece put there is named by that name in
  VASSAL. A name of a map other than
  the first is written ``MAP: NAME`` when the first map has the same name;
* a piece belongs to the side the source or the module says it does
  (:mod:`referee.vassal.foreign.ownership`: ``[[side]] pieces``, a Restricted Access trait,
  ``[[side]] prototypes`` or ``palette``), and only that side may order it [G1]; a piece
  nothing claims belongs to no side: either player may order it. Every report says the
  referee checks no rule.

:func:`imported_position_vsav` writes a game's position as a save of the module: the set-up
save with each piece the game moved at the point of its location, each eliminated piece
taken off, the rest exactly as the set-up had it.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from referee.safeio import resolve_inside
from referee.source.diagnostics import Diagnostics
from referee.source.gamedecl import (
    GameDecl,
    ImportedGame,
    ImportedPiece,
    ImportedPoint,
    ImportedScenario,
)
from referee.source.mapkinds import Canvas, LocationType, Space, SpaceLayer
from referee.source.model import (
    CounterLayout,
    CounterSpec,
    FixedPlacement,
    MapDef,
    Module,
    Scenario,
    Side,
    Tables,
    UnitDef,
)
from referee.source.schema import schema_for
from referee.source.tomlpos import TomlText
from referee.vassal.codec.commands import AddPiece, iter_leaves
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.pieces import decode_piece
from referee.vassal.codec.savefile import build_savedata, read_save_bytes
from referee.vassal.foreign.imported_layers import apply_status
from referee.vassal.foreign.imported_save import rewrite_setup
from referee.vassal.foreign.locations import OFFBOARD, BoardLayout, ModuleLocations
from referee.vassal.foreign.movelist import read_log
from referee.vassal.foreign.ownership import Owners, SideClaims, piece_types, read_claims
from referee.vassal.foreign.rebuild import load_for_vassal, source_locations
from referee.vassal.foreign.vassal_only import VassalOnlySource
from referee.vassal.foreign.vmod import decode_definition
from referee.vassal.module.buildfile import DATE_SAVED, VASSAL_VERSION, moduledata_xml

__all__ = [
    "DEFAULT_TURNS",
    "imported_locations",
    "imported_position_vsav",
    "is_imported_game",
    "load_imported_game",
    "location_key",
    "location_points",
]

DEFAULT_TURNS: Final = 99
"""Game-Turns of an imported module's game when its ``[game]`` gives none."""
MAX_SAMPLES: Final = 40_000
"""Points sampled over all the boards of a set-up to find their location names (bounds the
cost of a load: boards of any size and number cost about this many ``Map.locationName``
answers a set-up; a location smaller than the sampling step may be missed, and is then
no location of the game)."""
MIN_STEP: Final = 2
FILE: Final = "module.toml"
_ID_RE: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
_COLOR_RE: Final = re.compile(r"^#[0-9A-Fa-f]{6}$")
_COLORS: Final = ("#C03030", "#3060C0", "#308030", "#A07020", "#703090", "#404040")
PIECE_CATEGORY: Final = "piece"


def is_imported_game(module: Module) -> bool:
    """Whether ``module`` is an imported VASSAL module read as a declared game."""
    return module.game is not None and module.game.imported is not None


# ---- locations ------------------------------------------------------------------------------


def location_key(first_map: str, map_name: str | None, name: str, taken: Iterable[str]) -> str:
    """The key of location ``name`` of ``map_name``: the name itself on the first map, and on
    another map too unless the first map has that name (then ``MAP: NAME``)."""
    if map_name is None or map_name == first_map or name not in taken:
        return name
    return f"{map_name}: {name}"


def _board_points(
    layout: BoardLayout, map_name: str, box: tuple[int, int, int, int], step: int
) -> dict[str, list[tuple[int, int]]]:
    """Every name VASSAL gives a point of the board at ``box`` (x, y, w, h), sampled every
    ``step`` pixels, with the points sampled there, in scan order."""
    x0, y0, w, h = box
    found: dict[str, list[tuple[int, int]]] = {}
    for y in range(y0 + step // 2, y0 + h, step):
        for x in range(x0 + step // 2, x0 + w, step):
            name = layout.name(map_name, x, y)
            if name and name != OFFBOARD:
                found.setdefault(name, []).append((x, y))
    return found


def _middle(points: list[tuple[int, int]]) -> tuple[int, int]:
    """The sampled point nearest the mean of ``points`` (the first of equals): a point named
    as all of them are, well inside the location."""
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    return min(points, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)


def location_points(
    layout: BoardLayout,
    module: ModuleLocations,
    known: Iterable[tuple[str | None, int, int]] = (),
) -> dict[str, ImportedPoint]:
    """Every location of the boards ``layout`` has chosen, by key, with a point VASSAL names
    by it (maps in module order, names in scan order); the ``known`` points (map, x, y: the
    set-up's pieces) are added, so a location the lattice passes over is not missed there."""
    out: dict[str, ImportedPoint] = {}
    first = next(iter(module.maps), "")
    first_names: set[str] = set()
    area = sum(
        p.board.size[0] * p.board.size[1]
        for spec in module.maps.values()
        for p in layout.chosen.get(spec.name, ())
    )
    step = max(MIN_STEP, math.ceil(math.sqrt(area / MAX_SAMPLES)))
    for spec in module.maps.values():
        names: dict[str, list[tuple[int, int]]] = {}
        for m, x, y in known:
            name = layout.name(m, x, y) if m == spec.name else OFFBOARD
            if name and name != OFFBOARD:
                names.setdefault(name, []).append((x, y))
        for placed in layout.chosen.get(spec.name, ()):
            w, h = placed.board.size
            box = (placed.x, placed.y, w, h)
            for name, pts in _board_points(layout, spec.name, box, step).items():
                names.setdefault(name, []).extend(pts)
        for name, pts in names.items():
            key = location_key(first, spec.name, name, first_names)
            if key not in out:
                x, y = _middle(pts)
                out[key] = ImportedPoint(spec.name, x, y)
        if spec.name == first:
            first_names = set(names)
    return out


# ---- the source ----------------------------------------------------------------------------


def _sides(
    meta: Mapping[str, Any], tt: TomlText, diags: Diagnostics
) -> tuple[tuple[Side, ...], tuple[SideClaims, ...]]:
    """The ``[[side]]`` tables: ``id`` (a word), ``name``, ``color`` (``#RRGGBB``), and the
    pieces each says are its own (``pieces``, ``prototypes``, ``palette``)."""
    tables = meta.get("side", [])
    starts = tt.block_starts("side")
    out: list[Side] = []
    claims: list[SideClaims] = []
    for i, t in enumerate(tables if isinstance(tables, list) else []):
        line = starts[i] if i < len(starts) else None
        sid = t.get("id") if isinstance(t, dict) else None
        if not isinstance(sid, str) or not _ID_RE.match(sid) or sid in {s.id for s in out}:
            diags.error(
                FILE,
                line,
                f"[[side]] id {sid!r} must be a word of letters, digits, '_', '.' or '-', "
                "used once",
                hint='id = "Red"',
            )
            continue
        color = t.get("color", _COLORS[i % len(_COLORS)])
        if not isinstance(color, str) or not _COLOR_RE.match(color):
            diags.error(FILE, line, f"side {sid}: color {color!r} is not #RRGGBB")
            continue
        out.append(Side(sid, str(t.get("name", sid)), color))
        claims.append(read_claims(t, sid, out[-1].name, line, diags, tt))
    if len(out) < 2 and not diags.errors:
        diags.error(
            FILE,
            None,
            f"an imported module is played by two or more sides; this source declares "
            f"{len(out)} ([[side]] tables)",
            hint='add [[side]] id = "Red" (import-vmod writes one per side of the module\'s '
            "player roster; docs/declared-games.md)",
        )
    return tuple(out), tuple(claims)


def _turns_and_first(
    meta: Mapping[str, Any], tt: TomlText, sides: tuple[Side, ...], diags: Diagnostics
) -> tuple[int, str]:
    game = meta.get("game", {})
    line = tt.table_start("game")
    if not isinstance(game, dict):
        diags.error(FILE, None, "[game] must be a table")
        return DEFAULT_TURNS, ""
    turns = game.get("turns", DEFAULT_TURNS)
    if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 999:
        diags.error(FILE, tt.key_line("turns", start=line), f"[game] turns {turns!r}: 1 to 999")
        turns = DEFAULT_TURNS
    ids = [s.id for s in sides]
    first = game.get("first", ids[0] if ids else "")
    if ids and first not in ids:
        diags.error(
            FILE,
            tt.key_line("first", start=line),
            f"[game] first {first!r} is not a side",
            hint="sides: " + ", ".join(ids),
        )
    return turns, str(first)


def _piece_ids(names: list[str]) -> list[str]:
    """An id per piece from its name (``Captured by Red`` -> ``Captured-by-Red``), ``.2``,
    ``.3``... for repeats; a name with no letter or digit of ASCII gives ``piece``."""
    out: list[str] = []
    count: dict[str, int] = {}
    for name in names:
        base = re.sub(r"[^A-Za-z0-9_.]+", "-", name).strip("-.") or "piece"
        if not base[0].isalnum():
            base = "piece-" + base
        n = count[base] = count.get(base, 0) + 1
        out.append(base if n == 1 else f"{base}.{n}")
    return out


def _scenario(
    sid: str, title: str, save: bytes, module: ModuleLocations, save_file: str,
    owners: Owners, diags: Diagnostics,
) -> ImportedScenario:  # fmt: skip
    """The pieces, their sides and the locations of one set-up save (raises
    VassalFormatError)."""
    commands = read_save_bytes(save, save_file).commands
    reading = read_log(commands, module)
    types = piece_types(commands)
    layout = reading.layout or module.layout()
    points = location_points(layout, module, [(p.map, p.x, p.y) for p in reading.start])
    first = next(iter(module.maps), "")
    first_names = {k for k, p in points.items() if p.map == first}
    ids = _piece_ids([p.name for p in reading.start])
    pieces = []
    for pid, p in zip(ids, reading.start, strict=True):
        key = location_key(first, p.map, p.location, first_names)
        where = key if p.location != OFFBOARD and key in points else ""
        piece = ImportedPiece(pid, p.id, p.name, p.map, p.x, p.y, where)
        side, by = owners.side_of(piece, types.get(p.id, ""), diags)
        pieces.append(replace(piece, side=side, side_by=by))
    return ImportedScenario(sid, title, save_file, tuple(pieces), tuple(points.items()))


def _scenarios(
    root: Path, meta: Mapping[str, Any], saves: list[tuple[str, bytes | None, str]],
    module: ModuleLocations, owners: Owners, diags: Diagnostics,
) -> list[ImportedScenario]:  # fmt: skip
    names = meta.get("files", {}).get("scenarios", [])
    out: list[ImportedScenario] = []
    for listing, (title, save, _file) in zip(names, saves, strict=True):
        if save is None:
            continue  # a blank set-up: no pieces to play
        sid = Path(str(listing)).stem
        save_file = str(listing)[: -len(".toml")] + ".vsav"  # as load_vassal_only reads it
        try:
            out.append(_scenario(sid, title, save, module, save_file, owners, diags))
        except VassalFormatError as exc:
            diags.error(save_file, None, str(exc))
    if not out and not diags.errors:
        diags.error(
            FILE,
            None,
            "no set-up with a save: a game of an imported module starts from one of its "
            "predefined set-ups",
            hint="a blank set-up has no pieces to play",
        )
    return out


def _owners(src: VassalOnlySource, claims: tuple[SideClaims, ...], diags: Diagnostics) -> Owners:
    """What decides whose each piece is: the sides' claims, the module's prototypes (a
    prototype that does not decode claims nothing) and the palette paths of each name."""
    prototypes: dict[str, str] = {}
    for name, text in src.prototypes:
        try:
            prototypes[name] = decode_definition(text, f"prototype {name}").type
        except VassalFormatError:
            continue  # load_for_vassal has said what is wrong with it
    palettes: dict[str, tuple[str, ...]] = {}
    for u in src.units:
        palettes[u.name] = (*palettes.get(u.name, ()), u.palette)
    return Owners(claims, prototypes, palettes)


def load_imported_game(root: Path) -> tuple[Module | None, Diagnostics]:
    """Read an imported source as a declared game; ``None`` with its problems, each at its
    file (and line where the file has lines)."""
    src, diags = load_for_vassal(root)
    if src is None:
        return None, diags
    text = (root / FILE).read_text(encoding="utf-8")
    meta = tomllib.loads(text)
    tt = TomlText(text)
    sides, claims = _sides(meta, tt, diags)
    turns, first = _turns_and_first(meta, tt, sides, diags)
    owners = _owners(src, claims, diags)
    scenarios = _scenarios(root, meta, src.scenarios, source_locations(src), owners, diags)
    if diags.errors:
        return None, diags
    game = GameDecl(categories=(PIECE_CATEGORY,), imported=ImportedGame(tuple(scenarios)))
    return _module(src.id, src.name, src.version, src.description, root, sides, turns, first,
                   game), diags  # fmt: skip


def _module(
    mid: str, name: str, version: str, description: str, root: Path, sides: tuple[Side, ...],
    turns: int, first: str, game: GameDecl,
) -> Module:  # fmt: skip
    """The Module of the game: its pieces as units of no side, its locations as the spaces
    of a map without a hex grid (at their points, 100 pixels an inch)."""
    assert game.imported is not None
    units: dict[str, UnitDef] = {}
    spaces: dict[str, Space] = {}
    scenarios: dict[str, Scenario] = {}
    width = height = 1.0
    for sc in game.imported.scenarios:
        for p in sc.pieces:
            units.setdefault(
                p.id,
                UnitDef(p.id, p.side, "", PIECE_CATEGORY, "", "", p.name, {}, frozenset()),
            )
        for key, pt in sc.locations:
            spaces.setdefault(key, Space(key, "location", (pt.x / 100, pt.y / 100)))
            width, height = max(width, pt.x / 100 + 0.5), max(height, pt.y / 100 + 0.5)
        scenarios[sc.id] = Scenario(
            id=sc.id,
            name=sc.name,
            turns=turns,
            first_player=first,
            setup_order=(),
            turn_states=("turn",) * turns,
            night_states=frozenset(),
            forces={"": tuple(p.id for p in sc.pieces)},
            fixed=tuple(FixedPlacement(p.id, p.location, "G1") for p in sc.pieces if p.location),
            choices=(),
            pools=(),
            reinforcements=(),
            prohibitions=(),
            victory_bonuses=(),
        )
    layer = SpaceLayer({"location": LocationType("location", "Location", "#FFFFFF")}, spaces)
    board = MapDef(
        title=name, grid=None, hexes={}, terrain={}, countries={}, areas={},
        all_land_hexsides=frozenset(), edges={}, places=(), setup_codes={}, spaces=layer,
        canvas=Canvas(width, height, "px", 100.0),
    )  # fmt: skip
    counter = CounterSpec(0.5, 150, {"default": CounterLayout("default", ())}, {})
    return Module(
        id=mid, name=name, version=version, ruleset="declared", description=description,
        root=root, sides=sides, nationalities={}, values=(), counter=counter,
        units=tuple(units.values()), map=board, tables=Tables(None, ()),
        scenarios=scenarios, optional_rules={}, game=game, schema=schema_for("declared", game),
    )  # fmt: skip


def imported_locations(module: Module) -> ModuleLocations:
    """The maps of an imported game's module read as VASSAL reads them (for its logs)."""
    src, diags = load_for_vassal(module.root)
    if src is None:
        raise ValueError(f"{module.root}: {diags.errors[0] if diags.errors else 'not loaded'}")
    return source_locations(src)


# ---- the position as a save ------------------------------------------------------------------


def imported_position_vsav(
    module: Module,
    scenario: str,
    where: Mapping[str, str | None],
    status: Mapping[str, Iterable[str]] | None = None,
) -> bytes:
    """The game's position as a save of the module: the set-up save of ``scenario`` with each
    piece whose location in ``where`` (piece id -> location key, ``None`` for a piece off
    the map) differs from the set-up's at its location's point, in a stack of its own per
    point, each piece taken off the map removed, and the flip and marks of ``status``
    (piece id -> its status words) on the pieces' own Layers
    (:mod:`referee.vassal.foreign.imported_layers`); everything else as the set-up had it."""
    assert module.game is not None and module.game.imported is not None
    sc = module.game.imported.scenario(scenario)
    if sc is None:
        raise ValueError(f"no imported set-up {scenario!r}")
    moved: dict[str, ImportedPoint | None] = {}
    for p in sc.pieces:
        if p.id not in where or where[p.id] == (p.location or None):
            continue
        key = where[p.id]
        moved[p.vassal_id] = None if key is None else sc.point(key)
    savedata = build_savedata(
        module_version=module.version,
        vassal_version=VASSAL_VERSION,
        date_saved=int(DATE_SAVED),
        description=f"{module.name}: {sc.name}",
    )
    moduledata = moduledata_xml(module.name, module.version, module.description)
    save = resolve_inside(module.root, sc.save_file, what="set-up save").read_bytes()
    states = _layer_states(save, sc, status or {})
    return rewrite_setup(save, moved, savedata, moduledata, states)


def _layer_states(
    save: bytes, sc: ImportedScenario, status: Mapping[str, Iterable[str]]
) -> dict[str, str]:
    """VASSAL id -> the piece's state with the game's flip and marks, for each piece whose
    Layers they change."""
    marked = {p.vassal_id: frozenset(status[p.id]) for p in sc.pieces if status.get(p.id)}
    if not marked:
        return {}
    out: dict[str, str] = {}
    for command, _ in iter_leaves(read_save_bytes(save, sc.save_file).commands):
        if isinstance(command, AddPiece) and command.id in marked:
            piece = decode_piece(command.type, command.state)
            new = apply_status(piece, marked[command.id]).state
            if new != command.state:
                out[command.id] = new
    return out
