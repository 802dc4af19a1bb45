"""The steps the game waits for, as data: each with its sections, its check and its
carrying-out side by side (the shape of the re-cut Sixth Fleet ruleset)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.orders import OrdersDoc
from referee.rules.carrier_battlegroup import outfit, setup, turn
from referee.source.model import Module

Check = Callable[[Module, GameState, OrdersDoc], list[Violation]]
CarryOut = Callable[[Module, GameState, OrdersDoc, Dice], tuple[GameState, list[Event]]]


@dataclass(frozen=True, slots=True)
class Phase:
    id: str
    name: str
    section: tuple[str, ...]
    rule: str
    check: Check
    carry_out: CarryOut


def _no_check(module: Module, state: GameState, doc: OrdersDoc) -> list[Violation]:
    return []


PHASES: dict[str, Phase] = {
    p.id: p
    for p in (
        Phase(
            "setup",
            "set-up steps 1-7",
            ("setup",),
            "4.0",
            _no_check,
            lambda m, s, d, dice: setup.setup_4_0(m, s, dice),
        ),
        Phase(
            "outfit",
            "escorts, purchases and placement",
            ("outfit",),
            "4.0",
            outfit.check_outfit,
            lambda m, s, d, dice: outfit.carry_out_outfit(m, s, d),
        ),
        Phase(
            "turn",
            "the turn's orders",
            ("intelligence", "logistics", "movement", "launch", "objective"),
            "5.0",
            turn.check_turn,
            turn.carry_out_turn,
        ),
    )
}
