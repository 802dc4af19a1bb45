"""The over-stacking penalty [7.2]: "If either player is at any time discovered to have his
forces over-stacked in a zone, the player must eliminate the number of units necessary to
bring each such zone back into compliance with the stacking rule. The eliminated units are
placed in the Refit Box."

Checked after every action and after each Random Events Phase (an event can change who
controls a base, and so who may base there [3.2.1]). The player picks the units: his standing
``eliminate UNIT...`` (standing.py) names them in his order; the units he did not name go
last-listed first in roster order, the declared reading (docs/interpretations.md, [7.2]).

Air units on a base that is destroyed or lost are over-stacked on a base of capacity 0
[7.1.3]. The switch ``lost_base_air`` (docs/interpretations.md, [7.2]/[8.3.2]) reads that as
the Refit Box (``refit``, the default) or lets them fly off to another base or carrier as
8.3.2 lets an air unit that cannot return "for any reason" (``land_elsewhere``).
"""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState
from referee.rules.sixth_fleet_2019.basing import land_elsewhere_8_3_2
from referee.rules.sixth_fleet_2019.game import HOLDING, REFIT, Game
from referee.rules.sixth_fleet_2019.stacking import (
    air_capacity_7_1_3,
    holding_excess,
    overstacked_7_2,
)
from referee.rules.sixth_fleet_2019.standing import elimination_order, reading

WHERE = "docs/interpretations.md, 7.2/8.3.2"


def enforce_7_2(game: Game, state: GameState, events: list[Event]) -> GameState:
    """Every over-stacked place loses the units its owner picks, to the Refit Box [7.2]."""
    for rule, loc, excess in overstacked_7_2(game, state):
        side = state.units[excess[0]].side
        lost = (
            rule == "7.1.3"
            and not loc.startswith(HOLDING)
            and air_capacity_7_1_3(game, state, loc, side) == 0
        )
        label = f" (reading lost_base_air={reading(state, 'lost_base_air')}, {WHERE})"
        if lost and reading(state, "lost_base_air") == "land_elsewhere":
            for uid in excess:
                events.append(
                    Event(
                        "base_lost",
                        "8.3.2",
                        f"{uid} can no longer base at {loc}: it flies off{label}",
                        {"unit": uid, "at": loc, "reading": "land_elsewhere"},
                    )
                )
                state = land_elsewhere_8_3_2(game, state, uid, loc, events)
            continue
        chosen, by_owner = _chosen(game, state, rule, loc, excess)
        for uid in chosen:
            u = state.units[uid]
            state = state.with_unit(UnitState(uid, u.side, REFIT, None, frozenset()))
            how = (
                "chosen by its owner (eliminate)"
                if uid in by_owner
                else "the last listed: its owner named no unit with `eliminate` "
                "(docs/interpretations.md, 7.2)"
            )
            events.append(
                Event(
                    "eliminated",
                    "7.2",
                    f"{uid} over-stacked at {loc} ({rule}): eliminated to the Refit Box, {how}"
                    + (label if lost else ""),
                    {"unit": uid, "at": loc, "limit_rule": rule},
                )
            )
    return state


def _group(game: Game, state: GameState, rule: str, loc: str, side: str) -> list[str]:
    """The units of ``side`` at ``loc`` that the limit of ``rule`` counts, in roster order."""
    rank = {pid: i for i, pid in enumerate(game.roster)}
    here = sorted(
        (uid for uid, u in state.units.items() if u.location == loc and u.side == side),
        key=lambda x: (rank.get(x, len(rank)), x),
    )
    if loc.startswith(HOLDING):
        return here
    kind = "ground" if rule == "7.1.2" else "air"
    return [u for u in here if game.category(u) == kind]


def _chosen(
    game: Game, state: GameState, rule: str, loc: str, excess: list[str]
) -> tuple[list[str], set[str]]:
    """The units eliminated and those of them the owner named [7.2]."""
    side = state.units[excess[0]].side
    group = _group(game, state, rule, loc, side)
    prefs = [u for u in elimination_order(state, side) if u in group]
    if rule == "8.3.2" or not prefs:  # the ship is gone: nothing aboard stays
        return excess, set()
    if loc.startswith(HOLDING):
        ship = loc[len(HOLDING) :]
        chosen: list[str] = []
        for uid in prefs:
            if not holding_excess(game, ship, [u for u in group if u not in chosen]):
                break
            chosen.append(uid)
        rest = [u for u in group if u not in chosen]
        return [*chosen, *holding_excess(game, ship, rest)], set(chosen)
    chosen = prefs[: len(excess)]
    rest = [u for u in group if u not in chosen]
    more = len(excess) - len(chosen)
    return [*chosen, *(rest[len(rest) - more :] if more else [])], set(chosen)
