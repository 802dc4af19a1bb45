"""Checking and carrying out one orders file: a set-up, a Combat or Movement Phase, a
reinforcement placement, answers, standing orders.

Movement, set-up and reinforcement orders need no dice, so one function *simulates* them
order by order on the position: the validator keeps its problems, the resolver keeps its
position. The two can never disagree. Combat orders are checked against the position and the
phase record as the attacks are declared; the dice come later, in :mod:`tasks`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.engine.core import Event, GameState, SourcePos, UnitState, Violation
from referee.engine.orders import Order, OrdersDoc
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.air import (
    HOLDING_BOX_LIMIT,
    airbase_usable_9_16,
    box_contents,
    carrier_of_box,
    closed_without_14_3,
)
from referee.rules.sixth_fleet_1975.combat import analyse_attack, phase_record
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.mandatory import (
    best_attacks_from,
    must_retreat_8_24,
    obligated_hexes_8_21,
)
from referee.rules.sixth_fleet_1975.middle_east import only_with_14_3
from referee.rules.sixth_fleet_1975.movement import (
    check_path_5_0,
    entry_cost_5_12,
    path_after_start,
    start_hex,
)
from referee.rules.sixth_fleet_1975.position import move_piece, to_box
from referee.rules.sixth_fleet_1975.reinforcement import due_12_2, entry_hexes_12_2
from referee.rules.sixth_fleet_1975.retreat import displacement_hexes_8_71, retreat_hexes_8_71
from referee.rules.sixth_fleet_1975.setup import check_setup_11_1
from referee.rules.sixth_fleet_1975.stacking import normalise, overstacked_7_0
from referee.rules.sixth_fleet_1975.strengths import fmt
from referee.source.diagnostics import did_you_mean

STEP_SECTION = {
    seq.SETUP: "setup",
    seq.COMBAT: "combat",
    seq.MOVEMENT: "movement",
    seq.REINFORCEMENT: "reinforcement",
}


@dataclass
class Sim:
    state: GameState
    violations: list[Violation] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def v(
        self,
        rule: str,
        msg: str,
        o: Order | None = None,
        word: str | None = None,
        unit: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = (o.pos_of(word) if word else o.pos) if o is not None else None
        self.violations.append(Violation(rule, msg, where, unit, hint))


# ---- the words of an order: units and hexes exist ---------------------------------------------

_OWN_UNIT_VERBS = {"place", "move", "base", "cap", "box", "attack", "advance", "displace"}


def check_words(game: Game, state: GameState, doc: OrdersDoc, side: str | None) -> list[Violation]:
    """Unknown units ("did you mean ...?"), hexes not on the map, the other side's units."""
    out: list[Violation] = []
    known = list(state.units)
    for o in (*doc.orders, *doc.standing):
        names = list(o.units) + ([o.carrier] if o.carrier else [])
        names += [t for t in o.targets if not t.startswith("hex:")]
        for u in names:
            if u in state.units:
                continue
            if only_with_14_3(game, state, u):
                used = "14.3" in state.options
                out.append(
                    Violation(
                        "14.3",
                        f"{u} is not in this game: "
                        + (
                            "the 14.3 roll did not give it"
                            if used
                            else "it is used only with optional rule 14.3, which this game "
                            "does not use"
                        ),
                        o.pos_of(u),
                        u,
                    )
                )
                continue
            out.append(
                Violation("orders", f"unknown unit {u!r}", o.pos_of(u), u, did_you_mean(u, known))
            )
        hexes = list(o.hexes) + [t[4:] for t in o.targets if t.startswith("hex:")]
        for h in hexes:
            if not game.board.contains(h):
                rule = "5.24" if o.verb == "move" else "orders"
                out.append(
                    Violation(
                        rule,
                        f"hex {h} is not on the map",
                        o.pos_of(h),
                        None,
                        "hex ids are RRCC, four digits, e.g. 1423",
                    )
                )
        if side is None:
            continue
        own_needed = o.verb in _OWN_UNIT_VERBS or (o.verb == "retreat" and o.units)
        if own_needed:
            for u in o.units:
                if u in state.units and state.units[u].side != side:
                    rule = {"move": "5.11", "attack": "8.0"}.get(o.verb, "orders")
                    out.append(
                        Violation(
                            rule,
                            f"{u} is a {state.units[u].side} unit; "
                            f"{side} orders only its own units",
                            o.pos_of(u),
                            u,
                        )
                    )
        if o.verb == "eliminate":
            for u in o.units:
                if u in state.units and state.units[u].side == side:
                    out.append(
                        Violation(
                            "7.0",
                            f"{u} is your own unit: 'eliminate' names the "
                            "enemy units you would remove first",
                            o.pos_of(u),
                            u,
                        )
                    )
        if o.carrier and o.carrier in state.units and state.units[o.carrier].side != side:
            out.append(
                Violation(
                    "9.62", f"{o.carrier} is not your carrier", o.pos_of(o.carrier), o.carrier
                )
            )
    return out


def check_header(game: Game, state: GameState, doc: OrdersDoc) -> list[Violation]:
    """The file is for this game, this Game-Turn, the side and step awaited [4.0]."""
    out: list[Violation] = []
    hp = doc.header_pos
    top = SourcePos(doc.file, 1, 1)
    if doc.game_id is None:
        out.append(
            Violation(
                "orders", "missing header 'game: <id>'", top, hint=f"add: game: {state.game_id}"
            )
        )
    elif doc.game_id != state.game_id:
        out.append(
            Violation(
                "orders",
                f"these orders are for game {doc.game_id!r}, not {state.game_id!r}",
                hp.get("game", top),
            )
        )
    if doc.turn is None:
        out.append(
            Violation("orders", "missing header 'turn: <n>'", top, hint=f"add: turn: {state.turn}")
        )
    elif doc.turn != state.turn:
        out.append(
            Violation(
                "4.0",
                f"these orders are for Game-Turn {doc.turn}; the game is at Game-Turn {state.turn}",
                hp.get("turn", top),
            )
        )
    if doc.side is None:
        out.append(Violation("orders", "missing header 'side: <side>'", top))
    elif doc.side not in game.sides:
        out.append(
            Violation(
                "orders",
                f"unknown side {doc.side!r}",
                hp.get("side", top),
                hint=did_you_mean(doc.side, list(game.sides)),
            )
        )
    step_sections = [s for s in doc.sections if s != "standing"]
    if len(step_sections) > 1:
        out.append(
            Violation(
                "4.0",
                "one orders file covers one step of the sequence of play; "
                f"this one has {', '.join('[' + s + ']' for s in step_sections)}",
                top,
            )
        )
    if state.pending:
        pd = state.pending[0]
        if doc.side is not None and doc.side != pd.side and step_sections:
            out.append(
                Violation(
                    "4.0", f"the game waits for {pd.side}'s answer to {pd.id}", hp.get("side", top)
                )
            )
        if step_sections and step_sections != ["answer"]:
            out.append(
                Violation(
                    "4.0",
                    f"the game waits for an answer to {pd.id} "
                    f"({pd.prompt}); send an [answer] section",
                    top,
                    hint=f"answer {pd.id} {pd.options[0] if pd.options else ''}",
                )
            )
        return out
    expected = STEP_SECTION.get(state.phase)
    if "answer" in step_sections:
        out.append(Violation("4.0", "no decision is pending; [answer] is not expected", top))
    elif step_sections and expected and step_sections[0] != expected:
        out.append(
            Violation(
                "4.0",
                f"the game is in the {seq.describe(state)}: expected a "
                f"[{expected}] section, not [{step_sections[0]}]",
                top,
            )
        )
    if step_sections and doc.side is not None and doc.side != state.active_side:
        out.append(
            Violation(
                "4.0",
                f"it is {state.active_side}'s step ({seq.describe(state)}), not {doc.side}'s",
                hp.get("side", top),
            )
        )
    if (
        doc.phase is not None
        and step_sections
        and doc.phase.lower() not in (state.phase, STEP_SECTION.get(state.phase, ""))
    ):
        out.append(
            Violation(
                "4.0",
                f"header says phase {doc.phase!r}; the game is in the {state.phase} phase",
                hp.get("phase", top),
            )
        )
    if state.phase == seq.GAME_OVER and step_sections:
        out.append(Violation("13.0", "the game is over", top))
    return out


# ---- set-up -------------------------------------------------------------------------------


def simulate_setup(game: Game, state: GameState, side: str, orders: tuple[Order, ...]) -> Sim:
    sim = Sim(state)
    probs, placed = check_setup_11_1(game, state, side, list(orders))
    for p in probs:
        sim.v(p.rule, p.message, p.order, p.word, hint=p.hint)
    if sim.violations:
        return sim
    st = state
    assigned = dict(st.data.get("assigned") or {})
    for pool in game.scenario.pools:
        if pool.where == "carrier" and pool.carrier:
            for u in pool.units:
                assigned[u] = pool.carrier
    for u, (kind, where) in sorted(placed.items(), key=lambda kv: kv[1][0] != "hex"):
        if kind == "hex":
            st = move_piece(game, st, u, where)
    for u, (kind, where) in sorted(placed.items()):
        if kind == "cap":
            loc = st.units[where].location
            assert loc is not None
            st = move_piece(game, st, u, loc)
        elif kind == "box":
            st = to_box(st, u, where)
    st = st.with_data(assigned=assigned)
    sim.state = st
    for o in orders:
        if o.verb == "stack":
            _stack_order(game, sim, side, o)
    sim.events.append(
        Event(
            "setup",
            "11.0",
            f"{side} set-up: {len(placed)} units placed",
            {"side": side, "placed": sorted(placed)},
        )
    )
    return sim


def _stack_order(game: Game, sim: Sim, side: str, o: Order) -> None:
    """``stack HEX UNIT ...``: the owner's order of his naval units, top first [7.42]; air
    units stay on top [7.43]; only in his own Movement Phase or set-up [7.47]."""
    h = o.hexes[0]
    st = sim.state
    here = list(st.stacks.get(h, ()))
    mine = [u for u in here if st.units[u].side == side]
    listed = list(o.units)
    if sorted(set(listed)) != sorted(listed):
        sim.v("7.42", "a unit is listed twice", o)
        return
    missing = [u for u in listed if u not in mine]
    if missing:
        sim.v("7.42", f"{', '.join(missing)} not in {h} (at the end of the orders)", o, missing[0])
        return
    naval = [u for u in mine if not game.is_air(u)]
    if any(u not in listed for u in naval):
        sim.v("7.42", f"list every naval unit in {h}: {' '.join(naval)}", o)
        return
    air_listed = [u for u in listed if game.is_air(u)]
    naval_listed = [u for u in listed if not game.is_air(u)]
    if listed != air_listed + naval_listed:
        sim.v("7.43", "air units always sit above the naval units of their hex", o)
        return
    others = [u for u in here if u not in listed]
    air_rest = [u for u in others if game.is_air(u)]
    new = tuple(air_listed + air_rest + naval_listed + [u for u in others if not game.is_air(u)])
    sim.state = normalise(game, st.with_stack_order(h, new), h)
    sim.events.append(Event("stack", "7.42", f"{h} stacked " + " ".join(new), {"hex": h}))


# ---- movement -----------------------------------------------------------------------------


def simulate_movement(game: Game, state: GameState, side: str, orders: tuple[Order, ...]) -> Sim:
    """Carry out a Movement Phase's orders one at a time [5.0], collecting every problem."""
    sim = Sim(state)
    moved: set[str] = set()
    cv_moved: set[str] = set()
    end_checks: list[tuple[Order, str]] = []
    for o in orders:
        if o.verb == "option":
            _option(game, sim, side, o)
    for o in orders:
        st = sim.state
        if o.verb == "move":
            u = o.units[0]
            if u not in st.units:
                continue
            if u in moved:
                sim.v("5.1", f"{u} has already moved this phase", o, u)
                continue
            moved.add(u)
            cv = carrier_of_box(st.units[u].box)
            if cv and cv in cv_moved and game.flags.carrier_air_moves_first:
                sim.v(
                    "9.63",
                    f"{u} leaves {cv} after {cv} has moved; air units leaving a "
                    "carrier move before it",
                    o,
                    u,
                    hint=f"put this line above the move of {cv}",
                )
                continue
            if st.units[u].location is None and cv is None:
                sim.v("5.1", f"{u} is not on the map", o, u)
                continue
            probs = check_path_5_0(game, st, u, o.hexes)
            if probs:
                for p in probs:
                    word = o.hexes[p.index] if p.index < len(o.hexes) else None
                    sim.v(p.rule, p.message, o, word, u, p.hint)
                continue
            frm = start_hex(game, st, u)
            sim.state = move_piece(game, st, u, o.hexes[-1])
            if game.unit(u).type == "CV":
                cv_moved.add(u)
            sim.events.append(
                Event(
                    "move",
                    "5.0",
                    f"{u} {frm} -> {' '.join(path_after_start(frm, o.hexes))}",
                    {"unit": u, "from": frm, "path": list(o.hexes)},
                )
            )
        elif o.verb in ("cap", "box"):
            _carrier_order(game, sim, side, o, end_checks)
        elif o.verb == "base":
            end_checks.append((o, "base"))
        elif o.verb == "stack":
            end_checks.append((o, "stack"))
    for o, what in end_checks:
        st = sim.state
        u = o.units[0] if o.units else ""
        if what == "base":
            if u not in st.units:
                continue
            h = o.hexes[0]
            if st.units[u].location != h:
                sim.v(
                    "9.22",
                    f"{u} ends its move in {st.units[u].location or 'no hex'}, not {h}",
                    o,
                    h,
                    u,
                )
            elif not game.is_air(u) or not airbase_usable_9_16(game, st, u, h):
                if closed_without_14_3(game, st, u, h):
                    sim.v(
                        "14.3",
                        f"{h} is an airbase of {game.country_name(h)}: used only with optional "
                        "rule 14.3, which this game does not use",
                        o,
                        h,
                        u,
                    )
                else:
                    sim.v("9.13", f"{h} is not an airbase {u} may use", o, h, u)
        elif what == "cap":
            cv = o.carrier or ""
            if st.units[u].location is None or st.units[u].location != st.units[cv].location:
                sim.v("9.62", f"{u} must end in the hex of {cv} to fly CAP over it", o, u, u)
        elif what == "stack":
            _stack_order(game, sim, side, o)
    _grounding_9_15(game, state, sim, side, orders)
    if game.flags.refuse_overstack:
        for h, (n, a) in overstacked_7_0(game, sim.state, side).items():
            sim.v("7.0", f"{h} would hold {n} naval / {a} air units over the limit", None)
    return sim


def _grounding_9_15(
    game: Game, start: GameState, sim: Sim, side: str, orders: tuple[Order, ...]
) -> None:
    """A NATO air unit may land at another NATO nation's base (and be grounded) only if it
    cannot reach a base of its own nationality [9.15]."""
    from referee.rules.sixth_fleet_1975.movement import reachable

    if side != game.flags.nato_side:
        return
    st = sim.state
    for o in orders:
        if o.verb != "move" or o.units[0] not in st.units:
            continue
        u = o.units[0]
        loc = st.units[u].location
        if (
            loc is None
            or not game.is_air(u)
            or "returning" not in st.units[u].status
            or airbase_usable_9_16(game, st, u, loc)
            or not airbase_usable_9_16(game, st, u, loc, any_friendly=True)
        ):
            continue
        own = [
            r.hex
            for r in reachable(game, start, u).values()
            if r.may_end and airbase_usable_9_16(game, start, u, r.hex)
        ]
        if own:
            sim.v(
                "9.15",
                f"{u} can reach a base of its own nationality ({', '.join(own)}); "
                "it may land at another NATO nation's base only if it cannot",
                o,
                None,
                u,
            )


def _option(game: Game, sim: Sim, side: str, o: Order) -> None:
    """``option 14.2``: the Soviet player violates neutral air space [14.2]."""
    st = sim.state
    if o.value != "14.2":
        sim.v(
            o.value or "14",
            f"option {o.value} is not a choice a player announces in a "
            "Movement Phase (only 14.2 is)",
            o,
        )
        return
    if "14.2" not in st.options:
        sim.v("14.2", "optional rule 14.2 is not in use in this game", o)
        return
    if side != game.flags.soviet_side:
        sim.v("14.2", "only the Soviet player may violate neutral air space", o)
        return
    if st.data.get("neutral_airspace"):
        sim.v("14.2", "neutral air space has already been violated", o)
        return
    sim.state = st.with_data(neutral_airspace=True)
    sim.events.append(
        Event(
            "option",
            "14.2",
            f"{side} violates neutral air space ({game.flags.neutral_airspace_vp} VP at the end)",
            {},
        )
    )


def _carrier_order(
    game: Game, sim: Sim, side: str, o: Order, end_checks: list[tuple[Order, str]]
) -> None:
    """``cap UNIT CV`` [9.62A] and ``box UNIT CV`` [9.62B]."""
    st = sim.state
    u, cv = o.units[0], o.carrier or ""
    if u not in st.units or cv not in st.units:
        return
    ud, cd = game.unit(u), game.unit(cv)
    if not (ud.category == "air" and ud.has("carrier")):
        sim.v("9.11", f"{u} is not a carrier-based air unit", o, u, u)
        return
    if cd.type != "CV" or cd.nationality != ud.nationality:
        sim.v("9.62", f"{cv} is not a carrier of {u}'s nationality", o, cv, u)
        return
    if st.units[cv].location is None:
        sim.v("9.62", f"{cv} is not on the map", o, cv, u)
        return
    if o.verb == "cap":
        if carrier_of_box(st.units[u].box) == cv:
            loc = st.units[cv].location
            assert loc is not None
            sim.state = move_piece(game, st, u, loc)
            sim.events.append(Event("cap", "9.62", f"{u} launched on CAP over {cv}", {"unit": u}))
        else:
            end_checks.append((o, "cap"))
        return
    if carrier_of_box(st.units[u].box) == cv:
        return
    if st.units[u].location != st.units[cv].location:
        sim.v("9.62B", f"{u} must be in the hex of {cv} to go into its holding box", o, u, u)
        return
    if len(box_contents(st, cv)) >= HOLDING_BOX_LIMIT:
        sim.v("9.62B", f"the holding box of {cv} is full ({HOLDING_BOX_LIMIT})", o, cv, u)
        return
    sim.state = to_box(st, u, cv)
    sim.events.append(Event("box", "9.62", f"{u} lands in the holding box of {cv}", {"unit": u}))


# ---- reinforcement --------------------------------------------------------------------------


def simulate_reinforcement(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...]
) -> Sim:
    """Place the reinforcements [12.2x]; they may not be delayed [12.2]."""
    sim = Sim(state)
    due = dict(due_12_2(game, state, side))
    placed: set[str] = set()
    for o in orders:
        st = sim.state
        if o.verb == "stack":
            continue
        if o.verb != "place":
            sim.v("12.2", f"'{o.verb}' is not a reinforcement order", o)
            continue
        u = o.units[0]
        if u not in due:
            sim.v("12.2", f"{u} is not a reinforcement arriving now", o, u, u)
            continue
        if u in placed:
            sim.v("12.2", f"{u} is placed twice", o, u, u)
            continue
        placed.add(u)
        r = due[u]
        if o.mode in ("cap", "box"):
            cv = o.carrier or ""
            ud = game.unit(u)
            if (
                cv not in st.units
                or st.units[cv].location is None
                or game.unit(cv).type != "CV"
                or game.unit(cv).nationality != ud.nationality
                or not ud.has("carrier")
            ):
                sim.v(
                    "9.62",
                    f"{u} cannot go to {cv}: place the carrier first, same "
                    "nationality, carrier-based air only",
                    o,
                    cv,
                    u,
                )
                continue
            if o.mode == "box":
                if len(box_contents(st, cv)) >= HOLDING_BOX_LIMIT:
                    sim.v("9.62B", f"the holding box of {cv} is full", o, cv, u)
                    continue
                sim.state = to_box(st, u, cv)
            else:
                loc = st.units[cv].location
                assert loc is not None
                sim.state = move_piece(game, st, u, loc)
            continue
        h = o.hexes[0]
        ok = entry_hexes_12_2(game, st, u, r)
        if h not in ok:
            sim.v(
                r.rule or "12.2",
                f"{u} may not be placed in {h}",
                o,
                h,
                u,
                hint=("legal: " + " ".join(ok)) if ok else "no legal hex",
            )
            continue
        sim.state = move_piece(game, st, u, h)
        sim.events.append(
            Event("reinforce", r.rule or "12.2", f"{u} arrives in {h}", {"unit": u, "hex": h})
        )
    for u, r in sorted(due.items()):
        if u not in placed and entry_hexes_12_2(game, sim.state, u, r):
            sim.v(
                "12.2",
                f"{u} must be placed now (reinforcements may not be delayed)",
                None,
                None,
                u,
                hint=f"place {u} HEX",
            )
    for o in orders:
        if o.verb == "stack":
            _stack_order(game, sim, side, o)
    return sim


# ---- combat --------------------------------------------------------------------------------


def check_combat(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...]
) -> list[Violation]:
    """Every attack legal as declared, in order [7.44][8.1x][8.3x][8.4x]; every obligated hex
    attacks or retreats [8.21]-[8.24]; retreats and advances allowed [8.24][8.5]."""
    sim = Sim(state)
    rec = phase_record(state)
    attacks_from: set[str] = set()
    targets_by_hex: dict[str, set[str]] = {}
    declared_targets: set[str] = set()
    for o in orders:
        if o.verb != "attack":
            continue
        if any(u not in state.units for u in o.units) or any(
            t not in state.units for t in o.targets if not t.startswith("hex:")
        ):
            continue
        calc, probs = analyse_attack(game, state, side, o.units, o.targets, rec)
        if len(o.targets) == 1 and o.targets[0].startswith("hex:"):
            h = o.targets[0][4:]
            occupants = set(state.stacks.get(h, ()))
            probs = [
                p
                for p in probs
                if not (
                    p.rule == "10.44" and "occupy" in p.message and occupants <= declared_targets
                )
            ]
        for p in probs:
            sim.v(p.rule, p.message, o, p.word, hint=p.hint)
        loc = state.units[o.units[0]].location
        if loc:
            attacks_from.add(loc)
        rec["used"].extend(o.units)
        if calc is not None:
            rec["attacked"].extend(calc.targets)
            declared_targets.update(calc.targets)
            for a in o.units:
                targets_by_hex.setdefault(calc.target_hex, set()).add(a)
    retreats = {o.units[0]: o for o in orders if o.verb == "retreat" and o.mode == "to"}
    must: set[str] = set()
    for h, _units in obligated_hexes_8_21(game, state, side).items():
        if h in attacks_from:
            continue
        best = best_attacks_from(game, state, side, h)
        if best:
            b = best[0]
            sim.v(
                "8.21",
                f"units in {h} are in an enemy zone of control and must attack "
                f"(e.g. attack {' '.join(b.attackers)} -> {' '.join(b.targets)} at "
                f"{fmt(b.differential)})",
                None,
                hint=f"attack {' '.join(b.attackers)} -> {' '.join(b.targets)}",
            )
            continue
        for u in must_retreat_8_24(game, state, side, h):
            must.add(u)
            opts = retreat_hexes_8_71(game, state, u) or displacement_hexes_8_71(game, state, u)
            if u not in retreats and len(opts) > 1:
                sim.v(
                    "8.24",
                    f"{u} in {h} cannot attack at 0 or better and must retreat; "
                    f"choose the hex ({' '.join(opts)})",
                    None,
                    None,
                    u,
                    hint=f"retreat {u} -> {opts[0]}",
                )
    for u, o in retreats.items():
        if u not in state.units:
            continue
        if u not in must:
            sim.v(
                "8.24",
                f"{u} is not obliged to retreat: the phasing player retreats only "
                "units that cannot make a mandatory attack",
                o,
                u,
                u,
            )
            continue
        opts = retreat_hexes_8_71(game, state, u) or displacement_hexes_8_71(game, state, u)
        if o.hexes[0] not in opts:
            sim.v(
                "8.71",
                f"{u} may not retreat into {o.hexes[0]}",
                o,
                o.hexes[0],
                u,
                hint=("legal: " + " ".join(opts))
                if opts
                else "no legal retreat: it is eliminated; leave the order out",
            )
    per_hex: dict[str, int] = {}
    for o in orders:
        if o.verb != "advance":
            continue
        h = o.hexes[0]
        allowed = targets_by_hex.get(h, set())
        for u in o.units:
            if u not in state.units:
                continue
            if u not in allowed:
                sim.v("8.5", f"{u} may advance into {h} only after attacking a unit in it", o, u, u)
                continue
            if entry_cost_5_12(game, state, u, h) is None:
                sim.v("8.5", f"{u} cannot enter the terrain of {h}", o, u, u)
            per_hex[h] = per_hex.get(h, 0) + 1
        if per_hex.get(h, 0) > game.flags.advance_limit:
            sim.v("8.5", f"at most {game.flags.advance_limit} units may advance into {h}", o)
    return sim.violations


# ---- answers and standing orders --------------------------------------------------------


def check_answers(state: GameState, doc: OrdersDoc) -> list[Violation]:
    out: list[Violation] = []
    if not state.pending:
        for a in doc.answers:
            out.append(Violation("4.0", "no decision is pending", a.pos))
        return out
    pd = state.pending[0]
    if not doc.answers:
        out.append(
            Violation(
                "4.0",
                f"expected: answer {pd.id} <one of {', '.join(pd.options)}>",
                SourcePos(doc.file, 1, 1),
            )
        )
    for a in doc.answers:
        if a.decision != pd.id:
            out.append(
                Violation(
                    "4.0",
                    f"decision {a.decision} is not pending (pending: {pd.id})",
                    a.pos_of(a.decision or ""),
                    hint=f"answer {pd.id} ...",
                )
            )
        elif a.value not in pd.options:
            out.append(
                Violation(
                    pd.rule,
                    f"{a.value!r} is not an option of {pd.id}: {', '.join(pd.options)}",
                    a.pos,
                    hint=did_you_mean(a.value or "", list(pd.options)),
                )
            )
        elif doc.side is not None and doc.side != pd.side:
            out.append(Violation("4.0", f"{pd.id} is {pd.side}'s decision", a.pos))
    if len(doc.answers) > 1:
        out.append(Violation("4.0", "answer one pending decision per file", doc.answers[1].pos))
    return out


def check_standing(game: Game, state: GameState, side: str, doc: OrdersDoc) -> list[Violation]:
    out: list[Violation] = []
    for o in doc.standing:
        if o.verb == "advance" and o.units:
            for u in o.units:
                if u in state.units and game.is_air(u):
                    out.append(
                        Violation(
                            "8.72",
                            f"{u}: air units do not advance after combat by standing order",
                            o.pos_of(u),
                            u,
                        )
                    )
    return out


def apply_standing(state: GameState, side: str, doc: OrdersDoc) -> GameState:
    """Standing orders replace the side's previous standing orders."""
    if "standing" not in _sections_with_standing(doc):
        return state
    standing = dict(state.data.get("standing") or {})
    standing[side] = [o.to_json() for o in doc.standing]
    return state.with_data(standing=standing)


def _sections_with_standing(doc: OrdersDoc) -> set[str]:
    return {"standing"} if doc.standing else set()


def unplace_all(state: GameState, units: list[str]) -> GameState:
    for u in units:
        us = state.units[u]
        state = state.with_unit(UnitState(us.id, us.side, None, "unplaced", us.status))
    return state
