"""Shared pieces of the toy rulesets that prove the core's newer capabilities (sealed orders
and hidden units, a referee-run side with committed chits, impulses and reactions)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, UnitState
from referee.engine.ruleset import Ruleset
from referee.source.loader import load_module
from referee.source.model import Module
from referee.source.schema import RulesetSchema
from tests.pbem import toy

TOY_DIR = Path(toy.TOY_FIXTURE)


def install(ruleset: Ruleset) -> RulesetSchema:
    """Register a toy ruleset by a (Sixth Fleet-shaped) module schema; idempotent."""
    from referee.rules.sixth_fleet_1975.schema import SCHEMA as SF
    from referee.source import schema

    own = dataclasses.replace(
        SF, id=ruleset.id, name=f"Toy rules {ruleset.id}", rules=lambda: ruleset
    )
    schema.register(own)
    return own


def module_dir(where: Path, ruleset_id: str) -> Path:
    """A copy of the toy module source whose ``module.toml`` names ``ruleset_id``."""
    out = where / f"module-{ruleset_id}"
    if not out.exists():
        shutil.copytree(TOY_DIR, out)
        m = out / "module.toml"
        m.write_text(m.read_text().replace('ruleset = "toy"', f'ruleset = "{ruleset_id}"'))
    return out


def load(where: Path, ruleset_id: str) -> Module:
    module, diags = load_module(module_dir(where, ruleset_id))
    assert module is not None, [str(d) for d in diags.items]
    return module


def start(
    ruleset_id: str,
    module: Module,
    scenario: str,
    game_id: str,
    places: dict[str, str | None],
    *,
    phase: str,
    side: str | None,
    data: dict[str, Any],
    options: tuple[str, ...] = (),
) -> GameState:
    """A position with the given units (unit -> hex, or ``None`` for off the map)."""
    state = GameState(
        game_id=game_id,
        module_id=module.id,
        ruleset=ruleset_id,
        scenario=scenario,
        turn=1,
        phase=phase,
        active_side=side,
        units={},
        stacks={},
        data=data,
        options=tuple(options),
    )
    pieces = module.pieces()
    for uid, hx in places.items():
        state = state.with_unit(
            UnitState(uid, pieces[uid].unit.side, hx, None if hx else "group"), top=False
        )
    return state


def other(module: Module, side: str) -> str:
    return next(s.id for s in module.sides if s.id != side)


def moved(state: GameState, unit: str, to: str) -> GameState:
    u = state.units[unit]
    return state.with_unit(dataclasses.replace(u, location=to, box=None))
