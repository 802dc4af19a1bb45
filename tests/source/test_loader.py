"""`referee check`: every kind of problem is reported with file and line, all in one run."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.source.diagnostics import Diagnostics
from referee.source.loader import load_module
from referee.source.mappicture import parse_map_picture, render_map_picture

Edit = Callable[[Path, str, str], None]


def errors(path: Path) -> list[str]:
    module, diags = load_module(path)
    assert module is None, "expected the broken source to be refused"
    return [str(d) for d in diags.errors]


def one(path: Path, needle: str) -> str:
    errs = errors(path)
    hits = [e for e in errs if needle in e]
    assert hits, f"no error containing {needle!r} in {errs}"
    return hits[0]


def test_the_mini_module_is_clean(mini: Path) -> None:
    module, diags = load_module(mini)
    assert module is not None, [str(d) for d in diags.items]
    assert not diags.errors
    assert [u.id for u in module.units][:2] == ["US-CV-1", "US-DD-1"]
    assert module.pieces()["SO-T16.2"].unit.type == "T16"
    assert module.map.hexes["0404"].terrain == "land"
    assert module.map.is_all_land_hexside("0305", "0304")
    assert module.map.edges["north"].hexes == ("0605", "0606", "0607", "0608")
    assert module.tables.crt is not None
    assert module.tables.level_of_victory(36) == "Soviet Substantive"
    sk = module.scenarios["skirmish"]
    assert sk.is_night(3) and not sk.is_night(1)
    long = module.scenarios["long"]
    assert long.turns == 6 and long.fixed == sk.fixed  # extends keeps the base set-up
    assert long.reinforcements[0].units == ("SO-T16.2",)


def test_unknown_column(mini: Path, edit: Edit) -> None:
    edit(mini / "units.csv", ",source", ",sauce")
    e = one(mini, "unknown column 'sauce'")
    assert e.startswith("units.csv:1:")
    assert "did you mean 'source'" in e


def test_wrong_type_in_a_value(mini: Path, edit: Edit) -> None:
    edit(mini / "units.csv", "Saratoga,7,1,36", "Saratoga,7,one,36")
    e = one(mini, "value AS must be a whole number")
    assert e.startswith("units.csv:2:10:")


def test_unknown_unit_type_and_category(mini: Path, edit: Edit) -> None:
    edit(mini / "units.csv", "surface,DD,1,Farragut", "surfce,DX,1,Farragut")
    errs = errors(mini)
    assert any(e.startswith("units.csv:3:") and "unknown unit type 'DX'" in e for e in errs)
    assert any("unknown unit category 'surfce'" in e and "'surface'" in e for e in errs)


def test_hex_outside_the_grid(mini: Path, edit: Edit) -> None:
    edit(mini / "map.toml", 'hex = "0608"', 'hex = "0609"')
    e = one(mini, "off the map")
    assert e.startswith("map.toml:")


def test_feature_on_a_hex_that_does_not_exist(mini: Path, edit: Edit) -> None:
    edit(mini / "map.toml", '[[place]]\nhex = "0304"', '[[place]]\nhex = "0399"')
    e = one(mini, "0399")
    assert "off the map" in e and e.startswith("map.toml:")


def test_unparsable_table_cell(mini: Path, edit: Edit) -> None:
    edit(mini / "tables" / "crt.csv", "2,1,1-2,1-2", "2,1,1-2,two")
    e = one(mini, "unparsable CRT cell 'two'")
    assert e.startswith("tables/crt.csv:4:4:")


def test_table_with_a_missing_row(mini: Path, edit: Edit) -> None:
    edit(mini / "tables" / "crt.csv", "3,*,1,1-2,1-2,1-3,1-3,1-4,1-4,1-5,estimate\n", "")
    one(mini, "CRT is missing ECM rows 3")


def test_scenario_names_an_unknown_unit(mini: Path, edit: Edit) -> None:
    edit(mini / "scenarios" / "skirmish.toml", '"US-DD-1", "US-F4"]', '"US-DD-9", "US-F4"]')
    e = one(mini, "unknown unit 'US-DD-9'")
    assert e.startswith("scenarios/skirmish.toml:26:21:")
    assert "did you mean 'US-DD-1'" in e


def test_scenario_names_an_unknown_hex(mini: Path, edit: Edit) -> None:
    edit(mini / "scenarios" / "skirmish.toml", 'hex = "0203"', 'hex = "0299"')
    e = one(mini, "0299")
    assert e.startswith("scenarios/skirmish.toml:31:8:")


def test_duplicate_ids(mini: Path, edit: Edit) -> None:
    edit(mini / "units.csv", "US-DD-1,NATO", "US-CV-1,NATO")
    e = one(mini, "duplicate unit id 'US-CV-1'")
    assert e.startswith("units.csv:3:1:") and "first on line 2" in e


def test_setup_that_can_never_be_satisfied(mini: Path, edit: Edit) -> None:
    edit(
        mini / "map.toml",
        'So = { nationality = "So", hexes = ["0506"] }',
        'So = { nationality = "So", hexes = ["0506", "0505"] }',
    )
    e = one(mini, "can never be satisfied")
    assert "2 hexes must each get at least 1" in e


def test_naval_unit_placed_on_land(mini: Path, edit: Edit) -> None:
    edit(mini / "scenarios" / "skirmish.toml", 'hex = "0203"', 'hex = "0404"')
    one(mini, "US-CV-1 (surface) cannot be placed in hex 0404 (Land)")


def test_unplaced_unit_in_the_forces(mini: Path, edit: Edit) -> None:
    edit(
        mini / "scenarios" / "skirmish.toml",
        '[[fixed]]\nunit = "US-CV-1"\nhex = "0203"\nrule = "11.1A"\n',
        "",
    )
    one(mini, "US-CV-1 is in the forces but no")


def test_map_picture_errors_have_line_and_column(mini: Path, edit: Edit) -> None:
    edit(mini / "map.txt", "04 | . . . # . ~ ~ .", "04 | . . . # . ~ ? .")
    e = one(mini, "unknown terrain '?'")
    assert e.startswith("map.txt:5:18:")
    edit(mini / "map.txt", "03 |  . . . c ~ ~ . .", "03 |  . . . c ~ ~ .")
    assert any("row 03 has 7 cells" in x for x in errors(mini))


def test_every_problem_is_reported_in_one_run(mini: Path, edit: Edit) -> None:
    edit(mini / "units.csv", "Saratoga,7,1,36", "Saratoga,7,x,36")
    edit(mini / "tables" / "crt.csv", "2,1,1-2,1-2", "2,1,1-2,9-9")
    edit(mini / "scenarios" / "skirmish.toml", '"US-DD-1"]', '"US-DD-9"]')
    errs = errors(mini)
    assert len(errs) == len(set(errs)), "each problem is listed once"
    files = {e.split(":")[0] for e in errs}
    assert {"units.csv", "tables/crt.csv", "scenarios/skirmish.toml"} <= files


# ---- hostile and malformed input -----------------------------------------------------------
def test_malformed_toml(mini: Path, edit: Edit) -> None:
    edit(mini / "module.toml", 'name = "Mini Fleet"', 'name = "Mini Fleet')
    e = one(mini, "malformed TOML")
    assert e.startswith("module.toml:4:")


def test_malformed_toml_at_the_end_of_the_file(mini: Path) -> None:
    # an unclosed array at the end: tomllib gives no line, the message still has line:col
    text = (mini / "module.toml").read_text(encoding="utf-8").rstrip("\n")
    (mini / "module.toml").write_text(text + "\nextra = [", encoding="utf-8")
    e = one(mini, "malformed TOML")
    assert e.startswith(f"module.toml:{text.count(chr(10)) + 2}:10:"), e


def test_malformed_csv(mini: Path, edit: Edit) -> None:
    edit(mini / "units.csv", "US-DD-1,NATO,US,,", "US-DD-1,NATO,US,")
    e = one(mini, "cells but the header has 18 columns")
    assert e.startswith("units.csv:3:")


def test_non_utf8_bytes(mini: Path) -> None:
    p = mini / "units.csv"
    p.write_bytes(p.read_bytes().replace(b"Saratoga", b"Sar\xe0toga"))
    e = one(mini, "not valid UTF-8")
    assert e.startswith("units.csv:2:")


def test_binary_file(mini: Path) -> None:
    (mini / "tables" / "victory.csv").write_bytes(b"min,max\x00\x01\x02")
    one(mini, "binary data")


def test_huge_file_is_refused_without_reading_it(mini: Path) -> None:
    p = mini / "units.csv"
    with open(p, "ab") as fh:
        fh.truncate(100 * 1024 * 1024)  # a sparse 100 MB file
    e = one(mini, "the limit is")
    assert "104,857,600 bytes" in e


@pytest.mark.parametrize("ref", ["../outside.csv", "/etc/passwd", "tables/../../x.csv"])
def test_file_reference_escaping_the_folder(mini: Path, edit: Edit, ref: str) -> None:
    edit(mini / "module.toml", 'units = "units.csv"', f'units = "{ref}"')
    e = one(mini, "unit roster reference")
    assert e.startswith("module.toml:10:")
    errs = errors(mini)
    assert any("absolute path" in e or "escapes the source folder" in e for e in errs)


def test_symlink_out_of_the_folder(mini: Path, tmp_path: Path, edit: Edit) -> None:
    outside = tmp_path / "secret.csv"
    outside.write_text("id\n", encoding="utf-8")
    os.symlink(outside, mini / "linked.csv")
    edit(mini / "module.toml", 'units = "units.csv"', 'units = "linked.csv"')
    one(mini, "resolves outside the source folder")


def test_missing_folder() -> None:
    module, diags = load_module(Path("/nonexistent/module"))
    assert module is None
    assert str(diags.errors[0]).startswith("/nonexistent/module: error: module source folder")


def test_folder_without_module_toml(tmp_path: Path) -> None:
    module, diags = load_module(tmp_path)
    assert module is None
    assert str(diags.errors[0]).startswith(f"module.toml: error: no module.toml in {tmp_path}")


def test_empty_roster(mini: Path) -> None:
    (mini / "units.csv").write_text(
        "id,side,nationality,fleet,category,type,number,name,AA,AS,ASW,MA,DEF,ECM,flags,count,"
        "back,source\n",
        encoding="utf-8",
    )
    one(mini, "the unit roster is empty")


def test_check_writes_nothing(mini: Path, edit: Edit) -> None:
    edit(mini / "units.csv", "Saratoga,7,1,36", "Saratoga,7,x,36")
    before = sorted(p.relative_to(mini) for p in mini.rglob("*"))
    errors(mini)
    assert sorted(p.relative_to(mini) for p in mini.rglob("*")) == before


def test_map_picture_round_trips(mini: Path) -> None:
    module, _ = load_module(mini)
    assert module is not None
    grid = module.map.grid
    chars = {t.id: t.char for t in module.map.terrain.values()}
    layers = {"terrain": {h.id: chars[h.terrain] for h in module.map.hexes.values()}}
    text = render_map_picture(grid, layers)
    diags = Diagnostics()
    back = parse_map_picture(text, grid, "map.txt", diags)
    assert not diags.errors
    assert {k: c.char for k, c in back["terrain"].items()} == layers["terrain"]


def test_unknown_keys_are_reported(mini: Path, edit: Edit) -> None:
    """A key after an array-of-tables header belongs to that table: a classic TOML trap."""
    edit(
        mini / "map.toml",
        '[[place]]\nhex = "0304"\nname = "Mid Isle"',
        '[[place]]\nhex = "0304"\nname = "Mid Isle"\nall_land_hexsids = ["0304/0305"]',
    )
    e = one(mini, "unknown key 'all_land_hexsids' in [[place]]")
    assert e.startswith("map.toml:")


def test_airbase_at_sea(mini: Path, edit: Edit) -> None:
    edit(mini / "map.toml", 'hex = "0608"\nnationality = "So"', 'hex = "0605"\nnationality = "So"')
    one(mini, "airbase 0605 is at sea")


def test_back_face_names_an_unknown_layout(mini: Path, edit: Edit) -> None:
    edit(mini / "units.csv", "4,4,carrier,2,air_returning", "4,4,carrier,2,air_retrning")
    e = one(mini, "unknown counter layout 'air_retrning'")
    assert e.startswith("units.csv:4:") and "did you mean 'air_returning'" in e


def test_unknown_font(mini: Path, edit: Edit) -> None:
    edit(
        mini / "module.toml",
        'align = "left"',
        'align = "left"\nfont = "comic"',
    )
    one(mini, "unknown font 'comic'")


def test_carrier_air_of_another_nationality(mini: Path, edit: Edit) -> None:
    """US carrier air uses US carriers only [9.61]."""
    edit(
        mini / "module.toml",
        '[[nationality]]\ncode = "So"',
        '[[nationality]]\ncode = "Fr"\nname = "France"\nside = "NATO"\ncolor = "#C0D0F0"'
        '\n\n[[nationality]]\ncode = "So"',
    )
    edit(mini / "units.csv", "US-F4,NATO,US,", "US-F4,NATO,Fr,")
    e = one(mini, "cannot use US-CV-1 (US)")
    assert "[9.61]" in e and e.startswith("scenarios/skirmish.toml:")


def test_carrier_pool_needs_its_carrier_in_play(mini: Path, edit: Edit) -> None:
    edit(mini / "scenarios" / "skirmish.toml", 'NATO = ["US-CV-1", ', "NATO = [")
    edit(
        mini / "scenarios" / "skirmish.toml",
        '[[fixed]]\nunit = "US-CV-1"\nhex = "0203"\nrule = "11.1A"\n',
        "",
    )
    one(mini, "carrier US-CV-1 is not in this scenario's [forces]")


def test_victory_bonus_requires_a_known_bonus(mini: Path, edit: Edit) -> None:
    edit(
        mini / "scenarios" / "skirmish.toml",
        'rule = "13.11"',
        'rule = "13.11"\nrequires = "israel_cut"',
    )
    one(mini, "requires unknown bonus 'israel_cut'")
