"""[DTP 8.14, 8.23x] who may attack what in the impulses: detected targets, first strikes,
bounces, CAP before bombers, attackers detected, and the stack order SPI keeps [7.44, 7.45].

Each function returns the problems it finds as :class:`~referee.engine.core.Violation`
citing the DTP case (an empty list is a legal attack), so ``validate`` and the carry-out ask
the same question.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import Violation
from referee.rules.sixth_fleet_dtp.detection import Unit, may_attempt_6_21

NAVAL = ("surface", "submarine")


def detected_target_8_14(attacker: Unit, target: Unit, target_detected: bool) -> list[Violation]:
    """Surface and sub units may attack ships and subs only when those are Detected; air units
    and bases need not be detected, and air may strike undetected ships at worse contact odds
    [DTP 8.14, 6.0a, 6.51]."""
    if attacker.category in NAVAL and target.category in NAVAL and not target_detected:
        return [
            Violation(
                "DTP 6.51",
                f"{attacker.id} may not attack {target.id}: it is not Detected",
                code="target-not-detected",
                word=attacker.id,
                hint="detect it first during a movement phase [DTP 6.2], or strike it from the "
                "air [DTP 8.14]",
            )
        ]
    return []


def first_strike_8_231(
    attacker_detected: bool, attacker: Unit, targets: Sequence[Unit], targets_detected: bool
) -> list[Violation]:
    """An undetected surface or sub unit next to Detected enemy ships or subs may first-strike
    them; its results apply at once and the targets cannot answer back [DTP 8.231]."""
    probs: list[Violation] = []
    if attacker.category not in NAVAL:
        probs.append(
            Violation("DTP 8.231", f"{attacker.id} is not a ship or sub", code="first-strike")
        )
    if attacker_detected:
        probs.append(
            Violation(
                "DTP 8.231", f"{attacker.id} is Detected: no first strike", code="first-strike"
            )
        )
    if not targets_detected or any(t.category not in NAVAL for t in targets):
        probs.append(
            Violation(
                "DTP 8.231",
                "a first strike is made only on Detected enemy ships or subs",
                code="first-strike",
            )
        )
    return probs


def may_bounce_8_232(
    unit: Unit, attacked_this_turn: bool, adjacent_to_strike: bool
) -> list[Violation]:
    """A bounce is made by air units with AA > 0 that have not attacked this turn and are next
    to the strike that passed contact [DTP 8.232]."""
    probs: list[Violation] = []
    if unit.category != "air" or unit.value("AA") <= 0:
        probs.append(
            Violation("DTP 8.232", f"{unit.id} has no AA strength", code="bounce", word=unit.id)
        )
    if attacked_this_turn:
        probs.append(
            Violation(
                "DTP 8.232",
                f"{unit.id} has already attacked this turn",
                code="bounce",
                word=unit.id,
            )
        )
    if not adjacent_to_strike:
        probs.append(
            Violation(
                "DTP 8.232", f"{unit.id} is not next to the strike", code="bounce", word=unit.id
            )
        )
    return probs


def cap_first_8_233(bombers: Sequence[Unit], unengaged_cap: Sequence[str]) -> list[Violation]:
    """Bombers with AA > 0 may not attack naval targets while CAP above them has not been
    engaged (attacked) this phase [DTP 8.233]; a bomber with AA 0 (the Tu16) may."""
    if not unengaged_cap:
        return []
    return [
        Violation(
            "DTP 8.233",
            f"{b.id} (AA {b.value('AA')}) may not attack the ships below before the CAP "
            f"({', '.join(unengaged_cap)}) has been engaged",
            code="cap-first",
            word=b.id,
            hint="attack the CAP first, with these units or others",
        )
        for b in bombers
        if b.value("AA") > 0
    ]


def may_skip_7_45(attackers: Sequence[Unit], above: Unit, dtp_skip: bool) -> bool:
    """A unit above the target may be skipped when none of the attackers can attack it
    [7.45]; with the DTP flag also when it cannot attack any of them (zero strength against
    their category: the combat example's Tu22 ignoring the S3s) [digest 9.2]."""
    if not any(may_attempt_6_21(a, above.category) for a in attackers):
        return True
    return dtp_skip and not any(may_attempt_6_21(above, a.category) for a in attackers)


def detected_after_attack_8_234(attacker: Unit) -> bool:
    """Every attacking surface or sub unit is Detected once its results apply [DTP 8.234,
    6.42]; air units are always detected anyway [DTP 6.0b]."""
    return attacker.category in NAVAL


def reach_problems_8_1(attackers_at: Sequence[tuple[str, int]], target_hex: str) -> list[Violation]:
    """Every attacker must be next to (or, for air over its target, in) the target's hex
    [8.1, kept by DTP]; an air unit got there in its air movement phase within its Range
    Allowance [5.23] (``path.check_path_5_0``). ``attackers_at`` are ``(unit, distance)``."""
    return [
        Violation(
            "8.1",
            f"{u} is {d} hexes from {target_hex}: the target is beyond its reach",
            code="beyond-reach",
            word=u,
            hint="attackers must be adjacent to the target; move within range first [5.23]",
        )
        for u, d in attackers_at
        if d > 1
    ]
