"""Westpac orders that break a scenario rule are refused by ``validate`` at their place in the
file, citing the case (issue 26, "Bad input"): so far a PRC unit stacked with a Soviet unit
[DTP 11.5081] and a set-up outside the set-up chart's limits [DTP 11.5052] (the latter also in
tests/rules/test_sixth_fleet_dtp_westpac.py). Nothing is written."""

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


def _position(tmp: Path, phase: str, side: str, units: dict[str, str]) -> Path:
    """A Westpac position written as a state.json (``units``: piece id -> hex)."""
    m, _ = load_module(WP)
    assert m is not None
    game = Game.for_scenario(m, "westpac")
    st = GameState("g", m.id, "sixth_fleet_dtp", "westpac", 1, phase, side, {}, {})
    for pid, hex_id in units.items():
        st = st.with_unit(UnitState(pid, game.unit(pid).side, hex_id, None))
    st = st.with_data(damage={}, recycle={}, base_damage={}, combat={})
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
    assert "orders.txt:7:" in out, out  # the move line
    # a PRC ship joining a PRC ship is no fault
    code, out = _validate(
        tmp_path, state, "EastBlock", "ship_movement_a", "move CH-DD-101 1950 1850"
    )
    assert code == 0, out
