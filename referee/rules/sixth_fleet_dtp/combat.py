"""[DTP 8.0] one attack of an impulse, start to finish, as the kit amends SPI's procedure.

The attackers' strength against the target type [8.43] (0 for a D2 ship [DTP 8.55] unless it
answers back [DTP 8.21]; a daylight air unit halved at night, rounded down [DTP 4.01a, 9.52]),
against the defenders' total DEF, doubled for naval defenders in Restricted Water [8.44]; the
row is the defenders' best ECM [8.32]; one d6 on the CRT [8.8]. A success against ships and
subs rolls the Hit Table per target, the strength split evenly, the remainder to the top unit
[DTP 8.52], damage adding up [DTP 8.54]; against air units each target aborts and recycles on
the turn track, 2d6 minus its readiness [DTP 8.51]. Attacking ships and subs become Detected
[DTP 8.234]. Every roll goes through the injected dice with its case, and every step is an
:class:`~referee.engine.core.Event` citing its case.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from referee.engine.core import Dice, Event
from referee.rules.sixth_fleet_1975.strengths import attack_key_8_43
from referee.rules.sixth_fleet_dtp import air, crt, denmark_strait, hits
from referee.rules.sixth_fleet_dtp.detection import Unit
from referee.rules.sixth_fleet_dtp.rounding import halve_down_4_01a
from referee.rules.sixth_fleet_dtp.strikes import detected_after_attack_8_234
from referee.source.model import Module


@dataclass(frozen=True, slots=True)
class Situation:
    """What an attack needs beyond the units: the turn, night, Restricted Water at the
    target, each unit's damage level, the units answering back [DTP 8.21], daylight units."""

    turn: int
    night: bool = False
    restricted: bool = False
    damage: Mapping[str, int] = field(default_factory=dict)
    answering: frozenset[str] = frozenset()
    daylight: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """The result of one attack: the CRT resolution, each target's new damage level (ships,
    subs) or return turn (aborted air), the attackers now Detected, and the events."""

    crt: crt.CrtResult
    damage: dict[str, int]
    aborted: dict[str, int]
    detected: tuple[str, ...]
    events: tuple[Event, ...]


def _sunk_note(sunk_at: int) -> str:
    """The event's note on a sinking, citing the rule that set the level [8.55, 11.3 rule 7]."""
    if sunk_at == hits.SUNK:
        return " (sunk [DTP 8.55])"
    return f" (the convoy is sunk at D{sunk_at} [DTP 11.3 rule 7])"


def strength_8_43(unit: Unit, target_category: str, s: Situation) -> int:
    """One attacker's strength against the target type [8.43]: 0 from D2 [DTP 8.55] unless
    it answers back [DTP 8.21]; halved (down) for a daylight air unit at night [9.52, 4.01a]."""
    v = unit.value(attack_key_8_43(target_category))
    if s.damage.get(unit.id, 0) >= 2 and unit.id not in s.answering:
        return 0
    if unit.category == "air" and unit.id in s.daylight and s.night:
        return halve_down_4_01a(v)
    return v


def halved_at_night_4_01a(
    attackers: Sequence[Unit], target_category: str, s: Situation
) -> list[Event]:
    """One event per daylight air unit halved at night, under the DTP case that rounds it
    down [DTP 4.01a] (SPI's halving [9.52] second): the report shows why its strength is
    what the attack adds."""
    out = []
    for a in attackers:
        full = a.value(attack_key_8_43(target_category))
        used = strength_8_43(a, target_category, s)
        if a.category == "air" and a.id in s.daylight and s.night and used != full:
            out.append(
                Event(
                    "halved",
                    "DTP 4.01a",
                    f"{a.id} is a daylight air unit at night: {full} halved, rounded down, "
                    f"to {used} [9.52]",
                    {"unit": a.id, "printed": full, "used": used},
                )
            )
    return out


def resolve_attack_8_0(
    module: Module,
    attackers: Sequence[Unit],
    targets_top_down: Sequence[Unit],
    s: Situation,
    dice: Dice,
) -> AttackOutcome:
    """Carry out one attack [DTP 8.0] with ``dice`` (the CRT d6, then a Hit Table d6 per
    target whose entry needs one, or 2d6 per aborted air unit)."""
    category = targets_top_down[0].category
    att = sum(strength_8_43(a, category, s) for a in attackers)
    naval = category in ("surface", "submarine")
    dfn = crt.crt_defense_8_44([t.value("DEF") for t in targets_top_down], naval, s.restricted)
    ecm = max(t.value("ECM") for t in targets_top_down)
    pre = crt.crt_8_0(module, att, dfn, ecm, None)
    needs_roll = not pre.reading.fails and pre.chance_in_6 > 0
    roll = dice.roll(6, "CRT", "8.8") if needs_roll else None
    res = crt.crt_8_0(module, att, dfn, ecm, roll)
    names = ", ".join(t.id for t in targets_top_down)
    events = [*halved_at_night_4_01a(attackers, category, s)]
    events += [
        Event(
            "attack",
            "8.8",
            f"{', '.join(a.id for a in attackers)} attack {names}: {att} against {dfn}, "
            f"{res.reading.how}; "
            + (
                f"rolled {roll}: {'success' if res.success else 'no effect'}" if roll else "no roll"
            ),
            {"attack": att, "defense": dfn, "column": res.reading.column, "roll": roll},
        )
    ]
    damage: dict[str, int] = {}
    aborted: dict[str, int] = {}
    if res.success and naval:
        split = hits.split_8_52(att, [t.id for t in targets_top_down])
        for t in targets_top_down:
            _reading, entry = hits.hit_entry_8_52(module, split[t.id], t.value("DEF"))
            hroll = (
                dice.roll(6, f"Hit Table: {t.id}", "DTP 8.52")
                if entry and entry.needs_roll
                else None
            )
            h = hits.hit_8_52(module, split[t.id], t.value("DEF"), hroll)
            before = s.damage.get(t.id, 0)
            sunk_at = denmark_strait.sunk_at_11_3_7(t.flags)
            damage[t.id] = hits.add_damage_8_54(before, h.levels, sunk_at)
            events.append(
                Event(
                    "hit",
                    "DTP 8.52",
                    f"{t.id}: strength {split[t.id]} on DEF {t.value('DEF')}, {h.reading.how}; "
                    f"D{before} -> D{damage[t.id]}"
                    + (_sunk_note(sunk_at) if damage[t.id] >= sunk_at else ""),
                    {"unit": t.id, "strength": split[t.id], "roll": hroll, "damage": damage[t.id]},
                )
            )
    elif res.success:
        for t in targets_top_down:
            rating = air.rating_9_23(module, t.nationality, t.type)
            rc = air.recycle_8_51(
                s.turn,
                dice.roll(6, f"abort: {t.id}", "DTP 8.51")
                + dice.roll(6, f"abort: {t.id}", "DTP 8.51"),
                rating,
            )
            aborted[t.id] = rc.return_turn
            events.append(
                Event(
                    "abort",
                    "DTP 8.51",
                    f"{t.id} aborts: 2d6 {rc.roll_2d6} - readiness {rating} = {rc.delay} turns; "
                    f"back on turn {rc.return_turn}",
                    {"unit": t.id, "return_turn": rc.return_turn},
                )
            )
    detected = tuple(a.id for a in attackers if detected_after_attack_8_234(a))
    if detected:
        events.append(
            Event(
                "detected",
                "DTP 8.234",
                f"{', '.join(detected)} Detected after attacking",
                {"units": list(detected)},
            )
        )
    return AttackOutcome(res, damage, aborted, detected, tuple(events))
