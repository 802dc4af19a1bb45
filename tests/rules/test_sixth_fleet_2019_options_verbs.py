"""Sixth Fleet (2019): the verbs the options give since options format 4 (issue 28) --
``land``, ``embark``, ``patrol`` and ``play MARKER`` -- each a line ``validate`` accepts as a
one-action file, so the viewer's orders mode may offer it."""

from __future__ import annotations

from typing import Any

from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_2019 import options
from referee.rules.sixth_fleet_2019.game import Game
from tests.conformance.rulesets.sixth_fleet_2019 import module_2019
from tests.rules.test_sixth_fleet_2019_options_cost import built, opening


def _orders(state: Any, uid: str, kind: str) -> list[dict[str, Any]]:
    module = module_2019()
    rep = get_ruleset(module.ruleset).options(module, state, uid, limit=0)  # type: ignore[attr-defined]
    return [c for c in rep.data["orders"] if c["kind"] == kind]


def _all_validated(state: Any, side: str, lines: list[str]) -> bool:
    game = Game.of(module_2019())
    return all(options.validated(game, state, side, ln) for ln in lines)


def test_embark_and_land_are_offered_where_validate_accepts_them() -> None:
    """A ground unit in the zone of its side's amphibian boards it [8.5.1]; aboard, at sea,
    it lands in each land zone next to the sea zone (provisional 8.5.1, [7.1.2])."""
    ashore = built({"turn": 2, "phase": "nato_actions", "units": [
        ["US-MEB", "Naples"], ["US-AWG-1", "Naples"]]})  # fmt: skip
    embark = _orders(ashore, "US-MEB", "embark")
    assert [c["order"] for c in embark] == ["embark US-MEB -> US-AWG-1"]
    assert embark[0]["since"] == 4 and embark[0]["at"] == "Naples"
    assert _all_validated(ashore, "NATO", [c["order"] for c in embark])
    aboard = built({"turn": 2, "phase": "nato_actions", "units": [
        ["US-AWG-1", "Tyrrhenian Sea"], ["US-MEB", "Holding US-AWG-1"]]})  # fmt: skip
    land = _orders(aboard, "US-MEB", "land")
    assert "land US-MEB -> Naples" in [c["order"] for c in land]
    assert all(c["at"] in ("Naples", "Sardinia", "Sicily") for c in land)
    assert _all_validated(aboard, "NATO", [c["order"] for c in land])
    soviet = built({"turn": 2, "phase": "soviet_actions", "units": [
        ["US-MEB", "Naples"], ["US-AWG-1", "Naples"]]})  # fmt: skip
    assert _orders(soviet, "US-MEB", "embark") == []  # not NATO's Action Phase


def test_patrols_and_the_markers_the_side_holds() -> None:
    """The opening's Soviet Action Phase: naval units patrol their own sea zone [8.4], air
    units each sea zone in range [8.3.1]; the side plays only the strike markers it holds
    [2.12]: its EW marker alone, its Cruise Missile marker on each kind of enemy target of a
    zone (provisional 17.0), never a marker still in a cup or the other side's."""
    state = opening()
    module = module_2019()
    game = Game.of(module)
    mine = sorted(u for u, s in state.units.items() if s.side == "Soviet")
    naval = next(u for u in mine if _orders(state, u, "patrol") and game.category(u) != "air")
    (patrol,) = _orders(state, naval, "patrol")
    assert patrol["at"] == state.units[naval].location
    air = next(u for u in mine if game.category(u) == "air" and _orders(state, u, "patrol"))
    flights = [c["order"] for c in _orders(state, air, "patrol")]
    assert len(flights) > 1 and _all_validated(state, "Soviet", flights)
    held = state.data["strike"]["held"]["Soviet"]
    offered = get_ruleset(module.ruleset).side_orders(module, state, "Soviet")  # type: ignore[attr-defined]
    plays = [c for c in offered if c["kind"] == "play" and not c.get("compose")]
    some = [c for c in offered if c["kind"] == "play" and c.get("compose")]  # format 5
    for c in some:  # some of the targets of one kind, each accepted alone [6.4]
        assert c["since"] == 5 and c["compose"] == "words" and len(c["from"]) > 1
        assert _all_validated(state, "Soviet", [f"{c['order']} {t}" for t in c["from"]])
    assert {c["order"].split()[1] for c in plays} == set(held)
    ew = next(m for m in held if "EW" in m)
    assert f"play {ew}" in [c["order"] for c in plays]
    assert all(c["since"] == 4 and c["group"] == c["order"].split()[1] for c in plays)
    assert _all_validated(state, "Soviet", [c["order"] for c in plays])
    cups = state.data["strike"]["cups"]
    unheld = [m for ms in cups.values() for m in ms]
    assert not any(c["order"].split()[1] in unheld for c in plays)
