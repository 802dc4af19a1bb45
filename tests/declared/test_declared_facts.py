"""The declared referee's position facts (``referee/rules/declared/facts.py``): the one key it
keeps in ``state.data``, its new-game flags, typed and checked at the edge like every
ruleset's (docs/rulesets.md, "Position facts")."""

from __future__ import annotations

import pytest

from referee.engine.ruleset import get_ruleset, position_facts
from referee.rules.declared.facts import DeclaredFacts
from referee.rules.declared.ruleset import NEW_GAME_FLAGS
from referee.shapes import ShapeError
from referee.source.loader import load_module
from tests.declared.test_declared_closed import SOURCES


def test_the_declared_referee_declares_its_facts():
    assert position_facts(get_ruleset("declared")) is DeclaredFacts
    assert DeclaredFacts.declared() == ("vassal_pieces", "flags")


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_declared_start_fits_its_facts(name):
    module, _ = load_module(SOURCES[name])
    assert module is not None
    for scenario in module.scenarios:
        state = get_ruleset("declared").new_game(module, scenario, "g")
        DeclaredFacts.check(state.data)
        assert DeclaredFacts.of(state).flags == NEW_GAME_FLAGS


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"flags": {"options": "yes"}}, "$.data.flags.options"),
        ({"flags": ["options"]}, "$.data.flags"),
        ({"flags": {}, "queue": []}, "$.data.queue"),
    ],
)
def test_a_wrong_or_undeclared_fact_is_refused_at_its_json_path(data, path):
    with pytest.raises(ShapeError) as e:
        DeclaredFacts.check(data)
    assert e.value.path == path, str(e.value)
