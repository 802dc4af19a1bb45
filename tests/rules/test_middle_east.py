"""Optional rule 14.3, Middle East air forces, on the Sixth Fleet data set.

The module's table is checked against the rules folder's own 14.3 table (tables.md §A4, read at
run time); a whole NATO and Soviet set-up is played for every die roll; the validator's
1-to-6-per-airbase rule is checked against random distributions (hypothesis); a broken table
is refused with file:line:col.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.core import GameState, NoDice, ScriptedDice
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.middle_east import (
    DATA_KEY,
    TABLE_FILE,
    parse_table_14_3,
    read_table_14_3,
)
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.model import Module
from tests.conformance.rulesets.sixth_fleet_1975 import fixture_module
from tests.rules.play import header, setup_orders

RS = get_ruleset("sixth_fleet_1975")
SHARED_TABLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "rules" / "tables.md"
SYRIA, EGYPT, ISRAEL = ("1434", "1435"), ("0426", "0432", "0530"), ("0835", "0935")


@pytest.fixture(scope="module")
def sf() -> Module:
    return fixture_module("sixth_fleet")


def _resolve(m: Module, s: GameState, side: str, lines: list[str], dice: object) -> GameState:
    doc = parse_orders(header(s, side) + "[setup]\n" + "\n".join(lines) + "\n", "o.txt", VOCABULARY)
    out = RS.resolve(m, s, doc, dice)  # type: ignore[arg-type]
    assert out.ok, [str(v) for v in out.violations]
    return out.state


def _after_nato_setup(m: Module, roll: int) -> tuple[GameState, ScriptedDice, list]:
    s = RS.new_game(m, "short", "g", ("14.3",))
    dice = ScriptedDice([roll])
    doc = parse_orders(
        header(s, "NATO") + "[setup]\n" + "\n".join(setup_orders(Game.of(m, s), s, "NATO")) + "\n",
        "o.txt",
        VOCABULARY,
    )
    out = RS.resolve(m, s, doc, dice)
    assert out.ok, [str(v) for v in out.violations]
    return out.state, dice, list(out.events)


def _a4_table() -> dict[tuple[int, str], Counter[str]]:
    """tables.md §A4 as {(roll, country): Counter(type -> n)}, OCR notes dropped."""
    if not SHARED_TABLES.is_file():
        pytest.skip("the shared rules folder is not available")
    text = SHARED_TABLES.read_text("utf-8")
    part = text[text.index("### A4.") :]
    part = part[: part.index("###", 5)]
    out: dict[tuple[int, str], Counter[str]] = {}
    for line in part.splitlines():
        m = re.match(r"\|\s*([1-6])\s*\|(.*)\|(.*)\|\s*$", line)
        if not m:
            continue
        for country, cell in (("Syria", m.group(2)), ("Egypt", m.group(3))):
            cell = re.sub(r"\[OCR[^\]]*\]", "", cell)
            out[(int(m.group(1)), country)] = Counter(
                {t: int(n) for n, t in re.findall(r"(\d+)\s+([A-Z]\d+)", cell)}
            )
    assert len(out) == 12
    return out


# ---- the table is the rulebook's ----------------------------------------------------------------


def test_module_table_is_the_rulebook_table(sf: Module) -> None:
    """Every roll gives, by unit type, exactly the 14.3 table of the rules folder; Israel
    always gets 6 F4 and 6 A4 [14.3]."""
    a4 = _a4_table()
    table = read_table_14_3(sf)
    assert table is not None
    for roll in range(1, 7):
        for row in table.for_roll(roll):
            got = Counter({sf.unit(u).type: n for u, n in row.units})
            assert got == a4[(roll, row.name)], (roll, row.name)
    (israel,) = table.always()
    assert israel.name == "Israel"
    assert Counter({sf.unit(u).type: n for u, n in israel.units}) == {"F4": 6, "A4": 6}
    assert {sf.unit(u).nationality for u, _ in israel.units} == {"Is"}


# ---- new_game ------------------------------------------------------------------------------


def test_without_14_3_no_middle_east_unit_is_in_the_game(sf: Module) -> None:
    s = RS.new_game(sf, "short", "g")
    assert not [u for u in s.units if u.startswith("IS-") or u.endswith(("-SY", "-EG"))]
    assert DATA_KEY not in s.data


def test_with_14_3_nato_sets_up_the_israeli_air(sf: Module) -> None:
    s = RS.new_game(sf, "short", "g", ("14.3",))
    israeli = sorted(u for u in s.units if u.startswith("IS-"))
    assert israeli == [f"IS-A4.{i}" for i in range(1, 7)] + [f"IS-F4.{i}" for i in range(1, 7)]
    assert all(s.units[u].side == "NATO" and s.units[u].box == "unplaced" for u in israeli)
    facts = s.data[DATA_KEY]
    assert facts["roll"] is None and facts["roller"] == "Soviet"
    assert sorted(facts["table"]) == ["1", "2", "3", "4", "5", "6"]
    # the state survives JSON
    assert GameState.from_json(json.loads(s.canonical())).canonical() == s.canonical()


def test_14_3_needs_the_table() -> None:
    with pytest.raises(UserError, match="Middle East air table"):
        RS.new_game(fixture_module("sf75ex"), "test", "g", ("14.3",))


# ---- the roll -----------------------------------------------------------------------------


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_every_roll_gives_the_table_and_a_legal_set_up_follows(sf: Module, roll: int) -> None:
    """The roll is made with the injected dice as the Soviet set-up begins, recorded with
    its purpose and rule; the units are the lowest-numbered copies; the Soviet player can
    then set them up and the game starts [14.3][12.1]."""
    a4 = _a4_table()
    s, dice, events = _after_nato_setup(sf, roll)
    assert [(r.sides, r.value, r.rule) for r in dice.rolls] == [(6, roll, "14.3")]
    assert "Middle East" in dice.rolls[0].purpose
    (ev,) = [e for e in events if e.kind == "middle-east-air"]
    assert ev.rule == "14.3" and ev.data["roll"] == roll
    for country, pieces in ev.data["units"].items():
        assert Counter(sf.piece(p).unit.type for p in pieces) == a4[(roll, country)]
        for p in pieces:  # lowest-numbered copies: .1 .. .n of each row
            base, n = p.rsplit(".", 1)
            assert all(f"{base}.{i}" in pieces for i in range(1, int(n)))
            assert s.units[p].box == "unplaced" and s.units[p].side == "Soviet"
    assert (s.phase, s.active_side) == ("setup", "Soviet")
    s = _resolve(sf, s, "Soviet", setup_orders(Game.of(sf, s), s, "Soviet"), NoDice())
    assert (s.turn, s.phase, s.active_side) == (1, "movement", "Soviet")
    for country, pieces in ev.data["units"].items():
        bases = SYRIA if country == "Syria" else EGYPT
        assert {s.units[p].location for p in pieces} <= set(bases)


# ---- 1 to 6 per airbase, every airbase used -----------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    roll=st.integers(min_value=1, max_value=6),
    syria=st.lists(st.integers(min_value=0, max_value=1), min_size=12, max_size=12),
    egypt=st.lists(st.integers(min_value=0, max_value=2), min_size=12, max_size=12),
)
def test_per_airbase_limits_match_the_rule(roll: int, syria: list[int], egypt: list[int]) -> None:
    """Any spread of the rolled units over their country's bases is accepted exactly when
    every base gets 1 to 6 of them; otherwise the violations cite 14.3 (and 9.41 above 6)
    [14.3][9.41]."""
    sf = fixture_module("sixth_fleet")
    s, lines = _soviet_setup_state(sf, roll)
    units = s.data[DATA_KEY]["forces"]
    lines = list(lines)
    per_base: Counter[str] = Counter()
    for f in units:
        if f["side"] != "Soviet":
            continue
        bases, picks = (SYRIA, syria) if f["name"] == "Syria" else (EGYPT, egypt)
        for p, k in zip(f["units"], picks, strict=False):
            lines.append(f"place {p} {bases[k]}")
            per_base[bases[k]] += 1
    doc = parse_orders(
        header(s, "Soviet") + "[setup]\n" + "\n".join(lines) + "\n", "o.txt", VOCABULARY
    )
    rules = sorted(v.rule for v in RS.validate(sf, s, doc))
    ok = all(1 <= per_base[b] <= 6 for b in SYRIA + EGYPT)
    assert (rules == []) == ok, (per_base, rules)
    assert set(rules) <= {"14.3", "9.41"}


_SOVIET_SETUP: dict[int, tuple[GameState, list[str]]] = {}


def _soviet_setup_state(sf: Module, roll: int) -> tuple[GameState, list[str]]:
    """The Soviet set-up after roll ``roll`` and legal orders for his other units (so only
    the 14.3 units decide)."""
    if roll not in _SOVIET_SETUP:
        s, _dice, _ev = _after_nato_setup(sf, roll)
        others = [
            line
            for line in setup_orders(Game.of(sf, s), s, "Soviet")
            if not line.split()[1].rsplit(".", 1)[0].endswith(("-SY", "-EG"))
        ]
        _SOVIET_SETUP[roll] = (s, others)
    return _SOVIET_SETUP[roll]


# ---- a broken table is refused, with file:line:col --------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("d6,land,units\n", f"{TABLE_FILE}:1:1: expected the header"),
        ("d6,country,units\n7,Syria,4 SO-M21-SY\n", ":2:1: d6 must be 1 to 6"),
        ("d6,country,units\n-,Atlantis,6 IS-F4\n", ":2:3: unknown country 'Atlantis'"),
        ("d6,country,units\n-,Israel,6 IS-F5\n", ":2:10: unknown roster unit 'IS-F5'"),
        ("d6,country,units\n-,Israel,7 IS-F4\n", "7 IS-F4 asked for; the roster has 6"),
        ("d6,country,units\n-,Israel,1 US-CV-1\n", "US-CV-1 is not an air unit"),
        ("d6,country,units\n-,Israel,six IS-F4\n", "expected 'N ROSTER-ID'"),
        ("d6,country,units\n1,Syria,4 SO-M21-SY\n", "die roll 2 needs one row for each of"),
        ('d6,country,units\n-,Israel,"1 IS-F4, 1 SO-M21-SY"\n', "one side"),
    ],
)
def test_broken_tables_are_refused(sf: Module, text: str, message: str) -> None:
    with pytest.raises(UserError) as exc:
        parse_table_14_3(text, TABLE_FILE, sf)
    assert message in str(exc.value)
