"""A force's line in the published options (options format 6): whether its units may act as
one force at all, and the counts that cap it where it ends.

Each action is one force [6.6], [8.1]. The viewer composes a force from pairs the validator
accepts; two things it cannot see from pairs are given here, each from the validator's own
rules so the two never disagree (``tests/viewer/test_orders_forces.py`` holds them equal on
every force of three or more of the demo's Action Phases):

* :func:`never_joins`: the check of the force itself ([8.1] one zone, [6.6] one nationality,
  [2.11] the side's own movable units; one kind of movement for a move or an attack [8.1]),
  which every verb's check runs before anything of the line's rest, so a pair it refuses is
  refused on every line (one check proves it; the options need not ask each rest);
* :func:`room`: where the line ends, the room that caps the number of units: a base's air
  units [7.1.3], a small island's ground units [7.1.2], a holding box's places [8.3.4]
  (CV-capable air in the air places, V/STOL air first in the V/STOL places [2.0 errata],
  ground units in the land places), each as "at most ``n`` of these units", the same sums the
  validator's checks compare.
"""

from __future__ import annotations

from referee.engine.core import GameState, refusals
from referee.engine.orders import Order
from referee.rules.sixth_fleet_2019.amphibious import check_land
from referee.rules.sixth_fleet_2019.game import HOLDING, Game, aboard
from referee.rules.sixth_fleet_2019.movement import check_move, force_kind, force_problems, own_here
from referee.rules.sixth_fleet_2019.stacking import air_capacity_7_1_3, holding_capacity

JOINED_FIRST = frozenset({"move", "attack", "land", "embark", "patrol"})
"""The verbs whose check begins with the check of the force itself (:func:`force_problems`);
a Refit or Reinforcement action's units are off the map, judged otherwise [6.4]."""
ONE_KIND = frozenset({"move", "attack"})
"""The verbs whose check refuses a force of several kinds of movement next [8.1]."""


def never_joins(game: Game, ready: GameState, side: str, order: Order) -> bool:
    """Whether the validator refuses every line of ``order``'s verb naming its units, from the
    check it runs on the units alone before the rest of the line (:data:`JOINED_FIRST`)."""
    if order.verb not in JOINED_FIRST:
        return False
    if refusals(force_problems(game, ready, side, order)):
        return True
    return order.verb in ONE_KIND and force_kind(game, tuple(order.units)) is None


def room(
    game: Game, ready: GameState, side: str, order: Order, units: list[str]
) -> list[tuple[int, list[str]]]:
    """The counts that cap a force drawn from ``units`` on the rest of ``order``'s line (one
    unit's line the validator accepts): ``(n, group)``, at most ``n`` of the units of
    ``group`` (those of ``units`` the room counts: air units at a base, ground units on a
    small island), where it ends [7.1.3], [7.1.2], [8.3.4]; none where nothing caps it. A
    force is of one kind [8.1], so a count of one category caps only the forces of it."""
    if order.verb == "embark":
        return box_room(game, ready, order.carrier or "", units)
    if order.verb == "land":
        bad, landing = check_land(game, ready, side, order)
        if bad or landing is None or game.zone_type(landing.zone) != "small_island":
            return []
        return [(_island_room(game, ready, side, landing.zone), _of(game, units, "ground"))]
    if order.verb != "move":
        return []
    bad, mv = check_move(game, ready, side, order)
    if bad or mv is None:
        return []
    if mv.box is not None:
        return box_room(game, ready, mv.box[len(HOLDING) :], units)
    end = mv.path[-1] if mv.path else mv.start
    out: list[tuple[int, list[str]]] = []
    cap = air_capacity_7_1_3(game, ready, end, side)
    if cap is not None:
        out.append((cap - own_here(game, ready, side, end, "air"), _of(game, units, "air")))
    if game.zone_type(end) == "small_island":
        out.append((_island_room(game, ready, side, end), _of(game, units, "ground")))
    return out


def box_room(
    game: Game, state: GameState, ship: str, units: list[str]
) -> list[tuple[int, list[str]]]:
    """A holding box's places as counts [8.3.4], [2.0 errata]: V/STOL air fills the V/STOL
    places first, so the units fit exactly when the air units that are not V/STOL fit the air
    places, all air units fit both, and ground units fit the land places (the sums of
    :func:`~referee.rules.sixth_fleet_2019.stacking.fits_aboard`), counting those aboard."""
    cap = holding_capacity(game, ship)
    on = aboard(state, ship)
    air, ground = _of(game, units, "air"), _of(game, units, "ground")
    plain = [u for u in air if not game.unit(u).has("vstol")]
    air_on = _of(game, on, "air")
    plain_on = [u for u in air_on if not game.unit(u).has("vstol")]
    return [
        (cap["air"] - len(plain_on), plain),
        (cap["air"] + cap["vstol"] - len(air_on), air),
        (cap["land"] - len(_of(game, on, "ground")), ground),
    ]


def _island_room(game: Game, state: GameState, side: str, zone: str) -> int:
    """A small island's ground units [7.1.2]: the limit, less the side's there."""
    return int(game.param("small_island_ground")) - own_here(game, state, side, zone, "ground")


def _of(game: Game, units: list[str], category: str) -> list[str]:
    return [u for u in units if game.category(u) == category]
