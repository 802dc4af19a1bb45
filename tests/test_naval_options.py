"""`referee options` for the naval module: what it lists is what `validate` accepts [26.14b].

Reached through the registry's optional ``options`` method (``get_ruleset``), as the core does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.commands.common import load_checked
from referee.engine.core import GameState
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.rules.naval_module.context import place, set_ship
from referee.rules.naval_module.vocabulary import VOCABULARY

SRC = Path(__file__).resolve().parents[1] / "module_src" / "naval_module"
NM = get_ruleset("naval_module")


@pytest.fixture(scope="module")
def module() -> Any:
    return load_checked(SRC, quiet=True)


def movement(module: Any, side: str = "Soviet") -> GameState:
    """The scenario's opening position, in ``side``'s Movement Phase [26.12a]."""
    st = NM.new_game(module, "kerch_feodosia", "nm-opt")
    return st.evolve(phase="movement", active_side=side).with_data(phasing=side)


def verdict(module: Any, st: GameState, side: str, line: str) -> list[Any]:
    text = f"game: {st.game_id}\nturn: {st.turn}\nside: {side}\n[movement]\n{line}\n"
    return NM.validate(module, st, parse_orders(text, "t", VOCABULARY))


def test_options_lists_only_moves_validate_accepts(module: Any) -> None:
    st = movement(module)
    rep = NM.options(module, st, "SU-CL-KK", limit=0)
    (unit,) = rep.data["units"]
    assert unit["status"] == "ready" and unit["refused"] is None
    moves = unit["moves"]
    assert moves[0]["path"] == ["Sevastopol Sea Zone"] and moves[0]["nmp"] == 1  # [26.14a]
    assert all(m["nmp"] <= unit["nmp"] for m in moves)  # the allowance [26.14]
    zones = {m["path"][-1] for m in moves if m["to"] == m["path"][-1]}
    assert "Caucasus Sea Zone" in zones  # three zones on 3 NMP
    sample = [m for m in moves if not m["to"].isdigit()] + [m for m in moves if m["to"].isdigit()][
        ::50
    ]
    for m in sample:
        assert verdict(module, st, "Soviet", m["line"]) == [], m["line"]
    # a hex is never a shallow or coastal one [26.12d], [30.14a]
    assert all(module.map.hexes[m["to"]].terrain == "sea" for m in moves if m["to"].isdigit())
    # one zone too far is not listed, and validate refuses it [26.14]
    far = (
        'move SU-CL-KK -> "Sevastopol Sea Zone" "Crimea Sea Zone" "Kerch Sea Zone" '
        '"Caucasus Sea Zone"'
    )
    assert far not in {m["line"] for m in moves}
    assert [v.rule for v in verdict(module, st, "Soviet", far)] == ["26.14"]
    assert any("all-sea hexes of the Sevastopol Sea Zone (1 NMP)" in x for x in rep.lines)


def test_a_sailed_ship_has_no_move_and_says_why(module: Any) -> None:
    st = set_ship(movement(module), "SU-CL-KK", status="sailed")
    (unit,) = NM.options(module, st, "SU-CL-KK").data["units"]
    assert unit["moves"] == []
    assert unit["refused"]["rule"] == "26.31"


def test_not_the_sides_step(module: Any) -> None:
    st = movement(module, "Axis")
    rep = NM.options(module, st, "Sevastopol")
    assert rep.data["units"] and all(u["moves"] == [] for u in rep.data["units"])
    assert all(u["refused"]["rule"] == "orders" for u in rep.data["units"])
    assert any("no move now" in x for x in rep.lines)


def test_bad_subjects_are_clear(module: Any) -> None:
    st = movement(module)
    with pytest.raises(UserError, match="did you mean 'SU-CL-KK'"):
        NM.options(module, st, "SU-CL-KKX")
    # an air unit is a subject too (its Shipping Attacks [31.21]): in a movement step it has
    # nothing to order, and the report says so
    air = next(u for u in sorted(st.units) if module.pieces()[u].unit.category == "air")
    rep = NM.options(module, st, air)
    assert rep.data["orders"] == [] and "nothing to order" in rep.lines[-1]


def test_options_is_deterministic(module: Any) -> None:
    st = movement(module)
    a = NM.options(module, st, "Sevastopol", limit=5)
    b = NM.options(module, st, "Sevastopol", limit=5)
    assert a == b and a.lines


def test_flotilla_options_are_hex_moves_validate_accepts(module: Any) -> None:
    """A flotilla's options are flotilla movement hex by hex within its allowance [32.11],
    [22.41] (NM-41): every one is accepted by ``validate``, none enters land, none costs more
    than the allowance."""
    st = movement(module)
    rep = NM.options(module, st, "SU-FL-AZ", limit=3)
    (unit,) = rep.data["units"]
    assert unit["refused"] is None and unit["nmp"] == 6
    moves = unit["moves"]
    assert moves and all(m["nmp"] <= 6 for m in moves)
    assert all(module.map.hexes[h].terrain != "land" for m in moves for h in m["path"])
    for m in moves[::7]:
        assert verdict(module, st, "Soviet", m["line"]) == [], m["line"]
    assert "(1 MP, flotilla movement) [32.11]" in "\n".join(rep.lines)
    assert any(line.startswith("  ... ") for line in rep.lines)  # the limit


def test_a_ground_unit_in_port_may_board_each_ship_there_validate_accepts(module: Any) -> None:
    """A ground unit in port is a subject of its own: ``load UNIT -> SHIP`` for each of the
    side's ships in its port [28.14a], each accepted by ``validate``; once aboard (the
    ``load`` carried out), ``unload UNIT`` [28.14e]; not in the other side's step."""
    st = movement(module)
    rep = NM.options(module, st, "SU-INF-1330")
    (unit,) = rep.data["units"]
    assert unit["at"] == "Sevastopol" and unit["aboard"] is None
    assert "load SU-INF-1330 -> SU-T-GPB" in unit["lines"]
    for line in unit["lines"]:
        assert verdict(module, st, "Soviet", line) == [], line
    loads = [c for c in rep.data["orders"] if c["kind"] == "load"]
    assert loads and all(c["since"] == 4 and c["first"] and c["at"] == "Sevastopol" for c in loads)
    assert not NM.options(module, movement(module, "Axis"), "SU-INF-1330").data["orders"]
    aboard = set_ship(
        place(st, "SU-INF-1330", None, "aboard:SU-T-GPB"), "SU-T-GPB", cargo=["SU-INF-1330"]
    )
    rep = NM.options(module, aboard, "SU-INF-1330")
    assert [c["order"] for c in rep.data["orders"]] == ["unload SU-INF-1330"]
    assert verdict(module, aboard, "Soviet", "unload SU-INF-1330") == []


def test_a_ship_that_may_move_has_its_abort_choices(module: Any) -> None:
    """Each naval unit that may move offers its Abort choice in advance, ``return`` or
    ``damage`` [27.32b], in the naval movement step only (options format 4)."""
    st = movement(module)
    rep = NM.options(module, st, "SU-CL-KK")
    aborts = [c["order"] for c in rep.data["orders"] if c["kind"] == "abort"]
    assert aborts == ["abort SU-CL-KK return", "abort SU-CL-KK damage"]
    assert all(verdict(module, st, "Soviet", a) == [] for a in aborts)
    readiness = st.evolve(phase="readiness")
    rep = NM.options(module, readiness, "SU-CL-KK")
    assert not [c for c in rep.data["orders"] if c["kind"] == "abort"]


def test_the_interdiction_box_is_composed_from_ready_air_units(module: Any) -> None:
    """The side's ``interdict`` line is composed unit by unit from its Ready air units
    [31.11] (options format 4); nothing for the side whose movement is interdicted."""
    st = NM.new_game(module, "kerch_feodosia", "nm-opt")
    st = st.evolve(phase="interdiction", active_side="Soviet").with_data(phasing="Soviet")
    (c,) = NM.side_orders(module, st, "Axis")
    assert (c["order"], c["compose"], c["section"], c["since"]) == (
        "interdict",
        "words",
        "interdiction",
        4,
    )
    assert {"DE-He111.1", "DE-He111.2"} <= set(c["from"])
    assert all(module.pieces()[u].unit.category == "air" for u in c["from"])
    text = f"game: {st.game_id}\nturn: {st.turn}\nside: Axis\n[interdiction]\n"
    doc = parse_orders(text + "interdict DE-He111.1 DE-He111.2\n", "t", VOCABULARY)
    assert NM.validate(module, st, doc) == []
    assert NM.side_orders(module, st, "Soviet") == []


def test_host_results_are_every_set_and_the_second_signature_repeats_the_first(
    module: Any,
) -> None:
    """The air combat hand-off's survivors: every set of the mission's units [31.13]; the
    other player's signature only the first's. An assault's result: ``cleared`` or ``held``
    per hand-off [30.16], the second signature only the first's."""
    st = NM.new_game(module, "kerch_feodosia", "nm-opt")
    box = {"handoff": "H1", "side": "Axis", "against": "Soviet"}
    air = st.evolve(phase="aircombat", active_side="Soviet").with_data(
        phasing="Soviet", box_combat={**box, "units": ["DE-He111.1", "DE-He111.2"]}
    )
    lines = [c["order"] for c in NM.side_orders(module, air, "Axis")]
    assert lines == [
        "survivors H1 -> DE-He111.1 DE-He111.2",
        "survivors H1 -> DE-He111.1",
        "survivors H1 -> DE-He111.2",
        "survivors H1 none",
    ]
    confirm = air.evolve(phase="aircombat_confirm").with_data(box_signed=["DE-He111.1"])
    (c,) = NM.side_orders(module, confirm, "Soviet")
    assert c["order"] == "survivors H1 -> DE-He111.1" and c["section"] == "aircombat"
    assault = {"kind": "assault", "units": ["SU-INF-1330"], "ships": ["SU-T-GPB"]}
    host = st.evolve(phase="host", active_side="Soviet").with_data(
        phasing="Soviet",
        handoffs=[
            {**assault, "id": "H2", "target": "2923"},
            {**assault, "id": "H3", "target": "2924"},
        ],
    )
    got = [(c["order"], c["group"]) for c in NM.side_orders(module, host, "Soviet")]
    assert got == [
        ("host H2 cleared", "H2"),
        ("host H2 held", "H2"),
        ("host H3 cleared", "H3"),
        ("host H3 held", "H3"),
    ]
    second = host.evolve(phase="host_confirm").with_data(
        host_signed={"H2": "cleared", "H3": "held"}
    )
    assert [c["order"] for c in NM.side_orders(module, second, "Axis")] == [
        "host H2 cleared",
        "host H3 held",
    ]


def _at_sea_with_cargo(module: Any) -> GameState:
    """The transport Gp-B on the all-sea hex 3023 with the 1330 Regiment aboard (the demo's
    assault off Feodosia), in the Soviet Combat Phase."""
    st = NM.new_game(module, "kerch_feodosia", "nm-opt")
    st = place(place(st, "SU-T-GPB", "3023"), "SU-INF-1330", None, "aboard:SU-T-GPB")
    st = set_ship(st, "SU-T-GPB", cargo=["SU-INF-1330"], status="sailed")
    return st.evolve(phase="combat", active_side="Soviet").with_data(phasing="Soviet")


def _accepted(module: Any, st: GameState, side: str, section: str, line: str) -> bool:
    text = f"game: {st.game_id}\nturn: {st.turn}\nside: {side}\n[{section}]\n{line}\n"
    return NM.validate(module, st, parse_orders(text, "t", VOCABULARY)) == []


def test_combat_step_lines_of_ground_and_air_units_are_ones_validate_accepts(
    module: Any,
) -> None:
    """A unit aboard a ship on an all-sea hex: its assault on the hexes next to it [30.11]
    (2923, the demo's, among them); an Axis air unit in the Reaction Phase: a Shipping
    Attack on a Soviet ship at sea [31.22]; a CD unit in the enemy's Combat Phase: fire at a
    ship it reaches [27.12], [30.23]; each line one ``validate`` accepts, each at the place it
    names; nothing in the other side's step."""
    st = _at_sea_with_cargo(module)
    rep = NM.options(module, st, "SU-INF-1330")
    assaults = {c["order"]: c["at"] for c in rep.data["orders"] if c["kind"] == "assault"}
    assert assaults.get("assault SU-INF-1330 -> 2923") == "2923"
    assert all(_accepted(module, st, "Soviet", "combat", a) for a in assaults)
    reaction = place(st, "SU-DL-TA", "Kerch Sea Zone").evolve(phase="reaction")
    strikes = [c for c in NM.options(module, reaction, "DE-Ju87").data["orders"]]
    assert "shipping DE-Ju87 -> SU-DL-TA" in [c["order"] for c in strikes]
    assert all(_accepted(module, reaction, "Axis", "reaction", c["order"]) for c in strikes)
    assert not NM.options(module, st, "DE-Ju87").data["orders"]  # the Soviet Combat Phase
    from referee.rules.naval_module.context import Game

    next_to_cd = Game.of(module).hexes.neighbours(st.units["DE-CD-1.2"].location)
    sea = next(h for h in sorted(next_to_cd) if module.map.hexes[h].terrain == "sea")
    coast = place(st, "SU-CL-KK", sea).evolve(phase="coast")
    fire = [c for c in NM.options(module, coast, "DE-CD-1.2").data["orders"]]
    assert [c["order"] for c in fire if c["kind"] == "coastfire"] == [
        "coastfire DE-CD-1.2 -> SU-CL-KK"
    ]
    assert all(_accepted(module, coast, "Axis", "coast", c["order"]) for c in fire)


def _every_hex_move(module: Any, st: GameState, sid: str) -> dict[str, bool]:
    """``validate``'s verdict on the move of ``sid`` to every all-sea hex within its reach,
    each line run alone (what ``options`` did hex by hex before it judged a zone's hexes
    by one of them)."""
    from referee.rules.naval_module.context import Game
    from referee.rules.naval_module.options import paths, q

    game = Game.of(module)
    start = st.units[sid].location
    out: dict[str, bool] = {}
    for zone, path in paths(game, start, game.ship(st, sid).nmp).items():
        for h in sorted(game.zones[zone].hexes):
            if game.terrain(h) == "sea" and h != start:
                line = f"move {sid} -> " + " ".join(q(x) for x in [*path, h])
                out[h] = verdict(module, st, "Soviet", line) == []
    return out


@pytest.mark.parametrize("duty", [False, True])
def test_a_zones_hexes_share_one_verdict(module: Any, duty: bool) -> None:
    """``options`` judges one all-sea hex of a zone and gives its verdict to the zone's
    other all-sea hexes (the validator's only checks of the hex itself are its zone and its
    terrain [30.14a], [26.12d], which the candidates already meet): every hex of the reach,
    each checked alone by ``validate``, gets the same verdict. With a return duty [29.13]
    every hex is refused and only ports are listed."""
    st = movement(module).evolve(phase="movement")
    if duty:
        st = st.with_data(return_to_port=["SU-CL-KK"])
    (unit,) = NM.options(module, st, "SU-CL-KK", limit=0).data["units"]
    listed = {m["to"] for m in unit["moves"] if m["to"].isdigit()}
    each = _every_hex_move(module, st, "SU-CL-KK")
    assert len(each) > 100
    assert listed == {h for h, ok in each.items() if ok}
    if duty:
        from referee.rules.naval_module.context import Game

        assert not listed and unit["moves"]
        assert all(m["to"] in Game.of(module).ports for m in unit["moves"])  # [29.13]
    else:
        assert listed == set(each)
