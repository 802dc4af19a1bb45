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
from referee.vassal.module.table_rolls import MAX_LINE, TABLES_MENU, TableButton, table_buttons
from tests.vassal.vplay_run import played

ROOT = Path(__file__).resolve().parents[2]
M = "VASSAL.build.module."
DTP = ["CRT", "Detection table", "Strike contact", "Hit table", "Readiness", "Abort delay"]
WANT = {
    "sixth_fleet": ["CRT"],
    "sixth_fleet_dtp": DTP,
    "dtp_denmark_strait": DTP,
    "dtp_westpac": [*DTP, "Variable air"],
    "naval_module": ["Loss table", "Shipping attack"],
    "carrier_battlegroup": [
        "Firing table",
        "Hit table",
        "Contact chart",
        "Initial Alert",
        "Intelligence table",
        "Escort selection",
        "Tactical deployment",
    ],
    "sixth_fleet_2019": ["Strike table", "NATO random events", "Soviet random events"],
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
        assert all(len(line) < MAX_LINE for line in button.lines)  # none cut short


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


@pytest.mark.parametrize("name", ["sixth_fleet_dtp", "dtp_denmark_strait", "dtp_westpac"])
def test_the_detection_line_gives_each_target_its_lowest_differential(name: str) -> None:
    """[DTP 6.23] example: a Soviet SSN detects a US CV stack at differential -1, the CV stack
    the SSN at +3. The line for each roll names, per target, the lowest ECM differential that
    roll detects at (columns read at or below [DTP 4.01]), 'D' cells detecting with no roll;
    the +2 of Restricted or Coastal water [DTP 6.3 step 6] makes an 8 possible, asked for."""
    b = next(b for b in table_buttons(_module(name)) if b.name == "Detection table")
    table = _module(name).tables["detection"]
    assert b.modified and b.lo == 0 and len(b.lines) == 9  # modified totals 0..8
    for total in range(0, 9):
        line = b.lines[total - b.lo]
        for r, row in enumerate(table.row_keys):
            want = next(
                (c.text for c, cell in zip(table.column_keys, table.texts[r], strict=True)
                 if cell == "D" or (cell.isdigit() and total >= int(cell))),
                None,
            )  # fmt: skip
            group = next(p for p in line.split(", ") if row.text in p.split(":")[0].split("/"))
            assert group.endswith(f"ECM differential {want}+" if want else "no detection"), (
                total, row.text, group)  # fmt: skip


def test_the_dtp_hit_line_is_the_books_examples() -> None:
    """[DTP 8.52] DTP-EX-CE-5: attack 20 against DEF 10 damages on 1-4; DTP-EX-CE-2: attack
    10 against DEF 3 damages automatically, against DEF 4 on 1-5; a roll of 6 against DEF 10
    needs attack 40 no more (1-5 is the estimate) and does nothing."""
    b = next(b for b in table_buttons(_module("sixth_fleet_dtp")) if b.name == "Hit table")
    for roll in range(1, 7):
        line = b.lines[roll - b.lo]
        assert line.startswith("by attack strength: DEF 0: 5+ D-1, 10+ D-2, 30+ D-3; ")
        assert "DEF 3: " in line and "10+ D-1" in line.split("DEF 3: ")[1].split(";")[0]
    assert "; DEF 8-10: 20+ D1;" in b.lines[4 - b.lo]  # 1-4 at 20 for DEF 10
    assert "; DEF 4: 5+ D1, 20+ D-1, 40+ D-2;" in b.lines[3 - b.lo]  # 10 is 1-5, 5 is 1-3
    assert "; DEF 4: 10+ D1, 20+ D-1, 40+ D-2;" in b.lines[5 - b.lo]
    assert "; DEF 10+: no effect" in b.lines[6 - b.lo]


@pytest.mark.parametrize("name", ["sixth_fleet_dtp", "dtp_denmark_strait", "dtp_westpac"])
def test_the_readiness_line_keeps_active_each_unit_rated_at_or_above_the_roll(name: str) -> None:
    """[DTP 9.23] a landing air unit stays active on a d6 at or below its rating: the MiG-23's
    attested 4 (DTP-EX-CE-3) is active on a 4, not on a 5; a modifier (Keflavik -1 [DTP 11.3
    rule 5]) is asked for, and a total past every rating reads the edge line."""
    b = next(b for b in table_buttons(_module(name)) if b.name == "Readiness")
    table = _module(name).tables["readiness"]
    assert b.modified

    def state(total: int) -> dict[str, str]:
        groups = dict(g.rsplit(": ", 1) for g in _line(name, "Readiness", total).split(", "))
        return {u: word for units, word in groups.items() for u in units.split("/")}

    for total in range(b.lo - 1, b.lo + len(b.lines) + 1):
        seen = state(total)
        for r, row in enumerate(table.row_keys):
            rating = int(table.texts[r][table.column("rating")])
            assert seen[row.text] == ("active" if total <= rating else "not active")
    if "So M23" in state(4):  # the attested MiG-23
        assert (state(4)["So M23"], state(5)["So M23"]) == ("active", "not active")


def test_the_abort_delay_line_is_2d6_less_the_rating_at_least_2() -> None:
    """[DTP 8.51] DTP-EX-CE-3: a MiG-23 (rating 4) rolling 8 is back after 4 turns; every
    unit's delay is 2d6 less its rating, never below 2; the 9.15 / 9.29 extra (3) is asked
    for, so totals from -1 to 15 read their own line."""
    name = "sixth_fleet_dtp"
    b = next(b for b in table_buttons(_module(name)) if b.name == "Abort delay")
    table = _module(name).tables["readiness"]
    assert b.modified and b.dice == 2 and b.lo + len(b.lines) - 1 >= 12 + 3
    for total in range(-1, 16):
        groups = dict(g.rsplit(": ", 1) for g in _line(name, "Abort delay", total).split(", "))
        turns = {u: t for units, t in groups.items() for u in units.split("/")}
        for r, row in enumerate(table.row_keys):
            rating = int(table.texts[r][table.column("rating")])
            assert turns[row.text] == f"{max(2, total - rating)} turns"
    assert "So M23" in next(g for g in _line(name, "Abort delay", 8).split(", ") if "4 turns" in g)


def test_the_intelligence_line_reads_the_roll_times_each_ew() -> None:
    """[11.1] d6 times the ship's EW, read at or below: a 4 with the carrier's starting EW 5
    [4.0 step 6] is 20, 'Reveal one SBG; Alert -1'; the line runs to the EW whose product
    reads the top row, and every larger EW reads it too."""
    b = next(b for b in table_buttons(_module("carrier_battlegroup"))
             if b.name == "Intelligence table")  # fmt: skip
    assert b.lines[4 - b.lo] == (
        "EW 1-2: No effect, EW 3-4: Reveal one SBG, EW 5-7: Reveal one SBG; Alert -1, "
        "EW 8+: Reveal one SBG; Alert -1; gain a turn"
    )
    assert b.lines[1 - b.lo].startswith("EW 1-9: No effect, EW 10-19: Reveal one SBG,")


def test_the_westpac_variable_air_line_names_the_units_of_the_roll() -> None:
    """[DTP 11.507] the first unit listed for the roll still in the box enters."""
    b = next(b for b in table_buttons(_module("dtp_westpac")) if b.name == "Variable air")
    assert b.lines[0] == "units -, placement -"
    assert b.lines[4 - b.lo].startswith("units SO-M23V.1 SO-M23V.2, placement ")


def _check_chat(out: str, buttons: dict[str, TableButton]) -> dict[str, set[int]]:
    """Every chat line after a table button's ROLL is that table's line for the total rolled
    (no modifier is entered, so the total is the dice's own); the totals each button showed."""
    seen: dict[str, set[int]] = {}
    pressed = None
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "ROLL":
            pressed = f[1] if f[1] in buttons else None
        elif f[0] != "CHAT":
            pressed = None
        elif pressed:
            m = re.search(r"\*\* (.+) \((\d)d6 \[(.+)\]\) = (-?\d+): (.+) \*\*\* <", f[1])
            assert m, f[1]
            b = buttons[pressed]
            assert (m[1], int(m[2]), m[3]) == (b.name, b.dice, b.rule)
            total = int(m[4])
            assert b.dice <= total <= 6 * b.dice
            assert m[5] == b.lines[min(max(total - b.lo, 0), len(b.lines) - 1)]
            seen.setdefault(pressed, set()).add(total)
    return seen


@pytest.mark.vassal
@pytest.mark.parametrize("name", ["sixth_fleet_dtp", "dtp_westpac"])
def test_the_dtp_table_buttons_report_their_line_in_real_vassal(name: str) -> None:
    """Every button of the DTP module (Westpac's own variable air too) pressed 24 times in
    real VASSAL 3.7.26: each chat line is the table's line for the total rolled."""

    out = played(name, "dice")  # the module's one VPlay run of the session, exit 0
    buttons = {b.name: b for b in table_buttons(_module(name))}
    seen = _check_chat(out, buttons)
    assert set(seen) == set(buttons)  # every button reported a line
    assert all(len(v) > 1 for v in seen.values())  # 24 rolls each, several totals


@pytest.mark.vassal
def test_the_table_buttons_report_their_line_in_real_vassal() -> None:
    out = played("carrier_battlegroup", "dice")  # the module's one VPlay run, exit 0
    buttons = {b.name: b for b in table_buttons(_module("carrier_battlegroup"))}
    seen = _check_chat(out, buttons)
    assert set(seen) == set(buttons)  # every button reported a line
    assert all(len(v) > 1 for v in seen.values())  # 24 rolls each, several totals
