"""Damage markers of the DTP ruleset on the position's counters: D1 and D2 on any ship or sub
[DTP 8.54, 8.55], the convoy (flag ``convoy``) included [DTP 11.3 rule 7]; read from the
game's ``damage`` levels (a marker declared with ``level``), not from status flags. The
convoy's D3-D11 have no counter layer yet (the module's free layer keys run out)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import GameState, UnitState
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.placement import table_for
from referee.vassal.position import marker_layers

SRC = Path(__file__).resolve().parents[2] / "module_src" / "dtp_denmark_strait"


@cache
def _module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def test_damage_levels_turn_on_their_markers() -> None:
    m = _module()
    table = table_for(m)
    shown = dict(table.plan.shown_markers)
    assert {"D1", "D2", "inactive", "detected_surface", "detected_sub"} <= set(shown)
    state = GameState("g", m.id, "sixth_fleet_dtp", "denmark_strait", 2, "combat", "NATO", {}, {})
    for pid, side, hex_id in (
        ("US-CVY-1", "NATO", "1510"),
        ("US-DE-1", "NATO", "1510"),
        ("US-DD-1", "NATO", "1511"),
        ("SO-SG-1.1", "Soviet", "1512"),
    ):
        state = state.with_unit(UnitState(pid, side, hex_id, None))
    state = state.with_data(damage={"US-CVY-1": 2, "US-DE-1": 1, "SO-SG-1.1": 2, "US-DD-1": 0})
    layers = marker_layers(table, state)
    assert layers["US-CVY-1"] == {shown["D2"]}
    assert layers["US-DE-1"] == {shown["D1"]}
    assert layers["SO-SG-1.1"] == {shown["D2"]}
    assert "US-DD-1" not in layers  # D0: no marker
