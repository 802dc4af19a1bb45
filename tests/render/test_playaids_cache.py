"""``referee charts`` with the cache: the PDF and every chart picture are byte-identical cold,
warm and with ``--no-cache``; a warm run draws nothing; a spoilt PDF entry is made again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.cache import Cache, activated
from referee.cli import app
from referee.render.playaids import build_charts
from referee.source.loader import load_module
from tests.clirun import Runner

REPO = Path(__file__).resolve().parents[2]
MINI = REPO / "tests" / "fixtures" / "modules" / "mini"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_cli_charts_cold_warm_and_no_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "cache"))
    runner = Runner()
    for name, extra in (("cold", []), ("warm", []), ("none", ["--no-cache"])):
        args = ["charts", str(MINI), "--dpi", "60", "-o", str(tmp_path / name), "-q", *extra]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    assert _files(tmp_path / "cold") == _files(tmp_path / "warm") == _files(tmp_path / "none")
    assert any((tmp_path / "cache" / "v1" / "pdf").rglob("*"))


def test_a_warm_run_draws_nothing_and_a_spoilt_pdf_is_made_again(tmp_path: Path) -> None:
    module, _ = load_module(MINI)
    assert module is not None
    with activated(Cache(tmp_path / "c")):
        cold, _ = build_charts(module, tmp_path / "out", dpi=60)
    with activated(Cache(tmp_path / "c")) as warm:
        again, _ = build_charts(module, tmp_path / "out", dpi=60)
    assert warm.stats.misses == 0 and warm.stats.hits == len(cold)
    assert again == cold
    for entry in (p for p in (tmp_path / "c" / "v1" / "pdf").rglob("*") if p.is_file()):
        entry.write_bytes(entry.read_bytes()[:-40])
    with activated(Cache(tmp_path / "c")) as spoilt:
        third, _ = build_charts(module, tmp_path / "out", dpi=60)
    assert third == cold
    assert spoilt.stats.refused == 1


def test_cli_sheets_cold_warm_and_no_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "cache"))
    runner = Runner()
    for name, extra in (("cold", []), ("warm", []), ("none", ["--no-cache"])):
        args = ["sheets", str(MINI), "--png", "--bleed", "0.0625in", "-o", str(tmp_path / name)]
        result = runner.invoke(app, [*args, "-q", *extra])
        assert result.exit_code == 0, result.output
    assert _files(tmp_path / "cold") == _files(tmp_path / "warm") == _files(tmp_path / "none")


def test_a_warm_sheet_rasterises_nothing(tmp_path: Path, monkeypatch) -> None:
    """The PDF and its page previews come from the cache: no PDF is written and no page is
    rasterised again."""
    import referee.render.drawing as drawing
    import referee.render.rasterise as rasterise
    from referee.render.playaids import build_sheets

    module, _ = load_module(MINI)
    assert module is not None
    with activated(Cache(tmp_path / "c")):
        cold, _ = build_sheets(module, tmp_path / "out", png=True)

    def refuse(*args, **kwargs):
        raise AssertionError("drawn again although the cache holds it")

    monkeypatch.setattr(rasterise, "pdf_page_pngs", refuse)
    monkeypatch.setattr(drawing, "pdf_bytes", refuse)
    with activated(Cache(tmp_path / "c")) as warm:
        again, _ = build_sheets(replace(module), tmp_path / "out", png=True)
    assert again == cold
    assert warm.stats.misses == 0
