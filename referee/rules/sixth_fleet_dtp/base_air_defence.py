"""[DTP 10.41] "bases can attack air units during the combat phase": a provisional reading
behind the rule flag ``bases_attack_air`` (docs/interpretations.md DTP-6).

The kit states no strength for a base's attack on air units, nor when it is made. By default
(the flag off) the referee offers no such attack: nothing in the kit says how strong it is, and
the digest (9.6) recommends leaving it out until a scenario gives a value. With the flag on, a
base answers each air strike on it: after the strike is resolved, a base not destroyed by it
attacks the striking air units still in the air with an **estimated** AA strength of twice its
ECM (the figure the kit itself takes for a base's defence on the Hit Table [DTP 10.44]; a bare
airbase, ECM 0, has none), on the CRT against their DEF total on their best ECM row [8.8,
DTP 4.01]; on a success each striker aborts and recycles [DTP 8.51]. Every event says the
strength is an estimate.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import Dice, Event, GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import air, bases, crt, hits
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of

RULE = "DTP 10.41"


def base_aa_10_41(ecm: int) -> int:
    """A base's estimated AA strength against air units: 2 x its ECM (an estimate, DTP-6)."""
    return hits.base_def_10_44(ecm)


def base_fires_10_41(
    game: Game,
    state: GameState,
    hex_id: str,
    ecm: int,
    level: int,
    strikers: Sequence[str],
    dice: Dice,
    events: list[Event],
) -> GameState:
    """The base in ``hex_id`` (``ecm``, damage ``level`` after the strike) attacks the air
    units that struck it and are still on the map [DTP 10.41, provisional]."""
    left = [u for u in strikers if state.units[u].location is not None]
    aa = base_aa_10_41(ecm)
    if not left or aa <= 0 or level >= bases.DESTROYED:
        return state
    dfn = crt.crt_defense_8_44([game.value(u, "DEF") for u in left], False, False)
    best = max(game.value(u, "ECM") for u in left)
    pre = crt.crt_8_0(game.module, aa, dfn, best, None)
    roll = dice.roll(6, "CRT", "8.8") if pre.chance_in_6 > 0 else None
    res = crt.crt_8_0(game.module, aa, dfn, best, roll)
    outcome = f"rolled {roll}: {'success' if res.success else 'no effect'}" if roll else "no roll"
    events.append(
        Event(
            "attack",
            RULE,
            f"the base in {hex_id} attacks {', '.join(left)} (provisional: not from the "
            f"rulebook, docs/interpretations.md DTP-6): AA {aa} (an estimate: 2 x ECM {ecm}; "
            f"the kit states no strength) against {dfn}, {res.reading.how}; {outcome}",
            {"attack": aa, "defense": dfn, "roll": roll, "estimate": True, "provisional": True},
        )
    )
    if not res.success:
        return state
    recycle = dict(facts_of(state).recycle)
    for u in left:
        d, st = game.unit(u), state.units[u]
        two_d6 = dice.roll(6, f"abort: {u}", "DTP 8.51") + dice.roll(6, f"abort: {u}", "DTP 8.51")
        r = air.recycle_8_51(
            state.turn, two_d6, air.rating_9_23(game.module, d.nationality, d.type)
        )
        recycle[u] = r.return_turn
        state = state.with_unit(UnitState(u, st.side, None, "recycle", frozenset()))
        events.append(
            Event(
                "abort",
                "DTP 8.51",
                f"{u} aborts: 2d6 {two_d6} - readiness {r.rating} = {r.delay} turns; back on "
                f"turn {r.return_turn} [DTP 10.41, provisional]",
                {"unit": u, "return_turn": r.return_turn, "provisional": True},
            )
        )
    return DtpFacts.put(state, recycle=recycle)
