"""Scenario values of the wrong shape found by the long fuzz run (issue 31,
docs/reliability.md): each was an internal error in ``check``; now one message placed in
the file, exit 1."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_hostile_numbers import run_cli

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path, name: str) -> Path:
    dst = tmp_path / name
    shutil.copytree(ROOT / "module_src" / name, dst)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("cycle", ["-1", '"AM"', "[1, 2]", "{}"])
def test_calendar_cycle_must_be_a_list_of_names(tmp_path, cycle):
    """Seed 3102, toy module input 1042: ``cycle = -1`` ('int' object is not iterable)."""
    src = _copy(tmp_path, "dtp_denmark_strait")
    sc = src / "scenarios" / "denmark_strait.toml"
    _edit(sc, 'cycle = ["AM", "PM", "Night"]', f"cycle = {cycle}")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "scenarios/denmark_strait.toml:39: error: calendar cycle must be a list of names" in out
    assert "internal error" not in out and "cycle is empty" not in out


def test_victory_bonus_requires_must_name_a_bonus(tmp_path):
    """Seed 3101, rules-module input 1820: ``requires = [[1]]`` (unhashable type: 'list')."""
    src = _copy(tmp_path, "sixth_fleet")
    _edit(src / "scenarios" / "short.toml", 'requires = "israel_cut_off"', "requires = [[1]]")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "'requires' must name another bonus, got [[1]]" in out
    assert "internal error" not in out


TOY = ROOT / "tests" / "pbem" / "fixtures" / "toy"

# The third long run (seeds 4101 and 4102, docs/reliability.md): values of the wrong TOML type
# where a name or a list was read; each was an internal error (exit 70) in ``check``.
WRONG_TYPES = [
    # (file, the line as written, the mutation, the message now given)
    (
        "scenarios/skirmish.toml",
        'nationality = "So"',
        "nationality = {}",
        "scenarios/skirmish.toml:73: error: [[pool]]: unknown nationality {}",
    ),
    (
        "scenarios/skirmish.toml",
        'code = "So"',
        "code = [[1]]",
        "scenarios/skirmish.toml:63: error: [[pool]]: unknown set-up code [[1]]",
    ),
    (
        "module.toml",
        'when = "carrier"',
        "when = {}",
        "module.toml:163: error: counter layout 'when' must be a flag name, found {}",
    ),
    (
        "scenarios/skirmish.toml",
        'hexes = ["0405", "0506"]',
        "hexes = true",
        "scenarios/skirmish.toml:39: error: [[choice]] needs hexes = [..] with at least one hex",
    ),
]


@pytest.mark.parametrize(("name", "old", "new", "message"), WRONG_TYPES)
def test_a_value_of_the_wrong_type_is_a_message(tmp_path, name, old, new, message):
    from tests.pbem import toy

    toy.install()
    src = tmp_path / "toy"
    shutil.copytree(TOY, src)
    _edit(src / name, old, new)
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert message in out
    assert "internal error" not in out


def test_a_zone_named_by_a_table_is_a_message(tmp_path):
    """Seed 4102, rules-module input 598: ``name = {}`` in a ``[[zone]]`` (unhashable 'dict'
    while collecting the declared zones)."""
    src = _copy(tmp_path, "naval_module")
    _edit(src / "map.toml", 'name = "Karkinit Sea Zone"', "name = {}")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "map.toml:94: error: [[zone]] name must be 1 to 60 characters" in out
    assert "internal error" not in out
