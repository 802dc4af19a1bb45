"""SPI's Reinforcement Interphase [12.2] in the DTP Med Campaign [DTP 11.0]: behind the rule
flag ``reinforcement_interphase_12_2``, which ``new_game`` records only where it matters (a Med
scenario with reinforcements), so older games replay as they were played (``earlier_starts``);
and a whole Campaign played by the scripted player brings every reinforcement in."""

from __future__ import annotations

import pytest

from referee.engine.core import SeededDice
from referee.engine.scripted import play
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from tests.rules.test_sixth_fleet_dtp_games import module

FLAG = "reinforcement_interphase_12_2"


def test_new_campaign_games_record_the_flag_and_an_earlier_start_drops_it() -> None:
    st = RULESET.new_game(module("sixth_fleet_dtp"), "campaign", "g")
    assert st.data["dtp_flags"] == {FLAG: True}
    (older,) = RULESET.earlier_starts(st)
    assert "dtp_flags" not in older.data
    assert {k: v for k, v in older.data.items()} == {
        k: v for k, v in st.data.items() if k != "dtp_flags"
    }


@pytest.mark.parametrize(
    ("name", "scenario"),
    [("sixth_fleet_dtp", "short"), ("dtp_denmark_strait", "iceland")],
)
def test_games_without_spi_reinforcements_start_as_before(name: str, scenario: str) -> None:
    st = RULESET.new_game(module(name), scenario, "g")
    assert FLAG not in (st.data.get("dtp_flags") or {})
    assert RULESET.earlier_starts(st) == ()


def test_westpac_records_only_its_own_later_rulings() -> None:
    """Westpac has no SPI reinforcements (no Interphase flag) but records the elimination of
    over-limit ship reinforcements [DTP 11.5063] and, later, its fractions written as mixed
    numbers [DTP 11.5126]; the earlier starts drop the newest first."""
    st = RULESET.new_game(module("dtp_westpac"), "westpac", "g")
    assert st.data["dtp_flags"] == {
        "eliminate_overstacked_11_5063": True,
        "mixed_fractions_11_5126": True,
    }
    between, older = RULESET.earlier_starts(st)
    assert between.data["dtp_flags"] == {"eliminate_overstacked_11_5063": True}
    assert "dtp_flags" not in older.data


@pytest.mark.slow
def test_a_whole_campaign_brings_the_reinforcements_in() -> None:
    """Without the flag nothing arrives (conformance case 094's last step); with it the
    French and British fleet, the Black Sea Fleet and the first F4 are on the map at the end
    or were lost there. (An F4 that finds no room once others are placed is neither placed
    nor forfeited: SPI's own Interphase code leaves it waiting, as in a 1975 game.)"""
    m = module("sixth_fleet_dtp")
    _steps, st = play(m, "campaign", lambda k, text: SeededDice(k), game_id="camp")
    assert st.phase == "game-over" and st.turn == 21
    waiting = {u for u, s in st.units.items() if s.box == "reinforcements"}
    assert not waiting & {"US-F4.3", "FR-CV-1", "BR-CG-1", "SO-CV-2", "SO-M25.5"}
