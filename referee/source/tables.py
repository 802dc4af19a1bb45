"""The three tables every hex-and-counter module has always had, as named tables plus the views
rulesets and charts read: the Terrain Effects Chart (``terrain``), the Combat Results Table
(``crt``) and the Level of Victory table (``victory``).

``[files] terrain = "tables/terrain.csv"`` (and ``crt``, ``victory``) is shorthand for a
``[[table]]`` with the declaration below; a module may instead declare the table itself with
``[[table]] name = "crt"``, and the view then checks the declaration has the shape it needs.
The views are thin: :class:`~referee.source.model.TerrainType` rows for the map,
:class:`~referee.source.model.CombatResultsTable` (columns read at or below [8.9]) and
:class:`~referee.source.model.VictoryLevel` bands [13.2].
"""

from __future__ import annotations

from referee.source.base import MODULE_FILE, Ctx
from referee.source.cellgrammar import die_or_less
from referee.source.model import CombatResultsTable, CrtCell, Origin, TerrainType, VictoryLevel
from referee.source.table_loader import grammar_for
from referee.source.tablemodel import Axis, NamedTable, TableDecl

TERRAIN = TableDecl(
    name="terrain",
    file="tables/terrain.csv",
    rows=Axis(kind="name", columns=("id",), label="Terrain", word="terrain id"),
    columns=Axis(kind="name"),
    title="Terrain Effects Chart",
    short="TEC",
    cells=(
        ("cost_*", "cost"),
        ("defense_x_*", "int?"),
        ("color", "color"),
        ("blocks_zoc", "yes_no"),
        ("*", "text"),
    ),
    require=("char", "name", "color"),
)
CRT = TableDecl(
    name="crt",
    file="tables/crt.csv",
    rows=Axis(
        kind="int",
        columns=("ECM",),
        lookup="exact",
        below="clamp",
        above="clamp",
        label="ECM",
        word="ECM",
        contiguous=True,
    ),
    columns=Axis(
        kind="int",
        lookup="at_or_below",
        below="fail",
        above="clamp",
        label="Combat Differential",
        word="differential",
    ),
    title="Combat Results Table",
    short="CRT",
    rule="8.9",
    cells=(("*", "die_or_less"),),
    notes=("source",),
)
VICTORY = TableDecl(
    name="victory",
    file="tables/victory.csv",
    rows=Axis(kind="range", columns=("min", "max"), label="Net victory points", word="net VP"),
    columns=Axis(kind="name"),
    title="Level of Victory",
    short="victory table",
    rule="13.2",
    notes=("source",),
    require=("result",),
)
STANDARD: dict[str, TableDecl] = {d.name: d for d in (TERRAIN, CRT, VICTORY)}
WHAT = {
    "terrain": "the Terrain Effects Chart CSV",
    "crt": "the Combat Results Table CSV",
    "victory": "the Level of Victory CSV",
}


def _shape_error(ctx: Ctx, table: NamedTable, need: str) -> None:
    ctx.diags.error(
        MODULE_FILE,
        table.decl.line,
        f"table {table.name!r} cannot serve as the {table.decl.title or table.name}: {need}",
        hint="see the standard declaration in docs/module-source.md",
    )


def parse_crt_cell(raw: str) -> CrtCell | None:
    """``*`` (no effect), ``0``, ``1``, ``1-2``... Returns ``None`` when unparsable."""
    try:
        lo, hi = die_or_less(raw)
    except ValueError:
        return None
    return CrtCell(lo, hi)


def terrain_view(ctx: Ctx, table: NamedTable) -> dict[str, TerrainType]:
    """The TEC rows as terrain types; each terrain's ``char`` is its letter in map.txt."""
    name, header = table.file, list(table.header)
    d = ctx.diags
    if table.decl.rows.kind != "name" or table.decl.columns.kind != "name":
        _shape_error(ctx, table, "rows keyed by terrain id and named columns")
        return {}
    cats = list(ctx.schema.categories) if ctx.schema else []
    for c in cats:
        if f"cost_{c}" not in header:
            d.error(
                name,
                table.header_line,
                f"missing column 'cost_{c}' (movement cost for {c} units)",
            )
    out: dict[str, TerrainType] = {}
    chars: dict[str, str] = {}
    for i, key in enumerate(table.row_keys):
        r = table.record(i)
        ln = table.lines[i]
        tid, ch = key.text, str(r.get("char", ""))
        if len(ch) != 1 or ch.isspace() or ch in "|":
            d.error(
                name,
                ln,
                f"terrain char {ch!r} must be one visible character other than '|'",
                col=header.index("char") + 1 if "char" in header else 1,
            )
        elif ch in chars:
            d.error(
                name,
                ln,
                f"terrain char {ch!r} is already used by {chars[ch]!r}",
                col=header.index("char") + 1,
            )
        chars[ch] = tid
        costs = {h[5:]: v for h, v in r.items() if h.startswith("cost_")}
        mult = {
            h[len("defense_x_") :]: 1 if v is None else v
            for h, v in r.items()
            if h.startswith("defense_x_")
        }
        color = r.get("color")
        out[tid] = TerrainType(
            id=tid,
            char=ch,
            name=str(r.get("name", "")),
            color=color if isinstance(color, str) else "#808080",
            costs=costs,
            blocks_zoc=bool(r.get("blocks_zoc", False)),
            defense_multiplier=mult,
            notes=str(r.get("notes", "") or ""),
            rule=str(r.get("rule", "") or ""),
            origin=Origin(name, ln),
        )
    if ctx.schema:
        for need in ctx.schema.terrain:
            if need not in out:
                d.error(name, None, f"ruleset {ctx.schema.id} needs terrain {need!r}")
    return out


def crt_view(ctx: Ctx, table: NamedTable) -> CombatResultsTable | None:
    """The CRT: differential columns read at or below, ECM rows [8.8]/[8.9]."""
    decl = table.decl
    if decl.rows.kind != "int" or decl.columns.kind != "int":
        _shape_error(ctx, table, "whole-number rows (ECM) and columns (differential)")
        return None
    if any(grammar_for(decl, k.text) != "die_or_less" for k in table.column_keys):
        _shape_error(ctx, table, 'cells = "die_or_less"')
        return None
    if not table.row_keys or not table.column_keys:
        return None
    rows: dict[int, tuple[CrtCell, ...]] = {}
    sources: dict[int, str] = {}
    for key, cells, notes in zip(table.row_keys, table.cells, table.notes, strict=True):
        assert key.lo is not None
        rows[key.lo] = tuple(CrtCell(*c) if c is not None else CrtCell(None, None) for c in cells)
        sources[key.lo] = notes.get("source", "")
    return CombatResultsTable(
        columns=tuple(k.lo for k in table.column_keys if k.lo is not None),
        rows=rows,
        sources=sources,
        title=decl.title or CRT.title,
        row_label=decl.rows.label or CRT.rows.label,
        column_label=decl.columns.label or CRT.columns.label,
    )


def victory_view(ctx: Ctx, table: NamedTable) -> tuple[VictoryLevel, ...]:
    """The Level of Victory bands [13.2], in the order written."""
    if table.decl.rows.kind != "range" or "result" not in {k.text for k in table.column_keys}:
        _shape_error(ctx, table, "range rows (min, max) and a 'result' column")
        return ()
    col = table.column("result")
    return tuple(
        VictoryLevel(k.lo, k.hi, str(table.texts[i][col])) for i, k in enumerate(table.row_keys)
    )
