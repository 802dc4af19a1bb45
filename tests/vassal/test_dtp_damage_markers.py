"""Damage markers of the DTP ruleset on the position's counters: one Layer "Damage" with the
levels D1-D12 on every ship and sub [DTP 8.54, 8.55], the convoy (flag ``convoy``) included,
which takes damage to D12 [DTP 11.3 rule 7]; read from the game's ``damage`` levels, not
from status flags. A layer per level would need a Ctrl key per level, and a counter has
only ten free (``plan.FREE_KEYS``). Decoded from the built pieces, without Java."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import GameState, UnitState
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.pieces import Embellishment
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import marker_layers, marker_levels
from referee.vassal.position.savewriter import Placed, counter_piece

SRC = Path(__file__).resolve().parents[2] / "module_src" / "dtp_denmark_strait"


@cache
def _module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def _layers(piece: object) -> dict[str, Embellishment]:
    return {t.layer_name: t for t in piece.traits if isinstance(t, Embellishment)}  # type: ignore[attr-defined]


def _state() -> GameState:
    m = _module()
    state = GameState("g", m.id, "sixth_fleet_dtp", "denmark_strait", 2, "combat", "NATO", {}, {})
    for pid, side, hex_id in (
        ("US-CVY-1", "NATO", "1510"),
        ("US-DE-1", "NATO", "1510"),
        ("US-DD-1", "NATO", "1511"),
        ("SO-SG-1.1", "Soviet", "1512"),
    ):
        state = state.with_unit(UnitState(pid, side, hex_id, None))
    return state.with_data(damage={"US-CVY-1": 11, "US-DE-1": 1, "SO-SG-1.1": 2, "US-DD-1": 0})


def test_every_ship_and_sub_has_one_damage_layer_with_twelve_levels() -> None:
    table = table_for(_module())
    plan = table.plan
    shown = dict(plan.shown_markers)
    assert {"damage", "inactive", "detected_surface", "detected_sub"} <= set(shown)
    assert not {"D1", "D2"} & set(shown)  # no layer per level any more
    keys = [m.spec.key for m in plan.marker_layers]
    assert len(keys) == len(set(keys)) == 4  # Detected x2, Damage, Inactive: four Ctrl keys
    pieces = _module().pieces()
    for pid, slot in plan.unit_slots.items():
        layers = _layers(plan.expanded(slot))
        category = pieces[pid].unit.category
        if category not in ("surface", "submarine"):
            assert "Damage" not in layers, pid
            continue
        damage = layers["Damage"]
        assert damage.always_active and damage.value == 1, pid  # D0: the blank first level
        assert damage.level_names[0] == "" and damage.image_names[0] == ""
        assert [n.strip("+ ()") for n in damage.level_names[1:]] == [f"D{n}" for n in range(1, 13)]
        assert damage.image_names[1:] == tuple(f"layer_damage_{n}.png" for n in range(1, 13))
        assert damage.commands == ("", "Damage +1", "Damage -1")


def test_the_position_sets_the_damage_level_from_the_engine() -> None:
    table = table_for(_module())
    state = _state()
    levels = marker_levels(table, state)
    assert levels == {
        "US-CVY-1": (("Damage", 12),),  # D11: level 12, value 11 as VASSAL reports it
        "US-DE-1": (("Damage", 2),),
        "SO-SG-1.1": (("Damage", 3),),
    }
    assert "US-DD-1" not in levels  # D0: the layer stays at its blank first level
    assert "US-CVY-1" not in marker_layers(table, state)  # not a status flag
    for pid, want in (("US-CVY-1", 12), ("US-DD-1", 1), ("SO-SG-1.1", 3)):
        placed = Placed(pid, "Main Map", 10, 10, frozenset(), levels.get(pid, ()))
        layer = _layers(counter_piece(table, placed))["Damage"]
        assert layer.value == want, pid


def test_a_damage_beyond_the_track_shows_its_last_level() -> None:
    table = table_for(_module())
    state = _state().with_data(damage={"US-CVY-1": 15})
    assert marker_levels(table, state)["US-CVY-1"] == (("Damage", 13),)  # D12
