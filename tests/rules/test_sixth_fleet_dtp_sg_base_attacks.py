"""Soviet SGs attacking coastal bases [DTP 11.3 rule 4] beyond what the conformance cases
(``tests/conformance/dtp_denmark_strait/060``, ``061``) can show on the scenario's own map,
whose bases are all coastal: a base on an all-land hex is refused to a sub, and the players
table's ``base_attack_subs`` column is checked by ``referee check`` (file:line:col, exit 1)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from referee.engine.core import GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import sg_base_attacks as sg
from referee.rules.sixth_fleet_dtp.flags import DEFAULT_FLAGS
from referee.source.loader import load_module
from tests.pbem.cliflow import cli

DS = Path(__file__).resolve().parents[2] / "module_src" / "dtp_denmark_strait"


class _LandAt:
    """The scenario's board with one hex's terrain read as all land."""

    def __init__(self, board: object, hex_id: str) -> None:
        self._board, self._hex = board, hex_id

    def terrain(self, location: str) -> str:
        return "land" if location == self._hex else self._board.terrain(location)  # type: ignore[attr-defined]


def _game_state() -> tuple[Game, GameState]:
    m, _ = load_module(DS)
    assert m is not None
    game = Game.for_scenario(m, "denmark_strait")
    st = GameState("g", m.id, "sixth_fleet_dtp", "denmark_strait", 1, "combat", "Soviet", {}, {})
    return game, st.with_unit(UnitState("SO-SG-1.1", "Soviet", "2805", None))


def test_a_sub_attacks_only_a_coastal_base() -> None:
    game, state = _game_state()
    args = (state, "Soviet", ["SO-SG-1.1"], "2806", DEFAULT_FLAGS, "hex:2806")
    assert sg.sub_base_attack_problems_11_3_4(game, *args) == []
    inland = dataclasses.replace(game, board=_LandAt(game.board, "2806"))  # type: ignore[arg-type]
    probs = sg.sub_base_attack_problems_11_3_4(inland, *args)
    assert [(p.rule, p.code) for p in probs] == [("DTP 11.3 rule 4", "not-coastal-base")]
    assert "2806 is land" in probs[0].message


def test_the_limit_follows_the_flag_and_the_record() -> None:
    game, state = _game_state()
    used = state.with_data(sg_base_attacks=["SO-SG-1.1"])
    args = (["SO-SG-1.1"], "2806")
    got = sg.sub_base_attack_problems_11_3_4(game, used, "Soviet", *args, DEFAULT_FLAGS, "w")
    assert [p.code for p in got] == ["sg-base-attack-used"]
    off = dataclasses.replace(DEFAULT_FLAGS, one_sg_base_attack=False)
    assert sg.sub_base_attack_problems_11_3_4(game, used, "Soviet", *args, off, "w") == []


def test_the_module_says_which_subs() -> None:
    m, _ = load_module(DS)
    med, _ = load_module(DS.parent / "sixth_fleet_dtp")
    assert m is not None and med is not None
    assert sg.base_attack_subs_11_3_4(m, "Soviet") == frozenset({"SG"})
    assert sg.base_attack_subs_11_3_4(m, "NATO") == frozenset()
    assert sg.base_attack_subs_11_3_4(med, "Soviet") is None  # SPI 10.44: any unit with AS


def test_an_unknown_type_in_base_attack_subs_is_refused_by_check(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(DS, src)
    players = src / "tables" / "players.csv"
    text = players.read_text(encoding="utf-8")
    assert "\nSoviet,A,3001-3002,SG," in text
    players.write_text(text.replace("3001-3002,SG,", "3001-3002,SG XX,"), encoding="utf-8")
    code, out = cli("check", src)
    assert code == 1, out
    assert "tables/players.csv:" in out and "'XX'" in out and "[DTP 11.3 rule 4]" in out, out
