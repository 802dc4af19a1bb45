"""The Denmark Strait and Iceland special rules in play [DTP 11.3, 11.31]: what a move sets
off, what the position then forbids, and what the victory schedule watches.

``denmark_strait.py`` holds the rules as pure answers; this module applies them to a game
position and records the facts the victory schedule (scenario ``[[victory.bonus]]`` data,
``victory.py``) reads:

* ``occupied`` {place: Game-Turn} and ``ever_occupied`` [places]: a stack of three Soviet
  surface units ending a move in Tromso or Keflavik, its defences destroyed, lands naval
  infantry and occupies it at once [DTP 11.3 rule 5]. At an occupied base with a
  ``base_rules`` occupation row (Keflavik) the NATO air units there are destroyed, NATO may no
  longer use it, only the listed Soviet types may base there (readiness -1) and it is never
  repaired. An Iceland bonus with ``held_at_start`` starts its place occupied [DTP 11.31
  rule 1].
* ``docked`` {"port", "turn"}: the convoy ending a move in Tromso docks there, or in Trondheim
  when Tromso is occupied [DTP 11.3 rule 7]; a docked convoy stays in the port, may still be
  attacked and moves no more (docs/interpretations.md DTP-DS-6).
* ``watched`` {bonus id: {...}}: for ``no_unit_entered`` the turn a matching unit (US CV)
  first entered the hex (2603); for ``unit_held`` the unit that ended its move there, kept
  while its air units stay over it or aboard (CAP only) and earned when it is still there as
  the next Game-Turn's movement begins (docs/interpretations.md DTP-DS-5).

On a module or scenario without these places and bonuses every hook leaves the position as
it is, so the Med is untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.rules.sixth_fleet_1975.air import holding_box
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import eliminate, move_piece
from referee.rules.sixth_fleet_dtp import air, special_bases
from referee.rules.sixth_fleet_dtp import denmark_strait as ds
from referee.rules.sixth_fleet_dtp.bases import DESTROYED
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.source.model import VictoryBonus

TROMSO = "Tromso"
RECAPTURE_DAMAGE = 2  # "the base takes D2 damage" [DTP 11.31 rule 6]
PORTS_11_3_7 = ("Tromso", "Trondheim")


def place_hex(game: Game, name: str) -> str | None:
    """The hex of a named place of the map (``[[place]]``), or None."""
    return next((p.hex for p in game.module.map.places if p.name == name), None)


def place_at(game: Game, hex_id: str, names: Sequence[str]) -> str | None:
    return next((n for n in names if place_hex(game, n) == hex_id), None)


def occupied(state: GameState) -> dict[str, int]:
    return dict(facts_of(state).occupied)


def occupied_base(game: Game, state: GameState, hex_id: str) -> special_bases.BaseRule | None:
    """The base rule of ``hex_id`` if naval infantry hold it and the rule has an occupation
    row (Keflavik) [DTP 11.3 rule 5]."""
    rule = special_bases.rule_at(game.module, hex_id)
    if rule is None or rule.name not in occupied(state):
        return None
    return rule if rule.occupied_users or occupied(state)[rule.name] == 0 else None


def defences_destroyed_11_3_5(game: Game, state: GameState, hex_id: str) -> bool:
    """A hex's defences are destroyed when it has none, or its Defended hex or base is at D3
    [DTP 10.44] (or destroyed under SPI's record, kept for positions that hold it)."""
    if game.module.map.hex(hex_id).defended is None:
        return True
    level = int(facts_of(state).base_damage.get(hex_id, 0))
    return level >= DESTROYED or hex_id in game.destroyed_defended(state)


def landing_11_3_5(
    game: Game, state: GameState, unit: str, hex_id: str, enemy_categories: set[str]
) -> bool:
    """May this Soviet surface unit end its move in Tromso or Keflavik although enemy units
    are there? Yes when they are only air units on the base and its defences are destroyed:
    the stack is landing naval infantry, which "destroys any air units trapped there"
    [DTP 11.3 rule 5 over DTP 5.25] (docs/interpretations.md DTP-DS-7)."""
    if game.category(unit) != "surface" or enemy_categories != {"air"}:
        return False
    if state.units[unit].side == game.flags.nato_side:  # the recapture [DTP 11.31 rule 6]
        held = occupied_base(game, state, hex_id)
        return held is not None and bool(held.recaptured_by)
    return (
        state.units[unit].side == game.flags.soviet_side
        and place_at(game, hex_id, ds.NAVAL_INFANTRY_HEXES) is not None
        and defences_destroyed_11_3_5(game, state, hex_id)
    )


def after_move_11_3(
    game: Game,
    state: GameState,
    unit: str,
    hexes: Sequence[str],
    dice: Dice,
    events: list[Event],
) -> GameState:
    """What a carried-out move sets off [DTP 11.3 rules 5, 7; 11.31 rule 6; victory]."""
    state = _watch_entries(game, state, unit, hexes)
    state = _naval_infantry_11_3_5(game, state, unit, hexes[-1], events)
    state = _recapture_11_31_6(game, state, unit, hexes[-1], dice, events)
    return _dock_11_3_7(game, state, unit, hexes[-1], events)


def _recapture_11_31_6(
    game: Game, state: GameState, unit: str, hex_id: str, dice: Dice, events: list[Event]
) -> GameState:
    """A NATO move that leaves a ``recaptured_by`` unit (the Saipan, afloat even at D2) in the
    occupied base takes it back at once: the Soviet air there goes through 8.51 (returning at
    Murmansk), the base is left at D2 (a destroyed one stays D3) [DTP 11.31 rules 6, 7]."""
    held = occupied_base(game, state, hex_id)
    if held is None or state.units[unit].side != game.flags.nato_side:
        return state
    here = state.stacks.get(hex_id, ())
    by = sorted(u for u in here if u in held.recaptured_by)
    if not by:
        return state
    occ = occupied(state)
    occ.pop(held.name, None)
    damage = dict(facts_of(state).base_damage)
    damage[hex_id] = max(int(damage.get(hex_id, 0)), RECAPTURE_DAMAGE)
    taken = sorted(set(facts_of(state).recaptured) | {held.name})
    state = DtpFacts.put(state, occupied=occ, base_damage=damage, recaptured=taken)
    events.append(
        Event(
            "recapture",
            "DTP 11.31 rule 6",
            f"{by[0]} lands its MEU: {held.name} is NATO's again, at D{damage[hex_id]}",
            {"place": held.name, "hex": hex_id},
        )
    )
    recycle = dict(facts_of(state).recycle)
    for u in sorted(here):
        st = state.units[u]
        if st.side == game.flags.nato_side or game.category(u) != "air":
            continue
        roll = dice.roll(6, f"recycle {u}", "DTP 11.31 rule 7") + dice.roll(
            6, f"recycle {u}", "DTP 11.31 rule 7"
        )
        rating = air.rating_9_23(game.module, game.unit(u).nationality, game.unit(u).type)
        r = air.recycle_8_51(state.turn, roll, rating)
        recycle[u] = r.return_turn
        state = state.with_unit(UnitState(u, st.side, None, "recycle", frozenset()))
        events.append(
            Event(
                "recycle",
                "DTP 11.31 rule 7",
                f"{u} caught at {held.name}: 2d6 {roll} - readiness {rating}: back on turn "
                f"{r.return_turn} [DTP 8.51]",
                {"unit": u, "roll": roll},
            )
        )
    return DtpFacts.put(state, recycle=recycle)


def _naval_infantry_11_3_5(
    game: Game, state: GameState, unit: str, hex_id: str, events: list[Event]
) -> GameState:
    side = state.units[unit].side
    place = place_at(game, hex_id, ds.NAVAL_INFANTRY_HEXES)
    if place is None or side != game.flags.soviet_side or game.category(unit) != "surface":
        return state
    if place in occupied(state):
        return state
    stack = [u for u in state.stacks.get(hex_id, ()) if state.units[u].side == side]
    surface = sum(1 for u in stack if game.category(u) == "surface")
    if not ds.naval_infantry_11_3_5(place, surface, defences_destroyed_11_3_5(game, state, hex_id)):
        return state
    occ = occupied(state)
    occ[place] = state.turn
    ever = sorted(set(facts_of(state).ever_occupied) | {place})
    state = DtpFacts.put(state, occupied=occ, ever_occupied=ever)
    events.append(
        Event(
            "occupy",
            "DTP 11.3 rule 5",
            f"{surface} Soviet surface units in {hex_id} land naval infantry: {place} is occupied",
            {"place": place, "hex": hex_id},
        )
    )
    if occupied_base(game, state, hex_id) is None:
        return state
    for u in sorted(state.stacks.get(hex_id, ())):
        if state.units[u].side != side and game.category(u) == "air":
            state = eliminate(
                game, state, u, "DTP 11.3 rule 5", f"trapped at {place} by the landing", events
            )
    return state


def _dock_11_3_7(
    game: Game, state: GameState, unit: str, hex_id: str, events: list[Event]
) -> GameState:
    if ds.CONVOY_FLAG not in game.unit(unit).flags or facts_of(state).docked:
        return state
    port = place_at(game, hex_id, PORTS_11_3_7)
    if port is None or not ds.convoy_may_dock_11_3_7(port, TROMSO in occupied(state)):
        return state
    events.append(
        Event(
            "dock",
            "DTP 11.3 rule 7",
            f"{unit} docks at {port} ({hex_id}): it moves no more and may still be attacked",
            {"unit": unit, "port": port, "hex": hex_id},
        )
    )
    return DtpFacts.put(state, docked={"unit": unit, "port": port, "turn": state.turn})


def docked_problem_11_3_7(state: GameState, unit: str) -> Violation | None:
    """A docked convoy has done its one job and stays in port [DTP 11.3 rule 7]."""
    d = facts_of(state).docked or {}
    if d.get("unit") != unit:
        return None
    return Violation(
        "DTP 11.3 rule 7",
        f"{unit} docked at {d.get('port')} on Game-Turn {d.get('turn')} and moves no more",
        code="docked",
        word=unit,
        hint="it stays in port, where it may still be attacked",
    )


def port_problem_11_3_7(game: Game, state: GameState, unit: str, hex_id: str) -> Violation | None:
    """The convoy may end its move in Trondheim only when it may dock there, i.e. when Tromso
    is occupied [DTP 11.3 rule 7]; elsewhere its moves are free."""
    if ds.CONVOY_FLAG not in game.unit(unit).flags:
        return None
    if place_at(game, hex_id, PORTS_11_3_7) != "Trondheim":
        return None
    if ds.convoy_may_dock_11_3_7("Trondheim", TROMSO in occupied(state)):
        return None
    return Violation(
        "DTP 11.3 rule 7",
        f"{unit} may divert to Trondheim only if naval infantry occupy Tromso",
        code="convoy-not-diverted",
        word=hex_id,
        hint="make for Tromso",
    )


def may_relocate_11_3_5(game: Game, state: GameState, unit: str, to: str) -> bool:
    """Is ``base UNIT HEX`` the Be-12's relocation to an occupied Keflavik: the unit at an
    off-map base (Murmansk), the hex an occupied base whose rule lists its type under
    ``relocates`` [DTP 11.3 rule 5]?"""
    held = occupied_base(game, state, to)
    st = state.units.get(unit)
    return (
        held is not None
        and st is not None
        and special_bases.off_map_base(game.module, st.box) is not None
        and game.unit(unit).type in held.relocates
    )


def relocate_problem_11_3_5(state: GameState, unit: str) -> Violation | None:
    """Only one such unit may relocate ("a (1) Beriev Be 12 unit") [DTP 11.3 rule 5]."""
    done = list(facts_of(state).relocated)
    if not done:
        return None
    return Violation(
        "DTP 11.3 rule 5",
        f"{done[0]} has already relocated to the occupied base; only one unit may",
        code="relocated",
        word=unit,
    )


def relocate_11_3_5(
    game: Game, state: GameState, unit: str, to: str, events: list[Event]
) -> GameState:
    """The Be-12 is picked up and put on the occupied base, range not counted; it rolls
    readiness in phase 6 like any other [DTP 11.3 rule 5]."""
    st = state.units[unit]
    state = state.with_unit(UnitState(unit, st.side, None, None, st.status))
    state = move_piece(game, state, unit, to)
    events.append(
        Event(
            "relocate",
            "DTP 11.3 rule 5",
            f"{unit} relocates from {st.box} to {to} (range not counted)",
            {"unit": unit, "hex": to},
        )
    )
    return DtpFacts.put(state, relocated=[unit])


def reinforce_11_31_6(
    game: Game, state: GameState, hex_id: str, before: int, after: int, events: list[Event]
) -> GameState:
    """A recaptured base repaired from D2 to D1: its ``reinforced_by`` units (a US P3 and F4)
    arrive next turn, based by their owner like returning units; the dead-pile counters keep
    counting for the Soviet player [DTP 11.31 rule 6] (docs/interpretations.md DTP-DS-10)."""
    rule = special_bases.rule_at(game.module, hex_id)
    taken = list(facts_of(state).recaptured)
    repaired_to_d1 = (before, after) == (RECAPTURE_DAMAGE, RECAPTURE_DAMAGE - 1)
    if rule is None or rule.name not in taken or not rule.reinforced_by or not repaired_to_d1:
        return state
    recycle = dict(facts_of(state).recycle)
    for u in rule.reinforced_by:
        st = state.units.get(u)
        if st is None or st.location is not None:
            continue
        recycle[u] = state.turn + 1
        state = state.with_unit(UnitState(u, st.side, None, "recycle", frozenset()))
    taken.remove(rule.name)
    events.append(
        Event(
            "reinforce",
            "DTP 11.31 rule 6",
            f"{rule.name} is back at D1: {', '.join(rule.reinforced_by)} arrive on Game-Turn "
            f"{state.turn + 1}",
            {"hex": hex_id},
        )
    )
    return DtpFacts.put(state, recycle=recycle, recaptured=taken)


# ---- the victory schedule's watched hexes ---------------------------------------------------
def _matches(game: Game, unit: str, b: VictoryBonus) -> bool:
    u = game.unit(unit)
    nat, typ = b.params.get("nationality"), b.params.get("type")
    return (nat is None or u.nationality == nat) and (typ is None or u.type == typ)


def _watched(state: GameState) -> dict[str, dict[str, Any]]:
    return {k: dict(v) for k, v in facts_of(state).watched.items()}


def _watch_entries(game: Game, state: GameState, unit: str, hexes: Sequence[str]) -> GameState:
    """A unit a ``no_unit_entered`` or ``unit_held`` bonus names entering its hex."""
    w = _watched(state)
    changed = False
    for b in game.scenario.victory_bonuses:
        h = str(b.params.get("hex", ""))
        if not _matches(game, unit, b) or h not in hexes[1:]:
            continue
        if b.condition == "no_unit_entered" and "entered" not in w.get(b.id, {}):
            w[b.id] = {"entered": state.turn, "unit": unit}
            changed = True
        if b.condition == "unit_held" and hexes[-1] == h and "held" not in w.get(b.id, {}):
            w[b.id] = {"unit": unit, "since": state.turn}
            changed = True
    return DtpFacts.put(state, watched=w) if changed else state


def on_phase_11_3(game: Game, state: GameState, phase: str, events: list[Event]) -> GameState:
    """At the combat phase: a watched unit whose air flew anything but CAP over it loses its
    claim; as the next Game-Turn's ship movement begins, one still in its hex earns it
    [DTP 11.3 victory] (docs/interpretations.md DTP-DS-5)."""
    w = _watched(state)
    if not w:
        return state
    changed = False
    for b in game.scenario.victory_bonuses:
        rec = w.get(b.id)
        if b.condition != "unit_held" or not rec or "held" in rec or "unit" not in rec:
            continue
        u, h = str(rec["unit"]), str(b.params.get("hex", ""))
        here = state.units[u].location if u in state.units else None
        if phase == "combat" and not _cap_only(game, state, u, h):
            w.pop(b.id)
            changed = True
        elif phase == "ship_movement_a" and state.turn > int(rec["since"]):
            if here == h:
                rec["held"] = state.turn
                events.append(
                    Event(
                        "bonus",
                        b.rule or "DTP 11.3",
                        f"{u} stayed in {h} until this movement phase, its air on CAP only",
                        {"bonus": b.id, "unit": u},
                    )
                )
                w[b.id] = rec
            else:
                w.pop(b.id)
            changed = True
    return DtpFacts.put(state, watched=w) if changed else state


def _cap_only(game: Game, state: GameState, carrier: str, hex_id: str) -> bool:
    """The carrier is still in ``hex_id`` and each of its air units is aboard or over it."""
    if state.units[carrier].location != hex_id:
        return False
    assigned = facts_of(state).assigned or {}
    for u, cv in assigned.items():
        if cv != carrier or u not in state.units:
            continue
        st = state.units[u]
        if st.location not in (None, hex_id) or (
            st.location is None and st.box not in (holding_box(carrier), "recycle", "eliminated")
        ):
            return False
    return True


def start_11_3(game: Game, state: GameState) -> GameState:
    """A new game: units set up at an off-map base go to its box [DTP 11.3 rule 2]; units set
    up ``eliminated`` start in the dead pile and count as lost; a place a bonus says the
    Soviets hold from the start is occupied [DTP 11.31 rule 1]."""
    names = special_bases.off_map_names(game.module)
    losses = list(facts_of(state).losses or ())
    for f in game.scenario.fixed:
        u = state.units[f.unit]
        if f.status in names:
            state = state.with_unit(UnitState(u.id, u.side, None, f.status, u.status))
        elif f.status == "eliminated":  # in the dead pile from the start [DTP 11.31 rule 1]
            state = state.with_unit(UnitState(u.id, u.side, None, "eliminated", frozenset()))
            losses.append({"unit": u.id, "side": u.side, "turn": 0, "rule": f.rule, "scores": True})
    if losses:
        state = DtpFacts.put(state, losses=losses)
    held = {
        str(b.params["place"])
        for b in game.scenario.victory_bonuses
        if b.params.get("held_at_start") is True and "place" in b.params
    }
    if held:
        state = DtpFacts.put(state, occupied=dict.fromkeys(sorted(held), 0))
    return state
