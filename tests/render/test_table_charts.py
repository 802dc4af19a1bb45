"""`referee charts` prints every declared table: a table with no hand-tuned layout is drawn
from its declaration (the table-only toy module, the Sixth Fleet 14.3 table)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from referee.cli import app
from referee.render.charts import build_charts, chart, chart_names, chart_png
from referee.source.loader import load_module
from referee.source.model import Module
from tests.clirun import Runner
from tests.source.tables_toy import TABLES_TOY, install


def toy() -> Module:
    install()
    module, diags = load_module(TABLES_TOY)
    assert module is not None, [str(d) for d in diags.errors]
    return module


def _texts(module: Module, name: str) -> list[str]:
    return [c.text for c in chart(module, name).cells]


def test_every_declared_table_prints_and_fits() -> None:
    m = toy()
    names = chart_names(m)
    # the terrain table keeps the TEC layout; the others are drawn from their declarations
    assert names == ["tec", "detection", "hits", "strike", "outcome"]
    for ch in build_charts(m):
        assert ch.cells and all(c.fits for c in ch.cells), ch.name
        assert ch.drawing.width <= 540


def test_the_generic_chart_shows_the_declared_keys_cells_and_source() -> None:
    m = toy()
    det = _texts(m, "detection")
    assert det[0] == "Detection Table [T6.3]"
    assert "ECM difference" in det  # the column label spans the keyed columns
    for want in ("Target", "-2", "2", "SS", "estimate"):
        assert want in det
    assert "Source: toy data: estimates" in det
    hits = _texts(m, "hits")
    assert "1-2" in hits and "sunk if a destroyer" in hits
    out = _texts(m, "outcome")
    assert {"10 or more", "-9 to 9", "-10 or less", "Red wins"} <= set(out)


def test_charts_command_writes_one_png_per_table(tmp_path: Path) -> None:
    install()
    r = Runner().invoke(app, ["charts", str(TABLES_TOY), "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    for name in ("tec", "detection", "hits", "strike", "outcome"):
        png = tmp_path / f"tables_toy-chart-{name}.png"
        assert png.is_file(), r.output
        assert Image.open(png).size[0] == 1125  # 540 pt at 150 dpi
    assert (tmp_path / "tables_toy-charts.pdf").read_bytes().startswith(b"%PDF")


def test_generic_chart_png_is_deterministic() -> None:
    m = toy()
    a = chart_png(m, "strike", dpi=80)
    assert a == chart_png(m, "strike", dpi=80)
    assert Image.open(io.BytesIO(a)).size[0] == 600


def test_sixth_fleet_prints_its_14_3_table(sixth_fleet: Module) -> None:
    assert "middle_east_air" in chart_names(sixth_fleet)
    texts = _texts(sixth_fleet, "middle_east_air")
    assert texts[0] == "Middle East Air Forces [14.3]"
    assert "Israel" in texts and "6 IS-F4, 6 IS-A4" in texts


def test_a_table_taller_than_a_page_prints_over_pages_at_full_size() -> None:
    """The Westpac awards table [DTP 11.5124] (40 rows) is taller than a letter page: the
    charts PDF prints it in parts that each fit at 100 %, every row once and in order, the
    later parts titled "continued", where it used to be shrunk onto one page to a third of
    its size; the chart of the table itself (its PNG, the module's tab) stays whole."""
    from referee.render.charts import page_room, print_charts

    root = Path(__file__).resolve().parents[2]
    m, _ = load_module(root / "module_src" / "dtp_westpac")
    assert m is not None
    width, room = page_room("letter")
    whole = chart(m, "victory_awards")
    assert whole.drawing.height > room
    parts = [c for c in print_charts(m) if c.name == "victory_awards"]
    assert len(parts) > 1
    assert all(c.drawing.height <= room and c.drawing.width <= width for c in parts)
    assert "(continued, 2 of" in " ".join(x.text for x in parts[1].cells)
    awards = [k.text for k in m.tables["victory_awards"].row_keys]
    shown = [a for c in parts for a in awards if any(x.text == a for x in c.cells)]
    assert shown == awards  # every row once, in order
    assert all(f.fits for c in parts for f in c.cells)  # nothing overflows its cell
