"""Ports: types, the ships they admit and their capacity [26.2x], [28.23], [32.2].

The figures come from the module's Port Characteristics Chart (named table ``port_chart``,
rows ``major_port``, ``minor_port``, ``anchorage``). The arithmetic follows the 26.27d example:
artillery (at most 6), then interdiction (the listed amount at Level 1, double at Level 2),
never below zero, then the Naval Base doubles what is left [26.27d], then Evacuation doubles
loading [28.23a]. The 26.27b text names General Supply only, the example the whole capacity:
the example wins (docs/interpretations.md, NM-4).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.source.model import Module

PORT_TYPES = ("major_port", "minor_port", "anchorage")


@dataclass(frozen=True, slots=True)
class Capacity:
    """A port's capacity this player turn and each step of its arithmetic (for reports)."""

    value: int
    steps: tuple[tuple[str, str, int], ...]  # (rule, what, capacity after it)


def is_port(module: Module, name: str) -> bool:
    spaces = module.map.spaces
    return spaces is not None and name in spaces.spaces


def port_type(module: Module, name: str) -> str:
    return module.map.spaces.spaces[name].type  # type: ignore[union-attr]


def port_zone(module: Module, name: str) -> str:
    """The one sea zone a port opens on [26.21]."""
    return str(module.map.spaces.spaces[name].zone)  # type: ignore[union-attr]


def chart(module: Module, name: str, column: str) -> object:
    return module.tables["port_chart"].lookup(row=port_type(module, name), col=column).value


def admits(module: Module, name: str, ship_type: str) -> bool:
    """Whether the port's type admits this naval unit type [26.24]."""
    return ship_type in str(chart(module, name, "types")).split()


def capacity_26_27(
    base: int,
    *,
    listed_reduction: int,
    interdiction_level: int = 0,
    artillery_points: int = 0,
    naval_base: bool = False,
    evacuation_loading: bool = False,
    naval_base_case: str = "26.27d",
) -> Capacity:
    """The 26.27 arithmetic on plain numbers (the golden example NM-EX-26.27d); a Naval Base
    doubles the NTP capacity [26.27d] and the General Supply capacity [26.26b]
    (``naval_base_case``)."""
    steps: list[tuple[str, str, int]] = [("26.25", "listed capacity", base)]
    value = base
    if artillery_points:
        cut = min(6, artillery_points)
        value = max(0, value - cut)
        steps.append(("26.27b", f"enemy artillery, {artillery_points} points (at most 6)", value))
    if interdiction_level:
        cut = listed_reduction * (2 if interdiction_level >= 2 else 1)
        value = max(0, value - cut)
        steps.append(("26.27a", f"Level {interdiction_level} interdiction, -{cut}", value))
    if naval_base:
        value *= 2
        steps.append((naval_base_case, "Naval Base doubles the net capacity", value))
    if evacuation_loading:
        value *= 2
        steps.append(("28.23a", "Evacuation doubles loading", value))
    return Capacity(value, tuple(steps))


def port_capacity(
    module: Module,
    name: str,
    *,
    interdiction_level: int = 0,
    artillery_points: int = 0,
    naval_base: bool = False,
    evacuation_loading: bool = False,
    column: str = "capacity",
) -> Capacity:
    """A port's NTP (``capacity``) or General Supply (``general_supply``) capacity [26.25],
    [26.26], [26.27]."""
    return capacity_26_27(
        int(chart(module, name, column)),  # type: ignore[call-overload]
        listed_reduction=int(chart(module, name, "interdiction")),  # type: ignore[call-overload]
        interdiction_level=interdiction_level,
        artillery_points=artillery_points,
        naval_base=naval_base,
        evacuation_loading=evacuation_loading,
        naval_base_case="26.26b" if column == "general_supply" else "26.27d",
    )


def remaining_26_25(capacity: int, used: int) -> int:
    """Loading and unloading share one capacity per player turn [26.25]: 12 with 7 unloaded
    leaves 5."""
    return max(0, capacity - used)
