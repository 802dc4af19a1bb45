"""The naval module's VASSAL markers, decoded from the built pieces and from the position the
referee writes for a played game (no Java): Ready/Sailed as the counter's two sides [25.31],
one Damage layer with levels [27.31], a Port capacity marker on every controlled port showing
the transport points left [26.25], the Naval Movement Interdiction Box [31.11], the Cadre Box
[27.33], troops aboard under their transport [28.1], and no Attacked layer (the naval ruleset
declares no such marker)."""

from __future__ import annotations

from referee.rules.naval_module.markers import port_capacity_left
from referee.rules.naval_module.ports import port_capacity
from referee.vassal.codec.pieces import Embellishment
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import level_markers, marker_levels, position_placements

from .marker_games import naval_position


def _layers(piece: object) -> dict[str, Embellishment]:
    return {t.layer_name: t for t in piece.traits if isinstance(t, Embellishment)}  # type: ignore[attr-defined]


def test_ships_have_two_sides_and_a_damage_track_and_no_attacked_layer() -> None:
    m, _ = naval_position()
    plan = table_for(m).plan
    assert not plan.attacked and "Attacked" not in dict(plan.shown_markers).values()
    assert "layer_attacked.png" not in plan.image_names()
    assert [s.entry_name for s in plan.marker_slots] == [
        "Destroyed",
        "Port capacity",
        "Tracks",
    ]  # Tracks: issue 27
    pieces = m.pieces()
    for pid, slot in plan.unit_slots.items():
        layers = _layers(plan.expanded(slot))
        assert "Attacked" not in layers, pid
        unit = pieces[pid].unit
        if unit.category not in ("naval", "flotilla"):
            assert "Damage" not in layers, pid
            continue
        damage = layers["Damage"]
        assert damage.always_active and damage.value == 1  # no damage: the blank level
        assert [n.strip("+ ()") for n in damage.level_names[1:]] == [f"D{n}" for n in range(1, 10)]
        if unit.back == "sailed":  # the printed Sailed side [25.31]
            back = layers["Back"]
            assert back.image_names == (f"unit_{unit.id}_back.png",)
            assert back.level_names == ("+ (sailed)",) and back.value == -1  # Ready at first


def test_the_position_shows_damage_sailed_boxes_and_passengers() -> None:
    m, state = naval_position()
    table = table_for(m)
    ships = state.data["ships"]
    levels = marker_levels(table, state)
    for pid, facts in ships.items():
        want = (("Damage", facts["damage"] + 1),) if facts["damage"] else ()
        assert levels.get(pid, ()) == want, pid
    placed = {p.piece_id: p for stack in position_placements(table, state) for p in stack}
    for pid, facts in ships.items():
        if state.units[pid].location is None and facts["status"] != "cadre":
            continue
        assert ("Back" in placed[pid].layers) == (facts["status"] == "sailed"), pid
    box = state.data["interdiction_box"]["Axis"]
    assert box and all(placed[u].map == "Naval Movement Interdiction Box" for u in box)
    cadres = [u.id for u in state.units.values() if u.box == "cadre"]
    assert cadres and all(placed[u].map == "Cadre Box" for u in cadres)
    for u in state.units.values():  # troops aboard stand with their transport [28.1]
        if u.box and u.box.startswith("aboard:"):
            ship = placed[u.box.split(":", 1)[1]]
            assert (placed[u.id].map, placed[u.id].x, placed[u.id].y) == (ship.map, ship.x, ship.y)
    assert len(placed) == sum(1 for u in state.units.values() if u.location or u.box)


def test_every_controlled_port_gets_its_capacity_left() -> None:
    m, state = naval_position()
    left = port_capacity_left(m, state)
    control = state.data["control"]
    assert set(left) == {p for p, side in control.items() if side}
    used = state.data["port_used"]
    assert used and all(v >= 0 for v in left.values())
    # a port nothing reduces: its chart capacity less what was loaded and unloaded [26.25]
    for port, n in used.items():
        full = port_capacity(m, port).value
        assert left[port] <= max(0, full * 2 - n)
    markers = level_markers(table_for(m), state)
    assert len(markers) == len(left)
    for piece, _map, _x, _y in markers:
        (layer,) = _layers(piece).values()
        assert layer.always_active and 1 <= layer.value <= 61
    values = sorted(_layers(p)["Port capacity"].value - 1 for p, *_ in markers)
    assert values == sorted(left.values())
