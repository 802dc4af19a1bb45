"""Fire outcomes on ships, submarines, air and coastal units [22.1]-[22.7].

Damage points sink a unit when they reach its Defense [22.3]; any damage halves the printed
combat factors, EW and speed, rounding up, never the Defense [22.3]; each damage point
destroys one carried cruise missile [22.3], [15.1]. An Explosion cripples on a d6 at or
below the Defense and eliminates above it [22.4]. A crippled unit has 0 factors, EW and
speed and loses what it carries; any further damage sinks it (a coastal unit is
eliminated) [22.5]. The carrier is handled by system hits [22.2].
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.numerals import HINT, read_whole, shown, whole, why_not
from referee.source.diagnostics import Diagnostic
from referee.source.model import Module

HALVED = ("AA", "AS", "ASW", "EW", "SPD")  # [22.3] DEF never changes


@dataclass(frozen=True, slots=True)
class Condition:
    """A non-carrier unit's state in a battle [22.3]-[22.7]."""

    defense: int
    damage: int = 0
    crippled: bool = False
    sunk: bool = False
    withdrawn: bool = False
    missiles: int = 0


def half_up_22_3(value: int) -> int:
    """[22.3] half, fractions rounded up."""
    return -(-value // 2)


def factors_22_3(printed: dict[str, int], c: Condition) -> dict[str, int]:
    """[22.3], [22.5] the factors a unit fires and moves with now."""
    out = dict(printed)
    for k in HALVED:
        if k in out:
            if c.crippled:
                out[k] = 0
            elif c.damage > 0:
                out[k] = half_up_22_3(out[k])
    return out


def reduced_steps_22_3(printed: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """What a damaged unit's counter shows (any damage: factors, EW and speed halved rounding
    up [22.3]) and a crippled one's (all 0 [22.5]); the Defense never changes."""
    damaged = factors_22_3(printed, Condition(printed.get("DEF", 0), damage=1))
    crippled = factors_22_3(printed, Condition(printed.get("DEF", 0), crippled=True))
    return damaged, crippled


def damage_22_3(c: Condition, points: int, *, per_point: bool = True) -> Condition:
    """[22.3], [22.5]: add damage points; sinks at the Defense, or on any damage once
    crippled; carried cruise missiles lost: one per point [22.3], or one for the hit when
    ``per_point`` is off (the declared reading ``missiles_lost_per_damage_point``, [15.1])."""
    if c.sunk or points <= 0:
        return c
    if c.crippled:
        return replace(c, sunk=True, missiles=0)
    dmg = c.damage + points
    if dmg >= c.defense:
        return replace(c, damage=dmg, sunk=True, missiles=0)
    lost = points if per_point else 1
    return replace(c, damage=dmg, missiles=max(0, c.missiles - lost))


def cripple_22_5(c: Condition) -> Condition:
    """[22.5] crippled: factors to 0, carried air and missiles lost; twice crippled sinks."""
    if c.sunk:
        return c
    if c.crippled:
        return replace(c, sunk=True, missiles=0)
    return replace(c, crippled=True, missiles=0)


def explosion_22_4(c: Condition, roll: int) -> Condition:
    """[22.4] d6 at or below the printed Defense cripples; above it eliminates."""
    if roll <= c.defense:
        return cripple_22_5(c)
    return replace(c, sunk=True, missiles=0)


def apply_outcome_22_0(
    c: Condition, outcome: str, explosion_roll: int | None = None, *, per_point: bool = True
) -> Condition:
    """One Hit Table outcome [22.1]-[22.7] on a non-carrier unit (``per_point``: see
    :func:`damage_22_3`)."""
    word = outcome.strip().lower()
    if word.endswith("damage"):
        points = whole(word.split()[0], what="damage points")
        return damage_22_3(c, points, per_point=per_point)
    if word == "explosion":
        if explosion_roll is None:
            raise ValueError("an explosion needs its d6 [22.4]")
        return explosion_22_4(c, explosion_roll)
    if word == "crippled":
        return cripple_22_5(c)
    if word == "eliminated":
        return replace(c, sunk=True, missiles=0)
    if word == "withdraw":
        return c if c.sunk else replace(c, withdrawn=True)
    raise ValueError(f"unknown Hit Table outcome {outcome!r}")


CARRIER_SYSTEMS = (
    "CIC",
    "CAG",
    "Hangar",
    "Flight Deck",
    "Air Defense",
    "Propulsion",
    "EW",
    "Hull",
    "Crew",
)


OUTCOMES = ("explosion", "crippled", "eliminated", "withdraw")


def check_hit_22_0(module: Module) -> list[Diagnostic]:
    """``referee check``: every Hit Table cell is an outcome the rules carry out: in the
    ``carrier`` column a Carrier System [22.2], elsewhere ``N damage`` (N a whole number
    from 1 to 9) [22.3] or one of explosion, crippled, eliminated, withdraw [22.4]-[22.7].
    Named in the schema's ``table_checks``."""
    t = module.tables["hit"]
    out: list[Diagnostic] = []
    for r, key in enumerate(t.row_keys):
        for c, col in enumerate(t.column_keys):
            cell = str(t.cells[r][c]).strip()
            if col.text == "carrier":
                ok, expected = cell in CARRIER_SYSTEMS, "a Carrier System [22.2]"
            else:
                n, _, rest = cell.lower().partition(" ")
                ok = cell.lower() in OUTCOMES or (
                    rest == "damage" and read_whole(n, lo=1, hi=9) is not None
                )
                expected = f"'N damage' (N from 1 to 9) or one of {', '.join(OUTCOMES)} [22.0]"
            if not ok:
                message = f"{key.text}, {col.text}: expected {expected}, got {shown(cell)}"
                message += why_not(cell.split()[0] if cell.split() else cell)
                line = t.lines[r] if t.lines else None
                out.append(Diagnostic(t.file, line, t.cell_column(r, c), message, HINT))
    return out


def carrier_hit_22_2(systems: dict[str, int], system: str) -> tuple[dict[str, int], bool]:
    """[22.2] one hit on a carrier system: never below 0; Hull 0 sinks the carrier.
    Returns (systems, sunk)."""
    out = dict(systems)
    out[system] = max(0, out[system] - 1)
    return out, out["Hull"] == 0


def hangar_losses_14_1(aircraft_aboard: int, hangar: int, flight_deck: int) -> int:
    """[14.1], [15.2] (docs/interpretations.md, CBG 14.1): aircraft over Hangar + Flight
    Deck are lost."""
    return max(0, aircraft_aboard - (hangar + flight_deck))
