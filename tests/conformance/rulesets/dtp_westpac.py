"""Probes of the Westpac rules [DTP 11.5] for the conformance harness (``dtp_westpac/*.json``,
ruleset ``sixth_fleet_dtp``): the set-up choices [DTP 11.5052, 11.5053] through ``validate``,
the victory values of command ships and convoys [DTP 11.5091, 11.50921, 11.5124], the
Korean land war [DTP 11.5134] and the reinforcement phase with its placement and delay rules
[DTP 11.5041, 11.506-11.5065], on the scenario's own map and units.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import Event, GameState, ScriptedDice, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_1975.stacking import counts
from referee.rules.sixth_fleet_dtp import flow, westpac_reinforcement
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
    doc = RULESET.parse_orders(text, "setup.txt")
    return RULESET.resolve(m, state, doc, ScriptedDice([])).state


@cache
def set_up_files() -> GameState:
    """The three scripted set-up files in (East Block, SEATO, SG #36 [DTP 11.505]): Game-Turn
    1 begins with the East Block's announcement of hostilities [DTP 11.5101]."""
    m, state = module(), east_block_set_up()
    while state.phase == "setup":  # SEATO, then the East Block's SG #36 [DTP 11.505]
        text = RULESET.scripted_orders(m, state)
        assert text is not None
        doc = RULESET.parse_orders(text, "setup.txt")
        state = RULESET.resolve(m, state, doc, ScriptedDice([])).state
    return state


@cache
def set_up() -> GameState:
    """The set-up and the scripted announcement (hostilities and PRC entry on Game-Turn 1
    [DTP 11.5101, 11.51021]): the East Block's first ship and sub movement, at war."""
    m, state = module(), set_up_files()
    text = RULESET.scripted_orders(m, state)
    assert text is not None and state.phase == "hostilities"
    doc = RULESET.parse_orders(text, "hostilities.txt")
    state = RULESET.resolve(m, state, doc, ScriptedDice([])).state
    assert state.phase == "ship_movement_a" and state.turn == 1
    return state


def at_war(turn: int) -> GameState:
    """The set-up position on Game-Turn ``turn``, the East Block's first ship and sub
    movement awaited: at war since Game-Turn 1 [DTP 11.5101] (the PRC too [DTP 11.51021])
    and the turn's variable air roll made, bringing nothing [DTP 11.507]."""
    state = set_up().evolve(turn=turn, phase="ship_movement_a", active_side="EastBlock")
    return state.with_data(
        hostilities={"war": 1, "prc": 1, "asked": turn},
        variable_air={"rolls": {str(turn): 1}, "arrived": {}},
    )


def _turn(s: Mapping[str, Any]) -> tuple[Game, GameState]:
    """The set-up position on Game-Turn ``turn`` (4), with ``move`` (unit -> hex),
    ``base_damage`` (hex -> level) and ``delayed`` (unit -> turn) applied; at war since turn 1
    [DTP 11.5101] and the turn's variable air roll made, bringing nothing [DTP 11.507] (its
    own cases: ``dtp_westpac_play``)."""
    m = module()
    state = at_war(s.get("turn", 4))
    if "dtp_flags" in s:  # a game's rulings (an older game's reading: the flag off)
        state = state.with_data(dtp_flags=dict(s["dtp_flags"]))
    game = Game.of(m, state)
    for u, h in s.get("move", {}).items():
        state = move_piece(game, state, u, h)
    if "base_damage" in s:
        state = state.with_data(base_damage=dict(s["base_damage"]))
    if "delayed" in s:
        state = state.with_data(delayed=dict(s["delayed"]))
    return game, state


def _reinforce(s: Mapping[str, Any]) -> dict[str, Any]:
    """The reinforcements owed before the first ship movement of the turn [DTP 11.506]: the
    placement phase awaited, the entry hexes of each due unit, then ``orders`` (each side's
    in turn; ``"scripted"``: the scripted player's) through ``validate`` and ``resolve``, on
    into the ship and sub movement phases that follow [DTP 11.5063]; ``count`` (hex -> side):
    that side's naval units in the hex at the end (``naval``)."""
    m = module()
    game, state = _turn(s)
    owed = westpac_reinforcement.detour_11_506(game, state, "ship_movement_a")
    events: list[Event] = []
    if owed is not None:
        state = flow.reinforce_11_506(
            game, state.with_data(reinforce=owed), ScriptedDice([]), events
        )
    got: dict[str, Any] = {"awaits": [state.active_side, state.phase]}
    got["hexes"] = {
        u: westpac_reinforcement.entry_hexes_11_506(game, state, u)
        for side in game.sides
        for u in westpac_reinforcement.due_11_506(game, state, side, "ship_movement_a")
    }
    rules: set[str] = set()
    for lines in s.get("orders", []):
        section = flow.section_of(state)
        if section not in ("reinforcement", "movement"):
            break
        side = str(state.active_side)
        if lines == "scripted":
            text = RULESET.scripted_orders(m, state)
        else:
            text = f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n"
            text += f"phase: {state.phase}\n\n[{section}]\n" + "".join(f"{x}\n" for x in lines)
        assert text is not None
        doc = RULESET.parse_orders(text, "orders.txt")
        v = RULESET.validate(m, state, doc)
        rules |= {x.rule for x in v}
        if v:
            break
        out = RULESET.resolve(m, state, doc, ScriptedDice(list(s.get("dice", []))))
        state = out.state
        events += out.events
    got["legal"] = not rules
    got["rules"] = sorted(rules)
    got["placed"] = {e.data["unit"]: e.data["hex"] for e in events if e.kind == "reinforce"}
    got["delayed"] = sorted(e.data["unit"] for e in events if e.kind == "delay")
    got["eliminated"] = [[e.data["unit"], e.rule] for e in events if e.kind == "eliminate"]
    got["naval"] = {h: counts(game, state, h, side)[0] for h, side in s.get("count", {}).items()}
    got["next_phase"] = state.phase
    return got


def _due(s: Mapping[str, Any]) -> dict[str, Any]:
    """The units owed before phase ``before`` (the delayed ones [DTP 11.5061, 11.5063])."""
    game, state = _turn(s)
    side = s.get("side", "SEATO")
    due = westpac_reinforcement.due_11_506(game, state, side, s["before"])
    return {"due": due}


def _phase_turns(s: Mapping[str, Any]) -> dict[str, Any]:
    """The Game-Turns with a reinforcement phase [DTP 11.5041] (no arguments)."""
    return {"turns": [t for t in range(1, 49) if westpac_reinforcement.phase_turn_11_5041(t)]}


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
    doc = RULESET.parse_orders("\n".join(lines) + "\n", "setup.txt")
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


def _position(s: Mapping[str, Any]) -> tuple[Game, GameState]:
    """The set-up position at Game-Turn ``turn`` (1), phase ``phase`` (``ship_movement_a``)
    with ``side`` to act (the phase's player), ``options`` (the optional rules chosen),
    ``move`` (unit -> hex), ``box`` (unit -> an off-map box) and ``damage`` (unit -> level)
    applied, ``data`` records laid over."""
    m = module()
    phase = s.get("phase", "ship_movement_a")
    side = s.get("side", "SEATO" if phase.endswith("_b") else "EastBlock")
    state = set_up().evolve(
        turn=s.get("turn", 1),
        phase=phase,
        active_side=side,
        options=tuple(sorted(s.get("options", ()))),
    )
    game = Game.of(m, state)
    for u, h in s.get("move", {}).items():
        state = move_piece(game, state, u, h)
    for u, box in s.get("box", {}).items():  # off the map, in a box
        was = state.units[u]
        state = state.with_unit(UnitState(u, was.side, None, box, frozenset()))
    if "damage" in s:
        state = state.with_data(damage={**(state.data.get("damage") or {}), **s["damage"]})
    if "data" in s:
        state = state.with_data(**s["data"])
    return game, state


WESTPAC_EVENTS = (
    *("retreat", "unload", "unload-barred", "award", "capture", "eliminate"),
    *("base-destroyed", "replace", "expended", "air-assault", "set-aside"),
)


def _play(s: Mapping[str, Any]) -> dict[str, Any]:
    """One file of ``lines`` for the phase of :func:`_position` through ``validate`` and, when
    legal and not ``validate_only``, ``resolve`` (then what follows on its own: the next
    phase's unloading [DTP 11.50922]); ``unload``: a side whose units in their destinations
    are set aside, as at the start of its ship and sub movement phase [DTP 11.50922];
    ``assault_done``: the Z-5's assault ends as the rebasing phase begins [DTP 11.50952];
    ``end_turn``: the end-of-turn awards [DTP 11.5124]; ``game_over``: the score once the game
    is over [DTP 11.5123]; ``watch``: units whose place to answer. Answers: ``legal``,
    ``rules``, ``includes`` (those of ``want`` among them), ``located`` (each refusal at a
    line of the file), ``events`` ([kind, rule] of each Westpac event: retreat, unload,
    barred landing, award, capture ...), ``unloads`` ([unit, award, VP]), ``barred`` (units),
    ``boxes`` (unit -> hex or box), ``vp``, ``net``, ``level``, ``awards`` (award -> VP)."""
    from referee.rules.sixth_fleet_dtp import flow, westpac_score, westpac_unloading, westpac_z5

    m = module()
    game, state = _position(s)
    events: list[Event] = []
    got: dict[str, Any] = {"legal": True, "rules": [], "located": True}
    if "lines" in s:
        section = flow.section_of(state)
        text = f"game: {state.game_id}\nturn: {state.turn}\nside: {state.active_side}\n\n"
        text += f"[{section}]\n" + "".join(f"{x}\n" for x in s["lines"])
        doc = RULESET.parse_orders(text, "orders.txt")
        v = RULESET.validate(m, state, doc)
        got.update(
            legal=not v,
            rules=sorted({x.rule for x in v}),
            includes=sorted({x.rule for x in v} & set(s.get("want", ()))),
            located=all(x.where is not None and x.where.line > 4 for x in v),
        )
        if not v and not s.get("validate_only"):
            out = RULESET.resolve(m, state, doc, ScriptedDice(list(s.get("dice", []))))
            state, events = out.state, list(out.events)
    if "unload" in s:  # the start of that side's ship and sub movement phase [DTP 11.50922]
        state = westpac_unloading.unload_11_50922(game, state, s["unload"], events)
    if s.get("assault_done"):  # the rebasing phase begins [DTP 11.50952]
        state = westpac_z5.assault_done_11_50952(game, state, events)
    if s.get("end_turn"):
        state = westpac_score.end_of_turn_11_5124(game, state, events)
    if s.get("game_over"):
        state = state.evolve(phase=flow.GAME_OVER, active_side=None)
    score = RULESET.score(m, state)
    got["events"] = [[e.kind, e.rule] for e in events if e.kind in WESTPAC_EVENTS]
    got["unloads"] = [
        [e.data["unit"], e.data["award"], e.data["vp"]] for e in events if e.kind == "unload"
    ]
    got["barred"] = [e.data["unit"] for e in events if e.kind == "unload-barred"]
    got["boxes"] = {u: (state.units[u].location or state.units[u].box) for u in s.get("watch", [])}
    got["vp"] = dict(score["vp"])
    got["net"] = score["net"]
    got["level"] = score["level"]
    got["awards"] = {b["id"]: b["vp"] for b in score["bonuses"] if b["vp"]}
    return got


def _new(s: Mapping[str, Any]) -> dict[str, Any]:
    """A new game of ``module`` (``dtp_westpac``) and ``scenario`` with ``options``
    [DTP 11.513], refused or not (``error``); when it starts, both scripted set-ups played:
    ``options`` kept, ``boxes`` (unit -> hex or box of ``watch``), ``events`` ([kind, rule]
    of the set-up's Westpac events)."""
    from referee.errors import UserError

    path = SOURCE.parent / s.get("module", "dtp_westpac")
    m, diags = load_module(path)
    assert m is not None, [str(d) for d in diags.items]
    try:
        state = RULESET.new_game(m, s.get("scenario", "westpac"), "new", tuple(s["options"]))
    except UserError as exc:
        return {"error": str(exc)}
    events: list[Event] = []
    while state.phase == "setup":
        text = RULESET.scripted_orders(m, state)
        assert text is not None
        out = RULESET.resolve(m, state, RULESET.parse_orders(text, "s.txt"), ScriptedDice([]))
        assert out.ok, out.violations
        state, events = out.state, [*events, *out.events]
    return {
        "error": None,
        "options": list(state.options),
        "boxes": {u: state.units[u].location or state.units[u].box for u in s.get("watch", [])},
        "events": [[e.kind, e.rule] for e in events if e.kind in WESTPAC_EVENTS],
    }


def _armistice(s: Mapping[str, Any]) -> dict[str, Any]:
    """The armistice roll as Game-Turn ``turn`` begins [DTP 11.5132] with ``options``, the
    earlier ``rolls`` (turn -> roll), ``hostilities`` (the turn they began) and ``dice``:
    ``over`` and the ``rolls`` after."""
    from referee.rules.sixth_fleet_dtp.westpac_armistice import roll_11_5132

    state = start().evolve(options=tuple(s.get("options", ())))
    state = state.with_data(armistice=dict(s.get("rolls", {})))
    if "hostilities" in s:
        state = state.with_data(hostilities={"war": s["hostilities"]})
    dice = ScriptedDice(list(s.get("dice", [])))
    state, over = roll_11_5132(state, s["turn"], dice, [])
    return {"over": over, "rolls": dict(state.data.get("armistice") or {})}


PROBES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "westpac_setup": _setup,
    "westpac_vp": _vp,
    "capture": _capture,
    "westpac_reinforce": _reinforce,
    "westpac_due": _due,
    "westpac_phase_turns": _phase_turns,
    "westpac_play": _play,
    "westpac_new": _new,
    "westpac_armistice": _armistice,
}
