"""Westpac orders that break the rules of nations, bases and hostilities are refused by
``validate`` at their place in the file, citing the case (issue 26, "Bad input"): a Taiwanese
unit moving before the PRC enters [DTP 11.51022], other East Block air over a PRC land hex and
PRC units combined with a Soviet unit in one attack [DTP 11.5081], an air unit placed or set up
on a base its nationality may not use [DTP 11.5082], an announcement of PRC entry before
hostilities [DTP 11.51021]. Nothing is written. The rulings themselves are the conformance cases
``tests/conformance/dtp_westpac/008-013``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.impulses import after_pass_8_2, start_8_2
from referee.source.loader import load_module
from tests.pbem.cliflow import cli

ROOT = Path(__file__).resolve().parents[2]
WP = ROOT / "module_src" / "dtp_westpac"
AT_WAR = {"war": 1, "prc": 1, "asked": 1}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _position(
    tmp: Path, turn: int, phase: str, side: str, units: dict[str, str], **data: Any
) -> Path:
    """A Westpac position written as a state.json (``units``: piece id -> hex or box)."""
    m, _ = load_module(WP)
    assert m is not None
    game = Game.for_scenario(m, "westpac")
    st = GameState("g", m.id, "sixth_fleet_dtp", "westpac", turn, phase, side, {}, {})
    for pid, where in units.items():
        on_map = where.isdigit()
        st = st.with_unit(
            UnitState(
                pid, game.unit(pid).side, where if on_map else None, None if on_map else where
            )
        )
    st = st.with_data(damage={}, recycle={}, base_damage={}, combat={}, **data)
    path = tmp / "state.json"
    path.write_text(json.dumps(st.to_json()), encoding="utf-8")
    return path


def _validate(
    tmp: Path, state: Path, turn: int, side: str, phase: str, section: str, lines: list[str]
) -> tuple[int, str]:
    orders = tmp / "orders.txt"
    body = "".join(f"{x}\n" for x in lines)
    orders.write_text(
        f"game: g\nturn: {turn}\nside: {side}\nphase: {phase}\n\n[{section}]\n{body}",
        encoding="utf-8",
    )
    before = _files(tmp)
    code, out = cli("validate", orders, "--state", state, "--module", WP)
    assert _files(tmp) == before  # nothing written
    return code, out


def test_a_taiwanese_unit_moving_before_the_prc_enters_is_refused(tmp_path: Path) -> None:
    units = {"TW-DD-146": "1858", "JA-DD-112": "2748"}
    peace = {"war": 1, "asked": 2}
    state = _position(tmp_path, 2, "ship_movement_b", "SEATO", units, hostilities=peace)
    code, out = _validate(
        tmp_path, state, 2, "SEATO", "ship_movement_b", "movement", ["move TW-DD-146 1958"]
    )
    assert code == 1, out
    assert "[DTP 11.51022]" in out and "TW-DD-146" in out, out
    assert "orders.txt:7:6: [DTP 11.51022]" in out, out  # file:line:col of the unit
    code, out = _validate(
        tmp_path, state, 2, "SEATO", "ship_movement_b", "movement", ["move JA-DD-112 2747"]
    )
    assert code == 0, out  # a Japanese ship moves in peace [DTP 11.5102]
    state = _position(tmp_path, 2, "ship_movement_b", "SEATO", units, hostilities=AT_WAR)
    code, out = _validate(
        tmp_path, state, 2, "SEATO", "ship_movement_b", "movement", ["move TW-DD-146 1958"]
    )
    assert code == 0, out


def test_soviet_air_over_a_prc_land_hex_is_refused(tmp_path: Path) -> None:
    state = _position(
        tmp_path, 2, "air_movement_a", "EastBlock", {"SO-M23.1": "1851"}, hostilities=AT_WAR
    )
    code, out = _validate(
        tmp_path, state, 2, "EastBlock", "air_movement_a", "movement", ["move SO-M23.1 1852 1853"]
    )
    assert code == 1, out
    assert "[DTP 11.5081]" in out and "1853" in out and "orders.txt:7:" in out, out
    code, out = _validate(
        tmp_path, state, 2, "EastBlock", "air_movement_a", "movement", ["move SO-M23.1 1852 1951"]
    )
    assert code == 0, out  # over the PRC's coastal hexes


def test_prc_and_soviet_units_in_one_attack_are_refused(tmp_path: Path) -> None:
    units = {"CH-J6.1": "2339", "SO-M23.1": "2339", "US-F4.3": "2339"}
    turns = after_pass_8_2(start_8_2("SEATO"), ["EastBlock", "SEATO"], "SEATO")
    state = _position(tmp_path, 2, "combat", "EastBlock", units, hostilities=AT_WAR, impulses=turns)
    code, out = _validate(
        tmp_path,
        state,
        2,
        "EastBlock",
        "combat",
        "combat",
        ["attack CH-J6.1 SO-M23.1 -> US-F4.3"],
    )
    assert code == 1, out
    assert "[DTP 11.5081]" in out and "may not combine" in out and "orders.txt:7:" in out, out


def test_an_air_reinforcement_on_a_base_its_nation_may_not_use_is_refused(tmp_path: Path) -> None:
    units = {"SO-AK-81": "reinforcements", "SO-S24V": "reinforcements"}
    state = _position(
        tmp_path,
        4,
        "reinforcement_a",
        "EastBlock",
        units,
        hostilities=AT_WAR,
        variable_air={"rolls": {"4": 6}, "arrived": {"SO-S24V": 4}},
        reinforce={"then": "ship_movement_a", "sides": ["EastBlock"]},
    )
    lines = ["place SO-AK-81 3033", "place SO-S24V 1850"]  # Shanghai: the PRC's
    code, out = _validate(
        tmp_path, state, 4, "EastBlock", "reinforcement_a", "reinforcement", lines
    )
    assert code == 1, out
    assert "[DTP 11.5082]" in out and "SO-S24V" in out, out
    assert "orders.txt:8:15: [DTP 11.5082]" in out, out  # file:line:col of the base
    assert "3032" in out, out  # the hint names the legal bases
    lines = ["place SO-AK-81 3033", "place SO-S24V 5916"]  # Kamchatka: not for reinforcements
    code, out = _validate(
        tmp_path, state, 4, "EastBlock", "reinforcement_a", "reinforcement", lines
    )
    assert code == 1 and "[DTP 11.5082]" in out and "orders.txt:8:" in out, out
    lines = ["place SO-AK-81 3033", "place SO-S24V 4227"]  # Sakhalin
    code, out = _validate(
        tmp_path, state, 4, "EastBlock", "reinforcement_a", "reinforcement", lines
    )
    assert code == 0, out


def test_an_air_unit_set_up_on_another_nations_base_is_refused(tmp_path: Path) -> None:
    from tests.conformance.rulesets.dtp_westpac import east_block_set_up

    path = tmp_path / "state.json"
    path.write_text(json.dumps(east_block_set_up().to_json()), encoding="utf-8")
    orders = tmp_path / "orders.txt"
    st = east_block_set_up()
    orders.write_text(
        f"game: {st.game_id}\nturn: 0\nside: SEATO\nphase: setup\n\n[setup]\n"
        "place JA-DD-119 3251\nplace JA-DE-121 3251\nplace JA-SS-125 4146\n"
        "place JA-F104.1 2442\n",
        encoding="utf-8",
    )
    code, out = cli("validate", orders, "--state", path, "--module", WP)
    assert code == 1, out
    assert "[DTP 11.5082]" in out and "JA-F104.1" in out and "orders.txt:10:" in out, out


def test_prc_entry_before_hostilities_is_refused(tmp_path: Path) -> None:
    state = _position(tmp_path, 1, "hostilities", "EastBlock", {})
    code, out = _validate(
        tmp_path, state, 1, "EastBlock", "hostilities", "hostilities", ["commence prc"]
    )
    assert code == 1 and "[DTP 11.51021]" in out, out
    code, out = _validate(
        tmp_path, state, 1, "EastBlock", "hostilities", "hostilities", ["commence", "commence prc"]
    )
    assert code == 0, out
