"""[DTP 5.24, 5.25] movement as amended (SPI 5.24-5.26 deleted; 5.1 and 5.21-5.23 kept).

* [DTP 5.24] no unit leaves the map, except a *damaged* ship or sub by its side's retreat edge
  (taking the air units aboard a damaged CV), or a unit the scenario lets exit for victory;
  the Med's edges are the players table's [DTP 11.0];
* [DTP 5.25] air and sub units may move *through* enemy-occupied hexes; surface ships only
  through hexes holding nothing but enemy subs or aircraft; no unit ends in an enemy hex.

The hex maths (paths, terrain costs) stay SPI's (``sixth_fleet_1975.movement``); these are
the two questions DTP answers differently, as pure functions over categories and hex ids.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.engine.core import Violation
from referee.rules.sixth_fleet_dtp.tables import parse_edges
from referee.source.model import Module


def through_problem_5_25(
    unit: str, category: str, enemy_categories: Iterable[str], ends_here: bool, hex_id: str
) -> Violation | None:
    """Whether ``unit`` may enter ``hex_id`` holding enemy units of ``enemy_categories``
    [DTP 5.25]: never to end there; surface ships not through enemy surface ships."""
    enemies = set(enemy_categories)
    if not enemies:
        return None
    if ends_here:
        return Violation(
            "DTP 5.25",
            f"{unit} may not end its move in {hex_id}, which holds enemy units",
            code="ends-in-enemy-hex",
            word=hex_id,
            unit=unit,
            hint="move on through it, or stop short",
        )
    if category == "surface" and "surface" in enemies:
        return Violation(
            "DTP 5.25",
            f"{unit} may not pass through {hex_id}: surface ships pass only through hexes "
            "holding nothing but enemy subs or aircraft",
            code="through-enemy-surface",
            word=hex_id,
            unit=unit,
            hint="go around the enemy surface ships",
        )
    return None


def edge_hexes_5_24(edge: str) -> tuple[str, ...]:
    """The hexes of a retreat edge of one or more segments separated by spaces, each in
    order, a hex shared by two segments once [DTP 5.24, 11.3]."""
    segments = parse_edges(edge)
    if segments is None:
        raise ValueError(f"not a retreat edge: {edge!r}")
    out: list[str] = []
    for a, b in segments:
        out += [h for h in _segment_hexes(a, b, edge) if h not in out]
    return tuple(out)


def _segment_hexes(a: str, b: str, edge: str) -> tuple[str, ...]:
    """The hexes of one segment ``first-last`` with four-digit ids: the two share their first
    two digits (a row: 2525-2536) or their last two (a column: 1301-2101)."""
    if a[:2] == b[:2]:
        lo, hi = sorted((int(a[2:]), int(b[2:])))
        return tuple(f"{a[:2]}{c:02d}" for c in range(lo, hi + 1))
    if a[2:] == b[2:]:
        lo, hi = sorted((int(a[:2]), int(b[:2])))
        return tuple(f"{r:02d}{a[2:]}" for r in range(lo, hi + 1))
    raise ValueError(f"retreat edge {edge!r} is neither one row nor one column of hexes")


def retreat_edge_11_0(module: Module, side: str) -> tuple[str, ...]:
    """A side's retreat edge hexes from the module's players table [DTP 11.0]."""
    t = module.tables["players"]
    return edge_hexes_5_24(str(t.lookup(row=side, col="retreat_edge").value))


def exit_problem_5_24(
    unit: str, category: str, damage: int, hex_id: str, edge: Iterable[str], for_victory: bool
) -> Violation | None:
    """Leaving the map [DTP 5.24]: only a damaged ship or sub from its retreat edge, or a
    unit the scenario lets exit for victory."""
    if for_victory:
        return None
    if category not in ("surface", "submarine") or damage < 1:
        return Violation(
            "DTP 5.24",
            f"{unit} may not leave the map: only damaged ships and subs may retreat off it",
            code="exit-undamaged",
            word=hex_id,
            unit=unit,
        )
    if hex_id not in set(edge):
        return Violation(
            "DTP 5.24",
            f"{unit} may leave the map only from its side's retreat edge, not from {hex_id}",
            code="exit-not-on-edge",
            word=hex_id,
            unit=unit,
            hint="the retreat edges are the scenario's [DTP 11.0]",
        )
    return None
