"""[DTP 8.21, 8.22] a sunk ship or an aborted air unit keeps its place until its answer.

Results take effect at once, with one exception: the player whose impulse is next may attack
with a unit damaged in the immediately preceding enemy impulse; "that unit attacks first, and
its damage is applied afterwards" [DTP 8.21], "so a sunk, D2 or aborted unit still gets its
attack in, but only if its owner uses the very next impulse for it" [DTP 8.22]. A D2 ship
stays on the map anyway; a sunk ship and an aborted air unit stay where they are (the damage
level and the return turn already recorded) until their owner's next impulse is over, then
the sunk ship is removed (with the carrier air aboard [DTP 9.27]) and the aborted unit goes
to the turn track [DTP 8.51]. When their owner has no such impulse (he has passed) they go at
once. A first strike [DTP 8.231] and a bounce [DTP 8.232] allow no answer: their results are
never held.

The held removals are ``state.data["answer_8_22"]``: ``{"side": owner, "sunk": {unit:
[rule, level]}, "aborted": {unit: turn}}``; the answer window is open while the impulse
record's ``answer_back`` names that side and those units.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Event, GameState, UnitState
from referee.rules.sixth_fleet_1975.air import box_contents
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import eliminate
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of


def hold_8_22(
    state: GameState,
    owner: str,
    sunk: Mapping[str, tuple[str, int]],
    aborted: Mapping[str, int],
    events: list[Event],
) -> GameState:
    """Hold the removal of ``sunk`` ships (unit -> (rule, level)) and ``aborted`` air units
    (unit -> return turn) of ``owner`` until his next impulse is over [DTP 8.21, 8.22]."""
    if not sunk and not aborted:
        return state
    for u, (_, level) in sorted(sunk.items()):
        events.append(
            Event(
                "answer-held",
                "DTP 8.22",
                f"{u} is sunk at D{level}: it is removed after {owner}'s next impulse, in "
                "which it may still answer back [DTP 8.21]",
                {"unit": u, "side": owner, "sunk": True},
            )
        )
    for u in sorted(aborted):
        events.append(
            Event(
                "answer-held",
                "DTP 8.22",
                f"{u} is aborted: it goes to the turn track after {owner}'s next impulse, in "
                "which it may still answer back [DTP 8.21]",
                {"unit": u, "side": owner, "aborted": True},
            )
        )
    held: dict[str, Any] = {
        "side": owner,
        "sunk": {u: [r, lv] for u, (r, lv) in sorted(sunk.items())},
        "aborted": dict(sorted(aborted.items())),
    }
    return DtpFacts.put(state, answer_8_22=held)


def held_units(state: GameState) -> list[str]:
    """The units whose removal waits for their answer [DTP 8.22], sorted."""
    held = facts_of(state).answer_8_22 or {}
    return sorted({*held.get("sunk", {}), *held.get("aborted", {})})


def window_open_8_22(state: GameState) -> bool:
    """Is the held units' answer still to come: the next impulse is their owner's, and the
    answer-back chance names them [DTP 8.22]? A strike waiting for bounces keeps it open."""
    held = facts_of(state).answer_8_22 or {}
    if not held:
        return False
    if facts_of(state).strike:
        return True
    ab = (facts_of(state).impulses or {}).get("answer_back") or {}
    return ab.get("side") == held.get("side") and bool(
        set(ab.get("units", ())) & set(held_units(state))
    )


def settle_8_22(game: Game, state: GameState, events: list[Event]) -> GameState:
    """The answer window is over: the held sunk ships are removed [DTP 8.55] with the carrier
    air aboard [DTP 9.27], the held aborted air units go to the turn track [DTP 8.51]."""
    held = facts_of(state).answer_8_22 or {}
    if not held or window_open_8_22(state):
        return state
    for t, (rule, level) in sorted(held.get("sunk", {}).items()):
        if t not in state.units or state.units[t].location is None:
            continue
        for a in box_contents(state, t):  # carrier air aboard sinks with it [DTP 9.27]
            state = eliminate(game, state, a, "DTP 9.27", f"aboard {t}, sunk", events)
        state = eliminate(game, state, t, str(rule), f"sunk at D{level}", events)
    recycle = dict(facts_of(state).recycle)
    for t, turn in sorted(held.get("aborted", {}).items()):
        u = state.units.get(t)
        if u is None or u.location is None:
            continue
        state = state.with_unit(UnitState(u.id, u.side, None, "recycle", frozenset()))
        recycle[t] = int(turn)
        events.append(
            Event(
                "aborted",
                "DTP 8.22",
                f"{t} goes to the turn track, due on Game-Turn {turn} [DTP 8.51]",
                {"unit": t, "turn": int(turn)},
            )
        )
    return DtpFacts.put(state, recycle=recycle, answer_8_22=None)
