"""Load a module source folder into a :class:`~referee.source.model.Module`.

The loader is forgiving in one way only: it keeps going after a problem so that one run of
``referee check`` lists every problem. Each problem is a :class:`Diagnostic` with the file and
line it came from. :func:`load_module` returns ``(module_or_None, diagnostics)``; the module is
``None`` whenever there is any error, so later stages never see a half-valid model.

This module only orchestrates: it reads ``module.toml`` and hands each part to the module that
reads that kind of file. Imports go one way::

    loader -> basics (module.toml parts), units (roster CSV), tables (CSV tables),
              maps (map.toml and its picture), scenario (scenario files)
           -> base (Ctx, safe TOML/CSV reads, typed getters)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.source.base import (
    ID_RE,
    MODULE_FILE,
    Ctx,
    check_top,
    get_str,
)
from referee.source.basics import (
    load_counter,
    load_nationalities,
    load_optional,
    load_sides,
    load_unit_types,
    load_values,
)
from referee.source.diagnostics import Diagnostics, did_you_mean
from referee.source.gamedecl import DECLARED, GameDecl
from referee.source.load_game import load_game
from referee.source.load_sheets import load_counter_sheets
from referee.source.maps import load_map
from referee.source.model import MapDef, Module, Tables, TerrainType, UnitDef, VictoryLevel
from referee.source.scenario import load_scenarios
from referee.source.schema import declared_schema, known_rulesets, ruleset_schema
from referee.source.table_loader import load_named_table, load_table_decls, table_file_exists
from referee.source.tablemodel import NamedTable, TableDecl
from referee.source.tables import STANDARD, crt_view, terrain_view, victory_view
from referee.source.tomlpos import TomlText
from referee.source.units import load_units

MODULE_TOP_KEYS: tuple[str, ...] = (
    "module",
    "files",
    "side",
    "nationality",
    "value",
    "unit_type",
    "counter",
    "optional_rule",
    "table",
    "game",
)


def load_module(root: Path | str) -> tuple[Module | None, Diagnostics]:
    """Load and check a module source folder. Never raises for bad input."""
    root = Path(root)
    opened = _open(root)
    if isinstance(opened, Diagnostics):
        return None, opened
    ctx, data, tt = opened
    diags, f = ctx.diags, MODULE_FILE
    check_top(ctx, f, tt, data, MODULE_TOP_KEYS)
    head = _header(ctx, data, tt)
    if head is None:
        return None, diags
    files, fline = _files(ctx, data, tt)
    sides = load_sides(ctx, data, tt)
    side_ids = {s.id for s in sides}
    nats = load_nationalities(ctx, data, tt, side_ids)
    values = load_values(ctx, data, tt)
    unit_types = load_unit_types(ctx, data, tt)
    counter = load_counter(ctx, data, tt, values)
    optional = load_optional(ctx, data, tt)
    units: tuple[UnitDef, ...] = ()
    if "units" in files:
        roster_line = tt.key_line("units", start=fline)
        units = load_units(
            ctx, str(files["units"]), roster_line, side_ids, nats, values, unit_types
        )
    else:
        diags.error(f, fline, "[files] has no 'units' (the unit roster CSV)")
    if units and counter is not None:  # counter sheets cut into counters, face pictures
        units = load_counter_sheets(ctx, data, tt, units, counter.size_in)
    tables = _Tables(ctx, *_table_decls(ctx, data, tt, files, fline))
    terrain = tables.terrain(fline)
    map_def: MapDef | None = None
    if "map" in files:
        map_line = tt.key_line("map", start=fline)
        map_def = load_map(ctx, str(files["map"]), map_line, terrain, nats, side_ids)
    else:
        diags.error(f, fline, "[files] has no 'map' (map.toml)")
    crt, victory = tables.crt_and_victory(fline)
    tables.the_others()
    _check_files_keys(ctx, tt, files, fline)
    scen_files = _scenario_files(ctx, tt, files, fline)
    scenarios = {}
    if map_def is not None and units:
        scen_line = tt.key_line("scenarios", start=fline)
        scenarios = load_scenarios(
            ctx, scen_files, scen_line, units, map_def, side_ids, nats, optional
        )
    if counter is not None:
        _check_backs(ctx, units, counter.layouts)
    if not units and "units" in files and not diags.errors:
        diags.error(str(files["units"]), None, "the unit roster is empty")
    if diags.errors or map_def is None or counter is None:
        return None, diags
    module = Module(
        id=head.id,
        name=head.name,
        version=head.version,
        ruleset=head.ruleset,
        description=head.description,
        root=root.resolve(),
        sides=tuple(sides),
        nationalities=nats,
        values=tuple(values),
        counter=counter,
        units=units,
        map=map_def,
        tables=Tables(crt=crt, victory=victory, named=tables.named),
        scenarios=scenarios,
        optional_rules=optional,
        unit_types=unit_types,
        game=head.game,
        schema=ctx.schema,
    )
    if _ruleset_table_checks(ctx, module):
        return None, diags
    return module, diags


def _open(root: Path) -> tuple[Ctx, dict[str, Any], TomlText] | Diagnostics:
    """The folder's ``module.toml``, parsed; or the diagnostics saying why there is none."""
    diags = Diagnostics(root=root)
    if not root.is_dir():
        diags.root = None
        diags.error(
            str(root),
            None,
            "module source folder not found",
            hint="pass the folder that holds module.toml",
        )
        return diags
    ctx = Ctx(root=root, diags=diags)
    if not (root / MODULE_FILE).is_file():
        diags.error(
            MODULE_FILE,
            None,
            f"no {MODULE_FILE} in {root}",
            hint="a module source folder holds module.toml; see docs/module-source.md",
        )
        return diags
    got = ctx.toml(MODULE_FILE, what="module file", file=MODULE_FILE)
    if got is None:
        return diags
    return ctx, got[0], got[1]


@dataclass(frozen=True)
class _Header:
    """The ``[module]`` table: who the module is and which ruleset plays it."""

    id: str
    name: str
    version: str
    ruleset: str
    description: str
    game: GameDecl | None = None


def _header(ctx: Ctx, data: dict[str, Any], tt: TomlText) -> _Header | None:
    """``[module]`` read and checked; the ruleset's schema set on ``ctx`` (``None`` when the
    table is missing)."""
    diags, f = ctx.diags, MODULE_FILE
    meta = data.get("module")
    if not isinstance(meta, dict):
        diags.error(f, None, "missing [module] table", hint="see docs/module-source.md")
        return None
    mline = tt.table_start("module")
    mid = get_str(ctx, f, tt.key_line("id", start=mline), meta, "id", "[module]")
    if mid and not ID_RE.match(mid):
        diags.error(
            f,
            tt.key_line("id", start=mline),
            f"module id {mid!r} must be letters, digits, '_', '-' or '.'",
        )
    name = get_str(ctx, f, tt.key_line("name", start=mline), meta, "name", "[module]")
    version = get_str(ctx, f, tt.key_line("version", start=mline), meta, "version", "[module]")
    if version and not re.match(r"^[0-9A-Za-z.\-+]+$", version):
        diags.error(
            f,
            tt.key_line("version", start=mline),
            f"version {version!r} may only use letters, digits, '.', '-' and '+'",
        )
    game = load_game(ctx, data, tt)
    declared = game is not None and "ruleset" not in meta
    ruleset = (
        DECLARED
        if declared
        else get_str(ctx, f, tt.key_line("ruleset", start=mline), meta, "ruleset", "[module]")
    )
    description = get_str(ctx, f, None, meta, "description", "[module]", required=False)
    if ruleset:
        ctx.schema = ruleset_schema(ruleset)
        if ctx.schema is None:
            diags.error(
                f,
                tt.key_line("ruleset", start=mline),
                f"unknown ruleset {ruleset!r}",
                hint=did_you_mean(ruleset, known_rulesets())
                or "known: "
                + ", ".join(known_rulesets())
                + "; or name no ruleset and declare the game in [game] (docs/declared-games.md)",
            )
    if game is not None and ruleset != DECLARED:
        diags.error(
            f,
            tt.table_start("game"),
            f"[game] declares a game without a ruleset, but [module] names ruleset {ruleset!r}",
            hint="remove the ruleset line to play the declared game, or remove [game]",
        )
        game = None
    if game is not None and ctx.schema is not None:
        ctx.schema = declared_schema(game, ctx.schema)
    return _Header(mid, name, version, ruleset, description, game)


def _files(ctx: Ctx, data: dict[str, Any], tt: TomlText) -> tuple[dict[str, Any], int | None]:
    """``[files]`` (empty when it is not a table) and its line."""
    files = data.get("files", {})
    if not isinstance(files, dict):
        ctx.diags.error(MODULE_FILE, tt.table_start("files"), "[files] must be a table")
        files = {}
    return files, tt.table_start("files")


FILES_KEYS = ("units", "terrain", "map", "crt", "victory", "scenarios")


def _check_files_keys(ctx: Ctx, tt: TomlText, files: dict[str, Any], fline: int | None) -> None:
    """An entry of ``[files]`` that is no file the loader reads is a typo."""
    for key in files:
        if key not in FILES_KEYS:
            ctx.diags.error(
                MODULE_FILE,
                tt.key_line(key, start=fline),
                f"unknown [files] entry {key!r}",
                hint=did_you_mean(key, list(FILES_KEYS)),
            )


def _scenario_files(ctx: Ctx, tt: TomlText, files: dict[str, Any], fline: int | None) -> list[str]:
    """``[files] scenarios``: a list of file names (else reported; none)."""
    scen_files = files.get("scenarios", [])
    if not isinstance(scen_files, list) or not all(isinstance(x, str) for x in scen_files):
        ctx.diags.error(
            MODULE_FILE,
            tt.key_line("scenarios", start=fline),
            "'scenarios' must be a list of file names",
        )
        return []
    return scen_files


def _check_backs(ctx: Ctx, units: tuple[UnitDef, ...], layouts: Mapping[str, Any]) -> None:
    """A unit's back face names a counter layout the module declares."""
    for u in units:
        if u.back is not None and u.back not in layouts:
            ctx.diags.error(
                u.origin.file,
                u.origin.line,
                f"unit {u.id}: back face names unknown counter layout {u.back!r}",
                hint=did_you_mean(u.back, list(layouts)) or "layouts: " + ", ".join(layouts),
            )


class _Tables:
    """The module's tables, loaded by name as the loader reaches them: the terrain chart, the
    CRT and victory levels (required when the ruleset's schema names them) and the rest."""

    def __init__(self, ctx: Ctx, decls: dict[str, TableDecl], lines: dict[str, int | None]) -> None:
        self.ctx = ctx
        self.decls = decls
        self.lines = lines
        self.named: dict[str, NamedTable] = {}

    def load(self, tname: str) -> NamedTable | None:
        """The table ``tname`` read and checked (kept in ``named`` when it loads)."""
        got = load_named_table(self.ctx, self.decls[tname], self.lines[tname])
        if got is not None:
            self.named[tname] = got
        return got

    def terrain(self, fline: int | None) -> dict[str, TerrainType]:
        """The Terrain Effects Chart (required)."""
        if "terrain" not in self.decls:
            self.ctx.diags.error(
                MODULE_FILE, fline, "[files] has no 'terrain' (the Terrain Effects Chart CSV)"
            )
            return {}
        tec = self.load("terrain")
        return terrain_view(self.ctx, tec) if tec is not None else {}

    def crt_and_victory(self, fline: int | None) -> tuple[Any, tuple[VictoryLevel, ...]]:
        """The CRT and the levels of victory, each required when the schema names it."""
        schema, diags = self.ctx.schema, self.ctx.diags
        crt = None
        if "crt" in self.decls:
            got = self.load("crt")
            crt = crt_view(self.ctx, got) if got is not None else None
        elif schema and "crt" in schema.tables:
            diags.error(MODULE_FILE, fline, "[files] has no 'crt' (the Combat Results Table CSV)")
        victory: tuple[VictoryLevel, ...] = ()
        if "victory" in self.decls:
            got = self.load("victory")
            victory = victory_view(self.ctx, got) if got is not None else ()
        elif schema and "victory" in schema.tables:
            diags.error(MODULE_FILE, fline, "[files] has no 'victory' (the Level of Victory CSV)")
        return crt, victory

    def the_others(self) -> None:
        """Every table that is not one of the standard ones."""
        for tname in self.decls:
            if tname not in STANDARD:
                self.load(tname)


def _ruleset_table_checks(ctx: Ctx, module: Module) -> bool:
    """Run the ruleset's own checks of its tables (facts that need the whole module, such as
    the roster ids a table names); ``True`` if they found a problem."""
    if ctx.schema is None:
        return False
    before = len(ctx.diags.errors)
    for name, check in ctx.schema.table_checks.items():
        if name not in module.tables:
            continue
        for dg in check(module):
            ctx.diags.error(dg.file, dg.line, dg.message, col=dg.col, hint=dg.hint)
    return len(ctx.diags.errors) > before


def _table_decls(
    ctx: Ctx, data: dict[str, Any], tt: TomlText, files: dict[str, Any], fline: int | None
) -> tuple[dict[str, TableDecl], dict[str, int | None]]:
    """Every table of the module, by name, with the line that names its file: the
    ``[[table]]`` declarations, the ``[files]`` shorthands for the standard tables
    (:data:`referee.source.tables.STANDARD`), and the tables the ruleset declares (one that is
    not required only when its file exists)."""
    decls: dict[str, TableDecl] = {}
    lines: dict[str, int | None] = {}
    for decl in load_table_decls(ctx, data, tt):
        decls[decl.name] = decl
        lines[decl.name] = tt.key_line("file", start=decl.line)
    for name, std in STANDARD.items():
        if name not in files:
            continue
        ln = tt.key_line(name, start=fline)
        if name in decls:
            ctx.diags.error(
                MODULE_FILE,
                ln,
                f"table {name!r} is declared twice: in [files] and as a [[table]]",
                hint="keep one of them",
            )
            continue
        decls[name] = std.with_file(str(files[name]), ln)
        lines[name] = ln
    if ctx.schema is not None:
        for decl in ctx.schema.table_decls:
            if decl.name in decls or not (decl.required or table_file_exists(ctx, decl)):
                continue
            decls[decl.name] = decl
            lines[decl.name] = None
    return decls, lines
