"""The Tactical Routine [20.0]-[22.8]: one battle in one space.

Deployment [20.2 step 2] (Soviet d6 per unit; USN by the player's standing ``deploy``, Inner
by default; the five CVL-1 aircraft deploy with CVL-1 [15.0]); Outer Zone combat when both
sides have Outer units, then Inner Zone combat with every survivor [20.2 steps 3-4]; in each
zone AA, then anti-surface, then ASW fire, the side with the Tactical Edge first [20.2];
each unit fires individually [21.2]; the results of one side's fire in one category apply
together, withdrawals last [22.1], [22.7]. USN targets: the player's standing doctrine
(docs/interpretations.md, CBG 21.2): each USN unit fires at the eligible target nearest to
sinking. Soviet targets by [21.3]/[21.4] (targeting.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from referee.engine.core import Dice, Event
from referee.rules.carrier_battlegroup import damage, fire, targeting
from referee.rules.carrier_battlegroup.damage import Condition
from referee.rules.carrier_battlegroup.readings import Readings, label
from referee.source.model import Module

CATEGORIES = ("AA", "AS", "ASW")  # [20.2 step 3] a, b, c


@dataclass
class Fighter:
    """One unit on the Tactical Display."""

    id: str
    side: str
    category: str
    type: str
    printed: dict[str, int]
    cond: Condition
    zone: str = "Inner"
    glitch: bool = False
    carrier: bool = False  # the USN aircraft carrier: hits go to its systems [22.2]

    @property
    def out(self) -> bool:
        return self.cond.sunk or self.cond.withdrawn


@dataclass
class Battle:
    space: str
    edge: str  # the side that fires first [20.2]
    attacker: str
    fighters: list[Fighter]
    systems: dict[str, int]  # the carrier's systems, when it fights
    ammo: int
    events: list[Event] = field(default_factory=list)
    carrier_sunk: bool = False
    crew: dict[str, int] = field(default_factory=dict)  # [21.5] the carrier's special crews
    pilots: dict[str, int] = field(default_factory=dict)  # Top Gun: its carrier aircraft
    readings: Readings = field(default_factory=Readings)  # the game's declared readings

    def side(self, s: str) -> list[Fighter]:
        return [f for f in self.fighters if f.side == s]


def factors(b: Battle, f: Fighter) -> dict[str, int]:
    """What a unit fires with now: [22.3] damage, [22.5] crippled, [20.5] no ammunition,
    the carrier's Air Defense and EW systems [3.1]."""
    if f.carrier:
        return {"AA": b.systems["Air Defense"], "AS": 0, "ASW": 0, "EW": b.systems["EW"]}
    got = damage.factors_22_3(f.printed, f.cond)
    if f.side == "USN" and b.ammo <= 0 and f.category in ("surface", "submarine"):
        got = {**got, "AA": 0, "AS": 0, "ASW": 0}  # [20.5]
    return got


def _combatant(b: Battle, f: Fighter) -> targeting.Combatant:
    fs = factors(b, f)
    return targeting.Combatant(f.id, f.category, f.type, fs.get("EW", 0), fs)


def _eligible(f: Fighter, cat: str, zone_units: list[Fighter]) -> list[Fighter]:
    kinds = fire.TARGETS_21_1[cat]
    return [t for t in zone_units if not t.out and not t.glitch and t.category in kinds]


def _usn_pick(b: Battle, cands: list[Fighter]) -> Fighter:
    """The USN doctrine: the target nearest to sinking, then the lowest id."""

    def left(t: Fighter) -> int:
        if t.carrier:
            return b.systems["Hull"]
        return t.cond.defense - t.cond.damage - (t.cond.defense if t.cond.crippled else 0)

    return sorted(cands, key=lambda t: (left(t), t.id))[0]


def _fire_side(
    b: Battle, module: Module, dice: Dice, side: str, cat: str, zone: str | None
) -> None:
    """One side's fire in one category [20.2 a-c], [21.0]; results together [22.1]."""
    enemy = "Soviet" if side == "USN" else "USN"
    mine = [f for f in b.side(side) if not f.out and (zone is None or f.zone == zone)]
    theirs = [f for f in b.side(enemy) if zone is None or f.zone == zone]
    if side == "Soviet":
        order_ids = [
            c.id
            for c in targeting.firing_order_21_3(
                [_combatant(b, f) for f in mine],
                lambda n: dice.roll(n, f"Soviet firing order tie ({cat})", "21.3"),
            )
        ]
        mine = sorted(mine, key=lambda f: order_ids.index(f.id))
    else:
        mine = sorted(mine, key=lambda f: f.id)
    shots: list[tuple[Fighter, Fighter, list[str]]] = []
    picked: set[str] = set()
    for f in mine:
        strength = fire.strength_21_5(factors(b, f).get(cat, 0), _crew_bonus(b, f, cat))
        if strength <= 0 or f.glitch:
            continue  # [21.5] a 0 factor may not fire
        cands = _eligible(f, cat, theirs)
        if not cands:
            continue
        if side == "Soviet":
            got = targeting.choose_target_21_3(
                _combatant(b, f),
                [_combatant(b, t) for t in cands],
                picked,
                lambda n, fid=f.id: dice.roll(n, f"{fid} target tie", "21.3"),
                fire=cat,
                any_submarine=not b.readings.ssn_escort_never_targeted,
            )
            if got is None:
                continue
            target = next(t for t in cands if t.id == got[0].id)
        else:
            target = _usn_pick(b, cands)
        picked.add(target.id)
        column = "carrier" if target.carrier else fire.hit_column_21_5(target.category, target.type)
        hits, outcomes = fire.fire_21_5(
            module, strength, column, lambda p, fid=f.id: dice.roll(6, f"{fid} {cat} {p}", "21.5")
        )
        b.events.append(
            Event(
                "fire",
                "21.5",
                f"{f.id} fires {cat} {strength} at {target.id}: {hits} hit(s)"
                + (f" ({', '.join(outcomes)})" if outcomes else ""),
                {
                    "firer": f.id,
                    "target": target.id,
                    "category": cat,
                    "strength": strength,
                    "hits": hits,
                    "outcomes": outcomes,
                },
            )
        )
        shots.append((f, target, outcomes))
        if f.category == "missile":
            # [21.6] "After resolving a cruise missile attack, the cruise missile is eliminated
            # automatically, regardless of the outcome": either side's
            f.cond = replace(f.cond, sunk=True)
            f.zone = "expended"
    _apply(b, dice, shots)


def _crew_bonus(b: Battle, f: Fighter, cat: str) -> int:
    """[21.5] the Crew Chart: the carrier's crews add to its fire, Top Gun pilots to its
    aircraft (docs/interpretations.md, CBG 21.5); never to a 0 factor (strength_21_5)."""
    if f.carrier:
        return b.crew.get(cat, 0)
    if f.side == "USN" and f.category == "air":
        return b.pilots.get(cat, 0)
    return 0


def _apply(b: Battle, dice: Dice, shots: list[tuple[Fighter, Fighter, list[str]]]) -> None:
    """[22.1]-[22.7]: outcomes together, withdrawals after every other hit."""
    withdraws: list[Fighter] = []
    for _f, t, outcomes in shots:
        for o in outcomes:
            if t.carrier:
                system = o.strip()
                b.systems, sunk = damage.carrier_hit_22_2(b.systems, system)
                b.events.append(
                    Event(
                        "carrier_hit",
                        "22.2",
                        f"carrier {system} hit: now {b.systems[system]}",
                        {"system": system, "value": b.systems[system]},
                    )
                )
                if sunk and not b.carrier_sunk:
                    b.carrier_sunk = True
                    t.cond = replace(t.cond, sunk=True)
                    b.events.append(
                        Event("sunk", "22.2", f"{t.id}: Hull 0, the carrier sinks", {"unit": t.id})
                    )
                continue
            if t.cond.sunk:
                continue  # [21.5] note, [22.1] extra hits are lost
            if o.strip().lower() == "withdraw":
                withdraws.append(t)
                continue
            roll = (
                dice.roll(6, f"{t.id} explosion", "22.4")
                if o.strip().lower() == "explosion"
                else None
            )
            before = t.cond
            per_point = b.readings.missiles_lost_per_damage_point
            t.cond = damage.apply_outcome_22_0(t.cond, o, roll, per_point=per_point)
            rule = {"explosion": "22.4", "crippled": "22.5", "eliminated": "22.6"}.get(
                o.strip().lower(), "22.3"
            )
            b.events.append(
                Event(
                    "hit",
                    rule,
                    f"{t.id}: {o}"
                    + (f" (d6 {roll} vs DEF {t.cond.defense})" if roll else "")
                    + _state_word(before, t.cond)
                    + _missiles_word(b, before, t.cond),
                    {"unit": t.id, "outcome": o},
                )
            )
    for t in withdraws:
        if not t.cond.sunk and not t.cond.withdrawn:
            before = t.cond
            t.cond = replace(t.cond, withdrawn=True)
            if not b.readings.missiles_lost_per_damage_point and t.cond.missiles:
                t.cond = replace(t.cond, missiles=t.cond.missiles - 1)  # [15.1] one per hit
            b.events.append(
                Event(
                    "withdraw",
                    "22.7",
                    f"{t.id} withdraws" + _missiles_word(b, before, t.cond),
                    {"unit": t.id},
                )
            )


def _missiles_word(b: Battle, before: Condition, after: Condition) -> str:
    """The cruise missiles a hit cost the ship carrying them [15.1], labelled with the
    declared reading that counts them, unless it sank or was crippled (it loses all)."""
    lost = before.missiles - after.missiles
    said = label(b.readings, "missiles_lost_per_damage_point")
    if not lost or after.sunk or after.crippled or not said:
        return ""
    how = "damage point" if b.readings.missiles_lost_per_damage_point else "hit"
    return f"; {lost} carried cruise missile(s) lost, one per {how} [15.1] ({said})"


def _state_word(before: Condition, after: Condition) -> str:
    if after.sunk and not before.sunk:
        return ": sunk"
    if after.crippled and not before.crippled:
        return ": crippled"
    if after.damage != before.damage:
        return f": {after.damage} damage"
    return ""


def deploy_20_2(b: Battle, dice: Dice, usn_outer: set[str]) -> None:
    """[20.2 step 2]: the side without the Edge sets up first; Soviet units by d6."""
    order = ("Soviet", "USN") if b.edge != "Soviet" else ("USN", "Soviet")
    for side in order:
        for f in sorted(b.side(side), key=lambda f: f.id):
            if side == "USN":
                f.zone = "Outer" if f.id in usn_outer else "Inner"
            else:
                r = dice.roll(6, f"{f.id} deployment", "20.2")
                f.zone = targeting.deployment_20_2(f.category in ("air", "missile"), r)
            b.events.append(
                Event("deploy", "20.2", f"{f.id} deploys {f.zone}", {"unit": f.id, "zone": f.zone})
            )


def _ssn_reading_21_3(b: Battle) -> None:
    """Label the declared reading ``ssn_escort_never_targeted`` when it decides something:
    a USN submarine faces Soviet units able to fire anti-submarine [21.3]."""
    subs = [f.id for f in b.side("USN") if f.category == "submarine"]
    said = label(b.readings, "ssn_escort_never_targeted")
    if not subs or not said or not any(f.printed.get("ASW", 0) > 0 for f in b.side("Soviet")):
        return
    how = (
        "no target of Soviet fire"
        if b.readings.ssn_escort_never_targeted
        else "on the SSGN line of the Target Priorities (anti-submarine)"
    )
    b.events.append(
        Event(
            "reading",
            "21.3",
            f"{', '.join(subs)}: {how} ({said})",
            {"units": subs, "targeted": not b.readings.ssn_escort_never_targeted},
        )
    )


def fight_20_2(b: Battle, module: Module, dice: Dice) -> None:
    """[20.2 steps 3-4]: Outer Zone combat (if both sides have Outer units), then Inner."""
    _ssn_reading_21_3(b)
    first, second = (
        (b.edge, "Soviet" if b.edge == "USN" else "USN")
        if b.edge in ("USN", "Soviet")
        else (b.attacker, "Soviet" if b.attacker == "USN" else "USN")
    )
    outer = {
        s: [f for f in b.side(s) if f.zone == "Outer" and not f.out] for s in ("USN", "Soviet")
    }
    if outer["USN"] and outer["Soviet"]:
        b.events.append(Event("zone", "20.2", "Outer Zone combat"))
        for cat in CATEGORIES:
            for side in (first, second):
                _fire_side(b, module, dice, side, cat, "Outer")
    else:
        b.events.append(Event("zone", "20.2", "no Outer Zone combat: a side has no Outer units"))
    for f in b.fighters:
        if f.zone == "Outer" and not f.out:
            f.zone = "Inner"
    b.events.append(Event("zone", "20.2", "Inner Zone combat"))
    for cat in CATEGORIES:
        for side in (first, second):
            _fire_side(b, module, dice, side, cat, "Inner")


def result_20_2(b: Battle) -> str:
    """[20.2 step 5]: lost at least half of the units (sunk or eliminated; glitches
    excluded, and every missile under the declared reading ``battle_result_without_missiles``;
    counted, a missile that fired is lost [21.6]) = not won."""
    tally: dict[str, tuple[int, int]] = {}
    counted = ("missile",) if b.readings.battle_result_without_missiles else ()
    for s in ("USN", "Soviet"):
        units = [f for f in b.side(s) if not f.glitch and f.category not in counted]
        lost = [f for f in units if f.cond.sunk]
        tally[s] = (len(units), len(lost))
    from referee.rules.carrier_battlegroup.victory import battle_result_20_2

    return battle_result_20_2(tally["USN"], tally["Soviet"])


def summary(b: Battle) -> dict[str, Any]:
    return {
        f.id: {
            "zone": f.zone,
            "damage": f.cond.damage,
            "crippled": f.cond.crippled,
            "sunk": f.cond.sunk,
            "withdrawn": f.cond.withdrawn,
        }
        for f in b.fighters
    }
