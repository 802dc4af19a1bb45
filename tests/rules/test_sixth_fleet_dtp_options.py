"""``referee options`` under the DTP rules (``RULESET.options`` through the registry): along a
scripted Med game, every move (with its MP), detection attempt and attack it lists is a file
``validate`` accepts, and the scripted player's own first move of each file is among the moves
it lists [5.0][5.23][DTP 6.2][DTP 8.2]."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import GameState, SeededDice
from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_dtp"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def accepted(m: Module, state: GameState, side: str, line: str) -> bool:
    rs = get_ruleset(m.ruleset)
    section = "combat" if state.phase == "combat" else "movement"
    text = (
        f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\nphase: {state.phase}\n\n"
        f"[{section}]\n{line}\n"
    )
    return not rs.validate(m, state, rs.parse_orders(text, "o.txt"))


@cache
def listed_along_a_game() -> dict[str, int]:
    m = module()
    rs = get_ruleset(m.ruleset)
    state = rs.new_game(m, "short", "opt-1")
    seen = {"moves": 0, "detections": 0, "attacks": 0, "scripted_moves_listed": 0}
    for k in range(1, 400):
        text = rs.scripted_orders(m, state)  # type: ignore[attr-defined]
        if text is None or state.turn > 3:
            return seen
        doc = rs.parse_orders(text, "s.txt")
        if state.phase != "setup" and state.phase in ("ship_movement_a", "combat"):
            side = doc.side or ""
            mine = sorted(u for u, s in state.units.items() if s.side == side and s.location)
            for u in mine[:: max(1, len(mine) // 4)]:
                r = rs.options(m, state, u, limit=0)  # type: ignore[attr-defined]
                for key in ("moves", "detections", "attacks"):
                    for item in r.data[key][:6]:
                        assert accepted(m, state, side, item["order"]), (k, item)
                        seen[key] += 1
                for mv in r.data["moves"]:
                    assert mv["mp"] >= 1 and mv["path"][-1] == mv["hex"]
            first = next((o for o in doc.orders if o.verb == "move"), None)
            if first is not None and doc.orders.index(first) == 0:
                r = rs.options(m, state, first.units[0], limit=0)  # type: ignore[attr-defined]
                assert first.hexes[-1] in {x["hex"] for x in r.data["moves"]}, (k, text)
                seen["scripted_moves_listed"] += 1
        state = rs.resolve(m, state, doc, SeededDice(k)).state
    return seen


def test_everything_listed_validates() -> None:
    seen = listed_along_a_game()
    assert seen["moves"] > 0 and seen["attacks"] > 0, seen


def test_the_scripted_moves_are_listed() -> None:
    assert listed_along_a_game()["scripted_moves_listed"] > 0


def test_the_cheapest_path_and_the_allowance() -> None:
    m = module()
    rs = get_ruleset(m.ruleset)
    state = rs.new_game(m, "short", "opt-2")
    while state.phase != "ship_movement_a":
        text = rs.scripted_orders(m, state)  # type: ignore[attr-defined]
        assert text is not None
        state = rs.resolve(m, state, rs.parse_orders(text, "s"), SeededDice(1)).state
    ship = next(
        u
        for u, s in sorted(state.units.items())
        if s.side == "Soviet" and s.location and u.startswith("SO-C")
    )
    r = rs.options(m, state, ship, limit=3)  # type: ignore[attr-defined]
    ma = r.data["moves"] and max(x["mp"] for x in r.data["moves"])
    from referee.rules.sixth_fleet_1975.context import Game

    assert ma <= Game.of(m, state).movement_allowance(ship)  # [5.23]
    assert [x["mp"] for x in r.data["moves"]] == sorted(x["mp"] for x in r.data["moves"])
    assert len(r.lines) <= 1 + 3 * 3 + 3  # the limit caps each list
    # NATO is not due in the Soviet movement phase: nothing now
    nato = next(u for u, s in sorted(state.units.items()) if s.side == "NATO" and s.location)
    assert "nothing now" in rs.options(m, state, nato).lines[-1]  # type: ignore[attr-defined]
    with pytest.raises(UserError, match="unknown unit"):
        rs.options(m, state, "SO-NOPE")  # type: ignore[attr-defined]


def test_an_attack_on_an_enemy_base_is_listed() -> None:
    """An SG next to Tromso in its impulse may attack the base [DTP 10.44, 11.3 rule 4]; not
    while a NATO unit is still in the hex."""
    from referee.engine.core import UnitState
    from referee.rules.sixth_fleet_dtp.impulses import start_8_2

    m, _ = load_module(SRC.parent / "dtp_denmark_strait")
    assert m is not None
    st = GameState("g", m.id, "sixth_fleet_dtp", "denmark_strait", 1, "combat", "Soviet", {}, {})
    st = st.with_unit(UnitState("SO-SG-1.1", "Soviet", "2805", None))
    st = st.with_data(
        damage={}, recycle={}, base_damage={}, combat={}, impulses=start_8_2("Soviet")
    )
    rs = get_ruleset("sixth_fleet_dtp")
    orders = [a["order"] for a in rs.options(m, st, "SO-SG-1.1", limit=0).data["attacks"]]  # type: ignore[attr-defined]
    assert orders == ["attack SO-SG-1.1 -> hex:2806"]
    st = st.with_unit(UnitState("US-F4.1", "NATO", "2806", None))
    orders = [a["order"] for a in rs.options(m, st, "SO-SG-1.1", limit=0).data["attacks"]]  # type: ignore[attr-defined]
    assert "attack SO-SG-1.1 -> hex:2806" not in orders
