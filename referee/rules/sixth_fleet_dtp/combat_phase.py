"""[DTP 8.2] the combat phase on a game position: checking and carrying out one impulse.

The phase record lives in ``state.data``: ``impulses`` (whose impulse, who has passed, the
answer-back chance [DTP 8.2, 8.21]), ``combat`` (``attacked``: units that have attacked this
phase, once each [8.13]; ``engaged``: units attacked this phase, for the stack order [7.44] and
CAP [DTP 8.233]), ``strike`` (a strike that made contact and waits for the defender's bounces
[DTP 8.232]), ``damage`` (unit -> level [DTP 8.54]) and ``recycle`` (aborted air unit -> the
turn it returns [DTP 8.51]). Detected markers are the unit statuses of ``detection.STATUS``.

An impulse is one of: ``attack`` (ships and subs on anything, air on air), ``strike`` (air on
ships, subs or a base: Strike Contact first [DTP 8.15]), ``pass`` [DTP 8.2]; while a strike
waits, the defender's ``bounce`` orders (an empty bounce file lets it go on) [DTP 8.232]. An
attack or strike on ``hex:NNNN`` is on a base or Defended hex (``base_combat.py``)
[DTP 10.44].
:func:`check_impulse_8_2` lists the problems (no dice); :func:`carry_out_impulse_8_2` applies
a checked impulse with the dice; ``flow.py`` calls both for the ruleset object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.air import box_contents
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import eliminate
from referee.rules.sixth_fleet_dtp import (
    air,
    answer_back,
    base_combat,
    bases,
    combat,
    contact,
    denmark_strait,
    hits,
    impulses,
    special_bases,
    strikes,
    westpac_hostilities,
    westpac_national,
    westpac_options,
)
from referee.rules.sixth_fleet_dtp.air import inactive_problems_9_23
from referee.rules.sixth_fleet_dtp.denmark_strait import above_light_line_11_3_8
from referee.rules.sixth_fleet_dtp.detection import STATUS, Unit
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.flags import flags_of
from referee.rules.sixth_fleet_dtp.removal import unit_of
from referee.rules.sixth_fleet_dtp.sequence import is_night_4_0

NAVAL = ("surface", "submarine")
HEX = "hex:"
"""An attack or strike on a base or Defended hex names it ``hex:NNNN`` [DTP 10.44]."""


def record(state: GameState) -> dict[str, list[str]]:
    rec = facts_of(state).combat or {}
    return {"attacked": list(rec.get("attacked", ())), "engaged": list(rec.get("engaged", ()))}


def is_detected(game: Game, state: GameState, pid: str) -> bool:
    """Air units and bases are always detected [DTP 6.0b]; ships and subs by their marker."""
    cat = game.category(pid)
    return cat == "air" or STATUS[cat] in state.units[pid].status


def _situation(game: Game, state: GameState, answering: Sequence[str] = ()) -> combat.Situation:
    """The facts an attack reads from the position: turn, night [DTP 4.0], damage, the units
    answering back [DTP 8.21], the daylight air units [9.52]."""
    return combat.Situation(
        turn=state.turn,
        night=is_night_4_0(state.turn),
        damage=dict(facts_of(state).damage),
        answering=frozenset(answering),
        daylight=frozenset(u for u in state.units if game.unit(u).has("daylight")),
    )


def _one_hex(state: GameState, ids: Sequence[str]) -> str | None:
    locs = {state.units[i].location for i in ids}
    return next(iter(locs)) if len(locs) == 1 else None


def _stack_problems_7_44(
    game: Game, state: GameState, attackers: list[Unit], targets: Sequence[str], thex: str
) -> list[Violation]:
    """Top down [7.44]: every unit above a target engaged this phase, in this attack, or one
    these attackers may skip [7.45; digest 9.2 flag]."""
    engaged = set(record(state)["engaged"]) | set(targets)
    stack = list(state.stacks.get(thex, ()))
    skip = flags_of(state).skip_harmless_units
    for t in targets:
        for above in stack[: stack.index(t)]:
            if above in engaged or strikes.may_skip_7_45(attackers, unit_of(game, above), skip):
                continue
            return [
                Violation(
                    "7.44",
                    f"{t} may not be attacked before {above}, above it in the stack",
                    code="stack-order",
                    word=t,
                    hint=f"attack {above} first",
                )
            ]
    return []


def check_attack(game: Game, state: GameState, side: str, o: Order) -> list[Violation]:
    """One ``attack`` or ``strike`` order against the kept SPI rules and DTP's [8.1, 8.13,
    8.14, 8.15, 8.231, 8.233, 7.44]. The steps: a base attack goes to its own check [DTP
    10.4]; the parties [8.1, 8.12, 8.34]; the kind of order [DTP 8.15]; who may attack again,
    reach and ice [8.13, 8.1, DTP 11.3 rule 6]; strength and the answer [8.41, DTP 8.21,
    8.231]; detection [DTP 8.14, 8.231]; the stack's order [7.44] and CAP first [DTP 8.233]."""
    rec = record(state)
    if any(t.startswith(HEX) for t in o.targets):
        answering = impulses.may_answer_8_21(facts_of(state).impulses or {}, side, o.units)
        sit = _situation(game, state, answering)
        return base_combat.check_base_attack(
            game, state, side, o, rec["attacked"], sit, flags_of(state)
        )
    bad = _parties_8_1(state, side, o)
    if bad:
        return bad
    probs = inactive_problems_9_23([(a, state.units[a].status) for a in o.units], o.verb)
    ahex, thex = _one_hex(state, o.units), _one_hex(state, o.targets)
    if ahex is None or thex is None:
        return [Violation("8.12", "attackers, and targets, must each be in one hex", code="hexes")]
    cats = {game.category(t) for t in o.targets}
    if len(cats) != 1:
        return [
            Violation("8.34", "targets must be all air, all surface or all sub units", code="mixed")
        ]
    tcat = cats.pop()
    attackers = [unit_of(game, a) for a in o.units]
    probs += _kind_8_15(o, attackers, tcat)
    probs += [p for p in (air.grounded_problem(game, state, a) for a in o.units) if p]
    again = [a for a in o.units if a in rec["attacked"]]
    if again:
        probs.append(
            Violation(
                "8.13",
                f"{', '.join(again)} already attacked this phase",
                code="attacked-twice",
                word=again[0],
            )
        )
    probs += _reach_8_1(game, o, ahex, thex)
    probs += _strength_8_41(game, state, side, o, attackers, tcat)
    probs += _detection_8_14(game, state, o, attackers)
    probs += _stack_problems_7_44(game, state, attackers, o.targets, thex)
    if o.verb == "strike":
        cap = [
            u
            for u in state.stacks.get(thex, ())
            if game.category(u) == "air" and state.units[u].side != side and u not in rec["engaged"]
        ]
        probs += strikes.cap_first_8_233(attackers, cap)
    return probs


def _parties_8_1(state: GameState, side: str, o: Order) -> list[Violation]:
    """Attackers and targets on the map, the attackers one's own, the targets the enemy's
    [8.1]."""
    for u in (*o.units, *o.targets):
        if u not in state.units or state.units[u].location is None:
            return [Violation("8.1", f"{u} is not on the map", code="not-on-map", word=u)]
    if any(state.units[u].side != side for u in o.units):
        return [
            Violation("8.1", "attackers must be your own units", code="not-own", word=o.units[0])
        ]
    if any(state.units[t].side == side for t in o.targets):
        return [
            Violation("8.1", "targets must be enemy units", code="own-target", word=o.targets[0])
        ]
    return []


def _kind_8_15(o: Order, attackers: list[Unit], tcat: str) -> list[Violation]:
    """Air units on ships or subs make a ``strike``, everything else an ``attack`` [DTP 8.15]."""
    air_on_naval = all(a.category == "air" for a in attackers) and tcat in NAVAL
    if o.verb == "strike" and not air_on_naval:
        return [Violation("DTP 8.15", "a strike is air units on ships or subs", code="strike-kind")]
    if o.verb == "attack" and air_on_naval:
        return [
            Violation(
                "DTP 8.15", "air on ships or subs is a `strike` (contact first)", code="use-strike"
            )
        ]
    return []


def _reach_8_1(game: Game, o: Order, ahex: str, thex: str) -> list[Violation]:
    """Each attacker's range to the target hex [8.1]; under the pack ice only what may reach
    a sub there [DTP 11.3 rule 6]."""
    probs = strikes.reach_problems_8_1(
        [(a, game.board.distance(ahex, thex)) for a in o.units], thex
    )
    ice = denmark_strait.under_ice_problem_11_3_6(
        "attack",
        game.board.terrain(thex),
        [(a, game.unit(a).type, game.board.terrain(ahex)) for a in o.units],
        game.board.distance(ahex, thex),
        thex,
    )
    return [*probs, ice] if ice is not None else probs


def _strength_8_41(
    game: Game, state: GameState, side: str, o: Order, attackers: list[Unit], tcat: str
) -> list[Violation]:
    """Some strength against the target's type [8.41]: a D2 unit has it only when answering
    back [DTP 8.21]; a unit damaged by a first strike may not answer [DTP 8.231]."""
    irec = facts_of(state).impulses or {}
    answering = impulses.may_answer_8_21(irec, side, o.units)
    sit = _situation(game, state, answering)
    if sum(combat.strength_8_43(a, tcat, sit) for a in attackers) > 0:
        return []
    lost = impulses.lost_answer_8_231(irec, side, o.units)
    if lost:
        return [
            Violation(
                "DTP 8.231",
                f"{', '.join(lost)} damaged by a first strike may not answer back "
                "(8.21 and 8.22 do not apply) and has no strength left [8.41]",
                code="no-answer-to-first-strike",
            )
        ]
    return [
        Violation(
            "8.41",
            f"these units have no strength against {tcat} units "
            "(D2 units attack only when answering back [DTP 8.21])",
            code="no-strength",
        )
    ]


def _detection_8_14(
    game: Game, state: GameState, o: Order, attackers: list[Unit]
) -> list[Violation]:
    """A first strike's conditions [DTP 8.231]; otherwise a naval attacker needs a Detected
    target [DTP 8.14]."""
    if o.mode == "first-strike":
        return strikes.first_strike_8_231(
            any(is_detected(game, state, a) for a in o.units if game.category(a) != "air"),
            attackers[0],
            [unit_of(game, t) for t in o.targets],
            all(is_detected(game, state, t) for t in o.targets),
        )
    probs: list[Violation] = []
    if any(a.category in NAVAL for a in attackers):
        for t in o.targets:
            probs += strikes.detected_target_8_14(
                attackers[0], unit_of(game, t), is_detected(game, state, t)
            )
    return probs


def strike_stack_8_232(game: Game, state: GameState, strike: Mapping[str, Any]) -> list[str]:
    """The air units of the striking side in the strike's hex, top first: the strike's own
    units and the escorts flying with them, whom a bounce may attack [DTP 8.232]."""
    return [
        u
        for u in state.stacks.get(strike["hex"], ())
        if state.units[u].side == strike["side"] and game.category(u) == "air"
    ]


def _escorts_first_8_232(
    game: Game, state: GameState, o: Order, stack: Sequence[str], engaged: Sequence[str]
) -> list[Violation]:
    """Stack order still applies to a bounce: an escort not yet attacked this phase is
    bounced before the bombers under it, unless the bouncers may skip it [DTP 8.232, 7.44,
    7.45]."""
    bouncers = [unit_of(game, b) for b in o.units if b in state.units]
    skip = flags_of(state).skip_harmless_units
    for t in o.targets:
        for above in stack[: stack.index(t)]:
            if above in engaged or above in o.targets:
                continue
            if strikes.may_skip_7_45(bouncers, unit_of(game, above), skip):
                continue
            return [
                Violation(
                    "DTP 8.232",
                    f"{above} flies above {t} and has not been attacked this phase: bounce it "
                    "first (stack order [7.44])",
                    code="escort-first",
                    word=t,
                    hint=f"bounce {' '.join(o.units)} -> {above}",
                )
            ]
    return []


def check_impulse_8_2(
    game: Game, state: GameState, side: str, orders: Sequence[Order]
) -> list[Violation]:
    """The problems of one impulse file: whose turn [DTP 8.2], one attack, strike or pass,
    and that order's own problems; or, while a strike waits, the defender's bounces
    [DTP 8.232]."""
    strike = facts_of(state).strike
    if strike:
        if side != strike["defender"]:
            return [
                Violation(
                    "DTP 8.232",
                    f"waiting for {strike['defender']}'s bounces",
                    code="waiting-bounce",
                    hint=f"the strike on {strike.get('hex')} is answered first (side: "
                    f"{strike['defender']}); {side}'s orders come after",
                )
            ]
        probs: list[Violation] = []
        rec = record(state)
        for o in orders:
            if o.verb != "bounce":
                probs.append(
                    Violation("DTP 8.232", "only bounces answer a strike", code="not-bounce")
                )
                continue
            for b in o.units:
                grounded = air.grounded_problem(game, state, b)
                probs += [grounded] if grounded else []
                if b in state.units:
                    probs += inactive_problems_9_23([(b, state.units[b].status)], "bounce")
                probs += strikes.may_bounce_8_232(
                    unit_of(game, b),
                    b in rec["attacked"],
                    game.board.distance(state.units[b].location or "", strike["hex"]) <= 1,
                )
            pooled = westpac_national.pooled_problem_11_5081(game, o)  # [DTP 11.5081]
            peace = westpac_hostilities.combat_problem_11_5102(game, state, o)  # [11.51021]
            probs += [p for p in (peace, pooled) if p is not None]
            stack = strike_stack_8_232(game, state, strike)
            if not set(o.targets) <= set(stack):
                probs.append(
                    Violation(
                        "DTP 8.232",
                        "bounce only the striking stack's air units: the strike and its escorts "
                        f"({', '.join(stack)})",
                        code="bounce-target",
                    )
                )
            else:
                probs += _escorts_first_8_232(game, state, o, stack, rec["engaged"])
        return probs
    probs = impulses.turn_problems_8_2(facts_of(state).impulses or {}, side)
    acts = [o for o in orders if o.verb in ("attack", "strike", "pass")]
    if len(acts) != 1:
        one = Violation(
            "DTP 8.2",
            f"an impulse is one attack, one strike or a pass; this file has {len(acts)}",
            code="one-per-impulse",
            hint="send one of them now and the next in a later impulse",
        )
        return [*probs, one]
    if acts[0].verb != "pass":
        pooled = westpac_national.pooled_problem_11_5081(game, acts[0])  # [DTP 11.5081]
        peace = westpac_hostilities.combat_problem_11_5102(game, state, acts[0])  # [11.51021]
        probs += [p for p in (peace, pooled) if p is not None]
        probs += check_attack(game, state, side, acts[0])
        probs += westpac_options.sg_attack_problems_11_5093(game, state, acts[0])
    return probs


# ---- carrying out ------------------------------------------------------------------------------
def _apply(
    game: Game,
    state: GameState,
    out: combat.AttackOutcome,
    attackers: Sequence[str],
    targets: Sequence[str],
    events: list[Event],
    hold: bool = False,
) -> tuple[GameState, list[str]]:
    """An attack's outcome on the position: damage levels [DTP 8.54], sunk ships eliminated
    [DTP 8.55], aborted air off to the turn track [DTP 8.51], attackers Detected [DTP 8.234],
    the phase record [8.13, 7.44]. Returns the state and the enemy units put out of action
    (sunk, D2 or aborted: they may answer back [DTP 8.21, 8.22]). With ``hold`` (an attack
    they may answer) the sunk and aborted units stay until their answer (``answer_back``)."""
    events.extend(out.events)
    damage = dict(facts_of(state).damage)
    before = dict(damage)
    hurt: list[str] = []
    for t, lvl in out.damage.items():
        damage[t] = lvl
        if lvl >= 2 and lvl > before.get(t, 0):  # D2 now, or sunk (from D2 too) [DTP 8.22]
            hurt.append(t)
    state = DtpFacts.put(state, damage=damage)
    sunk: dict[str, tuple[str, int]] = {}
    for t, lvl in sorted(out.damage.items()):
        sunk_at = denmark_strait.sunk_at_11_3_7(game.unit(t).flags)
        if lvl >= sunk_at:
            rule = "DTP 8.55" if sunk_at == hits.SUNK else "DTP 11.3"
            sunk[t] = (rule, sunk_at)
        elif lvl >= 2 > before.get(t, 0) and box_contents(state, t):
            events.append(
                Event(
                    "carrier",
                    "DTP 9.27",
                    f"{t} at D{lvl}: {', '.join(box_contents(state, t))} stuck aboard; no air "
                    "operations [DTP 8.55]",
                    {"unit": t},
                )
            )
    hurt += sorted(out.aborted)
    owner = state.units[hurt[0]].side if hurt else None
    passed = (facts_of(state).impulses or {}).get("passed", ())
    if hold and owner is not None and owner not in passed:  # he has an impulse to answer in
        state = answer_back.hold_8_22(state, owner, sunk, out.aborted, events)
    else:
        state = _remove_at_once(game, state, sunk, out.aborted, events)
    for a in out.detected:
        u = state.units[a]
        if u.location is not None:
            marker = STATUS[game.category(a)]
            state = state.with_unit(UnitState(u.id, u.side, u.location, u.box, u.status | {marker}))
    rec = record(state)
    rec["attacked"] = sorted(set(rec["attacked"]) | set(attackers))
    rec["engaged"] = sorted(set(rec["engaged"]) | set(targets))
    return DtpFacts.put(state, combat=rec), hurt


def _remove_at_once(
    game: Game,
    state: GameState,
    sunk: Mapping[str, tuple[str, int]],
    aborted: Mapping[str, int],
    events: list[Event],
) -> GameState:
    """Sunk ships removed [DTP 8.55] with the carrier air aboard [DTP 9.27], aborted air to
    the turn track [DTP 8.51], at once: after a first strike or a bounce, which allow no
    answer [DTP 8.231, 8.232]."""
    for t, (rule, level) in sorted(sunk.items()):
        for a in box_contents(state, t):  # carrier air aboard sinks with it [DTP 9.27]
            state = eliminate(game, state, a, "DTP 9.27", f"aboard {t}, sunk", events)
        state = eliminate(game, state, t, rule, f"sunk at D{level}", events)
    recycle = dict(facts_of(state).recycle)
    for t, turn in sorted(aborted.items()):
        u = state.units[t]
        state = state.with_unit(UnitState(u.id, u.side, None, "recycle", frozenset()))
        recycle[t] = turn
    return DtpFacts.put(state, recycle=recycle)


def _target_unit(game: Game, state: GameState, hex_id: str, pid: str) -> Unit:
    """A target's values for the CRT; the convoy's ``*`` ECM is that of the unit stacked
    directly above it, 0 with none [DTP 11.3 rule 7]."""
    unit = unit_of(game, pid)
    if denmark_strait.CONVOY_FLAG not in unit.flags:
        return unit
    side = state.units[pid].side
    stack = [u for u in state.stacks.get(hex_id, ()) if state.units[u].side == side]  # top first
    above = [unit_of(game, u).value("ECM") for u in reversed(stack[: stack.index(pid)])]
    return replace(unit, values={**unit.values, "ECM": denmark_strait.convoy_ecm_11_3_7(above)})


def _resolve(
    game: Game,
    state: GameState,
    side: str,
    attackers: Sequence[str],
    targets: Sequence[str],
    dice: Dice,
    events: list[Event],
    hold: bool = False,
) -> tuple[GameState, list[str]]:
    """One attack on units, rolled and applied (:func:`_apply`; ``hold``: its sunk and
    aborted targets wait for their answer [DTP 8.21, 8.22])."""
    answering = impulses.may_answer_8_21(facts_of(state).impulses or {}, side, attackers)
    sit = _situation(game, state, answering)
    thex = state.units[targets[0]].location or ""
    # day-rated air is not halved when its target is on or above the Arctic light line
    # [DTP 11.3 rule 8, 9.52]: night does not count there for the attack
    target_hex = game.module.map.hexes.get(thex)
    areas = frozenset(target_hex.areas) if target_hex is not None else frozenset()
    sit = combat.Situation(
        sit.turn,
        denmark_strait.night_applies_11_3_8(sit.night, areas),
        game.board.terrain(thex) == "restricted",
        sit.damage,
        sit.answering,
        sit.daylight,
    )
    order = [t for t in state.stacks.get(thex, ()) if t in targets]
    out = combat.resolve_attack_8_0(
        game.module,
        [unit_of(game, a) for a in attackers],
        [_target_unit(game, state, thex, t) for t in order],
        sit,
        dice,
    )
    return _apply(game, state, out, attackers, order, events, hold)


def _sides(game: Game) -> list[str]:
    return list(game.sides)


def _after(
    game: Game, state: GameState, side: str, hurt: Sequence[str], answerable: bool
) -> GameState:
    rec = impulses.after_attack_8_2(
        facts_of(state).impulses or {}, _sides(game), side, hurt, answerable
    )
    return DtpFacts.put(state, impulses=rec)


def _strike_resolves(
    game: Game, state: GameState, strike: Mapping[str, Any], dice: Dice, events: list[Event]
) -> GameState:
    """The strike after the bounces: its units still in the air attack [DTP 8.232]."""
    side = strike["side"]
    left = [u for u in strike["units"] if state.units[u].location is not None]
    state = DtpFacts.put(state, strike=None)
    hurt: list[str] = []
    base = [t[len(HEX) :] for t in strike["targets"] if t.startswith(HEX)]
    targets = [t for t in strike["targets"] if t in state.units and state.units[t].location]
    if left and base:
        sit = _situation(game, state)
        state = base_combat.resolve_base_attack_10_44(
            game, state, left, base[0], sit, dice, events, flags_of(state)
        )
    elif left and targets:
        state, hurt = _resolve(game, state, side, left, targets, dice, events, hold=True)
    else:
        events.append(Event("strike", "DTP 8.232", "the strike is broken up by the bounces", {}))
    return _after(game, state, side, hurt, True)


def _bounce_event(fighters: Sequence[str], strikers: Sequence[str], why: str = "") -> Event:
    """The bounce itself, before its air-to-air attack's CRT reading [DTP 8.232]: the event
    a reader (and the demo's check) finds the bounce by, citing its own case rather than only
    the CRT's [8.8]."""
    text = f"{', '.join(fighters)} bounce {', '.join(strikers)} before the strike resolves"
    return Event(
        "bounce",
        "DTP 8.232",
        text + (f" ({why})" if why else ""),
        {"units": list(fighters), "targets": list(strikers)},
    )


def carry_out_impulse_8_2(
    game: Game,
    state: GameState,
    side: str,
    orders: Sequence[Order],
    dice: Dice,
    events: list[Event],
    bounce_min_aa: int | None = None,
) -> GameState:
    """Carry out a checked impulse file. A strike that makes contact waits for the defender's
    bounces unless none of his fighters may bounce, or his standing ``bounce min-aa N``
    answers at once (``bounce_min_aa``) [DTP 8.232]. Then the sunk and aborted units whose
    answer this impulse was, or could have been, are removed [DTP 8.22]."""
    state = _impulse(game, state, side, orders, dice, events, bounce_min_aa)
    return answer_back.settle_8_22(game, state, events)


def _impulse(
    game: Game,
    state: GameState,
    side: str,
    orders: Sequence[Order],
    dice: Dice,
    events: list[Event],
    bounce_min_aa: int | None,
) -> GameState:
    strike = facts_of(state).strike
    if strike:
        for o in orders:
            if o.verb == "bounce":
                # a striker an earlier bounce of this file aborted or shot down is gone
                tops = [
                    t
                    for t in strike_stack_8_232(game, state, strike)
                    if t in o.targets and state.units[t].location is not None
                ]
                if tops:
                    events.append(_bounce_event(o.units, tops))
                    state, _ = _resolve(game, state, side, o.units, tops, dice, events)
        return _strike_resolves(game, state, strike, dice, events)
    o = next(x for x in orders if x.verb in ("attack", "strike", "pass"))
    if o.verb == "pass":
        rec = impulses.after_pass_8_2(facts_of(state).impulses or {}, _sides(game), side)
        events.append(Event("pass", "DTP 8.2", f"{side} passes", {}))
        return DtpFacts.put(state, impulses=rec)
    if o.verb == "attack" and o.targets[0].startswith(HEX):
        answering = impulses.may_answer_8_21(facts_of(state).impulses or {}, side, o.units)
        sit = _situation(game, state, answering)
        hex_id = o.targets[0][len(HEX) :]
        state = base_combat.resolve_base_attack_10_44(
            game, state, o.units, hex_id, sit, dice, events, flags_of(state)
        )
        return _after(game, state, side, (), True)
    if o.verb == "attack":
        answerable = o.mode != "first-strike"  # [DTP 8.231]
        state, hurt = _resolve(game, state, side, o.units, o.targets, dice, events, answerable)
        return _after(game, state, side, hurt, answerable)
    return _strike(game, state, side, o, dice, events, bounce_min_aa)


def _strike(
    game: Game,
    state: GameState,
    side: str,
    o: Order,
    dice: Dice,
    events: list[Event],
    bounce_min_aa: int | None,
) -> GameState:
    """Strike Contact [DTP 8.15], then the bounce window [DTP 8.232]."""
    from referee.rules.sixth_fleet_dtp.standing import bouncers_8_232

    base = base_combat.base_at(game, state, o.targets[0][len(HEX) :])
    thex = base.hex if base is not None else state.units[o.targets[0]].location or ""
    origins = facts_of(state).origin  # where each began this turn's air movement
    strikers = [
        (
            a,
            game.value(a, "ECM"),
            special_bases.distance_11_3_2(
                game, origins.get(a, state.units[a].location or thex), thex
            ),
        )
        for a in o.units
    ]
    tgt = contact.Target(
        base.ecm if base is not None else max(game.value(t, "ECM") for t in o.targets),
        base is not None or all(is_detected(game, state, t) for t in o.targets),  # [DTP 6.0b]
        coastal=game.board.terrain(thex) == "coastal",
        restricted=game.board.terrain(thex) == "restricted",
    )
    res, ev = contact.contact_8_15(
        game.module,
        strikers,
        tgt,
        is_night_4_0(state.turn),
        above_light_line_11_3_8(game.module.map, thex),
        dice,
    )
    events.append(ev)
    if not res.contact:
        return _after(game, state, side, (), True)
    defender = next(s for s in game.sides if s != side)
    shex = state.units[o.units[0]].location or ""
    rec = record(state)
    candidates = [
        (
            unit_of(game, u),
            u in rec["attacked"],
            game.board.distance(state.units[u].location or "", shex) <= 1,
        )
        for u in sorted(state.units)
        if state.units[u].side == defender
        and state.units[u].location is not None
        and game.category(u) == "air"
        and air.grounded_problem(game, state, u) is None
        and not inactive_problems_9_23([(u, state.units[u].status)], "bounce")
    ]
    may = [c for c in candidates if not strikes.may_bounce_8_232(*c)]
    pending = {
        "side": side,
        "defender": defender,
        "units": list(o.units),
        "targets": list(o.targets),
        "hex": shex,
    }
    if not may:
        return _strike_resolves(game, state, pending, dice, events)
    if bounce_min_aa is not None:
        for b in bouncers_8_232(candidates, bounce_min_aa):
            top = next((u for u in o.units if state.units[u].location is not None), None)
            if top is not None:
                events.append(_bounce_event([b], [top], "standing: bounce min-aa"))
                state, _ = _resolve(game, state, defender, [b], [top], dice, events)
        return _strike_resolves(game, state, pending, dice, events)
    events.append(Event("strike", "DTP 8.232", f"contact made: {defender} may bounce", pending))
    return DtpFacts.put(state, strike=pending)


def best_differential(game: Game, state: GameState, side: str) -> int | None:
    """The upper bound of ``side``'s best open attack now [DTP 8.2] (``standing.py``): his
    on-map units that have not attacked, with their strength against each target category
    [8.43] (0 at D2 [DTP 8.55]), against the weakest enemy unit of that category within one
    hex (DEF doubled in Restricted Water for ships [8.44]), or an enemy base or Defended hex
    within one hex, with AS against its intrinsic DEF [DTP 10.44] (its friendly units,
    which must go first, only lower the real best)."""
    from referee.rules.sixth_fleet_dtp.standing import best_differential_bound_8_2

    rec = record(state)
    sit = _situation(game, state)
    attack: dict[str, list[tuple[Unit, int]]] = {}
    near: dict[str, list[tuple[Unit, int]]] = {}
    for hex_id, stack in state.stacks.items():
        mine = [u for u in stack if state.units[u].side == side and u not in rec["attacked"]]
        if not mine:
            continue
        for z in game.board.within(hex_id, 1):
            double = 2 if game.board.terrain(z) == "restricted" else 1
            targets = [
                (
                    unit_of(game, t),
                    game.category(t),
                    game.value(t, "DEF") * (double if game.category(t) in NAVAL else 1),
                )
                for t in state.stacks.get(z, ())
                if state.units[t].side != side
            ]
            base = base_combat.base_at(game, state, z)
            if base is not None and base.side != side and base.level < bases.DESTROYED:
                pseudo = Unit(f"{HEX}{z}", base_combat.SURFACE, {"DEF": base.defense})
                targets.append((pseudo, base_combat.SURFACE, base.defense))  # never doubled
            for target, cat, dfn in targets:
                key = f"{hex_id}|{cat}"
                if key not in attack:
                    attack[key] = [
                        (a, combat.strength_8_43(a, cat, sit))
                        for a in (unit_of(game, x) for x in mine)
                    ]
                near.setdefault(key, []).append((target, dfn))
    return best_differential_bound_8_2(attack, near)


def out_of_turn_8_2(state: GameState, side: str) -> list[Violation]:
    """Why ``side`` may not send a combat phase file now, under the case that governs it:
    a strike waiting for the defender's bounces [DTP 8.232], else an impulse out of turn or
    after a pass [DTP 8.2]; empty when ``side`` is awaited."""
    strike = facts_of(state).strike
    if strike:
        if side == strike["defender"]:
            return []
        return [
            Violation(
                "DTP 8.232",
                f"waiting for {strike['defender']}'s bounces",
                code="waiting-bounce",
                hint=f"the strike on {strike.get('hex')} is answered first (side: "
                f"{strike['defender']}); {side}'s orders come after",
            )
        ]
    return impulses.turn_problems_8_2(facts_of(state).impulses or {}, side)


def due_8_2(state: GameState) -> str | None:
    """Who is awaited in the combat phase: the defender while a strike waits for bounces
    [DTP 8.232], else whose impulse it is [DTP 8.2]; ``None`` when both have passed."""
    strike = facts_of(state).strike
    if strike:
        return str(strike["defender"])
    return impulses.due_8_2(facts_of(state).impulses or {})
