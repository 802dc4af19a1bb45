"""Probes of Westpac's air, nations and hostilities [DTP 11.507, 11.5081-11.5083, 11.510-11.51022]
for the conformance harness (``dtp_westpac/*.json``, ruleset ``sixth_fleet_dtp``), on the
scenario's own map and units, from the position both scripted set-ups leave
(``dtp_westpac.set_up``: at war from Game-Turn 1).

* ``westpac_files``: orders files played on that position at Game-Turn ``turn`` (default 2, a PM
  turn: no reinforcement phase, no variable air roll) in ``phase`` with ``move`` (unit -> hex),
  ``base_damage``, ``recycle`` (unit -> the Game-Turn it returns from the turn track),
  ``hostilities`` (the record; default: both begun on turn 1) and ``files``:
  ``[side, "[section]\\n..."]`` each validated, then resolved with ``dice`` (the scripted rolls,
  shared by the files), until one is refused. Answers ``legal``, ``rules`` (the refusals' cases),
  ``located`` (every refusal names its place), ``messages``, ``events`` (``[kind, rule]`` of the
  resolutions), ``units`` (each of ``watch`` -> its hex or box), ``phase`` and ``side`` after.
* ``westpac_variable_air``: the East Block's roll on Game-Turn ``turn`` with ``dice`` [DTP 11.507]
  (``arrived``: units already out of the box, unit -> turn), then the placements owed before the
  first ship movement: ``arrives`` (the unit the roll brings or null), ``hexes`` (each due East
  Block unit's legal hexes) and, with ``orders`` (the East Block's ``[reinforcement]`` lines),
  ``legal``, ``rules``, ``placed``.
* ``westpac_announce``: the game from the scripted set-up files to the first announcement of
  hostilities [DTP 11.5101]: ``awaits`` (side, phase), then each of ``files`` (the East Block's
  ``[hostilities]`` lines, one file a Game-Turn, each followed by empty files until the next
  announcement or ``until`` turn): ``record`` (the hostilities record), ``legal``, ``rules``,
  ``phases`` (the phases entered, in order, on the last turn played).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.engine.core import Event, GameState, ScriptedDice, SeededDice, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_dtp import flow, westpac_reinforcement, westpac_variable_air
from referee.rules.sixth_fleet_dtp.impulses import start_8_2
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from tests.conformance.rulesets.dtp_westpac import module, set_up, set_up_files

AT_WAR = {"war": 1, "prc": 1, "asked": 1}


def _position(s: Mapping[str, Any]) -> tuple[Game, GameState]:
    m = module()
    turn = int(s.get("turn", 2))
    rec = dict(s.get("hostilities", AT_WAR))
    state = set_up().evolve(turn=turn, phase=s["phase"], active_side=s.get("side"))
    state = state.with_data(hostilities=rec, moved_air=[], origin={}, detect_tried=[])
    game = Game.of(m, state)
    for u, h in s.get("move", {}).items():
        state = move_piece(game, state, u, h)
    if "base_damage" in s:
        state = state.with_data(base_damage=dict(s["base_damage"]))
    for u, back in s.get("recycle", {}).items():  # on the turn track until ``back``
        state = state.with_unit(UnitState(u, state.units[u].side, None, "recycle"))
        state = state.with_data(recycle={**(state.data.get("recycle") or {}), u: back})
    if s["phase"] == "combat":
        state = state.with_data(impulses=start_8_2("SEATO"), combat={}, strike=None)
        state = state.evolve(active_side="SEATO")
    if s["phase"] == "rebasing":
        state = state.with_data(rebased=[], moments=[])
    return game, state


def _text(state: GameState, side: str, body: str) -> str:
    return (
        f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\nphase: {state.phase}\n\n{body}"
    )


def _play(s: Mapping[str, Any]) -> dict[str, Any]:
    m = module()
    _, state = _position(s)
    dice = ScriptedDice(list(s.get("dice", [])))
    got: dict[str, Any] = {"legal": True, "rules": [], "located": True, "messages": []}
    events: list[Event] = []
    for side, body in s.get("files", []):
        doc = RULESET.parse_orders(_text(state, side, body), "orders.txt")
        v = RULESET.validate(m, state, doc)
        if v:
            got["legal"] = False
            got["rules"] = sorted({x.rule for x in v})
            got["located"] = all(x.where is not None for x in v)
            got["messages"] = [x.message for x in v]
            break
        out = RULESET.resolve(m, state, doc, dice)
        state, events = out.state, [*events, *out.events]
    got["events"] = sorted({(e.kind, e.rule) for e in events})
    got["events"] = [list(e) for e in got["events"]]
    got["units"] = {
        u: (state.units[u].location or state.units[u].box) if u in state.units else None
        for u in s.get("watch", [])
    }
    got["phase"], got["side"] = state.phase, state.active_side
    return got


def _variable_air(s: Mapping[str, Any]) -> dict[str, Any]:
    m = module()
    state = set_up().evolve(turn=s.get("turn", 4))
    state = state.with_data(hostilities=AT_WAR)
    if "arrived" in s:
        state = state.with_data(variable_air={"rolls": {}, "arrived": dict(s["arrived"])})
        for u in s["arrived"]:
            state = state.with_unit(UnitState(u, "EastBlock", None, "reinforcements"))
    if "base_damage" in s:
        state = state.with_data(base_damage=dict(s["base_damage"]))
    game = Game.of(m, state)
    events: list[Event] = []
    dice = ScriptedDice(list(s.get("dice", [])))
    before = dict(westpac_variable_air.arrivals_11_507(state))
    state = westpac_variable_air.roll_11_507(game, state, "ship_movement_a", dice, events)
    new = [u for u in westpac_variable_air.arrivals_11_507(state) if u not in before]
    got: dict[str, Any] = {"arrives": new[0] if new else None}
    got["events"] = [[e.kind, e.rule, e.text] for e in events]
    got["hexes"] = {
        u: westpac_reinforcement.entry_hexes_11_506(game, state, u)
        for u in westpac_reinforcement.due_11_506(game, state, "EastBlock", "ship_movement_a")
    }
    if "orders" in s:
        owed = westpac_reinforcement.detour_11_506(game, state, "ship_movement_a")
        assert owed is not None
        state = flow.reinforce_11_506(game, state.with_data(reinforce=owed), dice, events)
        text = _text(
            state, "EastBlock", "[reinforcement]\n" + "".join(f"{x}\n" for x in s["orders"])
        )
        doc = RULESET.parse_orders(text, "orders.txt")
        v = RULESET.validate(m, state, doc)
        got["legal"], got["rules"] = not v, sorted({x.rule for x in v})
        got["located"] = all(x.where is not None for x in v)
        if not v:
            out = RULESET.resolve(m, state, doc, dice)
            got["placed"] = {
                e.data["unit"]: e.data["hex"] for e in out.events if e.kind == "reinforce"
            }
    return got


def _announce(s: Mapping[str, Any]) -> dict[str, Any]:
    m = module()
    state = set_up_files()
    got: dict[str, Any] = {"awaits": [state.active_side, state.phase], "legal": True, "rules": []}
    phases: list[str] = []
    for lines in s.get("files", []):
        if state.phase != "hostilities":
            got["asked"] = False  # nothing left to announce: no announcement phase
            break
        text = _text(state, "EastBlock", "[hostilities]\n" + "".join(f"{x}\n" for x in lines))
        doc = RULESET.parse_orders(text, "orders.txt")
        v = RULESET.validate(m, state, doc)
        if v:
            got["legal"], got["rules"] = False, sorted({x.rule for x in v})
            got["located"] = all(x.where is not None for x in v)
            break
        state, phases = _rest_of_turn(RULESET.resolve(m, state, doc, ScriptedDice([])))
    got["record"] = dict(state.data.get("hostilities") or {})
    got["phases"] = phases
    got["now"] = [state.turn, state.phase]
    return got


def _rest_of_turn(out: Any) -> tuple[GameState, list[str]]:
    """Empty files (a pass in combat; the scripted player's where a rule refuses an empty one)
    from an announcement to the next Game-Turn's start; the phases entered on the way, a
    phase passed over by its case (the combat phase before hostilities)."""
    m, state, turn = module(), out.state, out.state.turn
    events = list(out.events)
    k = 0
    while state.turn == turn and state.phase != "game-over":
        k += 1
        side = flow.due_sides(Game.of(m, state), state)[0]
        section = flow.section_of(state)
        body = f"[{section}]\n" + ("pass\n" if section == "combat" else "")
        doc = RULESET.parse_orders(_text(state, side, body), "x.txt")
        if RULESET.validate(m, state, doc):  # a file some rule requires (a ship that must sail)
            doc = RULESET.parse_orders(RULESET.scripted_orders(m, state) or "", "x.txt")
            assert not RULESET.validate(m, state, doc), (state.phase, side)
        out = RULESET.resolve(m, state, doc, SeededDice(k))
        state, events = out.state, [*events, *out.events]
    return state, [str(e.data["phase"]) if e.data else e.rule for e in events if e.kind == "phase"]


PROBES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "westpac_files": _play,
    "westpac_variable_air": _variable_air,
    "westpac_announce": _announce,
}


def _setup_steps(s: Mapping[str, Any]) -> dict[str, Any]:
    """The set-up from the start, each file the scripted player's with ``add`` (step number
    -> lines appended) and ``drop`` (step number -> units whose line is left out)."""
    from tests.conformance.rulesets.dtp_westpac import start

    m, state = module(), start()
    got: dict[str, Any] = {"sides": [], "legal": True, "rules": []}
    step = 0
    while state.phase == "setup":
        got["sides"].append(state.active_side)
        text = RULESET.scripted_orders(m, state) or ""
        drop = set(s.get("drop", {}).get(str(step), ()))
        lines = [x for x in text.splitlines() if not (x.split()[1:2] and x.split()[1] in drop)]
        text = "\n".join([*lines, *s.get("add", {}).get(str(step), ())]) + "\n"
        doc = RULESET.parse_orders(text, "setup.txt")
        v = RULESET.validate(m, state, doc)
        if v:
            got["legal"], got["rules"] = False, sorted({x.rule for x in v})
            got["located"] = all(x.where is not None for x in v)
            break
        state = RULESET.resolve(m, state, doc, ScriptedDice([])).state
        step += 1
    got["now"] = [state.turn, state.phase]
    return got


PROBES["westpac_setup_steps"] = _setup_steps
