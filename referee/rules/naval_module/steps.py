"""One orders file, checked and carried out by the same code, phase by phase.

``run`` takes the position, the file and the dice (``None`` to check only) and returns the
:class:`Work`: the new position, the events and the violations. The phases come from
``sequence.PHASES``; the end of a player turn and of a Game-Turn are here too.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.engine.core import Dice, GameState, PendingDecision, SourcePos, Violation
from referee.engine.orders import Order, OrdersDoc
from referee.rules.naval_module import air, coast, combat, defence, movement, phases, sortie
from referee.rules.naval_module import sequence as seq
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.readings import readings_of
from referee.rules.naval_module.work import Work

ABORT_OPTIONS = ("return", "damage")


def check_header(game: Game, state: GameState, doc: OrdersDoc, awaited: str) -> list[Violation]:
    """The file is for this game, this Game-Turn, the awaited side and step."""
    out: list[Violation] = []
    top = SourcePos(doc.file, 1, 1)
    hp = doc.header_pos
    if doc.game_id != state.game_id:
        out.append(
            Violation(
                "orders",
                f"these orders are for game {doc.game_id!r}, not {state.game_id!r}"
                if doc.game_id is not None
                else f"these orders name no game; this is game {state.game_id!r}",
                hp.get("game", top),
                hint=f"game: {state.game_id}",
            )
        )
    if doc.turn != state.turn:
        out.append(
            Violation(
                "orders",
                f"these orders are for Game-Turn {doc.turn}; the game is at Game-Turn {state.turn}"
                if doc.turn is not None
                else f"these orders name no Game-Turn; the game is at Game-Turn {state.turn}",
                hp.get("turn", top),
                hint=f"turn: {state.turn}",
            )
        )
    if state.phase == seq.GAME_OVER:
        out.append(Violation("orders", "the game is over", top))
    elif doc.side != awaited:
        out.append(
            Violation(
                "orders",
                f"the game awaits {awaited}'s orders, not those of side {doc.side!r}"
                if doc.side is not None
                else f"the game awaits {awaited}'s orders; these orders name no side",
                hp.get("side", top),
                hint=f"side: {awaited}",
            )
        )
    if doc.phase is not None and doc.phase != state.phase:
        out.append(
            Violation(
                "orders",
                f"the game is in the {state.phase} step, not {doc.phase!r}",
                hp.get("phase", top),
                hint=f"phase: {state.phase}",
            )
        )
    for o in doc.orders:
        if o.section != _section(state.phase):
            out.append(
                Violation(
                    "orders",
                    f"[{o.section}] orders are not for the {state.phase} step",
                    o.pos,
                    hint=f"write them under [{_section(state.phase)}]",
                )
            )
            break
    return out


def _section(phase: str) -> str:
    return seq.SECTION.get(phase, phase)


def run(game: Game, state: GameState, doc: OrdersDoc, dice: Dice) -> Work:
    """One orders file carried out: its standing orders, then the answer to a pending
    decision or the orders of the step the game is in, then on to the next step when nothing
    was refused and no decision is awaited."""
    side = str(doc.side)
    w = Work(game, state, side, dice)
    if doc.standing:
        _standing(w, doc)
    if state.pending:
        _answer(w, doc)
        return w
    if doc.answers:
        w.refuse(Violation("orders", "there is no pending decision to answer", doc.answers[0].pos))
        return w
    if not [s for s in doc.sections if s != "standing"] and doc.standing:
        return w  # standing orders only
    orders = list(doc.orders)
    phase = state.phase
    if phase not in seq.NAVAL_MOVEMENT:  # a port taken outside a movement phase (NM-44) [26.12b]
        for o in orders:
            if o.verb == "capture":
                sortie.capture(w, o)
        orders = [o for o in orders if o.verb != "capture"]
    step = _step_of(phase)
    if step is not None and step(w, orders, phase):
        return w  # a decision is awaited
    if not w.violations:
        advance(w)
    return w


_Step = Callable[[Work, list[Order], str], bool]
"""One step's orders carried out; true when the step now waits for a decision."""


def _step_of(phase: str) -> _Step | None:
    """The step that carries out the orders of ``phase`` (none for a step without orders)."""
    step = _STEPS.get(phase)
    if step is None and (phase in seq.SHIPPING_STEPS.values() or phase.endswith("_air_confirm")):
        return _shipping_step
    return step


def _readiness_step(w: Work, orders: list[Order], phase: str) -> bool:
    phases.readiness_phase(w, orders)
    return False


def _interdiction_step(w: Work, orders: list[Order], phase: str) -> bool:
    air.interdiction_phase(w, orders, against=w.facts.phasing)
    return bool(w.state.pending)


def _air_combat_step(w: Work, orders: list[Order], phase: str) -> bool:
    air.air_combat_result(w, orders, confirming=phase == "aircombat_confirm")
    return False


def _movement_step(w: Work, orders: list[Order], phase: str) -> bool:
    """The Motorized Movement Phase or the Movement Phase: the same naval movement in each
    [26.12a]."""
    _movement(w, orders)
    return bool(w.state.pending)


def _combat_step(w: Work, orders: list[Order], phase: str) -> bool:
    """The Combat Phase: support, assaults, shipping attacks and declared attacks, then the
    shipping attacks resolved [31.2] and the aborts asked for."""
    for o in orders:
        {
            "support": combat.support,
            "assault": combat.assault,
            "shipping": combat.shipping,
            "attack": defence.declare_attack,
        }[o.verb](w, o)
    combat.resolve_shipping(w)
    _ask_aborts(w, orders, "combat")
    return bool(w.state.pending)


def _reaction_step(w: Work, orders: list[Order], phase: str) -> bool:
    for o in orders:
        combat.shipping(w, o)
    combat.resolve_shipping(w)
    _ask_aborts(w, orders, "reaction")
    return bool(w.state.pending)


def _coast_step(w: Work, orders: list[Order], phase: str) -> bool:
    """Coast artillery fire and support, and Defender hexes declared [30.2]."""
    for o in orders:
        {
            "coastfire": coast.coast_fire,
            "coastsupport": coast.coast_support,
            "defend": defence.defend,
        }[o.verb](w, o)
    coast.resolve_coast_fire(w)
    w.put(cd_used={}, defended={})
    _ask_aborts(w, orders, "coast")
    return bool(w.state.pending)


def _shipping_step(w: Work, orders: list[Order], phase: str) -> bool:
    combat.shipping_result(w, orders, confirming=phase.endswith("_confirm"))
    _ask_aborts(w, orders, phase)
    return bool(w.state.pending)


def _host_step(w: Work, orders: list[Order], phase: str) -> bool:
    combat.host_results(w, orders, confirming=phase == "host_confirm")
    return False


_STEPS: dict[str, _Step] = {
    "readiness": _readiness_step,
    "interdiction": _interdiction_step,
    "aircombat": _air_combat_step,
    "aircombat_confirm": _air_combat_step,
    "motorized": _movement_step,
    "movement": _movement_step,
    "combat": _combat_step,
    "reaction": _reaction_step,
    "coast": _coast_step,
    "host": _host_step,
    "host_confirm": _host_step,
}


def _standing(w: Work, doc: OrdersDoc) -> None:
    for o in doc.standing:
        if o.verb == "oppose":
            air.check_oppose_order(w, o)
            continue
        for sid in o.units:
            u = w.state.units.get(sid)
            if u is None or u.side != w.side or not w.game.is_ship(sid):
                w.not_own_ship("27.32b", sid, o.pos_of(sid))
    standing = dict(w.facts.standing)
    standing[w.side] = [o.to_json() for o in doc.standing]
    w.put(standing=standing)


# ---- the Motorized Movement Phase and the Movement Phase -----------------------------------------
def _movement(w: Work, orders: list[Order]) -> None:
    """One naval movement phase [26.12a]: its loss rolls at its end [27.11], its own NMP
    allowance [26.14]; a ship that supported from the sea is back in port by the end of the
    Movement Phase, or earlier in the Motorized Movement Phase (NM-47) [29.13]."""
    for o in orders:
        if o.verb == "evacuate":
            movement.evacuate(w, o)
        elif o.verb == "capture":
            sortie.capture(w, o)
        elif o.verb == "load":
            movement.load(w, o)
        elif o.verb == "move":
            movement.move(w, o)
        elif o.verb == "abort":
            for sid in o.units:
                u = w.state.units.get(sid)
                if u is None or u.side != w.side or not w.game.is_ship(sid):
                    w.not_own_ship("27.32b", sid, o.pos_of(sid))
    if not w.violations and w.state.phase == "movement":
        combat.must_return_29_13(w)
    if w.violations:
        return
    movement.resolve_losses(w)
    unloads = [o.to_json() for o in orders if o.verb == "unload"]
    w.put(deferred=unloads)
    _ask_aborts(w, orders, w.state.phase)
    if w.state.pending:
        return
    _finish_movement(w)


def _finish_movement(w: Work) -> None:
    for j in w.facts.deferred:
        o = Order.from_json(j)
        if all(w.state.units[p].box == "eliminated" for p in o.units if p in w.state.units):
            # passengers lost with their ship in this phase's loss roll: nothing to unload
            w.note("unload_void", "27.33", f"no unload of {', '.join(o.units)}: lost at sea")
            continue
        movement.unload(w, o)
    w.put(deferred=[])
    movement.end_movement(w)
    combat.returned_29_13(w, all_due=w.state.phase == "movement")


def _ask_aborts(w: Work, orders: list[Order], phase: str) -> None:
    """Take each Abort choice from the orders or standing orders; otherwise ask [27.32b]."""
    for sid, owner in sorted(w.facts.abort_due.items()):
        mine = orders if owner == w.side else []
        choice = movement.choice_for(w, sid, mine)
        if choice is not None:
            movement.abort_choice(w, sid, choice)
            continue
        back = w.facts.ships[sid].get("departure", "its departure port")
        pd = PendingDecision(
            id=f"abort-{sid}",
            side=owner,
            kind="abort",
            rule="27.32b",
            prompt=f"Abort for {sid}: return to {back}, or take one more damage point and stay",
            options=ABORT_OPTIONS,
            context={"ship": sid, "phase": phase},
        )
        w.state = w.state.evolve(pending=(*w.state.pending, pd))
        w.note("decision", "27.32b", f"{owner} decides the Abort of {sid}", decision=pd.id)
        return


def _answer(w: Work, doc: OrdersDoc) -> None:
    pd = w.state.pending[0]
    if not doc.answers:
        w.refuse(
            Violation(
                "orders",
                f"the game awaits the answer to {pd.id}",
                None,
                hint=f"[answer] answer {pd.id} {'|'.join(pd.options)}",
            )
        )
        return
    a = doc.answers[0]
    if a.decision != pd.id:
        w.refuse(
            Violation(
                "orders", f"no pending decision {a.decision!r}", a.pos, hint=f"pending: {pd.id}"
            )
        )
        return
    if a.value not in pd.options:
        w.refuse(
            Violation(
                "27.32b",
                f"{a.value!r} is not an option of {pd.id}",
                a.pos,
                hint="options: " + ", ".join(pd.options),
            )
        )
        return
    w.state = w.state.evolve(pending=w.state.pending[1:])
    w.note("answer", pd.rule, f"{w.side} answers {pd.id}: {a.value}", decision=pd.id)
    if pd.kind == "oppose":
        air.answer_opposition(w, dict(pd.context["box"]), str(a.value))
        advance(w)
        return
    movement.abort_choice(w, str(pd.context["ship"]), str(a.value))
    phase = str(pd.context["phase"])
    _ask_aborts(w, [], phase)
    if w.state.pending:
        return
    if phase in seq.NAVAL_MOVEMENT:
        _finish_movement(w)
    advance(w)


# ---- phases, player turns, Game-Turns ----------------------------------------------------------
def advance(w: Work) -> None:
    order = [p.id for p in seq.PHASES]
    i = order.index(w.state.phase) + 1
    while i < len(order) and _skipped(w, order[i]):
        i += 1
    if i < len(order):
        w.state = w.state.evolve(
            phase=order[i], active_side=seq.actor(w.state.evolve(phase=order[i]), w.game.sides)
        )
        return
    end_player_turn(w)


def _skipped(w: Work, phase: str) -> bool:
    """A step of a ruling the game does not record (``Phase.flag``: the Motorized Movement
    Phase [26.12a]); the host steps wait for an assault; the air combat steps for naval
    fighters opposing the box [31.13]; the Reaction Phase for a Soviet ship at sea and Ready
    Axis strike air [31.22]; the coast step for a CD unit with something in reach [27.12],
    [30.25] or a naval unit in port in Range of an attacked Defender hex [29.25]."""
    flag = seq.BY_ID[phase].flag
    if flag is not None:
        return not getattr(readings_of(w.state), flag)
    if phase.startswith("host"):
        return not _open_assaults(w)
    if phase.startswith("aircombat"):
        return not w.facts.box_combat
    if phase.startswith(("reaction_air", "combat_air")):
        return not w.facts.shipping_combat
    if phase == "reaction":
        return not air.reaction_due(w.game, w.state)
    if phase == "coast":
        phasing = w.facts.phasing
        return not (
            coast.coast_phase_due(w.game, w.state, phasing)
            or defence.defence_due(w.game, w.state, phasing)
        )
    return False


def _open_assaults(w: Work) -> bool:
    return any(h["kind"] == "assault" for h in w.facts.handoffs)


def end_player_turn(w: Work) -> None:
    """The phasing player's turn ends: port capacity is used per player turn [26.25]; the
    landing turn's Engineering Phase turns "Do Not Move 2 GTs" into "1 GT" [28.24]."""
    phasing = w.facts.phasing
    dnm = {k: dict(v) for k, v in w.facts.do_not_move.items()}
    for uid, m in dnm.items():
        if m["n"] == 2 and m.get("side") == phasing:
            m["n"] = 1
            w.note("do_not_move", "28.24", f"{uid}: Do Not Move 1 GT", unit=uid)
    kinds = ("support", "cd_support", "defensive_support", "aa")
    supported = [h for h in w.facts.handoffs if h["kind"] in kinds]
    log = list(w.facts.handoff_log) + supported
    w.put(port_used={}, assault_hexes={}, do_not_move=dnm, handoffs=[], handoff_log=log)
    if w.facts.declared_attacks:
        w.put(declared_attacks=[])
    if w.facts.moved_motorized or w.facts.activated:
        w.put(moved_motorized=[], activated=[])
    first = w.facts.first
    nxt = seq.other(w.game.sides, phasing)
    if nxt == first:
        end_game_turn(w)
        if w.state.phase == seq.GAME_OVER:
            return
    w.put(phasing=nxt)
    w.state = w.state.evolve(phase=seq.PHASES.first.id, active_side=nxt)
    w.note("player_turn", "25.32", f"{nxt} player turn, Game-Turn {w.state.turn}")


def end_game_turn(w: Work) -> None:
    """The Game-Turn Interphase: Evacuation markers go [28.22], "1 GT" markers placed before
    this turn go [28.24], the interdiction box is emptied [31.13], the Flown Box's air units
    are Ready again (NM-25)."""
    turn = w.state.turn
    dnm = {
        k: v
        for k, v in w.facts.do_not_move.items()
        if not (v["n"] == 1 and int(v["landed"]) < turn)
    }
    for k in sorted(set(w.facts.do_not_move) - set(dnm)):
        w.note("do_not_move", "28.24", f"{k}: Do Not Move marker removed", unit=k)
    if any(w.facts.flown.values()):
        w.note("air_ready", "31.22", "the air units in the Flown Box are Ready again")
    w.put(
        do_not_move=dnm,
        evacuation={},
        interdiction={},
        interdiction_box={},
        assaulted=[],
        flown={},
    )
    total = w.facts.last_turn or w.game.module.scenarios[w.state.scenario].turns
    if turn >= total:
        w.state = w.state.evolve(phase=seq.GAME_OVER, active_side=None)
        w.note("game_over", "25.0", f"the scenario's {total} Game-Turns are played")
        return
    w.state = w.state.evolve(turn=turn + 1)
