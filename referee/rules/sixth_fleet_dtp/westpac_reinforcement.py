"""[DTP 11.5041, 11.506-11.5065] Westpac's reinforcement phase: the track's units placed, and
those the rules delay.

"At the beginning of each AM turn from turns 4 to 43, inclusive, a reinforcement phase is added
to the turn sequence ... before any movement" [DTP 11.5041]; "The East Block player places
reinforcements first" [DTP 11.506]. The track is the scenario's ``[[reinforcement]]`` entries
(``module_src/dtp_westpac``): a unit with ``after_turn = N`` is on the track for Game-Turn N+1.
Each player places his with ``place UNIT HEX`` in a ``[reinforcement]`` section:

* ships and subs at their entry hex (``entry = "hex"``), even over the stacking limit or where
  the base is destroyed (the excess still over the limit at the end of the owner's next ship
  and sub movement phase is eliminated, ``westpac_overstack``); next to it if enemy ships or
  subs hold it; a Soviet unit due at
  Vladivostok or Petropavlovsk while SEATO ships or subs hold it is delayed until the port is
  clear, then placed at the beginning of the East Block ship and sub movement phase
  [DTP 11.5063];
* air units on a functioning base (no damage or D1) of their side within stacking limits: the
  entry hex, else the nearest such base [DTP 11.5064]; a coded entry (several hexes) on any of
  its bases, Gunsan 2444 before Osan 2543 or Daegu 2644 [DTP 11.5065]; with no room anywhere it
  is delayed, and placed immediately before its player's air movement phase on a later turn
  when a base has room [DTP 11.5061, 11.5064];
* a unit that can be placed must be: "Reinforcements may not be voluntarily delayed and held
  off map" [DTP 11.5062]; a player short of room chooses which units wait by placing the others
  [DTP 11.5064].

The phase is played only in a scenario whose track has an ``entry = "hex"`` reinforcement, the
DTP track's entry kind (:func:`has_track_11_506`); the Med's Campaign, Denmark Strait and Iceland
games are unaffected. A side with nothing it can place files nothing: the units that cannot be
placed are delayed by the referee (an event says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.core import Event, GameState, Violation
from referee.engine.orders import Order
from referee.engine.steps import Carry
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_1975.stacking import room_for_7_22
from referee.rules.sixth_fleet_dtp import westpac_bases, westpac_overstack, westpac_variable_air
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.rebasing import usable_base
from referee.rules.sixth_fleet_dtp.sequence import day_part_4_0
from referee.source.model import Reinforcement

RULE_PHASE, RULE_TRACK = "DTP 11.5041", "DTP 11.506"
RULE_LATE_AIR, RULE_NO_DELAY = "DTP 11.5061", "DTP 11.5062"
RULE_SHIPS, RULE_AIR, RULE_CODE = "DTP 11.5063", "DTP 11.5064", "DTP 11.5065"
FIRST_TURN, LAST_TURN = 4, 43  # [DTP 11.5041]
SOVIET = "So"  # the USSR in module_src/dtp_westpac
HELD_PORTS = {"3033": "Vladivostok", "5916": "Petropavlovsk"}  # [DTP 11.5063]
GUNSAN, GUNSAN_ALTERNATES = "2444", ("2543", "2644")  # Osan, Daegu [DTP 11.5065]
PHASE_A, PHASE_B = "reinforcement_a", "reinforcement_b"
PHASE_IDS = (PHASE_A, PHASE_B)
ENTRY_HEX = "hex"
VARIABLE = "variable"  # a variable air unit's entry: any base its nationality may take [11.507]
BEFORE = ("ship_movement_a", "air_movement_a", "air_movement_b")  # the phases placed before


def has_track_11_506(game: Game) -> bool:
    """The scenario has a DTP reinforcement track (an ``entry = "hex"`` reinforcement)."""
    return any(r.entry == ENTRY_HEX for r in game.scenario.reinforcements)


def phase_turn_11_5041(turn: int) -> bool:
    """An AM turn from 4 to 43 inclusive [DTP 11.5041]."""
    return FIRST_TURN <= turn <= LAST_TURN and day_part_4_0(turn) == "AM"


def _track(game: Game, state: GameState) -> dict[str, Reinforcement]:
    """The track's units, and the variable air units that have left their box, each a
    reinforcement of its arrival turn with no entry hex (``entry = "variable"``) [DTP 11.507]."""
    out = {u: r for r in game.scenario.reinforcements for u in r.units}
    for u, turn in westpac_variable_air.arrivals_11_507(state).items():
        out[u] = Reinforcement(game.unit(u).side, (u,), turn - 1, VARIABLE)
    return out


def _delayed(state: GameState) -> dict[str, int]:
    return {str(k): int(v) for k, v in (facts_of(state).delayed or {}).items()}


def due_11_506(game: Game, state: GameState, side: str, before: str) -> list[str]:
    """``side``'s units to place before phase ``before``, sorted: on a reinforcement turn
    before the first ship movement, the track's units of this turn [DTP 11.5041, 11.506] and
    the delayed ships whose port is clear [DTP 11.5063]; before the side's own air movement,
    its air delayed on an earlier turn that now has room [DTP 11.5061, 11.5064]."""
    track, delayed = _track(game, state), _delayed(state)
    out: list[str] = []
    for u, r in track.items():
        st = state.units.get(u)
        if st is None or st.side != side or st.box != "reinforcements":
            continue
        air = game.is_air(u)
        if u not in delayed:
            due = before == "ship_movement_a" and r.after_turn + 1 == state.turn
            due = due and (phase_turn_11_5041(state.turn) or r.entry == VARIABLE)
        elif air:
            due = before == f"air_movement_{_letter(game, side)}" and delayed[u] < state.turn
            due = due and bool(entry_hexes_11_506(game, state, u))
        else:
            due = before == "ship_movement_a" and bool(entry_hexes_11_506(game, state, u))
        if due:
            out.append(u)
    return sorted(out)


def _enemy_ships(game: Game, state: GameState, hex_id: str, side: str) -> bool:
    return any(
        state.units[e].side != side and not game.is_air(e) for e in state.stacks.get(hex_id, ())
    )


def _ship_hexes(game: Game, state: GameState, unit: str, r: Reinforcement) -> list[str]:
    """[DTP 11.5063]: the entry hex, even over the limit; next to it if enemy ships or subs
    hold it; none (delayed) for a Soviet unit due at an enemy-held Vladivostok or
    Petropavlovsk."""
    side = state.units[unit].side
    h = r.hexes[0]
    if not _enemy_ships(game, state, h, side):
        return [h]
    if h in HELD_PORTS and game.unit(unit).nationality == SOVIET:
        return []
    return sorted(
        n
        for n in game.board.neighbours(h)
        if entry_cost_5_12(game, state, unit, n) is not None
        and not _enemy_ships(game, state, n, side)
    )


def _base_ok(game: Game, state: GameState, unit: str, hex_id: str, named: bool = False) -> bool:
    """A functioning base (no damage or D1) with room [DTP 11.5064], of the unit's side and
    one its nationality may take reinforcements at (``named``: the track names it)
    [DTP 11.5082]."""
    side = state.units[unit].side
    return (
        usable_base(game, state, unit, hex_id)
        and westpac_bases.may_place_11_5082(game, unit, hex_id, named)
        and room_for_7_22(game, state, hex_id, side, [unit])
    )


def _air_hexes(game: Game, state: GameState, unit: str, r: Reinforcement) -> list[str]:
    """[DTP 11.5064, 11.5065]: the entry base, else the nearest with room; a code's bases,
    Gunsan before Osan or Daegu; none: delayed."""
    if len(r.hexes) > 1:  # a code [DTP 11.5065]
        hexes = list(r.hexes)
        if GUNSAN in hexes and not _base_ok(game, state, unit, GUNSAN, True):
            hexes += [h for h in GUNSAN_ALTERNATES if h not in hexes]
        return sorted(h for h in hexes if _base_ok(game, state, unit, h, True))
    entry = r.hexes[0] if r.hexes else None
    if entry is not None and _base_ok(game, state, unit, entry, True):
        return [entry]
    bases = [h for h in game.board.airbase_hexes() if _base_ok(game, state, unit, h)]
    if entry is None or not bases:
        return sorted(bases)
    near = min(game.board.distance(entry, h) for h in bases)
    return sorted(h for h in bases if game.board.distance(entry, h) == near)


def entry_hexes_11_506(game: Game, state: GameState, unit: str) -> list[str]:
    """Where ``unit`` may be placed now; empty: it is delayed [DTP 11.5063, 11.5064]."""
    r = _track(game, state)[unit]
    if game.is_air(unit):
        return _air_hexes(game, state, unit, r)
    return _ship_hexes(game, state, unit, r)


def _rule_of(game: Game, state: GameState, unit: str, hex_id: str | None = None) -> str:
    """The case a placement cites: a base the unit's nationality may not use [DTP 11.5082]
    first, then the unit's kind of entry."""
    if not game.is_air(unit):
        return RULE_SHIPS
    r = _track(game, state)[unit]
    named = hex_id in r.hexes
    base = hex_id is not None and game.board.airbase(hex_id) is not None
    if base and not westpac_bases.may_place_11_5082(game, unit, str(hex_id), named):
        return westpac_bases.RULE_BASES
    if r.entry == VARIABLE:
        return westpac_variable_air.RULE
    return RULE_CODE if len(r.hexes) > 1 else RULE_AIR


def _place(game: Game, carry: Carry, o: Order, due: Sequence[str], placed: set[str]) -> None:
    """One ``place UNIT HEX`` order of the phase, checked on the position so far."""
    if o.verb != "place" or not o.hexes:
        carry.refuse(
            Violation(
                RULE_TRACK, f"'{o.verb}' is not a reinforcement placement", code="not-a-placement"
            ),
            o,
        )
        return
    u, h = o.units[0], o.hexes[0]
    if u not in due:
        carry.refuse(
            Violation(
                RULE_TRACK,
                f"{u} is not a reinforcement to place now",
                code="not-due",
                word=u,
                unit=u,
            ),
            o,
        )
        return
    if u in placed:
        carry.refuse(
            Violation(
                RULE_TRACK,
                f"{u} is placed twice: expected one place order a reinforcement, found a second",
                code="placed-twice",
                word=u,
                unit=u,
                hint=f"keep one of the two 'place {u}' lines",
            ),
            o,
        )
        return
    placed.add(u)
    ok = entry_hexes_11_506(game, carry.state, u)
    if h not in ok:
        carry.refuse(
            Violation(
                _rule_of(game, carry.state, u, h),
                f"{u} may not be placed in {h}",
                code="not-an-entry-hex",
                word=h,
                unit=u,
                hint=("legal: " + " ".join(ok)) if ok else "no legal hex: it is delayed",
            ),
            o,
        )
        return
    carry.state = move_piece(game, carry.state, u, h)
    if not game.is_air(u):  # over the limit: the excess goes after the next move [11.5063]
        side = carry.state.units[u].side
        carry.state = westpac_overstack.record_11_5063(game, carry.state, side, h)
    carry.events.append(
        Event(
            "reinforce",
            _rule_of(game, carry.state, u),
            f"{u} arrives in {h}",
            {"unit": u, "hex": h},
        )
    )


def place_11_506(
    game: Game, state: GameState, side: str, orders: Sequence[Order], before: str
) -> Carry:
    """Check and carry out ``side``'s placements [DTP 11.506]; a unit left out that could be
    placed is refused [DTP 11.5062]; those that cannot be placed are delayed [DTP 11.5063,
    11.5064]."""
    carry = Carry(state)
    due = due_11_506(game, state, side, before)
    placed: set[str] = set()
    for o in orders:
        _place(game, carry, o, due, placed)
    delayed = _delayed(carry.state)
    for u in due:
        if u in placed:
            delayed.pop(u, None)
            continue
        ok = entry_hexes_11_506(game, carry.state, u)
        if ok:
            carry.refuse(
                Violation(
                    RULE_NO_DELAY,
                    f"{u} must be placed now: reinforcements may not be voluntarily delayed "
                    f"and held off map",
                    code="held-off-map",
                    word=None,
                    unit=u,
                    hint=f"place {u} {ok[0]}" + (f" (or {' '.join(ok[1:])})" if ok[1:] else ""),
                )
            )
        elif u not in delayed:
            delayed[u] = state.turn
            carry.events.append(
                Event(
                    "delay",
                    _rule_of(game, carry.state, u),
                    f"{u} cannot be placed now and is delayed",
                    {"unit": u},
                )
            )
    if not carry.problems and (delayed or facts_of(state).delayed is not None):
        carry.state = DtpFacts.put(carry.state, delayed=dict(sorted(delayed.items())))
    return carry


def detour_11_506(game: Game, state: GameState, phase: str) -> dict[str, Any] | None:
    """The placements owed before ``phase`` begins: ``{"then": phase, "sides": [...]}``, the
    East Block first [DTP 11.506], or ``None`` (a game without the track, or nothing due)."""
    if phase not in BEFORE:
        return None
    if not has_track_11_506(game):
        return None
    sides = list(game.scenario.setup_order)
    owed = [s for s in sides if due_11_506(game, state, s, phase)]
    return {"then": phase, "sides": owed} if owed else None


def owed_11_506(state: GameState) -> dict[str, Any]:
    """The placements owed in a reinforcement phase (``state.data["reinforce"]``); a position
    without them (a hand-made state file) owes the awaited side's, before the first ship
    movement [DTP 11.5041]."""
    owed = facts_of(state).reinforce
    if isinstance(owed, dict) and owed.get("then") in BEFORE:
        return {"then": owed["then"], "sides": [str(s) for s in owed.get("sides") or ()]}
    return {"then": "ship_movement_a", "sides": [state.active_side] if state.active_side else []}


def _letter(game: Game, side: str) -> str:
    from referee.rules.sixth_fleet_dtp.sequence import players_11_0

    return next(k for k, v in players_11_0(game.module).items() if v == side).lower()


def phase_of(game: Game, side: str) -> str:
    """The reinforcement phase id in which ``side`` files (A's or B's)."""
    return PHASE_A if _letter(game, side) == "a" else PHASE_B


def scripted_lines(game: Game, state: GameState, side: str, before: str) -> list[str]:
    """The scripted player's placements: each due unit on its first legal hex, in order."""
    carry = Carry(state)
    lines: list[str] = []
    for u in due_11_506(game, state, side, before):
        ok = entry_hexes_11_506(game, carry.state, u)
        if ok:
            carry.state = move_piece(game, carry.state, u, ok[0])
            lines.append(f"place {u} {ok[0]}")
    return lines
