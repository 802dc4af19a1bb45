"""The Westpac scenario's own tables [DTP 11.5]: the victory point awards and the East Block's
variable air reinforcements, declared for ``referee check`` and the chart book.

- ``victory_awards`` [DTP 11.5124, 11.5126]: the awards table as the kit prints it, one row per
  event: the side that scores, the points (a number, or an ECM rule such as ``1/2 ECM``), how
  often (``once``, ``unit``, ``turn``: the table's ``*``, ``end``), the destination hexes or the
  victory area [DTP 11.5123] and the units that may earn it.
- ``variable_air`` [DTP 11.507]: a d6 roll each AM turn from turn 4; the first unit listed for
  the roll that is still in the variable air box enters. The kit's table is missing: every row
  of the module's table is an estimate.

- ``retreat_rules`` [DTP 11.503]: for each nationality, whether its damaged ships and subs may
  use its side's retreat edge, and the ports where they may be removed instead.

All are optional (only Westpac has them). The checks report each bad cell with its row, so
nothing reads a table that names a unit, hex or area that does not exist.
"""

from __future__ import annotations

from referee.source.diagnostics import Diagnostic
from referee.source.model import Module
from referee.source.tablemodel import Axis, TableDecl

PER = ("once", "unit", "turn", "end")

VICTORY_AWARDS = TableDecl(
    name="victory_awards",
    file="tables/victory_awards.csv",
    rows=Axis(kind="name", columns=("id",), label="Award", word="award"),
    columns=Axis(kind="name"),
    title="Westpac 78 Victory Point Awards",
    short="victory awards table",
    source="DTP 11.5124, 11.5126",
    rule="DTP 11.5124",
    cells=(("*", "text"),),
    notes=("source",),
    require=("side", "event", "vp", "per", "hexes", "units", "rule"),
    required=False,
)
VARIABLE_AIR = TableDecl(
    name="variable_air",
    file="tables/variable_air.csv",
    rows=Axis(kind="name", columns=("roll",), label="Die roll", word="roll"),
    columns=Axis(kind="name"),
    title="East Block Variable Air Reinforcements",
    short="variable air table",
    source="DTP 11.507",
    rule="DTP 11.507",
    cells=(("*", "text"),),
    notes=("source",),
    require=("units", "placement"),
    required=False,
)
RETREAT_RULES = TableDecl(
    name="retreat_rules",
    file="tables/retreat_rules.csv",
    rows=Axis(kind="name", columns=("nationality",), label="Nationality", word="nationality"),
    columns=Axis(kind="name"),
    title="Retreat Edges and Removal Ports",
    short="retreat rules table",
    source="DTP 11.503",
    rule="DTP 11.503",
    cells=(("*", "text"),),
    notes=("source",),
    require=("retreat_edge", "ports", "rule"),
    required=False,
)
YES_NO = ("yes", "no")


def _unknown_units(module: Module, words: str) -> list[str]:
    """The words of a units cell that name no unit or counter of the module."""
    known = {u.id for u in module.units}
    known |= {f"{u.id}.{i}" for u in module.units for i in range(1, u.count + 1)}
    return [w for w in words.split() if w not in known]


def _bad_place(module: Module, word: str) -> bool:
    """A hexes cell word that is neither a hex of the map nor one of its areas."""
    return word not in module.map.hexes and word not in {a.id for a in module.map.areas.values()}


def check_victory_awards_11_5124(module: Module) -> list[Diagnostic]:
    """``referee check``: a known side, a known 'per', every unit and destination on the
    module [DTP 11.5124]."""
    t = module.tables["victory_awards"]
    sc, pc, hc, uc = (t.column(c) for c in ("side", "per", "hexes", "units"))
    sides = {s.id for s in module.sides}
    out: list[Diagnostic] = []
    for r, k in enumerate(t.row_keys):
        line = t.lines[r] if t.lines else None
        row = [str(c) for c in t.cells[r]]
        problems = [f"unknown side {row[sc]!r}"] if row[sc] not in sides else []
        if row[pc] not in PER:
            problems.append(f"'per' {row[pc]!r} is not one of {', '.join(PER)}")
        problems += [
            f"{w!r} is no hex or area of the map" for w in row[hc].split() if _bad_place(module, w)
        ]
        problems += [f"{w!r} is no unit" for w in _unknown_units(module, row[uc])]
        out += [
            Diagnostic(t.file, line, None, f"{k.text}: {p} [DTP 11.5124]", None) for p in problems
        ]
    return out


def check_variable_air_11_507(module: Module) -> list[Diagnostic]:
    """``referee check``: one row for each d6 roll 1-6, every unit a counter of the module
    [DTP 11.507]."""
    t = module.tables["variable_air"]
    uc = t.column("units")
    out: list[Diagnostic] = []
    rolls = [k.text for k in t.row_keys]
    if sorted(rolls) != [str(n) for n in range(1, 7)]:
        out.append(
            Diagnostic(t.file, None, None, f"rolls {rolls} are not 1 to 6 [DTP 11.507]", None)
        )
    for r, k in enumerate(t.row_keys):
        line = t.lines[r] if t.lines else None
        for w in _unknown_units(module, str(t.cells[r][uc])):
            out.append(
                Diagnostic(
                    t.file, line, None, f"roll {k.text}: {w!r} is no unit [DTP 11.507]", None
                )
            )
    return out


def check_retreat_rules_11_503(module: Module) -> list[Diagnostic]:
    """``referee check``: each nationality the module's, ``retreat_edge`` yes or no, each port
    a coastal hex of the map [DTP 11.503]."""
    t = module.tables["retreat_rules"]
    ec, pc = t.column("retreat_edge"), t.column("ports")
    out: list[Diagnostic] = []
    for r, k in enumerate(t.row_keys):
        line = t.lines[r] if t.lines else None
        problems = [] if k.text in module.nationalities else [f"unknown nationality {k.text!r}"]
        if str(t.cells[r][ec]) not in YES_NO:
            problems.append(f"retreat_edge {str(t.cells[r][ec])!r} is not yes or no")
        for h in str(t.cells[r][pc]).split():
            hx = module.map.hexes.get(h)
            if hx is None or hx.terrain != "coastal":
                problems.append(f"port {h!r} is no coastal hex of the map")
        out += [
            Diagnostic(t.file, line, None, f"{k.text}: {p} [DTP 11.503]", None) for p in problems
        ]
    return out
