"""[DTP 4.1] the game's flow: which phase checks and carries out a file, and what happens on
its own between files (entering phases, removing sub markers, starting the impulses, the
Night phase, the end of the game).

The phase functions are the modules of the kit's parts (``movement_phase``, ``combat_phase``,
``rebasing``) and SPI's set-up, which DTP keeps [11.0]; this module only strings them
together in the order of [DTP 4.1].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.orders import Order
from referee.engine.steps import Carry
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.middle_east import middle_east_roll_14_3, roll_due_14_3
from referee.rules.sixth_fleet_1975.optional import first_strike_14_1
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_1975.reinforcement import reinforcement_12_2
from referee.rules.sixth_fleet_1975.setup import setup_11_0
from referee.rules.sixth_fleet_dtp import (
    air,
    answer_back,
    combat_phase,
    iceland_setup,
    landing,
    movement_phase,
    north_atlantic,
    optional,
    rebasing,
    reinforcement,
    westpac_armistice,
    westpac_hostilities,
    westpac_options,
    westpac_overstack,
    westpac_reinforcement,
    westpac_score,
    westpac_setup,
    westpac_unloading,
    westpac_variable_air,
    westpac_z5,
)
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.impulses import start_8_2
from referee.rules.sixth_fleet_dtp.path import origin_8_15
from referee.rules.sixth_fleet_dtp.removal import sub_removal_6_63
from referee.rules.sixth_fleet_dtp.sequence import (
    BY_ID,
    INTERPHASE_12_2,
    PHASES,
    is_night_4_0,
    next_phase_4_1,
    players_11_0,
)

SETUP, GAME_OVER = "setup", "game-over"


def player(game: Game, letter: str) -> str:
    return players_11_0(game.module)[letter]


def out_of_turn(game: Game, state: GameState, side: str) -> list[Violation]:
    """The case that refuses a file from ``side``, who is not awaited, when the phase has a
    rule of its own for it: the combat phase's impulses [DTP 8.2, 8.232]. Empty otherwise
    (the sequence of play [DTP 4.1] governs)."""
    if state.phase in BY_ID and BY_ID[state.phase].acts == "impulses":
        return combat_phase.out_of_turn_8_2(state, side)
    return []


def due_sides(game: Game, state: GameState) -> list[str]:
    """The sides whose file the game waits for, in order."""
    if state.phase == GAME_OVER:
        return []
    if state.phase == SETUP:
        return [state.active_side] if state.active_side else []
    p = BY_ID[state.phase]
    if p.acts == "side" and p.side is not None:
        return [player(game, p.side)]
    if p.acts == "side":  # SPI's Reinforcement Interphase, side by side [12.2]
        return [state.active_side] if state.active_side else []
    if p.acts == "impulses":
        side = combat_phase.due_8_2(state)
        return [side] if side else []
    if p.acts == "both":
        done = set(facts_of(state).rebased)
        return [s for s in (player(game, "A"), player(game, "B")) if s not in done]
    return []


def section_of(state: GameState) -> str | None:
    if state.phase == SETUP:
        return "setup"
    p = BY_ID.get(state.phase)
    return (p.section or "") if p else None


def _named_int(o: dict[str, Any], role: str) -> int:
    """A whole number a standing order names (``Order.to_json`` keeps them as lists)."""
    v = (o.get("named") or {}).get(role, 0)
    return int(v[0] if isinstance(v, list) else v)


def _standing(state: GameState, side: str, verb: str) -> list[dict[str, Any]]:
    return [o for o in (facts_of(state).standing or {}).get(side, ()) if o.get("verb") == verb]


def setup_11_31(game: Game, state: GameState, side: str, orders: Sequence[Order]) -> Carry:
    """SPI's set-up [11.0], which DTP keeps, with the Iceland choices [DTP 11.31 rules 1, 3-5]
    (``iceland_setup``): air from Murmansk based at Keflavik instead (rule 1) and the choices
    that depend on one another; in Westpac the choices of [DTP 11.5052, 11.5053] and SG #36
    held back until SEATO has set up [DTP 11.505] (``westpac_setup``). A file either passes
    every check or changes nothing."""
    given = state
    state = westpac_setup.held_back_11_505(game, state)  # SG #36 after SEATO [DTP 11.505]
    held = westpac_setup.held_problems_11_505(game, state, orders)
    orders = westpac_setup.not_held_11_505(game, state, orders)
    moved, rest = iceland_setup.rebased_11_31_1(game, state, side, orders)
    extra = [
        *held,  # [DTP 11.505]
        *iceland_setup.check_rebased_11_31_1(game, state, side, orders),
        *iceland_setup.check_setup_11_31(game, state, side, rest),
        *westpac_setup.check_setup_11_5052(game, state, side, rest),  # [DTP 11.5052, 11.5053]
    ]
    carry = setup_11_0(game, state, side, tuple(rest))
    if extra or carry.problems:
        return Carry(given, [*carry.problems, *extra])
    st = westpac_setup.released_11_505(carry.state)
    if "14.3" in st.options:  # Soviet air set up in Egypt or Syria is based there [DTP 9.28(b)]
        for o in rest:
            if o.verb == "place" and o.hexes and game.is_air(o.units[0]):
                st = air.based_at_9_28b(game, st, o.units[0], o.hexes[0])
    for u, (h, _) in sorted(moved.items()):
        was = st.units[u].box
        st = move_piece(game, st, u, h)
        carry.events.append(
            Event(
                "setup",
                iceland_setup.RULE_1,
                f"{u} based at {iceland_setup.held_hexes(game).get(h, h)} ({h}) instead of "
                f"{was} [DTP 11.31 rule 1]",
                {"side": side, "unit": u, "hex": h, "from": was},
            )
        )
    carry.state = st
    return carry


def next_to_set_up(game: Game, state: GameState, side: str) -> tuple[GameState, str | None]:
    """After ``side``'s set-up file: the position (with Westpac's step recorded) and the side
    that sets up next, ``None`` once the set-up is over: the scenario's set-up order [11.0], or
    Westpac's three steps [DTP 11.505]."""
    if westpac_setup.steps_of(game, state):
        return westpac_setup.next_side_11_505(game, state)
    order = list(game.scenario.setup_order)
    i = order.index(side)
    return state, (order[i + 1] if i + 1 < len(order) else None)


def check(game: Game, state: GameState, side: str, orders: Sequence[Order]) -> list[Violation]:
    """The current phase's check of a file's orders [DTP 4.1]."""
    if state.phase == SETUP:
        return setup_11_31(game, state, side, orders).problems
    p = BY_ID[state.phase]
    if p.section == "hostilities":  # [DTP 11.5101]
        return westpac_hostilities.check_11_5101(game, state, orders)
    if p.id == INTERPHASE_12_2.id:  # the Med Campaign's reinforcements [12.2, DTP 11.0]
        return reinforcement_12_2(game, state, side, tuple(orders)).problems
    if p.section == "reinforcement":  # [DTP 11.506]
        then = westpac_reinforcement.owed_11_506(state)["then"]
        return westpac_reinforcement.place_11_506(game, state, side, orders, then).problems
    if p.section == "movement":
        kind = "ship" if p.id.startswith("ship") else "air"
        return movement_phase.check_movement(game, state, side, orders, kind)
    if p.section == "combat":
        return combat_phase.check_impulse_8_2(game, state, side, orders)
    if p.section == "rebasing":
        return rebasing.check_rebasing(game, state, side, orders)
    return []


def _carry_movement(
    game: Game,
    state: GameState,
    side: str,
    other: str,
    orders: Sequence[Order],
    dice: Dice,
    events: list[Event],
    kind: str,
) -> GameState:
    """A ship or air movement file carried out [DTP 5.0, 7.0]: where each flier began (Strike
    Contact counts from there [DTP 8.15]), the moves with the other side's standing detection
    orders, the Z-5's air assault after a ship phase [DTP 11.5095], the fliers that moved."""
    whenever = any(o.get("mode") == "whenever-allowed" for o in _standing(state, other, "detect"))
    if kind == "air":
        origin = dict(facts_of(state).origin)
        for o in orders:
            if o.verb == "move" and o.units[0] not in origin:
                start = origin_8_15(game, state, o.units[0])
                if start is not None:
                    origin[o.units[0]] = start
        state = DtpFacts.put(state, origin=origin)
    state = movement_phase.carry_out_movement(game, state, side, orders, dice, events, whenever)
    if kind == "ship":  # the excess of ship reinforcements eliminated [DTP 11.5063]
        state = westpac_overstack.eliminate_11_5063(game, state, side, orders, events)
        return westpac_z5.record_11_5095(game, state, orders, events)
    moved = set(facts_of(state).moved_air) | {o.units[0] for o in orders if o.verb == "move"}
    return DtpFacts.put(state, moved_air=sorted(moved))


def carry_out(
    game: Game,
    state: GameState,
    side: str,
    orders: Sequence[Order],
    dice: Dice,
    events: list[Event],
) -> GameState:
    """Carry out a checked file, then everything automatic up to the next file awaited."""
    if state.phase == SETUP:
        carry = setup_11_31(game, state, side, orders)
        events.extend(carry.events)
        state, nxt = next_to_set_up(game, carry.state, side)
        if nxt is not None:
            state = state.evolve(active_side=nxt)
            if roll_due_14_3(game, state):  # as the Soviet set-up begins [14.3]
                state = middle_east_roll_14_3(game, state, dice, events)
            return state
        state = westpac_options.cruisers_11_5131(game, state, events)  # [DTP 11.5131]
        return _enter(game, state.evolve(turn=1), "ship_movement_a", dice, events)
    p = BY_ID[state.phase]
    if p.section == "hostilities":  # [DTP 11.5101, 11.51021]
        state = westpac_hostilities.carry_out_11_5101(game, state, orders, events)
        return _enter(game, state, westpac_hostilities.BEFORE, dice, events)
    if p.id == INTERPHASE_12_2.id:  # [12.2, DTP 11.0]
        carry = reinforcement_12_2(game, state, side, tuple(orders))
        events.extend(carry.events)
        return _after_interphase_12_2(game, carry.state, dice, events)
    if p.section == "reinforcement":  # [DTP 11.506]
        owed = westpac_reinforcement.owed_11_506(state)
        carry = westpac_reinforcement.place_11_506(game, state, side, orders, owed["then"])
        events.extend(carry.events)
        state = DtpFacts.put(carry.state, reinforce={**owed, "sides": owed["sides"][1:]})
        return reinforce_11_506(game, state, dice, events)
    other = next(s for s in game.sides if s != side)
    if p.section == "movement":
        kind = "ship" if p.id.startswith("ship") else "air"
        state = _carry_movement(game, state, side, other, orders, dice, events, kind)
        return _next(game, state, dice, events)
    if p.section == "combat":
        mins = [_named_int(o, "min_aa") for o in _standing(state, other, "bounce")]
        state = combat_phase.carry_out_impulse_8_2(
            game, state, side, orders, dice, events, min(mins) if mins else None
        )
        state = auto_pass_8_2(game, state, events)
        state = answer_back.settle_8_22(game, state, events)  # held removals [DTP 8.22]
        due = combat_phase.due_8_2(state)
        return _next(game, state, dice, events) if due is None else state.evolve(active_side=due)
    # rebasing [DTP 9.22-9.24]: CAP over its own base that never left it stays up
    moved = set(facts_of(state).moved_air)
    cap = frozenset(
        u
        for u, st in state.units.items()
        if st.side == side
        and st.location is not None
        and game.category(u) == "air"
        and u not in moved
        and own_base_here(game, state, u, st.location)
        and not any(o.verb == "rebase" and o.units[0] == u for o in orders)
    )
    state = rebasing.carry_out_rebasing(game, state, side, orders, dice, events, cap)
    done = sorted(set(facts_of(state).rebased) | {side})
    state = DtpFacts.put(state, rebased=done)
    if len(done) == len(game.sides):
        return _next(game, state, dice, events)
    return state.evolve(active_side=due_sides(game, state)[0])


def auto_pass_8_2(game: Game, state: GameState, events: list[Event]) -> GameState:
    """A player whose standing ``pass below N`` covers his impulse passes without a file
    [DTP 8.2]: no open attack of his can reach differential N (an upper bound, so a player
    who might reach it is asked). Never while a strike waits for bounces."""
    from referee.rules.sixth_fleet_dtp.impulses import after_pass_8_2
    from referee.rules.sixth_fleet_dtp.standing import passes_8_2

    while not facts_of(state).strike:
        side = combat_phase.due_8_2(state)
        if side is None:
            return state
        below = [
            _named_int(o, "differential")
            for o in _standing(state, side, "pass")
            if o.get("mode") == "below"
        ]
        if not below or not passes_8_2(
            combat_phase.best_differential(game, state, side), max(below)
        ):
            return state
        rec = after_pass_8_2(facts_of(state).impulses or {}, list(game.sides), side)
        events.append(
            Event("pass", "DTP 8.2", f"{side} passes (standing: pass below {max(below)})", {})
        )
        state = DtpFacts.put(state, impulses=rec)
    return state


def own_base_here(game: Game, state: GameState, unit: str, hex_id: str) -> bool:
    """The unit is over a base of its own [DTP 9.24]: an airbase of its side, or, for carrier
    air, a deck of its nationality in the hex [9.61] (a CV, or the Kiev: ``landing.decks_in``,
    DTP-40) that still conducts air operations (below D2: airborne air of a D2 CV must rebase
    elsewhere or recycle [DTP 8.55, 9.27])."""
    side = state.units[unit].side
    base = game.board.airbase(hex_id)
    if base is not None:
        nat = game.module.nationalities.get(base.nationality)
        if nat is not None and nat.side == side:
            return True
    return bool(landing.decks_in(game, state, unit, hex_id))


def _next(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    phase, turn = next_phase_4_1(state.phase, state.turn)
    if turn != state.turn:  # the end of a Game-Turn: the table's '*' awards [DTP 11.5124]
        state = westpac_score.end_of_turn_11_5124(game, state, events)
    if (
        turn != state.turn
        and state.turn >= game.scenario.turns
        and not westpac_armistice.extends_11_5132(state)  # [DTP 11.5103, 11.5132]
    ):
        events.append(Event("phase", "DTP 4.1", "the last Game-Turn is over", {}))
        return _game_over(game, state.evolve(phase=GAME_OVER, active_side=None), events)
    if turn != state.turn:  # the optional armistice roll [DTP 11.5132]
        state, over = westpac_armistice.roll_11_5132(state, turn, dice, events)
        if over:
            ended = state.evolve(turn=turn, phase=GAME_OVER, active_side=None)
            return _game_over(game, ended, events)
    if turn != state.turn:  # SPI's Reinforcement Interphase between two Game-Turns [12.2]
        sides = reinforcement.due_after_12_2(game, state)
        if sides:
            return _after_interphase_12_2(
                game, DtpFacts.put(state, interphase_12_2=sides), dice, events
            )
    return _enter(game, state.evolve(turn=turn), phase, dice, events)


def _game_over(game: Game, state: GameState, events: list[Event]) -> GameState:
    """The game is over (``state``): a scenario scored by an awards table (Westpac) names
    its result in the step's events, sea control assessed now [DTP 11.5123, 11.5125]."""
    if "victory_awards" in game.module.tables:
        events += westpac_score.game_over_11_5125(game, state)
    return state


def _after_interphase_12_2(
    game: Game, state: GameState, dice: Dice, events: list[Event]
) -> GameState:
    """The sides still owed in the Interphase (``interphase_12_2``) place theirs; once none
    has anything left to place, Player A's ship and sub movement of the next Game-Turn
    [12.25][DTP 4.1]."""
    awaited = reinforcement.interphase_12_2(
        game, state, list(facts_of(state).interphase_12_2), dice, events
    )
    if awaited is not None:
        return awaited
    state = reinforcement.end_12_2(state)
    return _enter(game, state.evolve(turn=state.turn + 1), PHASES.first.id, dice, events)


def reinforce_11_506(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    """The placements owed (``state.data["reinforce"]``), side by side, East Block first
    [DTP 11.506]: a side with a unit it can place files them; one with none has its units
    delayed without a file [DTP 11.5063, 11.5064]; then the phase they came before."""
    owed = westpac_reinforcement.owed_11_506(state)
    while owed["sides"]:
        side, then = owed["sides"][0], owed["then"]
        due = westpac_reinforcement.due_11_506(game, state, side, then)
        if any(westpac_reinforcement.entry_hexes_11_506(game, state, u) for u in due):
            p = BY_ID[westpac_reinforcement.phase_of(game, side)]
            events.append(
                Event("phase", p.rule, f"Game-Turn {state.turn}: {p.title}", {"phase": p.id})
            )
            return DtpFacts.put(state, reinforce=owed).evolve(phase=p.id, active_side=side)
        carry = westpac_reinforcement.place_11_506(game, state, side, (), then)
        events.extend(carry.events)
        state = carry.state
        owed["sides"] = owed["sides"][1:]
    state = DtpFacts.drop(state, "reinforce")
    return _enter(game, state, owed["then"], dice, events)


def _enter(game: Game, state: GameState, phase: str, dice: Dice, events: list[Event]) -> GameState:
    """Begin ``phase``: its automatic steps [DTP 6.63, 8.2, 4.1 phase 7]; first the Westpac
    reinforcements owed before it [DTP 11.5041, 11.506-11.5065], after the East Block's
    variable air roll [DTP 11.507]; before all of it the East Block's announcement of
    hostilities [DTP 11.5101]; no combat phase before hostilities [DTP 11.5102]."""
    if westpac_hostilities.asks_11_5101(game, state, phase):
        p = BY_ID[westpac_hostilities.PHASE]
        events.append(Event("phase", p.rule, f"Game-Turn {state.turn}: {p.title}", {"phase": p.id}))
        return state.evolve(phase=p.id, active_side=player(game, p.side or "A"))
    if phase == "combat" and westpac_hostilities.no_combat_11_5102(game, state):
        events.append(
            Event(
                "phase", "DTP 11.5102", f"Game-Turn {state.turn}: no combat before hostilities", {}
            )
        )
        return _next(game, state.evolve(phase=phase), dice, events)
    state = westpac_variable_air.roll_11_507(game, state, phase, dice, events)
    owed = westpac_reinforcement.detour_11_506(game, state, phase)
    if owed is not None:
        return reinforce_11_506(game, DtpFacts.put(state, reinforce=owed), dice, events)
    p = BY_ID[phase]
    side = player(game, p.side) if p.acts == "side" and p.side is not None else None
    state = state.evolve(phase=phase, active_side=side)
    events.append(Event("phase", p.rule, f"Game-Turn {state.turn}: {p.title}", {"phase": phase}))
    state = north_atlantic.on_phase_11_3(game, state, phase, events)  # [DTP 11.3 victory]
    if phase.startswith("ship_movement"):
        assert side is not None
        if optional.first_strike_due_14_1(game, state, side):
            state = first_strike_14_1(game, state, dice, events)
        state = DtpFacts.put(state, detect_tried=[])
        state = sub_removal_6_63(game, state, side, events)
        state = westpac_unloading.unload_11_50922(game, state, side, events)  # [DTP 11.50922]
        state = westpac_options.long_bin_gone_11_5093(game, state, events)  # [DTP 11.5093]
    elif phase.startswith("air_movement"):
        state = DtpFacts.put(state, detect_tried=[])
        assert side is not None
        state = westpac_z5.no_lsm_left_11_50953(game, state, side, events)  # [DTP 11.50953]
    elif phase == "combat":
        state = DtpFacts.put(state, impulses=start_8_2(player(game, "B")), combat={}, strike=None)
        state = auto_pass_8_2(game, state, events)
        if combat_phase.due_8_2(state) is None:
            return _next(game, state, dice, events)
        state = state.evolve(active_side=combat_phase.due_8_2(state))
    elif phase == "rebasing":
        state = westpac_z5.assault_done_11_50952(game, state, events)  # [DTP 11.50952]
        # both players file, in either order [DTP 9.22]; the game names the first still owed
        # as its active side (a game with no active side is over for the play-by-email layer)
        state = DtpFacts.put(state, rebased=[], moments=[]).evolve(active_side=player(game, "A"))
    elif phase == "night":
        assert is_night_4_0(state.turn)
        state = rebasing.night_phase_4_1(game, state, dice, events)
        state = DtpFacts.put(state, moved_air=[])
        return _next(game, state, dice, events)
    if phase == "ship_movement_a":  # a new Game-Turn: no air has flown yet
        state = DtpFacts.put(state, moved_air=[], origin={})
    return state
