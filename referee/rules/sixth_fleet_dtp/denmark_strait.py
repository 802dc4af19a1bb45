"""The special rules of Denmark Strait and Iceland that need code [DTP 11.3, 11.31].

Pure functions, one per rule, each citing its case. What a scenario file can say as data (the
set-up, the places, the light line as a map area) is in module_src/dtp_denmark_strait; what it
cannot is here:

- only nuclear subs (SN, SG) may enter pack ice, and under the ice only nuclear subs (under
  the ice or in an adjacent ocean hex) may detect or attack them [DTP 11.3 rule 6];
- the convoy (0-0-0/3-7-*) takes the ECM of the unit stacked above it, is sunk at D12 and not
  D3, moves 2 MP from D2 on, and scores one elimination's VP per 3 damage levels, the
  remainder at the 8.57 fractions [DTP 11.3 rule 7, 8.57];
- a stack of three Soviet surface units entering Tromso or Keflavik, once its defences are
  destroyed, lands naval infantry and occupies it [DTP 11.3 rule 5];
- on or above the Arctic light line day-rated air is not halved at night and Strike Contact
  has no night -2 [DTP 11.3 rule 8] (the map area ``above_light_line``).

Neutral hooks call in: movement (``path.check_path_5_0`` asks
:func:`pack_ice_problem_11_3_6`; detection and attack checks ask
:func:`under_ice_problem_11_3_6`; ``path.allowance_8_55`` asks :func:`allowance_11_3_7`),
Strike Contact (``combat_phase`` asks :func:`above_light_line_11_3_8` for the target hex) and
the Hit Table (``combat`` and ``combat_phase`` ask :func:`sunk_at_11_3_7`). The convoy is
marked by the unit flag ``convoy`` in the manifest, not by its id. Every hook answers "no
effect" on maps without pack ice or a light-line area and for units without the flag, so the
Med is untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from referee.engine.core import Violation
from referee.source.model import MapDef

PACK_ICE = "pack_ice"
NUCLEAR_SUBS = frozenset({"SN", "SG"})
LIGHT_LINE_AREA = "above_light_line"
CONVOY_FLAG = "convoy"
CONVOY_SUNK_AT = 12
ORDINARY_SUNK_AT = 3
CONVOY_SLOW_FROM = 2
CONVOY_SLOW_MA = 2
NAVAL_INFANTRY_STACK = 3
NAVAL_INFANTRY_HEXES = ("Tromso", "Keflavik")


def pack_ice_problem_11_3_6(
    terrain: str, unit_type: str, unit: str, hex_id: str
) -> Violation | None:
    """Entering pack ice: only nuclear subs may [DTP 11.3 rule 6]."""
    if terrain != PACK_ICE or unit_type in NUCLEAR_SUBS:
        return None
    return Violation(
        "DTP 11.3",
        f"{unit} ({unit_type}) may not enter pack ice in {hex_id}: only nuclear subs (SN, SG) "
        "may (rule 6)",
        code="pack-ice",
        word=hex_id,
        unit=unit,
        hint="go around the ice, or use a nuclear sub",
    )


def may_reach_under_ice_11_3_6(
    target_terrain: str, by_type: str, by_terrain: str, by_distance: int
) -> bool:
    """May a unit detect or attack a sub under pack ice? Only a nuclear sub, under the ice
    itself or in an adjacent ocean hex [DTP 11.3 rule 6]; any unit may if the target is not
    under the ice (then the ordinary rules decide)."""
    if target_terrain != PACK_ICE:
        return True
    return by_type in NUCLEAR_SUBS and by_distance <= 1 and by_terrain in (PACK_ICE, "high_seas")


def under_ice_problem_11_3_6(
    verb: str,
    target_terrain: str,
    by: Sequence[tuple[str, str, str]],
    distance: int,
    target_hex: str,
) -> Violation | None:
    """A detection attempt or attack on a sub under pack ice by units that may not reach it
    [DTP 11.3 rule 6]: ``by`` lists (unit, type, terrain of its hex); every one must be a
    nuclear sub under the ice or in an adjacent ocean hex. None when the target is not under
    the ice (the ordinary rules decide)."""
    bad = [
        u for u, t, ter in by if not may_reach_under_ice_11_3_6(target_terrain, t, ter, distance)
    ]
    if not bad:
        return None
    return Violation(
        "DTP 11.3",
        f"{', '.join(bad)} may not {verb} a sub under the pack ice in {target_hex}: only a "
        "nuclear sub (SN, SG) under the ice or in an adjacent ocean hex may (rule 6)",
        code="under-ice",
        word=target_hex,
        unit=bad[0],
        hint="use a nuclear sub under the ice or next to it",
    )


def convoy_ecm_11_3_7(stack_above: Sequence[int]) -> int:
    """The convoy's ECM is that of the unit stacked immediately above it; with none, 0
    [DTP 11.3 rule 7]. ``stack_above`` lists the ECMs of the units above it, nearest first."""
    return stack_above[0] if stack_above else 0


def convoy_sunk_11_3_7(damage: int) -> bool:
    """The convoy is not sunk at D3; it is sunk at D12 [DTP 11.3 rule 7]."""
    return damage >= CONVOY_SUNK_AT


def sunk_at_11_3_7(flags: frozenset[str]) -> int:
    """The damage level that sinks this ship: D12 for the convoy (flag ``convoy``), D3 for any
    other [DTP 11.3 rule 7, 8.55]."""
    return CONVOY_SUNK_AT if CONVOY_FLAG in flags else ORDINARY_SUNK_AT


def allowance_11_3_7(flags: frozenset[str], printed_ma: int, damage: int) -> int | None:
    """The convoy's movement allowance at this damage level, or None for any other unit (the
    8.55 halving applies) [DTP 11.3 rule 7 over 8.55]."""
    return convoy_allowance_11_3_7(printed_ma, damage) if CONVOY_FLAG in flags else None


def convoy_allowance_11_3_7(printed_ma: int, damage: int) -> int:
    """From D2 on the convoy moves 2 MP, not half its MA [DTP 11.3 rule 7 over 8.55]."""
    return min(printed_ma, CONVOY_SLOW_MA) if damage >= CONVOY_SLOW_FROM else printed_ma


def convoy_vp_11_3_7(damage: int, unit_vp: int) -> Fraction:
    """Soviet VP for the convoy's damage: one elimination's worth per 3 levels, the rest at
    the 8.57 fractions (1 level 1/4, 2 levels 1/2); it is 4 ships, so D12 scores 4 times
    [DTP 11.3 rule 7, 8.57]."""
    d = min(max(damage, 0), CONVOY_SUNK_AT)
    whole, rest = divmod(d, 3)
    return unit_vp * (whole + (Fraction(0), Fraction(1, 4), Fraction(1, 2))[rest])


def naval_infantry_11_3_5(
    place: str | None, soviet_surface_units: int, defences_destroyed: bool
) -> bool:
    """Does a Soviet stack entering this hex land naval infantry and occupy it? Only Tromso or
    Keflavik, only three surface units, only once the hex's defences are destroyed
    [DTP 11.3 rule 5]."""
    return (
        place in NAVAL_INFANTRY_HEXES
        and soviet_surface_units >= NAVAL_INFANTRY_STACK
        and defences_destroyed
    )


def convoy_may_dock_11_3_7(port: str, tromso_occupied: bool) -> bool:
    """The convoy docks at Tromso; at Trondheim only if Tromso is occupied by naval infantry
    [DTP 11.3 rule 7]."""
    if port == "Tromso":
        return not tromso_occupied
    return port == "Trondheim" and tromso_occupied


def night_applies_11_3_8(night: bool, target_areas: frozenset[str]) -> bool:
    """Does night count for this strike? Not when its target is on or above the Arctic light
    line (May-July): no halving of day-rated air, no -2 on Strike Contact [DTP 11.3 rule 8,
    8.15 step 9, 9.52]."""
    return night and LIGHT_LINE_AREA not in target_areas


def above_light_line_11_3_8(map_def: MapDef, hex_id: str) -> bool:
    """Is this hex on or above the Arctic light line, the map area ``above_light_line``
    [DTP 11.3 rule 8]? False on maps without that area (the Med)."""
    h = map_def.hexes.get(hex_id)
    return h is not None and LIGHT_LINE_AREA in h.areas
