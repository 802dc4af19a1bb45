"""[DTP 8.15] Strike Contact: every air strike on a ship, sub or base must make contact first.

Rolled once per attacking air stack, counting only the units that attack (not escorts or
bystanders). Row = hexes from the strikers' origin to the target, the origin hex not counted,
the shortest origin used (origin = the hex where the unit began this turn's air movement, its
base or CAP hex: digest 9.9); column = the number of attacking units; the entry is the lowest
modified d6 roll that makes contact. Modifiers: -1 if the best defending ECM is greater than
the best attacking ECM; +2 Detected target [DTP 6.52]; +2 Coastal or +2 Restricted, not both;
-2 on Night turns, except above the Arctic light line (Denmark Strait, Westpac).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine.core import Dice, Event
from referee.rules.sixth_fleet_dtp.rounding import Reading, read
from referee.source.model import Module


@dataclass(frozen=True, slots=True)
class ContactRoll:
    """One Strike Contact roll [DTP 8.15]: the reading, each modifier with its case, the
    roll, and whether contact is made (a failed contact still ends the impulse [DTP 8.2])."""

    distance: int
    units: int
    reading: Reading
    modifiers: tuple[tuple[str, int], ...]
    roll: int | None
    contact: bool

    @property
    def modifier(self) -> int:
        return sum(v for _, v in self.modifiers)

    @property
    def need(self) -> int | None:
        return None if self.reading.fails else int(self.reading.value)

    @property
    def certain(self) -> bool:
        """Contact whatever the die says (the lowest face, modified, reaches the entry)."""
        return self.need is not None and 1 + self.modifier >= self.need


def distance_8_15(distances: Sequence[int]) -> int:
    """With several origins, the shortest distance counts [DTP 8.15 step 1]."""
    return min(distances)


def modifiers_8_15(
    best_defending_ecm: int,
    best_attacking_ecm: int,
    detected: bool,
    coastal: bool,
    restricted: bool,
    night: bool,
    above_light_line: bool = False,
) -> tuple[tuple[str, int], ...]:
    """The die modifiers of [DTP 8.15 steps 5-9], each named with its case."""
    out: list[tuple[str, int]] = []
    if best_defending_ecm > best_attacking_ecm:
        out.append(("defending ECM higher [DTP 8.15]", -1))
    if detected:
        out.append(("target Detected [DTP 6.52]", 2))
    if coastal or restricted:
        where = "Coastal" if coastal else "Restricted"
        out.append((f"target in a {where} hex [DTP 8.15]", 2))
    if night and not above_light_line:
        out.append(("Night turn [DTP 8.15]", -2))
    return tuple(out)


def strike_contact_8_15(
    module: Module,
    distance: int,
    units: int,
    modifiers: tuple[tuple[str, int], ...],
    roll: int | None,
) -> ContactRoll:
    """Contact if the modified roll reaches the entry [DTP 8.15 step 10]."""
    reading = read(module.tables["strike_contact"], distance, units, "DTP 8.15")
    ok = False
    if not reading.fails and roll is not None:
        ok = roll + sum(v for _, v in modifiers) >= int(reading.value)
    return ContactRoll(distance, units, reading, modifiers, roll, ok)


@dataclass(frozen=True, slots=True)
class Target:
    """Where and what an air strike hits, for Strike Contact [DTP 8.15]."""

    best_ecm: int
    detected: bool
    coastal: bool = False
    restricted: bool = False


def contact_8_15(
    module: Module,
    strikers: Sequence[tuple[str, int, int]],
    target: Target,
    night: bool,
    above_light_line: bool,
    dice: Dice,
) -> tuple[ContactRoll, Event]:
    """Roll Strike Contact for one attacking stack [DTP 8.15]: ``strikers`` are the units that
    actually attack, each ``(id, ECM, hexes from its origin)``; the row is the shortest
    distance, the column their number; one d6 with the modifiers. A failed contact still
    ends the impulse [DTP 8.2]."""
    mods = modifiers_8_15(
        target.best_ecm,
        max(e for _, e, _ in strikers),
        target.detected,
        target.coastal,
        target.restricted,
        night,
        above_light_line,
    )
    dist = distance_8_15([d for _, _, d in strikers])
    roll = dice.roll(6, "Strike Contact", "DTP 8.15")
    res = strike_contact_8_15(module, dist, len(strikers), mods, roll)
    shown = ", ".join(f"{name} {v:+d}" for name, v in mods) or "no modifier"
    text = (
        f"Strike Contact for {', '.join(n for n, _, _ in strikers)}: {res.reading.how}; "
        f"rolled {roll} ({shown}) = {roll + res.modifier}: "
        + ("contact" if res.contact else "no contact, the impulse ends [DTP 8.2]")
    )
    ev = Event("contact", "DTP 8.15", text, {"roll": roll, "contact": res.contact})
    return res, ev
