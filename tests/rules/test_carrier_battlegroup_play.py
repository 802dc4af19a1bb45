"""The scripted player plays whole Carrier Battlegroup games (missions and Red Oktober) with
the issue's invariants checked after every step: carrier systems never below 0, the Alert
level within 1-6, no revealed unit hidden again, every drawn chit back in the pool, no unit
in two places."""

from __future__ import annotations

import pytest

from referee.engine.core import GameState
from tests.conformance.rulesets.carrier_battlegroup import doc, module, ruleset, step

SEEDS = [b"a", b"b", b"c", b"d", b"e"]
MAX_STEPS = 40


def check_invariants(before: GameState, after: GameState) -> None:
    d = after.data
    if "carrier" in d:
        assert all(v >= 0 for v in d["carrier"].values()), d["carrier"]
    if after.phase != "outfit" or after.turn > 0:
        assert 1 <= d["alert"] <= 6
    # no revealed unit hidden again while it is on the map [17.0], [11.3] note
    for pid in before.data["revealed"]:
        u = after.units[pid]
        if u.location is not None and before.units[pid].location is not None:
            assert pid in d["revealed"] and "face_down" not in u.status, pid
    # every drawn chit back in the pool, in the committed order [16.2]
    assert d["pools"]["chits"] == d["chit_order"]
    # no unit in two places
    seen: dict[str, str] = {}
    for loc, ids in after.stacks.items():
        for pid in ids:
            assert pid not in seen, f"{pid} at {seen[pid]} and {loc}"
            seen[pid] = loc
            assert after.units[pid].location == loc
    in_groups = [p for g in d["sbgs"].values() for p in g["units"]]
    assert len(in_groups) == len(set(in_groups))
    for g in d["sbgs"].values():
        assert all(after.units[p].location == g["space"] for p in g["units"])
    pooled = [p for v in d["pools"].values() for p in v]
    assert len(pooled) == len(set(pooled)) and not set(pooled) & set(seen)


@pytest.mark.parametrize("scenario", ["mission", "red_oktober"])
@pytest.mark.parametrize("seed", SEEDS, ids=[s.decode() for s in SEEDS])
def test_whole_games_keep_the_invariants(scenario: str, seed: bytes) -> None:
    rs = ruleset()
    st = rs.new_game(module(), scenario, "cbg")
    for k in range(MAX_STEPS):
        text = rs.scripted_orders(module(), st)
        if text is None:
            break
        assert rs.validate(module(), st, doc(text)) == [], text
        out = step(st, text, k, seed)
        assert out.ok, [str(v) for v in out.violations]
        assert all(e.rule for e in out.events)  # every event cites its case
        check_invariants(st, out.state)
        st = out.state
    assert st.active_side is None and st.data["result"], "the game ends"
    assert rs.scripted_orders(module(), st) is None


def test_the_same_inputs_give_the_same_game() -> None:
    rs = ruleset()
    outs = []
    for _ in range(2):
        st = rs.new_game(module(), "mission", "cbg")
        for k in range(6):
            text = rs.scripted_orders(module(), st)
            if text is None:
                break
            st = step(st, text, k, b"z").state
        outs.append(st.canonical())
    assert outs[0] == outs[1]
