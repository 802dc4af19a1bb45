"""The steps the game waits for, as data: the engine's one phase record (who acts, its
sections), each with its check and its carrying-out side by side."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.orders import OrdersDoc
from referee.engine.sequence import SequenceOfPlay
from referee.rules.carrier_battlegroup import outfit, setup, turn
from referee.rules.carrier_battlegroup.named_units import standing_units_2_2
from referee.rules.carrier_battlegroup.sequence import SEQUENCE
from referee.source.model import Module

Check = Callable[[Module, GameState, OrdersDoc], list[Violation]]
CarryOut = Callable[[Module, GameState, OrdersDoc, Dice], tuple[GameState, list[Event]]]


@dataclass(frozen=True, slots=True)
class PhaseSteps:
    """This ruleset's functions for one step (the ``steps`` of its engine
    :class:`~referee.engine.sequence.Phase`): the check ``validate`` runs and the carry-out
    of orders that passed it."""

    check: Check
    carry_out: CarryOut


def check_setup(module: Module, state: GameState, doc: OrdersDoc) -> list[Violation]:
    """The set-up file says ``begin`` once [4.0]: the referee then rolls set-up steps 1-7
    itself, so a file without it (or saying it twice) is not what the player meant; the
    standing orders it may carry name USN units [2.2]."""
    out = list(standing_units_2_2(module, doc.standing))
    begins = [o for o in doc.orders if o.verb == "begin"]
    if not begins:
        out.append(
            Violation(
                "4.0",
                "the set-up file does not say `begin`",
                hint="write `begin` under [setup]: the referee rolls set-up steps 1-7 [4.0]",
            )
        )
    for o in begins[1:]:
        out.append(Violation("4.0", "`begin` is said once", hint="delete this line").at(o))
    return out


STEPS: dict[str, PhaseSteps] = {
    "setup": PhaseSteps(check_setup, lambda m, s, d, dice: setup.setup_4_0(m, s, dice)),
    "outfit": PhaseSteps(
        outfit.check_outfit, lambda m, s, d, dice: outfit.carry_out_outfit(m, s, d)
    ),
    "turn": PhaseSteps(turn.check_turn, turn.carry_out_turn),
}
"""The steps the USN player writes orders for; the Soviet side is the referee's own
procedure (``referee_sides``), run inside the turn's carry-out [5.0]."""

PHASES: SequenceOfPlay[PhaseSteps] = SequenceOfPlay(
    tuple(replace(p, steps=STEPS.get(p.id)) for p in SEQUENCE)
)
"""The sequence of play [4.0], [5.0] (:data:`sequence.SEQUENCE`), the steps the referee
waits for with their check and carry-out; [5.0]'s phases are carried out within ``turn``."""
