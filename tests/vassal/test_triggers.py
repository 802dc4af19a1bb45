"""Triggers (issue 27, piece version 6): an eliminated unit scores its VP by the rules' own VP
rule (1975 [13.0], 2019 [4.3], Carrier Battlegroup [CBG 24.1]); Eliminate, Refit Box and
Permanently Eliminated are Triggers that let a scoring unit score before its Send To moves it;
the Tracks counter changes the Global Properties by menu and key; a 2019 strike marker goes
back to its cup by menu. The ``vassal`` tests press the keys in real VASSAL 3.7.26
(``tests/vassal/java/VPlay.java --eliminate``, ``--trackkeys``, ``--cups``) and read the
Global Properties and the chat."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from referee.source.loader import load_module
from referee.source.model import Module
from referee.source.schema import LossScore
from referee.vassal.module import piece_versions as pv
from referee.vassal.module.module_writer import plan_build
from referee.vassal.module.plan import ModulePlan, cups, permanent_zone
from referee.vassal.module.triggers import CHECK_KEY, SCORE_KEY
from tests.vassal.vplay_run import Stage, played, plays, records

ROOT = Path(__file__).resolve().parents[2]
CHECK = CHECK_KEY.replace(",", "\\,")
SCORE = SCORE_KEY.replace(",", "\\,")


def _module(name: str) -> Module:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    return module


def _plan(name: str, version: int = pv.CURRENT) -> ModulePlan:
    return plan_build(_module(name), piece_version=version)


def _slot(plan: ModulePlan, pid: str) -> str:
    return plan.unit_slots[pid].text


def test_1975_a_destroyed_unit_scores_its_ecm_for_the_enemy() -> None:
    """[13.0]: each side scores the ECM of every enemy unit destroyed, an ECM-0 unit 1."""
    plan = _plan("sixth_fleet")
    saratoga = _slot(plan, "US-CV-1")  # ECM 6, NATO: scores for the Soviet player
    assert saratoga.startswith("+/null/macro;Eliminated: scores [13.0];;;{CurrentMap != ")
    assert f";{CHECK};{SCORE};" in saratoga
    assert f"setprop;VP_Soviet;true,0,99,false;:{SCORE}:I\\,6;" in saratoga
    pieces = plan.module.pieces()
    for pid, slot in plan.unit_slots.items():
        unit = pieces[pid].unit
        enemy = "Soviet" if unit.side == "NATO" else "NATO"
        vp = max(int(unit.values["ECM"]), 1)
        assert f"setprop;VP_{enemy};true,0,99,false;:{SCORE}:I\\,{vp};" in slot.text, pid
    # the roster has no ECM-0 unit; the rule's minimum still holds for one
    from referee.rules.sixth_fleet_1975.victory import loss_score_13_0

    kiev = pieces["SO-CV-2"].unit
    zero = replace(kiev, values={**kiev.values, "ECM": 0})
    assert loss_score_13_0(plan.module, zero) == LossScore("VP_NATO", 1, "13.0")
    assert loss_score_13_0(plan.module, kiev) == LossScore("VP_NATO", 5, "13.0")


def test_2019_scores_the_vp_chart_once_out_of_play() -> None:
    """[4.3]: an enemy unit in the Refit or the Permanently Eliminated Box scores its chart
    row; a unit already in one of them (or on the dead pile) scores nothing more."""
    plan = _plan("sixth_fleet_2019")
    nimitz = _slot(plan, "US-CVN-1")  # a carrier: the capital_ship row, 4 (estimate)
    assert (
        '{CurrentMap != "Eliminated" && CurrentZone != "Refit Box" && '
        'CurrentZone != "Permanently Eliminated Box"}'
    ) in nimitz
    assert f"setprop;VP_Soviet;true,0,99,false;:{SCORE}:I\\,4;" in nimitz
    assert f"setprop;VP_NATO;true,0,99,false;:{SCORE}:I\\,2;" in _slot(plan, "SO-SSN-1.1")
    # markers and strike markers score nothing
    assert "setprop;" not in _slot(plan, "NATO-CM.1")


def test_carrier_battlegroup_scores_the_victory_point_table() -> None:
    """[24.1]: Soviet warship sunk +2, Soviet air or coastal unit +1, US ship sunk -4, US
    aircraft lost -1 (the table's estimates); markers and missiles score nothing."""
    plan = _plan("carrier_battlegroup")
    pieces = plan.module.pieces()
    want = {
        ("Soviet", "surface"): 2, ("Soviet", "submarine"): 2, ("Soviet", "air"): 1,
        ("Soviet", "coastal"): 1, ("USN", "surface"): -4, ("USN", "submarine"): -4,
        ("USN", "air"): -1,
    }  # fmt: skip
    for pid, slot in plan.unit_slots.items():
        unit = pieces[pid].unit
        vp = want.get((unit.side, unit.category))
        if vp is None:
            assert "setprop;" not in slot.text, pid
        else:
            assert f"setprop;VP;true,-99,99,false;:{SCORE}:I\\,{vp};" in slot.text, pid


@pytest.mark.parametrize("name", ["sixth_fleet_dtp", "dtp_denmark_strait", "naval_module"])
def test_no_trigger_where_the_rules_score_no_loss_at_once(name: str) -> None:
    """DTP scores fractions of damaged ships [DTP 8.57] on text tracks; the naval module has
    no VP: the referee's saves set what there is. Eliminate is still the menu's Trigger."""
    plan = _plan(name)
    assert not any("setprop;" in s.text for s in plan.unit_slots.values())
    assert "macro;Eliminate;Eliminate;69,130;" in dict(plan.prototypes)["Unit"]


def test_the_exit_commands_are_triggers_over_hidden_send_tos() -> None:
    """Eliminate (Ctrl+E), Refit Box (Ctrl+Shift+R), Permanently Eliminated (Ctrl+Shift+E):
    each a Trigger owning the menu entry, firing the check key, then its Send To's own key
    (Ctrl+Alt+E, R, P), which has no menu entry."""
    unit = dict(_plan("sixth_fleet_2019").prototypes)["Unit"]
    for command, key, hidden in (
        ("Eliminate", "69,130", "69\\,650"),
        ("Refit Box", "82,195", "82\\,650"),
        ("Permanently Eliminated", "69,195", "80\\,650"),
    ):
        assert f"macro;{command};{command};{key};;;{CHECK},{hidden};" in unit
        assert f"sendto;;{hidden.replace(chr(92), '')};" in unit
    assert ";Z;Permanently Eliminated Box;" in unit
    assert permanent_zone(_module("sixth_fleet_2019")) == "Permanently Eliminated Box"
    assert "report;69\\,130,68\\,130,82\\,195,69\\,195;" in unit  # each logged


def test_2019_strike_markers_go_back_to_their_cup() -> None:
    plan = _plan("sixth_fleet_2019")
    held = cups(plan.module)
    assert held["NATO-CM.1"] == "NATO Strike Cup" and held["SO-EW.2"] == "Soviet EW Cup"
    for pid, cup in held.items():
        text = _slot(plan, pid)
        assert f"return;Back to the {cup};67,195;;Select destination;" in text
        assert text.count("return;") == 1
    assert not any("return;" in _slot(plan, p) for p in plan.unit_slots if p not in held)


def test_the_tracks_counter_changes_every_track_by_key() -> None:
    plan = _plan("carrier_battlegroup")
    tracks = next(s.text for s in plan.marker_slots if s.key == "marker:Tracks")
    assert (
        "setprop;VP;true,-99,99,false;US Navy VP +1:49\\,130:I\\,1,US Navy VP -1:49\\,195:I\\,-1,"
        in tracks
    )
    assert "Soviet Alert level +1:50\\,130:I\\,1" in tracks
    dtp = next(s.text for s in _plan("sixth_fleet_dtp").marker_slots if s.key == "marker:Tracks")
    assert (
        "setprop;VP_NATO;false,0,99,false;Set NATO VP:49\\,650:R\\,New NATO VP (e.g. 3 1\\/4);"
        in dtp
    )


@pytest.mark.parametrize("name", ["sixth_fleet", "sixth_fleet_2019", "carrier_battlegroup"])
def test_games_begun_before_version_6_keep_their_pieces(name: str) -> None:
    plan = _plan(name, pv.TRACKS)
    texts = [s.text for s in plan.unit_slots.values()] + [t for _n, t in plan.prototypes]
    assert not any("macro;" in t or "return;" in t or "setprop;" in t for t in texts)
    assert not any("setprop;" in s.text for s in plan.marker_slots)
    assert "sendto;Eliminate;69,130;" in dict(plan.prototypes)["Unit"]


# ---- real VASSAL ------------------------------------------------------------------------------

KEYS = {
    "sixth_fleet": "69,130;69,130",  # Eliminate, then Eliminate again on the dead pile
    "sixth_fleet_2019": "82,195;69,195;69,130",  # Refit Box, Permanently Eliminated, Eliminate
    "carrier_battlegroup": "69,130;69,130",
}


@plays(*KEYS, request="scores")
def _eliminate_and_track(stage: Stage) -> list[str]:
    """Each unit's Eliminate key pressed (and again on the dead pile), the Tracks counter's
    keys, and on the 2019 map the cups, on the first scenario's set-up."""
    setup = str(stage.setup())
    args = ["--eliminate", setup, "2", KEYS[stage.name]]
    args += ["--trackkeys", setup, "Tracks", "49,130;49,195"]
    if stage.name == "sixth_fleet_2019":
        args += ["--cups", setup]
    return args


def _props(text: str) -> dict[str, int]:
    return {k: int(v) for k, v in (p.split("=") for p in text.split())}


@pytest.mark.vassal
@pytest.mark.parametrize("name", sorted(KEYS))
def test_real_vassal_scores_an_eliminated_unit(name: str) -> None:
    module = _module(name)
    out = played(name, "scores")  # the module's one VPlay run of the session, exit 0
    assert not records(out, "PROBLEM")
    hook = module.schema.loss_score if module.schema is not None else None
    assert hook is not None
    pieces = module.pieces()
    by_slot: dict[str, list[list[str]]] = {}
    for row in records(out, "ELIM"):
        by_slot.setdefault(row[0], []).append(row)
    assert len(by_slot) >= 3, by_slot  # two of each side that has scoring units
    for slot, rows in by_slot.items():
        pid = slot.split(" ")[0]
        score = hook(module, pieces[pid].unit)
        assert score is not None
        before, first, *later = (_props(r[6]) for r in rows)
        assert first[score.track] == before[score.track] + score.vp, rows
        assert {k: v for k, v in first.items() if k != score.track} == {
            k: v for k, v in before.items() if k != score.track
        }
        assert all(p == first for p in later), rows  # already out of play: no more
        assert rows[1][4] in ("Eliminated", "Main Map") and rows[1][5] != rows[0][5]
    chat = [r[0] for r in records(out, "CHAT")]
    assert sum(" scores " in line for line in chat) == len(by_slot)
    tkeys = records(out, "TKEY")
    first_track = next(iter(_props(tkeys[0][2])))
    values = [_props(r[2])[first_track] for r in tkeys]
    assert values[1] == values[0] + 1 and values[2] == values[0]
    if name == "sixth_fleet_2019":
        held = cups(module)
        rows = records(out, "CUP")
        assert {r[0].split(" ")[0] for r in rows} == set(held)
        for slot, command, key, deck, inside in rows:
            assert (deck, inside, key) == (held[slot.split(" ")[0]], "true", "shift ctrl pressed C")
            assert command == f"Back to the {deck}"


# ---- a damaged ship sinks ----------------------------------------------------------------------


def _damage_key(plan: ModulePlan) -> str:
    layer = next(m for m in plan.marker_layers if m.marker == "damage")
    return f"{ord(layer.spec.key)},130"


def test_a_ship_sinks_at_the_damage_the_rules_say() -> None:
    """DTP: D3 sinks a ship or sub [DTP 8.55], D12 the Denmark Strait convoy [DTP 11.3 rule
    7]; the naval module: damage past the Protection Rating [27.31], a flotilla at 3 [32.12],
    a transport never (it goes to the Cadre Box [27.33])."""
    dtp = _plan("sixth_fleet_dtp")
    key = _damage_key(dtp).replace(",", "\\,")
    assert f"macro;Sunk at Damage 3 [DTP 8.54];;;{{Damage_Level > 3}};{key};69\\,130;" in (
        _slot(dtp, "US-CV-1")
    )
    assert not any("macro;Sunk" in _slot(dtp, p) for p, x in dtp.module.pieces().items()
                   if x.unit.category == "air")  # fmt: skip
    convoy = _plan("dtp_denmark_strait")
    sunk12 = [p for p, x in convoy.module.pieces().items() if "convoy" in x.unit.flags]
    assert sunk12 and all("{Damage_Level > 12}" in _slot(convoy, p) for p in sunk12)
    naval = _plan("naval_module")
    for pid, piece in naval.module.pieces().items():
        unit, text = piece.unit, _slot(naval, pid)
        if unit.category == "naval" and unit.type != "T":
            assert f"{{Damage_Level > {int(unit.values['PROT']) + 1}}}" in text, pid
        elif unit.category == "flotilla":
            assert "{Damage_Level > 3}" in text, pid
        else:
            assert "macro;Sunk" not in text, pid
    old = _plan("naval_module", pv.TRACKS)
    assert not any("macro;" in s.text for s in old.unit_slots.values())


SINKING = ("sixth_fleet_dtp", "naval_module")


@plays(*SINKING, request="sinks")
def _damage_seven_times(stage: Stage) -> list[str]:
    """The damage key pressed seven times on each unit of the first scenario's set-up."""
    keys = ";".join([_damage_key(_plan(stage.name))] * 7)
    return ["--eliminate", str(stage.setup()), "2", keys]


@pytest.mark.vassal
@pytest.mark.parametrize("name", SINKING)
def test_real_vassal_sinks_a_ship_at_its_damage(name: str) -> None:
    module = _module(name)
    out = played(name, "sinks")  # the module's one VPlay run of the session, exit 0
    assert not records(out, "PROBLEM")
    decl = next(d for d in module.schema.markers if d.id == "damage")  # type: ignore[union-attr]
    assert decl.lost_at is not None
    rows = records(out, "ELIM")
    slots = {r[0] for r in rows}
    assert len(slots) >= 2
    pieces = module.pieces()
    for slot in slots:
        sunk = decl.lost_at(module, pieces[slot.split(" ")[0]].unit)
        assert sunk is not None and sunk <= 7
        maps = [r[4] for r in rows if r[0] == slot]  # step 0 (placed), then one per key
        assert maps[:sunk] == ["Main Map"] * sunk and maps[sunk] == "Eliminated", (slot, maps)
