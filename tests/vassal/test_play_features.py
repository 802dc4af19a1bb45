"""Issue 18 §1-5: what a player of a good community module expects, built from the source.

Read back from the built buildFile of every map kind (hex: mini; area: area_med; point to
point: point_north; combined: naval_mix): Delete / Send To / Clone traits and the Eliminated
map (§1), the one phased turn tracker and its clearing commands (§2), every chart (§3), the
player tools (§4); and from the saves: the tracker's state and the markers (§5).
The same module checked by real VASSAL is in ``test_real_vassal_play.py``.
"""

from __future__ import annotations

import dataclasses
import zipfile
from functools import cache
from pathlib import Path

import pytest
from lxml import etree

from referee.engine.core import GameState, UnitState
from referee.render.charts import chart_names
from referee.source import schema as schema_mod
from referee.source.loader import load_module
from referee.source.model import Module
from referee.source.schema import MarkerDecl, ruleset_schema
from referee.vassal.codec.commands import AddPiece, SetTurn, iter_leaves
from referee.vassal.codec.pieces import Embellishment, Piece, decode_piece, marker_properties
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.codec.sequence import decode_sequence, decode_string_array
from referee.vassal.foreign.vmod import VmodContents, read_vmod
from referee.vassal.module.plan import ModulePlan
from referee.vassal.module.tools import HELP_FILE
from referee.vassal.module.tracker import TRACKER_ID, tracker_state
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import position_vsav_bytes
from referee.vassal.position.setups import build_module_with_setups, setup_file_name

pytestmark = pytest.mark.shared_cache  # its module builds are a means, not what it tests

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "modules"
KINDS = {"mini": "hex", "area_med": "area", "point_north": "point", "naval_mix": "combined"}
M = "VASSAL.build.module."
MAP = M + "map."
ZONE = MAP + "boardPicker.board.mapgrid.Zone"


@cache
def _module(name: str) -> Module:
    module, diags = load_module(FIXTURES / name)
    assert module is not None, [str(d) for d in diags.items]
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, VmodContents]]:
    out = tmp_path_factory.mktemp("play")
    res = {}
    for name in KINDS:
        path = build_module_with_setups(_module(name), out / name, workers=1).path
        res[name] = (path, read_vmod(path))
    return res


def _plan(name: str) -> ModulePlan:
    return table_for(_module(name)).plan


def _unit_pieces(vmod: VmodContents, plan: ModulePlan) -> dict[str, Piece]:
    """UnitId -> the palette piece with its prototypes expanded (as VASSAL plays it)."""
    out = {}
    for d in vmod.definitions:
        props = marker_properties(d.piece)
        if d.kind == "slot" and "UnitId" in props:
            slot = plan.unit_slots[props["UnitId"]]
            assert d.piece.type == slot.piece.type  # the buildFile's slot is the plan's
            out[props["UnitId"]] = plan.expanded(slot)
    return out


def _prefixes(piece: Piece) -> list[str]:
    return [t.prefix for t in piece.traits]


# ---- §1 pieces can leave the map --------------------------------------------------------------
@pytest.mark.parametrize("name", list(KINDS))
def test_units_can_be_deleted_and_eliminated_markers_cloned(name: str, built) -> None:
    _, vmod = built[name]
    plan = _plan(name)
    units = _unit_pieces(vmod, plan)
    assert sorted(units) == sorted(_module(name).pieces())
    for uid, piece in units.items():
        kinds = _prefixes(piece)
        assert "delete;" in kinds and "sendto;" in kinds, uid
        assert "clone;" not in kinds, uid  # a second copy of a physical counter: no
        # Eliminate (Ctrl+E) is a Trigger owning the menu entry (piece version 6): it fires
        # the loss check, then the Send To's own key, Ctrl+Alt+E (tests/vassal/test_triggers.py)
        menu = next(t for t in piece.traits if t.type.startswith("macro;Eliminate;"))
        tfields = decode_sequence(menu.type[len("macro;") :], ";")
        assert tfields[1] == "Eliminate" and tfields[2] == "69,130"  # Ctrl+E
        sendto = next(t for t in piece.traits if t.prefix == "sendto;")
        fields = decode_sequence(sendto.type[len("sendto;") :], ";")
        assert fields[0] == "" and fields[1] == "69,650"  # no menu entry of its own
        assert decode_sequence(tfields[5], ",")[-1] == fields[1]
        assert fields[2] == "Eliminated" and fields[13] == "Z"  # a zone of that map
        assert fields[14] == "Eliminated $Side$"
    markers = [d for d in vmod.definitions if d.kind == "slot" and "Marker" in
               marker_properties(d.piece)]  # fmt: skip
    assert markers
    for d in markers:
        assert {"delete;", "clone;"} <= set(_prefixes(d.piece)), d.name
    maps = {m.get("mapName"): m for m in vmod.buildfile.iter(M + "Map")}
    zones = [z.get("name") for z in maps["Eliminated"].iter(ZONE)]
    assert zones == [f"Eliminated {s.id}" for s in _module(name).sides]
    sides = {marker_properties(p)["Side"] for p in units.values()}
    assert {f"Eliminated {s}" for s in sides} <= set(zones)


# ---- §2 one turn tracker with the sequence of play --------------------------------------------
@pytest.mark.parametrize("name", list(KINDS))
def test_one_tracker_with_the_rulesets_sequence_and_clearings(name: str, built) -> None:
    _, vmod = built[name]
    module = _module(name)
    root = vmod.buildfile
    trackers = root.findall(M + "turn.TurnTracker")
    assert len(trackers) == 1
    turn_level = trackers[0].find(M + "turn.ListTurnLevel")
    phase_level = turn_level.find(M + "turn.ListTurnLevel")
    assert turn_level.get("property") == "GameTurn" and phase_level.get("property") == "Phase"
    schema = ruleset_schema(module.ruleset)
    assert schema is not None and schema.sequence
    phases = decode_string_array(phase_level.get("list"))
    assert len(phases) == len(schema.sequence)
    for phase, step in zip(phases, schema.sequence, strict=True):
        assert phase.endswith(step.name)
    hotkeys = {h.get("hotkey"): h for h in trackers[0].findall(M + "turn.TurnGlobalHotkey")}
    commands = {g.get("buttonHotkey"): g for g in root.findall(M + "GlobalKeyCommand")}
    assert hotkeys and set(hotkeys) == set(commands)
    cleared = []
    for key, hot in hotkeys.items():
        gkc = commands[key]
        layer = gkc.get("filter").split("_Active")[0]
        cleared.append((layer, hot.get("match")))
        assert gkc.get("hotkey") == {"Attacked": "84,130", "Returning": "82,130"}[layer]
        assert gkc.get("reportSingle") == "true"
    # Attacked ends with each Combat Phase [7.44]: cleared when the Movement Phase starts
    combat = [p for p in phases if p.endswith("Combat Phase")]
    assert len(combat) == 2
    for p in combat:
        after = phases[phases.index(p) + 1]
        assert ("Attacked", '{Phase=="' + after + '"}') in cleared
    # Returning ends when a side's air units have landed [9.22], for that side only
    returning = [g.get("filter") for g in commands.values() if "Returning" in g.get("filter")]
    if any(u.category == "air" for u in module.units):
        assert sorted(returning) == sorted(
            f"Returning_Active = true && Side = {s}" for s in _players(module)
        )


def _players(module: Module) -> list[str]:
    sc = next(iter(module.scenarios.values()))
    return [sc.first_player, *(s for s in sc.setup_order if s != sc.first_player)]


@pytest.mark.parametrize("name", list(KINDS))
def test_each_scenario_set_up_sets_the_one_tracker(name: str, built) -> None:
    path, _ = built[name]
    module = _module(name)
    plan = _plan(name)
    assert plan.tracker is not None
    with zipfile.ZipFile(path) as z:
        for sc in module.scenarios.values():
            save = read_save_bytes(z.read(setup_file_name(sc.id)))
            turns = [c for c, _ in iter_leaves(save.commands) if isinstance(c, SetTurn)]
            assert len(turns) == 1 and turns[0].tracker_id == TRACKER_ID
            first, count = plan.tracker.ranges[sc.id]
            level, phase = _levels(turns[0].state)
            assert int(level[0]) == first  # Game-Turn 1 of this scenario
            active = decode_string_array(level[3])
            assert [i for i, a in enumerate(active) if a == "true"] == list(
                range(first, first + count)
            )
            assert plan.tracker.phases[int(phase[0])] == "Set-up"


def _levels(state: str) -> tuple[list[str], list[str]]:
    """The Game-Turn level's state tokens and the Phase level's."""
    top = decode_sequence(state, "|")
    assert top[0] == "0"
    level = decode_sequence(top[1], ";")
    return level, decode_sequence(level[4], ";")


# ---- §3 every chart ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(KINDS))
def test_every_chart_of_the_print_set_is_in_the_chart_window(name: str, built) -> None:
    path, vmod = built[name]
    charts = list(vmod.buildfile.iter("VASSAL.build.widget.Chart"))
    plan = _plan(name)
    assert [c.get("fileName") for c in charts] == [c.image for c in plan.charts]
    assert sorted(c.source for c in plan.charts) == sorted(chart_names(_module(name)))
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
    assert {f"images/{c.get('fileName')}" for c in charts} <= names
    titles = [c.get("chartName") for c in charts]
    assert {"CRT", "TEC", "Sequence of Play", "Victory"} <= set(titles)
    for sc in _module(name).scenarios.values():
        assert f"{sc.name}: turns" in titles
        assert any(t.startswith(f"{sc.name}: ") and t.endswith("set-up") for t in titles)


# ---- §4 the tools players reach for -----------------------------------------------------------
@pytest.mark.parametrize("name", list(KINDS))
def test_player_tools(name: str, built) -> None:
    path, vmod = built[name]
    root = vmod.buildfile
    module = _module(name)
    doc = root.find(M + "Documentation")
    about = doc.find(M + "documentation.AboutScreen")
    helpfile = doc.find(M + "documentation.HelpFile")
    assert helpfile.get("fileName") == HELP_FILE and helpfile.get("fileType") == "archive"
    with zipfile.ZipFile(path) as z:
        assert f"images/{about.get('fileName')}" in z.namelist()
        text = z.read(HELP_FILE).decode("utf-8")
    etree.fromstring(text.encode("utf-8"), etree.HTMLParser())
    for sc in module.scenarios.values():
        assert sc.name in text
    assert "Combat Phase [8.0]" in text and "Ctrl+E" in text
    assert root.find(M + "NotesWindow") is not None
    inv = root.find(M + "Inventory")
    assert inv.get("groupBy") == "Side,CurrentMap"
    main = next(m for m in root.iter(M + "Map") if m.get("mapName") == "Main Map")
    assert main.get("markMoved") == "Always" and main.get("markUnmovedText")
    assert main.find(MAP + "HidePiecesButton") is not None
    los = main.find(MAP + "LOS_Thread")
    hexes = module.map.grid is not None
    assert los.get("scale") == "0"  # ranges in grid units: hexes
    assert (los.get("drawRange") == "true") == hexes
    viewer = main.find(MAP + "CounterDetailViewer")
    assert viewer.get("showtext") == "true"
    for spec in module.values:
        assert f"${spec.key}$" in viewer.get("counterReportFormat")
    # flips and markers are reported: every unit reports Ctrl+T and Ctrl+E, air Ctrl+R
    for uid, piece in _unit_pieces(vmod, _plan(name)).items():
        reported = set()
        for trait in piece.traits:
            if trait.prefix == "report;":
                keys = decode_sequence(trait.type[len("report;") :], ";")[0]
                reported |= set(decode_sequence(keys, ","))
        assert {"84,130", "69,130"} <= reported, uid
        assert "markmoved;" in _prefixes(piece)
        layers = {t.layer_name for t in piece.traits if isinstance(t, Embellishment)}
        if "Returning" in layers:
            assert "82,130" in reported


# ---- §5 the saves carry the tracker and the markers --------------------------------------------
def _mini_state() -> GameState:
    module = _module("mini")
    units = {
        "US-DD-1": UnitState("US-DD-1", "NATO", "0203", None),
        "US-F4.1": UnitState("US-F4.1", "NATO", "0203", None, frozenset({"returning"})),
        "SO-DD-1": UnitState("SO-DD-1", "Soviet", "0204", None),
        "SO-SG-1": UnitState("SO-SG-1", "Soviet", "0204", None),
    }
    sc = module.scenarios["skirmish"]
    second = next(s for s in sc.setup_order if s != sc.first_player)
    return GameState(
        game_id="g",
        module_id=module.id,
        ruleset=module.ruleset,
        scenario="skirmish",
        turn=3,
        phase="combat",
        active_side=second,
        units=units,
        stacks={"0203": ("US-F4.1", "US-DD-1"), "0204": ("SO-SG-1", "SO-DD-1")},
        data={"combat": {"attacked": ["SO-SG-1"]}},
    )


def _save_pieces(data: bytes) -> tuple[dict[str, Piece], list[SetTurn]]:
    save = read_save_bytes(data)
    pieces, turns = {}, []
    for command, _ in iter_leaves(save.commands):
        if isinstance(command, AddPiece) and command.type != "stack":
            piece = decode_piece(command.type, command.state)
            pieces[marker_properties(piece).get("UnitId", "")] = piece
        if isinstance(command, SetTurn):
            turns.append(command)
    return pieces, turns


def _active(piece: Piece) -> set[str]:
    return {t.layer_name for t in piece.traits if isinstance(t, Embellishment) and t.active}


def test_position_save_carries_the_tracker_and_the_markers() -> None:
    module = _module("mini")
    table = table_for(module)
    state = _mini_state()
    pieces, turns = _save_pieces(position_vsav_bytes(table, state))
    assert _active(pieces["SO-SG-1"]) == {"Attacked"}  # the phase record's attacked [7.44]
    assert _active(pieces["SO-DD-1"]) == set()
    assert _active(pieces["US-F4.1"]) == {"Returning"}  # the status flag [9.22]
    assert _active(pieces["US-DD-1"]) == set()
    plan = table.plan
    assert plan.tracker is not None
    assert [t.tracker_id for t in turns] == [TRACKER_ID]
    sc = module.scenarios["skirmish"]
    assert turns[0].state == tracker_state(plan.tracker, sc, 3, "combat", state.active_side)
    level, phase = _levels(turns[0].state)
    first, _ = plan.tracker.ranges["skirmish"]
    assert int(level[0]) == first + 2 and int(level[2]) == first
    assert plan.tracker.turns[int(level[0])] == f"GT 3 {sc.turn_state(3)}"
    names = {s.id: s.name for s in module.sides}
    assert plan.tracker.phases[int(phase[0])] == f"{names[state.active_side]} Combat Phase"
    assert decode_string_array(phase[3])[0] == "false"  # set-up: shown once, then skipped


def test_an_attacked_vacant_defended_hex_gets_the_attacked_marker() -> None:
    """``hex:NNNN`` in the phase record's attacked list [7.44][10.4]: the Attacked marker
    counter stands in that hex (a location, not a unit)."""
    module = _module("mini")
    table = table_for(module)
    hex_id = next(h for h in sorted(module.map.hexes) if h not in ("0203", "0204"))
    state = _mini_state().with_data(combat={"attacked": ["SO-SG-1", f"hex:{hex_id}"]})
    save = read_save_bytes(position_vsav_bytes(table, state))
    markers = []
    for command, _ in iter_leaves(save.commands):
        if isinstance(command, AddPiece) and command.type != "stack":
            piece = decode_piece(command.type, command.state)
            if marker_properties(piece).get("Marker") == "Attacked":
                basic = piece.basic_piece
                assert basic is not None
                markers.append(basic.position)
    assert markers == [table.location_point(hex_id)[1:]]


def test_a_ruleset_marker_becomes_a_layer_and_shows_in_the_save(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A marker a ruleset declares (detected, damaged...) gets its own counter layer, is
    written into ``position.vsav`` from the status flag or the declared data list, and the
    tracker clears it when a step declares so."""
    base = ruleset_schema("sixth_fleet_1975")
    assert base is not None
    detected = MarkerDecl("detected", "Detected", "9.9", "seen by the enemy", "search.seen")
    damaged = MarkerDecl("damaged", "Damaged", "9.8", categories=("surface",))
    seq = tuple(
        s if s.id != "movement" else type(s)(s.id, s.name, s.rule, s.player, (*s.ends, "detected"))
        for s in base.sequence
    )
    fields = {f: getattr(base, f) for f in base.__dataclass_fields__}
    fake = type(base)(**{**fields, "markers": (*base.markers, detected, damaged), "sequence": seq})
    monkeypatch.setattr(schema_mod, "ruleset_schema", lambda rid: fake)  # looked up by id
    module = dataclasses.replace(_module("mini"), schema=fake)  # the module carries its schema
    table = table_for(module)
    plan = table.plan
    assert [m.spec.name for m in plan.marker_layers] == ["Detected", "Damaged"]
    units = {u: plan.expanded(plan.unit_slots[u]) for u in ("US-DD-1", "US-F4.1")}
    layers = {u: {t.layer_name for t in p.find(Embellishment)} for u, p in units.items()}
    assert {"Detected", "Damaged"} <= layers["US-DD-1"]
    assert "Detected" in layers["US-F4.1"] and "Damaged" not in layers["US-F4.1"]
    assert any(c.layer == "Detected" for c in plan.tracker.clears)
    state = _mini_state()
    state = state.with_data(search={"seen": ["US-DD-1"]})
    units = {**state.units, "SO-DD-1": UnitState("SO-DD-1", "Soviet", "0204", None,
                                                  frozenset({"damaged"}))}  # fmt: skip
    state = GameState(**{**{f: getattr(state, f) for f in state.__dataclass_fields__},
                         "units": units})  # fmt: skip
    pieces, _ = _save_pieces(position_vsav_bytes(table, state))
    assert "Detected" in _active(pieces["US-DD-1"])
    assert "Damaged" in _active(pieces["SO-DD-1"])
