"""Charts from module data: every cell fits, data changes show, bad input is refused."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from referee.cli import app
from referee.errors import UserError
from referee.render.charts import (
    build_charts,
    chart_names,
    chart_png,
    pool_text,
    setup_sides,
)
from referee.render.playaids import build_charts as build_chart_files
from referee.source.loader import load_module
from referee.source.model import Module
from tests.clirun import Runner

from .conftest import MINI
from .pdfread import media_boxes


def test_chart_names(mini: Module) -> None:
    names = chart_names(mini)
    assert names[:4] == ["sequence", "crt", "tec", "victory"]
    assert "turns-skirmish" in names and "turns-long" in names
    assert "setup-skirmish-nato" in names and "setup-skirmish-soviet" in names
    assert len(names) == len(set(names))


def _all_fit(module: Module) -> None:
    for ch in build_charts(module):
        assert ch.cells, ch.name
        for cell in ch.cells:
            assert cell.fits, cell
        assert ch.drawing.width <= 540


def test_every_cell_fits_mini(mini: Module) -> None:
    _all_fit(mini)


def test_every_cell_fits_sixth_fleet(sixth_fleet: Module) -> None:
    _all_fit(sixth_fleet)


def test_crt_png_has_the_table_size_and_is_deterministic(mini: Module) -> None:
    a = chart_png(mini, "crt", dpi=100)
    assert a == chart_png(mini, "crt", dpi=100)
    img = Image.open(io.BytesIO(a))
    assert img.size[0] == 750  # 540 pt at 100 dpi


def test_changing_a_crt_cell_changes_the_chart(mini: Module, mini_copy: Path) -> None:
    crt = mini_copy / "tables" / "crt.csv"
    text = crt.read_text()
    assert "6,*,*,*,1,1,1,1,1,1-2," in text
    crt.write_text(text.replace("6,*,*,*,1,1,1,1,1,1-2,", "6,*,*,1,1,1,1,1,1,1-2,"))
    edited, diags = load_module(mini_copy)
    assert edited is not None, [str(d) for d in diags.items]
    assert chart_png(edited, "crt", dpi=72) != chart_png(mini, "crt", dpi=72)
    assert chart_png(edited, "tec", dpi=72) == chart_png(mini, "tec", dpi=72)


def test_unknown_chart(mini: Module) -> None:
    with pytest.raises(UserError, match="no chart named"):
        chart_png(mini, "nope")


def test_pool_text_in_plain_words(mini: Module) -> None:
    pools = mini.scenarios["skirmish"].pools
    soviet_naval = next(p for p in pools if p.where == "setup_code")
    text = pool_text(mini, soviet_naval)
    assert "coded" in text and "So" in text and "1 to 3 per hex" in text
    assert "every such hex must be filled" in text
    carrier = next(p for p in pools if p.where == "carrier")
    assert "CAP" in pool_text(mini, carrier) and "Saratoga" in pool_text(mini, carrier)


def test_setup_cards_follow_setup_order(mini: Module) -> None:
    assert setup_sides(mini.scenarios["skirmish"]) == ["NATO", "Soviet"]


def test_files_are_deterministic_and_pages_sized(mini: Module, tmp_path: Path) -> None:
    a, info = build_chart_files(mini, tmp_path, paper="a4")
    b, _ = build_chart_files(mini, tmp_path, paper="a4")
    assert [(p.name, d) for p, d in a] == [(p.name, d) for p, d in b]
    pdf = a[0][1]
    boxes = media_boxes(pdf)
    assert len(boxes) == info.pages >= 2
    assert all(
        bx[2:] == (pytest.approx(595.2756, abs=0.01), pytest.approx(841.8898, abs=0.01))
        for bx in boxes
    )
    assert b"Referee-Bold" in pdf or b"DejaVu" in pdf  # the shipped font is embedded
    assert b"/Helvetica" not in pdf
    names = [p.name for p, _ in a]
    assert names[0] == "mini-charts.pdf"
    assert "mini-chart-crt.png" in names and "mini-chart-tec.png" in names


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_charts_pdf_rasterises(tmp_path: Path) -> None:
    r = Runner().invoke(app, ["charts", str(MINI), "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "20",
            "-f",
            "1",
            "-l",
            "1",
            "-png",
            str(tmp_path / "mini-charts.pdf"),
            str(tmp_path / "p"),
        ],
        check=True,
        capture_output=True,
    )
    assert list(tmp_path.glob("p-*.png"))


def test_missing_crt_row_is_refused_and_nothing_written(mini_copy: Path, tmp_path: Path) -> None:
    crt = mini_copy / "tables" / "crt.csv"
    lines = crt.read_text().splitlines()
    crt.write_text("\n".join([lines[0], lines[1], lines[2] + ",", *lines[3:]]) + "\n")
    out = tmp_path / "out"
    r = Runner().invoke(app, ["charts", str(mini_copy), "-o", str(out)])
    assert r.exit_code != 0
    assert not out.exists()


def test_cli_unknown_paper(tmp_path: Path) -> None:
    r = Runner().invoke(app, ["charts", str(MINI), "-o", str(tmp_path / "o"), "--paper", "x"])
    assert r.exit_code != 0 and isinstance(r.exception, UserError)
    assert not (tmp_path / "o").exists()


# ---- charts as a wargamer reads them (issue 12 §4) ---------------------------------------------
def _chart(module: Module, name: str):
    return next(ch for ch in build_charts(module) if ch.name == name)


def _col_width(ch, header: str) -> float:
    """The width of the table column whose header cell reads ``header``."""
    from referee.render.drawing import Rect, Text

    head = next(it for it in ch.drawing.items if isinstance(it, Text) and it.text == header)
    boxes = [
        it
        for it in ch.drawing.items
        if isinstance(it, Rect) and it.x <= head.x <= it.x + it.w and it.y <= head.y <= it.y + it.h
    ]
    return min(b.w for b in boxes)


def test_tec_gives_the_notes_the_room(sixth_fleet: Module) -> None:
    ch = _chart(sixth_fleet, "tec")
    notes, terrain = _col_width(ch, "Notes"), _col_width(ch, "Terrain")
    assert notes > 1.3 * terrain
    # the terrain column is not half empty: its longest line fills most of it
    names = {t.name for t in sixth_fleet.map.terrain.values()}
    lines = [c for c in ch.cells if c.where.endswith("col 0") and c.text in " ".join(names)]
    assert max(c.text_w for c in lines) >= 0.75 * max(c.room_w for c in lines)
    # the terrain names wrap (also after a slash) rather than leave the column half empty
    assert {c.text for c in ch.cells} >= {"(Yugoslav/", "Albanian"}


def test_no_designer_note_on_a_player_chart(sixth_fleet: Module) -> None:
    from referee.render.drawing import Text

    for ch in build_charts(sixth_fleet):
        words = " ".join(it.text for it in ch.drawing.items if isinstance(it, Text))
        for note in ("not stated", "estimate", "the rules do not"):
            assert note not in words, (ch.name, note)


def test_turn_track_p_marker_stays_out_of_the_turn_boxes(sixth_fleet: Module) -> None:
    from referee.render.drawing import Rect, Text

    ch = _chart(sixth_fleet, "turns-campaign")
    boxes = [it for it in ch.drawing.items if isinstance(it, Rect) and 43 < it.w < 45]
    assert len(boxes) == 21
    p = [it for it in ch.drawing.items if isinstance(it, Text) and it.text == "P"]
    assert len(p) == 1
    for b in boxes:
        assert not (b.x <= p[0].x <= b.x + b.w and b.y <= p[0].y <= b.y + b.h)


def test_setup_card_has_no_always_empty_status_column(sixth_fleet: Module, mini: Module) -> None:
    from referee.render.drawing import Text

    for module in (sixth_fleet, mini):
        for ch in build_charts(module):
            if not ch.name.startswith("setup-"):
                continue
            scn = module.scenarios[ch.name.split("-")[1]]
            headers = {it.text for it in ch.drawing.items if isinstance(it, Text)}
            has_status = any(f.status for f in scn.fixed)
            assert ("Status" in headers) == has_status or not scn.fixed, ch.name
