"""One way to choose optional rules at ``referee new`` (``referee.engine.optional_rules``): a
ruleset names the rules it plays and where; a choice outside them is refused with its reason;
the choice is kept sorted, once each."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from referee.engine.optional_rules import OptionalRule, chosen_options
from referee.errors import UserError
from referee.rules.sixth_fleet_1975.ruleset import RULESET as SPI
from referee.rules.sixth_fleet_dtp.ruleset import RULESET as DTP
from referee.source.loader import load_module
from referee.source.model import Module

ROOT = Path(__file__).resolve().parents[2]


@cache
def module(name: str) -> Module:
    m, diags = load_module(ROOT / "module_src" / name)
    assert m is not None, [str(d) for d in diags.items]
    return m


def only_short(module: Module, scenario: str) -> str | None:
    return None if scenario == "short" else "only the short scenario"


PLAYED = (OptionalRule("14.1", "First Strike"), OptionalRule("14.4", "Delay", only_short))


def test_the_choice_is_kept_sorted_once_each() -> None:
    m = module("sixth_fleet")
    assert chosen_options("X", PLAYED, m, "short", ["14.4", "14.1", "14.4"]) == ("14.1", "14.4")
    assert chosen_options("X", PLAYED, m, "short", []) == ()


def test_a_rule_the_ruleset_does_not_play_is_refused_with_those_it_plays() -> None:
    with pytest.raises(UserError) as e:
        chosen_options("X", PLAYED, module("sixth_fleet"), "short", ["14.2"])
    assert "X does not play optional rule '14.2'" in str(e.value)
    assert e.value.hint == "optional rules it plays: 14.1, 14.4"


def test_a_rule_that_does_not_apply_to_the_scenario_says_why() -> None:
    with pytest.raises(UserError) as e:
        chosen_options("X", PLAYED, module("sixth_fleet"), "campaign", ["14.4"])
    assert "optional rule 14.4 (Delay) does not apply to scenario 'campaign'" in str(e.value)
    assert "only the short scenario" in str(e.value)


def test_the_1975_rules_keep_their_options_through_it() -> None:
    st = SPI.new_game(module("sixth_fleet"), "short", "g", ("14.2", "14.1", "14.2"))
    assert st.options == ("14.1", "14.2")
    with pytest.raises(UserError, match=r"does not play optional rule .11\.5131."):
        SPI.new_game(module("sixth_fleet"), "short", "g", ("11.5131",))


def test_a_dtp_game_without_options_starts_as_before() -> None:
    st = DTP.new_game(module("sixth_fleet_dtp"), "short", "g")
    assert st.options == ()
