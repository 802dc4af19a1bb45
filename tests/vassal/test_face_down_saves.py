"""Carrier Battlegroup: the player's save shows the face-down Soviet units he knows are there
masked, not absent, and its bytes say nothing of which units they are (issue 27).

[2.2 "Unrevealed"], [17.0]: an SBG's ships lie face down under its marker and the coastal
defense units face down on the Objective until the rules reveal them; the player sees that
they are there and how many, not which. The ``vassal`` test has real VASSAL load the save as
the US Navy player (``tests/vassal/java/VPlay.java --seen``)."""

from __future__ import annotations

import re

import pytest

from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import soviet
from referee.vassal.codec.commands import AddPiece, Compound
from referee.vassal.codec.pieces import Piece, decode_piece, marker_properties
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.module import piece_versions as pv
from referee.vassal.position.face_down import FACE_DOWN_PROPERTY
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import position_vsav_bytes
from tests.conformance.rulesets.carrier_battlegroup import dice_for, module, played, ruleset
from tests.vassal.test_map_pictures import PICTURES
from tests.vassal.vplay_run import Stage, plays, records
from tests.vassal.vplay_run import played as vplayed

pytestmark = pytest.mark.shared_cache  # its module builds are a means, not what it tests


def _added(vsav: bytes) -> list[AddPiece]:
    out: list[AddPiece] = []
    todo = [read_save_bytes(vsav).commands]
    while todo:
        c = todo.pop()
        if isinstance(c, Compound):
            todo.extend(c.children)
        elif isinstance(c, AddPiece):
            out.append(c)
    return out


def _at(piece: Piece) -> tuple[str | None, int, int]:
    basic = piece.basic_piece
    assert basic is not None
    return (basic.map_id, *basic.position)


def _game():  # type: ignore[no-untyped-def]
    m, rs = module(), ruleset()
    st = played("mission", 2).with_data(**{pv.PIECES_KEY: pv.CURRENT})
    seen = rs.view(m, st, "USN")
    return m, st, seen, table_for(m)


@pytest.fixture(scope="module")
def game():
    return _game()


PICTURE = PICTURES / "carrier_battlegroup-position-USN-face-down.png"  # to look at


@plays("carrier_battlegroup", request="face-down")
def _seen_face_down(stage: Stage) -> list[str]:
    """The US Navy's save after set-up and outfitting, seen as the US Navy and drawn."""
    _, _, seen, table = _game()
    save = stage.folder / "position-USN-face-down.vsav"
    save.write_bytes(position_vsav_bytes(table, seen))
    PICTURES.mkdir(parents=True, exist_ok=True)
    return ["--seen", str(save), "US Navy", "--picture", str(save), "Main Map", str(PICTURE)]


def test_the_players_save_shows_each_unrevealed_sbg_ship_and_coastal_unit_masked(game) -> None:
    _, st, seen, table = game
    sbgs: dict[str, int] = {}
    for g in st.data["sbgs"].values():
        if not g["revealed"]:
            sbgs[g["space"]] = sbgs.get(g["space"], 0) + len(g["units"])
    coastal = st.data["coastal"]
    assert sbgs and coastal["units"]  # the set-up made SBGs and coastal units, face down
    vsav = position_vsav_bytes(table, seen)
    stand_ins = [
        (a, decode_piece(a.type, a.state)) for a in _added(vsav) if FACE_DOWN_PROPERTY in a.type
    ]
    want = len(coastal["units"]) + sum(sbgs.values())
    assert len(stand_ins) == want
    for space, n in sbgs.items():
        point = table.location_point(space)
        here = [p for _, p in stand_ins if _at(p) == point]
        assert len(here) >= n  # under the SBG markers, as many as the groups hold
    # masked by the Soviet Navy: the state VASSAL writes for a counter its owner masked
    for a, _ in stand_ins:
        assert a.state.startswith("Soviet Navy;false|0")


def test_the_save_says_nothing_of_which_units_are_face_down(game) -> None:
    m, st, seen, table = game
    hidden = sorted(
        u for g in st.data["sbgs"].values() if not g["revealed"] for u in g["units"]
    ) + list(st.data["coastal"]["units"])
    vsav = position_vsav_bytes(table, seen)
    stream = read_save_bytes(vsav).stream
    for uid in hidden:
        unit = m.piece(uid).unit
        assert uid not in stream
        assert not re.search(rf"\b{re.escape(unit.name)}\b", stream), unit.name
    # every stand-in of a back is the same text: the bytes cannot tell them apart
    texts = {
        (a.type, a.state.split(";", 2)[0]) for a in _added(vsav) if FACE_DOWN_PROPERTY in a.type
    }
    assert len(texts) == 2  # one warship back, one coastal back
    # and the view decides them alone: the same view, whoever is face down, the same save
    other = played("mission", 2, seed=b"t").with_data(**{pv.PIECES_KEY: pv.CURRENT})
    seen2 = ruleset().view(m, other, "USN")
    if seen2.data["sbgs"] == seen.data["sbgs"] and seen2.data["coastal"] == seen.data["coastal"]:
        assert position_vsav_bytes(table, seen2) == vsav


def test_an_older_game_keeps_its_saves_without_them(game) -> None:
    _, st, seen, table = game
    old = seen.evolve(data={k: v for k, v in seen.data.items() if k != pv.PIECES_KEY})
    two = seen.with_data(**{pv.PIECES_KEY: pv.TRAILS})
    for s in (old, two):
        assert FACE_DOWN_PROPERTY not in read_save_bytes(position_vsav_bytes(table, s)).stream
    # the Soviet side's full position holds the units themselves, no stand-in
    full = position_vsav_bytes(table, st)
    assert FACE_DOWN_PROPERTY not in read_save_bytes(full).stream


@pytest.mark.vassal
def test_real_vassal_shows_them_masked_to_the_us_navy(game) -> None:
    _, _, seen, _ = game
    out = vplayed("carrier_battlegroup", "face-down")  # the module's one VPlay run, exit 0
    assert not records(out, "PROBLEM")
    seen_rows = records(out, "SEEN")
    masked = [r for r in seen_rows if r[2] == "true"]  # name, map, masked to me, location
    want = sum(g["units"] for g in seen.data["sbgs"].values() if not g["revealed"])
    want += seen.data["coastal"]["units"] if not seen.data["coastal"]["revealed"] else 0
    assert len(masked) == want, seen_rows
    assert all(r[0].startswith("face-down ") for r in masked)  # the mask's name, no unit's
    assert all(r[1] == "Main Map" and r[3] for r in masked)  # on the map, in a named space
    # where the groups are: under the SBG markers and on the coastal units' space
    spaces = {r[3] for r in masked}
    assert spaces == {str(g["space"]) for g in seen.data["sbgs"].values() if not g["revealed"]} | (
        {str(seen.data["coastal"]["space"])} if not seen.data["coastal"]["revealed"] else set()
    )


def _incident():  # type: ignore[no-untyped-def]
    """The game between its Incident and Combat Phases [5.0 steps 4-6]: the chits drawn in
    the CVBG's space generated Soviet units, face down there, waiting to attack [16.2]
    (the first seed whose chits generate both standoff units and warships)."""
    m, rs = module(), ruleset()
    st = played("mission", 2).with_data(**{pv.PIECES_KEY: pv.CURRENT})
    # the CVBG at sea, on the first space of the open ocean (a NATO base draws no chits
    # [16.1]), the Alert at its top (the most chits [16.0])
    board = PointBoard(m.map)
    sea = next(s for s in sorted(board.locations()) if board.terrain(s) == "high_seas")
    st = st.with_data(alert=6, cvbg={**st.data["cvbg"], "space": sea})
    for k in range(200):
        after = soviet.incident_phase_16_0(m, st, dice_for(str(k), 9), [])
        backs = (after.data.get("incident") or {}).get("backs") or []
        if "standoff_back" in backs and "warship_back" in backs:
            return m, after, rs.view(m, after, "USN"), table_for(m)
    raise AssertionError("no seed generated both kinds of unit")


@pytest.fixture(scope="module")
def incident():
    return _incident()


@plays("carrier_battlegroup", request="incident")
def _seen_incident(stage: Stage) -> list[str]:
    """The US Navy's save between the Incident and Combat Phases, seen as the US Navy."""
    _, _, seen, table = _incident()
    save = stage.folder / "position-USN-incident.vsav"
    save.write_bytes(position_vsav_bytes(table, seen))
    return ["--seen", str(save), "US Navy"]


def test_the_units_an_incident_generated_are_masked_not_absent(incident) -> None:
    """[16.2] the generated units wait face down in the CVBG's space: the player drew the
    chits, so he knows how many of each back are there, not which units."""
    m, st, seen, table = incident
    inc = st.data["incident"]
    space = inc["space"]
    assert seen.data["incident"]["generated"] == len(inc["generated"])  # counted, not named
    vsav = position_vsav_bytes(table, seen)
    point = table.location_point(space)
    here = [
        decode_piece(a.type, a.state)
        for a in _added(vsav)
        if FACE_DOWN_PROPERTY in a.type and _at(decode_piece(a.type, a.state)) == point
    ]
    sbg_there = sum(
        g["units"] for g in seen.data["sbgs"].values() if not g["revealed"] and g["space"] == space
    )
    coastal = seen.data["coastal"]
    coastal_there = coastal["units"] if not coastal["revealed"] and coastal["space"] == space else 0
    assert len(here) == len(inc["generated"]) + sbg_there + coastal_there
    faces = sorted(marker_properties(p).get(FACE_DOWN_PROPERTY, "") for p in here)
    assert faces.count("standoff_back") == inc["backs"].count("standoff_back") > 0
    # the bytes: no generated unit's id, name, picture or value, whoever reads the file
    stream = read_save_bytes(vsav).stream
    for uid in inc["generated"]:
        unit = m.piece(uid).unit
        assert uid not in stream
        assert not re.search(rf"\b{re.escape(unit.name)}\b", stream), unit.name
    texts = {a.type for a in _added(vsav) if FACE_DOWN_PROPERTY in a.type}
    assert len(texts) == len({*faces, "warship_back", "coastal_back"} - {""})
    # the referee's full position holds the units themselves, no stand-in for them
    full = read_save_bytes(position_vsav_bytes(table, st)).stream
    assert FACE_DOWN_PROPERTY not in full and inc["generated"][0] in full


@pytest.mark.vassal
def test_real_vassal_shows_the_incident_units_masked_to_the_us_navy(incident) -> None:
    """The save between the Incident and Combat Phases, loaded by real VASSAL 3.7.26 as the
    US Navy: in the CVBG's space, one masked counter per generated unit, named only by its
    back's kind (``face-down standoff``), none he can turn up."""
    _, st, seen, _ = incident
    out = vplayed("carrier_battlegroup", "incident")  # the module's one VPlay run, exit 0
    assert not records(out, "PROBLEM")
    space = st.data["incident"]["space"]
    masked = [r for r in records(out, "SEEN") if r[2] == "true" and r[3] == space]
    sbgs = [g for g in seen.data["sbgs"].values() if not g["revealed"] and g["space"] == space]
    assert len(masked) == len(st.data["incident"]["generated"]) + sum(g["units"] for g in sbgs)
    assert {r[0] for r in masked} >= {"face-down standoff", "face-down warship"}
