"""Closed locations in declared games [G6]: no piece moves into or is placed on a location
the source closes to it (a zone or space type ``closed_to = ["*"]`` or to the piece's
category; a terrain whose ``cost_<category>`` is ``-``), neither in ``validate`` nor in the
options; a game begun before the check replays as it was played. Every declared game of
``module_src/`` and of the test fixtures is held to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset, unit_options
from referee.rules.declared.checks import closed_to
from referee.rules.declared.facts import DeclaredFacts
from referee.source.gamedecl import NOT_RULES
from referee.source.loader import load_module
from referee.source.model import Module
from tests.declared.conftest import SRC, orders_lines

FIXTURES = Path(__file__).parent / "fixtures"
AREA = FIXTURES / "med_raid"
SOURCES = {
    "strait_patrol": SRC,
    "convoy_run": FIXTURES / "convoy_run",
    "med_raid": AREA,
}
"""Every declared game: the module sources that name no ruleset, and the test fixtures."""


def _game(source: Path, scenario: str) -> tuple[Module, GameState]:
    module, _ = load_module(source)
    assert module is not None
    return module, get_ruleset("declared").new_game(module, scenario, "g")


def _validate(module: Module, state: GameState, *lines: str) -> list[str]:
    rs = get_ruleset("declared")
    side = state.active_side or ""
    text = "\n".join(orders_lines(side, state.turn, *lines)) + "\n"
    return [str(v) for v in rs.validate(module, state, rs.parse_orders(text, "orders.txt"))]


def _moves(module: Module, state: GameState, unit: str) -> list[str]:
    opts = unit_options(get_ruleset("declared"))
    assert opts is not None
    report = opts.options(module, state, unit, limit=0)
    return [c["at"] for c in report.data["orders"] if "at" in c]


def test_a_no_entry_zone_is_refused_at_its_word_naming_the_declaration():
    """med_raid's Iberia is ``no_entry``, ``closed_to = ["*"]`` (map.toml:35): a move into
    it is refused [G6], the refusal naming the zone type and where the source declares it."""
    module, state = _game(AREA, "raid")
    (got,) = _validate(module, state, "move E-CV-1 Iberia")
    assert got.startswith("orders.txt:6:13: [G6] E-CV-1 (ship) may not enter Iberia"), got
    assert "its type No entry (no_entry) is closed to every kind of movement (map.toml:35)" in got
    # a path through it is refused at the closed step, before the connection check [G5]
    (got,) = _validate(module, state, 'move E-DD-1 "Western Med" Iberia "Western Med"')
    assert "[G6] E-DD-1 (ship) may not enter Iberia" in got and ":6:27:" in got, got


def test_a_terrain_the_category_may_not_enter_is_refused_with_the_games_rule():
    """Strait Patrol's terrain table: land costs ``-`` for every piece, shallows for
    submarines (its rule 3.4, in the table's notes); surface ships may enter shallows."""
    module, state = _game(SRC, "patrol")
    (got,) = _validate(module, state, "place N-DD-1 0201")
    assert "[G6] N-DD-1 (surface) may not enter 0201: its terrain Land (land) costs '-'" in got
    assert "(tables/terrain.csv:4): no piece enters land (3.4)" in got, got
    (got,) = _validate(module, state, "place N-SS-1 0202")
    assert "[G6] N-SS-1 (submarine) may not enter 0202: its terrain Shallows" in got, got
    assert "submarines may not enter (3.4)" in got
    assert _validate(module, state, "place N-DD-1 0202") == []
    assert _validate(module, state, "place N-SS-1 0301") == []


def test_the_options_offer_no_closed_location():
    """The med_raid destroyer at Ionian Sea is offered the sea zones and Crete, not Italy
    (land: ``cost_ship`` is ``-``); the convoy at Western Med not Iberia (no entry)."""
    module, state = _game(AREA, "raid")
    assert sorted(_moves(module, state, "E-DD-1")) == ["Aegean Sea", "Crete", "Western Med"]
    assert _moves(module, state, "E-CV-1") == ["Ionian Sea"]
    module, state = _game(SRC, "patrol")
    placed = _moves(module, state, "N-SS-1")
    assert "0301" in placed and "0202" not in placed and "0101" not in placed


def test_a_game_begun_before_the_check_plays_as_it_was_played():
    """A start without the new-game flag ``closed`` (an archive begun before [G6]) accepts
    and offers the move into Iberia as before; ``verify`` finds that start among the
    ruleset's ``earlier_starts``."""
    module, state = _game(AREA, "raid")
    assert DeclaredFacts.of(state).flags == {"options": True, "closed": True}
    before = DeclaredFacts.put(state, flags={"options": True})
    assert _validate(module, before, "move E-CV-1 Iberia") == []
    assert "Iberia" in _moves(module, before, "E-CV-1")
    starts = get_ruleset("declared").earlier_starts(state)
    assert [DeclaredFacts.of(s).flags for s in starts] == [{"options": True}, {}]
    assert "flags" not in starts[-1].data


def _on_map(state: GameState) -> list[str]:
    return sorted(u.id for u in state.units.values() if u.location is not None)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_declared_game_offers_only_what_validate_accepts_and_nothing_closed(name):
    """Every own piece of the side due in each scenario's start (and each placed piece):
    no option is a closed location, and each move or place offered is accepted."""
    module, _ = load_module(SOURCES[name])
    assert module is not None
    for scenario in module.scenarios:
        _, state = _game(SOURCES[name], scenario)
        side = state.active_side
        pieces = module.pieces()
        own = sorted(u.id for u in state.units.values() if u.side == side)
        assert own, (name, scenario)
        for uid in own:
            report = unit_options(get_ruleset("declared")).options(module, state, uid, limit=0)
            for c in report.data["orders"]:
                if "at" not in c:
                    continue
                assert closed_to(module, c["at"], pieces[uid].unit.category) is None, c
                assert _validate(module, state, c["order"]) == [], (name, c["order"])
        # each scenario's fixed pieces start somewhere open to them
        for uid in _on_map(state):
            where = state.units[uid].location or ""
            assert closed_to(module, where, pieces[uid].unit.category) is None, (uid, where)


def test_the_reports_say_what_the_game_checks_of_its_rules():
    """Every report's first sentence [G1] says what the referee checks: a game that checks
    closed locations says so [G6]; a game begun before says, byte for byte, what its reports
    said then (they replay to the same bytes)."""
    module, state = _game(AREA, "raid")
    rs = get_ruleset("declared")
    before = DeclaredFacts.put(state, flags={"options": True})
    assert "[G6]" in rs.score(module, state)["result"]
    assert rs.score(module, before)["result"] == f"not scored (a declared game, {NOT_RULES})"
