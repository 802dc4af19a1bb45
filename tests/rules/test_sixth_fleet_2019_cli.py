"""Bad Sixth Fleet (2019) orders through the real CLI (`referee validate --state`): each gets
one clear line citing its case, exit code 1, and nothing is written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import app
from tests.clirun import Runner
from tests.conformance.rulesets.sixth_fleet_2019 import SOURCE, build_state, module_2019

RUN = Runner()
UNITS = [
    ["US-FF-1", "Tyrrhenian Sea"],
    ["SP-DDG-1", "Tyrrhenian Sea"],
    ["SO-EM-1.1", "Western Black Sea"],
    ["TK-MECH-1", "Istanbul"],
]
TS = '"Turkish Straits"'
BAD = [
    ('move US-FF-1 -> "Tyrhenian Sea"', "NATO", "[8.0] unknown zone", "'Tyrrhenian Sea'"),
    ('move US-FF-1 SP-DDG-1 -> "Ionian Sea"', "NATO", "[6.6] units of different", "Naples"),
    ("move US-FF-1 -> Sardinia", "NATO", "[8.4] naval units may not enter the land zone", ""),
    ('move US-FF-1 -> "Ionian Sea"\nmove US-FF-1 -> "Central Med"', "NATO", "[6.1] 2 actions", ""),
    (f"move SO-EM-1.1 -> {TS}", "Soviet", "[3.3.1] Soviet naval units may enter the Turkish", ""),
    ("reinforce US-FF-1 -> Naples", "NATO", "[10.0] US-FF-1 is not a reinforcement waiting", ""),
]


@pytest.mark.parametrize(("orders", "side", "message", "hint"), BAD)
def test_bad_orders_get_one_clear_line(
    tmp_path: Path, orders: str, side: str, message: str, hint: str
) -> None:
    phase = "nato_actions" if side == "NATO" else "soviet_actions"
    state = build_state(module_2019(), {"turn": 1, "phase": phase, "actions": 1, "units": UNITS})
    (tmp_path / "state.json").write_text(state.canonical(), encoding="utf-8")
    path = tmp_path / "orders.txt"
    path.write_text(f"game: t\nturn: 1\nside: {side}\n[actions]\n{orders}\n", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    res = RUN.invoke(
        app,
        ["validate", "--state", str(tmp_path / "state.json"), "--module", str(SOURCE), str(path)],
    )
    assert res.exit_code == 1, res.output
    assert message in res.output
    assert hint in res.output
    assert "Traceback" not in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_options_lists_what_validate_accepts() -> None:
    """`referee options` for a ship: its moves and attacks, each one action the validator
    accepts; a land zone without a naval base and a move beyond its range are not listed."""
    from referee.engine.ruleset import get_ruleset

    module = module_2019()
    units = [["US-CG-1", "Ionian Sea"], ["SO-KR-1", "Central Med"], ["TK-MECH-1", "Istanbul"]]
    state = build_state(module, {"turn": 2, "phase": "nato_actions", "units": units})
    report = get_ruleset(module.ruleset).options(module, state, "US-CG-1", limit=0)  # type: ignore[attr-defined]
    moves = {m["zone"]: m["path"] for m in report.data["moves"]}
    assert "Central Med" in moves and "Naples" in moves  # a sea zone; a NATO naval base [8.4.1]
    assert "Sicily" not in moves and "Sardinia" not in moves  # land without a naval base [8.4]
    assert all(len(p) <= 4 for p in moves.values())  # the CG's movement of 4 [8.4]
    assert [a["target"] for a in report.data["attacks"]] == ["SO-KR-1"]


def test_validate_accepts_a_state_with_neutral_units(tmp_path: Path) -> None:
    """Regression: `validate --state` refused every 2019 state written by `state new`, since
    its neutral units carry the side "neutral" [2.3] and the core knew only the module's
    sides. A side no ruleset declares is still refused, naming the JSON path."""
    import json

    state = tmp_path / "state.json"
    res = RUN.invoke(app, ["state", "new", str(SOURCE), "--scenario", "s1980", "-o", str(state)])
    assert res.exit_code == 0, res.output
    doc = json.loads(state.read_text("utf-8"))
    assert "neutral" in {u["side"] for u in doc["units"]}
    orders = tmp_path / "orders.txt"
    head = f"game: {doc['game_id']}\nturn: 1\nside: Soviet\n"
    orders.write_text(head + "[events]\nroll\n", encoding="utf-8")
    args = ["validate", "--state", str(state), "--module", str(SOURCE), str(orders)]
    res = RUN.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "no violations" in res.output
    i = next(i for i, u in enumerate(doc["units"]) if u["side"] == "neutral")
    assert i == 10  # the first neutral in the file; the message names its path
    doc["units"][i]["side"] = "Martian"
    state.write_text(json.dumps(doc), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "referee", *args], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2, proc.stderr  # a state that does not fit: unusable input
    assert "$.units[10].side: expected one of the sides NATO, Soviet, neutral" in proc.stderr
    assert "'Martian'" in proc.stderr and "Traceback" not in proc.stderr


def test_options_lists_the_refits_validate_accepts() -> None:
    """A ship in the Refit Box: `options` lists a refit to each base its side may use where
    a ship may lie (provisional 11.0); an air base (Bulgaria) and an enemy base are not."""
    from referee.engine.ruleset import get_ruleset

    module = module_2019()
    units = [["SO-KR-1", "Refit Box"], ["SO-MIG21", "Refit Box"], ["US-CG-1", "Ionian Sea"]]
    state = build_state(module, {"turn": 2, "phase": "soviet_actions", "units": units})
    rs = get_ruleset(module.ruleset)
    ship = rs.options(module, state, "SO-KR-1", limit=0)  # type: ignore[attr-defined]
    zones = [r["zone"] for r in ship.data["refits"]]
    assert "Ukraine" in zones and "Bulgaria" not in zones and "Naples" not in zones
    assert not ship.data["moves"] and not ship.data["attacks"]
    plane = rs.options(module, state, "SO-MIG21", limit=0)  # type: ignore[attr-defined]
    assert "Bulgaria" in [r["zone"] for r in plane.data["refits"]]


def test_options_lists_the_reinforcements_validate_accepts() -> None:
    """A Soviet MiG-23 waiting as a reinforcement (provisional 10.0): from Game-Turn 2 on,
    `options` lists its arrival at each entry zone whose airbase has room; on turn 1 none."""
    from referee.engine.ruleset import get_ruleset

    module = module_2019()
    full = [[u, "Romania"] for u in ("SO-TU16.1", "SO-TU16.2", "SO-TU16.3", "SO-TU20")]
    full += [["SO-IL38", "Romania"], ["SO-MIG29", "Romania"]]
    case = {"turn": 2, "phase": "soviet_actions", "units": [["SO-MIG23.1", None], *full]}
    state = build_state(module, case)
    rs = get_ruleset(module.ruleset)
    got = rs.options(module, state, "SO-MIG23.1", limit=0)  # type: ignore[attr-defined]
    assert [r["zone"] for r in got.data["reinforcements"]] == ["Ukraine", "Bulgaria"]
    assert "waiting off the map" in got.lines[0]
    assert "  reinforce SO-MIG23.1 -> Ukraine  (provisional reinforcement)" in got.lines
    early = build_state(module, {**case, "turn": 1})
    none = rs.options(module, early, "SO-MIG23.1", limit=0)  # type: ignore[attr-defined]
    assert not none.data["reinforcements"] and none.lines[-1] == "  no action now"
