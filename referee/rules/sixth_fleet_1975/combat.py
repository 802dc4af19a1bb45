"""Combat [8.0]: who may attack whom, the differential, and the Combat Results Table.

:func:`analyse_attack` checks one declared attack against the position and the phase's
record (who already attacked, who has been attacked) and, when it is legal, computes it the
way the rulebook's procedure does [8.0]: the modified attack total [8.43][8.45], the modified
defense total [8.44], the differential, the column rounded down [8.9], the highest ECM of the
defenders [8.32] (or the Defended hex's ECM [10.44]) and the CRT entry.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.engine.core import GameState, Violation
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.strengths import (
    attack_key_8_43,
    attack_strength_8_45,
    can_attack_6_41,
    defense_strength_8_44,
    fmt,
)
from referee.source.boxes import carrier_of
from referee.source.model import CrtCell

HEX_TARGET = "hex:"
"""How an attack names a vacant Defended hex as its target (``attack UNIT -> hex:1324``)
[10.44]; :func:`hex_target` and :func:`is_hex_target` are the only readers and writers."""


def hex_target(hex_id: str) -> str:
    """The attack target that is the Defended hex ``hex_id`` [10.44]."""
    return HEX_TARGET + hex_id


def is_hex_target(target: str) -> bool:
    return target.startswith(HEX_TARGET)


def defended_target_10_44(targets: tuple[str, ...]) -> str | None:
    """The hex of an attack on a Defended hex (its one target is ``hex:NNNN``) [10.44], or
    ``None`` for an attack on units."""
    if len(targets) == 1 and is_hex_target(targets[0]):
        return targets[0][len(HEX_TARGET) :]
    return None


DEFENDED_HEX_OCCUPIED = "defended-hex-occupied"
"""The code of the [10.44] problem "a Defended hex is attacked only when no unit occupies
it": the validator lifts it when this file's earlier attacks target every occupant."""

PHASE_KEYS = ("attacked", "used", "retreated_824", "advanced", "attacked_from")

LATER_KEYS = ("advanced_824", "followup_824")
"""Keys the record gained with a later ruling [8.5.4]: the non-phasing units that advanced
after an 8.24 retreat, and those the phasing player may still attack in a further file. They
are kept only while not empty, so the record of a game without them stays as it was."""


def phase_record(state: GameState) -> dict[str, list[str]]:
    """This Combat Phase's record: defenders attacked [7.44], attackers used [8.13], units
    retreated under 8.24 [8.74][8.75], units that advanced [8.5], hexes that attacked [8.21]
    and, when there are any, the enemy units that advanced after an 8.24 retreat [8.5.4]."""
    rec = facts_of(state).combat or {}
    out = {k: list(rec.get(k, ())) for k in PHASE_KEYS}
    out.update({k: list(rec.get(k, ())) for k in LATER_KEYS})
    return out


def with_record(state: GameState, rec: Mapping[str, list[str]]) -> GameState:
    return SixthFleetFacts.put(
        state, combat={k: sorted(set(v)) for k, v in rec.items() if v or k not in LATER_KEYS}
    )


@dataclass(frozen=True, slots=True)
class AttackCalc:
    """One attack, computed [8.0]."""

    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    target_hex: str
    category: str  # air | surface | submarine | defended
    strength_key: str
    attack_total: Fraction
    defense_total: Fraction
    differential: Fraction
    column: int | None
    ecm_row: int
    ecm_source: str
    cell: CrtCell | None
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "attackers": list(self.attackers),
            "targets": list(self.targets),
            "target_hex": self.target_hex,
            "category": self.category,
            "strength": self.strength_key,
            "attack_total": fmt(self.attack_total),
            "defense_total": fmt(self.defense_total),
            "differential": fmt(self.differential),
            "column": self.column,
            "ecm_row": self.ecm_row,
            "ecm_source": self.ecm_source,
            "entry": str(self.cell) if self.cell is not None else None,
        }


def crt_lookup_8_9(game: Game, differential: Fraction, ecm: int) -> tuple[int, int, CrtCell] | None:
    """Round the differential down to a printed column [8.9] and read the ECM row; ``None``
    below the lowest column (a negative differential is never allowed [8.23])."""
    crt = game.module.tables.crt
    if crt is None:
        return None
    d = math.floor(differential)
    if d > crt.columns[-1] and not game.flags.crt_top_column_caps:
        return None
    return crt.lookup(d, ecm)


def analyse_attack(
    game: Game,
    state: GameState,
    side: str,
    attackers: tuple[str, ...],
    targets: tuple[str, ...],
    rec: Mapping[str, list[str]] | None = None,
) -> tuple[AttackCalc | None, list[Violation]]:
    """Check one attack and compute it. ``rec`` is the phase record (default: the state's).
    The steps: the attackers [8.0][8.1][8.12], the target (a Defended hex [10.44], or enemy
    units in one hex [8.3]), adjacency and one type of target [8.11][8.36], a strength against
    it and the stack's order [8.41][7.44], then the differential [8.23][8.9]."""
    rec = rec if rec is not None else phase_record(state)
    probs, hexes = _attacker_problems_8_1(game, state, side, attackers, rec)
    if probs:
        return None, probs
    defended = defended_target_10_44(targets)
    if defended is not None:
        return _analyse_defended(game, state, side, attackers, defended, hexes)
    probs, thexes, cats = _target_problems_8_3(game, state, side, targets)
    if probs:
        return None, probs
    if len(thexes) > 1:
        return None, [
            Violation(
                "8.34",
                "one attack goes into one enemy-occupied hex only: " + ", ".join(sorted(thexes)),
                code="several-target-hexes",
            )
        ]
    (thex,) = thexes
    probs = _adjacent_one_type_8_11(game, state, attackers, targets, thex, cats)
    if probs:
        return None, probs
    (cat,) = cats
    probs = [
        Violation(
            "8.41",
            f"{a} has no {attack_key_8_43(cat)} strength (0) and may not attack {cat} units",
            code="no-strength",
            word=a,
        )
        for a in attackers
        if not can_attack_6_41(game, a, cat)
    ]
    probs.extend(_stack_order_7_44(game, state, thex, attackers, targets, rec))
    if probs:
        return None, probs
    return _differential_8_23(game, state, attackers, targets, thex, cat)


def _attacker_problems_8_1(
    game: Game,
    state: GameState,
    side: str,
    attackers: tuple[str, ...],
    rec: Mapping[str, list[str]],
) -> tuple[list[Violation], set[str]]:
    """The attackers: the phasing player's units [8.0] on the map [8.11] (not in a holding box
    [9.62B]) that have not attacked [8.13], retreated under 8.24 [8.74] or advanced [8.5] this
    phase, each named once [8.42], from one hex [8.12]; and the hexes they attack from."""
    probs: list[Violation] = []
    hexes: set[str] = set()
    for a in attackers:
        u = state.units[a]
        if u.side != side:
            probs.append(
                Violation(
                    "8.0",
                    f"{a} is not a {side} unit: only the Phasing Player attacks",
                    code="not-phasing",
                    word=a,
                )
            )
            continue
        if u.location is None:
            probs.append(_off_map_8_11(a, u.box, "cannot attack"))
            continue
        hexes.add(u.location)
        probs += _attacked_already_8_13(a, rec)
    if len(set(attackers)) != len(attackers):
        probs.append(
            Violation("8.42", "a unit is named twice in one attack", code="attacker-twice")
        )
    if len(hexes) > 1 and not game.flags.allow_multi_hex_attack:
        probs.append(
            Violation(
                "8.12",
                "units in different hexes must make separate attacks: " + ", ".join(sorted(hexes)),
                code="several-hexes",
                hint="split the attack by hex",
            )
        )
    return probs, hexes


def _off_map_8_11(unit: str, box: str | None, what: str) -> Violation:
    """A unit off the map takes no part in combat [8.11]; one in a holding box [9.62B]."""
    if carrier_of(box) is not None:
        return Violation(
            "9.62B",
            f"{unit} is in a holding box and {what} [9.62]",
            code="in-holding-box",
            word=unit,
        )
    if what == "cannot attack":
        return Violation(
            "8.11", f"{unit} is off the map and cannot attack", code="off-map", word=unit
        )
    return Violation("8.11", f"{unit} is not on the map", code="off-map", word=unit)


def _attacked_already_8_13(a: str, rec: Mapping[str, list[str]]) -> list[Violation]:
    """A unit attacks once a phase [8.13], never after its 8.24 retreat [8.74] or an advance
    after combat [8.5]."""
    probs: list[Violation] = []
    if a in rec["used"]:
        probs.append(
            Violation(
                "8.13", f"{a} has already attacked this Combat Phase", code="attacked", word=a
            )
        )
    if a in rec["retreated_824"]:
        probs.append(
            Violation(
                "8.74",
                f"{a} retreated under 8.24 and may not attack this phase",
                code="retreated-8.24",
                word=a,
            )
        )
    if a in rec["advanced"]:
        probs.append(
            Violation(
                "8.5",
                f"{a} advanced after combat and may not attack again",
                code="advanced",
                word=a,
            )
        )
    return probs


def _target_problems_8_3(
    game: Game, state: GameState, side: str, targets: tuple[str, ...]
) -> tuple[list[Violation], set[str], set[str]]:
    """The defenders: enemy units [8.0] on the map [8.11], each named once [8.31]; and their
    hexes and categories."""
    probs: list[Violation] = []
    thexes: set[str] = set()
    cats: set[str] = set()
    for t in targets:
        tu = state.units[t]
        if tu.side == side:
            probs.append(
                Violation("8.0", f"{t} is a friendly unit", code="friendly-target", word=t)
            )
            continue
        if tu.location is None:
            probs.append(_off_map_8_11(t, tu.box, "cannot be attacked"))
            continue
        thexes.add(tu.location)
        cats.add(game.category(t))
    if len(set(targets)) != len(targets):
        probs.append(
            Violation("8.31", "a defender is named twice in one attack", code="defender-twice")
        )
    return probs, thexes, cats


def _adjacent_one_type_8_11(
    game: Game,
    state: GameState,
    attackers: tuple[str, ...],
    targets: tuple[str, ...],
    thex: str,
    cats: set[str],
) -> list[Violation]:
    """Every attacker next to the target hex [8.11]; air, surface and submarine units attacked
    separately [8.36]."""
    probs: list[Violation] = []
    for a in attackers:
        loc = state.units[a].location
        assert loc is not None
        if not game.board.adjacent(loc, thex):
            probs.append(
                Violation(
                    "8.11", f"{a} in {loc} is not adjacent to {thex}", code="not-adjacent", word=a
                )
            )
    if len(cats) > 1:
        probs.append(
            Violation(
                "8.36",
                "air, surface and submarine units must be attacked separately: "
                + ", ".join(f"{t} ({game.category(t)})" for t in targets),
                code="mixed-types",
                hint="one attack per unit type",
            )
        )
    return probs


def _differential_8_23(
    game: Game,
    state: GameState,
    attackers: tuple[str, ...],
    targets: tuple[str, ...],
    thex: str,
    cat: str,
) -> tuple[AttackCalc, list[Violation]]:
    """The attack's strengths [8.43]-[8.45], the top unit's ECM [8.9] and the differential:
    never below 0 [8.23], never below the lowest CRT column [8.9]."""
    key = attack_key_8_43(cat)
    att = sum((attack_strength_8_45(game, state, a, cat) for a in attackers), Fraction(0))
    dfn = sum((defense_strength_8_44(game, state, t, thex) for t in targets), Fraction(0))
    top = max(targets, key=lambda t: (game.value(t, "ECM"), t))
    ecm = game.value(top, "ECM")
    diff = att - dfn
    calc = _calc(game, attackers, targets, thex, cat, key, att, dfn, ecm, top)
    if diff < 0:
        return calc, [
            Violation(
                "8.23",
                f"the differential is {fmt(diff)} ({key} {fmt(att)} - DEF {fmt(dfn)}): "
                "an attack below 0 is never allowed",
                code="below-zero",
            )
        ]
    if calc.column is None:
        return calc, [
            Violation(
                "8.9", f"differential {fmt(diff)} is below the lowest CRT column", code="below-crt"
            )
        ]
    return calc, []


def _calc(
    game: Game,
    attackers: tuple[str, ...],
    targets: tuple[str, ...],
    thex: str,
    cat: str,
    key: str,
    att: Fraction,
    dfn: Fraction,
    ecm: int,
    ecm_source: str,
) -> AttackCalc:
    diff = att - dfn
    look = crt_lookup_8_9(game, diff, ecm) if diff >= 0 else None
    col, row, cell = look if look is not None else (None, ecm, None)
    return AttackCalc(
        tuple(attackers), tuple(targets), thex, cat, key, att, dfn, diff, col, row, ecm_source, cell
    )


def _stack_order_7_44(
    game: Game,
    state: GameState,
    thex: str,
    attackers: tuple[str, ...],
    targets: tuple[str, ...],
    rec: Mapping[str, list[str]],
) -> list[Violation]:
    """Attack a stack from the top down [7.44]: every unit above a target must already have
    been attacked this phase, or be in this attack, unless none of these attackers could
    attack it (it may then be skipped [7.45])."""
    stack = list(state.stacks.get(thex, ()))
    attacked = set(rec["attacked"]) | set(targets)
    probs: list[Violation] = []
    for t in targets:
        for above in stack[: stack.index(t)]:
            if above in attacked:
                continue
            if not any(can_attack_6_41(game, a, game.category(above)) for a in attackers):
                continue  # [7.45] it may be skipped
            probs.append(
                Violation(
                    "7.44",
                    f"{t} may not be attacked before {above}, which is above it in the stack "
                    f"and has not been attacked this phase",
                    code="stack-order",
                    word=t,
                    hint=f"attack {above} first, or in the same attack if it is the same type",
                )
            )
            break
    return probs


def _analyse_defended(
    game: Game,
    state: GameState,
    side: str,
    attackers: tuple[str, ...],
    hex_id: str,
    hexes: set[str],
) -> tuple[AttackCalc | None, list[Violation]]:
    """A Defended hex is attacked on its own, only when no unit occupies it [10.44]: total AS
    against its intrinsic DEF (never doubled [10.41]), on its ECM row."""
    d = game.board.defended(hex_id) if game.board.contains(hex_id) else None
    if d is None:
        return None, [
            Violation("10.44", f"{hex_id} is not a Defended hex", code="not-defended-hex")
        ]
    if d.side == side:
        return None, [
            Violation("10.44", f"{hex_id} is a friendly Defended hex", code="friendly-defended-hex")
        ]
    if hex_id in game.destroyed_defended(state):
        return None, [
            Violation(
                "10.46",
                f"the Defended hex {hex_id} is already destroyed",
                code="defended-destroyed",
            )
        ]
    probs: list[Violation] = []
    if state.stacks.get(hex_id):
        probs.append(
            Violation(
                "10.44",
                f"the Defended hex {hex_id} may be attacked only when no units occupy it "
                f"(now: {', '.join(state.stacks[hex_id])})",
                code=DEFENDED_HEX_OCCUPIED,
            )
        )
    for a in attackers:
        loc = state.units[a].location
        assert loc is not None
        if not game.board.adjacent(loc, hex_id):
            probs.append(
                Violation(
                    "8.11", f"{a} in {loc} is not adjacent to {hex_id}", code="not-adjacent", word=a
                )
            )
        if game.value(a, "AS") <= 0:
            probs.append(
                Violation(
                    "8.41",
                    f"{a} has no AS strength to attack a Defended hex",
                    code="no-strength",
                    word=a,
                )
            )
    if probs:
        return None, probs
    att = sum((attack_strength_8_45(game, state, a, "surface") for a in attackers), Fraction(0))
    dfn = Fraction(d.defense)
    calc = _calc(game, attackers, (), hex_id, "defended", "AS", att, dfn, d.ecm, hex_target(hex_id))
    if att - dfn < 0:
        return calc, [
            Violation(
                "8.23",
                f"the differential is {fmt(att - dfn)}: an attack below 0 is never allowed",
                code="below-zero",
            )
        ]
    return calc, []
