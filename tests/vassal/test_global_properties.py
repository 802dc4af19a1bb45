"""The numbers players keep by hand as VASSAL Global Properties (issue 27): victory points in
every module [13.0] [DTP 8.57] [4.3] [CBG 24.1], the Alert level [CBG 6.1], the actions left
[2019 6.1], the interdiction level [31.13]; changed by the *Tracks* menu's buttons and shown
by the *Tracks* counter. The fast tests read the buildFile; the ``vassal`` one presses the
buttons in real VASSAL 3.7.26 and reads the counter's labels
(``tests/vassal/java/VPlay.java``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from referee.source.loader import load_module
from referee.vassal.module.buildfile import buildfile_xml
from referee.vassal.module.module_writer import plan_build
from referee.vassal.module.properties import TRACKS_MENU, TRACKS_PIECE, track_properties
from tests.vassal.vplay_run import played, records

ROOT = Path(__file__).resolve().parents[2]
M = "VASSAL.build.module."
P = M + "properties."
# the property names other parts of the module and the saves refer to (triggers: VP_<side>)
WANT = {
    "sixth_fleet": {"VP_NATO": "0", "VP_Soviet": "0"},
    "sixth_fleet_dtp": {"VP_NATO": "0", "VP_Soviet": "0"},
    "dtp_denmark_strait": {"VP_NATO": "0", "VP_Soviet": "0"},
    "dtp_westpac": {"VP_EastBlock": "0", "VP_SEATO": "0"},
    "naval_module": {"Interdiction_Soviet": "0", "Interdiction_Axis": "0"},
    "carrier_battlegroup": {"VP": "0", "Alert": "1"},
    "sixth_fleet_2019": {"VP_NATO": "0", "VP_Soviet": "0", "Actions": "0"},
}


def _module(name: str):  # type: ignore[no-untyped-def]
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    return module


@pytest.mark.parametrize("name", sorted(WANT))
def test_each_module_keeps_its_tracks_as_global_properties(name: str) -> None:
    module = _module(name)
    root = etree.fromstring(buildfile_xml(plan_build(module)))
    props = {p.get("name"): p for p in root.iter(P + "GlobalProperty")}
    assert {k: p.get("initialValue") for k, p in props.items()} == WANT[name]
    items: list[str] = []
    for track in track_properties(module):
        prop = props[track.name]
        buttons = {b.get("text"): b for b in prop.iter(P + "ChangePropertyButton")}
        assert f"[{track.rule}]" in next(iter(buttons.values())).get("tooltip")
        if track.numeric:  # +1 / -1 within the bounds, and a prompt
            assert prop.get("isNumeric") == "true"
            assert int(prop.get("min")) <= int(prop.get("initialValue")) <= int(prop.get("max"))
            assert [b.get("propChanger") for b in buttons.values()][:2] == ["I,1", "I,-1"]
        assert list(buttons.values())[-1].get("propChanger").startswith("R,")
        items += list(buttons)
    menus = {m.get("text"): m for m in root.iter(M + "ToolbarMenu")}
    assert menus[TRACKS_MENU].get("menuItems").split(",") == items  # every button, in order
    slot = next(
        s for s in root.iter("VASSAL.build.widget.PieceSlot") if s.get("entryName") == TRACKS_PIECE
    )
    for track in track_properties(module):  # the counter shows each one by name
        assert f"${track.name}$" in (slot.text or "")


def test_dtp_victory_points_keep_their_fractions() -> None:
    """DTP's VP have fractions [DTP 8.57]: a text track, set by prompt, no +1 / -1."""
    (vp, *_) = track_properties(_module("sixth_fleet_dtp"))
    assert not vp.numeric and vp.rule == "DTP 8.57"


@pytest.mark.vassal
def test_the_tracks_change_and_show_in_real_vassal() -> None:
    out = played("carrier_battlegroup", "tracks")  # the module's one VPlay run, exit 0
    assert records(out, "PROP") == [["VP", "0"], ["Alert", "1"]]
    assert records(out, "PRESS") == [
        ["US Navy VP +1", "VP", "1"],
        ["US Navy VP -1", "VP", "0"],
        ["US Navy VP -1", "VP", "-1"],  # the US VP may go below zero [24.3]
        ["Soviet Alert level +1", "Alert", "2"],
        ["Soviet Alert level -1", "Alert", "1"],
        ["Soviet Alert level -1", "Alert", "1"],  # never below one [6.1]
    ]
    chat = [f[0] for f in records(out, "CHAT")]
    assert any(re.search(r"US Navy VP 0 -> 1", c) for c in chat), chat
    # the counter's labels show the values VASSAL now holds
    assert records(out, "LABEL") == [
        [TRACKS_PIECE, "US Navy VP: -1"],
        [TRACKS_PIECE, "Soviet Alert level: 1"],
    ]


# the referee's values at a new game's start: the 2019 key zones NATO holds [4.3], Denmark
# Strait's score with its bonuses as they stand [DTP 11.3]; CBG's Alert is 0 until the
# set-up rolls it [4.0 step 3], below the track [6.1], so the save shows the track's start
STARTS = {
    **WANT,
    "sixth_fleet_2019": {"VP_NATO": "24", "VP_Soviet": "0", "Actions": "0"},
    "dtp_denmark_strait": {"VP_NATO": "0", "VP_Soviet": "20"},
}


@pytest.mark.parametrize(
    ("name", "scenario"),
    [("sixth_fleet", None), ("carrier_battlegroup", None), ("naval_module", None),
     ("sixth_fleet_2019", None), ("dtp_denmark_strait", None)],
)  # fmt: skip
def test_saves_of_new_games_set_the_properties_to_the_referees_values(
    name: str, scenario: str | None
) -> None:
    """A game begun since piece version 5 has its saves set every property (the referee's
    value, or the track's start); a game begun before keeps its saves as they were, so
    ``verify`` still proves them (``piece_versions``)."""
    from referee.engine.ruleset import get_ruleset
    from referee.vassal.codec.commands import encode_command
    from referee.vassal.codec.savefile import read_save_bytes
    from referee.vassal.module.piece_versions import REFIT, TRACKS
    from referee.vassal.position.placement import table_for
    from referee.vassal.position.save import position_vsav_bytes, track_values

    module = _module(name)
    scn = scenario or next(iter(module.scenarios))
    state = get_ruleset(module.ruleset).new_game(module, scn, "t")
    table = table_for(module)
    values = dict(track_values(table, state))
    assert values == STARTS[name]
    new = position_vsav_bytes(table, state, piece_version=TRACKS)
    old = position_vsav_bytes(table, state, piece_version=REFIT)
    new_text = encode_command(read_save_bytes(new).commands)
    old_text = encode_command(read_save_bytes(old).commands)
    for prop, value in values.items():
        assert f"GlobalProperty\t;{prop};{value};" in new_text
        assert f"GlobalProperty\t;{prop};" not in old_text
