"""The game's tables: the Terrain Effects Chart, the Combat Results Table and the Level of
Victory table (``[files] terrain``, ``crt``, ``victory``), each a CSV.
"""

from __future__ import annotations

import itertools
import re

from referee.source.base import COLOR_RE, Ctx, col_of, read_csv
from referee.source.model import CombatResultsTable, CrtCell, Origin, TerrainType, VictoryLevel


def _cost(raw: str) -> int | str | None:
    if raw in ("-", "no", "none", ""):
        return None
    if re.fullmatch(r"\d+", raw):
        return int(raw)
    return "bad"


def load_terrain(ctx: Ctx, name: str, line: int | None) -> dict[str, TerrainType]:
    got = read_csv(
        ctx, name, what="terrain effects chart", line=line, required=["id", "char", "name", "color"]
    )
    if got is None:
        return {}
    rows, header = got
    cats = list(ctx.schema.categories) if ctx.schema else []
    for c in cats:
        if f"cost_{c}" not in header:
            ctx.diags.error(name, 1, f"missing column 'cost_{c}' (movement cost for {c} units)")
    out: dict[str, TerrainType] = {}
    chars: dict[str, str] = {}
    for lineno, r in rows:
        tid, ch = r["id"], r["char"]
        if tid in out:
            ctx.diags.error(name, lineno, f"duplicate terrain id {tid!r}")
        if len(ch) != 1 or ch.isspace() or ch in "|":
            ctx.diags.error(
                name,
                lineno,
                f"terrain char {ch!r} must be one visible character other than '|'",
                col=col_of(header, "char"),
            )
        elif ch in chars:
            ctx.diags.error(
                name,
                lineno,
                f"terrain char {ch!r} is already used by {chars[ch]!r}",
                col=col_of(header, "char"),
            )
        chars[ch] = tid
        costs: dict[str, int | None] = {}
        for h in header:
            if h.startswith("cost_"):
                v = _cost(r[h])
                if v == "bad":
                    ctx.diags.error(
                        name,
                        lineno,
                        f"{h} must be a whole number or '-' (no entry), got {r[h]!r}",
                        col=col_of(header, h),
                    )
                    v = None
                costs[h[5:]] = v  # type: ignore[assignment]
        mult: dict[str, int] = {}
        for h in header:
            if h.startswith("defense_x_"):
                raw = r[h] or "1"
                if not re.fullmatch(r"\d+", raw):
                    ctx.diags.error(
                        name,
                        lineno,
                        f"{h} must be a whole number, got {raw!r}",
                        col=col_of(header, h),
                    )
                    raw = "1"
                mult[h[len("defense_x_") :]] = int(raw)
        if not COLOR_RE.match(r["color"]):
            ctx.diags.error(
                name,
                lineno,
                f"color must be like #A0C4E8, got {r['color']!r}",
                col=col_of(header, "color"),
            )
        out[tid] = TerrainType(
            id=tid,
            char=ch,
            name=r["name"],
            color=r["color"].upper(),
            costs=costs,
            blocks_zoc=r.get("blocks_zoc", "").lower() in ("yes", "true", "1"),
            defense_multiplier=mult,
            notes=r.get("notes", ""),
            rule=r.get("rule", ""),
            origin=Origin(name, lineno),
        )
    if ctx.schema:
        for need in ctx.schema.terrain:
            if need not in out:
                ctx.diags.error(name, None, f"ruleset {ctx.schema.id} needs terrain {need!r}")
    return out


CELL_RE = re.compile(r"^(?:\*|(\d)(?:-(\d))?)$")


def parse_crt_cell(raw: str) -> CrtCell | None:
    """``*`` (no effect), ``0``, ``1``, ``1-2``... Returns ``None`` when unparsable."""
    m = CELL_RE.match(raw.strip())
    if not m:
        return None
    if raw.strip() == "*":
        return CrtCell(None, None)
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if m.group(2) is None:
        lo = 1 if hi >= 1 else 0
    if hi > 6 or lo > hi or (m.group(2) and lo != 1):
        return None
    return CrtCell(lo, hi)


def load_crt(ctx: Ctx, name: str, line: int | None) -> CombatResultsTable | None:
    got = read_csv(ctx, name, what="combat results table", line=line, required=["ECM"])
    if got is None:
        return None
    rows, header = got
    cols: list[int] = []
    for h in header[1:]:
        if h == "source":
            continue
        if not re.fullmatch(r"-?\d+", h):
            ctx.diags.error(
                name,
                1,
                f"column heading {h!r} is not a whole-number differential",
                col=col_of(header, h),
            )
            return None
        cols.append(int(h))
    if cols != sorted(set(cols)):
        ctx.diags.error(name, 1, "differential columns must increase left to right")
    table: dict[int, tuple[CrtCell, ...]] = {}
    sources: dict[int, str] = {}
    ok = True
    for lineno, r in rows:
        if not re.fullmatch(r"\d+", r["ECM"]):
            ctx.diags.error(
                name, lineno, f"ECM row key must be a whole number, got {r['ECM']!r}", col=1
            )
            ok = False
            continue
        ecm = int(r["ECM"])
        if ecm in table:
            ctx.diags.error(name, lineno, f"ECM row {ecm} appears twice")
        cells = []
        for c in cols:
            raw = r[str(c)]
            cell = parse_crt_cell(raw)
            if cell is None:
                ctx.diags.error(
                    name,
                    lineno,
                    f"unparsable CRT cell {raw!r} (differential {c}, ECM {ecm})",
                    col=col_of(header, str(c)),
                    hint="write '*' for no effect, or a die range like 1 or 1-2",
                )
                ok = False
                cell = CrtCell(None, None)
            cells.append(cell)
        table[ecm] = tuple(cells)
        sources[ecm] = r.get("source", "")
    if table:
        expected = list(range(min(table), max(table) + 1))
        missing = [e for e in expected if e not in table]
        if missing:
            ctx.diags.error(
                name,
                None,
                "CRT is missing ECM rows " + ", ".join(map(str, missing)),
                hint="every ECM value from the lowest to the highest needs a row",
            )
            ok = False
    else:
        ctx.diags.error(name, None, "CRT has no rows")
        ok = False
    if not ok or not cols:
        return None
    return CombatResultsTable(columns=tuple(cols), rows=table, sources=sources)


def load_victory(ctx: Ctx, name: str, line: int | None) -> tuple[VictoryLevel, ...]:
    got = read_csv(
        ctx, name, what="level of victory table", line=line, required=["min", "max", "result"]
    )
    if got is None:
        return ()
    rows, header = got
    out: list[VictoryLevel] = []
    for lineno, r in rows:
        bounds: list[int | None] = []
        for k in ("min", "max"):
            raw = r[k]
            if raw == "":
                bounds.append(None)
            elif re.fullmatch(r"[+-]?\d+", raw):
                bounds.append(int(raw))
            else:
                ctx.diags.error(
                    name,
                    lineno,
                    f"'{k}' must be a whole number or empty, got {raw!r}",
                    col=col_of(header, k),
                )
                bounds.append(None)
        out.append(VictoryLevel(bounds[0], bounds[1], r["result"]))
    # bands must not overlap and must leave no gaps
    ordered = sorted(out, key=lambda v: -(10**9) if v.low is None else v.low)
    for a, b in itertools.pairwise(ordered):
        if a.high is None or b.low is None or b.low != a.high + 1:
            ctx.diags.error(
                name,
                None,
                f"victory bands {a.result!r} and {b.result!r} overlap or leave a gap",
                hint="each band's min must be the previous max + 1",
            )
    return tuple(out)
