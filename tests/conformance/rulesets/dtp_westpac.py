"""Probes of the Westpac rules [DTP 11.5] for the conformance harness (``dtp_westpac/*.json``,
ruleset ``sixth_fleet_dtp``): the set-up choices [DTP 11.5052, 11.5053] through ``validate``,
the victory values of command ships and convoys [DTP 11.5091, 11.50921, 11.5124] and the
Korean land war [DTP 11.5134], on the scenario's own map and units.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, ScriptedDice
from referee.engine.ruleset import parse_orders_for
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.rules.sixth_fleet_dtp.westpac_korea import capture_problem_11_5134
from referee.rules.sixth_fleet_dtp.westpac_victory import ship_vp_11_5124
from referee.source.loader import load_module
from referee.source.model import Module

SOURCE = Path(__file__).resolve().parents[3] / "module_src" / "dtp_westpac"


@cache
def module() -> Module:
    m, diags = load_module(SOURCE)
    assert m is not None, [str(d) for d in diags.items]
    return m


@cache
def start() -> GameState:
    return RULESET.new_game(module(), "westpac", "conformance")


@cache
def east_block_set_up() -> GameState:
    """The game once the East Block's scripted set-up is in: SEATO's turn to set up."""
    m, state = module(), start()
    text = RULESET.scripted_orders(m, state)
    assert text is not None
    doc = parse_orders_for(RULESET, text, "setup.txt")
    return RULESET.resolve(m, state, doc, ScriptedDice([])).state


def _setup(s: Mapping[str, Any]) -> dict[str, Any]:
    """The scripted set-up file of the East Block (or, with ``"side": "SEATO"``, SEATO's,
    after the East Block's) with ``place`` changed, through ``validate``."""
    m = module()
    state = east_block_set_up() if s.get("side") == "SEATO" else start()
    text = RULESET.scripted_orders(m, state)
    assert text is not None
    changes: dict[str, str] = s.get("place", {})
    lines = []
    for ln in text.splitlines():
        words = ln.split()
        if words[:1] == ["place"] and words[1] in changes:
            ln = f"place {words[1]} {changes[words[1]]}"
        lines.append(ln)
    doc = parse_orders_for(RULESET, "\n".join(lines) + "\n", "setup.txt")
    v = RULESET.validate(m, state, doc)
    return {"legal": not v, "rules": sorted({x.rule for x in v})}


def _vp(s: Mapping[str, Any]) -> dict[str, Any]:
    u = module().unit(s["unit"])
    return {"vp": str(ship_vp_11_5124(u.type, u.values["ECM"], s["damage"]))}


def _capture(s: Mapping[str, Any]) -> dict[str, Any]:
    m = module()
    assert m.map.grid is not None
    hex_id = next((p.hex for p in m.map.places if p.name == s["hex"]), s["hex"])
    p = capture_problem_11_5134(m.map, m.map.grid, hex_id, s["turn"], s.get("controlled", ()))
    return {"legal": p is None, "rules": [p.rule] if p else [], "codes": [p.code] if p else []}


PROBES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "westpac_setup": _setup,
    "westpac_vp": _vp,
    "capture": _capture,
}
