"""Incident chits [16.0]-[16.2], [11.4], [17.1].

How many chits a task force picks: the Alert level [16.0], plus one in a Chokepoint, two in
a Soviet Naval Base, three when that base is also the Objective [16.1], [12.4]; an Objective
adds one [12.4]; none at a NATO base [16.1]. The extra chits per space type are the Terrain
Effects Chart's ``extra_chits`` column.
"""

from __future__ import annotations

from referee.numerals import HINT, read_whole, shown, whole, why_not
from referee.source.diagnostics import Diagnostic
from referee.source.model import Module


def extra_chits_16_1(module: Module, space_type: str, *, objective: bool) -> int | None:
    """[16.1], [12.4]: the chits a space adds; ``None`` means no chits at all (NATO base)."""
    tec = module.tables["terrain"]
    raw = str(tec.lookup(row=space_type, col="extra_chits").value)
    if raw == "none":
        return None
    extra = whole(raw, what="extra chits")  # check_terrain_16_1 refuses anything else
    if objective and space_type != "objective":
        extra += 1  # an Objective that is also a Soviet base: 2 + 1 = 3 [16.1]
    return extra


def check_terrain_16_1(module: Module) -> list[Diagnostic]:
    """``referee check``: each space type's ``extra_chits`` is ``none`` (no chits at all) or
    a whole number from 0 to 3 [16.1], [12.4]. Named in the schema's ``table_checks``."""
    t = module.tables["terrain"]
    cols = [c.text for c in t.column_keys]
    if "extra_chits" not in cols:
        return []
    c = cols.index("extra_chits")
    out: list[Diagnostic] = []
    for r, key in enumerate(t.row_keys):
        raw = str(t.cells[r][c]).strip()
        if raw != "none" and read_whole(raw, lo=0, hi=3) is None:
            message = f"{key.text}: expected extra_chits 'none' or a whole number from 0 to 3, "
            message += f"got {shown(raw)}{why_not(raw)} [16.1]"
            line = t.lines[r] if t.lines else None
            out.append(Diagnostic(t.file, line, t.cell_column(r, c), message, HINT))
    return out


def chits_to_draw_16_0(module: Module, alert: int, space_type: str, *, objective: bool) -> int:
    """[16.0] the Alert level plus the space's modifiers [16.1]; 0 at a NATO base."""
    extra = extra_chits_16_1(module, space_type, objective=objective)
    return 0 if extra is None else alert + extra
