"""``referee options`` for Sixth Fleet (1975): what a unit, or a hex's units, may do now.

The facts come from the validator's own code (``options.legal_moves``, ``options.hex_attacks``:
moves with MP costs and forced stops, single attacks, group attacks [8.3]); this module only
lays them out as the lines the command prints, the JSON it gives, and the hexes ``--png``
marks. Reached through ``RULESET.options``, never imported by the CLI.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import OptionsReport
from referee.errors import UserError
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.combat import hex_target
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.draft import choices
from referee.rules.sixth_fleet_1975.options import hex_attacks, legal_moves
from referee.rules.sixth_fleet_1975.sequence import SETUP
from referee.source.model import Module


def attack_line(a: dict[str, Any]) -> str:
    """``SO-SG-1 SO-DD-1 -> US-CV-1: AS 40 - DEF 24 = 16, column 15, ECM 6: 1-2 (die 1-2)``."""
    target = " ".join(a["targets"]) or hex_target(a["target_hex"])
    die = f"retreat on {a['die_range']}" if a["die_range"] else "no effect, no roll"
    return (
        f"{' '.join(a['attackers'])} -> {target}: {a['strength']} {a['attack_total']} - "
        f"DEF {a['defense_total']} = {a['differential']}, column {a['column']}, "
        f"ECM {a['ecm_row']}: {a['entry']} ({die})"
    )


def _attacks(label: str, attacks: list[dict[str, Any]], untried: int, limit: int) -> list[str]:
    shown = attacks if limit == 0 else attacks[:limit]
    out = [f"  {label} {attack_line(a)}" for a in shown]
    if len(shown) < len(attacks):
        out.append(
            f"  ... and {len(attacks) - len(shown)} more {label}s (--max-groups 0 lists all)"
        )
    if untried:
        out.append(f"  note: {untried} combinations not examined (search limit) [8.3]")
    return out


def options_report(module: Module, st: GameState, subject: str, limit: int) -> OptionsReport:
    """A unit's moves and attacks, or (for a hex) every legal attack of its units."""
    from referee.source.diagnostics import did_you_mean

    game = Game.of(module, st)
    if subject not in st.units and game.board.contains(subject):
        hinfo = hex_attacks(game, st, subject)
        lines = [
            f"{subject}: {' '.join(hinfo['units']) or 'no units'}"
            + (f" ({hinfo['side']})" if hinfo["side"] else "")
            + f"; {hinfo['phase']}",
            *_attacks("attack", hinfo["attacks"], hinfo["untried"], limit),
        ]
        return OptionsReport(subject, tuple(lines), hinfo, None, tuple(hinfo["notes"]))
    if subject not in st.units:
        raise UserError(
            f"unknown unit {subject!r}",
            hint=did_you_mean(subject, list(st.units)) or "name a unit id or a hex (RRCC)",
        )
    if st.phase == SETUP:
        return setup_options(game, st, subject)
    info = legal_moves(game, st, subject)
    lines = [f"{subject} ({info['side']}) at {info['location'] or info['box']}; {info['phase']}"]
    for m in info["moves"]:
        flag = " stop [" + m["stop"] + "]" if m["stop"] else ""
        flag += " (pass only)" if not m["may_end"] else ""
        lines.append(f"  move {m['hex']} cost {m['cost']}{flag}: {' '.join(m['path'])}")
    for a in info["attacks"]:
        if a["legal"]:
            lines.append(f"  attack {attack_line(a)}")
        else:
            lines.append(f"  attack {a['target']}: not allowed: " + "; ".join(a["why_not"]))
    lines += _attacks("group attack", info["group_attacks"], info["group_attacks_untried"], limit)
    info["orders"] = choices(game, st, subject, info)
    lines += [f"  {c['order']}  [8.24]" for c in info["orders"] if c["kind"] == "retreat_to"]
    lines += [f"  {c['order']}  [12.2]" for c in info["orders"] if c["kind"] == "place"]
    marks = {m["hex"]: str(m["cost"]) for m in info["moves"] if m["may_end"]}
    return OptionsReport(subject, tuple(lines), info, marks, tuple(info["notes"]))


def setup_options(game: Game, st: GameState, unit: str, *, standing: bool = True) -> OptionsReport:
    """At set-up only placing is allowed [11.0]: the ``place`` lines the unit's pool
    allows, ready to paste into ``[setup]`` [11.1], [11.2]; none for a unit the scenario
    places or the other side sets up. No moves: ``move`` is not a set-up order.
    ``standing``: whether SPI's standing orders are offered too (not to DTP's set-up)."""
    from referee.rules.sixth_fleet_1975.setup import pool_of, setup_pools

    u = st.units[unit]
    info: dict[str, Any] = {
        "unit": unit,
        "side": u.side,
        "location": u.location,
        "box": u.box,
        "phase": seq.describe(st),
        "places": [],
        "notes": [],
    }
    lines = [f"{unit} ({u.side}) at {u.location or u.box}; {info['phase']}"]
    pool = pool_of(setup_pools(game, st), unit)
    choice = next((c for c in game.scenario.choices if c.unit == unit), None)
    if u.box != "unplaced":
        info["notes"].append(
            f"placed by the scenario at {u.location or u.box} [11.0]: nothing to order for it"
        )
    elif u.side != st.active_side:
        info["notes"].append(f"{u.side} sets it up in its own set-up [11.0]")
    elif choice is not None:  # one of a few hexes the scenario names, e.g. [11.2A]
        info["places"] = [f"place {unit} {h}" for h in choice.hexes]
        info["notes"].append(f"[{choice.rule or '11.0'}] one of {', '.join(choice.hexes)}")
    elif pool is None:
        info["notes"].append("no set-up pool names it [11.1]")
    elif pool.where == "carrier" and pool.carrier:
        info["places"] = [f"place {unit} cap {pool.carrier}", f"place {unit} box {pool.carrier}"]
    else:
        info["places"] = [f"place {unit} {h}" for h in pool.hexes]
    said = pool.text if pool is not None else ""  # the pool's own words in the scenario file
    if pool is not None and said:
        info["notes"].append(f"[{pool.rule or '11.1'}] {said}")
    info["orders"] = choices(game, st, unit, info, standing=standing)
    lines += [f"  {p}" for p in info["places"]]
    if not info["places"]:
        lines.append("  nothing to order now")
    marks = {p.split()[-1]: "set-up" for p in info["places"] if game.board.contains(p.split()[-1])}
    return OptionsReport(unit, tuple(lines), info, marks or None, tuple(info["notes"]))
