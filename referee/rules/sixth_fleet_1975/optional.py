"""Optional rules [14.1]-[14.4], switched on per game in ``state.options``.

[14.1] Soviet First Strike: before the first Soviet Movement Phase one die decides which US
carrier (and its assigned air) is lost, and the Soviet SN closest to it is lost too.
[14.2] the Soviet player may announce the violation of neutral air space at the start of any
of his Movement Phases (``option 14.2``): all air units may then enter the neutral Prohibited
hexes, and he loses 10 VP at the end [13.0].
[14.3] Middle East air forces: enables the Syrian, Egyptian and Israeli airbases.
[14.4] Delay of the Black Sea Fleet: a die in the Reinforcement Interphase sets the first
Game-Turn Soviet naval units may enter the Bosporus (after_turn + roll, digest §16.8).
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.optional_rules import OptionalRule
from referee.engine.orders import Order
from referee.engine.steps import Carry
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.position import eliminate

OPTIONAL_RULES: tuple[OptionalRule, ...] = (
    OptionalRule("14.1", "Soviet First Strike"),
    OptionalRule("14.2", "Violation of Neutral Air Space"),
    OptionalRule("14.3", "Middle East Air Force Participation"),
    OptionalRule("14.4", "Delay of the Soviet Black Sea Fleet"),
)
"""The optional rules SPI's rules play, in every scenario [14.0]."""


def first_strike_14_1(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    nato = game.flags.nato_side
    cvs = sorted(
        (
            u
            for u in state.units.values()
            if u.side == nato
            and game.unit(u.id).type == "CV"
            and game.unit(u.id).nationality == "US"
            and u.location is not None
        ),
        key=lambda u: (game.unit(u.id).number.zfill(4), u.id),
    )
    state = SixthFleetFacts.put(state, first_strike_done=True)
    if not cvs:
        events.append(Event("first-strike", "14.1", "First Strike: no US carrier on the map"))
        return state
    roll = dice.roll(6, "Soviet First Strike: 1-3 the first US CV, 4-6 the second", "14.1")
    target = cvs[0] if roll <= 3 or len(cvs) == 1 else cvs[1]
    loc = target.location
    assert loc is not None
    events.append(
        Event(
            "first-strike",
            "14.1",
            f"First Strike roll {roll}: {target.id} is lost",
            {"roll": roll, "unit": target.id},
        )
    )
    scores = game.flags.first_strike_losses_score
    state = eliminate(game, state, target.id, "14.1", "Soviet First Strike", events, scores=scores)
    assigned = facts_of(state).assigned or {}
    for air, cv in sorted(assigned.items()):
        if cv == target.id and state.units[air].box not in ("eliminated", "grounded"):
            state = eliminate(
                game, state, air, "14.1", f"assigned to {target.id}", events, scores=scores
            )
    subs = sorted(
        (game.board.distance(loc, u.location), u.id)
        for u in state.units.values()
        if u.side == game.flags.soviet_side
        and u.location is not None
        and game.unit(u.id).type in game.flags.first_strike_sub_types
    )
    if subs:
        state = eliminate(
            game, state, subs[0][1], "14.1", f"the SN closest to {target.id}", events, scores=scores
        )
    return state


def black_sea_delay_14_4(
    game: Game, state: GameState, dice: Dice, events: list[Event]
) -> GameState:
    roll = dice.roll(6, "Delay of the Black Sea Fleet: Game-Turns before entry to the gate", "14.4")
    gate = state.turn + roll if game.flags.black_sea_delay_adds_roll else state.turn + roll + 1
    events.append(
        Event(
            "black-sea-delay",
            "14.4",
            f"Black Sea Fleet delay roll {roll}: no Soviet naval unit may enter "
            f"{game.flags.black_sea_gate} before Game-Turn {gate}",
            {"roll": roll, "gate_turn": gate},
        )
    )
    return SixthFleetFacts.put(state, gate_turn=gate)


def announce_14_2(game: Game, carry: Carry, side: str, o: Order) -> None:
    """``option 14.2``: the Soviet player violates neutral air space, once, in one of his
    Movement Phases [14.2]; checked and carried out here."""
    st = carry.state
    if o.value != "14.2":
        carry.refuse(
            Violation(
                o.value or "14",
                f"option {o.value} is not a choice a player announces in a "
                "Movement Phase (only 14.2 is)",
                code="not-an-announcement",
            ),
            o,
        )
        return
    if "14.2" not in st.options:
        carry.refuse(
            Violation("14.2", "optional rule 14.2 is not in use in this game", code="not-in-use"), o
        )
        return
    if side != game.flags.soviet_side:
        carry.refuse(
            Violation(
                "14.2", "only the Soviet player may violate neutral air space", code="not-soviet"
            ),
            o,
        )
        return
    if facts_of(st).neutral_airspace:
        carry.refuse(
            Violation(
                "14.2", "neutral air space has already been violated", code="already-violated"
            ),
            o,
        )
        return
    carry.state = SixthFleetFacts.put(st, neutral_airspace=True)
    carry.events.append(
        Event(
            "option",
            "14.2",
            f"{side} violates neutral air space ({game.flags.neutral_airspace_vp} VP at the end)",
            {},
        )
    )
