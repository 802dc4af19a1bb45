"""A damaged ship shows its reduced values (issue 27, piece version 6): where the rules reduce
a damaged unit's values (D2: movement halved, attack strengths 0 [DTP 8.55]; past half the
Protection Rating: artillery halved, one NMP less [27.36]) its counter carries a Layer of
reduced faces, drawn by the counter renderer from the values the rules' formula gives, that
follows the damage Layer's level. The ``vassal`` test counts the damage up in real VASSAL
3.7.26 (``tests/vassal/java/VPlay.java --faces``) and reads which face the counter shows."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from referee.rules.naval_module.ships import Ship
from referee.rules.sixth_fleet_dtp.hits import effects_8_55
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.module import piece_versions as pv
from referee.vassal.module.module_writer import plan_build
from referee.vassal.module.plan import ModulePlan
from referee.vassal.module.reduced import reduced_image
from tests.vassal.vplay_run import Stage, played, plays, records

ROOT = Path(__file__).resolve().parents[2]
LAYER = "Damage values"


def _module(name: str) -> Module:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    return module


def _plan(name: str, version: int = pv.CURRENT) -> ModulePlan:
    return plan_build(_module(name), piece_version=version)


def test_a_d2_ship_shows_halved_movement_and_no_attack_strength() -> None:
    """[DTP 8.55]: at D2 movement is halved (rounded down [DTP 4.01a]), every attacking
    strength is 0, ECM and DEF stay; the convoy moves 2 MP instead [DTP 11.3 rule 7]."""
    for name in ("sixth_fleet_dtp", "dtp_denmark_strait"):
        plan = _plan(name)
        faces = {f.unit.id: f for f in plan.reduced}
        ships = [u for u in plan.module.units if u.category in ("surface", "submarine")]
        assert ships
        for unit in ships:
            face = faces[unit.id]
            assert face.start == 2 and face.image == reduced_image(unit, "damage", 2)
            now = face.unit.values
            assert now["AA"] == now["AS"] == now["ASW"] == 0, unit.id
            assert (now["DEF"], now["ECM"]) == (unit.values["DEF"], unit.values["ECM"])
            if "convoy" in unit.flags:
                assert now["MA"] == min(2, unit.values["MA"])
            else:
                assert (
                    now["MA"]
                    == effects_8_55(2, unit.values["MA"]).movement
                    == (unit.values["MA"] // 2)
                )
        assert not any(u.category == "air" for u in (f.unit for f in plan.reduced))


def test_a_naval_unit_past_half_its_protection_shows_27_36() -> None:
    """[27.36]: damage greater than half the Protection Rating halves artillery (rounding
    up) and takes one NMP off; capacity unchanged. A flotilla keeps its NMP (NM-41)."""
    plan = _plan("naval_module")
    faces = {f.unit.id: f for f in plan.reduced}
    assert faces
    for unit in plan.module.units:
        if unit.category != "naval":
            assert unit.id not in faces
            continue
        first = unit.values["PROT"] // 2 + 1
        hit = Ship(unit.id, unit, first, "ready")
        assert hit.badly_damaged and not Ship(unit.id, unit, first - 1, "ready").badly_damaged
        want = {**unit.values, "ART": hit.artillery, "NMP": hit.nmp}
        if want == unit.values:
            assert unit.id not in faces  # nothing to reduce (ART 0 and NMP 0)
            continue
        assert faces[unit.id].start == first and faces[unit.id].unit.values == want


def test_carrier_battlegroup_shows_damaged_and_crippled_factors() -> None:
    """[22.3]: any damage halves a unit's factors, EW and speed, rounding up, never its
    Defense; [22.5]: crippled, they are 0. The carrier takes system hits instead [22.2].
    Both markers are new in piece version 6: older games keep their counters."""
    from referee.rules.carrier_battlegroup.damage import HALVED

    plan = _plan("carrier_battlegroup")
    faces = {f.image: f for f in plan.reduced}
    damaged = crippled = 0
    for unit in plan.module.units:
        hit = faces.get(reduced_image(unit, "damage", 1))
        out = faces.get(reduced_image(unit, "crippled", 1))
        if unit.category not in ("surface", "submarine", "coastal") or unit.id == "US-CVN-68":
            assert hit is None and out is None, unit.id
            continue
        for k, v in unit.values.items():
            if hit is not None:
                assert hit.unit.values[k] == (-(-v // 2) if k in HALVED else v), (unit.id, k)
            if out is not None:
                assert out.unit.values[k] == (0 if k in HALVED else v), (unit.id, k)
        damaged += hit is not None
        crippled += out is not None
    assert damaged >= 10 and crippled >= 20
    text = next(s.text for k, s in plan.unit_slots.items() if k.startswith("US-CG"))
    # the crippled face lies over the damaged one (a crippled unit keeps its damage [22.5])
    assert text.index(";Crippled values;") < text.index(";Damage values;")
    old = _plan("carrier_battlegroup", pv.TRACKS)
    assert not old.reduced and not old.marker_layers
    assert not any(";Damage +1;" in s.text for s in old.unit_slots.values())


def test_the_reduced_layer_follows_the_damage_level() -> None:
    """The Layer has no key, follows ``Damage_Level`` and lies inside every marker layer."""
    plan = _plan("sixth_fleet_dtp")
    text = plan.unit_slots["US-CV-1"].text
    image = reduced_image(plan.module.piece("US-CV-1").unit, "damage", 2)
    assert f";,,{image};,,;false;{LAYER};;;true;Damage_Level;1;1;true;" in text
    assert text.index(f";{LAYER};") > text.index(";Damage;")  # inside: drawn under the badge
    assert text.index(f";{LAYER};") > text.index(";Detected (surface);")
    assert image in plan.image_names()
    # air units are never damaged this way; older games keep their pieces
    assert LAYER not in plan.unit_slots[next(p for p, x in plan.module.pieces().items()
                                             if x.unit.category == "air")].text  # fmt: skip
    old = _plan("sixth_fleet_dtp", pv.TRACKS)
    assert not old.reduced and not any(LAYER in s.text for s in old.unit_slots.values())


def _damage_key(plan: ModulePlan) -> str:
    layer = next(m for m in plan.marker_layers if m.marker == "damage")
    return f"{ord(layer.spec.key)},130"


REDUCING = ("sixth_fleet_dtp", "naval_module", "carrier_battlegroup")


@plays(*REDUCING, request="faces")
def _damage_faces(stage: Stage) -> list[str]:
    """The damage key pressed on three units a side of the first scenario's set-up, each
    counter drawn after each press (Carrier Battlegroup: damaged, then crippled)."""
    plan = _plan(stage.name)
    out_dir = stage.folder / "faces"
    out_dir.mkdir(exist_ok=True)
    keys = ";".join([_damage_key(plan)] * 4)
    if stage.name == "carrier_battlegroup":  # damaged, then crippled: the crippled face on top
        crippled = next(m for m in plan.marker_layers if m.marker == "crippled")
        keys = f"{_damage_key(plan)};{ord(crippled.spec.key)},130"
    return ["--faces", str(stage.setup()), "3", keys, LAYER, str(out_dir)]


@pytest.mark.vassal
@pytest.mark.parametrize("name", REDUCING)
def test_real_vassal_shows_the_reduced_face_from_the_damage(name: str) -> None:
    """Real VASSAL counts the damage up by the layer's own key: below the reducing damage
    the counter shows its printed face, from it the reduced face (drawn differently), then
    the ship sinks; no warning."""
    module = _module(name)
    plan = _plan(name)
    out = played(name, "faces")  # the module's one VPlay run of the session, exit 0
    assert not records(out, "PROBLEM")
    rows = records(out, "FACE")
    faces = {
        f.unit.id: f for f in plan.reduced if f.image == reduced_image(f.unit, "damage", f.start)
    }
    pieces = module.pieces()
    slots = {r[0] for r in rows}
    assert len(slots) >= 2, rows
    for slot in slots:
        face = faces[pieces[slot.split(" ")[0]].unit.id]
        mine = [r for r in rows if r[0] == slot]
        for step, row in enumerate(mine[: face.start + 1]):  # sunk after: on the dead pile
            # VASSAL's own reading of the layer: the level the damage names, its image
            assert row[3] == str(min(step + 1, face.start + 1)), (slot, row)
            assert row[4] == (face.image if step >= face.start else ""), (slot, row)
        picture = Image.open(io.BytesIO(Path(mine[face.start][5]).read_bytes()))
        assert picture.size[0] >= plan.counter_px, slot  # the counter drawn, to look at


def test_carrier_battlegroup_saves_set_damage_and_crippling_from_the_conditions() -> None:
    """The referee's saves set both layers from ``conditions`` [22.3, 22.5], so a save shows a
    damaged ship's halved factors and a crippled ship's zeros."""
    from referee.engine.core import GameState, UnitState
    from referee.vassal.codec.pieces import Embellishment
    from referee.vassal.position.placement import table_for
    from referee.vassal.position.save import marker_levels
    from referee.vassal.position.savewriter import Placed, counter_piece

    module = _module("carrier_battlegroup")
    table = table_for(module)
    ships = [p for p, x in module.pieces().items() if x.unit.category == "surface"]
    hurt, broken, whole = [p for p in ships if p != "US-CVN-68"][:3]
    state = GameState("g", module.id, "carrier_battlegroup", "s", 1, "combat", "USN", {}, {})
    for pid in (hurt, broken, whole):
        state = state.with_unit(UnitState(pid, module.pieces()[pid].unit.side, None, None))
    state = state.with_data(  # the two facts every Carrier Battlegroup position declares
        kind="mission",
        pools={},
        conditions={hurt: {"damage": 1}, broken: {"damage": 1, "crippled": True}, whole: {}},
    )
    levels = marker_levels(table, state)
    assert levels == {
        hurt: (("Damage", 2),),
        broken: (("Crippled", 2), ("Damage", 2)),
    }
    piece = counter_piece(table, Placed(broken, "Main Map", 10, 10, frozenset(), levels[broken]))
    layers = {t.layer_name: t for t in piece.traits if isinstance(t, Embellishment)}
    assert layers["Crippled"].value == 2 and layers["Damage"].value == 2
