"""The scripted player makes the Iceland set-up choices [DTP 11.31 rules 1, 3-5] itself: over
a few game ids its set-up files pass the set-up check and, between them, use every choice the
rules give (a CV TF near the Saipan TF, either Adams DD, Murmansk air at Keflavik)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import GameState, ScriptedDice
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.source.loader import load_module
from referee.source.model import Module

SOURCE = Path(__file__).resolve().parents[2] / "module_src" / "dtp_denmark_strait"
GAME_IDS = [f"ice-{i}" for i in range(8)]


@cache
def module() -> Module:
    m, diags = load_module(SOURCE)
    assert m is not None, [str(d) for d in diags.items]
    return m


def set_up(game_id: str) -> GameState:
    """Both scripted set-up files, each validated before it is resolved."""
    m = module()
    state = RULESET.new_game(m, "iceland", game_id)
    for _ in range(2):
        text = RULESET.scripted_orders(m, state)
        assert text is not None
        doc = RULESET.parse_orders(text, "setup.txt")
        assert not RULESET.validate(m, state, doc), text
        state = RULESET.resolve(m, state, doc, ScriptedDice([])).state
    assert state.phase == "ship_movement_a"
    return state


def test_scripted_iceland_setups_are_lawful_and_varied() -> None:
    g = module().map.grid
    assert g is not None
    kiev_hexes, near_cv, with_saipan, at_keflavik = set(), 0, set(), 0
    for gid in GAME_IDS:
        st = set_up(gid)
        loc = {u: s.location for u, s in st.units.items()}
        kiev = loc["SO-CH-1"]
        assert kiev is not None and g.distance(kiev, "0918") <= 3  # rule 3
        assert {loc[u] for u in ("SO-CG-1", "SO-DD-1", "SO-F.1", "SO-F.2")} == {kiev}
        kiev_hexes.add(kiev)
        saipan = loc["US-LHA-1"]
        assert saipan in ("0122", "0123", "0124") and loc["US-DE-1"] == saipan  # rule 4
        dds = [u for u in ("US-DD-1", "US-DD-2") if loc[u] == saipan]
        assert dds
        with_saipan.update(dds)
        moved = [cv for cv, own in (("US-CV-1", "1322"), ("US-CV-2", "1622")) if loc[cv] != own]
        assert len(moved) <= 1  # rule 5: one CV TF at most
        for cv in moved:
            loc_cv = loc[cv]
            assert loc_cv is not None and 2 <= g.distance(loc_cv, saipan) <= 4
        near_cv += len(moved)
        murmansk = {f.unit for f in module().scenarios["iceland"].fixed if f.status == "Murmansk"}
        n = sum(1 for u in murmansk if loc[u] == "0918")
        assert n <= 6  # rule 1
        assert all(st.units[u].box == "Murmansk" for u in murmansk if loc[u] != "0918")
        at_keflavik += n
    assert len(kiev_hexes) > 1 and near_cv > 0 and with_saipan == {"US-DD-1", "US-DD-2"}
    assert at_keflavik > 0


def test_the_same_game_id_gives_the_same_setup() -> None:
    a, b = set_up("ice-1"), set_up("ice-1")
    assert a.units == b.units and a.stacks == b.stacks
