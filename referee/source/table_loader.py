"""Reading and checking named tables: the ``[[table]]`` declarations of ``module.toml`` and
the CSV file each one names.

``referee check`` reports, as ``file:line:col``: a declaration that names an unknown kind,
lookup rule or cell grammar; a file whose key columns are missing or out of place; keys that do
not parse, repeat, are out of order, overlap or leave a gap (ranges), or do not cover what the
declaration says (``covers``, ``contiguous``); and every cell that its column's grammar refuses,
naming the row and column it is in. The model is :mod:`referee.source.tablemodel`.
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from typing import Any

from referee.numerals import read_whole
from referee.safeio import UnsafeInput, resolve_inside
from referee.source.base import (
    MODULE_FILE,
    Ctx,
    get_str,
    list_of_tables,
    read_csv_file,
)
from referee.source.cellgrammar import GRAMMARS, grammar_known, grammar_of, parse_cell
from referee.source.diagnostics import did_you_mean
from referee.source.tablemodel import (
    EDGES,
    KEY_KINDS,
    LOOKUPS,
    Axis,
    Key,
    NamedTable,
    TableDecl,
    parse_key,
    range_key,
)
from referee.source.tomlpos import TomlText

NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
AXIS_KEYS = ("kind", "lookup", "below", "above", "label", "word", "contiguous", "covers")
TABLE_KEYS: tuple[str, ...] = (
    "name",
    "file",
    "title",
    "source",
    "rule",
    "short",
    "cells",
    "notes",
    "require",
    "required",
    "row_key",
    "row_blank",
    *(f"row_{k}" for k in AXIS_KEYS),
    *(f"column_{k}" for k in AXIS_KEYS),
)


# ---- declarations ---------------------------------------------------------------------------
def load_table_decls(ctx: Ctx, data: dict[str, Any], tt: TomlText) -> list[TableDecl]:
    """The ``[[table]]`` declarations of module.toml, checked."""
    out: list[TableDecl] = []
    starts = tt.block_starts("table")
    for i, t in enumerate(list_of_tables(ctx, MODULE_FILE, data, "table", tt, TABLE_KEYS)):
        ln = starts[i] if i < len(starts) else None
        decl = _decl(ctx, t, tt, ln)
        if decl is None:
            continue
        if any(d.name == decl.name for d in out):
            ctx.diags.error(MODULE_FILE, ln, f"table {decl.name!r} is declared twice")
            continue
        out.append(decl)
    return out


def _decl(ctx: Ctx, t: dict[str, Any], tt: TomlText, ln: int | None) -> TableDecl | None:
    """One ``[[table]]`` declaration: its name, file, row and column axes and cells, each
    key checked; ``None`` when any is wrong."""
    errors = len(ctx.diags.errors)
    k = _DeclKeys(ctx, t, tt, ln)
    name = get_str(ctx, MODULE_FILE, k.at("name"), t, "name", "[[table]]")
    if name and not NAME_RE.match(name):
        k.error("name", f"table name {name!r} must be lower-case letters, digits or '_'")
    file = get_str(ctx, MODULE_FILE, k.at("file"), t, "file", "[[table]]")
    k.what = f"table {name!r}"
    key_cols = k.names("row_key")
    if not key_cols:
        ctx.diags.error(
            MODULE_FILE, ln, f"{k.what}: missing 'row_key' (the column that holds the row keys)"
        )
    row_kind, parts = _row_kind(k, key_cols)
    col_kind = k.choice("column_kind", ("int", "die", "name"), "name")
    rows = Axis(
        kind=row_kind,
        lookup=k.choice("row_lookup", LOOKUPS, "exact"),
        below=k.choice("row_below", EDGES, "fail"),
        above=k.choice("row_above", EDGES, "fail"),
        label=k.text("row_label", "/".join(key_cols)),
        word=k.text("row_word"),
        columns=key_cols,
        parts=parts,
        blank=t.get("row_blank") if isinstance(t.get("row_blank"), str) else None,
        contiguous=k.flag("row_contiguous"),
        covers=k.covers("row_covers"),
    )
    columns = Axis(
        kind=col_kind,
        lookup=k.choice("column_lookup", LOOKUPS, "exact"),
        below=k.choice("column_below", EDGES, "fail"),
        above=k.choice("column_above", EDGES, "fail"),
        label=k.text("column_label"),
        word=k.text("column_word"),
        contiguous=k.flag("column_contiguous"),
        covers=k.covers("column_covers"),
    )
    for axis, prefix in ((rows, "row"), (columns, "column")):
        if axis.lookup != "exact" and not axis.numeric:
            k.error(
                f"{prefix}_lookup",
                f"{k.what}: {axis.lookup} needs numeric {prefix} keys (int, die or range), "
                f"not {axis.kind}",
            )
    cells = _cells(ctx, t.get("cells", "text"), k.what, k.at("cells"))
    decl = TableDecl(
        name=name,
        file=file,
        rows=rows,
        columns=columns,
        title=k.text("title"),
        source=k.text("source"),
        rule=k.text("rule"),
        short=k.text("short"),
        cells=cells,
        notes=k.names("notes"),
        require=k.names("require"),
        required=k.flag("required") if "required" in t else True,
        line=ln,
    )
    return decl if len(ctx.diags.errors) == errors else None


class _DeclKeys:
    """The keys of one ``[[table]]`` read by kind (text, column names, a choice, a range, a
    flag), each problem reported at the key's line."""

    def __init__(self, ctx: Ctx, t: dict[str, Any], tt: TomlText, ln: int | None) -> None:
        self.ctx, self.t, self.tt, self.ln = ctx, t, tt, ln
        self.what = "table"

    def at(self, key: str) -> int | None:
        return self.tt.key_line(key, start=self.ln)

    def error(self, key: str, message: str, hint: str | None = None) -> None:
        self.ctx.diags.error(MODULE_FILE, self.at(key), message, hint=hint)

    def text(self, key: str, default: str = "") -> str:
        return get_str(
            self.ctx,
            MODULE_FILE,
            self.at(key),
            self.t,
            key,
            self.what,
            required=False,
            default=default,
        )

    def names(self, key: str) -> tuple[str, ...]:
        """A column name or a list of them."""
        v = self.t.get(key, [])
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            self.error(key, f"{self.what}: '{key}' must be a column name or a list of them")
            return ()
        return tuple(v)

    def choice(self, key: str, allowed: tuple[str, ...], default: str) -> str:
        v = self.t.get(key, default)
        if v not in allowed:
            self.error(
                key,
                f"{self.what}: {key} must be one of {', '.join(allowed)}, got {v!r}",
                hint=did_you_mean(str(v), allowed),
            )
            return default
        return str(v)

    def covers(self, key: str) -> tuple[int, int] | None:
        """A range of keys like ``"1-6"``."""
        v = self.t.get(key)
        if v is None:
            return None
        m = re.fullmatch(r"\s*([+-]?[0-9]{1,9})\s*(?:-|to|\.\.)\s*([+-]?[0-9]{1,9})\s*", str(v))
        if not isinstance(v, str) or not m or int(m.group(1)) > int(m.group(2)):
            self.error(key, f'{self.what}: {key} must be a range like "1-6", got {v!r}')
            return None
        return int(m.group(1)), int(m.group(2))

    def flag(self, key: str) -> bool:
        v = self.t.get(key, False)
        if not isinstance(v, bool):
            self.error(key, f"{self.what}: {key} must be true or false, got {v!r}")
            return False
        return v


def _row_kind(k: _DeclKeys, key_cols: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The kind of the row keys and, for a composite key, each part's kind: a list of kinds
    (one per ``row_key`` column), or one kind (``range``: two columns, low and high)."""
    raw_kind = k.t.get("row_kind", "name")
    if isinstance(raw_kind, list):
        parts = tuple(str(x) for x in raw_kind)
        for x in parts:
            if x not in ("int", "die", "name"):
                k.error("row_kind", f"{k.what}: a composite key part must be int, die or name")
        if len(parts) != len(key_cols):
            k.error(
                "row_kind",
                f"{k.what}: row_kind lists {len(parts)} kinds for {len(key_cols)} row_key columns",
            )
        return "composite", parts
    row_kind = k.choice("row_kind", KEY_KINDS, "name")
    if row_kind == "range" and len(key_cols) != 2:
        k.error(
            "row_key",
            f"{k.what}: a range row key is two columns, low and high",
            hint='row_key = ["min", "max"]',
        )
    elif row_kind != "range" and len(key_cols) > 1:
        k.error(
            "row_kind",
            f"{k.what}: {len(key_cols)} row_key columns need a list of kinds (a composite "
            'key, e.g. row_kind = ["die", "name"]) or row_kind = "range"',
        )
    return row_kind, ()


def _cells(ctx: Ctx, raw: object, what: str, line: int | None) -> tuple[tuple[str, str], ...]:
    pairs: list[tuple[str, str]] = []
    if isinstance(raw, str):
        pairs = [("*", raw)]
    elif isinstance(raw, dict) and all(isinstance(v, str) for v in raw.values()):
        pairs = [(str(k), str(v)) for k, v in raw.items()]
    else:
        ctx.diags.error(
            MODULE_FILE,
            line,
            f"{what}: cells must be a grammar name or a table of column = grammar",
            hint='cells = "int", or cells = { "cost_*" = "cost", "*" = "text" }',
        )
        return (("*", "text"),)
    for _, g in pairs:
        if not grammar_known(g):
            ctx.diags.error(
                MODULE_FILE,
                line,
                f"{what}: unknown cell grammar {g!r}",
                hint=did_you_mean(g.removesuffix("?"), list(GRAMMARS))
                or "grammars: " + ", ".join(GRAMMARS),
            )
    return tuple(pairs)


def grammar_for(decl: TableDecl, column: str) -> str | None:
    """The cell grammar of a column: its exact name first, then the patterns in order."""
    for pat, g in decl.cells:
        if pat == column:
            return g
    for pat, g in decl.cells:
        if fnmatch.fnmatchcase(column, pat):
            return g
    return None


def table_file_exists(ctx: Ctx, decl: TableDecl) -> bool:
    try:
        return resolve_inside(ctx.root, decl.file, what="table").is_file()
    except UnsafeInput:
        return True  # let the read report it


# ---- one table --------------------------------------------------------------------------------
def load_named_table(ctx: Ctx, decl: TableDecl, line: int | None) -> NamedTable | None:
    """Read and check ``decl.file`` (named on ``line`` of module.toml). Problems go to the
    diagnostics; the table comes back whenever its header is usable, so later checks still
    run (the module as a whole is refused on any error)."""
    what = decl.title.lower() if decl.title else f"table {decl.name!r}"
    key_cols = list(decl.rows.columns)
    got = read_csv_file(
        ctx, decl.file, what=what, line=line, required=key_cols + list(decl.require)
    )
    if got is None:
        return None
    name, d, header, hline = decl.file, ctx.diags, got.header, got.header_line
    if header[: len(key_cols)] != key_cols:
        if all(k in header for k in key_cols):
            d.error(
                name,
                hline,
                f"the row key column{'s' if len(key_cols) > 1 else ''} "
                f"{', '.join(key_cols)} must come first",
            )
        return None
    value_cols = [h for h in header[len(key_cols) :] if h not in decl.notes]
    if not value_cols:
        d.error(name, hline, f"{decl.called} has no columns besides its row key")
        return None
    col_keys: list[Key] = []
    grammars: list[str] = []
    for h in value_cols:
        col = header.index(h) + 1
        try:
            col_keys.append(parse_key(h, decl.columns.kind))
        except ValueError as exc:
            d.error(
                name,
                hline,
                f"column heading {h!r} is not {exc}"
                + (f" ({decl.columns.word})" if decl.columns.word else ""),
                col=col,
            )
            return None
        g = grammar_for(decl, h)
        if g is None:
            d.error(
                name,
                hline,
                f"no cell grammar for column {h!r}",
                col=col,
                hint='declare one in the table\'s cells, e.g. "*" = "text"',
            )
            g = "text"
        grammars.append(g)
    _check_keys(ctx, decl, decl.columns, col_keys, [hline] * len(col_keys), "column")

    row_keys: list[Key] = []
    cells: list[tuple[Any, ...]] = []
    texts: list[tuple[str, ...]] = []
    notes: list[dict[str, str]] = []
    lines: list[int] = []
    raws: list[str] = []
    seen: dict[str, int] = {}
    grid = decl.columns.kind != "name"
    for lineno, r, raw in got.rows:
        key = _row_key(ctx, decl, header, lineno, r)
        if key is None:
            continue
        ident = "\x00".join(p.text for p in key.parts) if key.parts else key.text
        if ident in seen:
            d.error(
                name,
                lineno,
                f"{decl.rows.word or decl.rows.label} {key.text} appears twice "
                f"(first on line {seen[ident]})",
                col=1,
            )
            continue
        seen[ident] = lineno
        values: list[Any] = []
        for h, ck, g in zip(value_cols, col_keys, grammars, strict=True):
            try:
                values.append(parse_cell(g, r[h]))
            except ValueError:
                gr = grammar_of(g)
                msg = (
                    f"unparsable {decl.called} cell {r[h]!r} "
                    f"({decl.columns.word or decl.columns.label or 'column'} {ck.text}, "
                    f"{decl.rows.word or decl.rows.label} {key.text})"
                    if grid
                    else f"{h} must be {gr.expect}, got {r[h]!r}"
                )
                d.error(name, lineno, msg, col=header.index(h) + 1, hint=gr.hint or None)
                values.append(None)
        row_keys.append(key)
        cells.append(tuple(values))
        texts.append(tuple(r[h] for h in value_cols))
        notes.append({n: r[n] for n in decl.notes if n in r})
        lines.append(lineno)
        raws.append(raw)
    if not got.rows:
        d.error(name, None, f"{decl.called} has no rows")
    _check_keys(ctx, decl, decl.rows, row_keys, lines, "row")
    return NamedTable(
        decl=decl,
        header=tuple(header),
        row_keys=tuple(row_keys),
        column_keys=tuple(col_keys),
        cells=tuple(cells),
        texts=tuple(texts),
        notes=tuple(notes),
        lines=tuple(lines),
        raw=tuple(raws),
        header_line=hline,
    )


def _row_key(
    ctx: Ctx, decl: TableDecl, header: list[str], lineno: int, r: dict[str, str]
) -> Key | None:
    """The row's key, or ``None`` after reporting the key cell that does not parse."""
    axis = decl.rows
    cols = axis.columns

    def bad(col: str, expect: str) -> None:
        ctx.diags.error(
            decl.file,
            lineno,
            f"{col!r} must be {expect}, got {r[col]!r}",
            col=header.index(col) + 1,
        )

    if axis.kind == "range":
        for c in cols:
            if r[c] and read_whole(r[c], signed=True) is None:
                return bad(c, "a whole number or empty")
        try:
            return range_key(r[cols[0]], r[cols[1]])
        except ValueError as exc:
            return bad(cols[1], str(exc))
    kinds = axis.parts if axis.kind == "composite" else (axis.kind,)
    parts: list[Key] = []
    for c, k in zip(cols, kinds, strict=True):
        if axis.blank is not None and r[c] == axis.blank:
            parts.append(Key(r[c], blank=True))
            continue
        try:
            parts.append(parse_key(r[c], k))
        except ValueError as exc:
            return bad(c, str(exc))
    if axis.kind != "composite":
        return parts[0]
    return Key(" / ".join(p.text for p in parts), parts=tuple(parts))


def _check_keys(
    ctx: Ctx, decl: TableDecl, axis: Axis, keys: list[Key], lines: list[int], what: str
) -> None:
    """Order, overlaps, gaps and coverage of numeric keys."""
    if not axis.numeric:
        return
    d = ctx.diags
    name = decl.file
    word = axis.word or axis.label or what
    live = [(k, ln) for k, ln in zip(keys, lines, strict=True) if k.numeric]
    if len(live) < 1:
        return

    def lo(k: Key) -> float:
        return float("-inf") if k.lo is None else k.lo

    def hi(k: Key) -> float:
        return float("inf") if k.hi is None else k.hi

    seq = [lo(k) for k, _ in live]
    rising = len(seq) < 2 or seq[1] > seq[0]
    for i in range(1, len(seq)):
        if (
            seq[i] == seq[i - 1]
            or (seq[i] > seq[i - 1]) != rising
            or (what == "column" and not rising)
        ):
            if what == "column":
                d.error(name, lines[0], f"{word} columns must increase left to right")
            else:
                d.error(
                    name,
                    live[i][1],
                    f"{decl.called} rows must be in order of {word}, rising or falling all the "
                    f"way; {live[i][0].text} is out of place",
                )
            return
    ordered = sorted(live, key=lambda kl: lo(kl[0]))
    ranged = axis.kind in ("die", "range")
    for (a, _), (b, bl) in itertools.pairwise(ordered):
        if ranged and lo(b) != hi(a) + 1:
            d.error(
                name,
                bl,
                f"{word} {a.text} and {b.text} overlap or leave a gap",
                hint="each range must start one above the previous one's end",
            )
    if axis.contiguous and not ranged:
        have = {k.lo for k, _ in live}
        lo_k, hi_k = min(have), max(have)  # type: ignore[type-var]
        assert lo_k is not None and hi_k is not None
        missing = [v for v in range(lo_k, hi_k + 1) if v not in have]
        if missing:
            d.error(
                name,
                None,
                f"{decl.called} is missing {word} {what}s " + ", ".join(map(str, missing)),
                hint=f"every {word} value from the lowest to the highest needs a {what}",
            )
    if axis.covers is not None:
        want_lo, want_hi = axis.covers
        got_lo, got_hi = lo(ordered[0][0]), hi(ordered[-1][0])
        if (got_lo, got_hi) != (want_lo, want_hi):
            d.error(
                name,
                None,
                f"the {word} {what}s cover {_span(got_lo)}..{_span(got_hi)}; "
                f"the table must cover {want_lo}..{want_hi}",
            )


def _span(v: float) -> str:
    return "open" if v in (float("inf"), float("-inf")) else str(int(v))
