"""Real VASSAL 3.7.26 loads the DTP Denmark Strait module and the naval module with a
position of a played game each, with no warning, and shows what the engine says:

* DTP [DTP 11.3]: every piece in the engine's hex (or its carrier's holding box, or the
  recycle track box of the Game-Turn it returns [DTP 8.51]); the Damage layer at the engine's
  level on every ship and sub [DTP 8.54], D1-D12 (the convoy's whole track [DTP 11.3 rule 7]
  is checked on a copy of the position with its damage raised, the only hand-set value);
  Detected (surface/sub) [DTP 6.2a] and face-down inactive air [DTP 9.23] as the engine's
  status flags;
* naval: a ship in a port or a sea zone reports that name [26.1x], Sailed ships show their
  back [25.31], the Damage layer at the engine's damage points [27.31], the air units of the
  Naval Movement Interdiction Box [31.11] and the transport cadres [27.33] in their boxes,
  and a Port capacity marker on each controlled port at the capacity left [26.25].
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.rules.naval_module.markers import port_capacity_left
from referee.rules.sixth_fleet_dtp.special_bases import off_map_base
from referee.source.boxes import carried_by, carrier_of
from referee.source.model import Module
from referee.vassal.position.save import write_position_vsav
from tests.conftest import bundled_vmod

from .marker_games import dtp_position, naval_position
from .vcheck_run import checked, checks, run_vcheck

# the bundled modules as built once a session (``bundled_vmod``): the positions are of them
pytestmark = pytest.mark.vassal
LAYER = re.compile(r"Layer\[(.*?)\]value=(-?\d+);")


def _lines(out: str, save: Path) -> list[dict[str, str]]:
    """The PIECE lines of ``save``: map, location, name, properties (``Layer[...]value``
    keyed by the layer's name after the last `` - ``)."""
    rows = []
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] != "PIECE" or f[1] != str(save):
            continue
        row = {"map": f[2], "location": f[5], "name": f[6]}
        props = f[-1]
        for m in LAYER.finditer(props):  # a description may hold a ';'
            row["layer:" + m.group(1).rsplit(" - ", 1)[-1]] = m.group(2)
        for prop in LAYER.sub("", props).split(";"):
            key, eq, value = prop.partition("=")
            if eq:
                row[key] = value
        rows.append(row)
    return rows


def _vcheck(vmod: Path, saves: list[Path], tmp_path: Path) -> str:
    code, err, out = run_vcheck(vmod, [str(s) for s in saves], tmp_path / "vcheck.txt")
    assert code == 0, err
    problems = [ln for ln in out.splitlines() if ln.split("\t")[0] in ("PROBLEM", "WARN", "ERROR")]
    assert problems == []
    return out


def _convoy(m: Module, state: GameState) -> str:
    return next(u for u in state.units if m.piece(u).unit.id.startswith("US-CVY"))


@checks("dtp_denmark_strait", request="markers")
def _dtp_saves(folder: Path) -> tuple[list[Path], list[str]]:
    """The played position, and a copy with the convoy's damage raised to D11 (its track)."""
    m, state = dtp_position()
    damage = {u: int(d) for u, d in (state.data.get("damage") or {}).items()}
    raised = state.with_data(damage={**damage, _convoy(m, state): 11})
    played, deep = folder / "played.vsav", folder / "convoy_d11.vsav"
    write_position_vsav(m, state, played)
    write_position_vsav(m, raised, deep)
    return [played, deep], []


def test_dtp_position_shows_hexes_damage_detection_inactive_and_recycling() -> None:
    """On the session's one vcheck run of the bundled module (shared with its hex test)."""
    m, state = dtp_position()
    folder, out = checked("dtp_denmark_strait", "markers")  # exit 0, no problem
    assert not [ln for ln in out.splitlines() if ln.split("\t")[0] in ("WARN", "ERROR")]
    played, deep = (folder / "played.vsav").resolve(), (folder / "convoy_d11.vsav").resolve()
    damage = {u: int(d) for u, d in (state.data.get("damage") or {}).items()}
    convoy = _convoy(m, state)

    recycle = state.data["recycle"]
    expected = {}
    for u in state.units.values():
        if u.location is not None:
            expected[u.id] = u.location
        elif u.box == "recycle":
            expected[u.id] = f"Returns Game-Turn {min(int(recycle[u.id]), 21)}"
        elif carrier_of(u.box):
            expected[u.id] = f"Holding box {carrier_of(u.box)}"
        elif off_map_base(m, u.box or "") is not None:  # Murmansk [DTP 11.3 rule 2]
            expected[u.id] = u.box
    rows = {r["UnitId"]: r for r in _lines(out, played) if "UnitId" in r}
    assert {u: r["location"] for u, r in rows.items()} == expected
    assert any(v.startswith("Returns") for v in expected.values())
    shown = 0
    for u, r in rows.items():
        status = state.units[u].status
        category = m.piece(u).unit.category
        if category in ("surface", "submarine"):
            assert int(r["layer:Damage"]) == damage.get(u, 0), u
            shown += damage.get(u, 0) > 0
            level = damage.get(u, 0)
            assert (f"(D{level})" in r["name"]) == (level > 0), r["name"]
        assert ("(detected (surface))" in r["name"]) == ("detected_surface" in status), u
        assert ("(detected (sub))" in r["name"]) == ("detected_sub" in status), u
        assert ("(inactive)" in r["name"]) == ("inactive" in status), u
    assert shown >= 1
    assert any("inactive" in state.units[u].status for u in rows)
    deep_rows = {r["UnitId"]: r for r in _lines(out, deep) if "UnitId" in r}
    assert deep_rows[convoy]["layer:Damage"] == "11" and "(D11)" in deep_rows[convoy]["name"]


def test_naval_position_shows_ports_zones_sides_damage_boxes_and_capacity(tmp_path: Path) -> None:
    m, state = naval_position()
    vmod = bundled_vmod("naval_module")
    played = tmp_path / "played.vsav"
    write_position_vsav(m, state, played)
    out = _vcheck(vmod, [played], tmp_path)
    rows = _lines(out, played)
    by_unit = {r["UnitId"]: r for r in rows if "UnitId" in r}
    zones = m.map.zones.zones if m.map.zones is not None else {}
    zone_of_hex = {h: name for name, z in zones.items() for h in z.hexes}
    ships = state.data["ships"]
    checked = 0
    for pid, facts in ships.items():
        u = state.units[pid]
        if u.location is None:
            if facts["status"] == "cadre":
                assert by_unit[pid]["location"] == "Transport cadres"
            continue
        # a ship in a port or a sea zone reports that name; on an all-sea hex, its zone
        want = zone_of_hex.get(u.location, u.location)
        row = by_unit[pid]
        assert row["location"] == want, (pid, u.location)
        assert int(row["layer:Damage"]) == facts["damage"], pid
        assert ("(sailed)" in row["name"]) == (facts["status"] == "sailed"), row["name"]
        checked += 1
    assert checked >= 5
    for side, ids in state.data["interdiction_box"].items():
        for a in ids:
            assert by_unit[a]["map"] == "Naval Movement Interdiction Box"
            assert by_unit[a]["location"] == f"{side} air units"
    for u in state.units.values():
        ship = carried_by(u.box)
        if ship is not None:
            assert by_unit[u.id]["location"] == by_unit[ship]["location"], u.id
    left = port_capacity_left(m, state)
    shown = {
        r["location"]: int(r["layer:Port capacity"])
        for r in rows
        if r.get("Marker") == "Port capacity"
    }
    assert shown == left
