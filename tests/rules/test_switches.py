"""Every declared switch changes behaviour, and each is tested both ways (issue 32).

A switch is a boolean field of a ruleset's flags dataclass: a reading of an unclear case
that a game may play the other way (``docs/interpretations.md``). ``BOTH_WAYS`` names, for
each, a conformance case run with the switch on and one with it off; the two cases must
set the switch to opposite values (in their ``data.flags``, or by the default) and expect
different outcomes, and both must pass. A switch without its pair fails
:func:`test_every_switch_has_its_pair`, so a new switch cannot be added untested and a
switch no code reads cannot hide (its pair could not expect two outcomes). The DTP switches
are tested here through the code that reads them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from referee.engine.core import ScriptedDice, UnitState
from referee.rules.naval_module.readings import Readings
from referee.rules.sixth_fleet_1975.flags import DEFAULT_FLAGS as SPI_FLAGS
from referee.rules.sixth_fleet_1975.flags import RuleFlags
from referee.rules.sixth_fleet_dtp import air
from referee.rules.sixth_fleet_dtp.flags import DtpFlags, other_nato_base_extra_9_15
from referee.rules.sixth_fleet_dtp.impulses import start_8_2
from tests.conformance.harness import load_case, run_case
from tests.rules.test_sixth_fleet_dtp_combat_phase import problems, start

CASES = Path(__file__).resolve().parents[1] / "conformance" / "sixth_fleet_1975"

BOTH_WAYS: dict[str, tuple[str, str]] = {
    # switch: (the case with it on, the case with it off)
    "allow_multi_hex_attack": ("148", "031"),
    "zoc_b_ignores_air_and_harmless": ("153", "154"),
    "star_counts_as_attacked": ("146", "147"),
    "ask_advance_after_824": ("011", "141"),
    "attack_advanced_8_5_4": ("165", "166"),
    "overstack_losses_score": ("068", "155"),
    "air_return_losses_score": ("156", "157"),
    "black_sea_delay_adds_roll": ("087", "151"),
    "special_first_turn": ("093", "152"),
    "carrier_air_moves_first": ("082", "150"),
    "crt_top_column_caps": ("158", "159"),
    "refuse_overstack": ("149", "067"),
}
TESTED_HERE = {"first_strike_losses_score"}
DTP_TESTED = {
    "skip_harmless_units": "test_skip_harmless_units_both_ways",
    "other_nato_base_literal": "test_other_nato_base_literal_both_ways",
    "one_sg_base_attack": "tests/rules/test_sixth_fleet_dtp_sg_base_attacks.py"
    "::test_the_limit_follows_the_flag_and_the_record",
    # on: case 094's first four steps; off: its last (no Interphase)
    "reinforcement_interphase_12_2": "tests/conformance/sixth_fleet_dtp/094-12.2-campaign-"
    "reinforcement-interphase.json",
    # on: case 096's first two steps; off: its last (no base attack)
    "bases_attack_air": "tests/conformance/sixth_fleet_dtp/096-10.41-bases-attack-air-"
    "provisional.json",
    # on: case 029's first ten steps (a new Westpac game records it); off: its last two
    "eliminate_overstacked_11_5063": "tests/conformance/dtp_westpac/029-11.5063-over-limit-"
    "removed.json",
    # on (a new Westpac game) and off (an older one): the result's words both ways
    "mixed_fractions_11_5126": "tests/test_westpac_game_end.py::test_a_tie_is_a_tie_with_the_"
    "fractions_kept",
}


def _switches(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls) if f.type in (bool, "bool")}


def _case(number: str) -> dict:
    (path,) = CASES.glob(f"{number}-*.json")
    return load_case(path)


NAVAL_CASES = CASES.parent / "naval_module"
NAVAL_BOTH_WAYS: dict[str, tuple[str, str]] = {
    # the naval module's readings (readings.Readings): (the case with it on, with it off)
    "shipping_host_step": ("177", "180"),
    "cd_forced_crossings": ("191", "192"),
    "cd_defender_hex_doubles": ("193", "194"),
    "motorized_phase": ("201", "202"),
}


def test_every_switch_has_its_pair() -> None:
    assert _switches(RuleFlags) == set(BOTH_WAYS) | TESTED_HERE
    assert _switches(DtpFlags) == set(DTP_TESTED)
    assert _switches(Readings) == set(NAVAL_BOTH_WAYS)


@pytest.mark.parametrize("switch", sorted(NAVAL_BOTH_WAYS))
def test_each_naval_reading_both_ways(switch: str) -> None:
    on, off = (load_case(next(NAVAL_CASES.glob(f"{n}-*.json"))) for n in NAVAL_BOTH_WAYS[switch])
    for case, value in ((on, True), (off, False)):
        flags = case["position"].get("data", {}).get("flags", {})
        assert flags.get(switch, getattr(Readings(), switch)) is value, (case["id"], switch)
        assert not run_case(case), (case["id"], run_case(case))
    assert on["steps"] != off["steps"], f"{switch}: both settings expect the same"


def test_a_naval_game_begun_before_the_motorized_phase_keeps_its_start() -> None:
    """``new_game`` records the Motorized Movement Phase (NM-47) [26.12a] last; the first of
    ``earlier_starts`` is the start the ruleset made before, which ``verify`` accepts."""
    from referee.rules.naval_module.readings import NEW_GAME_FLAGS
    from referee.rules.naval_module.ruleset import RULESET
    from tests.conformance.rulesets.naval_module import naval_module

    new = RULESET.new_game(naval_module(), "kerch_feodosia", "g")
    assert new.data["flags"] == NEW_GAME_FLAGS and list(NEW_GAME_FLAGS)[-1] == "motorized_phase"
    before = RULESET.earlier_starts(new)[0]
    assert before.data["flags"] == {
        k: v for k, v in NEW_GAME_FLAGS.items() if k != "motorized_phase"
    }
    assert before.data | {"flags": new.data["flags"]} == new.data


@pytest.mark.parametrize("switch", sorted(BOTH_WAYS))
def test_each_switch_both_ways(switch: str) -> None:
    on, off = (_case(n) for n in BOTH_WAYS[switch])
    for case, value in ((on, True), (off, False)):
        flags = case["position"].get("data", {}).get("flags", {})
        assert flags.get(switch, getattr(SPI_FLAGS, switch)) is value, (case["id"], switch)
        assert not run_case(case), (case["id"], run_case(case))
    assert on["steps"] != off["steps"], f"{switch}: both settings expect the same"


def _first_strike_vp(scores: bool) -> dict[str, int]:
    """The 14.1 First Strike of tests/rules/test_ruleset.py, under ``scores``."""
    from referee.engine.orders import parse_orders
    from referee.engine.ruleset import get_ruleset
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
    from tests.conformance.rulesets.sixth_fleet_1975 import fixture_module
    from tests.rules.play import header, setup_orders

    rs = get_ruleset("sixth_fleet_1975")
    m = fixture_module("sf75ex")
    s = rs.new_game(m, "test", "g", ("14.1",))
    s = s.with_data(flags={**s.data.get("flags", {}), "first_strike_losses_score": scores})
    for side in ("NATO", "Soviet"):
        body = "[setup]\n" + "\n".join(setup_orders(Game.of(m, s), s, side)) + "\n"
        dice = ScriptedDice([2] if side == "Soviet" else [])
        out = rs.resolve(m, s, parse_orders(header(s, side) + body, "o.txt", VOCABULARY), dice)
        assert out.ok, [str(v) for v in out.violations]
        s = out.state
    assert s.units["US-CV-1"].box == "eliminated" and s.units["SO-SN-1"].box == "eliminated"
    return dict(rs.score(m, s)["vp"])


def test_first_strike_losses_score_both_ways() -> None:
    assert _first_strike_vp(True) == {"NATO": 4, "Soviet": 6}  # [13.0]: they score
    assert _first_strike_vp(False) == {"NATO": 0, "Soviet": 0}


def test_skip_harmless_units_both_ways() -> None:
    """[DTP 8.233, 7.45] the Tu22 strikes the DD under an S3 that cannot attack it: it may
    skip the S3 only under the DTP reading (digest 9.2); the S3's CAP is still engaged first
    [DTP 8.233] either way."""
    game, state = start()
    f4 = state.units["US-F4C.1"]
    state = state.with_unit(UnitState("US-F4C.1", "NATO", "0820", None, f4.status))
    state = state.with_data(impulses=start_8_2("Soviet"))
    got = {}
    for skip in (True, False):
        s = state.with_data(dtp_flags={"skip_harmless_units": skip})
        got[skip] = problems(game, s, "Soviet", "strike SO-T22 -> US-DD-1")
    assert got[True] == [("DTP 8.233", "cap-first")]
    assert got[False] == [("7.44", "stack-order"), ("DTP 8.233", "cap-first")]


def test_other_nato_base_literal_both_ways() -> None:
    """[DTP 9.15] 2d6 11, readiness 4, on turn 2: -3 as written returns on turn 6, +3 (the
    evident intent) on turn 12."""
    turns = {}
    for literal in (True, False):
        extra = other_nato_base_extra_9_15(DtpFlags(other_nato_base_literal=literal))
        turns[literal] = air.recycle_8_51(2, 11, 4, extra).return_turn
    assert turns == {True: 6, False: 12}
