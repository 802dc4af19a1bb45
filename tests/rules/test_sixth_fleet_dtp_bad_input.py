"""The issue's bad-input list through the command line, on the DTP rules [issue 13, "How it
is checked"]: a detection attempt by a unit with strength 0 against that target type
[DTP 6.21], an impulse out of turn [DTP 4.1, 8.2], a strike on a target beyond range [8.1],
a malformed table cell in the module source [DTP 8.52]. Each is a clear message citing its
case, exit code 1, and nothing written (the folder's files are the same before and after).
Also a second coastal-base attack by the same Soviet SG [DTP 11.3 rule 4], and phase 6: a
rebase off a closed airbase [DTP 10.44] and a landing on a D2 carrier [DTP 9.27]."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from referee.engine.core import GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.impulses import start_8_2
from referee.source.loader import load_module
from tests.pbem.cliflow import cli

ROOT = Path(__file__).resolve().parents[2]
DS = ROOT / "module_src" / "dtp_denmark_strait"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _position(
    tmp: Path, phase: str, side: str, units: dict[str, str], extra: dict | None = None
) -> Path:
    """A Denmark Strait position written as a state.json (``units``: piece id -> hex;
    ``extra``: data laid over the empty records)."""
    m, _ = load_module(DS)
    assert m is not None
    game = Game.for_scenario(m, "denmark_strait")
    st = GameState("g", m.id, "sixth_fleet_dtp", "denmark_strait", 1, phase, side, {}, {})
    for pid, hex_id in units.items():
        st = st.with_unit(UnitState(pid, game.unit(pid).side, hex_id, None))
    data = {"damage": {}, "recycle": {}, "base_damage": {}, "combat": {}}
    if phase == "combat":
        data["impulses"] = start_8_2("NATO")  # Player B first [DTP 8.2]
    st = st.with_data(**{**data, **(extra or {})})
    path = tmp / "state.json"
    path.write_text(json.dumps(st.to_json()), encoding="utf-8")
    return path


def _validate(tmp: Path, state: Path, side: str, phase: str, section: str, line: str):
    orders = tmp / "orders.txt"
    orders.write_text(
        f"game: g\nturn: 1\nside: {side}\nphase: {phase}\n\n[{section}]\n{line}\n",
        encoding="utf-8",
    )
    before = _files(tmp)
    code, out = cli("validate", orders, "--state", state, "--module", DS)
    assert _files(tmp) == before  # nothing written
    return code, out


def test_detection_by_a_unit_with_strength_0_is_refused(tmp_path: Path) -> None:
    """A T22 (ASW 0) flies next to a NATO sub and tries to detect it: [DTP 6.21] (a CA with
    ASW 0 cannot detect subs), placed on the detect line."""
    state = _position(tmp_path, "air_movement_a", "Soviet", {"SO-T22": "1311", "US-SN-1": "1309"})
    code, out = _validate(
        tmp_path, state, "Soviet", "air_movement_a", "movement",
        "move SO-T22 1311 1310\ndetect SO-T22 -> US-SN-1",
    )  # fmt: skip
    assert code == 1, out
    assert "[DTP 6.21]" in out and "ASW is 0" in out and "orders.txt:8:" in out, out


def test_an_impulse_out_of_turn_is_refused(tmp_path: Path) -> None:
    """Player B (NATO) has the first impulse [DTP 8.2]; a Soviet impulse now is refused."""
    state = _position(tmp_path, "combat", "NATO", {"SO-SG-1.1": "2805"})
    code, out = _validate(
        tmp_path, state, "Soviet", "combat", "combat", "attack SO-SG-1.1 -> hex:2806"
    )
    assert code == 1, out
    # the impulse rule governs, not the sequence of play's header check [DTP 4.1] (issue 32)
    assert "[DTP 8.2]" in out and "it is NATO's impulse, not Soviet's" in out, out
    assert "[DTP 4.1]" not in out, out


def test_a_strike_beyond_range_is_refused(tmp_path: Path) -> None:
    """A strike by an air unit two hexes from its target: [8.1], which DTP keeps."""
    state = _position(tmp_path, "combat", "NATO", {"US-A6.1": "1313", "SO-CG-1": "1311"})
    code, out = _validate(tmp_path, state, "NATO", "combat", "combat", "strike US-A6.1 -> SO-CG-1")
    assert code == 1, out
    assert "[8.1]" in out and "beyond its reach" in out and "orders.txt:7" in out, out


def test_a_malformed_table_cell_is_refused_by_check_and_build(tmp_path: Path) -> None:
    """A Hit Table cell that is not '.', 'a-b' or 'D-n': file:line:col, the cell, the case
    [DTP 8.52]; `check` and `build` exit 1 and `build` writes no module."""
    src = tmp_path / "src"
    shutil.copytree(DS, src)
    hit = src / "tables" / "hit.csv"
    text = hit.read_text(encoding="utf-8")
    assert "\n12,.,1,1-3" in text
    hit.write_text(text.replace("\n12,.,1,1-3", "\n12,.,x,1-3"), encoding="utf-8")
    code, out = cli("check", src)
    assert code == 1, out
    assert "tables/hit.csv:" in out and "'x'" in out and "[DTP 8.52]" in out, out
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    code, out = cli("build", src, "-o", out_dir / "m.vmod")
    assert code == 1, out
    assert "[DTP 8.52]" in out, out
    assert not any(out_dir.iterdir())


def _with_data(state: Path, **data: object) -> Path:
    raw = json.loads(state.read_text("utf-8"))
    raw["data"] = {**raw["data"], **data}
    state.write_text(json.dumps(raw), encoding="utf-8")
    return state


def test_a_rebase_off_a_closed_airbase_is_refused(tmp_path: Path) -> None:
    """An F4 on Keflavik at D2 may not rebase: a closed airbase's air units cannot operate
    [DTP 10.44]; placed on the rebase line, nothing written."""
    state = _with_data(
        _position(tmp_path, "rebasing", "NATO", {"US-F4.1": "0918"}), base_damage={"0918": 2}
    )
    code, out = _validate(tmp_path, state, "NATO", "rebasing", "rebasing", "rebase US-F4.1 0918")
    assert code == 1, out
    assert "[DTP 10.44]" in out and "at D2" in out and "orders.txt:7:" in out, out


def test_landing_on_a_d2_carrier_is_refused(tmp_path: Path) -> None:
    """A Forger may not land on the Kiev at D2 [DTP 9.27, 8.55]."""
    state = _with_data(
        _position(tmp_path, "rebasing", "Soviet", {"SO-CH-1": "2703", "SO-F.1": "2704"}),
        damage={"SO-CH-1": 2},
        moved_air=["SO-F.1"],
    )
    code, out = _validate(tmp_path, state, "Soviet", "rebasing", "rebasing", "rebase SO-F.1 2703")
    assert code == 1, out
    assert "[DTP 9.27]" in out and "SO-CH-1 D2" in out and "orders.txt:7:" in out, out


def test_a_second_sg_base_attack_is_refused(tmp_path: Path) -> None:
    """SO-SG-1.1 has made its one attack on a coastal base this game (the state records it);
    a second, on Tromso, is refused with the case at the order's line and column, exit 1,
    nothing written [DTP 11.3 rule 4; rule flag one_sg_base_attack, DTP-50]."""
    state = _position(
        tmp_path,
        "combat",
        "Soviet",
        {"SO-SG-1.1": "2805"},
        {"impulses": start_8_2("Soviet"), "sg_base_attacks": ["SO-SG-1.1"]},
    )
    code, out = _validate(
        tmp_path, state, "Soviet", "combat", "combat", "attack SO-SG-1.1 -> hex:2806"
    )
    assert code == 1, out
    assert "[DTP 11.3 rule 4]" in out and "already made its one attack" in out, out
    assert "orders.txt:7:8" in out, out
