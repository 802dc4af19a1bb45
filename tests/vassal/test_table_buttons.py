"""Table buttons (issue 27): where a rule resolves a roll on a table, the *Tables* menu has a
button that rolls the table's dice and reports the table's result line, read from the
module's own table with its declared lookup (``referee.vassal.module.table_rolls``). The fast
tests check the lines against the tables and the rulebooks' examples; the ``vassal`` one
presses every button of Carrier Battlegroup in real VASSAL 3.7.26 and reads the chat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.module.buildfile import buildfile_xml
from referee.vassal.module.module_writer import plan_build
from referee.vassal.module.table_rolls import TABLES_MENU, table_buttons
from tests.vassal.vplay_run import cbg_played

ROOT = Path(__file__).resolve().parents[2]
M = "VASSAL.build.module."
WANT = {
    "sixth_fleet": ["CRT"],
    "sixth_fleet_dtp": ["CRT"],
    "naval_module": ["Loss table", "Shipping attack"],
    "carrier_battlegroup": ["Firing table", "Hit table", "Contact chart", "Initial Alert"],
    "sixth_fleet_2019": ["Strike table"],
}


def _module(name: str) -> Module:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    return module


@pytest.mark.parametrize("name", sorted(WANT))
def test_each_module_has_a_button_per_table_roll(name: str) -> None:
    module = _module(name)
    root = etree.fromstring(buildfile_xml(plan_build(module)))
    menus = {m.get("text"): m for m in root.iter(M + "ToolbarMenu")}
    assert menus[TABLES_MENU].get("menuItems").split(",") == WANT[name]
    dice = {b.get("name"): b for b in root.iter(M + "DiceButton")}
    for button in table_buttons(module):
        el = dice[button.name]
        assert el.get("nDice") == str(button.dice) and el.get("nSides") == "6"
        assert el.get("prompt") == ("true" if button.modified else "false")
        assert f"[{button.rule}]" in el.get("tooltip")
        fmt = el.get("reportFormat")
        assert fmt.startswith("{") and fmt.endswith("}")  # a VASSAL expression
        assert all(line in fmt for line in button.lines)  # every line it may report


def _line(name: str, button: str, total: int) -> str:
    b = next(b for b in table_buttons(_module(name)) if b.name == button)
    return b.lines[min(max(total - b.lo, 0), len(b.lines) - 1)]


def test_the_naval_loss_line_is_the_books_example() -> None:
    """[27.2] example: a modified 10 in the Air Interdiction column is AD1."""
    assert "Air Interdiction AD1" in _line("naval_module", "Loss table", 10).split(", ")


def test_the_crt_line_names_the_lowest_differential_that_retreats() -> None:
    """[8.9] Example 3 (8.23): column 5 is '*' at ECM 6 (no roll retreats the defender);
    ECM 6 first retreats on a 1 at differential 20, on a 2 only at 40 (the chart's '1-2')."""
    assert "ECM 6: differential 20+" in _line("sixth_fleet", "CRT", 1)
    assert "ECM 6: differential 40+" in _line("sixth_fleet", "CRT", 2)
    assert "ECM 6: no effect" in _line("sixth_fleet", "CRT", 3)


def test_a_modified_roll_past_the_table_reads_its_edge_line() -> None:
    """The contact chart is read at or below and clamped at both ends [18.1]."""
    b = next(b for b in table_buttons(_module("carrier_battlegroup")) if b.name == "Contact chart")
    assert b.modified and b.lo < 1 and b.lines[0] == "contact yes, edge Soviet"
    assert b.lines[-1] == "contact yes, edge USN"


@pytest.mark.vassal
def test_the_table_buttons_report_their_line_in_real_vassal() -> None:
    out = cbg_played(("--dice", "--tracks", "Tracks"))
    buttons = {b.name: b for b in table_buttons(_module("carrier_battlegroup"))}
    seen: dict[str, set[int]] = {}
    pressed = None
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "ROLL":
            pressed = f[1] if f[1] in buttons else None
        elif f[0] != "CHAT":  # the chat lines after a roll are its own
            pressed = None
        elif pressed:
            m = re.search(r"\*\* (.+) \((\d)d6 \[(.+)\]\) = (-?\d+): (.+) \*\*\* <", f[1])
            assert m, f[1]
            b = buttons[pressed]
            assert (m[1], int(m[2]), m[3]) == (b.name, b.dice, b.rule)
            total = int(m[4])
            assert 1 <= total <= 6  # one die, no modifier entered
            assert m[5] == b.lines[min(max(total - b.lo, 0), len(b.lines) - 1)]
            seen.setdefault(pressed, set()).add(total)
    assert set(seen) == set(buttons)  # every button reported a line
    assert all(len(v) > 1 for v in seen.values())  # 24 rolls each, several totals
