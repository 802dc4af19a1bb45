"""Mandatory attacks [8.21]-[8.24], with the exceptions of [6.42], [8.22], [8.5] and [8.75].

Following the digest's procedure: a hex is *obligated* when one of its units is in the ZOC of
an enemy unit that can attack it [8.21][6.42]. One legal attack by any unit of the hex meets
the obligation [8.21][8.23]. If no attack from the hex can reach a differential of 0, each of
its units that has the right strength against some adjacent enemy must retreat [8.24]; units
with no such strength stay [8.22]. Units that advanced [8.5] or already retreated under 8.24
[8.75] are exempt for the rest of the phase.

Both halves of the rule live here: :func:`check_obligations_8_21` is what ``validate`` asks
of a Combat Phase's orders, :func:`retreats_owed_8_24` what the referee carries out when the
attacks are over, and :func:`after_retreat_8_24` what follows such a retreat.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from referee.engine.core import Event, GameState, Violation
from referee.engine.driver import push_front
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.combat import (
    AttackCalc,
    analyse_attack,
    phase_record,
    with_record,
)
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.retreat import (
    RetreatCause,
    retreat_barrier,
    retreat_options_8_71,
)
from referee.rules.sixth_fleet_1975.strengths import (
    attack_strength_8_45,
    can_attack_6_41,
    defense_strength_8_44,
    fmt,
)
from referee.rules.sixth_fleet_1975.zoc import controllers


def _exempt(rec: Mapping[str, list[str]]) -> set[str]:
    return set(rec["retreated_824"]) | set(rec["advanced"])


def obligated_hexes_8_21(
    game: Game, state: GameState, side: str, rec: Mapping[str, list[str]] | None = None
) -> dict[str, list[str]]:
    """Hex -> the non-exempt units of ``side`` there, for every obligated hex, sorted."""
    rec = rec if rec is not None else phase_record(state)
    ex = _exempt(rec)
    out: dict[str, list[str]] = {}
    for hex_id in sorted(state.stacks):
        units = [u for u in state.stacks[hex_id] if state.units[u].side == side and u not in ex]
        if not units:
            continue
        if any(controllers(game, state, hex_id, side, game.category(u)) for u in units):
            out[hex_id] = units
    return out


def adjacent_enemies(game: Game, state: GameState, hex_id: str, side: str) -> list[str]:
    out: list[str] = []
    for n in game.board.neighbours(hex_id):
        out.extend(e for e in state.stacks.get(n, ()) if state.units[e].side != side)
    return sorted(out)


def best_attacks_from(
    game: Game,
    state: GameState,
    side: str,
    hex_id: str,
    rec: Mapping[str, list[str]] | None = None,
) -> list[AttackCalc]:
    """Legal attacks from ``hex_id`` worth trying, best differential first; empty means no
    legal attack [8.24]. For each adjacent enemy unit: all the hex's able units together,
    each unit alone, and every largest group of them that is legal (a smaller group may be
    legal where the whole stack is not, e.g. subs that may skip an air unit above the target
    [7.45] while a fighter in the hex may not) -- see :func:`legal_groups_8_24`."""
    rec = rec if rec is not None else phase_record(state)
    ex = _exempt(rec) | set(rec["used"])
    mine = [u for u in state.stacks.get(hex_id, ()) if state.units[u].side == side and u not in ex]
    found: dict[tuple[tuple[str, ...], tuple[str, ...]], AttackCalc] = {}
    for t in adjacent_enemies(game, state, hex_id, side):
        cat = game.category(t)
        able = tuple(u for u in mine if can_attack_6_41(game, u, cat))
        for group, calc in legal_groups_8_24(game, state, side, able, t, rec):
            found[(group, (t,))] = calc
    return sorted(found.values(), key=lambda c: (-c.differential, c.targets, c.attackers))


# Refusals that no smaller group of attackers can cure: taking units away only lowers the
# attack total [8.45], so a differential below 0 [8.23] or below the CRT [8.9] stays so.
_MONOTONE = frozenset({"below-zero", "below-crt"})


def legal_groups_8_24(
    game: Game,
    state: GameState,
    side: str,
    able: tuple[str, ...],
    target: str,
    rec: Mapping[str, list[str]],
) -> list[tuple[tuple[str, ...], AttackCalc]]:
    """Groups of ``able`` (in stack order) that may legally attack ``target``: the whole
    group and each unit alone when legal, and every legal group with no legal group above it
    in size that contains it. The search walks down from the whole group one unit at a time
    and prunes (a) groups whose summed attack strength is below the target's Defense [8.23],
    (b) the subgroups of a legal group (they only lower the differential), (c) the subgroups
    of a group refused for its differential alone [8.23][8.9]. At most 2^9 groups (stacking
    [7.11][9.41]), far fewer in play."""
    if not able:
        return []
    cat = game.category(target)
    thex = state.units[target].location
    if thex is None:
        return []
    need = defense_strength_8_44(game, state, target, thex)
    strength = {u: attack_strength_8_45(game, state, u, cat) for u in able}
    out: dict[tuple[str, ...], AttackCalc] = {}

    def legal(group: tuple[str, ...]) -> tuple[AttackCalc | None, list[Violation]]:
        calc, probs = analyse_attack(game, state, side, group, (target,), rec)
        if calc is not None and not probs:
            out[group] = calc
        return calc, probs

    for group in [able, *((u,) for u in able)]:
        legal(group)
    seen: set[tuple[str, ...]] = set()
    level = [able]
    while level:
        nxt: list[tuple[str, ...]] = []
        for group in level:
            if group in seen:
                continue
            seen.add(group)
            if sum((strength[u] for u in group), Fraction(0)) < need:
                continue
            if group in out:
                continue  # legal: its subgroups only lower the differential
            _calc, probs = legal(group)
            if not probs:
                continue
            if probs and all(p.code in _MONOTONE for p in probs):
                continue
            if len(group) > 1:
                nxt.extend(tuple(x for x in group if x != u) for u in group)
        level = nxt
    return sorted(out.items())


def must_retreat_8_24(game: Game, state: GameState, side: str, hex_id: str) -> list[str]:
    """Units of an obligated hex with no legal attack that must retreat: those with the right
    strength type against some adjacent enemy unit [8.24]; the others stay [8.22]."""
    rec = phase_record(state)
    ex = _exempt(rec)
    enemies = adjacent_enemies(game, state, hex_id, side)
    out = []
    for u in state.stacks.get(hex_id, ()):
        if state.units[u].side != side or u in ex:
            continue
        if any(can_attack_6_41(game, u, game.category(e)) for e in enemies):
            out.append(u)
    return sorted(out)


# ---- the obligation checked (validate) and carried out (end of the attacks) ------------------


def check_obligations_8_21(
    game: Game,
    state: GameState,
    side: str,
    orders: tuple[Order, ...],
    attacks_from: set[str],
) -> list[Violation]:
    """Every obligated hex that declared no attack had none to make [8.21]; its units that
    must retreat are given a hex when there is a choice [8.24]; a ``retreat UNIT -> HEX``
    order is only for such a unit [8.24], into a hex it may retreat into [8.71]. A refused
    hex cites the case that forbids it first (:func:`retreat_barrier`), [8.71] second."""
    probs: list[Violation] = []
    retreats = {o.units[0]: o for o in orders if o.verb == "retreat" and o.mode == "to"}
    must: set[str] = set()
    for h, _units in obligated_hexes_8_21(game, state, side).items():
        if h in attacks_from:
            continue
        best = best_attacks_from(game, state, side, h)
        if best:
            b = best[0]
            probs.append(
                Violation(
                    "8.21",
                    f"units in {h} are in an enemy zone of control and must attack "
                    f"(e.g. attack {' '.join(b.attackers)} -> {' '.join(b.targets)} at "
                    f"{fmt(b.differential)})",
                    code="attack-owed",
                    hint=f"attack {' '.join(b.attackers)} -> {' '.join(b.targets)}",
                )
            )
            continue
        for u in must_retreat_8_24(game, state, side, h):
            must.add(u)
            opts = retreat_options_8_71(game, state, u)
            probs.append(_retreat_warning(h, u, opts, game.is_air(u)))
            if u not in retreats and len(opts) > 1:
                probs.append(
                    Violation(
                        "8.24",
                        f"{u} in {h} cannot attack at 0 or better and must retreat; "
                        f"choose the hex ({' '.join(opts)})",
                        code="retreat-hex-owed",
                        word=None,
                        unit=u,
                        hint=f"retreat {u} -> {opts[0]}",
                    )
                )
    for u, o in retreats.items():
        if u not in state.units:
            continue
        if u not in must:
            probs.append(
                Violation(
                    "8.24",
                    f"{u} is not obliged to retreat: the phasing player retreats only "
                    "units that cannot make a mandatory attack",
                    code="not-obliged",
                    word=u,
                    unit=u,
                ).at(o)
            )
            continue
        opts = retreat_options_8_71(game, state, u)
        if o.hexes[0] not in opts:
            # the most specific case first: the one that forbids the hex (stacking [7.22],
            # an enemy ZOC [6.5], ...), the general retreat case [8.71] second
            case, why = retreat_barrier(game, state, u, o.hexes[0])
            second = "" if case == "8.71" else " [8.71]"
            probs.append(
                Violation(
                    case,
                    f"{u} may not retreat into {o.hexes[0]}: {why}{second}",
                    code="not-a-retreat-hex",
                    word=o.hexes[0],
                    unit=u,
                    hint=("legal: " + " ".join(opts))
                    if opts
                    else "no legal retreat: it is eliminated; leave the order out",
                ).at(o)
            )
    return probs


def _retreat_warning(hex_id: str, unit: str, opts: list[str], air: bool) -> Violation:
    """What ``validate`` foresees for a unit that must retreat: the retreat [8.24], or its
    elimination -- an air unit because it never retreats [8.72], a naval unit because no
    hex may take it [8.71] -- with the general obligation [8.24] cited second."""
    if not opts:
        return Violation(
            "8.72" if air else "8.71",
            f"{unit} in {hex_id} must retreat [8.24] but "
            + ("is an air unit, which never retreats" if air else "has no hex to retreat into")
            + ": it will be eliminated",
            code="will-be-eliminated",
            word=None,
            unit=unit,
            severity="warning",
        )
    return Violation(
        "8.24",
        f"{unit} in {hex_id} has no attack at 0 or better and will retreat "
        f"(into {' or '.join(opts)})",
        code="will-retreat",
        word=None,
        unit=unit,
        severity="warning",
    )


def retreats_owed_8_24(
    game: Game, state: GameState, side: str, ev: list[Event]
) -> list[dict[str, Any]]:
    """The phasing player's attacks are over: units of obligated hexes that made no attack
    and had none at 0 or better retreat now [8.24] (digest §16.5); a hex that had a legal
    attack and made none is reported [8.21]. Returns the ``retreat`` tasks."""
    rec = phase_record(state)
    tasks: list[dict[str, Any]] = []
    for hex_id, _units in obligated_hexes_8_21(game, state, side, rec).items():
        if hex_id in rec["attacked_from"]:
            continue
        if best_attacks_from(game, state, side, hex_id, rec):
            ev.append(
                Event(
                    "obligation-unmet",
                    "8.21",
                    f"{hex_id} had a legal attack but made none",
                    {"hex": hex_id},
                )
            )
            continue
        for u in must_retreat_8_24(game, state, side, hex_id):
            ev.append(
                Event(
                    "must-retreat",
                    "8.24",
                    f"{u} in {hex_id} cannot attack at 0 or better and must retreat",
                    {"unit": u, "hex": hex_id},
                )
            )
            tasks.append({"t": "retreat", "unit": u, "cause": RetreatCause.MANDATORY_8_24.value})
    return tasks


def after_retreat_8_24(game: Game, state: GameState, unit: str, frm: str) -> GameState:
    """A unit that retreated under 8.24 may not attack for the rest of the phase [8.74] and
    is exempt from the obligation [8.75]; when its hex is left empty of its side, the other
    player may advance into it [8.5] (``advance ... when-vacated``)."""
    side = state.units[unit].side
    rec = phase_record(state)
    rec["retreated_824"].append(unit)
    state = with_record(state, rec)
    if not any(state.units[x].side == side for x in state.stacks.get(frm, ())):
        state = push_front(
            state, [{"t": "advance_vacated", "hex": frm, "side": game.enemy_of(side)}]
        )
    return state
