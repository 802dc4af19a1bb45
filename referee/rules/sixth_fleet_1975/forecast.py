"""What legal orders will bring about before any die is rolled: the warnings of ``validate``.

A player whose orders pass ``validate`` should not learn at adjudication that his air units
are lost for want of a base [9.22] or that a stack retreats under [8.24]. This module carries
the orders out on a copy of the position, as ``resolve`` would, with dice that refuse to
roll: everything that happens before the first die (or before the phase ends) is certain,
and is reported as a warning citing the rule that causes it -- units eliminated [9.22][7.0]
[8.72], grounded [9.15], forced to retreat [8.24], decisions left to a player, and the
victory points that change hands [13.0]. Consequences that need a die (an attack's result)
are the player's gamble and are not forecast; the obligations of hexes that declared no
attack are forecast by the Combat Phase's own check (warnings of
:func:`~referee.rules.sixth_fleet_1975.mandatory.check_obligations_8_21`).

Pure: the position given is never changed, nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from referee.engine.core import Event, GameState, Violation
from referee.engine.driver import Handler, Task, drive
from referee.engine.orders import Order, OrdersDoc
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.orders_file import apply_standing
from referee.rules.sixth_fleet_1975.victory import score_13_0, unit_vp_13_0


class DieNeeded(Exception):
    """The orders reached a die roll: what follows is not certain."""


class _NoRoll:
    """Dice that stop the forecast at the first roll."""

    def __init__(self) -> None:
        self.rolls: list[object] = []

    def roll(
        self, sides: int, purpose: str, rule: str = "", hidden_from: tuple[str, ...] = ()
    ) -> int:
        raise DieNeeded(purpose)


# event kind -> how the forecast words it
_CERTAIN = {
    "eliminate": "will happen",
    "ground": "will happen",
    "must-retreat": "will happen",
    "retreat": "will happen",
    "advance": "will happen",
}


def forecast(
    game: Game,
    state: GameState,
    doc: OrdersDoc,
    carry_out: Callable[[Game, GameState, str, tuple[Order, ...], list[Event]], GameState] | None,
    handlers: Mapping[str, Handler],
    auto: Callable[[GameState], list[dict[str, object]] | None],
) -> list[Violation]:
    """The certain consequences of ``doc`` (orders that passed ``validate``) as warnings,
    each placed at the order that names the unit concerned, else at the section header."""
    side = str(doc.side)
    events: list[Event] = []
    last = [state]

    def recording(fn: Handler) -> Handler:
        def run(st: GameState, task: Task, dice: object, ev: list[Event]) -> GameState:
            out = fn(st, task, dice, ev)  # type: ignore[arg-type]
            last[0] = out
            return out

        return run

    stopped_at_die = False
    try:
        st = apply_standing(state, side, doc)
        if carry_out is not None:
            st = carry_out(game, st, side, doc.orders, events)
        last[0] = st
        wrapped = {k: recording(fn) for k, fn in handlers.items()}
        st = drive(st, wrapped, auto, _NoRoll(), events)  # type: ignore[arg-type]
    except DieNeeded:
        stopped_at_die = True
        st = last[0]
    out: list[Violation] = []
    for e in events:
        if e.kind == "phase" and e.data.get("phase") != state.phase:
            break  # the next step began: its own orders decide what happens there
        if e.kind not in _CERTAIN:
            continue
        unit = str(e.data.get("unit")) if e.data.get("unit") else None
        text = e.text
        if e.kind == "eliminate" and unit and e.data.get("scores"):
            vp = unit_vp_13_0(game, unit)
            text += f": {vp} VP for {game.enemy_of(state.units[unit].side)} [13.0]"
        out.append(
            Violation(
                e.rule, f"{text} ({_when(stopped_at_die)})", code=e.kind, word=unit, unit=unit
            )
        )
    if not stopped_at_die and st.pending:
        p = st.pending[0]
        out.append(
            Violation(p.rule, f"{p.side} will have to decide: {p.prompt}", code="decision-pending")
        )
    before, after = score_13_0(game, state), score_13_0(game, st)
    if before.get("net") != after.get("net"):
        out.append(
            Violation(
                "13.0",
                f"victory points at stake: the net score goes from {before.get('net')} "
                f"to {after.get('net')} before any die is rolled",
                code="vp-at-stake",
            )
        )
    return [_placed(p._replace(severity="warning"), doc) for p in out]


def _when(stopped_at_die: bool) -> str:
    return "certain: before any die is rolled" if stopped_at_die else "certain: no die decides it"


def _placed(p: Violation, doc: OrdersDoc) -> Violation:
    """At the order naming the unit, else at the header of the section of the orders."""
    if p.unit:
        for o in doc.orders:
            if p.unit in o.units or p.unit in o.targets:
                return p.at(o, p.unit)
    for s in doc.sections:
        if s != "standing" and s in doc.header_pos:
            return p._replace(where=doc.header_pos[s])
    return p
