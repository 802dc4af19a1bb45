"""Carrier Battlegroup conformance: cases that had code but no case of their own —
reconnaissance [11.3], the repair dice [10.2], [10.4], the refueler [19.2], the landing
[23.2] — each named in the test name."""

from __future__ import annotations

from referee.engine.core import Event, GameState
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import combat_phase, view
from referee.rules.carrier_battlegroup.setup import NATO_BASE
from tests.conformance.carrier_battlegroup.cbg_helpers import doc, module, played, ruleset, step


def _rules(vs: list) -> list[str]:  # type: ignore[type-arg]
    return [v.rule for v in vs]


# ---- 11.3 aircraft reconnaissance ------------------------------------------------------------


def test_11_3_aircraft_flown_into_an_sbg_space_reveal_it_contact_or_not() -> None:
    st = played(steps=2)
    name, g = sorted(st.data["sbgs"].items())[0]
    assert not g["revealed"] and g["units"]
    missile = sorted(st.data["missiles"])[0]
    ev: list[Event] = []
    same = combat_phase.recon_11_3(module(), st, g["space"], [missile], ev)
    assert same is st and ev == []  # a cruise missile is no reconnaissance
    plane = sorted(st.data["air"])[0]
    got = combat_phase.recon_11_3(module(), st, g["space"], [plane], ev)
    assert got.data["sbgs"][name]["revealed"] if name in got.data["sbgs"] else True
    assert not view.hidden_ids(got) & set(g["units"])  # face up, or a Glitch back to its pool
    assert ev[0].rule == "11.3" and any(e.rule == "11.3" and e.kind != "recon" for e in ev)


def test_11_3_no_sbg_or_coastal_unit_no_reconnaissance() -> None:
    st = played(steps=2)
    ev: list[Event] = []
    plane = sorted(st.data["air"])[0]
    assert combat_phase.recon_11_3(module(), st, "North Sea 1", [plane], ev) is st and not ev


# ---- 10.2 / 10.4 repair dice ----------------------------------------------------------------


def _hull_repair_dice(st: GameState) -> int:
    st = st.with_data(carrier={**st.data["carrier"], "Hull": st.data["carrier"]["Hull"] - 2})
    out = step(st, "[logistics]\nrepair Hull\n", 2)
    assert out.ok, [str(v) for v in out.violations]
    ev = next(e for e in out.events if e.kind == "repair")
    return len(ev.data["rolls"])


def test_10_2_a_nato_base_gives_more_repair_dice_and_10_4_crews_add_one_each() -> None:
    st = played(steps=2)
    t = module().tables["repair"]
    base, sea = (int(t.lookup(row=r, col="dice").value) for r in ("nato_base", "at_sea"))
    per = int(t.lookup(row="crew", col="dice").value)
    crews = sum(1 for c in st.data["crews"] if c.startswith(("US-CREW-DC", "US-CREW-FD")))
    assert st.data["cvbg"]["space"] == NATO_BASE
    assert _hull_repair_dice(st) == base + per * crews
    at_sea = combat_phase._move_cvbg(st, "North Sea 1").with_data(crews=[])
    assert _hull_repair_dice(at_sea) == sea
    assert base > sea


# ---- 19.2 refueler --------------------------------------------------------------------------


def test_19_2_a_refueler_doubles_aircraft_range_never_its_own() -> None:
    st = played(steps=2)
    board = PointBoard(module().map)
    fighter = "US-FA18.1"  # range 5
    tanker = "US-KA6D"  # range 6, a refueler
    reach = module().piece(fighter).unit.values["SPD"]
    own = module().piece(tanker).unit.values["SPD"]
    far = next(s for s in sorted(board.locations()) if reach < board.distance(NATO_BASE, s) <= own)
    air = {fighter: "hangar", tanker: "hangar"}
    st = st.with_data(air=air, sbgs={"SBG-9": {"space": far, "units": [], "revealed": False}})
    alone = ruleset().validate(module(), st, doc(f'[launch]\nstrike {fighter} -> "{far}"\n'))
    assert _rules(alone) == ["19.1"]
    both = ruleset().validate(
        module(), st, doc(f'[launch]\nstrike {fighter} {tanker} -> "{far}"\n')
    )
    assert both == []
    beyond = next(s for s in sorted(board.locations()) if board.distance(NATO_BASE, s) == own + 1)
    st = st.with_data(sbgs={"SBG-9": {"space": beyond, "units": [], "revealed": False}})
    bad = ruleset().validate(
        module(), st, doc(f'[launch]\nstrike {fighter} {tanker} -> "{beyond}"\n')
    )
    assert any(v.rule == "19.1" and tanker in v.message for v in bad)  # not its own range


# ---- 23.2 amphibious landing ----------------------------------------------------------------


def test_23_2_a_landing_needs_orders_that_allow_it_and_marines_aboard() -> None:
    st = played(steps=2)
    no = st.with_data(mission={**st.data["mission"], "landing": False})
    bad = ruleset().validate(module(), no, doc("[objective]\nland US-MEU\n"))
    assert "23.2" in _rules(bad)
    yes = st.with_data(mission={**st.data["mission"], "landing": True}, crews=["US-MEU"])
    assert ruleset().validate(module(), yes, doc("[objective]\nland US-MEU\n")) == []
    notaboard = yes.with_data(crews=[])
    assert _rules(ruleset().validate(module(), notaboard, doc("[objective]\nland US-MEU\n"))) == [
        "23.2"
    ]
