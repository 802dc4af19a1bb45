"""The game's own dice in a toolbar menu (issue 27): one die for every module, then the rolls
of several dice each ruleset declares (``RulesetSchema.dice``): 2d6 where its rules roll two
dice [DTP 8.51] [27.2], the higher of two where a rule keeps it [CBG 25.1], 3d6 [CBG 4.0].
The fast test reads the buildFile; the ``vassal`` one opens the menu and presses every
button in real VASSAL 3.7.26 (``tests/vassal/java/VPlay.java``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from referee.source.loader import load_module
from referee.source.schema import ruleset_schema
from referee.vassal.module.buildfile import buildfile_xml
from referee.vassal.module.module_writer import plan_build
from tests.vassal.vplay_run import played, records

ROOT = Path(__file__).resolve().parents[2]
M = "VASSAL.build.module."
WANT = {
    "sixth_fleet": {"1d6": (1, False)},
    "sixth_fleet_2019": {"1d6": (1, False)},
    "sixth_fleet_dtp": {"1d6": (1, False), "2d6": (2, False)},
    "dtp_denmark_strait": {"1d6": (1, False), "2d6": (2, False)},
    "dtp_westpac": {"1d6": (1, False), "2d6": (2, False)},
    "naval_module": {"1d6": (1, False), "2d6": (2, False)},
    "carrier_battlegroup": {
        "1d6": (1, False), "2d6": (2, False), "Higher of 2d6": (2, True), "3d6": (3, False)
    },
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(WANT))
def test_each_module_rolls_its_rules_dice_from_one_menu(name: str) -> None:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    root = etree.fromstring(buildfile_xml(plan_build(module)))
    tables = {m.get("text"): m for m in root.iter(M + "ToolbarMenu")}.get("Tables")
    table_buttons = set(tables.get("menuItems").split(",")) if tables is not None else set()
    buttons = {
        b.get("name"): (int(b.get("nDice")), b.get("keepDice") == "true", b.get("tooltip"))
        for b in root.iter(M + "DiceButton")
        if b.get("name") not in table_buttons  # the Tables menu's (test_table_buttons.py)
    }
    assert {k: v[:2] for k, v in buttons.items()} == WANT[name]
    menus = [m for m in root.iter(M + "ToolbarMenu") if m.get("text") == "Dice"]
    assert len(menus) == 1  # one Dice menu (Tables and Tracks are menus of their own)
    assert menus[0].get("menuItems").split(",") == list(buttons)  # every button, in order
    schema = ruleset_schema(module.ruleset)
    for decl in schema.dice if schema else ():
        assert f"[{decl.rule}]" in buttons[decl.name][2]  # the tooltip cites the rule


@pytest.mark.vassal
def test_the_dice_menu_rolls_in_real_vassal() -> None:
    out = played("carrier_battlegroup", "dice")  # the run the tables and tracks read
    menus = [m for m in records(out, "MENU") if m[0] == "Dice"]
    assert menus == [["Dice", "1d6", "2d6", "3d6", "Higher of 2d6"]]
    results: dict[str, list[int]] = {}
    pressed = None
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "ROLL":
            pressed = f[1]
        elif f[0] == "CHAT" and pressed and (m := re.search(r"\*\*\* (.+) = (\d+) \*\*\*", f[1])):
            assert m[1] == pressed
            results.setdefault(pressed, []).append(int(m[2]))
    assert {k: len(v) for k, v in results.items()} == dict.fromkeys(WANT["carrier_battlegroup"], 24)
    assert set(results["1d6"]) <= set(range(1, 7))
    assert set(results["Higher of 2d6"]) <= set(range(1, 7))  # one die kept, never a sum
    assert set(results["2d6"]) <= set(range(2, 13)) and max(results["2d6"]) > 6
    assert set(results["3d6"]) <= set(range(3, 19)) and max(results["3d6"]) > 6
