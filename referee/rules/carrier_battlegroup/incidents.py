"""Incident chits [16.0]-[16.2], [11.4], [17.1].

How many chits a task force picks: the Alert level [16.0], plus one in a Chokepoint, two in
a Soviet Naval Base, three when that base is also the Objective [16.1], [12.4]; an Objective
adds one [12.4]; none at a NATO base [16.1]. The extra chits per space type are the Terrain
Effects Chart's ``extra_chits`` column.
"""

from __future__ import annotations

from referee.source.model import Module


def extra_chits_16_1(module: Module, space_type: str, *, objective: bool) -> int | None:
    """[16.1], [12.4]: the chits a space adds; ``None`` means no chits at all (NATO base)."""
    tec = module.tables["terrain"]
    raw = str(tec.lookup(row=space_type, col="extra_chits").value)
    if raw == "none":
        return None
    extra = int(raw)
    if objective and space_type != "objective":
        extra += 1  # an Objective that is also a Soviet base: 2 + 1 = 3 [16.1]
    return extra


def chits_to_draw_16_0(
    module: Module, alert: int, space_type: str, *, objective: bool, entered: bool = True
) -> int:
    """[16.0] the Alert level plus the space's modifiers [16.1], which count only in the
    turn the task force enters the space ("Whenever a task force enters ..."); 0 at a
    NATO base."""
    extra = extra_chits_16_1(module, space_type, objective=objective)
    if extra is None:
        return 0
    return alert + (extra if entered else 0)
