"""Charts and tables made from module data, in one print style that reads in black and white.

The charts: the Combat Results Table [8.8]/[8.9], the Terrain Effects Chart [10.0], the Level
of Victory table [13.2] (or the case ``[victory] rule`` of the chart texts names), a Turn
Record / Reinforcement Track per scenario, a set-up card per side per scenario [11.0], and a
sequence-of-play card [4.0]. Every number comes from the module
source; the rules text that explains the numbers (footnotes, the sequence of play) comes from
``templates/charts/<ruleset>.toml``, so another rule system supplies its own words.

Each chart is a :class:`~referee.render.drawing.Drawing` in points, drawn as vector text into
the PDF and rasterised for the PNGs (the VASSAL module shows the CRT and TEC PNGs in its charts
window). Every text cell is measured with the embedded font's metrics and recorded in
``Chart.cells``, so tests can check nothing overflows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from referee.errors import UserError
from referee.render.chart_layout import (
    BLACK,
    DASH,
    MARGIN,
    MAX_WIDTH,
    NIGHT_FILL,
    SMALL,
    Builder,
    Chart,
    Column,
)
from referee.render.chart_phrases import (
    area_name,
    bonus_text,
    cite,
    pool_text,
    reinforcement_text,
    rule_list,
    side_name,
    signed,
    units_phrase,
)
from referee.render.chart_texts import ruleset_texts
from referee.render.drawing import Circle, Drawing, Line, Rect, Text, to_image
from referee.source.boxes import carrier_of
from referee.source.model import Module, Scenario

if TYPE_CHECKING:
    from referee.render.printcolor import CmykProfile


# ---- the charts ---------------------------------------------------------------------------------
def crt_chart(module: Module) -> Chart:
    crt = module.tables.crt
    if crt is None:
        raise UserError("the module has no Combat Results Table", hint="add tables/crt.csv")
    texts = ruleset_texts(module.ruleset).get("crt", {})
    b = Builder("crt", crt.title, MAX_WIDTH)
    b.title_band(f"{crt.title} [8.8]")
    cols = [Column(crt.row_label, font="bold")] + [Column(str(c)) for c in crt.columns]
    rows = []
    for ecm in sorted(crt.rows):
        cells = crt.rows[ecm]
        if len(cells) != len(crt.columns):
            raise UserError(
                f"{crt.sources.get(ecm, 'crt')}: CRT row {ecm} has {len(cells)} entries for "
                f"{len(crt.columns)} columns",
                hint="give every ECM row one entry per differential column",
            )
        rows.append([str(ecm), *[str(c) for c in cells]])
    b.table(cols, rows, group=(crt.column_label, 1, len(crt.columns)))
    b.notes([str(n) for n in texts.get("notes", [])])
    return b.finish()


def _categories(module: Module) -> list[str]:
    seen: list[str] = []
    for t in module.map.terrain.values():
        for c in t.costs:
            if c not in seen:
                seen.append(c)
    return seen


def tec_chart(module: Module) -> Chart:
    texts = ruleset_texts(module.ruleset).get("tec", {})
    title = str(texts.get("title", "Terrain Effects Chart"))
    b = Builder("tec", title, MAX_WIDTH)
    b.title_band(f"{title}{cite(str(texts.get('rule', '10.0')))}")
    # the chart texts may narrow the columns to what the rule system has (no ZOC in an
    # area-movement game, no movement costs for markers)
    cats = [c for c in _categories(module) if c in texts.get("categories", [c])]
    zoc = bool(texts.get("zoc", True))
    cost = str(texts.get("cost_label", "MP cost"))
    mults: list[str] = []
    for t in module.map.terrain.values():
        for c in t.defense_multiplier:
            if c not in mults:
                mults.append(c)
    cols = [Column("Terrain", "left", font="bold", swatch=True, wrap=True, max_w=120)]
    cols += [Column(f"{c.capitalize()}\n{cost}") for c in cats]
    cols += [Column("Blocks\nZOC")] if zoc else []
    cols += [Column(f"DEF \u00d7\n{c}") for c in mults]
    cols += [Column("Notes", "left", wrap=True, max_w=330), Column("Rule", wrap=True, max_w=60)]
    rows, swatches = [], []
    for t in module.map.terrain.values():
        row = [t.name]
        for c in cats:
            v = t.costs.get(c)
            row.append(DASH if v is None else str(v))
        if zoc:
            row.append("yes" if t.blocks_zoc else DASH)
        for c in mults:
            m = t.defense_multiplier.get(c)
            row.append(f"\u00d7{m}" if m and m != 1 else DASH)
        row.append(t.notes or "")
        row.append(rule_list(t.rule))
        rows.append(row)
        swatches.append(t.color)
    b.table(cols, rows, swatches=swatches)
    b.notes([str(n) for n in texts.get("notes", [])])
    return b.finish()


def victory_chart(module: Module) -> Chart:
    texts = ruleset_texts(module.ruleset).get("victory", {})
    b = Builder("victory", "Level of Victory", MAX_WIDTH)
    b.title_band(f"Level of Victory{cite(str(texts.get('rule', '13.2')))}")
    rows = []
    for lv in module.tables.victory:
        if lv.low is not None and lv.high is not None:
            net = f"{signed(lv.low)} to {signed(lv.high)}"
        elif lv.low is not None:
            net = f"{signed(lv.low)} or more"
        elif lv.high is not None:
            net = f"{signed(lv.high)} or less"
        else:
            net = "any"
        rows.append([net, lv.result])
    b.table([Column("Net victory points"), Column("Level of victory", "left", font="bold")], rows)
    b.notes([str(n) for n in texts.get("notes", [])])
    bonuses: dict[tuple[str, str, int, str], list[str]] = {}
    for scn in module.scenarios.values():
        for v in scn.victory_bonuses:
            line = bonus_text(module, v.side, v.condition, v.params, v.text)
            bonuses.setdefault((v.side, line, v.vp, v.rule), []).append(scn.name)
    if bonuses:
        b.heading("Bonus victory points")
        for (side, line, vp, rule), names in bonuses.items():
            b.paragraph(
                f"{side_name(module, side)} {signed(vp)} VP: {line}{cite(rule)} "
                f"({', '.join(names)})",
                SMALL,
            )
    return b.finish()


def turns_chart(module: Module, scn: Scenario) -> Chart:
    texts = ruleset_texts(module.ruleset).get("turns", {})
    name = f"turns-{scn.id}"
    b = Builder(name, f"{scn.name}: Turn Record", MAX_WIDTH)
    b.title_band(f"{scn.name}: Turn Record and Reinforcement Track")
    per_row = 11
    bw, bh, gap = 44.0, 40.0, 4.0
    arrivals = sorted({r.after_turn for r in scn.reinforcements})
    prohibited_until = {p.until_turn for p in scn.prohibitions}
    turn = 1
    while turn <= scn.turns:
        row = list(range(turn, min(scn.turns, turn + per_row - 1) + 1))
        total = len(row) * (bw + gap) - gap
        x = MARGIN + (b.inner - total) / 2
        y = b.y + (14 if prohibited_until & set(row) else 4)
        for t in row:
            state = scn.turn_state(t) if t <= len(scn.turn_states) else ""
            night = t <= len(scn.turn_states) and scn.is_night(t)
            b.items.append(
                Rect(
                    x, y, bw, bh, NIGHT_FILL if night else "#FFFFFF", BLACK, 1.6 if t == 1 else 0.7
                )
            )
            b.items.append(Text(x + bw / 2, y + 8.5, "GAME-TURN", "regular", 5.2, BLACK, "middle"))
            b.items.append(Text(x + bw / 2, y + 25, str(t), "bold", 15, BLACK, "middle"))
            label = state.upper()
            b.items.append(Text(x + bw / 2, y + 35, label, "bold", 6.2, BLACK, "middle"))
            b._fit(f"turn {t}", label, "bold", 6.2, bw - 4, 8)
            if t in prohibited_until:
                # a circled P above the box's top right corner, clear of the turn's own text
                px, py = x + bw - 7, y - 7
                b.items.append(Circle(px, py, 5.2, "#FFFFFF", BLACK, 0.9))
                b.items.append(Text(px, py + 2.4, "P", "bold", 6.5, BLACK, "middle"))
            if t in arrivals and t < scn.turns:
                bx = x + bw + gap / 2
                b.items.append(Line(((bx, y - 3), (bx, y + bh + 3)), BLACK, 2.2))
                b.items.append(Rect(bx - 5, y + bh + 3, 10, 9, BLACK))
                b.items.append(Text(bx, y + bh + 10, "R", "bold", 6.5, "#FFFFFF", "middle"))
            x += bw + gap
        b.y = y + bh + 16
        turn = row[-1] + 1
    keys = []
    if scn.night_states:
        keys.append(
            "Grey boxes are night Game-Turns ("
            + ", ".join(sorted(scn.night_states))
            + ")"
            + str(texts.get("night_cite", " [8.45], [9.52]"))
            + "."
        )
    if texts.get("first_turn"):
        keys.append(f"Game-Turn 1 (heavy box): {texts['first_turn']}.")
    b.notes(keys)
    if scn.reinforcements:
        b.heading("Reinforcements (R: placed after the Game-Turn marked)")
        inter = texts.get("interphase", "Reinforcements")
        for r in sorted(scn.reinforcements, key=lambda r: (r.after_turn, r.side)):
            b.paragraph(
                f"After Game-Turn {r.after_turn} ({inter}): "
                f"{reinforcement_text(module, r)}{cite(r.rule)}",
                SMALL,
            )
    if scn.prohibitions:
        b.heading("Restrictions (P: first Game-Turn allowed)")
        for p in scn.prohibitions:
            text = p.text or (
                f"{', '.join(c.capitalize() for c in p.categories)} units may not enter "
                f"{area_name(module, p.area)} before Game-Turn {p.until_turn}"
            )
            b.paragraph(f"{text}{cite(p.rule)}.", SMALL)
    return b.finish()


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def setup_sides(scn: Scenario) -> list[str]:
    sides = list(scn.setup_order)
    for s in sorted(scn.forces):
        if s not in sides:
            sides.append(s)
    return sides


def _status_text(status: str | None) -> str:
    """A fixed placement's status for the set-up card: "holding box of US-CV-1" [9.62B]."""
    cv = carrier_of(status)
    return f"holding box of {cv}" if cv is not None else (status or "").replace(":", " ")


def setup_chart(module: Module, scn: Scenario, side: str) -> Chart:
    pieces = module.pieces()
    name = f"setup-{scn.id}-{side.lower()}"
    b = Builder(name, f"{scn.name}: {side_name(module, side)} set-up", MAX_WIDTH)
    b.title_band(f"{scn.name}: {side_name(module, side)} Set-up Card")
    texts = ruleset_texts(module.ruleset).get("setup", {})
    order = scn.setup_order.index(side) + 1 if side in scn.setup_order else 0
    facts = [f"{scn.turns} Game-Turns; first player {side_name(module, scn.first_player)}."]
    if order:
        cited = cite(str(texts.get("rule", "11.0")))
        facts.insert(0, f"{side_name(module, side)} sets up {_ordinal(order)}{cited}.")
    b.paragraph(" ".join([*facts, *(str(n) for n in texts.get("notes", []))]))
    place = str(texts.get("place", "Hex"))  # what a placement names: a hex, or a zone

    def mine(pid: str) -> bool:
        return pid in pieces and pieces[pid].unit.side == side

    fixed = [f for f in scn.fixed if mine(f.unit)]
    if fixed:
        b.heading("Fixed placements")
        # a Status column only when some placement has one (a holding box [9.62B])
        with_status = any(f.status for f in fixed)
        rows = [
            [
                units_phrase(module, [f.unit]),
                f.unit,
                f.hex,
                *([_status_text(f.status)] if with_status else []),
                rule_list(f.rule),
            ]
            for f in fixed
        ]
        b.table(
            [
                Column("Unit", "left", wrap=True, max_w=180),
                Column("Piece"),
                Column(place),
                *([Column("Status", "left", wrap=True, max_w=120)] if with_status else []),
                Column("Rule"),
            ],
            rows,
        )
    choices = [c for c in scn.choices if mine(c.unit)]
    if choices:
        b.heading("Choose one hex")
        rows = [
            [units_phrase(module, [c.unit]), c.unit, " or ".join(c.hexes), rule_list(c.rule)]
            for c in choices
        ]
        b.table(
            [
                Column("Unit", "left", wrap=True, max_w=180),
                Column("Piece"),
                Column("One of", "left", wrap=True, max_w=200),
                Column("Rule"),
            ],
            rows,
        )
    pools = [p for p in scn.pools if p.side == side]
    if pools:
        b.heading("Place as you choose, within these limits")
        rows = [[pool_text(module, p), rule_list(p.rule)] for p in pools]
        b.table(
            [Column("Units and where they may go", "left", wrap=True, max_w=470), Column("Rule")],
            rows,
        )
    reinf = [r for r in scn.reinforcements if r.side == side]
    if reinf:
        b.heading("Reinforcements")
        for r in reinf:
            b.paragraph(
                f"After Game-Turn {r.after_turn}: {reinforcement_text(module, r)}{cite(r.rule)}",
                SMALL,
            )
    return b.finish()


def sequence_chart(module: Module) -> Chart | None:
    seq = ruleset_texts(module.ruleset).get("sequence")
    if not seq:
        return None
    return steps_chart(module, "sequence", seq, "Sequence of Play")


def _cards(module: Module) -> list[tuple[str, dict[str, Any]]]:
    """The ruleset's play-aid cards (``[[card]]`` in its chart texts: a Tactical Routine
    card, a fire card...) as ``(name, card)``; each is laid out like the sequence of play
    (:func:`steps_chart`): titled sections of numbered steps, each with the rule it
    summarises, then notes."""
    out = []
    for card in ruleset_texts(module.ruleset).get("card", []):
        name = str(card.get("name", ""))
        if not name:
            raise UserError(
                f"templates/charts/{module.ruleset}.toml: a [[card]] has no name",
                hint='give each [[card]] a name = "..." (its chart name)',
            )
        out.append((name, card))
    return out


def steps_chart(module: Module, name: str, seq: dict[str, Any], default_title: str) -> Chart:
    """A card of titled sections of numbered steps (phase, what happens, rule), then the
    module's named tables it lists under ``tables`` (drawn from their data), then notes."""
    title = str(seq.get("title", default_title))
    b = Builder(name, title, MAX_WIDTH)
    b.title_band(title)
    if seq.get("intro"):
        b.paragraph(str(seq["intro"]))
    for section in seq.get("section", []):
        b.heading(str(section.get("heading", "")))
        rows = [
            [
                str(i),
                str(s.get("name", "")),
                str(s.get("text", "")),
                rule_list(str(s.get("rule", ""))),
            ]
            for i, s in enumerate(section.get("steps", []), 1)
        ]
        b.table(
            [
                Column("#"),
                Column(str(seq.get("step_label", "Phase")), "left", font="bold"),
                Column("What happens", "left", wrap=True, max_w=380),
                Column("Rule"),
            ],
            rows,
        )
    for tname in seq.get("tables", []):
        from referee.render.tablechart import draw_table

        table = module.tables.named.get(str(tname))
        if table is None:
            raise UserError(
                f"templates/charts/{module.ruleset}.toml: card {name!r} lists no table {tname!r}",
                hint="tables: " + ", ".join(module.tables.named),
            )
        b.heading(table.title + (f" [{table.decl.rule}]" if table.decl.rule else ""))
        draw_table(b, table)
    notes = [str(n) for n in seq.get("notes", [])]
    if notes:
        b.notes(notes)
    return b.finish()


# ---- the list, PNG and PDF ----------------------------------------------------------------------
def _chart_makers(module: Module) -> Iterator[tuple[str, Callable[[], Chart | None]]]:
    """Every chart of the module as ``(name, make)``, in print order, without laying any out:
    :func:`chart` lays out only the one asked for (so a chart read from a narrowed module,
    :func:`referee.render.artcache.narrowed`, touches only what that chart reads)."""
    yield "sequence", lambda: sequence_chart(module)
    for name, card in _cards(module):
        yield name, lambda name=name, card=card: steps_chart(module, name, card, name)
    if module.tables.crt is not None:
        yield "crt", lambda: crt_chart(module)
    yield "tec", lambda: tec_chart(module)
    if module.tables.victory:
        yield "victory", lambda: victory_chart(module)
    # every other declared table, laid out from its declaration (imported here: tablechart
    # builds on this module's Builder)
    from referee.render.tablechart import chart_name, generic_tables, table_chart

    for t in generic_tables(module):
        yield chart_name(t.name), lambda t=t: table_chart(module, t)
    for scn in module.scenarios.values():
        yield f"turns-{scn.id}", lambda scn=scn: turns_chart(module, scn)
        for side in setup_sides(scn):
            yield (
                f"setup-{scn.id}-{side.lower()}",
                lambda scn=scn, side=side: setup_chart(module, scn, side),
            )


def build_charts(module: Module) -> list[Chart]:
    """Every chart of the module, in print order."""
    return [c for _, make in _chart_makers(module) if (c := make()) is not None]


def page_room(paper: str) -> tuple[float, float]:
    """The width and height a chart may take on a page of ``paper`` at 100 %: inside the
    margins, above the page's footer line."""
    from referee.render.sheets import MARGIN_PT, paper_size

    pw, ph = paper_size(paper)
    return pw - 2 * MARGIN_PT, ph - 2 * MARGIN_PT - 14


def print_charts(module: Module, paper: str = "letter") -> list[Chart]:
    """:func:`build_charts` as the charts PDF prints them: a table taller than a page of
    ``paper`` goes over several pages at 100 % (:func:`referee.render.tablechart.page_parts`)
    instead of being shrunk onto one."""
    from referee.render.tablechart import chart_name, generic_tables, page_parts

    _, room = page_room(paper)
    tables = {chart_name(t.name): t for t in generic_tables(module)}
    out: list[Chart] = []
    for c in build_charts(module):
        t = tables.get(c.name)
        out.extend(page_parts(module, t, room) if t and c.drawing.height > room else [c])
    return out


def chart_names(module: Module) -> list[str]:
    """The names :func:`chart_png` accepts (``crt``, ``tec``, ``victory``, ``sequence``,
    ``turns-<scenario>``, ``setup-<scenario>-<side>``)."""
    return [c.name for c in build_charts(module)]


def chart(module: Module, name: str) -> Chart:
    """The chart called ``name`` (the first of that name in print order), laid out alone."""
    if name == "crt":
        return crt_chart(module)
    if name == "tec":
        return tec_chart(module)
    for n, make in _chart_makers(module):
        if n == name:
            c = make()
            if c is not None:
                return c
    raise UserError(f"no chart named {name!r}", hint="charts: " + ", ".join(chart_names(module)))


def chart_png(module: Module, name: str, dpi: int = 150) -> bytes:
    """One chart as deterministic PNG bytes (white background)."""
    from referee.render.counters import png_bytes

    return png_bytes(to_image(chart(module, name).drawing, dpi))


def charts_pdf(
    module: Module, charts: list[Chart], paper: str = "letter", *, cmyk: CmykProfile | None = None
) -> tuple[bytes, int]:
    """All charts packed top to bottom on pages of ``paper`` at 100 % (scaled down only when a
    chart is larger than the printable area), in RGB or the ``cmyk`` output profile's CMYK.
    Returns the PDF and its page count."""
    from referee.render.drawing import pdf_bytes
    from referee.render.sheets import MARGIN_PT, paper_size

    pw, ph = paper_size(paper)
    aw, ah = page_room(paper)
    pages: list[Drawing] = []
    page = Drawing(pw, ph)
    y = MARGIN_PT
    gap = 16.0
    for ch in charts:
        d = ch.drawing
        k = min(1.0, aw / d.width, ah / d.height)
        h = d.height * k
        if y + h > MARGIN_PT + ah + 1e-6 and page.items:
            pages.append(page)
            page = Drawing(pw, ph)
            y = MARGIN_PT
        page.extend(d.placed(MARGIN_PT + (aw - d.width * k) / 2, y, k))
        y += h + gap
    pages.append(page)
    for i, p in enumerate(pages, 1):
        p.add(
            Text(
                pw / 2,
                ph - MARGIN_PT + 2,
                f"{module.name} {module.version}: charts and tables, page {i} of "
                f"{len(pages)}. Print at 100 %.",
                "regular",
                6.5,
                "#333333",
                "middle",
            )
        )
    title = f"{module.name}: charts and tables"
    return pdf_bytes(pages, title=title, subject="charts", cmyk=cmyk), len(pages)
