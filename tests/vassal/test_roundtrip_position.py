"""position.vsav decodes back to exactly the engine's position; hex <-> VASSAL point."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.core import GameState, ScriptedDice, UnitState
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.commands import AddPiece, iter_leaves
from referee.vassal.codec.pieces import decode_piece, marker_properties
from referee.vassal.codec.savefile import read_save, read_save_bytes
from referee.vassal.codec.tabletop import replay
from referee.vassal.module.setup_area import carrier_pools
from referee.vassal.position.placement import Table, table_for
from referee.vassal.position.save import STATUS_LAYERS, position_vsav_bytes, write_position_vsav
from referee.vassal.position.survey import engine_position, survey

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "modules" / "mini"


@cache
def mini() -> Module:
    module, diags = load_module(MINI)
    assert module is not None, [str(d) for d in diags.items]
    return module


@cache
def mini_table() -> Table:
    return table_for(mini())


@cache
def after_setup() -> GameState:
    """Skirmish after both set-ups (NATO: DD with the CV, F4.2 in the box; Soviets placed)."""
    module = mini()
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, "skirmish", "g1")
    for side, lines in (
        ("NATO", ["place US-DD-1 0203", "place US-F4.2 box US-CV-1"]),
        ("Soviet", ["place SO-SG-1 0405", "place SO-DD-1 0506", "place SO-T16.1 0608"]),
    ):
        text = f"game: g1\nturn: 0\nside: {side}\n[setup]\n" + "\n".join(lines) + "\n"
        doc = parse_orders(text, "o.txt", VOCABULARY)
        assert rs.validate(module, state, doc) == []
        state = rs.resolve(module, state, doc, ScriptedDice([])).state
    return state


def decoded(data: bytes) -> dict[str, object]:
    table = mini_table()
    return engine_position(survey(table, replay(read_save_bytes(data).commands).end), STATUS_LAYERS)


def expected(state: GameState) -> dict[str, object]:
    """The engine's position in the shape :func:`engine_position` gives (waiting units are
    left out: they are in the set-up area, which the engine does not place)."""
    units = {}
    for u in state.units.values():
        if u.location is not None:
            units[u.id] = {"location": u.location, "box": None, "status": sorted(u.status)}
        elif u.box and u.box.startswith("holding:"):
            units[u.id] = {"location": None, "box": u.box, "status": sorted(u.status)}
    stacks = {h: list(ids) for h, ids in state.stacks.items() if ids}
    return {"units": units, "stacks": stacks}


def on_table(data: dict[str, object]) -> dict[str, object]:
    units = data["units"]
    assert isinstance(units, dict)
    kept = {k: v for k, v in units.items() if not str(v["box"] or "").startswith("set-up")}
    return {"units": kept, "stacks": data["stacks"]}


def test_every_hex_round_trips_through_its_vassal_point() -> None:
    table = mini_table()
    for hex_id in mini().map.grid.all_ids():
        map_id, x, y = table.hex_point(hex_id)
        assert map_id == table.main_map
        assert table.point_hex(x, y) == hex_id
        assert table.is_snapped(x, y)
        assert table.locate(map_id, x, y).name == hex_id


def test_points_off_the_board_name_no_hex() -> None:
    table = mini_table()
    w, h = table.plan.board_size
    for x, y in ((-5, 10), (w + 3, 10), (10, h + 1), (2, 2)):
        assert table.point_hex(x, y) is None
    assert table.locate("Nowhere", 1, 1).kind == "unknown-map"
    assert table.locate(None, 0, 0).kind == "no-map"


def test_position_after_setup_decodes_to_the_engine_position() -> None:
    state = after_setup()
    got = decoded(position_vsav_bytes(mini_table(), state))
    assert on_table(got) == expected(state)
    assert got["units"]["US-F4.2"]["box"] == "holding:US-CV-1"  # type: ignore[index]


def test_eliminated_units_are_left_out_and_returning_layers_set() -> None:
    state = after_setup()
    state = state.with_unit(UnitState("SO-DD-1", "Soviet", None, "eliminated"))
    f4 = state.units["US-F4.1"]
    state = state.with_unit(UnitState(f4.id, f4.side, "0202", None, frozenset({"returning"})))
    got = decoded(position_vsav_bytes(mini_table(), state))
    assert "SO-DD-1" not in got["units"]  # type: ignore[operator]
    assert got["units"]["US-F4.1"] == {  # type: ignore[index]
        "location": "0202",
        "box": None,
        "status": ["returning"],
    }
    assert on_table(got) == expected(state)


def test_pieces_are_the_palette_definitions() -> None:
    """Same type string and UnitId as the module's PieceSlot with its prototypes expanded
    (what VASSAL puts on the table from the palette), so VASSAL recognises them: a game of
    today's piece version (``piece_versions``; an older game's keep its own)."""
    from referee.vassal.module.piece_versions import CURRENT, PIECES_KEY

    table = mini_table()
    state = after_setup().with_data(**{PIECES_KEY: CURRENT})
    save = read_save_bytes(position_vsav_bytes(table, state))
    seen = 0
    for command, _ in iter_leaves(save.commands):
        if isinstance(command, AddPiece) and command.type != "stack":
            unit = marker_properties(decode_piece(command.type, command.state))["UnitId"]
            slot = table.plan.unit_slots[unit]
            assert command.type == table.plan.expanded(slot).type
            assert "prototype;" not in command.type
            seen += 1
    assert seen == len(after_setup().units)


def test_destroyed_defended_hex_gets_a_marker_under_its_stack() -> None:
    state = after_setup().with_data(destroyed_defended=["0101"])
    table = mini_table()
    counters = survey(
        table, replay(read_save_bytes(position_vsav_bytes(table, state)).commands).end
    )
    at = [c for c in counters if c.location.name == "0101"]
    assert [c.label for c in at] == ["US-F4.1", "marker:Destroyed"]


def test_same_position_same_bytes_and_written_atomically(tmp_path: Path) -> None:
    state = after_setup()
    target = tmp_path / "turn" / "position.vsav"
    data = write_position_vsav(mini(), state, target)
    assert target.read_bytes() == data == position_vsav_bytes(mini_table(), state)
    assert read_save(target).module_metadata.name == "Mini Fleet"  # type: ignore[union-attr]
    assert [p.name for p in target.parent.iterdir()] == ["position.vsav"]


def test_a_state_with_units_the_module_lacks_is_refused(tmp_path: Path) -> None:
    state = after_setup()
    state = state.with_unit(UnitState("XX-BB-9", "NATO", "0202", None))
    with pytest.raises(UserError, match="XX-BB-9"):
        write_position_vsav(mini(), state, tmp_path / "p.vsav")
    assert not (tmp_path / "p.vsav").exists()


@st.composite
def shuffled_positions(draw: st.DrawFn) -> GameState:
    """After-setup positions with units moved to random hexes, random stack orders and
    random returning flags on air units."""
    state = after_setup()
    hexes = sorted(mini().map.grid.all_ids())
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.location is None:
            continue
        where = draw(st.sampled_from(hexes[:12]))
        flags = (
            frozenset({"returning"})
            if uid.startswith(("US-F4", "SO-T16")) and draw(st.booleans())
            else frozenset()
        )
        state = state.with_unit(UnitState(uid, u.side, where, None, flags), top=draw(st.booleans()))
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shuffled_positions())
def test_any_position_round_trips(state: GameState) -> None:
    assert on_table(decoded(position_vsav_bytes(mini_table(), state))) == expected(state)


def test_sixth_fleet_positions_round_trip_when_the_source_loads() -> None:
    source = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"
    module, _ = load_module(source) if (source / "module.toml").is_file() else (None, None)
    if module is None:
        pytest.skip("module_src/sixth_fleet does not load yet")
    table = table_for(module)
    for scenario in module.scenarios:
        state = get_ruleset(module.ruleset).new_game(module, scenario, "g")
        got = engine_position(
            survey(table, replay(read_save_bytes(position_vsav_bytes(table, state)).commands).end),
            STATUS_LAYERS,
        )
        # carrier air still to be placed waits in its carrier's holding box [9.62]
        waiting = carrier_pools(module.scenarios[scenario])
        units = on_table(got)["units"]
        assert isinstance(units, dict)
        for unit, cv in waiting.items():
            if unit in units and state.units[unit].box == "unplaced":
                assert units.pop(unit)["box"] == f"holding:{cv}", unit
        assert on_table(got) | {"units": units} == expected(state), scenario
