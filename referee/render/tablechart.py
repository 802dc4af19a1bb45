"""The generic chart of a named table: any table a module declares prints, laid out from its
declaration alone (title, row and column labels, keys, cells, source).

The CRT, the TEC and the victory table keep their hand-tuned layouts in
:mod:`referee.render.charts`; every other table (the 14.3 Middle East table, a DTP Detection
table...) is drawn here. :func:`referee.render.charts.build_charts` adds these charts after the
victory table.
"""

from __future__ import annotations

import dataclasses

from referee.render.chart_layout import DASH, MAX_WIDTH, Builder, Chart, Column
from referee.render.chart_texts import ruleset_texts
from referee.source.model import Module
from referee.source.tablemodel import Key, NamedTable

# tables with a hand-tuned chart in referee.render.charts (table name -> chart name)
CUSTOM = {"crt": "crt", "terrain": "tec", "victory": "victory"}
RESERVED = {"crt", "tec", "victory", "sequence"}


def chart_name(table: str) -> str:
    """A table's chart name: its own, or ``table-<name>`` where that is taken."""
    return f"table-{table}" if table in RESERVED else table


def generic_tables(module: Module) -> list[NamedTable]:
    """The module's tables that have no hand-tuned chart, in declaration order."""
    return [t for name, t in module.tables.named.items() if name not in CUSTOM]


def _key_cells(table: NamedTable, key: Key) -> list[str]:
    parts = key.parts or (key,)
    return [DASH if p.blank else p.text for p in parts]


def table_chart(module: Module, table: NamedTable, continued: str = "") -> Chart:
    """One table as a ruled chart: the row key column(s), then one column per column key (under
    the column label when the columns are keyed), then any note column; the declared source
    and the ruleset's chart notes below. ``continued`` is added to the title of a part of a
    table split over pages (:func:`page_parts`)."""
    decl = table.decl
    name = chart_name(table.name)
    title = table.title + (f" [{decl.rule}]" if decl.rule else "") + continued
    b = Builder(name, table.title, MAX_WIDTH)
    b.title_band(title)
    draw_table(b, table)
    texts = ruleset_texts(module.ruleset).get(name, {})
    lines = [str(n) for n in texts.get("notes", [])]
    if decl.source:
        lines.append(f"Source: {decl.source}")
    b.notes(lines)
    return b.finish()


def draw_table(b: Builder, table: NamedTable) -> None:
    """A named table as a ruled table in ``b``: key column(s), one column per column key
    (under the column label when keyed), then any note column."""
    decl = table.decl
    key_cols = (
        [decl.rows.label or "/".join(decl.rows.columns)]
        if decl.rows.kind in ("range", "int", "die", "name")
        else list(decl.rows.columns)
    )
    keyed = decl.columns.kind != "name"
    cols = [Column(h, font="bold") for h in key_cols]
    cols += [
        Column(k.text, "center" if keyed else "left", wrap=not keyed) for k in table.column_keys
    ]
    notes = [n for n in decl.notes if any(row.get(n) for row in table.notes)]
    cols += [Column(n.capitalize(), "left", wrap=True, max_w=160) for n in notes]
    rows: list[list[str]] = []
    for i, key in enumerate(table.row_keys):
        shown = [key.text] if len(key_cols) == 1 else _key_cells(table, key)
        cells = [t if t != "" else DASH for t in table.texts[i]]
        rows.append([*shown, *cells, *(table.notes[i].get(n, "") for n in notes)])
    group = None
    if keyed and decl.columns.label:
        group = (decl.columns.label, len(key_cols), len(key_cols) + len(table.column_keys) - 1)
    b.table(cols, rows, group=group)


def _rows(table: NamedTable, start: int, end: int) -> NamedTable:
    """``table`` with only its rows ``start`` to ``end - 1``."""
    return dataclasses.replace(
        table,
        row_keys=table.row_keys[start:end],
        cells=table.cells[start:end],
        texts=table.texts[start:end],
        notes=table.notes[start:end],
        lines=table.lines[start:end],
        raw=table.raw[start:end],
    )


def page_parts(module: Module, table: NamedTable, room: float) -> list[Chart]:
    """``table``'s chart, or, when it is taller than ``room`` (the printable height of a
    page), its rows in consecutive charts that each fit, the later ones titled
    "(continued, 2 of 3)": a long table printed at 100 % over pages, not shrunk onto one
    until it cannot be read (the Westpac awards table [DTP 11.5124] has 40 rows)."""
    whole = table_chart(module, table)
    n = len(table.row_keys)
    if whole.drawing.height <= room or n < 2:
        return [whole]
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < n:
        lo, hi = start + 1, n  # the most rows from ``start`` that fit; at least one
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if table_chart(module, _rows(table, start, mid), " (continued)").drawing.height <= room:
                lo = mid
            else:
                hi = mid - 1
        bounds.append((start, lo))
        start = lo
    return [
        table_chart(
            module,
            _rows(table, a, b),
            f" (continued, {i} of {len(bounds)})" if i > 1 else f" (1 of {len(bounds)})",
        )
        for i, (a, b) in enumerate(bounds, 1)
    ]


def table_charts(module: Module) -> list[Chart]:
    return [table_chart(module, t) for t in generic_tables(module)]
