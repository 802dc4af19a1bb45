"""What the VASSAL position shows of the naval rules beyond units: each port's capacity left.

Named by the ruleset's schema (``MarkerDecl.compute``) so the VASSAL writer, which imports no
ruleset, can ask for a number the state does not store.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.steps import WithheldDice
from referee.rules.naval_module import ports as P
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.facts import facts_of
from referee.rules.naval_module.movement import capacity_now
from referee.rules.naval_module.work import Work
from referee.source.model import Module


def port_capacity_left(module: Module, state: GameState) -> dict[str, int]:
    """Port -> the transport points it has left this player turn for the side that controls
    it: its capacity now [26.25]-[26.27] (unloading; Evacuation doubles loading only
    [28.23a]) less what loading and unloading used [26.25]. A port no side controls is left
    out."""
    game = Game.of(module)
    facts = facts_of(state)
    control, used = facts.control, facts.port_used
    out: dict[str, int] = {}
    for port in sorted(game.ports):
        side = control.get(port)
        if not side:
            continue
        w = Work(game, state, str(side), WithheldDice())
        cap = capacity_now(w, port, str(side), loading=False)
        out[port] = P.remaining_26_25(cap.value, int(used.get(port, 0)))
    return out
