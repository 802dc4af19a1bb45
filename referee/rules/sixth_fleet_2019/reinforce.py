"""Reinforcements: the provisional procedure (10.0 Reinforcements & Withdrawals is not in the
seed; only its title is).

What the seed states: reinforcement is one of the activations an action performs [6.0]; it
is a G1 (Personnel) action [6.4]; one force per action, of one nationality [6.6] (except
under Naples joint operations [6.2]); a side uses only the bases of the zones it controls
[3.2.1]; stacking limits hold at all times [7.1.2], [7.1.3].

Provisional (docs/interpretations.md, 10.0): a scenario's ``[[reinforcement]]`` groups (which
units, ``after_turn``, the entry zones: module data, marked as estimates) wait off the map in
the ``reinforcements`` box. From the Game-Turn after ``after_turn`` on, ``reinforce UNITS ->
ZONE`` is one action: units of the acting side that are due, of one nationality [6.6], at
most ``reinforce_units_per_action`` of them (``tables/parameters.csv``, estimate), to one of
their group's entry zones that has a base the side may use, within its stacking limits (the
checks refit makes: :func:`refit.base_problems`). Units not brought in simply keep waiting;
withdrawals are not modelled (nothing in the seed says which units withdraw).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.core import GameState, Violation
from referee.engine.orders import Order
from referee.engine.vocabulary import match_name
from referee.rules.sixth_fleet_2019.game import NEUTRAL, PROVISIONAL, Game
from referee.rules.sixth_fleet_2019.refit import base_problems, force_to_zone, place_at_base
from referee.source.model import Reinforcement

WAITING = "reinforcements"
"""The box a reinforcement waits in until it is brought in (the core's box name)."""


@dataclass(frozen=True)
class Reinforce:
    units: tuple[str, ...]
    zone: str


def group_of(game: Game, state: GameState, uid: str) -> Reinforcement | None:
    """The scenario's ``[[reinforcement]]`` group a unit arrives with, if any."""
    sc = game.module.scenarios.get(state.scenario)
    if sc is None:
        return None
    for r in sc.reinforcements:
        if uid in r.units:
            return r
    return None


def waiting(state: GameState, side: str) -> list[str]:
    """The side's units still waiting off the map, in id order."""
    return sorted(uid for uid, u in state.units.items() if u.side == side and u.box == WAITING)


def due(game: Game, state: GameState, side: str) -> list[str]:
    """The side's waiting units that may be brought in this Game-Turn (provisional 10.0)."""
    out = []
    for uid in waiting(state, side):
        r = group_of(game, state, uid)
        if r is not None and state.turn > r.after_turn:
            out.append(uid)
    return out


def check_reinforce(
    game: Game, state: GameState, side: str, order: Order
) -> tuple[list[Violation], Reinforce | None]:
    """Every reason the reinforce order may not be carried out (none: the :class:`Reinforce`)."""
    out: list[Violation] = []
    for uid in order.units:
        if uid not in state.units:
            hint = match_name(uid, state.units)[1]
            out.append(
                Violation("10.0", f"no unit {uid!r} in this game", word=uid, hint=hint).at(order)
            )
            continue
        u = state.units[uid]
        if u.side != side:
            who = "neutral" if u.side == NEUTRAL else f"not a {side} unit"
            out.append(Violation("2.11", f"{uid} is {who}", word=uid, unit=uid).at(order))
            continue
        r = group_of(game, state, uid)
        if u.box != WAITING or r is None:
            where = u.location or u.box
            out.append(
                Violation(
                    "10.0",
                    f"{uid} is not a reinforcement waiting to arrive ({where}): only the "
                    f"scenario's reinforcements are brought in ({PROVISIONAL})",
                    word=uid,
                    unit=uid,
                ).at(order)
            )
        elif state.turn <= r.after_turn:
            out.append(
                Violation(
                    "10.0",
                    f"{uid} arrives from Game-Turn {r.after_turn + 1} on; this is Game-Turn "
                    f"{state.turn} ({PROVISIONAL})",
                    word=uid,
                    unit=uid,
                    code="not-yet-due",
                ).at(order)
            )
    out, zone = force_to_zone(
        game, state, order, out, "reinforce_units_per_action", "reinforcement", "Reinforcement"
    )
    if zone is None:
        return out, None
    for uid in order.units:
        r = group_of(game, state, uid)
        assert r is not None
        if r.hexes and zone not in r.hexes:
            return [
                Violation(
                    "10.0",
                    f"{uid} enters at {' or '.join(r.hexes)}, not {zone} (scenario data: "
                    f"estimate; {PROVISIONAL})",
                    word=order.locations[0],
                    unit=uid,
                    hint="its entry zones: " + ", ".join(_q(z) for z in r.hexes),
                ).at(order)
            ], None
    why = base_problems(game, state, side, order, zone, "reinforcements arrive at one", "arrives")
    if why:
        return why, None
    return [], Reinforce(tuple(order.units), zone)


def carry_out_reinforce(state: GameState, rf: Reinforce) -> GameState:
    """The units leave the reinforcements box for their entry zone."""
    return place_at_base(state, rf.units, rf.zone)


def _q(zone: str) -> str:
    return f'"{zone}"' if " " in zone else zone
