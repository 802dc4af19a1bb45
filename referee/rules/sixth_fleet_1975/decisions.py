"""Decisions that belong to a player: take them from his orders or standing orders, or stop.

Order of precedence for a choice among ``options``: an answer to the pending decision; an
order in the file being resolved, when the decider wrote it (the phasing player's own
``retreat UNIT -> HEX`` [8.24]); the decider's standing orders (``retreat UNIT prefer ...``,
``retreat HEX prefer ...``, ``displace UNIT prefer ...``, ``eliminate UNIT ...``); a single
legal option (no choice at all). Anything else becomes a :class:`PendingDecision` -- the
referee never decides silently for a player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.core import GameState, PendingDecision
from referee.engine.driver import push_front
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of


def standing_orders(state: GameState, side: str) -> list[Order]:
    return [Order.from_json(o) for o in (facts_of(state).standing or {}).get(side, ())]


def phase_orders(state: GameState, side: str) -> list[Order]:
    po = facts_of(state).phase_orders or {}
    if po.get("side") != side:
        return []
    return [Order.from_json(o) for o in po.get("orders", ())]


def preferred(
    state: GameState,
    side: str,
    verb: str,
    unit: str,
    hex_id: str | None,
    options: Sequence[str],
) -> tuple[str | None, str]:
    """The first option the decider's written orders pick, and where it came from."""
    for o in phase_orders(state, side):
        if o.verb == verb and o.mode == "to" and unit in o.units and o.hexes[0] in options:
            return o.hexes[0], "order"
    for source, orders in (
        ("order", phase_orders(state, side)),
        ("standing", standing_orders(state, side)),
    ):
        for o in orders:
            if o.verb != verb or o.mode not in ("prefer", "prefer-hex"):
                continue
            if o.mode == "prefer" and unit not in o.units:
                continue
            prefs = o.hexes if o.mode == "prefer" else o.hexes[1:]
            if o.mode == "prefer-hex" and o.hexes[0] != hex_id:
                continue
            for h in prefs:
                if h in options:
                    return h, source
    return None, ""


def elimination_preference(state: GameState, side: str, options: Sequence[str]) -> str | None:
    """The decider's first listed unit among ``options`` (``eliminate`` standing order [7.0])."""
    for o in standing_orders(state, side):
        if o.verb == "eliminate":
            for u in o.units:
                if u in options:
                    return u
    return None


def pend(
    state: GameState,
    task: Mapping[str, Any],
    *,
    side: str,
    kind: str,
    rule: str,
    prompt: str,
    options: Sequence[str],
) -> GameState:
    """Stop here: put ``task`` back at the front of the queue and make the decision pending.
    The answer will be stored in the task as ``choice``."""
    n = int(facts_of(state).next_decision or 1)
    did = f"D{state.turn}-{n}"
    t = dict(task)
    t["decision"] = did
    state = push_front(SixthFleetFacts.put(state, next_decision=n + 1), [t])
    pd = PendingDecision(
        id=did,
        side=side,
        kind=kind,
        rule=rule,
        prompt=prompt,
        options=tuple(options),
        context={"task": str(task.get("t")), "unit": task.get("unit")},
    )
    return state.evolve(pending=(*state.pending, pd))
