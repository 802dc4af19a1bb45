"""Scenario set-ups inside the module: one VASSAL "New Game" choice per scenario.

A scenario's set-up save [11.0] is the position the ruleset's ``new_game`` makes before
either player has placed anything, laid out like every other position
(:mod:`referee.vassal.position.save`):

* every counter the scenario fixes (``[[fixed]]``) stands in its hex, or in its carrier's
  holding box when the scenario says so (``status = "holding:US-CV-1"``) [9.62B];
* carrier air whose placement is free (a ``where = "carrier"`` pool) starts in its carrier's
  holding box; it may be launched onto CAP during set-up [9.62];
* every other counter whose placement is the player's choice (``[[choice]]``, ``[[pool]]``)
  and every reinforcement [12.2] waits in the labelled set-up area
  (:mod:`referee.vassal.module.setup_area`), in the box of its choice or pool, whose label gives the
  rule and the constraint.

The module writer (:func:`referee.vassal.module.module_writer.module_entries`) takes the saves as
extra archive entries plus one ``PredefinedSetup`` each, named after the scenario;
:func:`build_module_with_setups` does that and adds the set-up area's map and picture.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path

from lxml import etree

from referee.engine.core import GameState, UnitState
from referee.engine.ruleset import get_ruleset
from referee.render.artcache import cached_png
from referee.source.model import Module
from referee.vassal.codec.zipwrite import write_zip_atomic
from referee.vassal.module.buildfile import XML_DECLARATION, PredefinedSetup, buildfile_tree
from referee.vassal.module.module_writer import (
    BuildResult,
    Progress,
    module_entries,
    plan_build,
    vmod_name,
)
from referee.vassal.module.plan import DEFAULT_DPI, ModulePlan
from referee.vassal.module.setup_area import (
    SETUP_IMAGE,
    setup_area_layout,
    setup_area_png,
    setup_map_element,
)
from referee.vassal.position.placement import Table
from referee.vassal.position.save import position_vsav_bytes

__all__ = [
    "build_module_with_setups",
    "scenario_setup_vsav",
    "scenario_setups",
    "setup_file_name",
]

SETUP_GAME_ID = "setup"
"""Game id of the position a set-up save shows (no game exists yet)."""


def setup_file_name(scenario_id: str) -> str:
    """The archive entry of a scenario's set-up save: ``setup_<id>.vsav``."""
    return "setup_" + re.sub(r"[^A-Za-z0-9._-]", "_", scenario_id) + ".vsav"


def scenario_setup_vsav(table: Table, scenario_id: str, options: tuple[str, ...] = ()) -> bytes:
    """The ``.vsav`` that starts ``scenario_id``: fixed units placed, the rest in the set-up
    area or their carrier's holding box (see the module docstring)."""
    module = table.module
    module.scenario(scenario_id)  # an unknown one: a UserError naming those there are
    schema = module.schema
    if schema is not None and module.map.kind not in schema.map_kinds:
        state = fixed_setup_state(module, scenario_id)  # the ruleset cannot play this map
    else:
        state = get_ruleset(module.ruleset).new_game(module, scenario_id, SETUP_GAME_ID, options)
    return position_vsav_bytes(
        table, state, piece_version=table.plan.piece_version
    )  # the module's own


def fixed_setup_state(module: Module, scenario_id: str) -> GameState:
    """The scenario's ``[[fixed]]`` placements as a position, every other piece of its forces
    unplaced (in the set-up area): the set-up of a module whose ruleset does not play on its
    kind of map (``RulesetSchema.map_kinds``), so its VASSAL module still has a New Game."""
    scenario = module.scenarios[scenario_id]
    units: dict[str, UnitState] = {}
    for side, ids in scenario.forces.items():
        for pid in ids:
            units[pid] = UnitState(pid, side)
    stacks: dict[str, tuple[str, ...]] = {}
    for f in scenario.fixed:
        side = units[f.unit].side if f.unit in units else module.piece(f.unit).unit.side
        units[f.unit] = UnitState(f.unit, side, location=f.hex, box=None)
        stacks[f.hex] = (*stacks.get(f.hex, ()), f.unit)
    return GameState(
        game_id=SETUP_GAME_ID,
        module_id=module.id,
        ruleset=module.ruleset,
        scenario=scenario.id,
        turn=1,
        phase="set-up",
        active_side=None,
        units=units,
        stacks=stacks,
    )


def scenario_setups(table: Table) -> tuple[list[tuple[str, bytes]], list[PredefinedSetup]]:
    """Every scenario's set-up save and its New Game entry, in source order."""
    files: list[tuple[str, bytes]] = []
    setups: list[PredefinedSetup] = []
    for sc in table.module.scenarios.values():
        name = setup_file_name(sc.id)
        files.append((name, scenario_setup_vsav(table, sc.id)))
        text = f"{sc.name}: {sc.turns} Game-Turns, {sc.first_player} moves first"
        setups.append(PredefinedSetup(sc.name, name, text))
    return files, setups


def _with_setup_map(table: Table, setups: Sequence[PredefinedSetup]) -> bytes:
    """``buildFile.xml`` as the module writer writes it, plus the Set-up map after the
    last map (VASSAL reads components in document order; placement among maps is free)."""
    root = buildfile_tree(table.plan, setups)
    if table.setup_area is not None:
        maps = [child for child in root if child.tag == "VASSAL.build.module.Map"]
        anchor = maps[-1] if maps else None
        element = setup_map_element(table.setup_area)
        if anchor is None:
            root.append(element)
        else:
            anchor.addnext(element)
    etree.indent(root, space="    ")
    return XML_DECLARATION + etree.tostring(root, encoding="UTF-8", xml_declaration=False) + b"\n"


def build_module_with_setups(
    module: Module,
    out_dir: Path,
    *,
    dpi: int = DEFAULT_DPI,
    progress: Progress | None = None,
    workers: int | None = None,
    plan: ModulePlan | None = None,
    started: float | None = None,
) -> BuildResult:
    """``referee build`` with the scenario set-ups: the module writer's archive plus the
    set-up area (its map and picture) and one set-up save and New Game entry per scenario.
    Atomic and reproducible like :func:`referee.vassal.module.module_writer.build_module`.
    Pass ``plan`` when the caller already planned the build (e.g. to size a progress bar)."""
    started = time.perf_counter() if started is None else started
    plan = plan_build(module, dpi=dpi) if plan is None else plan
    table = Table(plan, setup_area_layout(module, plan.counter_px))
    files, setups = scenario_setups(table)
    area = table.setup_area
    # the set-up picture is drawn here while a worker draws the board
    pictures = []
    if area is not None:
        draw = lambda: setup_area_png(area)  # noqa: E731
        pictures.append((SETUP_IMAGE, lambda: cached_png("setup-area", (area,), draw)))
    entries = module_entries(
        plan, files, setups, progress=progress, workers=workers, extra_pictures=pictures
    )
    entries["buildFile.xml"] = _with_setup_map(table, setups)
    target = out_dir / vmod_name(module)
    size = write_zip_atomic(target, entries)
    return BuildResult(
        path=target,
        counters=len(plan.unit_slots),
        images=sum(1 for n in entries if n.startswith("images/")),
        bytes=size,
        seconds=time.perf_counter() - started,
    )
