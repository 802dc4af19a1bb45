"""Markers with levels (``referee/vassal/module/levels.py``): the values read from a state, the
layer VASSAL gets, and the refusal of a ruleset with more one-level markers than keys."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.errors import UserError
from referee.source.schema import MarkerDecl
from referee.vassal.codec.pieces import Embellishment, Piece, layer_states
from referee.vassal.module.levels import data_levels, level_value, levelled_layer_trait
from referee.vassal.module.plan import FREE_KEYS, plan_module
from referee.vassal.position.survey import _shown

from .marker_games import module


def test_values_come_from_a_mapping_or_from_inside_each_entry() -> None:
    data = {
        "damage": {"A": 2, "B": 0, "C": "x", "D": True},
        "ships": {"S1": {"damage": 3}, "S2": {"status": "ready"}, "S3": 1},
    }
    assert data_levels(data, "damage") == {"A": 2, "B": 0}  # not a number: left out
    assert data_levels(data, "ships.*.damage") == {"S1": 3}
    assert data_levels(data, "nothing.*.damage") == {} == data_levels(data, "nothing")


def test_a_value_is_level_plus_one_and_the_track_ends_at_its_last_level() -> None:
    decl = MarkerDecl("damage", "Damage", "DTP 8.54", levels=12, label="D{}")
    assert [level_value(decl, v) for v in (-1, 0, 1, 12, 30)] == [1, 1, 2, 13, 13]


def test_the_layer_is_always_on_with_up_and_down_keys_and_a_blank_zero() -> None:
    names = tuple(f"D{n}" for n in range(4))
    images = ("", "a.png", "b.png", "c.png")
    layer = levelled_layer_trait("Damage", "j", names, images, "damage", blank_first=True)
    assert isinstance(layer, Embellishment) and layer.always_active and layer.value == 1
    assert layer.image_names == images and layer.level_names[0] == ""
    assert layer.type.endswith(";true;;74,130;74,195;damage;1.0;;true")
    states = layer_states(Piece((layer.with_value(3),)))
    assert _shown(states[0]) == "Damage D2"
    assert _shown(layer_states(Piece((layer,)))[0]) is None  # D0 shows nothing


def test_more_one_level_markers_than_free_keys_is_refused_with_a_hint() -> None:
    m = module("dtp_denmark_strait")
    many = tuple(MarkerDecl(f"m{i}", f"M{i}", "1.0") for i in range(len(FREE_KEYS) + 1))
    m = replace(m, schema=replace(m.schema, markers=many))  # the module carries its schema
    with pytest.raises(UserError) as info:
        plan_module(m)
    assert "free Ctrl keys" in str(info.value) and "levels" in (info.value.hint or "")


@pytest.mark.parametrize("name", ["dtp_denmark_strait", "naval_module"])
def test_no_decrease_key_is_one_of_the_modules_own_ctrl_shift_buttons(name: str) -> None:
    from referee.vassal.module.levels import SHIFT_TAKEN

    plan = plan_module(module(name))
    levelled = [m.spec.key for m in plan.marker_layers if m.levels]
    levelled += [loc.key for loc in plan.location_markers]
    assert levelled and not set(levelled) & set(SHIFT_TAKEN)
    keys = [m.spec.key for m in plan.marker_layers]
    assert len(keys) == len(set(keys))
