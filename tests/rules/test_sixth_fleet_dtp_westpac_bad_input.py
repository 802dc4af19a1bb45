"""Westpac orders that break a scenario rule are refused by ``validate`` at their place in the
file, citing the case (issue 26, "Bad input"): a PRC unit stacked with a Soviet unit
[DTP 11.5081], a set-up outside the set-up chart's limits [DTP 11.5052] (also in
tests/rules/test_sixth_fleet_dtp_westpac.py), a damaged ship leaving by an edge its nation may
not use [DTP 11.5032], a command ship taken back into port [DTP 11.5091] and a Korean capture
in a game without the optional rule [DTP 11.5134]. Nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.core import GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.source.loader import load_module
from tests.pbem.cliflow import cli

ROOT = Path(__file__).resolve().parents[2]
WP = ROOT / "module_src" / "dtp_westpac"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _position(
    tmp: Path, phase: str, side: str, units: dict[str, str], damage: dict[str, int] | None = None
) -> Path:
    """A Westpac position written as a state.json (``units``: piece id -> hex; ``damage``:
    piece id -> level)."""
    m, _ = load_module(WP)
    assert m is not None
    game = Game.for_scenario(m, "westpac")
    st = GameState("g", m.id, "sixth_fleet_dtp", "westpac", 1, phase, side, {}, {})
    for pid, hex_id in units.items():
        st = st.with_unit(UnitState(pid, game.unit(pid).side, hex_id, None))
    st = st.with_data(damage=dict(damage or {}), recycle={}, base_damage={}, combat={})
    path = tmp / "state.json"
    path.write_text(json.dumps(st.to_json()), encoding="utf-8")
    return path


def _validate(tmp: Path, state: Path, side: str, phase: str, line: str) -> tuple[int, str]:
    orders = tmp / "orders.txt"
    orders.write_text(
        f"game: g\nturn: 1\nside: {side}\nphase: {phase}\n\n[movement]\n{line}\n",
        encoding="utf-8",
    )
    before = _files(tmp)
    code, out = cli("validate", orders, "--state", state, "--module", WP)
    assert _files(tmp) == before  # nothing written
    return code, out


def test_a_soviet_ship_joining_a_prc_ship_is_refused(tmp_path: Path) -> None:
    units = {"CH-DD-100": "1850", "SO-DD-10": "1951", "CH-DD-101": "1950"}
    state = _position(tmp_path, "ship_movement_a", "EastBlock", units)
    code, out = _validate(
        tmp_path, state, "EastBlock", "ship_movement_a", "move SO-DD-10 1951 1850"
    )
    assert code == 1, out
    assert "[DTP 11.5081]" in out and "CH-DD-100" in out and "1850" in out, out
    assert "orders.txt:7:20: [DTP 11.5081]" in out, out  # file:line:col of the hex it ends in
    # a PRC ship joining a PRC ship is no fault
    code, out = _validate(
        tmp_path, state, "EastBlock", "ship_movement_a", "move CH-DD-101 1950 1850"
    )
    assert code == 0, out


def test_a_damaged_south_korean_ship_may_not_retreat_off_the_map(tmp_path: Path) -> None:
    units = {"KO-DD-140": "4073", "US-DD-23": "4173", "US-LCC-26": "3946"}
    state = _position(tmp_path, "ship_movement_b", "SEATO", units, {"KO-DD-140": 1, "US-DD-23": 1})
    code, out = _validate(tmp_path, state, "SEATO", "ship_movement_b", "exit KO-DD-140")
    assert code == 1, out
    assert "[DTP 11.5032]" in out and "KO-DD-140" in out and "orders.txt:7:" in out, out
    # a damaged US ship on the same edge may leave
    code, out = _validate(tmp_path, state, "SEATO", "ship_movement_b", "exit US-DD-23")
    assert code == 0, out


def test_a_command_ship_taken_back_into_port_is_refused(tmp_path: Path) -> None:
    state = _position(tmp_path, "ship_movement_b", "SEATO", {"US-LCC-26": "3946"})
    code, out = _validate(tmp_path, state, "SEATO", "ship_movement_b", "move US-LCC-26 3945")
    assert code == 1, out
    assert "[DTP 11.5091]" in out and "US-LCC-26" in out and "orders.txt:7:" in out, out


def test_a_korean_capture_without_the_optional_rule_is_refused(tmp_path: Path) -> None:
    state = _position(tmp_path, "ship_movement_a", "EastBlock", {"SO-DD-10": "0573"})
    code, out = _validate(tmp_path, state, "EastBlock", "ship_movement_a", "capture 2541")
    assert code == 1, out
    assert "[DTP 11.5134]" in out and "optional rule 11.5134" in out, out
    assert "orders.txt:7:" in out, out
