"""Issue 11, cause 4: module sources of the wrong shape are reported with file:line, never
an internal error. Each case breaks a copy of the bundled Sixth Fleet source as the issue's
reproducer did and loads it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.resources import example_path
from referee.source.loader import load_module


@pytest.fixture
def sixth(tmp_path: Path) -> Path:
    src = example_path("sixth_fleet")
    assert src is not None
    dst = tmp_path / "sf"
    shutil.copytree(src, dst)
    return dst


def _move_header(path: Path) -> None:
    """Move a CSV's header row below the first data rows (comments dropped)."""
    rows = [t for t in path.read_text().splitlines() if not t.startswith("#")]
    head, rest = rows[0], rows[1:]
    rest.insert(2, head)
    path.write_text("\n".join(rest) + "\n")


def _set(path: Path, key: str, value: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        p = root / path
        lines = p.read_text().splitlines()
        hit = [i for i, t in enumerate(lines) if t.startswith(f"{key} =")]
        assert hit, f"test setup: no {key} in {path}"
        lines[hit[0]] = f"{key} = {value}"
        p.write_text("\n".join(lines) + "\n")

    return change


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "first_player is a list": (
        _set(Path("scenarios/short.toml"), "first_player", "[]"),
        "scenarios/short.toml:",
    ),
    "scenario name is a list": (
        _set(Path("scenarios/short.toml"), "name", "[]"),
        "scenarios/short.toml:",
    ),
    "terrain header moved": (lambda r: _move_header(r / "tables/terrain.csv"), "terrain.csv:"),
    "crt header moved": (lambda r: _move_header(r / "tables/crt.csv"), "crt.csv:"),
    "victory header moved": (lambda r: _move_header(r / "tables/victory.csv"), "victory.csv:"),
    "units header moved": (lambda r: _move_header(r / "units.csv"), "units.csv:"),
    "map columns a string": (_set(Path("map.toml"), "columns", '"x"'), "map.toml:"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_source_of_the_wrong_shape_is_reported_with_its_line(sixth, case):
    change, where = CASES[case]
    change(sixth)
    module, diags = load_module(sixth)
    assert module is None
    assert any(where in str(e) for e in diags.errors), [str(e) for e in diags.errors]


TOY_CASES: dict[str, Callable[[Path], None]] = {
    # found by tests/fuzz (module target): a reinforcement's hexes not a list
    "reinforcement hexes a number": lambda r: (r / "scenarios/long.toml").write_text(
        (r / "scenarios/long.toml").read_text().replace('hexes = ["0608"]', "hexes = 1e999")
    ),
    # a terrain table cut short: the map lacks hexes a scenario names (was KeyError '0608')
    "terrain table cut short": lambda r: (r / "tables/terrain.csv").write_text(
        (r / "tables/terrain.csv").read_text().split("\nland,")[0] + "\nland,#,Land,#C8B88A,-"
    ),
}


@pytest.mark.parametrize("case", sorted(TOY_CASES))
def test_fuzz_found_sources_are_reported_not_crashed(tmp_path, case):
    from tests.pbem import toy

    toy.install()
    dst = tmp_path / "toy"
    shutil.copytree(toy.TOY_FIXTURE, dst)
    TOY_CASES[case](dst)
    module, diags = load_module(dst)
    assert module is None and diags.errors


def test_a_prohibition_area_that_is_a_list_is_reported(tmp_path):
    """Found by tests/fuzz (module target, seed 11): `area = []` was a TypeError."""
    from tests.pbem import toy

    toy.install()
    dst = tmp_path / "toy"
    shutil.copytree(toy.TOY_FIXTURE, dst)
    p = dst / "scenarios/long.toml"
    p.write_text(p.read_text().replace('area = "inner_sea"', "area = []"))
    module, diags = load_module(dst)
    assert module is None and any("long.toml:" in str(e) for e in diags.errors)


def test_a_country_nationality_that_is_a_table_is_reported(tmp_path):
    """Found by tests/fuzz (module target, seed 9): `nationality = {}` was a TypeError."""
    from tests.pbem import toy

    toy.install()
    dst = tmp_path / "toy"
    shutil.copytree(toy.TOY_FIXTURE, dst)
    p = dst / "map.toml"
    assert 'nationality = "So"' in p.read_text()
    p.write_text(p.read_text().replace('nationality = "So"', "nationality = {}", 1))
    module, diags = load_module(dst)
    assert module is None and any("map.toml:" in str(e) for e in diags.errors)


def test_a_category_layout_that_is_a_table_is_reported(sixth):
    """Found by tests/fuzz (rules-module target, seed 5102, input 3607): `surface = {}` under
    `[counter.category_layout]` was a TypeError (a dict is no layout name)."""
    p = sixth / "module.toml"
    text = p.read_text()
    assert '\nsurface = "naval"\n' in text
    p.write_text(text.replace('\nsurface = "naval"\n', "\nsurface = {}\n", 1))
    module, diags = load_module(sixth)
    assert module is None
    assert any(
        "module.toml:" in str(e) and "expected the name of a counter layout" in str(e)
        for e in diags.errors
    ), [str(e) for e in diags.errors]


LONG_RUN_CASES: dict[str, tuple[str, str, str, str]] = {
    # found by the long fuzz run of issue 31 (module target, seed 5101): file, old, new, message
    "prohibition categories a boolean (input 5473)": (
        "scenarios/long.toml",
        'categories = ["surface", "submarine"]',
        "categories = true",
        "'categories' must be a list of unit categories",
    ),
    "optional rule a list (input 7898)": (
        "scenarios/skirmish.toml",
        'optional_rules = ["14.1"]',
        "optional_rules = [[1]]",
        "unknown optional rule [1]",
    ),
    "pool hexes a boolean (seed 7101, input 3513)": (
        "scenarios/skirmish.toml",
        'hexes = ["0202", "0203"]',
        "hexes = true",
        "[[pool]]: 'hexes' must be a list of hex ids, got True",
    ),
    "pool countries a boolean (same cause, found by reading)": (
        "scenarios/skirmish.toml",
        'hexes = ["0202", "0203"]',
        'hexes = ["0202", "0203"]\ncountries = false',
        "[[pool]]: 'countries' must be a list of countries, got False",
    ),
    "pool carrier a list (every key retyped once, 2026-11-29)": (
        "scenarios/skirmish.toml",
        'carrier = "US-CV-1"',
        "carrier = []",
        "[[pool]]: 'carrier' must be text (a quoted string), got []",
    ),
    "category layout a list (inputs 564, 1016, 4587)": (
        "module.toml",
        'submarine = "naval"',
        "submarine = []",
        "expected the name of a counter layout",
    ),
}


@pytest.mark.parametrize("case", sorted(LONG_RUN_CASES))
def test_long_fuzz_run_sources_are_reported_not_crashed(tmp_path, case):
    from tests.pbem import toy

    toy.install()
    dst = tmp_path / "toy"
    shutil.copytree(toy.TOY_FIXTURE, dst)
    name, old, new, message = LONG_RUN_CASES[case]
    p = dst / name
    assert old in p.read_text(), f"test setup: no {old!r} in {name}"
    p.write_text(p.read_text().replace(old, new, 1))
    module, diags = load_module(dst)
    assert module is None
    assert any(name + ":" in str(e) and message in str(e) for e in diags.errors), [
        str(e) for e in diags.errors
    ]


def test_a_value_box_of_no_height_is_reported_by_check(tmp_path):
    """Found by the long fuzz run of issue 31 (module target, seed 5101, input 3754): a layout
    box with ``h = 0`` made the type-size search ask FreeType for a size under one pixel
    ("OSError: invalid ppem value") inside ``referee check``."""
    from tests.pbem import toy
    from tests.pbem.cliflow import cli

    toy.install()
    dst = tmp_path / "toy"
    shutil.copytree(toy.TOY_FIXTURE, dst)
    p = dst / "module.toml"
    lines = p.read_text().splitlines()
    assert lines[181] == "h = 0.22"
    lines[181] = "h = 0"
    p.write_text("\n".join(lines) + "\n")
    code, out = cli("check", dst)
    assert code == 1, out
    assert "does not fit box" in out and "internal error" not in out


# Found by retyping every key of every bundled source once (each `key = value` line given
# [], {}, -1, "", true, 1e999 and [[1]] in turn, then `check` and `state new`; 2026-11-29):
# source, file, the line as written, the line retyped, what `check` must say instead of an
# internal error.
RETYPED_CASES: dict[str, tuple[str, str, str, str, str]] = {
    "board unit a list (carrier_battlegroup)": (
        "carrier_battlegroup",
        "map.toml",
        'unit = "in"',
        "unit = []",
        "[board] unit must be one of 'px', 'in', 'mm', got []",
    ),
}


@pytest.mark.parametrize("case", sorted(RETYPED_CASES))
def test_a_retyped_key_of_a_bundled_source_is_reported(tmp_path, case):
    name, file, old, new, message = RETYPED_CASES[case]
    src = example_path(name)
    assert src is not None
    dst = tmp_path / name
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("examples", "*.png", "*.pdf"))
    p = dst / file
    assert old in p.read_text(), f"test setup: no {old!r} in {file}"
    p.write_text(p.read_text().replace(old, new, 1))
    module, diags = load_module(dst)
    assert module is None
    assert any(file + ":" in str(e) and message in str(e) for e in diags.errors), [
        str(e) for e in diags.errors
    ]
