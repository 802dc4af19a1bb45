"""The anchors file: every problem as file:line:col, nothing half-read."""

from __future__ import annotations

from referee.geo.spec import parse_spec
from referee.source.diagnostics import Diagnostics

GOOD = """\
[grid]
columns = 8
rows = 6
orientation = "flat"
rows_grow = "south"
id_format = "CCRR"

[[anchor]]
hex = "0101"
name = "A"
lat = 60.0
lon = 0.0

[[anchor]]
hex = "0806"
lat = 55.0
lon = 10.0

[[anchor]]
hex = "0906"
off_map = true
lat = 55.0
lon = 12.0

[[expect]]
hex = "0403"
terrain = ["sea", "coastal"]
lat_min = 50
"""


def _parse(text: str):
    d = Diagnostics()
    spec = parse_spec(text, "a.toml", d)
    return spec, [str(x) for x in d.items]


def test_a_good_file() -> None:
    spec, msgs = _parse(GOOD)
    assert msgs == []
    assert spec is not None
    assert (spec.grid.columns, spec.grid.rows, spec.grid.id_format) == (8, 6, "CCRR")
    assert [a.hex for a in spec.anchors] == ["0101", "0806", "0906"]
    assert spec.anchors[2].off_map and not spec.anchors[0].off_map
    assert spec.anchors[0].line == 8
    assert spec.expectations[0].terrain == ("sea", "coastal")
    assert spec.expectations[0].lat_min == 50.0
    assert (spec.projection, spec.model, spec.max_residual) == ("stereographic", "similarity", 1.0)
    assert spec.classify.chars == {"sea": ".", "coastal": "c", "land": "#"}


def test_malformed_toml_has_line_and_column() -> None:
    spec, msgs = _parse('[grid]\ncolumns = 8\nrows = "6\n')
    assert spec is None
    assert len(msgs) == 1 and msgs[0].startswith("a.toml:3:")
    assert "malformed TOML" in msgs[0]


def test_toml_cut_short_is_placed_at_its_end() -> None:
    # tomllib says only "(at end of document)" for an unclosed array: the message still
    # names the file's last line and column, and does not repeat tomllib's wording
    spec, msgs = _parse("[grid]\ncolumns = [\n")
    assert spec is None
    assert len(msgs) == 1 and msgs[0].startswith("a.toml:3:1: error: malformed TOML"), msgs
    assert "end of document" not in msgs[0]


def test_unknown_numbering_is_reported_at_its_line() -> None:
    spec, msgs = _parse(GOOD.replace('id_format = "CCRR"', 'id_format = "CRCR"'))
    assert spec is None
    assert any(m.startswith("a.toml:6: error: [grid] id_format must be one of") for m in msgs)


def test_anchor_off_the_grid_names_line_and_column() -> None:
    spec, msgs = _parse(GOOD.replace('hex = "0806"', 'hex = "0807"'))
    assert spec is None
    assert msgs == [
        "a.toml:15:8: error: [[anchor]] hex 0807 is off the map (columns 01-08, rows 01-06) "
        "(hint: ids are CCRR (column, then row); a place beyond the edge takes off_map = true)"
    ]


def test_missing_and_bad_values() -> None:
    bad = GOOD.replace("lat = 60.0\n", "").replace("lon = 10.0", "lon = 200.0")
    bad = bad.replace('terrain = ["sea", "coastal"]', 'terrain = "swamp"')
    spec, msgs = _parse(bad)
    assert spec is None
    text = "\n".join(msgs)
    assert "a.toml:8:1: error: [[anchor]] lat must be decimal degrees" in text
    assert (
        "a.toml:16:1: error: [[anchor]] lon must be decimal degrees within ±180, got 200.0" in text
    )
    assert "[[expect]] terrain must be one of sea, coastal, land" in text


def test_unknown_keys_get_a_hint() -> None:
    spec, msgs = _parse(GOOD.replace('name = "A"', 'nmae = "A"'))
    assert spec is None
    assert msgs == [
        "a.toml:10:1: error: unknown key 'nmae' in [[anchor]] (hint: did you mean 'name'?)"
    ]


def test_missing_grid_and_thresholds_the_wrong_way() -> None:
    spec, msgs = _parse("[classify]\ncoastal_from = 0.8\nland_from = 0.5\n")
    assert spec is None
    assert any("missing [grid] table" in m for m in msgs)
    assert any("coastal_from (0.8) is above land_from (0.5)" in m for m in msgs)


def test_terrain_chars_must_be_distinct_single_characters() -> None:
    spec, msgs = _parse(GOOD + '\n[classify]\nsea = "~~"\ncoastal = "#"\n')
    assert spec is None
    assert any("[classify] sea must be one printable character" in m for m in msgs)
    assert any("need three chars" in m for m in msgs)


def test_the_documented_example_is_the_gibraltar_fixture() -> None:
    """docs/module-source.md shows a complete anchors file: it parses, and it is the fixture."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "module-source.md").read_text()
    section = doc.split("### A map from real geography", 1)[1]
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    spec, msgs = _parse(block)
    assert msgs == [] and spec is not None
    fixture, _ = _parse((root / "tests" / "fixtures" / "geo" / "gibraltar.toml").read_text())
    assert fixture is not None
    strip = lambda s: (  # noqa: E731
        s.grid,
        [(a.hex, a.lat, a.lon, a.name) for a in s.anchors],
        [(e.hex, e.terrain) for e in s.expectations],
        s.classify,
        s.projection,
        s.model,
        s.max_residual,
    )
    assert strip(spec) == strip(fixture)
