"""Probes of the Denmark Strait / Iceland special rules [DTP 11.3, 11.31] for the conformance
harness (``dtp_denmark_strait/*.json``, ruleset ``sixth_fleet_dtp``): each names one rule
function of ``referee/rules/sixth_fleet_dtp/denmark_strait.py`` or one phase of play on the
scenario's own map and units. Orders files of any phase are the DTP probe ``play``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, ScriptedDice, SourcePos, UnitState
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import combat_phase, contact, north_atlantic, rebasing
from referee.rules.sixth_fleet_dtp import denmark_strait as ds
from referee.rules.sixth_fleet_dtp.movement import retreat_edge_11_0
from referee.rules.sixth_fleet_dtp.movement_phase import carry_out_movement, check_movement
from referee.rules.sixth_fleet_dtp.path import allowance_8_55, check_path_5_0
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.rules.sixth_fleet_dtp.special_bases import distance_11_3_2
from referee.source.loader import load_module
from referee.source.model import Module

SOURCE = Path(__file__).resolve().parents[3] / "module_src" / "dtp_denmark_strait"


@cache
def module() -> Module:
    m, diags = load_module(SOURCE)
    assert m is not None, [str(d) for d in diags.items]
    return m


def _move(s: Mapping[str, Any]) -> dict[str, Any]:
    m = module()
    game = Game.for_scenario(m, "denmark_strait")
    side = game.unit(s["unit"]).side
    state = GameState(
        "g", m.id, "sixth_fleet_dtp", "denmark_strait", 1, "ship_movement_a", side, {}, {}
    )
    state = state.with_unit(UnitState(s["unit"], side, s["from"], None))
    p = check_path_5_0(game, state, s["unit"], s["path"])
    return {"legal": not p, "rules": sorted({x.rule for x in p}), "codes": [x.code for x in p]}


def _attack(s: Mapping[str, Any]) -> dict[str, Any]:
    """One attack impulse played through the combat phase [DTP 8.2] on the scenario's own
    units: the convoy's damage past D3 and its sinking at D12 [DTP 11.3 rule 7]; day-rated
    air at night not halved on or above the light line [DTP 11.3 rule 8]. With
    ``target_side_passed`` the target's side has passed, so a sunk target goes at once
    instead of waiting for its answer [DTP 8.22]."""
    m = module()
    game = Game.for_scenario(m, "denmark_strait")
    att, tgt = s["attacker"], s["target"]
    side = game.unit(att).side
    turn = s.get("turn", 1)
    state = GameState("g", m.id, "sixth_fleet_dtp", "denmark_strait", turn, "combat", side, {}, {})
    state = state.with_unit(UnitState(att, side, s["hex"], None))
    state = state.with_unit(UnitState(tgt, game.unit(tgt).side, s["hex"], None))
    for u in reversed(s.get("above", ())):  # stacked above the target (listed top first;
        # a unit placed later goes on top)
        state = state.with_unit(UnitState(u, game.unit(u).side, s["hex"], None))
    state = state.with_data(damage={tgt: s["damage"]})
    if s.get("target_side_passed"):  # no impulse left to answer in: a sinking applies at once
        passed = [game.unit(tgt).side]  # [DTP 8.22]
        state = state.with_data(impulses={"next": side, "passed": passed, "count": 0})
    order = Order("attack", "combat", SourcePos("case", 1), units=(att,), targets=(tgt,))
    events: list[Any] = []
    after = combat_phase.carry_out_impulse_8_2(
        game, state, side, [order], ScriptedDice(s["dice"]), events
    )
    return {
        "damage": (after.data.get("damage") or {}).get(tgt),
        "sunk": after.units[tgt].location is None,
        "rules": sorted({e.rule for e in events}),
        "strength": next(e.data["attack"] for e in events if e.kind == "attack"),
        "crt_text": next(e.text for e in events if e.kind == "attack"),
        "stack": list(after.stacks.get(s["hex"], ())),
    }


def _check_attack(s: Mapping[str, Any]) -> dict[str, Any]:
    """An attack order checked by the combat phase [DTP 8.1] on the scenario's map: is it
    refused for reaching under the pack ice [DTP 11.3 rule 6]?"""
    m = module()
    game = Game.for_scenario(m, "denmark_strait")
    att, tgt = s["attacker"], s["target"]
    side = game.unit(att).side
    state = GameState("g", m.id, "sixth_fleet_dtp", "denmark_strait", 1, "combat", side, {}, {})
    state = state.with_unit(UnitState(att, side, s["from"], None))
    state = state.with_unit(
        UnitState(tgt, game.unit(tgt).side, s["at"], None, frozenset({"detected_sub"}))
    )
    order = Order("attack", "combat", SourcePos("case", 1), units=(att,), targets=(tgt,))
    probs = combat_phase.check_attack(game, state, side, order)
    return {"under_ice": any(p.code == "under-ice" for p in probs)}


def _check_detect(s: Mapping[str, Any]) -> dict[str, Any]:
    """A move then a detection attempt, checked by the movement phase [DTP 6.2a]: refused
    under the pack ice [DTP 11.3 rule 6]?"""
    m = module()
    game = Game.for_scenario(m, "denmark_strait")
    det, tgt = s["detector"], s["target"]
    side = game.unit(det).side
    state = GameState(
        "g", m.id, "sixth_fleet_dtp", "denmark_strait", 1, "ship_movement_a", side, {}, {}
    )
    state = state.with_unit(UnitState(det, side, s["path"][0], None))
    state = state.with_unit(UnitState(tgt, game.unit(tgt).side, s["at"], None))
    orders = [
        Order("move", "ship", SourcePos("case", 1), units=(det,), hexes=tuple(s["path"])),
        Order("detect", "ship", SourcePos("case", 2), units=(det,), targets=(tgt,)),
    ]
    probs = check_movement(game, state, side, orders, "ship")
    return {"codes": [p.code for p in probs]}


def _retreat_edge(s: Mapping[str, Any]) -> dict[str, Any]:
    """A side's retreat edge hexes from the players table [DTP 5.24, 11.3]."""
    edge = retreat_edge_11_0(module(), s["side"])
    return {"has": [h for h in s["hexes"] if h in edge], "count": len(edge)}


def _allowance(s: Mapping[str, Any]) -> dict[str, Any]:
    game = Game.for_scenario(module(), "denmark_strait")
    return {"ma": allowance_8_55(game, s["unit"], s["damage"])}


def _pack_ice(s: Mapping[str, Any]) -> dict[str, Any]:
    p = ds.pack_ice_problem_11_3_6(s["terrain"], s["type"], "U", "0000")
    return {"legal": p is None, "rules": [p.rule] if p else []}


def _under_ice(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"may": ds.may_reach_under_ice_11_3_6(s["target"], s["by"], s["by_terrain"], s["d"])}


def _convoy(s: Mapping[str, Any]) -> dict[str, Any]:
    d = s["damage"]
    return {
        "sunk": ds.convoy_sunk_11_3_7(d),
        "ma": ds.convoy_allowance_11_3_7(3, d),
        "vp": str(ds.convoy_vp_11_3_7(d, s.get("unit_vp", 1))),
        "ecm": ds.convoy_ecm_11_3_7(s.get("above", [])),
    }


def _dock(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"may": ds.convoy_may_dock_11_3_7(s["port"], s["tromso_occupied"])}


def _infantry(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"occupies": ds.naval_infantry_11_3_5(s["place"], s["units"], s["destroyed"])}


def _night_applies(s: Mapping[str, Any]) -> dict[str, Any]:
    m = module()
    areas = m.map.hex(s["hex"]).areas
    return {"night": ds.night_applies_11_3_8(s["night"], frozenset(areas))}


def _contact(s: Mapping[str, Any]) -> dict[str, Any]:
    above = ds.above_light_line_11_3_8(module().map, s["hex"])
    mods = contact.modifiers_8_15(4, 4, False, False, False, s["night"], above)
    return {"above": above, "modifiers": [v for _, v in mods]}


def _position(s: Mapping[str, Any]) -> tuple[Game, GameState]:
    """A position of the scenario (``scenario``, default Denmark Strait): the scenario's
    start (places held from the start, the dead pile), then only the ``units`` listed, each
    at a hex or ``box:NAME``, with ``damage`` and ``data`` laid over it."""
    m = module()
    sc = s.get("scenario", "denmark_strait")
    game = Game.for_scenario(m, sc)
    start = RULESET.new_game(m, sc, "g")
    state = GameState(
        "g", m.id, "sixth_fleet_dtp", sc, s.get("turn", 1), s["phase"], s["side"], {}, {}
    )
    state = state.with_data(**{k: v for k, v in start.data.items() if k in ("occupied", "losses")})
    for st in start.units.values():  # the dead pile of the start [DTP 11.31 rule 1]
        if st.box == "eliminated":
            state = state.with_unit(st)
    for u, where in s["units"].items():
        side = game.unit(u).side
        if where.startswith("box:"):
            state = state.with_unit(UnitState(u, side, None, where[4:]))
        else:
            state = state.with_unit(UnitState(u, side, where, None))
    return game, state.with_data(damage=dict(s.get("damage", {})), **s.get("data", {}))


def _orders(s: Mapping[str, Any], section: str) -> list[Order]:
    return [
        Order(o[0], section, SourcePos("case", i + 1), units=(o[1],), hexes=tuple(o[2:]))
        for i, o in enumerate(s["orders"])
    ]


def _report(game: Game, before: GameState, after: GameState, events: list[Any]) -> dict[str, Any]:
    sc = RULESET.score(game.module, after)
    return {
        "events": sorted({e.rule for e in events}),
        "kinds": sorted({e.kind for e in events}),
        "occupied": sorted(after.data.get("occupied") or {}),
        "docked": (after.data.get("docked") or {}).get("port"),
        "eliminated": sorted(
            u for u, st in after.units.items() if st.box == "eliminated" != before.units[u].box
        ),
        "where": {u: st.location or st.box for u, st in sorted(after.units.items())},
        "recycle": dict(after.data.get("recycle") or {}),
        "base_damage": dict(after.data.get("base_damage") or {}),
        "vp": sc["vp"],
        "net": sc["net"],
        "level": sc["level"],
        "bonuses": sorted(b["id"] for b in sc["bonuses"] if b["holds"]),
    }


def _play_move(s: Mapping[str, Any]) -> dict[str, Any]:
    """A movement file checked [DTP 4.1 phases 1-4], then, if clean, carried out: what the
    moves set off [DTP 11.3 rules 2, 5, 7; victory]."""
    game, state = _position(s)
    kind = "air" if s["phase"].startswith("air") else "ship"
    orders = _orders(s, kind)
    probs = check_movement(game, state, s["side"], orders, kind)
    out: dict[str, Any] = {"problems": [p.code for p in probs], "rules": [p.rule for p in probs]}
    if probs:
        return out
    events: list[Any] = []
    dice = ScriptedDice(s.get("dice", []))
    after = carry_out_movement(game, state, s["side"], orders, dice, events)
    for ph in s.get("then", ()):
        after = north_atlantic.on_phase_11_3(game, after.evolve(turn=ph[1]), ph[0], events)
    return {**out, **_report(game, state, after, events)}


def _play_rebase(s: Mapping[str, Any]) -> dict[str, Any]:
    """Phase 6 [DTP 9.22-9.23]: the rebasing file checked, then, if clean, carried out with
    the scripted dice [DTP 9.15, 11.3 rules 2, 3, 5]."""
    game, state = _position(s)
    orders = _orders(s, "rebasing")
    probs = rebasing.check_rebasing(game, state, s["side"], orders)
    out: dict[str, Any] = {"problems": [p.code for p in probs], "rules": [p.rule for p in probs]}
    if probs:
        return out
    events: list[Any] = []
    after = rebasing.carry_out_rebasing(
        game, state, s["side"], orders, ScriptedDice(s.get("dice", [])), events
    )
    texts = [e.text for e in events if e.kind in ("readiness", "recycle")]
    return {**out, **_report(game, state, after, events), "texts": texts}


def _night(s: Mapping[str, Any]) -> dict[str, Any]:
    """Phase 7 of a Night turn: base repair [DTP 10.44], none at an occupied Keflavik."""
    game, state = _position(s)
    events: list[Any] = []
    after = rebasing.night_phase_4_1(game, state, ScriptedDice(s.get("dice", [])), events)
    return {
        "base_damage": dict(after.data.get("base_damage") or {}),
        "recycle": dict(after.data.get("recycle") or {}),
        "kinds": sorted({e.kind for e in events}),
    }


def _score(s: Mapping[str, Any]) -> dict[str, Any]:
    game, state = _position(s)
    return _report(game, state, state, [])


def _options(s: Mapping[str, Any]) -> dict[str, Any]:
    """``referee options`` for one unit of the position [5.0]: its cheapest move first."""
    game, state = _position(s)
    r = RULESET.options(game.module, state, s["unit"])
    moves = r.data["moves"]
    return {"first": moves[0]["order"] if moves else None, "most_mp": max(m["mp"] for m in moves)}


def _resolve(s: Mapping[str, Any]) -> dict[str, Any]:
    """An orders file as a player writes it, through the ruleset: parsed with its vocabulary,
    validated (header, words, the phase's check) and, if clean, resolved [DTP 4.1]."""

    game, state = _position(s)
    section = "rebasing" if s["phase"] == "rebasing" else "movement"
    text = (
        f"game: g\nturn: {state.turn}\nside: {s['side']}\nphase: {s['phase']}\n\n"
        f"[{section}]\n" + "\n".join(s["lines"]) + "\n"
    )
    doc = RULESET.parse_orders(text, "orders.txt")
    bad = RULESET.validate(game.module, state, doc)
    out: dict[str, Any] = {"violations": [f"{v.rule}: {v.message}" for v in bad]}
    if bad:
        return out
    res = RULESET.resolve(game.module, state, doc, ScriptedDice(s.get("dice", [])))
    return {**out, **_report(game, state, res.state, list(res.events))}


def _distance(s: Mapping[str, Any]) -> dict[str, Any]:
    game = Game.for_scenario(module(), "denmark_strait")
    return {"d": distance_11_3_2(game, s["a"], s["b"])}


def _setup(s: Mapping[str, Any]) -> dict[str, Any]:
    """A set-up file of the Iceland scenario as a player writes it [11.0][DTP 11.31 rules 3-5]:
    validated and, if clean, resolved. The Soviet player sets up second, so a Soviet step is
    played after NATO's ``before`` lines (or, without them, the scripted NATO set-up)."""

    m = module()
    state = RULESET.new_game(m, "iceland", "g")

    def doc_of(side: str, lines: list[str]) -> Any:
        text = f"game: g\nturn: {state.turn}\nside: {side}\nphase: setup\n\n[setup]\n"
        return RULESET.parse_orders(text + "\n".join(lines) + "\n", "orders.txt")

    if s["side"] == "Soviet":
        nato = s.get("before")
        if nato is None:  # the scripted NATO set-up, seeded by the game id
            doc = RULESET.parse_orders(RULESET.scripted_orders(m, state) or "", "n.txt")
        else:
            doc = doc_of("NATO", nato)
        assert not RULESET.validate(m, state, doc)
        state = RULESET.resolve(m, state, doc, ScriptedDice([])).state
    doc = doc_of(s["side"], s["lines"])
    bad = RULESET.validate(m, state, doc)
    out: dict[str, Any] = {
        "violations": [f"{v.rule}: {v.message}" for v in bad],
        "hints": [v.hint for v in bad],
        "rules": sorted({v.rule for v in bad}),
    }
    if bad:
        return out
    after = RULESET.resolve(m, state, doc, ScriptedDice([])).state
    placed = [ln.split()[1] for ln in s["lines"]]
    return {
        **out,
        "where": {u: after.units[u].location for u in placed},
        "boxes": {u: after.units[u].box for u in s["expect"].get("boxes", {})},
        "phase": after.phase,
    }


PROBES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "move": _move,
    "strait_attack": _attack,
    "allowance": _allowance,
    "check_attack": _check_attack,
    "check_detect": _check_detect,
    "retreat_edge": _retreat_edge,
    "pack_ice": _pack_ice,
    "under_ice": _under_ice,
    "convoy": _convoy,
    "dock": _dock,
    "naval_infantry": _infantry,
    "night": _night_applies,
    "light_line_contact": _contact,
    "play_move": _play_move,
    "play_rebase": _play_rebase,
    "night_repair": _night,
    "score": _score,
    "distance": _distance,
    "options": _options,
    "resolve": _resolve,
    "setup": _setup,
}
