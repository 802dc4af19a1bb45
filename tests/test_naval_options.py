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
from referee.rules.naval_module.context import set_ship
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
    with pytest.raises(UserError, match=r"not a naval unit.*\[25\.1\]"):
        NM.options(module, st, "SU-INF-1330")


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
