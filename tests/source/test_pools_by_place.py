"""Set-up pools on area and point-to-point maps (issue 10 §2): ``where = "zones"`` (by zone
type and properties) and ``where = "spaces"`` (by line, space type and properties), the
counterparts of set-up codes and airbases, which are hex-map features [11.1], [9.1]."""

from __future__ import annotations

import shutil
from pathlib import Path

from referee.render.chart_phrases import pool_text
from referee.source.loader import load_module
from referee.vassal.module.setup_area import group_description

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "modules"


def _copy(tmp_path: Path, name: str, pool: str) -> Path:
    """The fixture with its two US-F4 placements replaced by ``pool``."""
    dst = tmp_path / name
    shutil.copytree(FIXTURES / name, dst)
    scen = next((dst / "scenarios").glob("*.toml"))
    text = scen.read_text(encoding="utf-8")
    for copy in ("US-F4.1", "US-F4.2"):
        start = text.index(f'[[fixed]]\nunit = "{copy}"')
        end = text.index("[[fixed]]", start + 1)
        text = text[:start] + text[end:]
    scen.write_text(text + "\n" + pool, encoding="utf-8")
    return dst


def _errors(src: Path) -> list[str]:
    module, diags = load_module(src)
    return [str(d) for d in diags.errors] if module is None else []


def _pool_error(src: Path) -> str:
    """The one error about the pool (a refused pool also leaves its units unplaced)."""
    (err,) = [e for e in _errors(src) if "error: [[pool]]" in e]
    return err


def test_a_pool_of_zones_by_type_and_property(tmp_path: Path) -> None:
    src = _copy(
        tmp_path,
        "area_med",
        '[[pool]]\nside = "NATO"\nunits = ["US-F4"]\nwhere = "zones"\n'
        'types = ["land", "island"]\nproperties = { base = "NATO" }\nper_hex_max = 1\n'
        'rule = "11.1"\n',
    )
    module, diags = load_module(src)
    assert module is not None, [str(d) for d in diags.items]
    (pool,) = module.scenarios["opening"].pools
    assert pool.where == "zones"
    assert pool.hexes == ("Italy", "Crete")  # source order; Balkans has no NATO base
    assert pool.types == ("land", "island") and pool.properties == {"base": "NATO"}
    text = pool_text(module, pool)
    assert "in any Land zone or Small island with base NATO (2)" in text
    assert "at most 1 per zone" in text
    assert group_description(module, pool).endswith("(2) (at most 1 per zone)")


def test_a_pool_of_spaces_by_line_and_type(tmp_path: Path) -> None:
    src = _copy(
        tmp_path,
        "point_north",
        '[[pool]]\nside = "NATO"\nunits = ["US-F4"]\nwhere = "spaces"\n'
        'lines = ["Atlantic Line"]\ntypes = ["chokepoint"]\n',
    )
    module, diags = load_module(src)
    assert module is not None, [str(d) for d in diags.items]
    (pool,) = module.scenarios["patrol"].pools
    assert pool.hexes == ("Iceland Gap", "Bear Gap")
    assert "on any Chokepoint of the Atlantic Line (2)" in pool_text(module, pool)


def test_unknown_types_and_lines_are_placed_and_suggest_the_nearest(tmp_path: Path) -> None:
    src = _copy(
        tmp_path,
        "point_north",
        '[[pool]]\nside = "NATO"\nunits = ["US-F4"]\nwhere = "spaces"\n'
        'lines = ["Atlantik Line"]\ntypes = ["chokepoints"]\n',
    )
    errors = _errors(src)
    scen = "scenarios/patrol.toml"
    line = next(e for e in errors if "unknown line 'Atlantik Line'" in e)
    assert scen in line and "did you mean 'Atlantic Line'" in line
    n = (src / scen).read_text(encoding="utf-8").splitlines()
    row = next(i for i, t in enumerate(n, 1) if t.startswith("lines ="))
    col = n[row - 1].index("Atlantik") + 1  # 1-based, the name's first letter
    assert f"{scen}:{row}:{col}:" in line
    kind = next(e for e in errors if "unknown space type 'chokepoints'" in e)
    assert "did you mean 'chokepoint'" in kind


def test_places_the_map_does_not_have_or_that_none_qualify(tmp_path: Path) -> None:
    no_spaces = _copy(
        tmp_path / "a",
        "area_med",
        '[[pool]]\nside = "NATO"\nunits = ["US-F4"]\nwhere = "spaces"\n',
    )
    err = _pool_error(no_spaces)
    assert "where = 'spaces', but this map has no spaces" in err
    assert err.startswith("scenarios/opening.toml:43: error:")  # the line of `where`
    none = _copy(
        tmp_path / "b",
        "area_med",
        '[[pool]]\nside = "NATO"\nunits = ["US-F4"]\nwhere = "zones"\ntypes = ["sea"]\n'
        'properties = { base = "NATO" }\n',
    )
    err = _pool_error(none)
    assert "[[pool]] (zones): no zone on the map qualifies" in err
    assert "check the zone types and properties" in err
    lines = _copy(
        tmp_path / "c",
        "area_med",
        '[[pool]]\nside = "NATO"\nunits = ["US-F4"]\nwhere = "zones"\nlines = ["x"]\n',
    )
    err = _pool_error(lines)
    assert "'lines' is for where = \"spaces\"" in err
    full = _copy(
        tmp_path / "d",
        "area_med",
        '[[pool]]\nside = "NATO"\nunits = ["US-F4"]\nwhere = "zones"\ntypes = ["island"]\n'
        "per_hex_max = 1\n",
    )
    err = _pool_error(full)
    assert "2 units but 1 zones hold at most 1 each" in err


def test_the_hex_kinds_still_need_a_hex_map(tmp_path: Path) -> None:
    src = _copy(
        tmp_path,
        "area_med",
        '[[pool]]\nside = "NATO"\nunits = ["US-F4"]\nwhere = "setup_code"\ncode = "US"\n',
    )
    assert any("unknown set-up code 'US'" in e for e in _errors(src))
